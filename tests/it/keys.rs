//! API keys over a real socket, on the real binary started with
//! `--api-keys-file`: no key is 401, an unknown key 403, a key over its
//! limit 429 with `Retry-After` and `RateLimit-*` headers; health and
//! metrics stay open; every outcome is counted by the key's name, and the
//! key itself appears in neither the metrics nor the logs. A keys file
//! with a mistake stops the server at start with exit code 2 and the line.

use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const KEY: &str = "portal-a-0123456789abcdef";
const OTHER: &str = "not-a-key-0123456789abcdef";

fn start() -> Value {
    json!({"state": {"board": ["........", "........", "........", "...WB...", "...BW...", "........", "........", "........"], "to_move": "black"}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keys_guard_the_api_with_a_limit_each() {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    writeln!(
        file,
        "# name key requests-a-second\nportal-a {KEY} 3\nportal-b {OTHER}x 50"
    )
    .unwrap();
    let port = {
        let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        probe.local_addr().unwrap().port()
    };
    let addr = format!("127.0.0.1:{port}");
    let log = tempfile::NamedTempFile::new().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamebot"))
        .args(["serve", "--bind", &addr, "--workers", "1"])
        .arg("--api-keys-file")
        .arg(file.path())
        .env("GAMEBOT_LOG", "debug")
        .stderr(log.reopen().unwrap())
        .spawn()
        .unwrap();
    let http = reqwest::Client::new();
    let base = format!("http://{addr}");
    let started = Instant::now();
    loop {
        match http.get(format!("{base}/healthz")).send().await {
            Ok(reply) => {
                assert_eq!(reply.status(), 200, "health stays open");
                break;
            }
            Err(_) if started.elapsed() < Duration::from_secs(10) => {
                tokio::time::sleep(Duration::from_millis(20)).await
            }
            Err(e) => panic!("the server did not start: {e}"),
        }
    }
    let url = format!("{base}/v1/games/reversi/legal-moves");
    let post = |key: Option<&str>| {
        let mut request = http.post(&url).json(&start());
        if let Some(key) = key {
            request = request.bearer_auth(key);
        }
        request.send()
    };
    let problem = |reply: reqwest::Response| async move {
        let headers = reply.headers().clone();
        let status = reply.status().as_u16();
        let body: Value = reply.json().await.unwrap();
        (status, body["code"].as_str().unwrap().to_string(), headers)
    };

    let (status, code, headers) = problem(post(None).await.unwrap()).await;
    assert_eq!((status, code.as_str()), (401, "unauthorized"));
    assert_eq!(headers["www-authenticate"], "Bearer realm=\"gamebot\"");
    assert_eq!(headers["content-type"], "application/problem+json");
    let (status, code, _) = problem(post(Some(OTHER)).await.unwrap()).await;
    assert_eq!((status, code.as_str()), (403, "forbidden"));

    // Three a second: the first three pass, the fourth is told to wait.
    for _ in 0..3 {
        let reply = post(Some(KEY)).await.unwrap();
        assert_eq!(reply.status(), 200);
    }
    let (status, code, headers) = problem(post(Some(KEY)).await.unwrap()).await;
    assert_eq!((status, code.as_str()), (429, "rate_limited"));
    assert_eq!(headers["retry-after"], "1");
    assert_eq!(headers["ratelimit-limit"], "3");
    assert_eq!(headers["ratelimit-remaining"], "0");
    assert_eq!(headers["ratelimit-policy"], "3;w=1");
    tokio::time::sleep(Duration::from_millis(1100)).await;
    assert_eq!(post(Some(KEY)).await.unwrap().status(), 200);

    let metrics = http.get(format!("{base}/metrics")).send().await.unwrap();
    assert_eq!(metrics.status(), 200, "metrics stay open");
    let metrics = metrics.text().await.unwrap();
    for (key, result, count) in [
        ("portal-a", "allowed", 4),
        ("portal-a", "limited", 1),
        ("", "missing", 1),
        ("", "unknown", 1),
    ] {
        let line =
            format!("gamebot_api_key_requests_total{{key=\"{key}\",result=\"{result}\"}} {count}");
        assert!(
            metrics.lines().any(|l| l == line),
            "{line} not in:\n{metrics}"
        );
    }

    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(child.wait().unwrap().success());
    let logs = std::fs::read_to_string(log.path()).unwrap();
    assert!(
        logs.contains("legal-moves"),
        "the requests are logged: {logs}"
    );
    for text in [&metrics, &logs] {
        assert!(
            !text.contains(KEY) && !text.contains(OTHER),
            "a key was written out"
        );
    }
}

#[test]
fn a_keys_file_with_a_mistake_stops_the_server_with_its_line() {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    writeln!(file, "portal-a {KEY} 3\nportal-b short 3").unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_gamebot"))
        .args(["serve", "--bind", "127.0.0.1:0", "--api-keys-file"])
        .arg(file.path())
        .stdout(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("line 2: the key of 'portal-b' must be at least 16"),
        "{stderr}"
    );
    assert!(!stderr.contains(KEY), "{stderr}");
}

fn free_port() -> u16 {
    let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    probe.local_addr().unwrap().port()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_readiness_and_metrics_move_to_the_admin_address() {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    writeln!(file, "portal-a {KEY} 100").unwrap();
    let api = format!("127.0.0.1:{}", free_port());
    let admin = format!("127.0.0.1:{}", free_port());
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamebot"))
        .args([
            "serve",
            "--bind",
            &api,
            "--admin-bind",
            &admin,
            "--workers",
            "1",
        ])
        .arg("--api-keys-file")
        .arg(file.path())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let http = reqwest::Client::new();
    let started = Instant::now();
    while http
        .get(format!("http://{admin}/healthz"))
        .send()
        .await
        .is_err()
    {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the admin address did not open"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let status = |url: String| {
        let request = http.get(url).bearer_auth(KEY);
        async move { request.send().await.unwrap().status().as_u16() }
    };
    for path in ["/healthz", "/readyz", "/metrics"] {
        assert_eq!(
            status(format!("http://{admin}{path}")).await,
            200,
            "admin {path}"
        );
        assert_eq!(
            status(format!("http://{api}{path}")).await,
            404,
            "api {path}"
        );
    }
    assert_eq!(status(format!("http://{api}/v1/games")).await, 200);
    assert_eq!(status(format!("http://{admin}/v1/games")).await, 404);
    let metrics = http
        .get(format!("http://{admin}/metrics"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        metrics.contains("gamebot_api_key_requests_total{key=\"portal-a\",result=\"allowed\"}"),
        "{metrics}"
    );
    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(child.wait().unwrap().success());
}
