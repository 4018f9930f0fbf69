//! Live games: a clock on every game's `bot-move`, planned by the time
//! manager, reported in `search.clock`, with the queue's share said in
//! `search.queued_ms` and `Server-Timing`; numbered levels under a clock.

use crate::common::{app, post_json, send};
use axum::http::StatusCode;
use gamebot::games::REGISTRY;
use serde_json::{json, Value};

fn reversi_start() -> Value {
    json!({"board": ["........", "........", "........", "...WB...", "...BW...", "........", "........", "........"], "to_move": "black"})
}

#[tokio::test]
async fn every_game_plans_a_clocked_move_and_reports_it() {
    let app = app();
    for game in REGISTRY {
        let id = game.info().id;
        let state = game.new_game(&Value::Null).unwrap().state;
        let body = json!({"state": state, "clock": {"remaining_ms": 2000, "increment_ms": 50}});
        let reply = post_json(&app, &format!("/v1/games/{id}/bot-move"), &body).await;
        assert_eq!(reply.status, StatusCode::OK, "{id}: {}", reply.text);
        let search = &reply.json["search"];
        let clock = &search["clock"];
        let planned = clock["planned_ms"].as_u64().unwrap();
        let cap = clock["cap_ms"].as_u64().unwrap();
        let used = clock["used_ms"].as_u64().unwrap();
        let left = clock["left_ms"].as_u64().unwrap();
        assert!(planned <= cap, "{id}: {clock}");
        assert!(cap < 2000, "{id}: the cap keeps a margin: {clock}");
        assert!(used <= cap + 50, "{id}: the move kept to its cap: {clock}");
        assert_eq!(left, 2000 + 50 - used - 20, "{id}: {clock}");
        assert!(search["queued_ms"].as_f64().is_some(), "{id}: {search}");
        let timing = reply.headers["server-timing"].to_str().unwrap();
        assert!(
            timing.contains("queue;dur=") && timing.contains("compute;dur="),
            "{timing}"
        );
        let rules = post_json(
            &app,
            &format!("/v1/games/{id}/legal-moves"),
            &json!({"state": state}),
        )
        .await;
        let timing = rules.headers["server-timing"].to_str().unwrap();
        assert!(timing.starts_with("total;dur="), "{timing}");
    }
}

#[tokio::test]
async fn a_clock_is_checked_field_by_field() {
    let app = app();
    for (clock, pointer) in [
        (
            json!({"remaining_ms": 100_000_000_000u64}),
            "/clock/remaining_ms",
        ),
        (
            json!({"remaining_ms": 1000, "moves_to_go": 0}),
            "/clock/moves_to_go",
        ),
        (
            json!({"remaining_ms": 1000, "overhead_ms": 3_600_000}),
            "/clock/overhead_ms",
        ),
        (
            json!({"mode": "GAME", "time_left_s": 1e308}),
            "/clock/time_left_s",
        ),
    ] {
        let reply = post_json(
            &app,
            "/v1/games/reversi/bot-move",
            &json!({"state": reversi_start(), "clock": clock}),
        )
        .await;
        assert_eq!(
            reply.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{clock}: {}",
            reply.text
        );
        assert_eq!(reply.json["pointer"], pointer, "{clock}: {}", reply.text);
    }
    for clock in [
        json!({"remaining": 1000}),
        json!({"increment_ms": 5}),
        json!(5),
    ] {
        let reply = post_json(
            &app,
            "/v1/games/reversi/bot-move",
            &json!({"state": reversi_start(), "clock": clock}),
        )
        .await;
        assert_eq!(
            reply.status,
            StatusCode::BAD_REQUEST,
            "{clock}: {}",
            reply.text
        );
        assert_eq!(reply.json["pointer"], "/clock", "{clock}: {}", reply.text);
    }
    let both = post_json(
        &app,
        "/v1/games/reversi/bot-move",
        &json!({"state": reversi_start(), "time_ms": 100, "clock": {"remaining_ms": 1000}}),
    )
    .await;
    assert_eq!(
        both.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        both.text
    );
    assert_eq!(both.json["pointer"], "/clock");
}

#[tokio::test]
async fn a_numbered_level_with_a_generous_clock_plays_as_without_one() {
    let app = app();
    let state = json!({"board": ["........", "........", "...B....", "...BB...", "...BW...", "........", "........", "........"], "to_move": "white"});
    let plain = post_json(
        &app,
        "/v1/games/reversi/bot-move",
        &json!({"state": state, "level": "6", "seed": 11}),
    )
    .await;
    let clocked = post_json(
        &app,
        "/v1/games/reversi/bot-move",
        &json!({"state": state, "level": "6", "seed": 11, "clock": {"remaining_ms": 600_000, "increment_ms": 2000}}),
    )
    .await;
    assert_eq!(plain.status, StatusCode::OK, "{}", plain.text);
    assert_eq!(clocked.status, StatusCode::OK, "{}", clocked.text);
    assert_eq!(plain.json["move"], clocked.json["move"]);
    assert_eq!(
        plain.json["search"]["nodes"],
        clocked.json["search"]["nodes"]
    );
    assert!(
        clocked.json["search"].get("clamped").is_none(),
        "{}",
        clocked.json
    );
}

#[tokio::test]
async fn a_numbered_level_the_clock_cannot_afford_answers_in_time_and_says_so() {
    let app = app();
    // Out of the opening book, which would answer without a search.
    let (_, state) = crate::common::scripted_reversi(&app, 14, crate::common::Pick::Last).await;
    // The evaluation's tables are loaded on first use: not on this clock.
    post_json(
        &app,
        "/v1/games/reversi/bot-move",
        &json!({"state": state, "level": "strong", "max_depth": 2}),
    )
    .await;
    let reply = post_json(
        &app,
        "/v1/games/reversi/bot-move",
        &json!({"state": state, "level": "12", "seed": 3, "clock": {"remaining_ms": 400, "overhead_ms": 0}}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let search = &reply.json["search"];
    assert!(
        search["clock"]["used_ms"].as_u64().unwrap() < 400,
        "the flag held: {search}"
    );
    let clamped = search["clamped"].as_array().expect("clamped says the cut");
    assert_eq!(clamped[0]["field"], "clock", "{search}");
    let warning = reply.headers["warning"].to_str().unwrap();
    assert!(warning.contains("cut by the clock"), "{warning}");
}

#[tokio::test]
async fn the_halma_text_form_obeys_the_clock_in_its_input() {
    let app = app();
    let rows = crate::common::HALMA_START_ROWS;
    let input = format!("SINGLE\nWHITE\n0.05\n{}\n", rows.join("\n"));
    let reply = send(
        &app,
        axum::http::Method::POST,
        "/v1/games/halma/bot-move?level=strong",
        Some("text/plain"),
        input,
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let timing = reply.headers["server-timing"].to_str().unwrap();
    let compute: f64 = timing
        .split("compute;dur=")
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    assert!(compute < 50.0, "the bot kept to its 0.05 s: {timing}");
}

#[tokio::test]
async fn a_text_request_takes_its_clock_from_the_query() {
    let app = app();
    let board = "........\n........\n........\n...WB...\n...BW...\n........\n........\n........\n";
    let reply = send(
        &app,
        axum::http::Method::POST,
        "/v1/games/reversi/bot-move?to_move=black&remaining_ms=300&increment_ms=10",
        Some("text/plain"),
        board,
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert!(reply.headers.contains_key("server-timing"));
    let lonely = send(
        &app,
        axum::http::Method::POST,
        "/v1/games/reversi/bot-move?to_move=black&increment_ms=10",
        Some("text/plain"),
        board,
    )
    .await;
    assert_eq!(
        lonely.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        lonely.text
    );
    assert!(
        lonely.text.contains("give remaining_ms too"),
        "{}",
        lonely.text
    );
}

#[tokio::test]
async fn under_a_clock_the_only_legal_move_is_played_at_once() {
    let app = app();
    let state = json!({"board": ["BW......", "........", "........", "........", "........", "........", "........", "........"], "to_move": "black"});
    let reply = post_json(
        &app,
        "/v1/games/reversi/bot-move",
        &json!({"state": state, "clock": {"remaining_ms": 60000}}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.json["move"]["notation"], "c1");
    assert_eq!(
        reply.json["search"]["stopped_by"], "forced",
        "{}",
        reply.json
    );
    assert_eq!(reply.json["search"]["nodes"], 0);
    let unclocked = post_json(
        &app,
        "/v1/games/reversi/bot-move",
        &json!({"state": state, "level": "strong", "max_depth": 3}),
    )
    .await;
    assert_ne!(
        unclocked.json["search"]["stopped_by"], "forced",
        "only under a clock"
    );
}

#[tokio::test]
async fn a_request_that_waited_past_its_max_queue_ms_is_refused_not_searched() {
    let state = gamebot::api::AppState::new(gamebot::config::ServeConfig {
        workers: Some(1),
        ..crate::common::config()
    });
    let pool = state.pool.clone();
    let app = gamebot::api::router(state);
    let busy_app = app.clone();
    let busy = tokio::spawn(async move {
        post_json(
            &busy_app,
            "/v1/games/reversi/bot-move",
            &json!({"state": reversi_start(), "level": "strong:book=0", "time_ms": 600}),
        )
        .await
    });
    while pool.running() == 0 {
        tokio::time::sleep(std::time::Duration::from_millis(2)).await;
    }
    let refused = post_json(
        &app,
        "/v1/games/reversi/bot-move",
        &json!({"state": reversi_start(), "clock": {"remaining_ms": 5000}, "max_queue_ms": 50}),
    )
    .await;
    assert_eq!(
        refused.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{}",
        refused.text
    );
    assert_eq!(refused.json["code"], "queued_too_long");
    assert!(refused.headers.contains_key("retry-after"));
    let patient = post_json(
        &app,
        "/v1/games/reversi/bot-move",
        &json!({"state": reversi_start(), "level": "random", "max_queue_ms": 60000}),
    )
    .await;
    assert_eq!(patient.status, StatusCode::OK, "{}", patient.text);
    assert_eq!(busy.await.unwrap().status, StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_with_almost_no_time_left_never_waits_behind_another_clients_search() {
    let state = gamebot::api::AppState::new(gamebot::config::ServeConfig {
        workers: Some(1),
        ..crate::common::config()
    });
    let (pool, urgent) = (state.pool.clone(), state.urgent.clone());
    let app = gamebot::api::router(state);
    let busy_app = app.clone();
    let busy = tokio::spawn(async move {
        post_json(
            &busy_app,
            "/v1/games/reversi/bot-move",
            &json!({"state": reversi_start(), "level": "strong:book=0", "time_ms": 3000}),
        )
        .await
    });
    while pool.running() == 0 {
        tokio::time::sleep(std::time::Duration::from_millis(2)).await;
    }
    for game in REGISTRY {
        let id = game.info().id;
        let state = game.new_game(&Value::Null).unwrap().state;
        let hurried = post_json(
            &app,
            &format!("/v1/games/{id}/bot-move"),
            &json!({"state": state, "clock": {"remaining_ms": 50, "increment_ms": 0}}),
        )
        .await;
        assert_eq!(hurried.status, StatusCode::OK, "{id}: {}", hurried.text);
        let clock = &hurried.json["search"]["clock"];
        assert!(clock["cap_ms"].as_u64().unwrap() <= 24, "{id}: {clock}");
        assert!(!busy.is_finished(), "{id}: answered only after the search");
    }
    assert_eq!(urgent.running(), 0);
    let roomy = post_json(
        &app,
        "/v1/games/reversi/bot-move",
        &json!({"state": reversi_start(), "clock": {"remaining_ms": 5000}, "max_queue_ms": 0}),
    )
    .await;
    assert_eq!(
        roomy.json["code"], "queued_too_long",
        "a move with time to spare queues"
    );
    assert_eq!(busy.await.unwrap().status, StatusCode::OK);
}
