//! One client cannot take the service over: each test replays what a
//! hostile (or careless) client did to an earlier build and checks that it
//! now costs that client alone — on the router, a real socket, or the real
//! binary where it is about connections and signals.

use crate::common::{get, post_json, spawn_server, wait_until};
use gamebot::api::keys::ApiKeys;
use gamebot::api::{router, AppState};
use gamebot::config::ServeConfig;
use reqwest::StatusCode;
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

fn start() -> Value {
    json!({"board": ["........", "........", "........", "...WB...", "...BW...", "........", "........", "........"], "to_move": "black"})
}

/// A Reversi game of `plies` moves, each the first legal move, as notations.
async fn first_move_game(plies: usize) -> Vec<Value> {
    crate::common::scripted_reversi(&crate::common::app(), plies, crate::common::Pick::First)
        .await
        .0
}

fn raw_post(path: &str, headers: &str, body: &Value) -> String {
    let body = body.to_string();
    format!("POST {path} HTTP/1.1\r\nhost: test\r\ncontent-type: application/json\r\n{headers}content-length: {}\r\n\r\n{body}", body.len())
}

// ---- row 1: one review held every worker ----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_clients_job_waits_for_one_of_a_reviews_positions_not_the_game() {
    let (addr, state) = spawn_server(ServeConfig {
        workers: Some(1),
        queue: 16,
        client_header: Some("x-client".parse().unwrap()),
        ..crate::common::config()
    })
    .await;
    let moves = first_move_game(20).await;
    let http = reqwest::Client::new();
    let mut review = http
        .post(format!("http://{addr}/v1/games/reversi/review"))
        .header("x-client", "x")
        .header("accept", "application/x-ndjson")
        .json(&json!({"moves": moves, "time_ms_per_ply": 250}))
        .send()
        .await
        .unwrap();
    assert_eq!(review.status(), 200);
    wait_until("the review running", Duration::from_secs(5), || {
        state.pool.running() == 1
    })
    .await;
    let theirs = tokio::spawn({
        let http = http.clone();
        async move {
            http.post(format!("http://{addr}/v1/games/reversi/bot-move"))
                .header("x-client", "y")
                .json(&json!({"state": start(), "level": "random", "seed": 1}))
                .send()
                .await
                .unwrap()
                .status()
        }
    });
    let mut lines = 0;
    let mut body = Vec::new();
    while !theirs.is_finished() {
        let chunk = tokio::time::timeout(Duration::from_secs(20), review.chunk())
            .await
            .expect("the review goes on")
            .unwrap();
        let Some(chunk) = chunk else { break };
        body.extend_from_slice(&chunk);
        lines = body.iter().filter(|&&b| b == b'\n').count();
    }
    assert_eq!(theirs.await.unwrap(), 200);
    assert!(
        lines <= 2,
        "the other client's move waited for {lines} of the review's moves"
    );
    while let Some(chunk) = review.chunk().await.unwrap() {
        body.extend_from_slice(&chunk);
    }
    let text = String::from_utf8(body).unwrap();
    assert_eq!(text.lines().count(), 21, "the review finished: {text}");
}

#[tokio::test]
async fn a_review_above_the_whole_work_cap_is_cut_and_says_so() {
    let moves = first_move_game(19).await;
    let app = crate::common::app_with(ServeConfig {
        max_review_ms: 1000,
        ..crate::common::config()
    });
    let reply = post_json(
        &app,
        "/v1/games/reversi/review",
        &json!({"moves": moves, "time_ms_per_ply": 400}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    // The cap is shared by the positions analysed: one before each move.
    let share = 1000 / moves.len() as u64;
    let budget = &reply.json["budget"];
    assert_eq!(budget["time_ms_per_ply"], share, "{budget}");
    assert_eq!(
        budget["clamped"],
        json!([{"field": "time_ms_per_ply", "requested": 400, "used": share}])
    );
    let warning = reply.headers["warning"].to_str().unwrap();
    assert!(warning.contains("time_ms_per_ply=400"), "{warning}");
}

#[tokio::test]
async fn a_review_cut_by_the_per_position_caps_says_so_too() {
    let app = crate::common::app_with(ServeConfig {
        max_time_ms: 200,
        max_nodes: 5000,
        ..crate::common::config()
    });
    let reply = post_json(
        &app,
        "/v1/games/reversi/review",
        &json!({"moves": ["f5", "d6"], "time_ms_per_ply": 300, "max_nodes_per_ply": 9000}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(
        reply.json["budget"]["clamped"],
        json!([
            {"field": "time_ms_per_ply", "requested": 300, "used": 200},
            {"field": "max_nodes_per_ply", "requested": 9000, "used": 5000}
        ])
    );
    assert!(reply.headers.contains_key("warning"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_gives_up_while_queued_frees_its_place_at_once() {
    let (addr, state) = spawn_server(ServeConfig {
        workers: Some(1),
        queue: 1,
        ..crate::common::config()
    })
    .await;
    let search = json!({"state": start(), "level": "strong:book=0", "time_ms": 4000});
    let mut running = TcpStream::connect(addr).await.unwrap();
    running
        .write_all(raw_post("/v1/games/reversi/bot-move", "", &search).as_bytes())
        .await
        .unwrap();
    wait_until("the search running", Duration::from_secs(5), || {
        state.pool.running() == 1
    })
    .await;
    let mut queued = TcpStream::connect(addr).await.unwrap();
    queued
        .write_all(raw_post("/v1/games/reversi/bot-move", "", &search).as_bytes())
        .await
        .unwrap();
    wait_until("the second queued", Duration::from_secs(5), || {
        state.pool.admitted() == 2
    })
    .await;
    drop(queued);
    wait_until("its place given back", Duration::from_secs(2), || {
        state.pool.admitted() == 1
    })
    .await;
    let next = reqwest::Client::new()
        .post(format!("http://{addr}/v1/games/reversi/analyze"))
        .json(&json!({"state": start(), "max_depth": 1}))
        .send()
        .await
        .unwrap();
    assert_eq!(next.status(), 200, "admitted in the freed place");
    drop(running);
}

#[tokio::test]
async fn a_key_over_its_searches_at_once_is_told_so_and_others_go_on() {
    let keys =
        ApiKeys::parse("portal 0123456789abcdef0123 1000 1\nother fedcba9876543210fedc 1000\n")
            .unwrap();
    let state = AppState::new(crate::common::config()).with_keys(keys);
    let pool = state.pool.clone();
    let app = router(state);
    let ask = |key: &'static str, body: Value| {
        let app = app.clone();
        async move {
            let request = axum::http::Request::post("/v1/games/reversi/bot-move")
                .header("authorization", format!("Bearer {key}"))
                .header("content-type", "application/json")
                .body(axum::body::Body::from(body.to_string()))
                .unwrap();
            crate::common::send_request(&app, request).await
        }
    };
    let busy = tokio::spawn(ask(
        "0123456789abcdef0123",
        json!({"state": start(), "level": "strong:book=0", "time_ms": 1500}),
    ));
    wait_until("the key's search running", Duration::from_secs(5), || {
        pool.running() == 1
    })
    .await;
    let limited = ask(
        "0123456789abcdef0123",
        json!({"state": start(), "level": "random"}),
    )
    .await;
    assert_eq!(
        limited.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        limited.text
    );
    assert_eq!(limited.code(), "concurrency_limited");
    assert!(limited.headers.contains_key("retry-after"));
    let other = ask(
        "fedcba9876543210fedc",
        json!({"state": start(), "level": "random"}),
    )
    .await;
    assert_eq!(other.status, StatusCode::OK, "{}", other.text);
    assert_eq!(busy.await.unwrap().status, StatusCode::OK);
}

// ---- row 2: level strings became metric labels ----

#[tokio::test]
async fn level_strings_are_checked_and_never_become_metric_labels() {
    let app = crate::common::app();
    for (level, says) in [
        ("strong:book=0,book=0", "given twice"),
        ("strong:book=00", "without leading zeros"),
        ("norvig:depth=+2", "without leading zeros"),
    ] {
        let reply = post_json(
            &app,
            "/v1/games/reversi/bot-move",
            &json!({"state": start(), "level": level}),
        )
        .await;
        assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY, "{level}");
        assert_eq!(reply.json["pointer"], "/level", "{level}");
        assert!(reply.text.contains(says), "{level}: {}", reply.text);
    }
    let long = format!("strong:{}", "book=0,".repeat(140_000));
    let reply = post_json(
        &app,
        "/v1/games/reversi/bot-move",
        &json!({"state": start(), "level": long}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(reply.text.len() < 2048, "{} bytes echoed", reply.text.len());
    // A thousand requests with levels of every spelling: the metrics keep
    // a closed set of labels and a bounded size.
    let mut seed = 7u64;
    for i in 0..1000u64 {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let level = match i % 4 {
            0 => format!("norvig:depth={}", 1 + seed % 2),
            1 => format!("random:{}=1", seed % 100_000),
            2 => format!("{}", seed % 1000),
            _ => format!("lvl-{seed}"),
        };
        post_json(
            &app,
            "/v1/games/reversi/bot-move",
            &json!({"state": start(), "level": level, "seed": i}),
        )
        .await;
    }
    let metrics = get(&app, "/metrics").await.text;
    assert!(
        metrics.len() < 256 * 1024,
        "/metrics is {} bytes",
        metrics.len()
    );
    let known: Vec<String> = {
        let games = get(&app, "/v1/games").await.json;
        let mut known = vec!["custom".to_string()];
        for game in games["games"].as_array().unwrap() {
            for level in game["levels"].as_array().unwrap() {
                known.push(level["id"].as_str().unwrap().to_string());
            }
            for numbered in game["numbered_levels"].as_array().unwrap() {
                known.push(numbered["level"].to_string());
            }
        }
        known
    };
    for label in metrics.split("level=\"").skip(1) {
        let value = label.split('"').next().unwrap();
        assert!(known.iter().any(|k| k == value), "label level=\"{value}\"");
    }
    assert!(
        metrics.contains("level=\"custom\""),
        "custom levels are counted"
    );
}

// ---- row 3: echoed input and over-long request ids ----

#[tokio::test]
async fn an_answer_echoes_only_a_short_part_of_what_was_sent() {
    let app = crate::common::app();
    let junk = "x".repeat(400_000);
    let reply = post_json(
        &app,
        "/v1/games/reversi/play",
        &json!({"state": start(), "move": junk}),
    )
    .await;
    assert!(reply.status.is_client_error());
    assert!(reply.text.len() < 2048, "{} bytes echoed", reply.text.len());
    let request = axum::http::Request::get("/healthz")
        .header("x-request-id", "r".repeat(100_000))
        .body(axum::body::Body::empty())
        .unwrap();
    let reply = crate::common::send_request(&app, request).await;
    let id = reply.headers["x-request-id"].to_str().unwrap();
    assert!(id.len() <= 128, "the id was replaced: {} bytes", id.len());
    let warning = reply.headers["warning"].to_str().unwrap();
    assert!(warning.contains("x-request-id was replaced"), "{warning}");
}

// ---- the real binary: connections and signals ----

/// A free loopback port.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The binary serving on an API and an admin port with `args`, under a
/// descriptor limit of `nofile`.
struct Server {
    child: Child,
    api: SocketAddr,
    admin: SocketAddr,
}

impl Server {
    fn start(nofile: u32, args: &[&str]) -> Server {
        let api: SocketAddr = format!("127.0.0.1:{}", free_port()).parse().unwrap();
        let admin: SocketAddr = format!("127.0.0.1:{}", free_port()).parse().unwrap();
        let mut command = format!(
            "ulimit -n {nofile} && exec '{}' serve --bind {api} --admin-bind {admin} --workers 1",
            env!("CARGO_BIN_EXE_gamebot")
        );
        for arg in args {
            command.push(' ');
            command.push_str(arg);
        }
        let child = Command::new("sh")
            .args(["-c", &command])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let server = Server { child, api, admin };
        let started = Instant::now();
        while std::net::TcpStream::connect(admin).is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "the server did not start"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        server
    }

    fn signal(&self, name: &str) {
        let sent = Command::new("kill")
            .args([&format!("-{name}"), &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
    }

    /// Waits for the process to exit, at most `limit`: its status and the time it took.
    fn exit_within(&mut self, limit: Duration) -> (std::process::ExitStatus, Duration) {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return (status, started.elapsed());
            }
            if started.elapsed() > limit {
                let _ = self.child.kill();
                panic!("the server did not exit within {limit:?}");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A plain GET over a fresh connection: the status line's code.
fn status_of(addr: SocketAddr, path: &str) -> Option<u16> {
    let mut stream = std::net::TcpStream::connect_timeout(&addr, Duration::from_secs(2)).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nhost: test\r\nconnection: close\r\n\r\n"
    )
    .ok()?;
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    answer.split(' ').nth(1)?.parse().ok()
}

/// Whether the server closed `stream` (reads end) within `limit`.
fn closed_within(stream: &mut std::net::TcpStream, limit: Duration) -> bool {
    stream.set_read_timeout(Some(limit)).unwrap();
    let mut sink = [0u8; 4096];
    let started = Instant::now();
    loop {
        match stream.read(&mut sink) {
            Ok(0) => return true,
            Ok(_) => continue,
            Err(error) if error.kind() == std::io::ErrorKind::ConnectionReset => return true,
            Err(_) => return started.elapsed() < limit,
        }
    }
}

/// An HTTP/2 connection without TLS (prior knowledge) that says hello and
/// then nothing: the preface and an empty SETTINGS frame.
fn idle_h2c(addr: SocketAddr) -> std::net::TcpStream {
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream
        .write_all(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x00\x04\x00\x00\x00\x00\x00")
        .unwrap();
    stream
}

/// A client that asks for big answers and reads none: pipelined requests
/// for the OpenAPI document, enough to fill every buffer between us.
fn non_reader(addr: SocketAddr) -> std::net::TcpStream {
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    let request = "GET /openapi.yaml HTTP/1.1\r\nhost: test\r\n\r\n".repeat(200);
    stream.write_all(request.as_bytes()).unwrap();
    stream
}

#[test]
fn silent_sockets_and_idle_connections_are_closed_and_health_still_answers() {
    let server = Server::start(
        256,
        &["--header-timeout-ms", "1500", "--idle-timeout-ms", "1500"],
    );
    let mut silent: Vec<_> = (0..300)
        .filter_map(|_| std::net::TcpStream::connect(server.api).ok())
        .collect();
    let mut h2 = idle_h2c(server.api);
    // Beyond the cap, connections are turned away at once; health answers
    // on the admin address all along.
    assert_eq!(status_of(server.admin, "/healthz"), Some(200));
    let mut keep_alive = std::net::TcpStream::connect(server.api).unwrap();
    write!(keep_alive, "GET /v1/games HTTP/1.1\r\nhost: test\r\n\r\n").unwrap();
    for stream in &mut silent {
        assert!(
            closed_within(stream, Duration::from_secs(6)),
            "a silent socket was closed"
        );
    }
    assert!(
        closed_within(&mut h2, Duration::from_secs(6)),
        "idle h2c closed"
    );
    assert!(
        closed_within(&mut keep_alive, Duration::from_secs(6)),
        "an idle keep-alive connection was closed"
    );
    assert_eq!(status_of(server.api, "/v1/games"), Some(200), "serving on");
}

#[test]
fn a_client_that_reads_nothing_is_dropped_after_the_write_timeout() {
    let server = Server::start(1024, &["--write-timeout-ms", "500"]);
    let mut stalled = non_reader(server.api);
    std::thread::sleep(Duration::from_secs(3));
    let metrics = {
        let mut stream = std::net::TcpStream::connect(server.admin).unwrap();
        write!(
            stream,
            "GET /metrics HTTP/1.1\r\nhost: test\r\nconnection: close\r\n\r\n"
        )
        .unwrap();
        let mut text = String::new();
        stream.read_to_string(&mut text).unwrap();
        text
    };
    assert!(
        metrics.contains("gamebot_connections_closed_total{reason=\"write_timeout\"} 1"),
        "{}",
        metrics
            .lines()
            .filter(|l| l.contains("connections"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    // What was written before the drop may still be read; then the end.
    assert!(closed_within(&mut stalled, Duration::from_secs(10)));
}

#[test]
fn sigterm_with_everything_open_says_not_ready_first_and_exits_within_drain_and_grace() {
    let mut server = Server::start(
        4096,
        &[
            "--drain-delay-ms",
            "800",
            "--shutdown-grace-s",
            "2",
            "--write-timeout-ms",
            "60000",
            "--header-timeout-ms",
            "60000",
            "--idle-timeout-ms",
            "60000",
        ],
    );
    // A long review running, 40 clients that read nothing, an idle h2c
    // connection and 100 silent sockets.
    let mut review = std::net::TcpStream::connect(server.api).unwrap();
    let moves: Vec<String> = "f5 d6 c3 d3 c4 f4 f6 f3 e6 e7"
        .split(' ')
        .map(String::from)
        .collect();
    review
        .write_all(
            raw_post(
                "/v1/games/reversi/review",
                "",
                &json!({"moves": moves, "time_ms_per_ply": 20000}),
            )
            .as_bytes(),
        )
        .unwrap();
    let _non_readers: Vec<_> = (0..40).map(|_| non_reader(server.api)).collect();
    let _h2 = idle_h2c(server.api);
    let _silent: Vec<_> = (0..100)
        .map(|_| std::net::TcpStream::connect(server.api).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    server.signal("TERM");
    let signalled = Instant::now();
    // Readiness falls first, while the API still serves: within the drain
    // delay, however late a loaded machine runs the signal handler.
    let mut readiness = status_of(server.admin, "/readyz");
    while readiness != Some(503) && signalled.elapsed() < Duration::from_millis(600) {
        std::thread::sleep(Duration::from_millis(20));
        readiness = status_of(server.admin, "/readyz");
    }
    assert_eq!(readiness, Some(503));
    assert_eq!(status_of(server.api, "/v1/games"), Some(200));
    assert!(signalled.elapsed() < Duration::from_millis(800));
    let (status, _) = server.exit_within(Duration::from_secs(10));
    let took = signalled.elapsed();
    assert!(status.success(), "exit status {status:?}");
    assert!(
        took < Duration::from_millis(800 + 2000 + 1000),
        "exited {took:?} after SIGTERM"
    );
}

#[test]
fn a_second_signal_exits_at_once() {
    let mut server = Server::start(1024, &["--shutdown-grace-s", "120"]);
    let mut review = std::net::TcpStream::connect(server.api).unwrap();
    review
        .write_all(
            raw_post(
                "/v1/games/reversi/review",
                "",
                &json!({"moves": ["f5", "d6", "c3"], "time_ms_per_ply": 30000}),
            )
            .as_bytes(),
        )
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    server.signal("TERM");
    std::thread::sleep(Duration::from_millis(500));
    assert!(server.child.try_wait().unwrap().is_none(), "still draining");
    server.signal("INT");
    let (status, took) = server.exit_within(Duration::from_secs(5));
    assert!(!status.success(), "a forced exit says so: {status:?}");
    assert!(took < Duration::from_secs(2), "took {took:?}");
}
