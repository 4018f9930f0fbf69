//! Health, readiness, metrics and the OpenAPI document: answered on the
//! runtime at once, never queued behind the compute pool.

use super::AppState;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;
use std::sync::atomic::Ordering;

/// `GET /healthz`: the process is alive.
pub async fn healthz() -> Json<serde_json::Value> {
    Json(json!({"status": "ok"}))
}

/// `GET /readyz`: ready for traffic, until shutdown begins.
pub async fn readyz(State(app): State<AppState>) -> Response {
    if app.draining.load(Ordering::Relaxed) {
        (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(json!({"status": "draining"})),
        )
            .into_response()
    } else {
        Json(json!({
            "status": "ready",
            "workers": app.pool.workers(),
            "jobs": app.pool.admitted(),
        }))
        .into_response()
    }
}

/// `GET /metrics`: Prometheus text format.
pub async fn metrics(State(app): State<AppState>) -> Response {
    metrics::gauge!("gamebot_cache_bytes").set(app.cache.bytes() as f64);
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        app.metrics.render(),
    )
        .into_response()
}

/// `GET /openapi.yaml`.
pub async fn openapi() -> Response {
    (
        [(header::CONTENT_TYPE, "application/yaml")],
        super::contract::openapi_yaml(),
    )
        .into_response()
}
