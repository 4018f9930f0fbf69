//! `POST /v1/games/{game}/placement` over the real router, and the
//! placement bars on every rated ladder the service publishes: after 10
//! games against the recommended levels, the 95% interval covers the true
//! rating of at least 90% of 500 simulated players, and at least 90% are
//! recommended their ideal level or one next to it; no game moves a
//! recommendation more than two levels; a newcomer starts at the level the
//! newcomer simulation picks, never the top; Number Crush is placed by
//! its scores' percentiles.
//!
//! The figures for docs/LADDER.md:
//! `cargo test --release --test it placement:: -- --nocapture`

use crate::common::*;
use axum::http::StatusCode;
use gamebot::game::placement::{self, newcomer_level, MAX_LEVELS_A_RESULT, NEWCOMER_LEVELS};
use gamebot::games::REGISTRY;
use serde_json::{json, Value};

const PLACEMENT: &str = "/v1/games/{game}/placement";

fn uri(id: &str) -> String {
    PLACEMENT.replace("{game}", id)
}

#[tokio::test]
async fn the_documented_example_gets_the_documented_answer() {
    let operation = &openapi()["paths"][PLACEMENT]["post"];
    let request = &operation["requestBody"]["content"]["application/json"]["example"];
    let documented = &operation["responses"]["200"]["content"]["application/json"]["example"];
    let reply = post_json(&app(), &uri("reversi"), request).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    for field in ["rating", "interval", "games", "recommended"] {
        assert_eq!(
            reply.json[field], documented[field],
            "{field}: {}",
            reply.text
        );
    }
    for level in documented["levels"].as_array().unwrap() {
        let listed = &reply.json["levels"].as_array().unwrap()
            [level["level"].as_u64().unwrap() as usize - 1];
        assert_eq!(listed, level, "{}", reply.text);
    }
}

/// Each listed game's numbered levels with their ratings, and its id.
async fn ladders(app: &axum::Router) -> Vec<(String, Vec<(u64, f64)>)> {
    let games = get(app, "/v1/games").await.json;
    games["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|listing| {
            let ratings = listing["numbered_levels"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|l| Some((l["level"].as_u64()?, l["rating"].as_f64()?)))
                .collect();
            (listing["id"].as_str().unwrap().to_string(), ratings)
        })
        .collect()
}

#[tokio::test]
async fn no_results_start_a_newcomer_at_the_game_s_newcomer_level_never_the_top() {
    let app = app();
    for (id, ratings) in ladders(&app).await {
        // The body is required: an empty one is refused, `{}` is no results.
        let empty = send(
            &app,
            axum::http::Method::POST,
            &uri(&id),
            None,
            axum::body::Body::empty(),
        )
        .await;
        assert_eq!(
            empty.status,
            StatusCode::BAD_REQUEST,
            "{id}: {}",
            empty.text
        );
        let reply = post_json(&app, &uri(&id), &json!({})).await;
        assert_eq!(reply.status, StatusCode::OK, "{id}: {}", reply.text);
        let newcomer = u64::from(newcomer_level(&id));
        assert_eq!(
            reply.json["recommended"]["level"],
            json!(newcomer),
            "{id}: {}",
            reply.text
        );
        let levels = reply.json["levels"].as_array().unwrap();
        assert!(newcomer < levels.len() as u64, "{id}: the top level");
        if ratings.is_empty() {
            // A one-player game: no results, no percentiles.
            assert_eq!(reply.json["recommended"]["percentile"], Value::Null);
            continue;
        }
        // Placed at the newcomer level's rating, which it scores half against.
        let rating = reply.json["rating"].as_f64().unwrap();
        let (_, expected) = ratings.iter().find(|r| r.0 == newcomer).unwrap();
        assert!((rating - expected).abs() <= 0.05, "{id}: {rating}");
        assert_eq!(reply.json["recommended"]["expected_score"], json!(0.5));
        assert_eq!(levels.len(), ratings.len());
    }
}

#[tokio::test]
async fn the_problems_reported_in_issue_68_are_gone() {
    let app = app();
    // No results no longer put a Naughts newcomer against the perfect player.
    let naughts = post_json(&app, &uri("naughts"), &json!({})).await.json;
    assert_ne!(naughts["recommended"]["level"], json!(4), "{naughts}");
    // One win at Reversi level 3 moves the newcomer two levels at most.
    let won = post_json(
        &app,
        &uri("reversi"),
        &json!({"results": [{"level": 3, "result": "win"}]}),
    )
    .await
    .json;
    let start = i64::from(newcomer_level("reversi"));
    let level = won["recommended"]["level"].as_i64().unwrap();
    assert!(level > start && level - start <= 2, "{won}");
    // One loss at level 1 never rates a player below the random mover.
    for (id, ratings) in ladders(&app).await {
        if ratings.is_empty() {
            continue;
        }
        let lost = post_json(
            &app,
            &uri(&id),
            &json!({"results": [{"level": 1, "result": "loss"}]}),
        )
        .await;
        assert_eq!(lost.status, StatusCode::OK, "{id}: {}", lost.text);
        assert!(
            lost.json["rating"].as_f64().unwrap() >= 0.0,
            "{id}: {}",
            lost.text
        );
        assert!(
            lost.json["interval"][0].as_f64().unwrap() >= 0.0,
            "{id}: {}",
            lost.text
        );
    }
    // Number Crush answers 200 with a percentile against each level.
    let crush = post_json(
        &app,
        &uri("crush"),
        &json!({"results": [{"k": 4, "score": 12000}]}),
    )
    .await;
    assert_eq!(crush.status, StatusCode::OK, "{}", crush.text);
    let levels = crush.json["levels"].as_array().unwrap();
    assert_eq!(levels.len(), 4, "{}", crush.text);
    // Level 1 plays any matching swap alike: 12,000 at k=4 beats it.
    assert!(
        levels[0]["percentile"].as_f64().unwrap() > 90.0,
        "{}",
        crush.text
    );
    assert!(
        levels[3]["percentile"].as_f64().unwrap() < 10.0,
        "{}",
        crush.text
    );
    assert_eq!(crush.json["beaten"], json!([1]), "{}", crush.text);
    // Level 1 always beaten, level 2 never: the easier of the two as far
    // from an even race.
    assert_eq!(
        crush.json["recommended"]["level"],
        json!(1),
        "{}",
        crush.text
    );
    assert_eq!(levels[0]["by_k"][0]["k"], json!(4));
}

#[tokio::test]
async fn number_crush_places_scores_by_their_percentiles() {
    let app = app();
    let reply = |body: Value| {
        let app = app.clone();
        async move { post_json(&app, &uri("crush"), &body).await }
    };
    // Scores like level 3's at every k place the player at level 3 or next to it.
    let games = get(&app, "/v1/games").await.json;
    let crush = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == "crush")
        .unwrap()
        .clone();
    let means = &crush["numbered_levels"][2]["mean_scores"];
    let results: Vec<Value> = ["k=4", "k=5", "k=6", "k=7"]
        .iter()
        .map(|k| json!({"k": k[2..].parse::<u64>().unwrap(), "score": means[k].as_f64().unwrap() as u64}))
        .collect();
    let placed = reply(json!({"results": results})).await;
    assert_eq!(placed.status, StatusCode::OK, "{}", placed.text);
    let level = placed.json["recommended"]["level"].as_u64().unwrap();
    assert!(level.abs_diff(3) <= 1, "{}", placed.text);
    assert_eq!(
        placed.json["levels"][0]["by_k"].as_array().unwrap().len(),
        4
    );
    // A k the ladder did not measure, and a level's result form, are refused at their place.
    let unmeasured =
        reply(json!({"results": [{"k": 4, "score": 10}, {"k": 9, "score": 10}]})).await;
    assert_eq!(
        unmeasured.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        unmeasured.text
    );
    assert_eq!(unmeasured.json["pointer"], "/results/1/k");
    let wrong = reply(json!({"results": [{"level": 2, "result": "win"}]})).await;
    assert_eq!(wrong.status, StatusCode::BAD_REQUEST, "{}", wrong.text);
    assert_eq!(wrong.json["pointer"], "/results/0/level", "{}", wrong.text);
}

#[test]
fn each_game_s_newcomer_level_is_the_one_the_simulation_picks() {
    let mut wrong = Vec::new();
    for game in REGISTRY {
        let listing = game.listing();
        let top = listing.numbered_levels.len() as u8;
        let newcomer = newcomer_level(listing.id);
        assert!(
            NEWCOMER_LEVELS.iter().any(|(id, _)| *id == listing.id),
            "{}: no newcomer level",
            listing.id
        );
        assert!(
            (1..top).contains(&newcomer),
            "{}: {newcomer} of {top}",
            listing.id
        );
        if listing.numbered_levels.iter().all(|l| l.rating.is_none()) {
            continue;
        }
        let (chosen, scores) = placement::choose_newcomer(&listing.numbered_levels, 500, 1);
        println!(
            "{:8} newcomer level {chosen}; placed on average over games 0-{}: {}",
            listing.id,
            placement::NEWCOMER_GAMES,
            scores
                .iter()
                .map(|(level, share)| format!("{level}: {:.1}%", share * 100.0))
                .collect::<Vec<_>>()
                .join(", ")
        );
        if newcomer != chosen {
            wrong.push(format!("{}: {newcomer}, not {chosen}", listing.id));
        }
    }
    assert!(wrong.is_empty(), "{wrong:?}");
}

#[tokio::test]
async fn wins_move_a_player_up_and_losses_down() {
    let app = app();
    let results = |result: &str| json!({"results": (0..4).map(|_| json!({"level": 6, "result": result})).collect::<Vec<Value>>()});
    let won = post_json(&app, &uri("halma"), &results("win")).await.json;
    let drawn = post_json(&app, &uri("halma"), &results("draw")).await.json;
    let lost = post_json(&app, &uri("halma"), &results("loss")).await.json;
    let level = |reply: &Value| reply["recommended"]["level"].as_u64().unwrap();
    let rating = |reply: &Value| reply["rating"].as_f64().unwrap();
    assert!(rating(&won) > rating(&drawn) && rating(&drawn) > rating(&lost));
    assert!(level(&won) > 6 && level(&lost) < 6, "{won} {lost}");
    assert!(level(&drawn).abs_diff(6) <= 1, "{drawn}");
    let practice = post_json(
        &app,
        &uri("halma"),
        &json!({"results": results("draw")["results"], "target": 0.7}),
    )
    .await
    .json;
    assert!(level(&practice) < level(&drawn), "{practice}");
    assert_eq!(practice["recommended"]["target"], json!(0.7));
}

#[tokio::test]
async fn a_bad_result_is_refused_at_its_place() {
    let app = app();
    let cases = [
        (
            json!({"results": [{"level": 1, "result": "win"}, {"level": 13, "result": "win"}]}),
            "/results/1/level",
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({"results": [{"level": "strong", "result": "win"}]}),
            "/results/0/level",
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({"results": [{"level": 2, "result": "won"}]}),
            "/results/0/result",
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"results": [{"level": 2, "result": "win", "date": "2026-02-30"}]}),
            "/results/0/date",
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({"results": [{"level": 2, "result": "win", "when": "today"}]}),
            "/results/0/when",
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"results": [{"level": true, "result": "win"}]}),
            "/results/0/level",
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"results": [], "target": 1.5}),
            "/target",
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (json!({"results": {}}), "/results", StatusCode::BAD_REQUEST),
    ];
    for (body, pointer, status) in cases {
        let reply = post_json(&app, &uri("reversi"), &body).await;
        assert_eq!(reply.status, status, "{body}: {}", reply.text);
        assert_eq!(reply.json["pointer"], pointer, "{body}: {}", reply.text);
    }
    let unknown = post_json(&app, &uri("chess"), &json!({})).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
}

#[test]
fn simulated_players_are_placed_on_every_rated_ladder() {
    for game in REGISTRY {
        let listing = game.listing();
        if listing.numbered_levels.iter().all(|l| l.rating.is_none()) {
            continue;
        }
        for games in [1, 3, 5, 10, 20] {
            let newcomer = newcomer_level(listing.id);
            let simulated = placement::simulate(&listing.numbered_levels, newcomer, 500, games, 1);
            println!(
                "{:8} after {games:2} games: interval covers the truth {:5.1}%, recommendation within one level of the ideal {:5.1}%, largest move {}",
                listing.id,
                simulated.coverage * 100.0,
                simulated.converged * 100.0,
                simulated.largest_move
            );
            assert!(
                simulated.largest_move <= MAX_LEVELS_A_RESULT,
                "{}: {simulated:?}",
                listing.id
            );
            if games == placement::BAR_GAMES {
                assert!(
                    simulated.coverage >= placement::BAR,
                    "{}: {simulated:?}",
                    listing.id
                );
                assert!(
                    simulated.converged >= placement::BAR,
                    "{}: {simulated:?}",
                    listing.id
                );
            }
        }
    }
}
