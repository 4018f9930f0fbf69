//! A small load generator for the reliability scripts in `bench/`: keeps N
//! requests in flight against one or more targets for a bounded time and
//! count, and reports answers by status with latency percentiles, whether
//! every 503 carried `Retry-After`, and connection errors.
//!
//! ```text
//! cargo run --release --example loadgen -- \
//!     --target http://127.0.0.1:8080/v1/games/reversi/bot-move@body.json \
//!     --concurrency 8 --seconds 20 [--rate R] [--max-requests N] [--abandon-after-ms T] [--json]
//! ```
//!
//! `--rate` sends R requests a second on schedule (an open loop, as many
//! independent clients would) instead of as fast as answers come.
//! `--abandon-after-ms` drops each request after T ms (the client goes away
//! mid-search). Only loopback targets are accepted.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Default)]
struct Tally {
    latencies_ms: BTreeMap<String, Vec<f64>>,
    missing_retry_after: u64,
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
            "--json" => options.json = true,
            other => return Err(format!("unknown flag {other}")),
        }
    }
    if options.targets.is_empty() {
        return Err("at least one --target URL@BODYFILE".into());
    }
    Ok(options)
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
    started: Instant,
    until: Instant,
) {
    while Instant::now() < until {
        let n = sent.fetch_add(1, Ordering::Relaxed);
        if n >= options.max_requests {
            break;
        }
        if let Some(rate) = options.rate {
            // Open loop: request n goes out at its scheduled time, answered or not.
            let due = started + Duration::from_secs_f64(n as f64 / rate);
            if due >= until {
                break;
            }
            tokio::time::sleep_until(due.into()).await;
        }
        let target = &options.targets[n as usize % options.targets.len()];
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
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(options.concurrency)
        .build()
        .unwrap();
    let workers: Vec<_> = (0..options.concurrency)
        .map(|_| {
            tokio::spawn(worker(
                client.clone(),
                options.clone(),
                sent.clone(),
                tally.clone(),
                started,
                until,
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
    if options.json {
        let line = serde_json::json!({
            "requests": total,
            "seconds": wall,
            "by_status": summary,
            "missing_retry_after": tally.missing_retry_after,
        });
        println!("{line}");
    }
}
