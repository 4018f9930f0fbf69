//! openapi.yaml and the router describe the same API: every route served is
//! documented, every documented operation is served, and every documented
//! response can be produced with a body matching its schema.

use crate::common::*;
use axum::body::Body;
use axum::http::{Method, StatusCode};
use gamebot::api::{router, AppState};
use gamebot::config::ServeConfig;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::time::Duration;

fn documented_operations() -> BTreeSet<(String, String)> {
    let mut operations = BTreeSet::new();
    for (path, item) in openapi()["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            operations.insert((method.to_ascii_uppercase(), path.clone()));
        }
    }
    operations
}

#[test]
fn every_route_is_documented_and_every_documented_operation_is_routed() {
    let served: BTreeSet<(String, String)> = gamebot::api::routes()
        .into_iter()
        .map(|(method, path)| (method.to_string(), path.to_string()))
        .collect();
    assert_eq!(served, documented_operations());
}

#[test]
fn the_checked_in_document_is_the_generated_one() {
    let checked_in = include_str!("../../openapi.yaml");
    assert!(
        checked_in == gamebot::api::openapi_yaml(),
        "openapi.yaml differs from the document the code generates; \
         regenerate it with `cargo run -- openapi > openapi.yaml`"
    );
}

#[test]
fn the_document_is_openapi_3_1_and_every_ref_resolves() {
    let doc = openapi();
    assert_eq!(doc["openapi"], "3.1.0");
    let mut references = Vec::new();
    collect_refs(doc, &mut references);
    assert!(references.len() > 100, "{}", references.len());
    for reference in references {
        assert!(
            doc.pointer(reference.trim_start_matches('#')).is_some(),
            "dangling {reference}"
        );
    }
}

fn collect_refs(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, item) in map {
                match (key.as_str(), item) {
                    ("$ref", Value::String(target)) => out.push(target.clone()),
                    _ => collect_refs(item, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| collect_refs(item, out)),
        _ => {}
    }
}

/// Produces every documented status of every operation, so that each one is
/// checked against its schema by the shared helper.
#[tokio::test]
async fn every_documented_response_is_produced_and_matches_its_schema() {
    let state = AppState::new(ServeConfig {
        workers: Some(1),
        queue: 0,
        max_body_bytes: 4096,
        body_timeout_ms: 50,
        // A repeated seeded request would come from the cache, not the
        // full pool this test needs it to meet.
        cache_mb: 0,
        rules_workers: 1,
        rules_queue: 0,
        ..config()
    });
    let pool = state.pool.clone();
    let rules = state.rules.clone();
    let app = router(state);
    let mut produced = BTreeSet::new();
    let game_routes = [
        "new",
        "legal-moves",
        "play",
        "bot-move",
        "analyze",
        "replay",
        "review",
    ];

    for id in gamebot::games::ids() {
        let game = gamebot::games::find(id).unwrap();
        let start = game.new_game(&Value::Null).unwrap().state;
        let first = game.legal_moves(&start).unwrap().moves[0]["notation"].clone();
        let over = finished_state(id);
        for route in game_routes {
            let uri = format!("/v1/games/{id}/{route}");
            let templates = [uri.clone(), format!("/v1/games/{{game}}/{route}")];
            let good = match route {
                "new" => json!({}),
                "legal-moves" => json!({"state": start}),
                "play" => json!({"state": start, "move": first}),
                "bot-move" => json!({"state": start, "level": "1", "seed": 1}),
                "replay" => json!({"moves": [first], "states": true}),
                "review" => json!({"moves": [first], "max_nodes_per_ply": 2000}),
                _ => json!({"state": start, "max_nodes": 2000, "top": 2}),
            };
            let mut cases = vec![
                post_json(&app, &uri, &good).await,
                send(&app, Method::POST, &uri, Some("application/json"), "{").await,
                post_json(
                    &app,
                    &uri,
                    &json!({"state": start, "pad": "x".repeat(5000)}),
                )
                .await,
                send(&app, Method::POST, &uri, Some("image/png"), "x").await,
                send(
                    &app,
                    Method::POST,
                    &uri,
                    Some("application/json"),
                    Body::new(StalledBody),
                )
                .await,
            ];
            if id == "reversi" {
                let unknown = post_json(&app, &format!("/v1/games/nope/{route}"), &good).await;
                produced.insert((templates[1].clone(), unknown.status.as_u16().to_string()));
            }
            if route == "new" {
                cases.push(post_json(&app, &uri, &json!({"options": {"size": 10}})).await);
            } else {
                let broken = json!({"board": [], "to_move": "black"});
                let with_state = |state: &Value| {
                    let mut body = good.clone();
                    body["state"] = state.clone();
                    body
                };
                cases.push(post_json(&app, &uri, &with_state(&broken)).await);
                cases.push(post_json(&app, &uri, &with_state(&over)).await);
            }
            // Overloaded: hold the only search worker with a long search,
            // and the only rules worker with a job that waits to be let go.
            let busy_app = app.clone();
            let busy = tokio::spawn(async move {
                post_json(&busy_app, "/v1/games/reversi/bot-move", &json!({"state": {"board": ["........", "........", "........", "...WB...", "...BW...", "........", "........", "........"], "to_move": "black"}, "level": "strong:book=0", "time_ms": 400})).await
            });
            let held = rules
                .submit(&gamebot::compute::Client::local(), |stop| {
                    while !stop.is_raised() {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                })
                .unwrap();
            while pool.running() == 0 || rules.running() == 0 {
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
            cases.push(post_json(&app, &uri, &good).await);
            drop(held);
            busy.await.unwrap();
            while rules.admitted() > 0 {
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
            for reply in cases {
                for template in &templates {
                    produced.insert((template.clone(), reply.status.as_u16().to_string()));
                }
            }
        }
    }
    for path in [
        "/v1/games",
        "/healthz",
        "/readyz",
        "/metrics",
        "/openapi.yaml",
        "/",
        "/playground/app.js",
        "/playground/style.css",
    ] {
        let reply = get(&app, path).await;
        assert_eq!(reply.status, StatusCode::OK);
        produced.insert((path.to_string(), "200".to_string()));
    }
    for (uri, status) in [
        ("/v1/games/reversi/rules", StatusCode::OK),
        ("/v1/games/nope/rules", StatusCode::NOT_FOUND),
    ] {
        let reply = get(&app, uri).await;
        assert_eq!(reply.status, status, "{uri}");
        produced.insert((
            "/v1/games/{game}/rules".to_string(),
            status.as_u16().to_string(),
        ));
    }
    let placement = "/v1/games/reversi/placement";
    for reply in [
        post_json(
            &app,
            placement,
            &json!({"results": [{"level": 2, "result": "win"}]}),
        )
        .await,
        post_json(
            &app,
            placement,
            &json!({"results": [{"level": 99, "result": "win"}]}),
        )
        .await,
        post_json(&app, "/v1/games/nope/placement", &json!({})).await,
        send(&app, Method::POST, placement, Some("application/json"), "{").await,
        post_json(&app, placement, &json!({"pad": "x".repeat(5000)})).await,
        send(&app, Method::POST, placement, Some("image/png"), "x").await,
        send(
            &app,
            Method::POST,
            placement,
            Some("application/json"),
            Body::new(StalledBody),
        )
        .await,
    ] {
        produced.insert((
            "/v1/games/{game}/placement".to_string(),
            reply.status.as_u16().to_string(),
        ));
    }
    // With API keys: every /v1 operation without a key, with an unknown
    // one, and over its key's limit (one a second: the second call). Each
    // operation has a key of its own, so that the first call always finds
    // its key's token however fast or slow the operations before it were.
    let operations: Vec<(String, String)> = openapi()["paths"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(path, _)| path.starts_with("/v1/"))
        .flat_map(|(path, item)| {
            item.as_object()
                .unwrap()
                .keys()
                .map(move |method| (path.clone(), method.clone()))
        })
        .collect();
    let key_of = |i: usize| format!("key-of-operation-{i:04}");
    let keys_file: String = (0..operations.len())
        .map(|i| format!("op{i} {} 1\n", key_of(i)))
        .collect();
    let keys = gamebot::api::keys::ApiKeys::parse(&keys_file).unwrap();
    let keyed = router(AppState::new(config()).with_keys(keys));
    for (i, (path, method)) in operations.iter().enumerate() {
        let key = key_of(i);
        let uri = path.replace("{game}", "reversi");
        {
            let method = Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
            let request = |key: Option<&str>| {
                let mut builder = axum::http::Request::builder()
                    .method(method.clone())
                    .uri(&uri)
                    .header("content-type", "application/json");
                if let Some(key) = key {
                    builder = builder.header("authorization", format!("Bearer {key}"));
                }
                builder.body(Body::from("{}")).unwrap()
            };
            let mut replies = vec![
                send_request(&keyed, request(None)).await,
                send_request(&keyed, request(Some("0123456789abcdef0124"))).await,
            ];
            send_request(&keyed, request(Some(&key))).await;
            replies.push(send_request(&keyed, request(Some(&key))).await);
            for (reply, wanted) in replies.iter().zip([401, 403, 429]) {
                assert_eq!(
                    reply.status.as_u16(),
                    wanted,
                    "{method} {uri}: {}",
                    reply.text
                );
                produced.insert((path.clone(), wanted.to_string()));
            }
        }
    }
    // /readyz while draining.
    let state = AppState::new(config());
    state
        .draining
        .store(true, std::sync::atomic::Ordering::Relaxed);
    let draining = send(&router(state), Method::GET, "/readyz", None, Body::empty()).await;
    assert_eq!(draining.status, StatusCode::SERVICE_UNAVAILABLE);
    produced.insert(("/readyz".to_string(), "503".to_string()));

    for (path, item) in openapi()["paths"].as_object().unwrap() {
        for operation in item.as_object().unwrap().values() {
            for status in operation["responses"].as_object().unwrap().keys() {
                assert!(
                    produced.contains(&(path.clone(), status.clone())),
                    "{path} {status} is documented but no test produced it; produced: {produced:?}"
                );
            }
        }
    }
}
