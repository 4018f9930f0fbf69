//! What the contract promises about bot requests, over the real router
//! (every answer is also checked against openapi.yaml by the helpers):
//! levels as numbers or strings, unknown levels with a suggestion, budgets
//! cut to the server's caps and said so, finished games that say how they
//! ended, the move header on text and JSON answers alike, and the metrics
//! of text and JSON searches alike.
//!
//! Metrics are process-wide: `search_metrics_count_text_and_json_bot_moves_alike`
//! has the process to itself while it counts (`crate::alone`), so its
//! counts are its own.

use crate::common::*;
use axum::http::{Method, StatusCode};
use gamebot::config::ServeConfig;
use gamebot::game::DynGame;
use gamebot::games::REGISTRY;
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

const REVERSI_BOT: &str = "/v1/games/reversi/bot-move";

fn reversi_start() -> Value {
    json!({
        "board": ["........", "........", "........", "...WB...", "...BW...", "........", "........", "........"],
        "to_move": "black"
    })
}

/// The `Gamebot-Move` header of an answer.
fn move_header(reply: &Reply) -> Option<&str> {
    reply
        .headers
        .get("gamebot-move")
        .map(|v| v.to_str().unwrap())
}

#[tokio::test]
async fn a_level_as_an_integer_or_a_string_plays_the_same_numbered_level() {
    let _process = crate::shared().await;
    let app = app();
    let as_integer = json!({"state": reversi_start(), "level": 3, "seed": 11});
    let as_string = json!({"state": reversi_start(), "level": "3", "seed": 11});
    let by_integer = post_json(&app, REVERSI_BOT, &as_integer).await;
    let by_string = post_json(&app, REVERSI_BOT, &as_string).await;
    for reply in [&by_integer, &by_string] {
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        assert_eq!(reply.json["search"]["level"], "3", "{}", reply.text);
    }
    assert_eq!(by_integer.json["move"], by_string.json["move"]);
    assert_eq!(
        by_integer.json["search"]["nodes"],
        by_string.json["search"]["nodes"]
    );
}

#[tokio::test]
async fn a_misspelt_level_is_told_every_level_and_the_one_it_meant() {
    let _process = crate::shared().await;
    let app = app();
    let body = json!({"state": reversi_start(), "level": "strnog"});
    let reply = post_json(&app, REVERSI_BOT, &body).await;
    assert_eq!(
        (reply.status, reply.code()),
        (StatusCode::UNPROCESSABLE_ENTITY, "unknown_level"),
        "{}",
        reply.text
    );
    assert_eq!(reply.json["suggestion"], "strong");
    assert_eq!(reply.json["pointer"], "/level");
    let listing = gamebot::games::find("reversi").unwrap().listing();
    let detail = reply.json["detail"].as_str().unwrap();
    let top = listing.numbered_levels.len();
    assert!(detail.contains(&format!("1-{top}")), "{detail}");
    for level in &listing.levels {
        assert!(detail.contains(level.id), "{} missing: {detail}", level.id);
    }
}

/// A server whose caps are small, so that a clamped search stays quick.
fn capped() -> axum::Router {
    app_with(ServeConfig {
        max_time_ms: 50,
        max_depth: 3,
        max_nodes: 2_000,
        ..config()
    })
}

#[tokio::test]
async fn a_budget_above_the_caps_is_cut_and_said_so_in_the_search_and_a_warning() {
    let _process = crate::shared().await;
    let app = capped();
    let cases = [
        ("time_ms", 600_000, 50),
        ("max_depth", 1_000, 3),
        ("max_nodes", 1_000_000_000, 2_000),
    ];
    for operation in ["bot-move", "analyze"] {
        let uri = format!("/v1/games/reversi/{operation}");
        for (field, requested, cap) in cases {
            let mut body = json!({"state": reversi_start(), "seed": 1});
            body[field] = json!(requested);
            let reply = post_json(&app, &uri, &body).await;
            assert_eq!(
                reply.status,
                StatusCode::OK,
                "{uri} {field}: {}",
                reply.text
            );
            assert_eq!(
                reply.json["search"]["clamped"],
                json!([{"field": field, "requested": requested, "used": cap}]),
                "{uri}: {}",
                reply.text
            );
            let warning = reply.headers.get("warning").map(|v| v.to_str().unwrap());
            let warning = warning.unwrap_or_else(|| panic!("{uri} {field}: no Warning header"));
            assert!(warning.starts_with("299 gamebot "), "{warning}");
            assert!(
                warning.contains(&format!("{field}={requested}"))
                    && warning.contains(&cap.to_string()),
                "{uri}: {warning}"
            );
        }
        // Within the caps: nothing is said.
        let body = json!({"state": reversi_start(), "seed": 1, "time_ms": 20, "max_depth": 2});
        let reply = post_json(&app, &uri, &body).await;
        assert_eq!(reply.status, StatusCode::OK, "{uri}: {}", reply.text);
        assert!(
            reply.json["search"].get("clamped").is_none(),
            "{}",
            reply.text
        );
        assert!(reply.headers.get("warning").is_none(), "{uri}");
    }
}

/// A state of `game` whose game is over, from a seeded random playout (Halma
/// with a ply limit, since random Halma games do not end).
fn finished_state(game: &dyn DynGame, rng: &mut ChaCha8Rng) -> Value {
    let info = game.info();
    let options = match info.new_options.iter().any(|o| o.name == "ply_limit") {
        true => json!({"ply_limit": 6}),
        false => Value::Null,
    };
    let mut state = game.new_game(&options).unwrap().state;
    for _ in 0..10_000 {
        let legal = game.legal_moves(&state).unwrap();
        let Some(mv) = legal.moves.choose(rng) else {
            return state;
        };
        state = game.play(&state, mv).unwrap().state;
    }
    panic!("{}: no random game ended in 10,000 plies", info.id)
}

#[tokio::test]
async fn a_bot_move_in_a_finished_game_is_409_and_says_how_it_ended() {
    let _process = crate::shared().await;
    let app = app();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for game in REGISTRY {
        let id = game.info().id;
        let state = finished_state(*game, &mut rng);
        let legal = post_json(
            &app,
            &format!("/v1/games/{id}/legal-moves"),
            &json!({"state": state}),
        )
        .await;
        let outcome = &legal.json["outcome"];
        assert_ne!(outcome["status"], "ongoing", "{id}: {}", legal.text);
        for field in ["termination", "score"] {
            assert!(!outcome[field].is_null(), "{id}: {outcome}");
        }

        let body = json!({"state": state, "seed": 1});
        let reply = post_json(&app, &format!("/v1/games/{id}/bot-move"), &body).await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::CONFLICT, "game_over"),
            "{id}: {}",
            reply.text
        );
        assert_eq!(&reply.json["outcome"], outcome, "{id}: {}", reply.text);
        let detail = reply.json["detail"].as_str().unwrap();
        match outcome["winner"].as_str() {
            Some(winner) => assert!(detail.contains(&format!("{winner} won")), "{id}: {detail}"),
            None => assert!(!detail.contains(" won"), "{id}: {detail}"),
        }
    }
    // A known win: black holds every square.
    let full = json!({"board": vec!["BBBBBBBB"; 8], "to_move": "white"});
    let reply = post_json(&app, REVERSI_BOT, &json!({"state": full})).await;
    assert_eq!(reply.status, StatusCode::CONFLICT, "{}", reply.text);
    let outcome = &reply.json["outcome"];
    assert_eq!(outcome["status"], "win");
    assert_eq!(outcome["winner"], "black");
    assert!(outcome["termination"].is_string(), "{outcome}");
    assert_eq!(outcome["score"], json!({"black": 64, "white": 0}));
    assert!(
        reply.json["detail"].as_str().unwrap().contains("black won"),
        "{}",
        reply.text
    );
}

/// The value of the Prometheus sample `name{labels}`, 0 if it is not there yet.
async fn sample(app: &axum::Router, name: &str, labels: &str) -> f64 {
    let metrics = get(app, "/metrics").await;
    let prefix = format!("{name}{{{labels}}} ");
    metrics
        .text
        .lines()
        .find_map(|line| line.strip_prefix(&prefix))
        .map_or(0.0, |value| value.trim().parse().unwrap())
}

/// What one search adds to the metrics of its game and level: the nodes,
/// and one more timed search.
async fn counted(app: &axum::Router, game: &str, level: &str) -> (f64, f64) {
    let labels = format!("game=\"{game}\",level=\"{level}\"");
    (
        sample(app, "gamebot_search_nodes_total", &labels).await,
        sample(app, "gamebot_search_seconds_count", &labels).await,
    )
}

/// Sends a bot request and says what it added to the search metrics.
async fn bot_move_counted(
    app: &axum::Router,
    (game, level): (&str, &str),
    send_it: impl std::future::Future<Output = Reply>,
) -> (Reply, (f64, f64)) {
    let before = counted(app, game, level).await;
    let reply = send_it.await;
    assert_eq!(reply.status, StatusCode::OK, "{game}: {}", reply.text);
    let after = counted(app, game, level).await;
    (reply, (after.0 - before.0, after.1 - before.1))
}

#[tokio::test]
async fn search_metrics_count_text_and_json_bot_moves_alike() {
    let _process = crate::alone().await;
    let app = app();

    // Advance's 9-line board, as the studio's harness sends it.
    let advance = gamebot::games::find("advance").unwrap();
    let state = advance.new_game(&Value::Null).unwrap().state;
    let board: String = state["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| format!("{}\n", row.as_str().unwrap()))
        .collect();
    let to_move = state["to_move"].as_str().unwrap();
    let uri = format!("/v1/games/advance/bot-move?to_move={to_move}&level=1&seed=3");
    let (text, text_counts) = bot_move_counted(
        &app,
        ("advance", "1"),
        send(&app, Method::POST, &uri, Some("text/plain"), board),
    )
    .await;
    assert!(
        text.content_type().starts_with("text/plain"),
        "{}",
        text.content_type()
    );
    let body = json!({"state": state, "level": 1, "seed": 3});
    let (json_reply, json_counts) = bot_move_counted(
        &app,
        ("advance", "1"),
        post_json(&app, "/v1/games/advance/bot-move", &body),
    )
    .await;
    let notation = json_reply.json["move"]["notation"].as_str().unwrap();
    assert_eq!(move_header(&json_reply), Some(notation));
    assert_eq!(
        move_header(&text),
        Some(notation),
        "the same seeded level, the same move"
    );
    let after: Vec<&str> = text.text.lines().collect();
    assert_eq!(json!(after), json_reply.json["state"]["board"]);
    let nodes = json_reply.json["search"]["nodes"].as_f64().unwrap_or(0.0);
    assert_eq!(json_counts, (nodes, 1.0), "the JSON search is counted");
    assert_eq!(
        text_counts, json_counts,
        "the text search is counted the same"
    );

    // Halma's input.txt: the answer is output.txt, one line per hop of a
    // jump; the header joins them with `;`.
    let example = &data::json("halma/seed-examples.json")["examples"][2];
    let mut input = format!(
        "{}\n{}\n{}\n",
        example["mode"].as_str().unwrap(),
        example["to_move"].as_str().unwrap(),
        example["time_left"]
    );
    for row in example["board"].as_array().unwrap() {
        input.push_str(row.as_str().unwrap());
        input.push('\n');
    }
    let (text, text_counts) = bot_move_counted(
        &app,
        ("halma", "1"),
        send(
            &app,
            Method::POST,
            "/v1/games/halma/bot-move?level=1&seed=3",
            Some("text/plain"),
            input,
        ),
    )
    .await;
    let lines: Vec<&str> = text.text.lines().collect();
    assert!(
        lines.len() > 1,
        "level 1 with seed 3 jumps a chain here: {}",
        text.text
    );
    assert_eq!(
        move_header(&text),
        Some(lines.join(";").as_str()),
        "{}",
        text.text
    );
    let state = json!({
        "board": example["board"],
        "to_move": example["to_move"].as_str().unwrap().to_lowercase(),
        "camp_rule": "referee",
    });
    let body = json!({"state": state, "level": "1", "seed": 3});
    let (json_reply, json_counts) = bot_move_counted(
        &app,
        ("halma", "1"),
        post_json(&app, "/v1/games/halma/bot-move", &body),
    )
    .await;
    let notation = json_reply.json["move"]["notation"].as_str().unwrap();
    assert_eq!(
        text.text.trim_end(),
        notation,
        "the same seeded level, the same move"
    );
    assert_eq!(
        move_header(&json_reply),
        Some(notation.replace('\n', ";").as_str())
    );
    let nodes = json_reply.json["search"]["nodes"].as_f64().unwrap_or(0.0);
    assert_eq!(json_counts, (nodes, 1.0), "the JSON search is counted");
    assert_eq!(
        text_counts, json_counts,
        "the text search is counted the same"
    );
}

#[tokio::test]
async fn a_json_bot_move_refuses_query_parameters() {
    let _process = crate::shared().await;
    let app = app();
    let body = json!({"state": reversi_start()});
    let reply = post_json(&app, &format!("{REVERSI_BOT}?level=1"), &body).await;
    assert_eq!(
        (reply.status, reply.code()),
        (StatusCode::UNPROCESSABLE_ENTITY, "invalid_option"),
        "{}",
        reply.text
    );
    let detail = reply.json["detail"].as_str().unwrap();
    assert!(
        detail.contains("level") && detail.contains("are for text bodies"),
        "{detail}"
    );
}

#[tokio::test]
async fn a_stray_field_in_a_state_or_a_move_object_is_refused_where_it_is() {
    let _process = crate::shared().await;
    let app = app();
    for game in REGISTRY {
        let id = game.info().id;
        let state = game.new_game(&Value::Null).unwrap().state;
        let legal = game.legal_moves(&state).unwrap();
        let written = legal.moves[0].clone();

        let mut stray_state = state.clone();
        stray_state["colour"] = json!(1);
        let reply = post_json(
            &app,
            &format!("/v1/games/{id}/legal-moves"),
            &json!({"state": stray_state}),
        )
        .await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::UNPROCESSABLE_ENTITY, "invalid_state"),
            "{id}: {}",
            reply.text
        );
        assert_eq!(
            reply.json["pointer"], "/state/colour",
            "{id}: {}",
            reply.text
        );
        assert!(reply.text.contains("unknown field"), "{id}: {}", reply.text);

        let mut stray_move = written.clone();
        stray_move["weight"] = json!(2.5);
        let play = format!("/v1/games/{id}/play");
        let reply = post_json(&app, &play, &json!({"state": state, "move": stray_move})).await;
        assert_eq!(
            reply.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{id}: {}",
            reply.text
        );
        assert_eq!(
            reply.json["pointer"], "/move/weight",
            "{id}: {}",
            reply.text
        );

        if id == "halma" {
            // A game's own words for a stray field win where it has them.
            let mut misplaced = state.clone();
            misplaced["clock"] = json!("60 60");
            let reply = post_json(
                &app,
                &format!("/v1/games/{id}/legal-moves"),
                &json!({"state": misplaced}),
            )
            .await;
            assert_eq!(reply.json["pointer"], "/state/clock", "{}", reply.text);
            assert!(
                reply.text.contains("belongs in the bot-move request"),
                "{}",
                reply.text
            );
        }

        // The move object as written, and its notation alone, both play.
        for mv in [written.clone(), json!({"notation": written["notation"]})] {
            let reply = post_json(&app, &play, &json!({"state": state, "move": mv})).await;
            assert_eq!(reply.status, StatusCode::OK, "{id} {mv}: {}", reply.text);
            assert_eq!(reply.json["move"], written, "{id}: {}", reply.text);
        }
    }
}
