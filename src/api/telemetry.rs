//! Request metrics: counts and latency histograms by route, game and status.

use super::Problem;
use crate::game::ErrorCode;
use crate::games;
use axum::extract::{MatchedPath, Request};
use axum::middleware::Next;
use axum::response::Response;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How often recorded histogram samples are folded into their buckets.
const UPKEEP_INTERVAL: Duration = Duration::from_secs(5);

/// The process-wide Prometheus recorder, installed on first use.
pub fn prometheus() -> PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            let seconds = [
                0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
                10.0, 30.0,
            ];
            let recorder = PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), &seconds)
                .expect("bucket list is not empty")
                .build_recorder();
            let handle = recorder.handle();
            // `build_recorder` leaves upkeep to its caller. Without it every
            // histogram sample (a latency per request, a time per search) is
            // kept until the next scrape of /metrics renders it: a server
            // that nobody scrapes grows by every request it answers. Upkeep
            // folds the samples into the fixed buckets.
            let upkeep = handle.clone();
            let _ = std::thread::Builder::new()
                .name("metrics-upkeep".into())
                .spawn(move || loop {
                    std::thread::sleep(UPKEEP_INTERVAL);
                    upkeep.run_upkeep();
                });
            // Another recorder may already be installed (a test harness): then
            // this handle still renders what it records through its own layer.
            let _ = metrics::set_global_recorder(recorder);
            describe();
            build_info();
            handle
        })
        .clone()
}

fn describe() {
    metrics::describe_counter!(
        "gamebot_http_requests_total",
        "HTTP requests answered, by route, game and status"
    );
    metrics::describe_histogram!(
        "gamebot_http_request_duration_seconds",
        "HTTP request latency, by route, game and status"
    );
    metrics::describe_gauge!(
        "gamebot_compute_queue_depth",
        "Jobs admitted and waiting for a compute worker"
    );
    metrics::describe_gauge!("gamebot_compute_running", "Jobs running on compute workers");
    metrics::describe_counter!(
        "gamebot_compute_rejected_total",
        "Jobs refused because the compute pool was full (503)"
    );
    metrics::describe_counter!(
        "gamebot_search_nodes_total",
        "Positions searched by bots, by game and level"
    );
    metrics::describe_histogram!(
        "gamebot_search_seconds",
        "Bot search time, by game and level (a level with options is `custom`)"
    );
    metrics::describe_counter!(
        "gamebot_compute_jobs_total",
        "Jobs offered to a compute lane (search or rules), by client class (an API key's name, or anonymous) and result (admitted, refused: the lane was full, limited: the key's limit of searches at once)"
    );
    metrics::describe_histogram!(
        "gamebot_compute_wait_seconds",
        "Time jobs waited in a lane's queue before a worker took them"
    );
    metrics::describe_counter!(
        "gamebot_connections_total",
        "Connections accepted, by listener (api, admin) and result (served, refused: over --max-connections)"
    );
    metrics::describe_counter!(
        "gamebot_connections_closed_total",
        "Connections the server closed itself, by reason (header_timeout, idle_timeout, write_timeout, shutdown)"
    );
    metrics::describe_gauge!("gamebot_connections_open", "Connections open, by listener");
    metrics::describe_counter!(
        "gamebot_cache_requests_total",
        "Cacheable requests (seeded, node or depth capped), by game, operation and result (hit, miss)"
    );
    metrics::describe_gauge!(
        "gamebot_cache_bytes",
        "Bytes held by the position cache, as of the last scrape"
    );
    metrics::describe_counter!(
        "gamebot_api_key_requests_total",
        "Requests checked against the API keys, by key name and result (allowed, missing, unknown, limited)"
    );
    metrics::describe_gauge!(
        "gamebot_build_info",
        "Always 1; its labels name the running build's version and commit"
    );
}

/// The version this binary was built as (`Cargo.toml`'s).
pub const BUILD_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The commit this binary was built from, as `build.rs` found it
/// (`GAMEBOT_COMMIT`, or git's `HEAD`), or `unknown`.
pub const BUILD_COMMIT: &str = match option_env!("GAMEBOT_COMMIT") {
    Some(commit) => commit,
    None => "unknown",
};

/// Publishes `gamebot_build_info{version, commit} 1`.
fn build_info() {
    metrics::gauge!("gamebot_build_info", "version" => BUILD_VERSION, "commit" => BUILD_COMMIT)
        .set(1.0);
}

/// The game id in a path, if it names a known game (unknown ids are grouped,
/// so that clients cannot create unbounded label sets).
fn game_label(path: &str) -> &'static str {
    let id = path
        .strip_prefix("/v1/games/")
        .and_then(|rest| rest.split('/').next());
    match id {
        None => "",
        Some(id) => games::ids()
            .iter()
            .copied()
            .find(|known| *known == id)
            .unwrap_or("unknown"),
    }
}

/// The label of a level that is not one of the game's own plain ids: a
/// level with options, or a string no game knows.
pub const CUSTOM_LEVEL: &str = "custom";

/// The level label of a search by `level` in game `game`: the level's id
/// when it is one of the game's named or numbered levels as written, else
/// [`CUSTOM_LEVEL`], so that no request can add a label value.
pub fn level_label(game: &str, level: &str) -> &'static str {
    static LEVELS: OnceLock<Vec<(&'static str, Vec<&'static str>)>> = OnceLock::new();
    let levels = LEVELS.get_or_init(|| {
        games::REGISTRY
            .iter()
            .map(|game| {
                let listing = game.listing();
                let mut ids: Vec<&'static str> = listing.levels.iter().map(|l| l.id).collect();
                // Made once for the process's life: the numbered levels' names.
                ids.extend(
                    listing
                        .numbered_levels
                        .iter()
                        .map(|numbered| &*Box::leak(numbered.level.to_string().into_boxed_str())),
                );
                (game.info().id, ids)
            })
            .collect()
    });
    levels
        .iter()
        .find(|(id, _)| *id == game)
        .and_then(|(_, ids)| ids.iter().copied().find(|id| *id == level))
        .unwrap_or(CUSTOM_LEVEL)
}

/// The route label: a game's own route is counted under its generic
/// template (`/v1/games/reversi/play` → `/v1/games/{game}/play`), since
/// the game has a label of its own.
fn generic_route(matched: &str) -> String {
    match matched
        .strip_prefix("/v1/games/")
        .and_then(|rest| rest.split_once('/'))
    {
        Some((id, operation)) if games::find(id).is_some() => {
            format!("/v1/games/{{game}}/{operation}")
        }
        _ => matched.to_string(),
    }
}

/// Logs a failed request, in one place for every route: a bug (500) as an
/// error, a refused request at debug level (a 503 under load is expected).
fn log_failure(response: &Response) {
    let Some(problem) = response.extensions().get::<Problem>() else {
        return;
    };
    // A lane that is full, a request that waited past what it allowed, a
    // server that is stopping: expected refusals, said to the client.
    let refused = matches!(
        problem.code,
        ErrorCode::Overloaded | ErrorCode::QueuedTooLong | ErrorCode::ShuttingDown
    );
    if response.status().is_server_error() && !refused {
        tracing::error!(code = problem.code.as_str(), detail = %problem.detail, "request failed");
    } else {
        tracing::debug!(code = problem.code.as_str(), detail = %problem.detail, "request refused");
    }
}

/// Middleware that counts, times and logs every request.
pub async fn track(request: Request, next: Next) -> Response {
    let started = Instant::now();
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or("unmatched".to_string(), |p| generic_route(p.as_str()));
    let game = game_label(request.uri().path());
    let mut response = next.run(request).await;
    log_failure(&response);
    // Every answer says where its time went: a search's own header names
    // its queue and compute; any other answer gets its total.
    if !response.headers().contains_key("server-timing") {
        let total = format!("total;dur={:.3}", started.elapsed().as_secs_f64() * 1000.0);
        if let Ok(value) = axum::http::HeaderValue::from_str(&total) {
            response.headers_mut().insert("server-timing", value);
        }
    }
    let labels = [
        ("route", route),
        ("game", game.to_string()),
        ("status", response.status().as_u16().to_string()),
    ];
    metrics::counter!("gamebot_http_requests_total", &labels).increment(1);
    metrics::histogram!("gamebot_http_request_duration_seconds", &labels)
        .record(started.elapsed().as_secs_f64());
    response
}
