//! Contracts that hold for every game of the registry, walked from the
//! registry so a new game is covered without touching this file: request
//! bodies with a field nobody takes are refused with a pointer at it, and a
//! game's levels are the same wherever they are listed.

use crate::common::*;
use axum::http::StatusCode;
use gamebot::games::REGISTRY;
use serde_json::{json, Value};

/// A body for `endpoint` of `game` that is valid apart from anything added.
fn valid_body(game: &dyn gamebot::game::DynGame, endpoint: &str) -> Value {
    let state = game.new_game(&Value::Null).unwrap().state;
    let first_move = game.legal_moves(&state).unwrap().moves[0]["notation"].clone();
    match endpoint {
        "new" => json!({}),
        "play" => json!({"state": state, "move": first_move}),
        "bot-move" | "analyze" => json!({"state": state, "max_depth": 1}),
        _ => json!({"state": state}),
    }
}

#[tokio::test]
async fn a_misspelt_field_is_refused_with_a_pointer_at_it_on_every_endpoint_of_every_game() {
    let app = app();
    for game in REGISTRY {
        let id = game.info().id;
        for endpoint in ["new", "legal-moves", "play", "bot-move", "analyze"] {
            let uri = format!("/v1/games/{id}/{endpoint}");
            let body = valid_body(*game, endpoint);
            let reply = post_json(&app, &uri, &body).await;
            assert_eq!(
                reply.status,
                StatusCode::OK,
                "{uri} without the typo: {}",
                reply.text
            );

            let mut misspelt = body.clone();
            misspelt["levle"] = json!("strong");
            let reply = post_json(&app, &uri, &misspelt).await;
            assert_eq!(
                reply.status,
                StatusCode::BAD_REQUEST,
                "{uri}: {}",
                reply.text
            );
            assert_eq!(reply.code(), "malformed_json", "{uri}");
            assert_eq!(reply.json["pointer"], "/levle", "{uri}: {}", reply.text);
            assert!(
                reply.json["detail"].as_str().unwrap().contains("levle"),
                "{uri}: {}",
                reply.text
            );
        }
    }
}

#[tokio::test]
async fn every_game_takes_a_clock_in_either_shape() {
    let app = app();
    for clock in [
        json!({"mode": "GAME", "time_left_s": 30}),
        json!({"remaining_ms": 30000, "increment_ms": 100}),
    ] {
        for game in REGISTRY {
            let id = game.info().id;
            let state = game.new_game(&Value::Null).unwrap().state;
            let body = json!({"state": state, "clock": clock, "max_depth": 1});
            let reply = post_json(&app, &format!("/v1/games/{id}/bot-move"), &body).await;
            assert_eq!(reply.status, StatusCode::OK, "{id} {clock}: {}", reply.text);
            assert!(
                reply.json["search"]["clock"]["planned_ms"].is_u64(),
                "{}",
                reply.json
            );
        }
    }
    // A bad value inside the clock points into it.
    let mut body = valid_body(REGISTRY[1], "bot-move");
    body["clock"] = json!({"mode": "BLITZ", "time_left_s": 30});
    let reply = post_json(&app, "/v1/games/halma/bot-move", &body).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.text);
    assert!(reply.text.contains("BLITZ"), "{}", reply.text);
    assert_eq!(reply.json["pointer"], "/clock");
}

/// The schema of a game's levels in the contract (`ReversiLevel`).
fn level_schema(id: &str) -> Value {
    let name = id[..1].to_uppercase() + &id[1..];
    openapi()["components"]["schemas"][format!("{name}Level")].clone()
}

#[tokio::test]
async fn every_game_lists_the_same_levels_everywhere() {
    let app = app();
    let listed = get(&app, "/v1/games").await.json;
    for game in REGISTRY {
        let id = game.info().id;
        let documented = level_schema(id);
        let from_listing: Vec<String> = listed["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == id)
            .unwrap()["levels"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["id"].as_str().unwrap().to_string())
            .collect();
        let from_openapi: Vec<String> = documented["anyOf"][0]["enum"]
            .as_array()
            .unwrap_or_else(|| panic!("openapi.yaml has no levels for {id}"))
            .iter()
            .map(|l| l.as_str().unwrap().to_string())
            .collect();
        assert_eq!(from_listing, from_openapi, "{id}");

        let mut body = valid_body(*game, "bot-move");
        body["level"] = json!("grandmaster");
        let reply = post_json(&app, &format!("/v1/games/{id}/bot-move"), &body).await;
        assert_eq!(reply.code(), "unknown_level", "{id}");
        let detail = reply.json["detail"].as_str().unwrap();
        let (_, known) = detail.split_once("this game has: ").unwrap();
        let mut from_message: Vec<String> = known.split(", ").map(str::to_string).collect();
        // The numbered levels come first, as a range.
        let top = game.listing().numbered_levels.len();
        assert_eq!(from_message.remove(0), format!("1-{top}"), "{id}");
        assert_eq!(from_listing, from_message, "{id}");
    }
}

#[tokio::test]
async fn analyze_reports_the_seed_it_used_so_the_answer_can_be_repeated() {
    let app = app();
    let body = valid_body(REGISTRY[2], "analyze");
    let first = post_json(&app, "/v1/games/reversi/analyze", &body).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    let seed = first.json["search"]["seed"].clone();
    assert!(seed.is_u64(), "{}", first.text);
    let mut again = body.clone();
    again["seed"] = seed;
    let second = post_json(&app, "/v1/games/reversi/analyze", &again).await;
    assert_eq!(first.json["moves"], second.json["moves"]);
}

#[tokio::test]
async fn numbered_levels_are_listed_as_documented() {
    let app = app();
    let listed = get(&app, "/v1/games").await.json;
    for game in REGISTRY {
        let id = game.info().id;
        let documented = level_schema(id);
        let listing = listed["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == id)
            .unwrap();
        let numbered = listing["numbered_levels"].as_array().unwrap();
        let expected = documented["anyOf"]
            .as_array()
            .unwrap()
            .iter()
            .find(|choice| choice["type"] == "integer")
            .and_then(|choice| choice["maximum"].as_u64())
            .unwrap_or(0);
        assert_eq!(numbered.len() as u64, expected, "{id}");
        for (i, level) in numbered.iter().enumerate() {
            assert_eq!(level["level"], i + 1, "{id}");
        }
        // Every numbered level plays, on the game's own example position.
        if let Some(level) = numbered.first() {
            let mut body = valid_body(*game, "bot-move");
            for budget in ["time_ms", "max_depth", "max_nodes"] {
                body.as_object_mut().unwrap().remove(budget);
            }
            body["level"] = json!(level["level"].to_string());
            let reply = post_json(&app, &format!("/v1/games/{id}/bot-move"), &body).await;
            assert_eq!(reply.status, StatusCode::OK, "{id}: {}", reply.text);
        }
    }
}
