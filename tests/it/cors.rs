//! CORS over the real router: with origins configured, a browser's preflight
//! from one of them is answered before any handler, and answers to it carry
//! the headers a page needs; other origins get no allow header; with none
//! configured, no CORS header at all.

use crate::common::*;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use gamebot::config::ServeConfig;
use serde_json::json;
use tower::ServiceExt;

const ALLOWED: &str = "https://play.example.com";
const OTHER: &str = "http://localhost:5173";
const BOT_MOVE: &str = "/v1/games/naughts/bot-move";

fn with_cors() -> ServeConfig {
    ServeConfig {
        cors_origins: vec![
            ALLOWED.parse().unwrap(),
            "https://b.example".parse().unwrap(),
        ],
        ..config()
    }
}

/// The router's answer to `request`, its body as text.
async fn answer(
    app: &axum::Router,
    request: Request<Body>,
) -> (StatusCode, axum::http::HeaderMap, String) {
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    (status, headers, String::from_utf8_lossy(&bytes).to_string())
}

/// A browser's preflight for a JSON POST to `path` from `origin`.
fn preflight(path: &str, origin: &str) -> Request<Body> {
    Request::builder()
        .method(Method::OPTIONS)
        .uri(path)
        .header("origin", origin)
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type")
        .body(Body::empty())
        .unwrap()
}

/// A JSON POST of `body` to `path` from `origin`.
fn post_from(path: &str, origin: &str, body: &serde_json::Value) -> Request<Body> {
    Request::builder()
        .method(Method::POST)
        .uri(path)
        .header("origin", origin)
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap()
}

fn header<'h>(headers: &'h axum::http::HeaderMap, name: &str) -> &'h str {
    headers
        .get(name)
        .map(|v| v.to_str().unwrap())
        .unwrap_or_default()
}

/// The comma-separated names of header `name`, lowercased.
fn listed(headers: &axum::http::HeaderMap, name: &str) -> Vec<String> {
    header(headers, name)
        .split(',')
        .map(|item| item.trim().to_ascii_lowercase())
        .filter(|item| !item.is_empty())
        .collect()
}

fn bot_body() -> serde_json::Value {
    let state = json!({"grid_size": 3, "pieces": 5,
        "board": [["", "", ""], ["", "", ""], ["", "", ""]],
        "hands": {"O": [1, 2, 3, 4, 5], "X": [1, 2, 3, 4, 5]}, "to_move": "O"});
    json!({"state": state, "level": "random", "seed": 1})
}

#[tokio::test]
async fn a_preflight_from_an_allowed_origin_is_answered_before_any_handler() {
    let app = app_with(with_cors());
    let (status, headers, body) = answer(&app, preflight(BOT_MOVE, ALLOWED)).await;
    assert!(status.is_success(), "{status}: {body}");
    assert!(body.is_empty(), "no handler answered: {body}");
    assert_eq!(header(&headers, "access-control-allow-origin"), ALLOWED);
    let methods = listed(&headers, "access-control-allow-methods");
    assert_eq!(methods, ["get", "post", "options"]);
    let allowed = listed(&headers, "access-control-allow-headers");
    for name in ["content-type", "accept", "x-request-id", "authorization"] {
        assert!(allowed.contains(&name.to_string()), "{name}: {allowed:?}");
    }
    let max_age: u64 = header(&headers, "access-control-max-age").parse().unwrap();
    assert!(max_age > 0);
    assert!(listed(&headers, "vary").contains(&"origin".to_string()));
    assert!(
        headers.contains_key("x-request-id"),
        "preflights are traced too"
    );
    // The second configured origin is allowed too, and answered as itself.
    let (_, headers, _) = answer(&app, preflight(BOT_MOVE, "https://b.example")).await;
    assert_eq!(
        header(&headers, "access-control-allow-origin"),
        "https://b.example"
    );
}

#[tokio::test]
async fn a_preflight_from_another_origin_gets_no_allow_header() {
    let app = app_with(with_cors());
    for origin in [
        OTHER,
        "https://play.example.com.evil.example",
        "https://PLAY.example.com",
    ] {
        let (_, headers, _) = answer(&app, preflight(BOT_MOVE, origin)).await;
        assert!(
            !headers.contains_key("access-control-allow-origin"),
            "{origin}: {headers:?}"
        );
    }
}

#[tokio::test]
async fn an_allowed_origin_may_read_the_answer_and_its_headers() {
    let app = app_with(with_cors());
    let (status, headers, body) = answer(&app, post_from(BOT_MOVE, ALLOWED, &bot_body())).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(header(&headers, "access-control-allow-origin"), ALLOWED);
    let exposed = listed(&headers, "access-control-expose-headers");
    for name in ["x-request-id", "retry-after", "warning", "gamebot-move"] {
        assert!(exposed.contains(&name.to_string()), "{name}: {exposed:?}");
    }
    // A refusal is readable too, so the page can show the problem.
    let unknown = json!({"state": bot_body()["state"], "level": "strnog"});
    let (status, headers, body) = answer(&app, post_from(BOT_MOVE, ALLOWED, &unknown)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(header(&headers, "access-control-allow-origin"), ALLOWED);
    // Another origin's request is still served (CORS is the browser's
    // check), but its page may not read the answer.
    let (status, headers, _) = answer(&app, post_from(BOT_MOVE, OTHER, &bot_body())).await;
    assert_eq!(status, StatusCode::OK);
    assert!(!headers.contains_key("access-control-allow-origin"));
}

#[tokio::test]
async fn without_origins_no_answer_carries_a_cors_header() {
    let app = app();
    let (status, headers, _) = answer(&app, preflight(BOT_MOVE, ALLOWED)).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED, "as before CORS");
    let (status, more, _) = answer(&app, post_from(BOT_MOVE, ALLOWED, &bot_body())).await;
    assert_eq!(status, StatusCode::OK);
    for headers in [headers, more] {
        let cors: Vec<_> = headers
            .keys()
            .filter(|name| name.as_str().starts_with("access-control-") || *name == "vary")
            .collect();
        assert!(cors.is_empty(), "{cors:?}");
    }
}
