//! The legacy contracts end to end: the seed examples of Advance and Halma
//! through the HTTP text forms (over the real router) and through the real
//! binary's subcommands, as the old harnesses drive them.

use crate::common::*;
use axum::http::{Method, StatusCode};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::Command;

fn fixture(path: &str) -> Value {
    data::json(path)
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gamebot-legacy-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Advance's levels from weakest to strongest: an example must pass at its own
/// level and every stronger one.
const ADVANCE_LEVELS: [&str; 5] = ["legal", "win", "greedy", "predict", "strong"];

fn advance_examples() -> Vec<Value> {
    fixture("advance/seed-examples.json")["examples"]
        .as_array()
        .unwrap()
        .clone()
}

/// The board after the example's expected move, from the JSON `play` endpoint.
async fn advance_expected_board(app: &axum::Router, example: &Value) -> Vec<String> {
    let state = json!({"board": example["board"], "to_move": example["to_move"]});
    let reply = post_json(
        app,
        "/v1/games/advance/play",
        &json!({"state": state, "move": example["expected"]}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.json["state"]["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().to_string())
        .collect()
}

fn stronger_levels(level: &str) -> &'static [&'static str] {
    let from = ADVANCE_LEVELS.iter().position(|l| *l == level).unwrap();
    &ADVANCE_LEVELS[from..]
}

#[tokio::test]
async fn advance_seed_examples_over_http_text_and_json() {
    let app = app();
    for example in advance_examples() {
        let name = example["name"].as_str().unwrap();
        let expected = advance_expected_board(&app, &example).await;
        let text: String = example["board"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| format!("{}\n", r.as_str().unwrap()))
            .collect();
        for level in stronger_levels(example["level"].as_str().unwrap()) {
            let uri = format!(
                "/v1/games/advance/bot-move?to_move={}&level={level}&seed=3&time_ms=300",
                example["to_move"].as_str().unwrap()
            );
            let reply = send(&app, Method::POST, &uri, Some("text/plain"), text.clone()).await;
            assert_eq!(
                reply.status,
                StatusCode::OK,
                "{name} {level}: {}",
                reply.text
            );
            let board: Vec<&str> = reply.text.lines().collect();
            assert_eq!(board, expected, "{name} at {level} over text");

            let state = json!({"board": example["board"], "to_move": example["to_move"]});
            let reply = post_json(
                &app,
                "/v1/games/advance/bot-move",
                &json!({"state": state, "level": level, "seed": 5, "time_ms": 300}),
            )
            .await;
            assert_eq!(
                reply.json["move"]["from"], example["expected"]["from"],
                "{name} at {level} over JSON"
            );
            assert_eq!(
                reply.json["move"]["to"], example["expected"]["to"],
                "{name} at {level} over JSON"
            );
        }
    }
}

#[tokio::test]
async fn advance_seed_examples_through_the_binary() {
    let app = app();
    let dir = scratch_dir("advance");
    for example in advance_examples() {
        let name = example["name"].as_str().unwrap();
        let expected = advance_expected_board(&app, &example).await;
        let board = dir.join(format!("{name}.txt"));
        let text: String = example["board"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| format!("{}\n", r.as_str().unwrap()))
            .collect();
        for level in stronger_levels(example["level"].as_str().unwrap()) {
            std::fs::write(&board, &text).unwrap();
            // OUT is the same file as IN, as the harness allows.
            let output = Command::new(env!("CARGO_BIN_EXE_gamebot"))
                .args(["advance", example["to_move"].as_str().unwrap()])
                .arg(&board)
                .arg(&board)
                .args(["--level", level])
                .output()
                .unwrap();
            assert!(
                output.status.success(),
                "{name} {level}: {}",
                String::from_utf8_lossy(&output.stderr)
            );
            let written = std::fs::read_to_string(&board).unwrap();
            assert_eq!(
                written.lines().collect::<Vec<_>>(),
                expected,
                "{name} at {level} through the CLI"
            );
        }
    }
    let name = Command::new(env!("CARGO_BIN_EXE_gamebot"))
        .args(["advance", "name"])
        .output()
        .unwrap();
    assert!(name.status.success());
    let name = String::from_utf8(name.stdout).unwrap();
    assert!(
        !name.trim().is_empty()
            && name.trim().len() <= 32
            && name
                .trim()
                .chars()
                .all(|c| c.is_ascii_graphic() || c == ' ')
    );

    let missing = Command::new(env!("CARGO_BIN_EXE_gamebot"))
        .args(["advance", "white", "/nonexistent/in.txt"])
        .arg(dir.join("out.txt"))
        .output()
        .unwrap();
    assert!(!missing.status.success());
    assert!(!missing.stderr.is_empty());
    assert!(!dir.join("out.txt").exists(), "OUT is not written on error");
    std::fs::remove_dir_all(&dir).ok();
}

fn halma_input(example: &Value) -> String {
    let mut text = format!(
        "{}\n{}\n{}\n",
        example["mode"].as_str().unwrap(),
        example["to_move"].as_str().unwrap(),
        example["time_left"]
    );
    for row in example["board"].as_array().unwrap() {
        text.push_str(row.as_str().unwrap());
        text.push('\n');
    }
    text
}

fn halma_state(example: &Value) -> Value {
    json!({"board": example["board"], "to_move": example["to_move"].as_str().unwrap().to_lowercase()})
}

/// Checks an `output.txt` answer: the seed's exact answer where it is the only
/// right one (a winning move), otherwise any legal move.
async fn check_halma_answer(app: &axum::Router, example: &Value, answer: &str, how: &str) {
    let name = example["name"].as_str().unwrap();
    let lines: Vec<&str> = answer.lines().collect();
    let expected: Vec<&str> = example["output"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    let played = post_json(
        app,
        "/v1/games/halma/play",
        &json!({"state": halma_state(example), "move": lines.join("\n")}),
    )
    .await;
    assert_eq!(
        played.status,
        StatusCode::OK,
        "{name} {how}: '{answer}' is not legal: {}",
        played.text
    );
    if example["wins"] == true {
        assert_eq!(lines, expected, "{name} {how}");
        assert_eq!(played.json["outcome"]["status"], "win", "{name} {how}");
    }
}

#[tokio::test]
async fn halma_seed_examples_over_http_text() {
    let app = app();
    for example in fixture("halma/seed-examples.json")["examples"]
        .as_array()
        .unwrap()
    {
        let reply = send(
            &app,
            Method::POST,
            "/v1/games/halma/bot-move?time_ms=500&seed=1",
            Some("text/plain"),
            halma_input(example),
        )
        .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        check_halma_answer(&app, example, &reply.text, "over HTTP").await;
    }
}

#[tokio::test]
async fn halma_seed_examples_through_the_binary() {
    let app = app();
    for example in fixture("halma/seed-examples.json")["examples"]
        .as_array()
        .unwrap()
    {
        let dir = scratch_dir(&format!("halma-{}", example["name"].as_str().unwrap()));
        // A short clock keeps the test quick; the answers do not depend on it.
        let mut input = example.clone();
        input["time_left"] = json!(1.0);
        std::fs::write(dir.join("input.txt"), halma_input(&input)).unwrap();
        let output = Command::new(env!("CARGO_BIN_EXE_gamebot"))
            .args(["halma", "--dir"])
            .arg(&dir)
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let answer = std::fs::read_to_string(dir.join("output.txt")).unwrap();
        check_halma_answer(&app, example, &answer, "through the CLI").await;
        std::fs::remove_dir_all(&dir).ok();
    }
}
