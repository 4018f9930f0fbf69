//! The HTTP path in-process: `legal-moves` and `play` through the real router
//! (JSON parsing, the compute pool, the game, JSON writing) for every game in
//! the registry, from its starting state. The network is measured separately
//! by `bench/http.sh` with a load generator.

use axum::body::Body;
use axum::http::Request;
use criterion::{criterion_group, criterion_main, Criterion};
use gamebot::api::{router, AppState};
use gamebot::config::ServeConfig;
use gamebot::games::REGISTRY;
use serde_json::{json, Value};
use tower::ServiceExt;

fn post(app: &axum::Router, runtime: &tokio::runtime::Runtime, uri: &str, body: &str) -> Value {
    runtime.block_on(async {
        let request = Request::post(uri)
            .header("content-type", "application/json")
            .body(Body::from(body.to_string()))
            .unwrap();
        let response = app.clone().oneshot(request).await.unwrap();
        assert!(
            response.status().is_success(),
            "{uri}: {}",
            response.status()
        );
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        serde_json::from_slice(&bytes).unwrap()
    })
}

fn http(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let app = runtime.block_on(async {
        router(AppState::new(ServeConfig {
            workers: Some(1),
            ..ServeConfig::default()
        }))
    });
    let mut group = c.benchmark_group("http");
    for game in REGISTRY {
        let id = game.info().id;
        let state = game.new_game(&Value::Null).unwrap().state;
        let legal_body = json!({"state": state}).to_string();
        let legal = post(
            &app,
            &runtime,
            &format!("/v1/games/{id}/legal-moves"),
            &legal_body,
        );
        let first_move = legal["moves"][0].clone();
        let play_body = json!({"state": state, "move": first_move}).to_string();
        group.bench_function(format!("{id}/legal-moves"), |b| {
            b.iter(|| {
                post(
                    &app,
                    &runtime,
                    &format!("/v1/games/{id}/legal-moves"),
                    &legal_body,
                )
            })
        });
        group.bench_function(format!("{id}/play"), |b| {
            b.iter(|| post(&app, &runtime, &format!("/v1/games/{id}/play"), &play_body))
        });
    }
    group.finish();
}

criterion_group!(benches, http);
criterion_main!(benches);
