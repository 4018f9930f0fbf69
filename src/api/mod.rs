//! The HTTP layer: the only module that knows axum. It sees games only through
//! the registry's type-erased [`crate::game::DynGame`] view and runs all their
//! work on the [`ComputePool`].
//!
//! - `requests` — one typed request per endpoint, read once (JSON or text);
//!   `parts` — a body read part by part, for the fields a family shares.
//! - `handlers` — the game endpoints: budget, compute pool, answer.
//! - `contract` — the OpenAPI document, generated from the types.
//! - `cache` — the position cache of deterministic answers; `cached` — the
//!   one cached search `bot-move`, `analyze` and its stream go through;
//!   `stream` — `analyze` as Server-Sent Events; `review` — whole games;
//!   `keys` — API keys and their rate limits.
//! - `problem` — errors as problem+json; `body` — reading bodies;
//!   `telemetry` — metrics and the failure log; `ops` — health, metrics and
//!   the document; `playground` — the page; `server` — serving and shutdown.

mod body;
mod cache;
mod cached;
mod contract;
mod handlers;
pub mod keys;
mod ops;
mod parts;
mod playground;
mod problem;
pub mod requests;
mod review;
mod server;
mod stream;
mod telemetry;

pub use contract::openapi_yaml;
pub use problem::{ApiError, Problem};
pub use server::{serve, serve_with_admin, shutdown_signal};
pub use telemetry::{BUILD_COMMIT, BUILD_VERSION};

use crate::compute::ComputePool;
use crate::config::{CorsOrigin, ServeConfig};
use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{header, HeaderName, HeaderValue, Method};
use axum::routing::{get, post, MethodRouter};
use axum::Router;
use cache::ReplyCache;
use keys::ApiKeys;
use metrics_exporter_prometheus::PrometheusHandle;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tower::ServiceBuilder;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::TraceLayer;

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    /// The settings the server runs with.
    pub config: Arc<ServeConfig>,
    /// Where every search runs (`bot-move`, `analyze`, a review's positions).
    pub pool: Arc<ComputePool>,
    /// The rules lane: where `new`, `legal-moves`, `play`, `replay` and a
    /// review's replay run, so that they never wait behind a search.
    pub rules: Arc<ComputePool>,
    /// The urgent lane: where a clocked move too short to wait behind
    /// other searches runs (`--urgent-move-ms`).
    pub urgent: Arc<ComputePool>,
    /// Raised when shutdown begins: `/readyz` then answers 503.
    pub draining: Arc<AtomicBool>,
    /// Renders `/metrics`.
    pub metrics: PrometheusHandle,
    /// Deterministic answers already given.
    pub cache: ReplyCache,
    /// The API keys every `/v1` request needs, if the server has any.
    pub keys: Option<Arc<ApiKeys>>,
}

impl AppState {
    /// The state for `config`, with a fresh compute pool.
    pub fn new(config: ServeConfig) -> Self {
        // The recorder first: the pool registers its gauges when it is made.
        let metrics = telemetry::prometheus();
        let pool = ComputePool::new(config.worker_count(), config.queue);
        let rules = ComputePool::lane("rules", config.rules_workers, config.rules_queue);
        let urgent =
            ComputePool::lane("urgent", config.urgent_workers, crate::config::URGENT_QUEUE);
        let cache = ReplyCache::new(config.cache_mb);
        AppState {
            cache,
            keys: None,
            config: Arc::new(config),
            pool: Arc::new(pool),
            rules: Arc::new(rules),
            urgent: Arc::new(urgent),
            draining: Arc::new(AtomicBool::new(false)),
            metrics,
        }
    }

    /// The same state, requiring one of `keys` on every `/v1` request.
    pub fn with_keys(mut self, keys: ApiKeys) -> Self {
        self.keys = Some(Arc::new(keys));
        self
    }
}

/// Every game's own paths (`/v1/games/reversi/bot-move`), made once: the
/// generic handlers serve them, reading the game from the path.
fn game_paths() -> &'static [(String, &'static str)] {
    static PATHS: OnceLock<Vec<(String, &'static str)>> = OnceLock::new();
    PATHS.get_or_init(|| {
        crate::games::REGISTRY
            .iter()
            .flat_map(|game| {
                contract::GAME_OPERATIONS.iter().map(move |operation| {
                    (
                        format!("/v1/games/{}/{}", game.info().id, operation.suffix),
                        operation.suffix,
                    )
                })
            })
            .collect()
    })
}

/// The handler of a game operation, by its path suffix.
fn game_handler(suffix: &str) -> MethodRouter<AppState> {
    match suffix {
        "new" => post(handlers::new_game),
        "legal-moves" => post(handlers::legal_moves),
        "play" => post(handlers::play),
        "bot-move" => post(handlers::bot_move),
        "analyze" => post(handlers::analyze),
        "replay" => post(handlers::replay),
        "review" => post(review::review),
        other => unreachable!("no handler for the game operation {other}"),
    }
}

/// Every route: path, method and handler. The router is built from this
/// table, and the OpenAPI test checks the document against it.
fn route_table() -> Vec<(&'static str, Method, MethodRouter<AppState>)> {
    let mut table = vec![
        ("/v1/games", Method::GET, get(handlers::list_games)),
        ("/v1/games/{game}/rules", Method::GET, get(handlers::rules)),
        (
            "/v1/games/{game}/placement",
            Method::POST,
            post(handlers::placement),
        ),
        ("/healthz", Method::GET, get(ops::healthz)),
        ("/readyz", Method::GET, get(ops::readyz)),
        ("/metrics", Method::GET, get(ops::metrics)),
        ("/openapi.yaml", Method::GET, get(ops::openapi)),
    ];
    for operation in contract::GAME_OPERATIONS {
        let generic: &'static str = generic_path(operation.suffix);
        table.push((generic, Method::POST, game_handler(operation.suffix)));
    }
    for (path, suffix) in game_paths() {
        table.push((path.as_str(), Method::POST, game_handler(suffix)));
    }
    table.extend(playground::routes());
    table
}

/// The generic path of a game operation (`/v1/games/{game}/bot-move`).
fn generic_path(suffix: &str) -> &'static str {
    static PATHS: OnceLock<Vec<String>> = OnceLock::new();
    let paths = PATHS.get_or_init(|| {
        contract::GAME_OPERATIONS
            .iter()
            .map(|operation| format!("/v1/games/{{game}}/{}", operation.suffix))
            .collect()
    });
    paths
        .iter()
        .find(|path| path.ends_with(&format!("/{suffix}")))
        .map(String::as_str)
        .unwrap_or("/v1/games/{game}")
}

/// The (method, path) of every route the router serves.
pub fn routes() -> Vec<(Method, &'static str)> {
    route_table()
        .into_iter()
        .map(|(path, method, _)| (method, path))
        .collect()
}

/// The operator's routes: health, readiness and metrics, which
/// `--admin-bind` moves to a listener of their own.
const ADMIN_PATHS: [&str; 3] = ["/healthz", "/readyz", "/metrics"];

/// The whole application: routes, middleware and state. With an admin
/// listener configured, health, readiness and metrics are left to
/// [`admin_router`] and answer 404 here.
pub fn router(state: AppState) -> Router {
    let separate_admin = state.config.admin_bind.is_some();
    let routes = route_table()
        .into_iter()
        .filter(|(path, _, _)| !(separate_admin && ADMIN_PATHS.contains(path)))
        .fold(Router::new(), |router, (path, _, handler)| {
            router.route(path, handler)
        });
    with_middleware(routes, state)
}

/// The admin listener's application: health, readiness and metrics only.
pub fn admin_router(state: AppState) -> Router {
    let routes = route_table()
        .into_iter()
        .filter(|(path, _, _)| ADMIN_PATHS.contains(path))
        .fold(Router::new(), |router, (path, _, handler)| {
            router.route(path, handler)
        });
    with_middleware(routes, state)
}

/// Wraps `routes` in the service's middleware (fallbacks, metrics, body limit,
/// request ids, tracing, CORS, panic catching) and gives them their state.
/// Public so that tests can check the middleware on routes of their own.
pub fn with_middleware(routes: Router<AppState>, state: AppState) -> Router {
    let request_id = HeaderName::from_static("x-request-id");
    let body_limit = state.config.max_body_bytes;
    let cors = cors_layer(&state.config.cors_origins);
    routes
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            keys::require_key,
        ))
        .layer(axum::middleware::from_fn(telemetry::track))
        .layer(DefaultBodyLimit::max(body_limit))
        .layer(
            ServiceBuilder::new()
                .layer(axum::middleware::from_fn(bounded_request_id))
                .layer(SetRequestIdLayer::new(request_id.clone(), MakeRequestUuid))
                .layer(
                    // Failures are logged where they are made (500s as errors);
                    // a 503 under load is expected and not an error.
                    TraceLayer::new_for_http()
                        .make_span_with(request_span)
                        .on_failure(()),
                )
                .layer(PropagateRequestIdLayer::new(request_id))
                // Outside the routes, so that a preflight is answered here and
                // never reaches a handler or the compute pool; inside the
                // panic catcher, so that even a 500 can be read by the page.
                .option_layer(cors)
                .layer(CatchPanicLayer::custom(panic_response)),
        )
        .with_state(state)
}

/// The longest `x-request-id` kept, in bytes; a longer one (or one with
/// characters a log line should not carry) is replaced by a fresh id.
pub const MAX_REQUEST_ID_BYTES: usize = 128;

/// Replaces an `x-request-id` longer than [`MAX_REQUEST_ID_BYTES`] or with
/// anything but visible ASCII by a fresh one, and says so in a `Warning`,
/// so that no client makes the server echo or log a header of its choosing.
async fn bounded_request_id(
    mut request: Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let unfit = request.headers().get_all("x-request-id").iter().any(|id| {
        id.len() > MAX_REQUEST_ID_BYTES || !id.as_bytes().iter().all(u8::is_ascii_graphic)
    }) || request.headers().get_all("x-request-id").iter().count() > 1;
    if !unfit {
        return next.run(request).await;
    }
    let fresh = uuid::Uuid::new_v4().to_string();
    request.headers_mut().remove("x-request-id");
    if let Ok(value) = HeaderValue::from_str(&fresh) {
        request.headers_mut().insert("x-request-id", value);
    }
    let mut response = next.run(request).await;
    let warning = format!(
        "299 gamebot \"x-request-id was replaced by {fresh}: give one of at most {MAX_REQUEST_ID_BYTES} visible ASCII characters\""
    );
    if let Ok(value) = HeaderValue::from_str(&warning) {
        response.headers_mut().append(header::WARNING, value);
    }
    response
}

/// How long a browser may reuse a preflight's answer before asking again.
const CORS_MAX_AGE: Duration = Duration::from_secs(3600);

/// The CORS layer that lets pages from `origins` call the API, or none when
/// no origin is configured (then no response carries a CORS header). The
/// pages may send JSON with a request id (and, later, credentials) and read
/// the headers the API answers with beside the body.
fn cors_layer(origins: &[CorsOrigin]) -> Option<CorsLayer> {
    if origins.is_empty() {
        return None;
    }
    // Every configured origin was checked to be a plain ASCII header value
    // when the configuration was read.
    let origins = origins
        .iter()
        .filter_map(|origin| HeaderValue::from_str(origin.as_str()).ok());
    let named = HeaderName::from_static;
    Some(
        CorsLayer::new()
            .allow_origin(AllowOrigin::list(origins))
            .allow_methods([Method::GET, Method::POST, Method::OPTIONS])
            .allow_headers([
                header::CONTENT_TYPE,
                header::ACCEPT,
                named("x-request-id"),
                header::AUTHORIZATION,
            ])
            .expose_headers([
                named("x-request-id"),
                header::RETRY_AFTER,
                header::WARNING,
                named("gamebot-move"),
                named("server-timing"),
            ])
            .max_age(CORS_MAX_AGE),
    )
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
    // Below the failure log: a panic is logged here, once.
    tracing::error!(panic = %message, "request failed: a handler panicked");
    ApiError::Compute(crate::compute::ComputeError::Panicked(message)).into_response()
}

async fn not_found(method: Method, uri: axum::http::Uri) -> ApiError {
    ApiError::NotFound(format!("{method} {}", uri.path()))
}

async fn method_not_allowed(method: Method) -> ApiError {
    ApiError::MethodNotAllowed(method.to_string())
}
