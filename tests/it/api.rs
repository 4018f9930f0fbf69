//! The HTTP API over the real router, with Reversi: every endpoint, and every
//! error code of the API's table. Every answer is also checked against
//! openapi.yaml by the helpers.

use crate::common::*;
use axum::body::Body;
use axum::http::{Method, StatusCode};
use gamebot::api::{router, AppState};
use gamebot::config::ServeConfig;
use serde_json::{json, Value};
use std::time::Duration;

fn start() -> Value {
    json!({
        "board": ["........", "........", "........", "...WB...", "...BW...", "........", "........", "........"],
        "to_move": "black"
    })
}

fn full_board() -> Value {
    json!({"board": vec!["BBBBBBBB"; 8], "to_move": "white"})
}

fn notations(reply: &Reply) -> Vec<String> {
    let mut list: Vec<String> = reply.json["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["notation"].as_str().unwrap().to_string())
        .collect();
    list.sort();
    list
}

#[tokio::test]
async fn lists_every_game_with_levels() {
    let reply = get(&app(), "/v1/games").await;
    assert_eq!(reply.status, StatusCode::OK);
    let games = reply.json["games"].as_array().unwrap();
    let reversi = games
        .iter()
        .find(|g| g["id"] == "reversi")
        .expect("reversi is listed");
    let levels: Vec<&str> = reversi["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["id"].as_str().unwrap())
        .collect();
    for level in ["random", "norvig", "strong"] {
        assert!(levels.contains(&level), "{level} in {levels:?}");
    }
    assert_eq!(reversi["players"], 2);
}

#[tokio::test]
async fn new_gives_the_start_position_with_or_without_a_body() {
    let app = app();
    let empty = send(
        &app,
        Method::POST,
        "/v1/games/reversi/new",
        None,
        Body::empty(),
    )
    .await;
    assert_eq!(empty.status, StatusCode::OK, "{}", empty.text);
    assert_eq!(empty.json["state"], start());
    let with_options = post_json(&app, "/v1/games/reversi/new", &json!({"options": {}})).await;
    assert_eq!(with_options.json["state"], start());
}

#[tokio::test]
async fn legal_moves_from_the_start() {
    let reply = post_json(
        &app(),
        "/v1/games/reversi/legal-moves",
        &json!({"state": start()}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.json["count"], 4);
    assert_eq!(notations(&reply), ["c4", "d3", "e6", "f5"]);
    assert_eq!(reply.json["outcome"], json!({"status": "ongoing"}));
}

#[tokio::test]
async fn play_takes_notation_or_the_move_object() {
    let app = app();
    let by_notation = post_json(
        &app,
        "/v1/games/reversi/play",
        &json!({"state": start(), "move": "d3"}),
    )
    .await;
    assert_eq!(by_notation.status, StatusCode::OK, "{}", by_notation.text);
    assert_eq!(by_notation.json["move"]["notation"], "d3");
    assert_eq!(by_notation.json["state"]["to_move"], "white");
    assert_eq!(by_notation.json["state"]["board"][2], "...B....");
    assert_eq!(by_notation.json["state"]["board"][3], "...BB...");
    let object = by_notation.json["move"].clone();
    let by_object = post_json(
        &app,
        "/v1/games/reversi/play",
        &json!({"state": start(), "move": object}),
    )
    .await;
    assert_eq!(by_object.json["state"], by_notation.json["state"]);
}

#[tokio::test]
async fn bot_move_with_seed_and_depth_is_repeatable() {
    let app = app();
    let request = json!({"state": start(), "level": "norvig", "max_depth": 3, "seed": 7});
    let first = post_json(&app, "/v1/games/reversi/bot-move", &request).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    let second = post_json(&app, "/v1/games/reversi/bot-move", &request).await;
    assert_eq!(first.json["move"], second.json["move"]);
    let search = &first.json["search"];
    assert_eq!(search["level"], "norvig");
    assert_eq!(search["seed"], 7);
    assert_eq!(search["max_depth"], 3);
    for random_seed in 0..4 {
        let request = json!({"state": start(), "level": "random", "seed": random_seed});
        let a = post_json(&app, "/v1/games/reversi/bot-move", &request).await;
        let b = post_json(&app, "/v1/games/reversi/bot-move", &request).await;
        assert_eq!(a.json["move"], b.json["move"]);
    }
}

#[tokio::test]
async fn bot_move_clamps_time_to_the_server_cap() {
    let config = ServeConfig {
        max_time_ms: 50,
        ..config()
    };
    let reply = post_json(
        &app_with(config),
        "/v1/games/reversi/bot-move",
        &json!({"state": start(), "time_ms": 100000}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.json["search"]["time_ms"], 50);
}

#[tokio::test]
async fn analyze_returns_the_top_moves_with_lines() {
    let reply = post_json(
        &app(),
        "/v1/games/reversi/analyze",
        &json!({"state": start(), "top": 4, "max_depth": 3}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let moves = reply.json["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4);
    let scores: Vec<i64> = moves.iter().map(|m| m["score"].as_i64().unwrap()).collect();
    assert!(
        scores.windows(2).all(|w| w[0] >= w[1]),
        "best first: {scores:?}"
    );
    for m in moves {
        assert_eq!(m["pv"][0], m["move"]["notation"]);
    }
}

// ---- every error of the table ----

#[tokio::test]
async fn malformed_json_says_where() {
    let app = app();
    let uri = "/v1/games/reversi/legal-moves";
    let syntax = send(
        &app,
        Method::POST,
        uri,
        Some("application/json"),
        "{\"state\": [1,}",
    )
    .await;
    assert_eq!(
        (syntax.status, syntax.code()),
        (StatusCode::BAD_REQUEST, "malformed_json")
    );
    assert!(
        syntax.json["detail"].as_str().unwrap().contains("line 1"),
        "{}",
        syntax.text
    );

    let missing = post_json(&app, uri, &json!({"board": []})).await;
    assert_eq!(missing.code(), "malformed_json");
    assert!(missing.text.contains("state"), "{}", missing.text);

    let wrong_type = post_json(
        &app,
        "/v1/games/reversi/analyze",
        &json!({"state": start(), "top": "three"}),
    )
    .await;
    assert_eq!(wrong_type.code(), "malformed_json");
    assert_eq!(wrong_type.json["pointer"], "/top", "{}", wrong_type.text);

    let negative = post_json(
        &app,
        "/v1/games/reversi/bot-move",
        &json!({"state": start(), "time_ms": -5}),
    )
    .await;
    assert_eq!(negative.code(), "malformed_json", "{}", negative.text);

    let trailing = send(
        &app,
        Method::POST,
        uri,
        Some("application/json"),
        format!("{} x", json!({"state": start()})),
    )
    .await;
    assert_eq!(trailing.code(), "malformed_json");

    let empty = send(
        &app,
        Method::POST,
        uri,
        Some("application/json"),
        Body::empty(),
    )
    .await;
    assert_eq!(empty.code(), "malformed_json");

    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let deep = send(
        &app,
        Method::POST,
        uri,
        Some("application/json"),
        format!("{{\"state\": {deep}}}"),
    )
    .await;
    assert_eq!(deep.code(), "malformed_json", "nesting is capped");
}

#[tokio::test]
async fn unknown_game_is_404() {
    let reply = post_json(
        &app(),
        "/v1/games/chess/legal-moves",
        &json!({"state": start()}),
    )
    .await;
    assert_eq!(
        (reply.status, reply.code()),
        (StatusCode::NOT_FOUND, "unknown_game")
    );
    assert_eq!(reply.content_type(), "application/problem+json");
}

#[tokio::test]
async fn unknown_routes_and_methods_are_problems() {
    let app = app();
    let reply = get(&app, "/v2/anything").await;
    assert_eq!(
        (reply.status, reply.code()),
        (StatusCode::NOT_FOUND, "not_found")
    );
    let reply = get(&app, "/v1/games/reversi/play").await;
    assert_eq!(
        (reply.status, reply.code()),
        (StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed")
    );
}

#[tokio::test]
async fn a_body_over_the_limit_is_413() {
    let app = app_with(ServeConfig {
        max_body_bytes: 256,
        ..config()
    });
    let big = json!({"state": start(), "padding": "x".repeat(1000)});
    let reply = post_json(&app, "/v1/games/reversi/legal-moves", &big).await;
    assert_eq!(
        (reply.status, reply.code()),
        (StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large")
    );
}

#[tokio::test]
async fn other_media_types_are_415() {
    let app = app();
    let xml = send(
        &app,
        Method::POST,
        "/v1/games/reversi/legal-moves",
        Some("application/xml"),
        "<state/>",
    )
    .await;
    assert_eq!(
        (xml.status, xml.code()),
        (StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type")
    );
    let text_play = send(
        &app,
        Method::POST,
        "/v1/games/reversi/play",
        Some("text/plain"),
        "d3",
    )
    .await;
    assert_eq!(text_play.code(), "unsupported_media_type");
}

#[tokio::test]
async fn an_invalid_state_names_the_row() {
    let mut state = start();
    state["board"][3] = json!("...WX...");
    let reply = post_json(
        &app(),
        "/v1/games/reversi/legal-moves",
        &json!({"state": state}),
    )
    .await;
    assert_eq!(
        (reply.status, reply.code()),
        (StatusCode::UNPROCESSABLE_ENTITY, "invalid_state")
    );
    assert!(
        reply.json["pointer"]
            .as_str()
            .unwrap()
            .starts_with("/state/board/3"),
        "{}",
        reply.text
    );

    let reply = post_json(
        &app(),
        "/v1/games/reversi/legal-moves",
        &json!({"state": {"board": [], "to_move": "red"}}),
    )
    .await;
    assert_eq!(reply.code(), "invalid_state");
}

#[tokio::test]
async fn an_illegal_move_is_refused_and_says_why() {
    let app = app();
    for mv in [
        json!("a1"),
        json!("pass"),
        json!("z9"),
        json!({"square": "h8"}),
        json!(42),
    ] {
        let reply = post_json(
            &app,
            "/v1/games/reversi/play",
            &json!({"state": start(), "move": mv}),
        )
        .await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::UNPROCESSABLE_ENTITY, "illegal_move"),
            "{mv}: {}",
            reply.text
        );
    }
}

#[tokio::test]
async fn unknown_levels_and_options_are_422() {
    let app = app();
    let reply = post_json(
        &app,
        "/v1/games/reversi/bot-move",
        &json!({"state": start(), "level": "grandmaster"}),
    )
    .await;
    assert_eq!(
        (reply.status, reply.code()),
        (StatusCode::UNPROCESSABLE_ENTITY, "unknown_level")
    );
    assert!(
        reply.text.contains("norvig"),
        "lists the levels: {}",
        reply.text
    );

    // A misspelt level is told the one it most likely meant, beside every
    // level, numbered and named.
    let reply = post_json(
        &app,
        "/v1/games/reversi/bot-move",
        &json!({"state": start(), "level": "strnog"}),
    )
    .await;
    assert_eq!(
        (reply.status, reply.code()),
        (StatusCode::UNPROCESSABLE_ENTITY, "unknown_level")
    );
    let top = gamebot::games::find("reversi")
        .unwrap()
        .listing()
        .numbered_levels
        .len();
    assert_eq!(
        reply.json["detail"],
        format!(
            "unknown level 'strnog'; did you mean 'strong'? this game has: 1-{top}, random, norvig, strong"
        )
    );

    let reply = post_json(
        &app,
        "/v1/games/reversi/analyze",
        &json!({"state": start(), "top": 11}),
    )
    .await;
    assert_eq!(reply.code(), "invalid_option");
    let reply = post_json(&app, "/v1/games/reversi/new", &json!({"options": 5})).await;
    assert_eq!(reply.code(), "invalid_option");
    let reply = post_json(
        &app,
        "/v1/games/reversi/bot-move",
        &json!({"state": start(), "level": "norvig:depth=99"}),
    )
    .await;
    assert_eq!(reply.code(), "invalid_option", "{}", reply.text);
}

#[tokio::test]
async fn moves_in_a_finished_game_are_409() {
    let app = app();
    let legal = post_json(
        &app,
        "/v1/games/reversi/legal-moves",
        &json!({"state": full_board()}),
    )
    .await;
    assert_eq!(legal.json["count"], 0);
    assert_eq!(legal.json["outcome"]["status"], "win");
    assert_eq!(legal.json["outcome"]["winner"], "black");
    for path in ["play", "bot-move", "analyze"] {
        let body = json!({"state": full_board(), "move": "pass"});
        let reply = post_json(&app, &format!("/v1/games/reversi/{path}"), &body).await;
        let body_without_move = json!({"state": full_board()});
        let reply = if path == "play" {
            reply
        } else {
            post_json(
                &app,
                &format!("/v1/games/reversi/{path}"),
                &body_without_move,
            )
            .await
        };
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::CONFLICT, "game_over"),
            "{path}: {}",
            reply.text
        );
    }
}

#[tokio::test]
async fn a_full_pool_answers_503_with_retry_after_and_rules_calls_go_on() {
    let state = AppState::new(ServeConfig {
        workers: Some(1),
        queue: 0,
        ..config()
    });
    let pool = state.pool.clone();
    let app = router(state);
    let busy_app = app.clone();
    let busy = tokio::spawn(async move {
        post_json(
            &busy_app,
            "/v1/games/reversi/bot-move",
            // A search (the opening book would answer at once).
            &json!({"state": start(), "level": "strong:book=0", "time_ms": 1500}),
        )
        .await
    });
    while pool.running() == 0 {
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    let refused = post_json(
        &app,
        "/v1/games/reversi/bot-move",
        &json!({"state": start(), "level": "random"}),
    )
    .await;
    assert_eq!(
        (refused.status, refused.code()),
        (StatusCode::SERVICE_UNAVAILABLE, "overloaded")
    );
    assert_eq!(refused.headers.get("retry-after").unwrap(), "1");
    // Rules calls have a lane of their own: they never wait behind a search.
    let rules = post_json(
        &app,
        "/v1/games/reversi/legal-moves",
        &json!({"state": start()}),
    )
    .await;
    assert_eq!(rules.status, StatusCode::OK, "{}", rules.text);
    assert!(
        !busy.is_finished(),
        "legal-moves was answered while the search still ran"
    );
    // Health, readiness and metrics never wait behind the pool.
    assert_eq!(get(&app, "/healthz").await.status, StatusCode::OK);
    assert_eq!(get(&app, "/readyz").await.status, StatusCode::OK);
    let metrics = get(&app, "/metrics").await;
    assert!(
        metrics.text.contains("gamebot_compute_rejected_total"),
        "{}",
        metrics.text
    );
    assert_eq!(busy.await.unwrap().status, StatusCode::OK);
}

// ---- operations ----

#[tokio::test]
async fn request_ids_are_echoed_or_made() {
    let app = app();
    let request = axum::http::Request::get("/healthz")
        .header("x-request-id", "req-42")
        .body(Body::empty())
        .unwrap();
    let response = tower::ServiceExt::oneshot(app.clone(), request)
        .await
        .unwrap();
    assert_eq!(response.headers()["x-request-id"], "req-42");
    let made = get(&app, "/healthz").await;
    assert!(!made.headers["x-request-id"].is_empty());
}

#[tokio::test]
async fn metrics_count_requests_searches_and_the_pool() {
    let app = app();
    post_json(
        &app,
        "/v1/games/reversi/bot-move",
        &json!({"state": start(), "level": "norvig", "max_depth": 2}),
    )
    .await;
    post_json(
        &app,
        "/v1/games/nope/legal-moves",
        &json!({"state": start()}),
    )
    .await;
    let metrics = get(&app, "/metrics").await;
    assert_eq!(metrics.status, StatusCode::OK);
    for expected in [
        "gamebot_http_requests_total{route=\"/v1/games/{game}/bot-move\",game=\"reversi\",status=\"200\"}",
        "gamebot_http_request_duration_seconds_bucket{route=\"/v1/games/{game}/bot-move\",game=\"reversi\",status=\"200\"",
        "game=\"unknown\",status=\"404\"",
        "gamebot_compute_queue_depth",
        "gamebot_search_nodes_total{game=\"reversi\",level=\"norvig\"}",
        "gamebot_search_seconds_bucket{game=\"reversi\",level=\"norvig\"",
    ] {
        assert!(metrics.text.contains(expected), "missing {expected} in\n{}", metrics.text);
    }
}

/// The metric names of the `# <kind>` lines of a Prometheus text.
fn declared(text: &str, kind: &str) -> std::collections::BTreeSet<String> {
    text.lines()
        .filter_map(|line| line.strip_prefix(&format!("# {kind} ")))
        .filter_map(|rest| rest.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_metric_is_described_and_the_build_is_named() {
    let keys = gamebot::api::keys::ApiKeys::parse("portal 0123456789abcdef0123 1000\n").unwrap();
    let app = router(AppState::new(config()).with_keys(keys));
    let (addr, _) = spawn_server(config()).await;
    reqwest::get(format!("http://{addr}/healthz"))
        .await
        .unwrap();
    let seeded = json!({"state": start(), "level": "random", "seed": 1, "max_depth": 1});
    for _ in 0..2 {
        let request = axum::http::Request::post("/v1/games/reversi/bot-move")
            .header("authorization", "Bearer 0123456789abcdef0123")
            .header("content-type", "application/json")
            .body(Body::from(seeded.to_string()))
            .unwrap();
        assert_eq!(send_request(&app, request).await.status, StatusCode::OK);
    }
    let text = get(&app, "/metrics").await.text;
    let typed = declared(&text, "TYPE");
    let helped = declared(&text, "HELP");
    let undescribed: Vec<_> = typed.difference(&helped).collect();
    assert!(
        undescribed.is_empty(),
        "no # HELP for {undescribed:?} in\n{text}"
    );
    for name in [
        "gamebot_http_requests_total",
        "gamebot_cache_requests_total",
        "gamebot_cache_bytes",
        "gamebot_api_key_requests_total",
        "gamebot_connections_total",
        "gamebot_compute_jobs_total",
        "gamebot_build_info",
    ] {
        assert!(typed.contains(name), "{name} not exported in\n{text}");
    }
    let info = format!(
        "gamebot_build_info{{version=\"{}\",commit=\"{}\"}} 1",
        env!("CARGO_PKG_VERSION"),
        gamebot::api::BUILD_COMMIT
    );
    assert!(
        text.lines().any(|line| line == info),
        "no {info} in\n{text}"
    );
    assert!(!gamebot::api::BUILD_COMMIT.is_empty());
}

#[tokio::test]
async fn the_openapi_document_is_served() {
    let reply = get(&app(), "/openapi.yaml").await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(
        reply.text,
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/openapi.yaml")).unwrap()
    );
}

#[tokio::test]
async fn a_panic_in_a_handler_is_a_500_problem_and_the_service_goes_on() {
    use axum::routing::get as route_get;
    let state = AppState::new(config());
    let routes = axum::Router::new().route(
        "/boom",
        route_get(|| async { panic!("test-only trigger") as &'static str }),
    );
    let app = gamebot::api::with_middleware(routes, state);
    let request = axum::http::Request::get("/boom")
        .body(Body::empty())
        .unwrap();
    let response = tower::ServiceExt::oneshot(app.clone(), request)
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(
        response.headers()["content-type"],
        "application/problem+json"
    );
    let body = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    let problem: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(problem["code"], "internal_error");
    let request = axum::http::Request::get("/boom")
        .body(Body::empty())
        .unwrap();
    let again = tower::ServiceExt::oneshot(app, request).await.unwrap();
    assert_eq!(
        again.status(),
        StatusCode::INTERNAL_SERVER_ERROR,
        "still serving"
    );
}

#[tokio::test]
async fn every_game_serves_its_rules_as_markdown() {
    let app = app();
    for game in gamebot::games::REGISTRY {
        let id = game.info().id;
        let reply = get(&app, &format!("/v1/games/{id}/rules")).await;
        assert_eq!(reply.status, StatusCode::OK, "{id}");
        assert_eq!(reply.content_type(), "text/markdown; charset=utf-8");
        assert!(reply.text.starts_with("# "), "{id}: {}", &reply.text[..40]);
        assert!(
            reply.text.len() > 1000,
            "{id}: the rules are a real document"
        );
    }
    let reply = get(&app, "/v1/games/chess/rules").await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    assert_eq!(reply.code(), "unknown_game");
}

#[tokio::test]
async fn numbered_levels_play_with_their_own_budget_and_refuse_another() {
    let app = app();
    let listing = get(&app, "/v1/games").await.json;
    let reversi = listing["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == "reversi")
        .unwrap();
    let numbered = reversi["numbered_levels"].as_array().unwrap();
    let top = numbered.len();
    assert!(top >= 8, "{reversi}");
    assert_eq!(numbered[0]["level"], 1);
    assert!(
        numbered[top - 1]["description"]
            .as_str()
            .unwrap()
            .contains("default level"),
        "{reversi}"
    );

    // Level 2 searches one ply and draws among the moves by their scores:
    // the same seed gives the same move.
    let body = json!({"state": start(), "level": "2", "seed": 7});
    let first = post_json(&app, "/v1/games/reversi/bot-move", &body).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    assert_eq!(first.json["search"]["level"], "2");
    assert_eq!(first.json["search"]["max_depth"], 1);
    // It searched to a node cap, not for the service's default time.
    assert!(first.json["search"]["time_ms"].is_null(), "{}", first.text);
    assert!(
        first.json["search"]["temperature"].is_number(),
        "{}",
        first.text
    );
    let again = post_json(&app, "/v1/games/reversi/bot-move", &body).await;
    assert_eq!(first.json["move"], again.json["move"]);

    // A budget beside a numbered level is refused, naming the fields.
    for budget in ["time_ms", "max_depth", "max_nodes"] {
        let mut body = json!({"state": start(), "level": "2"});
        body[budget] = json!(50);
        let reply = post_json(&app, "/v1/games/reversi/bot-move", &body).await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::UNPROCESSABLE_ENTITY, "invalid_option"),
            "{budget}: {}",
            reply.text
        );
        assert!(reply.text.contains(budget), "{}", reply.text);
        assert!(reply
            .text
            .contains("numbered levels carry their own budget"));
    }
    // Named levels still take budgets.
    let body = json!({"state": start(), "level": "strong", "time_ms": 20});
    let reply = post_json(&app, "/v1/games/reversi/bot-move", &body).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);

    // A number off the ladder is an unknown level that names the ladder.
    let above = (top + 1).to_string();
    let ladder = format!("1-{top}, random");
    for level in [above.as_str(), "0"] {
        let body = json!({"state": start(), "level": level});
        let reply = post_json(&app, "/v1/games/reversi/bot-move", &body).await;
        assert_eq!(reply.code(), "unknown_level", "{}", reply.text);
        assert!(reply.text.contains(&ladder), "{}", reply.text);
    }
}

#[tokio::test]
async fn a_naughts_move_off_the_board_gives_the_range_and_points_at_the_field() {
    let app = app();
    let state = post_json(&app, "/v1/games/naughts/new", &json!({}))
        .await
        .json["state"]
        .clone();
    let cases = [
        (
            json!("0 0 5"),
            "invalid_row",
            "/move",
            "row must be 1-3 in notation (0-2 in a move object), got 0",
        ),
        (
            json!({"row": 5, "col": 0, "size": 1}),
            "invalid_row",
            "/move/row",
            "row must be 0-2 in a move object (1-3 in notation), got 5",
        ),
        (
            json!({"row": 0, "col": 0, "size": 6}),
            "invalid_size",
            "/move/size",
            "size must be 1-5 (the sizes of this game's markers), got 6",
        ),
    ];
    for (mv, code, pointer, detail) in cases {
        let body = json!({"state": state, "move": mv});
        let reply = post_json(&app, "/v1/games/naughts/play", &body).await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::UNPROCESSABLE_ENTITY, code),
            "{}",
            reply.text
        );
        assert_eq!(reply.json["pointer"], pointer, "{}", reply.text);
        assert_eq!(reply.json["detail"], detail, "{}", reply.text);
        assert!(body.pointer(pointer).is_some());
    }
}
