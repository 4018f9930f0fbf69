//! The naughts pass rule over HTTP: a side to move with no legal move while
//! the opponent has one gets the pass from `legal-moves`, plays it from
//! `bot-move`, may play it through `play`, and has it valued by `analyze`; a
//! stalemate stays a draw with no moves at all. Every answer is also checked
//! against openapi.yaml by the helpers.

use crate::common::*;
use axum::http::StatusCode;
use serde_json::{json, Value};

/// Crosses hold only 1 and 2 while every top is 4 or bigger, and are to move
/// right after naughts' O8: they must pass; naughts can then win with O9 on X6.
fn crosses_must_pass() -> Value {
    json!({
        "grid_size": 3,
        "pieces": 9,
        "board": [["O8", "X6", "O4"], ["O5", "X7", "X8"], ["X9", "O6", "O7"]],
        "hands": {"O": [9], "X": [1, 2]},
        "to_move": "X"
    })
}

/// The same board once the turn has passed to naughts.
fn after_the_pass() -> Value {
    let mut state = crosses_must_pass();
    state["to_move"] = json!("O");
    state
}

/// Neither side can move: naughts have no markers left, and crosses' 1 and 2
/// fit on no top (the smallest is 4).
fn stalemate() -> Value {
    json!({
        "grid_size": 3,
        "pieces": 9,
        "board": [["O8", "X6", "O4"], ["O5", "X7", "X8"], ["X9", "O6", "O9"]],
        "hands": {"O": [], "X": [1, 2]},
        "to_move": "X"
    })
}

fn pass_object() -> Value {
    json!({"row": null, "col": null, "size": null, "notation": "pass"})
}

#[tokio::test]
async fn legal_moves_answer_the_pass() {
    let reply = post_json(
        &app(),
        "/v1/games/naughts/legal-moves",
        &json!({"state": crosses_must_pass()}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.json["count"], 1);
    assert_eq!(reply.json["moves"], json!([pass_object()]));
    assert_eq!(reply.json["outcome"]["status"], "ongoing");
}

#[tokio::test]
async fn every_level_of_bot_move_plays_the_pass() {
    let app = app();
    let naughts = gamebot::games::REGISTRY
        .iter()
        .find(|game| game.info().id == "naughts")
        .unwrap()
        .listing();
    assert!(!naughts.levels.is_empty());
    for level in naughts.levels.iter().map(|level| level.id) {
        let request = json!({"state": crosses_must_pass(), "level": level, "seed": 1});
        let reply = post_json(&app, "/v1/games/naughts/bot-move", &request).await;
        assert_eq!(reply.status, StatusCode::OK, "{level}: {}", reply.text);
        assert_eq!(reply.json["move"], pass_object(), "{level}");
        assert_eq!(reply.json["state"], after_the_pass(), "{level}");
        assert_eq!(reply.json["outcome"]["status"], "ongoing");
    }
}

#[tokio::test]
async fn play_accepts_the_pass_in_every_form_and_the_game_goes_on() {
    let app = app();
    for form in [
        json!("pass"),
        pass_object(),
        json!({"row": null, "col": null, "size": null}),
    ] {
        let request = json!({"state": crosses_must_pass(), "move": form});
        let reply = post_json(&app, "/v1/games/naughts/play", &request).await;
        assert_eq!(reply.status, StatusCode::OK, "{form}: {}", reply.text);
        assert_eq!(reply.json["move"], pass_object());
        assert_eq!(reply.json["state"], after_the_pass());
    }
    let request = json!({"state": after_the_pass(), "move": "1 2 9"});
    let won = post_json(&app, "/v1/games/naughts/play", &request).await;
    assert_eq!(won.status, StatusCode::OK, "{}", won.text);
    assert_eq!(won.json["outcome"]["status"], "win");
    assert_eq!(won.json["outcome"]["winner"], "O");
}

#[tokio::test]
async fn a_placement_is_refused_while_a_pass_is_due_and_a_pass_when_it_is_not() {
    let app = app();
    let request = json!({"state": crosses_must_pass(), "move": "1 1 2"});
    let placed = post_json(&app, "/v1/games/naughts/play", &request).await;
    assert_eq!(placed.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(placed.code(), "invalid_move");
    let detail = placed.json["detail"].as_str().unwrap_or_default();
    assert!(detail.contains("must pass"), "{}", placed.text);

    let start = post_json(&app, "/v1/games/naughts/new", &json!({})).await;
    let request = json!({"state": start.json["state"], "move": "pass"});
    let passed = post_json(&app, "/v1/games/naughts/play", &request).await;
    assert_eq!(passed.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(passed.code(), "invalid_move");
}

#[tokio::test]
async fn analyze_values_the_pass_for_the_side_that_passes() {
    let request = json!({"state": crosses_must_pass()});
    let reply = post_json(&app(), "/v1/games/naughts/analyze", &request).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let moves = reply.json["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0]["move"], pass_object());
    assert_eq!(moves[0]["exact"], "loss in 1");
    // Naughts then win with O9 on X6 (row 1) or on X7 (the main diagonal).
    let pv = &moves[0]["pv"];
    assert_eq!(pv[0], "pass");
    assert!(pv[1] == "1 2 9" || pv[1] == "2 2 9", "{pv}");
}

#[tokio::test]
async fn a_stalemate_stays_a_draw_without_a_pass() {
    let app = app();
    let request = json!({"state": stalemate()});
    let reply = post_json(&app, "/v1/games/naughts/legal-moves", &request).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.json["count"], 0);
    assert_eq!(reply.json["outcome"]["status"], "draw");
    // The game is over, so there is nothing to play, a pass included.
    let bot = post_json(&app, "/v1/games/naughts/bot-move", &request).await;
    assert_eq!(bot.status, StatusCode::CONFLICT, "{}", bot.text);
    assert_eq!(bot.code(), "game_over");
    let request = json!({"state": stalemate(), "move": "pass"});
    let passed = post_json(&app, "/v1/games/naughts/play", &request).await;
    assert_eq!(passed.status, StatusCode::CONFLICT, "{}", passed.text);
    assert_eq!(passed.code(), "game_over");
}
