//! `POST /v1/games/{game}/review`: a checked-in game with a planted
//! blunder (proven by the solver) is labelled as such, the moves the engine
//! would play are `best`, every game of the registry reviews a random game,
//! Number Crush's swaps are judged by points, NDJSON streams a line per
//! move in order over a real socket, and a client that leaves frees the
//! workers. Router answers are checked against openapi.yaml by the helpers.

use crate::common::*;
use axum::http::StatusCode;
use gamebot::config::ServeConfig;
use gamebot::game::wire::ReviewBasis;
use gamebot::games::REGISTRY;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The planted game's record and the number of its planted move.
fn planted() -> (String, usize) {
    let record = data::text("reversi/review-blunder.txt")
        .lines()
        .find(|l| !l.starts_with('#') && !l.trim().is_empty())
        .unwrap()
        .trim()
        .to_string();
    (record, 48)
}

#[tokio::test]
async fn a_planted_blunder_is_a_blunder_and_the_engine_s_own_moves_are_best() {
    let (record, blunder) = planted();
    let reply = post_json(
        &app(),
        "/v1/games/reversi/review",
        &json!({"record": record, "max_nodes_per_ply": 100000}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.json);
    let plies = reply.json["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 60);
    let planted = &plies[blunder - 1];
    assert_eq!(planted["notation"], "f7");
    assert_eq!(planted["best"]["notation"], "e7");
    assert_eq!(planted["label"], "blunder", "{planted}");
    assert_eq!(planted["win_probability_before"], 1.0);
    assert_eq!(planted["win_probability_after"], 0.0);
    assert_eq!(planted["loss"], 1.0);
    for ply in plies {
        // The engine's own move is best (or book); a move called best lost
        // nothing the search can tell, by the same search as the best's.
        if ply["notation"] == ply["best"]["notation"] {
            assert!(ply["label"] == "best" || ply["label"] == "book", "{ply}");
            assert_eq!(ply["loss"], 0.0);
            assert_eq!(ply["score_after"], ply["score_before"], "{ply}");
        }
        if ply["label"] == "best" {
            assert!(
                ply["loss"].as_f64().unwrap() <= ply["noise"].as_f64().unwrap(),
                "{ply}"
            );
        } else {
            assert!(
                ply["score_after"].as_i64() <= ply["score_before"].as_i64(),
                "{ply}"
            );
        }
        assert!(ply["ply"].as_u64().is_some());
    }
    let sides = reply.json["summary"]["sides"].as_array().unwrap();
    assert_eq!(sides.len(), 2);
    for side in sides {
        assert_eq!(side["moves"], 30);
        let accuracy = side["accuracy"].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&accuracy));
        assert!(side["judged"].as_u64().unwrap() <= 30);
    }
    let white = sides.iter().find(|s| s["side"] == "white").unwrap();
    assert!(white["labels"]["blunder"].as_u64().unwrap() >= 1);
}

#[tokio::test]
async fn the_readme_s_example_game_is_all_book_best_or_excellent_and_its_first_moves_score_alike() {
    let reply = post_json(
        &app(),
        "/v1/games/reversi/review",
        &json!({"record": "f5d6c3d3c4f4f6f3e6e7"}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.json);
    for ply in reply.json["plies"].as_array().unwrap() {
        let label = ply["label"].as_str().unwrap();
        assert!(["book", "best", "excellent"].contains(&label), "{ply}");
    }
    // From the start every first move is a mirror image of the others.
    let mut firsts = Vec::new();
    for first in ["f5", "d3", "c4", "e6"] {
        let reply = post_json(
            &app(),
            "/v1/games/reversi/review",
            &json!({"record": first, "max_nodes_per_ply": 20000}),
        )
        .await;
        let ply = &reply.json["plies"][0];
        firsts.push((
            ply["score_after"].clone(),
            ply["label"].clone(),
            ply["loss"].clone(),
        ));
    }
    assert!(firsts.windows(2).all(|w| w[0] == w[1]), "{firsts:?}");
}

#[tokio::test]
async fn the_same_seeded_review_by_nodes_is_the_same_every_time() {
    let body = json!({"record": "f5d6c3d3c4f4f6f3e6e7", "max_nodes_per_ply": 20000, "seed": 3});
    let first = post_json(&app(), "/v1/games/reversi/review", &body).await;
    let second = post_json(&app(), "/v1/games/reversi/review", &body).await;
    assert_eq!(first.status, StatusCode::OK);
    assert_eq!(first.json["plies"], second.json["plies"]);
    assert_eq!(first.json["budget"]["max_nodes_per_ply"], 20000);
}

/// A random game of `plies` moves of a registry game, as notations.
async fn random_game(game: &str, plies: usize, rng: &mut ChaCha8Rng) -> Vec<Value> {
    let app = app();
    let mut state = post_json(&app, &format!("/v1/games/{game}/new"), &json!({}))
        .await
        .json["state"]
        .clone();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = post_json(
            &app,
            &format!("/v1/games/{game}/legal-moves"),
            &json!({"state": state}),
        )
        .await;
        let list = legal.json["moves"].as_array().unwrap();
        if list.is_empty() {
            break;
        }
        let mv = list[rng.random_range(0..list.len())].clone();
        moves.push(mv["notation"].clone());
        state = post_json(
            &app,
            &format!("/v1/games/{game}/play"),
            &json!({"state": state, "move": mv}),
        )
        .await
        .json["state"]
            .clone();
    }
    moves
}

#[tokio::test]
async fn every_game_reviews_a_random_game_move_by_move() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for game in REGISTRY {
        let id = game.info().id;
        let moves = random_game(id, 6, &mut rng).await;
        let reply = post_json(
            &app(),
            &format!("/v1/games/{id}/review"),
            &json!({"moves": moves, "max_nodes_per_ply": 20000}),
        )
        .await;
        assert_eq!(reply.status, StatusCode::OK, "{id}: {}", reply.json);
        let plies = reply.json["plies"].as_array().unwrap();
        assert_eq!(plies.len(), moves.len(), "{id}");
        // The listing says what the game's reviews judge by: a win model
        // judges every move; without one, only those whose positions the
        // solver proved within the budget (Naughts); a one-player game, by
        // points (Number Crush).
        let basis = game.listing().review_judged_by;
        let one_player = game.info().players == 1;
        assert_eq!(basis == ReviewBasis::Points, one_player, "{id}");
        let modelled = basis == ReviewBasis::WinProbability;
        for (i, ply) in plies.iter().enumerate() {
            assert_eq!(ply["ply"], i + 1);
            assert_eq!(ply["notation"], moves[i], "{id}");
            assert_eq!(ply["points_lost"].is_i64(), one_player, "{id}");
            let judged = ply["loss"].is_f64() || ply["points_lost"].is_i64();
            let as_good = ply["label"] == "best" || ply["label"] == "book";
            assert_eq!(ply["label"].is_string(), judged || as_good, "{id}: {ply}");
            assert!(
                ply["noise"].as_f64().is_some_and(|n| n >= 0.0),
                "{id}: {ply}"
            );
            if modelled {
                assert!(ply["loss"].is_f64(), "{id}: {ply}");
            }
        }
    }
}

#[tokio::test]
async fn a_crush_swap_is_judged_by_the_points_it_lost_against_the_best() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let moves = random_game("crush", 8, &mut rng).await;
    let reply = post_json(
        &app(),
        "/v1/games/crush/review",
        &json!({"moves": moves, "max_nodes_per_ply": 4000}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.json);
    for ply in reply.json["plies"].as_array().unwrap() {
        let lost = ply["points_lost"].as_i64().unwrap();
        assert!(lost >= 0);
        if ply["notation"] == ply["best"]["notation"] {
            assert_eq!(ply["label"], "best", "{ply}");
        }
        let fraction = lost as f64 / ply["best"]["score"].as_i64().unwrap().max(1) as f64;
        if ply["label"] == "best" {
            assert!(fraction <= ply["noise"].as_f64().unwrap(), "{ply}");
        }
        if ply["notation"] != ply["best"]["notation"] {
            // The played swap's points come from the same search as the best's.
            let lost_by_scores =
                ply["score_before"].as_i64().unwrap() - ply["score_after"].as_i64().unwrap();
            assert_eq!(lost, lost_by_scores.max(0), "{ply}");
        }
    }
    let sides = reply.json["summary"]["sides"].as_array().unwrap();
    assert_eq!(sides.len(), 1);
    assert_eq!(sides[0]["side"], "player");
}

#[tokio::test]
async fn a_bad_review_says_which_field() {
    let app = app();
    let reply = post_json(
        &app,
        "/v1/games/reversi/review",
        &json!({"moves": ["f5", "a1"]}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(reply.json["pointer"], "/moves/1");
    let reply = post_json(
        &app,
        "/v1/games/reversi/review",
        &json!({"moves": ["f5"], "max_nodes_per_ply": 0}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(reply.json["pointer"], "/max_nodes_per_ply");
    let reply = post_json(
        &app,
        "/v1/games/reversi/review",
        &json!({"moves": ["f5"], "depth": 3}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    // The cap is checked before any move is played: the first of these
    // 601 moves is not even legal.
    let too_long: Vec<Value> = (0..601).map(|_| json!("zz")).collect();
    let reply = post_json(&app, "/v1/games/crush/review", &json!({"moves": too_long})).await;
    assert_eq!(
        reply.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        reply.json
    );
    assert_eq!(reply.json["pointer"], "/moves");
    assert_eq!(
        reply.json["detail"],
        "moves holds 601 moves: this endpoint takes at most 600"
    );
}

fn raw_review(game: &str, body: &Value) -> String {
    let body = body.to_string();
    format!(
        "POST /v1/games/{game}/review HTTP/1.1\r\nhost: test\r\naccept: application/x-ndjson\r\n\
         content-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ndjson_streams_one_line_per_move_in_order_then_the_summary() {
    let (addr, _state) = spawn_server(crate::common::config()).await;
    let reply = reqwest::Client::new()
        .post(format!("http://{addr}/v1/games/reversi/review"))
        .header("accept", "application/x-ndjson")
        .json(&json!({"record": "f5d6c3d3c4f4f6f3e6e7", "max_nodes_per_ply": 20000}))
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), 200);
    assert_eq!(
        reply.headers()["content-type"].to_str().unwrap(),
        "application/x-ndjson"
    );
    let text = reply.text().await.unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 11, "{text}");
    let documented = &openapi()["paths"]["/v1/games/reversi/review"]["post"]["responses"]["200"]
        ["content"]["application/x-ndjson"]["schema"];
    for line in &lines {
        validate(documented, line, "a streamed review line");
    }
    for (i, line) in lines[..10].iter().enumerate() {
        assert_eq!(line["ply"]["ply"], i + 1, "{line}");
    }
    assert_eq!(lines[10]["summary"]["sides"].as_array().unwrap().len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_leaves_a_worker_free_and_a_client_that_leaves_it_frees_its_own() {
    let (addr, state) = spawn_server(ServeConfig {
        workers: Some(2),
        queue: 0,
        ..crate::common::config()
    })
    .await;
    let (record, _) = planted();
    let mut client = TcpStream::connect(addr).await.unwrap();
    let request = raw_review(
        "reversi",
        &json!({"record": record, "time_ms_per_ply": 2000}),
    );
    client.write_all(request.as_bytes()).await.unwrap();
    wait_until("the review starting", Duration::from_secs(5), || {
        state.pool.running() == 1
    })
    .await;
    // The review never takes the last worker: another request is answered
    // while it runs.
    let other = reqwest::Client::new()
        .post(format!("http://{addr}/v1/games/reversi/analyze"))
        .json(&json!({"state": {"board": ["........", "........", "........", "...WB...", "...BW...", "........", "........", "........"], "to_move": "black"}, "time_ms": 50}))
        .send()
        .await
        .unwrap();
    assert_eq!(other.status(), 200);
    assert_eq!(state.pool.running(), 1, "the review still runs");
    let mut first = [0u8; 64];
    let _ = tokio::time::timeout(Duration::from_millis(50), client.read(&mut first)).await;
    drop(client);
    let freed = wait_until(
        "the review's workers being freed",
        Duration::from_secs(2),
        || state.pool.admitted() == 0,
    )
    .await;
    eprintln!("review workers freed {freed:?} after the client left");
}
