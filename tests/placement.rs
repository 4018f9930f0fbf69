//! `POST /v1/games/{game}/placement` over the real router, and the
//! placement bars on every rated ladder the service publishes: after 10
//! games against the recommended levels, the 95% interval covers the true
//! rating of at least 90% of 500 simulated players, and at least 90% are
//! recommended their ideal level or one next to it.
//!
//! The figures for docs/LADDER.md:
//! `cargo test --release --test placement -- --nocapture`

mod common;

use axum::http::StatusCode;
use common::*;
use gamebot::game::placement::{self, DEFAULT_RATING};
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

#[tokio::test]
async fn no_results_start_at_the_level_nearest_the_default() {
    let app = app();
    let games = get(&app, "/v1/games").await.json;
    for listing in games["games"].as_array().unwrap() {
        let id = listing["id"].as_str().unwrap();
        let ratings: Vec<(u64, f64)> = listing["numbered_levels"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|l| Some((l["level"].as_u64()?, l["rating"].as_f64()?)))
            .collect();
        let reply = send(
            &app,
            axum::http::Method::POST,
            &uri(id),
            None,
            axum::body::Body::empty(),
        )
        .await;
        if ratings.is_empty() {
            assert_eq!(
                (reply.status, reply.code()),
                (StatusCode::UNPROCESSABLE_ENTITY, "invalid_option"),
                "{id}: {}",
                reply.text
            );
            continue;
        }
        assert_eq!(reply.status, StatusCode::OK, "{id}: {}", reply.text);
        // The default is a rating above level 1, the ladder's first rung.
        let default = ratings[0].1 + DEFAULT_RATING;
        let rating = reply.json["rating"].as_f64().unwrap();
        assert!(
            (rating - default).abs() <= 0.05,
            "{id}: {rating} for {default}"
        );
        let nearest = ratings
            .iter()
            .min_by(|a, b| (a.1 - default).abs().total_cmp(&(b.1 - default).abs()))
            .unwrap();
        assert_eq!(
            reply.json["recommended"]["level"],
            json!(nearest.0),
            "{id}: {}",
            reply.text
        );
        assert_eq!(
            reply.json["levels"].as_array().unwrap().len(),
            ratings.len()
        );
    }
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
            let simulated = placement::simulate(&listing.numbered_levels, 500, games, 1);
            println!(
                "{:8} after {games:2} games: interval covers the truth {:5.1}%, recommendation within one level of the ideal {:5.1}%",
                listing.id,
                simulated.coverage * 100.0,
                simulated.converged * 100.0
            );
            if games == 10 {
                assert!(simulated.coverage >= 0.9, "{}: {simulated:?}", listing.id);
                assert!(simulated.converged >= 0.9, "{}: {simulated:?}", listing.id);
            }
        }
    }
}
