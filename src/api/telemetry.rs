//! Request metrics: counts and latency histograms by route, game and status.

use super::Problem;
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
        "Bot search time, by game and level"
    );
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
    if response.status().is_server_error() && problem.code != "overloaded" {
        tracing::error!(code = problem.code, detail = %problem.detail, "request failed");
    } else {
        tracing::debug!(code = problem.code, detail = %problem.detail, "request refused");
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
    let response = next.run(request).await;
    log_failure(&response);
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
