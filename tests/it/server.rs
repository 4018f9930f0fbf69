//! The service over a real socket: cancellation when a client goes away,
//! overload under a burst, and graceful shutdown of the real binary.

use gamebot::api::{serve, AppState};
use gamebot::config::ServeConfig;
use serde_json::{json, Value};
use std::net::SocketAddr;

use std::time::{Duration, Instant};
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};

/// Reversi's start. Requests here that must keep a worker busy ask for
/// `strong:book=0`: from its opening book `strong` answers without a search.
fn start() -> Value {
    json!({"board": ["........", "........", "........", "...WB...", "...BW...", "........", "........", "........"], "to_move": "black"})
}

/// Starts a server on a free loopback port; returns its address, its state and
/// the trigger of its shutdown.
async fn spawn_server(
    config: ServeConfig,
) -> (
    SocketAddr,
    AppState,
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<()>,
) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let state = AppState::new(config);
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(serve(listener, state.clone(), async {
        let _ = stopped.await;
    }));
    (addr, state, stop, server)
}

fn raw_post(path: &str, body: &Value) -> String {
    let body = body.to_string();
    format!("POST {path} HTTP/1.1\r\nhost: test\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}", body.len())
}

async fn wait_until(what: &str, limit: Duration, mut done: impl FnMut() -> bool) -> Duration {
    let started = Instant::now();
    while !done() {
        assert!(
            started.elapsed() < limit,
            "{what} did not happen within {limit:?}"
        );
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    started.elapsed()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_goes_away_frees_its_worker_at_once() {
    let (addr, state, _stop, _server) = spawn_server(ServeConfig {
        workers: Some(1),
        queue: 0,
        ..crate::common::config()
    })
    .await;
    let mut client = TcpStream::connect(addr).await.unwrap();
    let request = raw_post(
        "/v1/games/reversi/bot-move",
        &json!({"state": start(), "level": "strong:book=0", "time_ms": 20000}),
    );
    client.write_all(request.as_bytes()).await.unwrap();
    wait_until("the search starting", Duration::from_secs(5), || {
        state.pool.running() == 1
    })
    .await;
    drop(client);
    let freed = wait_until("the worker being freed", Duration::from_secs(2), || {
        state.pool.admitted() == 0
    })
    .await;
    eprintln!("worker freed {freed:?} after the client disconnected");
    let http = reqwest::Client::new();
    let asked = Instant::now();
    let reply = http
        .post(format!("http://{addr}/v1/games/reversi/legal-moves"))
        .json(&json!({"state": start()}))
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), 200);
    assert!(asked.elapsed() < Duration::from_secs(2));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_beyond_capacity_gets_fast_503s_and_never_a_500() {
    let (addr, _state, _stop, _server) = spawn_server(ServeConfig {
        workers: Some(1),
        queue: 1,
        ..crate::common::config()
    })
    .await;
    let http = reqwest::Client::new();
    let requests = (0..12).map(|i| {
        let http = http.clone();
        async move {
            let asked = Instant::now();
            let reply = http
                .post(format!("http://{addr}/v1/games/reversi/bot-move"))
                .json(
                    &json!({"state": start(), "level": "strong:book=0", "time_ms": 300, "seed": i}),
                )
                .timeout(Duration::from_secs(10))
                .send()
                .await
                .expect("every request is answered");
            let retry_after = reply
                .headers()
                .get("retry-after")
                .map(|v| v.to_str().unwrap().to_string());
            (reply.status().as_u16(), retry_after, asked.elapsed())
        }
    });
    let results = futures_join_all(requests).await;
    let ok = results.iter().filter(|r| r.0 == 200).count();
    let refused: Vec<_> = results.iter().filter(|r| r.0 == 503).collect();
    assert_eq!(
        ok + refused.len(),
        results.len(),
        "only 200 and 503: {results:?}"
    );
    assert!(ok >= 1 && !refused.is_empty(), "{results:?}");
    for (_, retry_after, elapsed) in &refused {
        assert_eq!(retry_after.as_deref(), Some("1"));
        assert!(
            *elapsed < Duration::from_millis(250),
            "503s come at once: {elapsed:?}"
        );
    }
}

async fn futures_join_all<F: std::future::Future + Send + 'static>(
    futures: impl Iterator<Item = F>,
) -> Vec<F::Output>
where
    F::Output: Send + 'static,
{
    let handles: Vec<_> = futures.map(tokio::spawn).collect();
    let mut out = Vec::new();
    for handle in handles {
        out.push(handle.await.unwrap());
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_finishes_requests_in_flight_and_refuses_new_ones() {
    let (addr, state, stop, server) = spawn_server(crate::common::config()).await;
    let http = reqwest::Client::new();
    let in_flight = tokio::spawn({
        let http = http.clone();
        async move {
            http.post(format!("http://{addr}/v1/games/reversi/bot-move"))
                .json(&json!({"state": start(), "level": "strong:book=0", "time_ms": 500}))
                .send()
                .await
                .map(|r| r.status().as_u16())
        }
    });
    wait_until("the search starting", Duration::from_secs(5), || {
        state.pool.running() == 1
    })
    .await;
    stop.send(()).unwrap();
    assert_eq!(
        in_flight.await.unwrap().unwrap(),
        200,
        "the request in flight completes"
    );
    tokio::time::timeout(Duration::from_secs(5), server)
        .await
        .expect("serve returns")
        .unwrap();
    assert!(state.draining.load(std::sync::atomic::Ordering::Relaxed));
    assert!(
        TcpStream::connect(addr).await.is_err(),
        "no longer accepting"
    );
}

#[test]
fn the_binary_serves_and_exits_0_on_sigterm_after_finishing_its_requests() {
    let port = {
        let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        probe.local_addr().unwrap().port()
    };
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_gamebot"))
        .env("PORT", port.to_string())
        .env("GAMEBOT_LOG_FORMAT", "json")
        .env_remove("GAMEBOT_BIND")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let addr = format!("127.0.0.1:{port}");
    let started = Instant::now();
    let mut stream = loop {
        match std::net::TcpStream::connect(&addr) {
            Ok(stream) => break stream,
            Err(_) if started.elapsed() < Duration::from_secs(10) => {
                std::thread::sleep(Duration::from_millis(20))
            }
            Err(e) => panic!("the server did not start: {e}"),
        }
    };
    use std::io::{Read, Write};
    let request = raw_post(
        "/v1/games/reversi/bot-move",
        &json!({"state": start(), "level": "strong:book=0", "time_ms": 700}),
    );
    stream.write_all(request.as_bytes()).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let status = child.wait().unwrap();
    assert!(status.success(), "exit status {status:?}");
    let mut logs = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut logs)
        .unwrap();
    let search_line = logs
        .lines()
        .find(|line| line.contains("search finished"))
        .unwrap_or_else(|| panic!("a search log line: {logs}"));
    let search: Value = serde_json::from_str(search_line).expect("JSON log lines");
    assert_eq!(search["game"], "reversi");
    assert_eq!(search["level"], "strong:book=0");
    assert!(search["elapsed_ms"].as_f64().is_some(), "{search}");
    assert_eq!(search["outcome"], "ongoing");
    assert!(
        search["span"]["request_id"]
            .as_str()
            .is_some_and(|id| !id.is_empty()),
        "JSON logs carry the request id: {search}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_binary_lets_the_configured_origins_call_it_from_a_browser() {
    let port = {
        let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        probe.local_addr().unwrap().port()
    };
    let addr = format!("127.0.0.1:{port}");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_gamebot"))
        .args(["serve", "--bind", &addr, "--workers", "1"])
        .env(
            "GAMEBOT_CORS_ORIGINS",
            "https://play.example.com,http://localhost:5173",
        )
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let http = reqwest::Client::new();
    let url = format!("http://{addr}/v1/games/reversi/bot-move");
    let preflight = |origin: &'static str| {
        http.request(reqwest::Method::OPTIONS, &url)
            .header("origin", origin)
            .header("access-control-request-method", "POST")
            .header("access-control-request-headers", "content-type")
            .send()
    };
    let started = Instant::now();
    let allowed = loop {
        match preflight("http://localhost:5173").await {
            Ok(reply) => break reply,
            Err(_) if started.elapsed() < Duration::from_secs(10) => {
                tokio::time::sleep(Duration::from_millis(20)).await
            }
            Err(e) => panic!("the server did not start: {e}"),
        }
    };
    let allow_origin = |reply: &reqwest::Response| {
        reply
            .headers()
            .get("access-control-allow-origin")
            .map(|v| v.to_str().unwrap().to_string())
    };
    assert!(allowed.status().is_success(), "{}", allowed.status());
    assert_eq!(
        allow_origin(&allowed).as_deref(),
        Some("http://localhost:5173")
    );
    let other = preflight("https://elsewhere.example").await.unwrap();
    assert_eq!(allow_origin(&other), None);
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    assert!(child.wait().unwrap().success());
}
