//! A small load generator for the reliability scripts in `bench/`: keeps N
//! requests in flight against one or more targets for a bounded time and
//! count, and reports answers by status with latency percentiles, whether
//! every 503 carried `Retry-After`, and connection errors.
//!
//! ```text
//! cargo run --release -p gamebot-benches --example loadgen -- \
//!     --target http://127.0.0.1:8080/v1/games/reversi/bot-move@body.json \
//!     --concurrency 8 --seconds 20 [--rate R] [--max-requests N] [--abandon-after-ms T] \
//!     [--interval-s S] [--json]
//! ```
//!
//! Several `--target`s are sent in turn (a mixed load: repeat one to weigh
//! it). `--interval-s` adds the answers, failures and p99 of each S-second
//! slice of the run, so that a soak can compare its last minute with its
//! first. A request *failed* when it got a 5xx or no answer (refused, reset,
//! a broken body); abandoned requests (`--abandon-after-ms`) are not failures.
//!
//! `--rate` sends R requests a second on schedule (an open loop, as many
//! independent clients would) instead of as fast as answers come.
//! `--abandon-after-ms` drops each request after T ms (the client goes away
//! mid-search). SIGINT or SIGTERM ends the run early: nothing more is sent,
//! the requests in flight finish and the report is printed (a script that
//! cannot know in advance how long its load must last stops it so). Only
//! loopback targets are accepted.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Default)]
struct Tally {
    latencies_ms: BTreeMap<String, Vec<f64>>,
    missing_retry_after: u64,
    /// Answers by status, per target (by its index in `--target` order).
    by_target: BTreeMap<usize, BTreeMap<String, u64>>,
    /// (seconds since the start when answered, latency in ms, failed), kept
    /// only with `--interval-s`.
    events: Vec<(f64, f64, bool)>,
}

/// Whether an answer counts as a failed request: a 5xx, or no answer at all.
fn is_failure(key: &str) -> bool {
    matches!(key, "refused" | "connection-error" | "body-error") || key.starts_with('5')
}

struct Target {
    url: String,
    body: String,
}

struct Options {
    targets: Vec<Target>,
    concurrency: usize,
    seconds: f64,
    max_requests: u64,
    abandon_after: Option<Duration>,
    /// Open-loop rate in requests per second (`None`: each worker sends as fast as answered).
    rate: Option<f64>,
    /// Report each slice of this many seconds as well as the whole run.
    interval: Option<f64>,
    json: bool,
}

fn parse_args() -> Result<Options, String> {
    let mut options = Options {
        targets: Vec::new(),
        concurrency: 8,
        seconds: 10.0,
        max_requests: u64::MAX,
        abandon_after: None,
        rate: None,
        interval: None,
        json: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--target" => {
                let spec = value()?;
                let (url, file) = spec.split_once('@').ok_or("--target URL@BODYFILE")?;
                let host = url
                    .trim_start_matches("http://")
                    .split(['/', ':'])
                    .next()
                    .unwrap_or("");
                if !(host == "localhost" || host.starts_with("127.") || host == "[") {
                    return Err(format!("only loopback targets are allowed, not {host}"));
                }
                let body = if file.is_empty() {
                    String::new()
                } else {
                    std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?
                };
                options.targets.push(Target {
                    url: url.to_string(),
                    body,
                });
            }
            "--concurrency" => {
                options.concurrency = value()?.parse().map_err(|e| format!("{e}"))?
            }
            "--seconds" => options.seconds = value()?.parse().map_err(|e| format!("{e}"))?,
            "--max-requests" => {
                options.max_requests = value()?.parse().map_err(|e| format!("{e}"))?
            }
            "--abandon-after-ms" => {
                options.abandon_after = Some(Duration::from_millis(
                    value()?.parse().map_err(|e| format!("{e}"))?,
                ))
            }
            "--rate" => options.rate = Some(value()?.parse().map_err(|e| format!("{e}"))?),
            "--interval-s" => {
                options.interval = Some(value()?.parse().map_err(|e| format!("{e}"))?)
            }
            "--json" => options.json = true,
            other => return Err(format!("unknown flag {other}")),
        }
    }
    if options.targets.is_empty() {
        return Err("at least one --target URL@BODYFILE".into());
    }
    Ok(options)
}

/// Splits the answers into slices of `width` seconds by when they came:
/// answers, failures and latency percentiles of each (the last slice also
/// takes the answers after the last whole width).
fn intervals(events: &mut [(f64, f64, bool)], width: f64, wall: f64) -> Vec<serde_json::Value> {
    events.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut slices = Vec::new();
    let count = ((wall / width).floor() as usize).max(1);
    let mut from = 0.0;
    let mut rest = &events[..];
    for index in 0..count {
        // The last slice takes the few answers after the last whole width.
        let to = if index + 1 == count {
            f64::INFINITY
        } else {
            from + width
        };
        let end = rest.partition_point(|event| event.0 < to);
        let (slice, after) = rest.split_at(end);
        rest = after;
        let mut latencies: Vec<f64> = slice.iter().map(|event| event.1).collect();
        latencies.sort_by(f64::total_cmp);
        slices.push(serde_json::json!({
            "from_s": from,
            "to_s": to.min(wall),
            "requests": slice.len(),
            "failed": slice.iter().filter(|event| event.2).count(),
            "p50_ms": percentile(&latencies, 50.0),
            "p99_ms": percentile(&latencies, 99.0),
        }));
        from = to;
    }
    slices
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
    sorted[rank.min(sorted.len() - 1)]
}

async fn worker(
    client: reqwest::Client,
    options: Arc<Options>,
    sent: Arc<AtomicU64>,
    tally: Arc<Mutex<Tally>>,
    run_started: Instant,
    until: Instant,
    stop: Arc<AtomicBool>,
) {
    while Instant::now() < until && !stop.load(Ordering::Relaxed) {
        let n = sent.fetch_add(1, Ordering::Relaxed);
        if n >= options.max_requests {
            break;
        }
        if let Some(rate) = options.rate {
            // Open loop: request n goes out at its scheduled time, answered or not.
            let due = run_started + Duration::from_secs_f64(n as f64 / rate);
            if due >= until {
                break;
            }
            tokio::time::sleep_until(due.into()).await;
        }
        let index = n as usize % options.targets.len();
        let target = &options.targets[index];
        let mut request = if target.body.is_empty() {
            client.get(&target.url)
        } else {
            client
                .post(&target.url)
                .header("content-type", "application/json")
                .body(target.body.clone())
        };
        if let Some(limit) = options.abandon_after {
            request = request.timeout(limit);
        }
        let started = Instant::now();
        let result = request.send().await;
        let (key, missing_retry) = match result {
            Ok(response) => {
                let status = response.status().as_u16();
                let missing = status == 503 && response.headers().get("retry-after").is_none();
                let ok = response.bytes().await.is_ok();
                (
                    if ok {
                        status.to_string()
                    } else {
                        "body-error".into()
                    },
                    missing,
                )
            }
            Err(e) if e.is_timeout() => ("abandoned".into(), false),
            Err(e) if e.is_connect() => ("refused".into(), false),
            Err(_) => ("connection-error".into(), false),
        };
        let elapsed = started.elapsed().as_secs_f64() * 1000.0;
        let mut tally = tally.lock().unwrap();
        if options.interval.is_some() {
            let at = run_started.elapsed().as_secs_f64();
            tally.events.push((at, elapsed, is_failure(&key)));
        }
        *tally
            .by_target
            .entry(index)
            .or_default()
            .entry(key.clone())
            .or_default() += 1;
        tally.latencies_ms.entry(key).or_default().push(elapsed);
        tally.missing_retry_after += u64::from(missing_retry);
    }
}

#[tokio::main]
async fn main() {
    let options = match parse_args() {
        Ok(options) => Arc::new(options),
        Err(message) => {
            eprintln!("loadgen: {message}");
            std::process::exit(2);
        }
    };
    let tally = Arc::new(Mutex::new(Tally::default()));
    let sent = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let until = started + Duration::from_secs_f64(options.seconds);
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        tokio::spawn(async move {
            let mut terminate =
                tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
                    .expect("SIGTERM handler");
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = terminate.recv() => {}
            }
            stop.store(true, Ordering::Relaxed);
        });
    }
    let workers: Vec<_> = (0..options.concurrency)
        .map(|_| {
            // A client of its own per worker, keeping one connection: the
            // load holds `concurrency` connections however its latency
            // varies, as that many independent clients would (a shared pool
            // opens more whenever answers slow down, and a soak would see
            // the server's descriptors grow for it).
            let client = reqwest::Client::builder()
                .pool_max_idle_per_host(1)
                .build()
                .unwrap();
            tokio::spawn(worker(
                client,
                options.clone(),
                sent.clone(),
                tally.clone(),
                started,
                until,
                stop.clone(),
            ))
        })
        .collect();
    for worker in workers {
        let _ = worker.await;
    }
    let wall = started.elapsed().as_secs_f64();
    let mut tally = tally.lock().unwrap();
    let mut summary = serde_json::Map::new();
    let total: usize = tally.latencies_ms.values().map(Vec::len).sum();
    println!(
        "{total} requests in {wall:.1} s ({:.0}/s), {} in flight",
        total as f64 / wall,
        options.concurrency
    );
    for (status, latencies) in tally.latencies_ms.iter_mut() {
        latencies.sort_by(f64::total_cmp);
        let (p50, p90, p99, max) = (
            percentile(latencies, 50.0),
            percentile(latencies, 90.0),
            percentile(latencies, 99.0),
            latencies.last().copied().unwrap_or(0.0),
        );
        println!(
            "  {status:>16}: {:>7}   p50 {p50:>8.1} ms   p90 {p90:>8.1} ms   p99 {p99:>8.1} ms   max {max:>8.1} ms",
            latencies.len()
        );
        summary.insert(
            status.clone(),
            serde_json::json!({"count": latencies.len(), "p50_ms": p50, "p90_ms": p90, "p99_ms": p99, "max_ms": max}),
        );
    }
    println!("  503 without Retry-After: {}", tally.missing_retry_after);
    let failed: usize = tally
        .latencies_ms
        .iter()
        .filter(|(key, _)| is_failure(key))
        .map(|(_, latencies)| latencies.len())
        .sum();
    println!("  failed (5xx or no answer): {failed}");
    let mut by_target = serde_json::Map::new();
    for (index, counts) in &tally.by_target {
        let target = &options.targets[*index];
        let path = target.url.splitn(4, '/').nth(3).unwrap_or("");
        let entry = by_target
            .entry(format!("/{path}"))
            .or_insert_with(|| serde_json::json!({}));
        for (status, count) in counts {
            let slot = &mut entry[status.as_str()];
            *slot = serde_json::json!(slot.as_u64().unwrap_or(0) + count);
        }
    }
    let intervals = options
        .interval
        .map(|width| intervals(&mut tally.events, width, wall))
        .unwrap_or_default();
    for slice in &intervals {
        println!(
            "  {:>5.0}-{:<5.0} s: {:>7} answers, {} failed, p99 {:.1} ms",
            slice["from_s"].as_f64().unwrap_or(0.0),
            slice["to_s"].as_f64().unwrap_or(0.0),
            slice["requests"],
            slice["failed"],
            slice["p99_ms"].as_f64().unwrap_or(0.0),
        );
    }
    if options.json {
        let line = serde_json::json!({
            "requests": total,
            "seconds": wall,
            "failed": failed,
            "by_status": summary,
            "by_target": by_target,
            "intervals": intervals,
            "missing_retry_after": tally.missing_retry_after,
        });
        println!("{line}");
    }
}
