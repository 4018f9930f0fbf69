//! `POST /v1/games/{game}/replay` over the real router: a recorded game
//! replays to its known total, an illegal move is pointed at in either form,
//! and every game of the registry replays a random game from its move list
//! and from its record to the same end. Every answer is also checked
//! against openapi.yaml by the helpers.

use crate::common::*;
use axum::http::StatusCode;
use gamebot::game::DynGame;
use gamebot::games::REGISTRY;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

/// The total of the greedy level's recorded game from the course preset.
const COURSE_TOTAL: i64 = 16_478;

/// The swaps of the recorded course game, in order.
fn course_swaps() -> Vec<String> {
    data::text("crush/course-game.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.trim().to_string())
        .collect()
}

#[tokio::test]
async fn the_course_game_replays_to_its_known_total_from_moves_and_from_its_record() {
    let app = app();
    let swaps = course_swaps();
    assert_eq!(swaps.len(), 100);
    let from_moves = post_json(
        &app,
        "/v1/games/crush/replay",
        &json!({"options": {"preset": "course"}, "moves": swaps}),
    )
    .await;
    assert_eq!(from_moves.status, StatusCode::OK, "{}", from_moves.text);
    assert_eq!(
        from_moves.json["outcome"],
        json!({"status": "finished", "termination": "swaps_used", "score": {"player": COURSE_TOTAL}})
    );
    assert_eq!(from_moves.json["state"]["swaps_left"], 0);
    assert_eq!(from_moves.json["record"], swaps.join(" "));
    assert_eq!(from_moves.json["moves"].as_array().unwrap().len(), 100);
    assert_eq!(from_moves.json["moves"][0]["notation"], "3040");
    assert!(from_moves.json.get("states").is_none(), "only when asked");

    let from_record = post_json(
        &app,
        "/v1/games/crush/replay",
        &json!({"options": {"preset": "course"}, "record": swaps.join(" ")}),
    )
    .await;
    assert_eq!(from_record.status, StatusCode::OK, "{}", from_record.text);
    assert_eq!(from_record.json["state"], from_moves.json["state"]);
}

/// Seventeen Reversi moves (the first legal square each time, no pass
/// among them) and an 18th that is not legal: `d4` is occupied from the start.
fn reversi_with_a_bad_18th_move() -> Vec<String> {
    let game = gamebot::games::find("reversi").unwrap();
    let mut state = game.new_game(&Value::Null).unwrap().state;
    let mut moves = Vec::new();
    for _ in 0..17 {
        let first = game.legal_moves(&state).unwrap().moves[0].clone();
        assert_ne!(first["notation"], "pass");
        moves.push(first["notation"].as_str().unwrap().to_string());
        state = game.play(&state, &first).unwrap().state;
    }
    moves.push("d4".to_string());
    moves
}

#[tokio::test]
async fn an_illegal_18th_move_points_at_its_element_or_at_the_record() {
    let app = app();
    let moves = reversi_with_a_bad_18th_move();
    let listed = post_json(&app, "/v1/games/reversi/replay", &json!({"moves": moves})).await;
    assert_eq!(listed.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(listed.code(), "illegal_move");
    assert_eq!(listed.json["pointer"], "/moves/17");
    let detail = listed.json["detail"].as_str().unwrap();
    assert!(
        detail.starts_with("move 18 (d4): d4 is already occupied"),
        "{detail}"
    );

    let record = moves.concat();
    let recorded = post_json(&app, "/v1/games/reversi/replay", &json!({"record": record})).await;
    assert_eq!(recorded.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(recorded.code(), "illegal_move");
    assert_eq!(recorded.json["pointer"], "/record");
    let detail = recorded.json["detail"].as_str().unwrap();
    assert!(
        detail.starts_with("move 18 of the record (d4): d4 is already occupied"),
        "{detail}"
    );
}

/// A random game of `game` from its default start, at most `plies` long,
/// played through the erased view: the move objects as `play` answered
/// them, and the final state. Forced moves (the only legal one) at the end
/// are taken back, since a record may leave them out (Reversi's passes).
fn random_game(game: &dyn DynGame, plies: usize, rng: &mut ChaCha8Rng) -> (Vec<Value>, Value) {
    let mut state = game.new_game(&Value::Null).unwrap().state;
    let mut played = Vec::new();
    for _ in 0..plies {
        let legal = game.legal_moves(&state).unwrap();
        if legal.moves.is_empty() {
            break;
        }
        let choice = &legal.moves[rng.random_range(0..legal.moves.len())];
        let reply = game.play(&state, choice).unwrap();
        played.push((reply.mv, legal.count == 1, state));
        state = reply.state;
    }
    while played.last().is_some_and(|(_, forced, _)| *forced) {
        state = played.pop().unwrap().2;
    }
    (played.into_iter().map(|(mv, _, _)| mv).collect(), state)
}

#[tokio::test]
async fn every_game_replays_a_random_game_from_its_moves_and_from_its_record() {
    let app = app();
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    for game in REGISTRY {
        let id = game.info().id;
        let uri = format!("/v1/games/{id}/replay");
        for _ in 0..3 {
            let (moves, end) = random_game(*game, 150, &mut rng);
            let objects = post_json(&app, &uri, &json!({"moves": moves})).await;
            assert_eq!(objects.status, StatusCode::OK, "{id}: {}", objects.text);
            assert_eq!(objects.json["state"], end, "{id}");
            assert_eq!(objects.json["moves"], json!(moves), "{id}");

            let notations: Vec<Value> = moves.iter().map(|m| m["notation"].clone()).collect();
            let texts = post_json(&app, &uri, &json!({"moves": notations})).await;
            assert_eq!(texts.status, StatusCode::OK, "{id}: {}", texts.text);
            assert_eq!(texts.json["state"], end, "{id}");

            let record = objects.json["record"].as_str().unwrap();
            assert!(!record.contains('\n'), "{id}: one line: {record:?}");
            let replayed = post_json(&app, &uri, &json!({"record": record})).await;
            assert_eq!(replayed.status, StatusCode::OK, "{id}: {}", replayed.text);
            assert_eq!(replayed.json["state"], end, "{id}: {record}");
            assert_eq!(replayed.json["record"], record, "{id}");
            assert_eq!(replayed.json["outcome"], objects.json["outcome"], "{id}");
        }
    }
}

#[tokio::test]
async fn states_lists_the_start_and_one_state_a_move() {
    let app = app();
    for game in REGISTRY {
        let id = game.info().id;
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let (moves, end) = random_game(*game, 6, &mut rng);
        let start = game.new_game(&Value::Null).unwrap().state;
        let reply = post_json(
            &app,
            &format!("/v1/games/{id}/replay"),
            &json!({"state": start, "moves": moves, "states": true}),
        )
        .await;
        assert_eq!(reply.status, StatusCode::OK, "{id}: {}", reply.text);
        let states = reply.json["states"].as_array().unwrap();
        assert_eq!(states.len(), moves.len() + 1, "{id}");
        assert_eq!(states[0], start, "{id}");
        assert_eq!(states.last().unwrap(), &end, "{id}");
    }
}

#[tokio::test]
async fn no_moves_replays_the_start() {
    let app = app();
    let empty = send(
        &app,
        axum::http::Method::POST,
        "/v1/games/naughts/replay",
        None,
        axum::body::Body::empty(),
    )
    .await;
    assert_eq!(empty.status, StatusCode::OK, "{}", empty.text);
    assert_eq!(empty.json["record"], "");
    assert_eq!(empty.json["moves"], json!([]));
    let options = post_json(
        &app,
        "/v1/games/naughts/replay",
        &json!({"options": {"grid_size": 4}, "record": "", "states": true}),
    )
    .await;
    assert_eq!(options.json["state"]["grid_size"], 4);
    assert_eq!(options.json["states"], json!([options.json["state"]]));
}

#[tokio::test]
async fn a_move_after_the_end_is_an_illegal_move_that_says_how_the_game_ended() {
    let mut swaps = course_swaps();
    swaps.push("3040".to_string());
    let reply = post_json(
        &app(),
        "/v1/games/crush/replay",
        &json!({"options": {"preset": "course"}, "moves": swaps}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(reply.json["pointer"], "/moves/100");
    let detail = reply.json["detail"].as_str().unwrap();
    assert!(
        detail.starts_with("move 101 (3040): the game is already over")
            && detail.contains(&format!("finished with a score of {COURSE_TOTAL}")),
        "{detail}"
    );
}

#[tokio::test]
async fn a_game_s_finer_code_and_a_move_object_keep_their_place() {
    let reply = post_json(
        &app(),
        "/v1/games/naughts/replay",
        &json!({"moves": ["2 2 5", {"row": 7, "col": 0, "size": 1}]}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(reply.code(), "invalid_row");
    // The naughts error points at the field, under the move's place.
    assert_eq!(reply.json["pointer"], "/moves/1/row");
    let detail = reply.json["detail"].as_str().unwrap();
    assert!(
        detail.starts_with(r#"move 2 ({"col":0,"row":7,"size":1}): row must be 0-2"#),
        "{detail}"
    );
}

#[tokio::test]
async fn a_bad_request_says_which_field() {
    let app = app();
    let uri = "/v1/games/reversi/replay";
    let both_starts = post_json(&app, uri, &json!({"options": {}, "state": {}})).await;
    assert_eq!(both_starts.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(both_starts.code(), "invalid_option");
    let detail = both_starts.json["detail"].as_str().unwrap();
    assert!(
        detail.starts_with("options and state are both given"),
        "{detail}"
    );

    let both_forms = post_json(&app, uri, &json!({"moves": [], "record": ""})).await;
    assert_eq!(both_forms.code(), "invalid_option");
    let detail = both_forms.json["detail"].as_str().unwrap();
    assert!(
        detail.starts_with("moves and record are both given"),
        "{detail}"
    );

    let bad_state = post_json(
        &app,
        uri,
        &json!({"state": {"board": ["........"], "to_move": "black"}, "moves": ["d3"]}),
    )
    .await;
    assert_eq!(bad_state.code(), "invalid_state");
    assert!(
        bad_state.json["pointer"]
            .as_str()
            .unwrap()
            .starts_with("/state"),
        "{}",
        bad_state.text
    );

    let bad_option = post_json(
        &app,
        "/v1/games/naughts/replay",
        &json!({"options": {"grid": 4}}),
    )
    .await;
    assert_eq!(bad_option.code(), "invalid_option");
    assert!(bad_option.json["detail"]
        .as_str()
        .unwrap()
        .contains("'grid'"));

    let typo = post_json(&app, uri, &json!({"move": ["d3"]})).await;
    assert_eq!(typo.status, StatusCode::BAD_REQUEST);
    assert_eq!(typo.json["pointer"], "/move");

    let unknown = post_json(&app, "/v1/games/nope/replay", &json!({})).await;
    assert_eq!(unknown.code(), "unknown_game");
}

#[tokio::test]
async fn more_than_ten_thousand_moves_are_refused() {
    let moves = vec!["d3"; 10_001];
    let reply = post_json(&app(), "/v1/games/reversi/replay", &json!({"moves": moves})).await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(reply.code(), "invalid_option");
    assert_eq!(
        reply.json["detail"],
        "moves holds 10001 moves: this endpoint takes at most 10000"
    );
}

/// The JSON blocks of a rules page's "Records" section.
fn record_examples(rules: &str) -> Vec<Value> {
    let section = rules
        .split("### Records")
        .nth(1)
        .expect("a Records section")
        .split("\n#")
        .next()
        .unwrap();
    section
        .split("```json")
        .skip(1)
        .map(|block| serde_json::from_str(block.split("```").next().unwrap()).unwrap())
        .collect()
}

#[tokio::test]
async fn every_rules_page_s_record_example_replays_as_written() {
    let app = app();
    for game in REGISTRY {
        let id = game.info().id;
        let examples = record_examples(game.info().rules);
        assert!(!examples.is_empty(), "{id}: an example record");
        for body in examples {
            let reply = post_json(&app, &format!("/v1/games/{id}/replay"), &body).await;
            assert_eq!(reply.status, StatusCode::OK, "{id}: {}", reply.text);
            assert_eq!(reply.json["record"], body["record"], "{id}");
        }
    }
}
