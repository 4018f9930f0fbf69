//! The HTTP layer: the only module that knows axum. It sees games only through
//! the registry's type-erased [`crate::game::DynGame`] view and runs all their
//! work on the [`ComputePool`].

mod body;
mod handlers;
mod ops;
mod playground;
mod problem;
mod server;
mod telemetry;

pub use ops::OPENAPI_YAML;
pub use problem::{ApiError, Problem};
pub use server::{serve, shutdown_signal};

use crate::compute::ComputePool;
use crate::config::ServeConfig;
use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{HeaderName, Method};
use axum::routing::{get, post, MethodRouter};
use axum::Router;
use metrics_exporter_prometheus::PrometheusHandle;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use tower::ServiceBuilder;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::TraceLayer;

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    /// The settings the server runs with.
    pub config: Arc<ServeConfig>,
    /// Where every rules check and search runs.
    pub pool: Arc<ComputePool>,
    /// Raised when shutdown begins: `/readyz` then answers 503.
    pub draining: Arc<AtomicBool>,
    /// Renders `/metrics`.
    pub metrics: PrometheusHandle,
}

impl AppState {
    /// The state for `config`, with a fresh compute pool.
    pub fn new(config: ServeConfig) -> Self {
        // The recorder first: the pool registers its gauges when it is made.
        let metrics = telemetry::prometheus();
        let pool = ComputePool::new(config.worker_count(), config.queue);
        AppState {
            config: Arc::new(config),
            pool: Arc::new(pool),
            draining: Arc::new(AtomicBool::new(false)),
            metrics,
        }
    }
}

/// Every route: path, method and handler. The router is built from this
/// table, and the OpenAPI test checks the document against it.
fn route_table() -> Vec<(&'static str, Method, MethodRouter<AppState>)> {
    let mut table = vec![
        ("/v1/games", Method::GET, get(handlers::list_games)),
        ("/v1/games/{game}/rules", Method::GET, get(handlers::rules)),
        (
            "/v1/games/{game}/new",
            Method::POST,
            post(handlers::new_game),
        ),
        (
            "/v1/games/{game}/legal-moves",
            Method::POST,
            post(handlers::legal_moves),
        ),
        ("/v1/games/{game}/play", Method::POST, post(handlers::play)),
        (
            "/v1/games/{game}/bot-move",
            Method::POST,
            post(handlers::bot_move),
        ),
        (
            "/v1/games/{game}/analyze",
            Method::POST,
            post(handlers::analyze),
        ),
        (
            "/v1/games/{game}/replay",
            Method::POST,
            post(handlers::replay),
        ),
        ("/healthz", Method::GET, get(ops::healthz)),
        ("/readyz", Method::GET, get(ops::readyz)),
        ("/metrics", Method::GET, get(ops::metrics)),
        ("/openapi.yaml", Method::GET, get(ops::openapi)),
    ];
    table.extend(playground::routes());
    table
}

/// The (method, path) of every route the router serves.
pub fn routes() -> Vec<(Method, &'static str)> {
    route_table()
        .into_iter()
        .map(|(path, method, _)| (method, path))
        .collect()
}

/// The whole application: routes, middleware and state.
pub fn router(state: AppState) -> Router {
    let routes = route_table()
        .into_iter()
        .fold(Router::new(), |router, (path, _, handler)| {
            router.route(path, handler)
        });
    with_middleware(routes, state)
}

/// Wraps `routes` in the service's middleware (fallbacks, metrics, body limit,
/// request ids, tracing, panic catching) and gives them their state. Public so
/// that tests can check the middleware on routes of their own.
pub fn with_middleware(routes: Router<AppState>, state: AppState) -> Router {
    let request_id = HeaderName::from_static("x-request-id");
    let body_limit = state.config.max_body_bytes;
    routes
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::middleware::from_fn(telemetry::track))
        .layer(DefaultBodyLimit::max(body_limit))
        .layer(
            ServiceBuilder::new()
                .layer(SetRequestIdLayer::new(request_id.clone(), MakeRequestUuid))
                .layer(
                    // Failures are logged where they are made (500s as errors);
                    // a 503 under load is expected and not an error.
                    TraceLayer::new_for_http()
                        .make_span_with(request_span)
                        .on_failure(()),
                )
                .layer(PropagateRequestIdLayer::new(request_id))
                .layer(CatchPanicLayer::custom(panic_response)),
        )
        .with_state(state)
}

fn request_span(request: &Request) -> tracing::Span {
    let id = request
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("-");
    tracing::info_span!("request", request_id = id, method = %request.method(), path = %request.uri().path())
}

fn panic_response(payload: Box<dyn std::any::Any + Send + 'static>) -> axum::response::Response {
    use axum::response::IntoResponse;
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic with no message".into());
    ApiError::Compute(crate::compute::ComputeError::Panicked(message)).into_response()
}

async fn not_found(method: Method, uri: axum::http::Uri) -> ApiError {
    ApiError::NotFound(format!("{method} {}", uri.path()))
}

async fn method_not_allowed(method: Method) -> ApiError {
    ApiError::MethodNotAllowed(method.to_string())
}
