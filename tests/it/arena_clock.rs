//! Matches under game clocks with increments, over the real binary: local
//! levels and a `service:` player planned by the time manager, the clock
//! charged and refilled move by move, losses on time, the time left at
//! each game's end and each move's plan against the time it used.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

/// Runs `gamebot arena ARGS`.
fn arena(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gamebot"))
        .arg("arena")
        .args(args)
        .output()
        .unwrap()
}

/// The standard output of a run that must succeed, and its last line (the
/// `--json` summary).
fn succeeded(output: &Output) -> (String, Value) {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8(output.stdout.clone()).unwrap();
    let last = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    (stdout, last)
}

/// Every line of a games log.
fn logged(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// Checks that seat `seat`'s clock in `game` (a games log line) was run
/// from `total_ms` with `increment_ms` after each move: what is left at the
/// end is the start less the moves' think times plus one increment a move,
/// and every move has a plan, its target within its cap.
fn clock_was_run(game: &Value, seat: usize, total_ms: f64, increment_ms: f64) -> f64 {
    let think: Vec<f64> = game["think_ms"][seat]
        .as_array()
        .unwrap()
        .iter()
        .map(|ms| ms.as_f64().unwrap())
        .collect();
    let plans = game["plans"][seat].as_array().unwrap();
    assert_eq!(plans.len(), think.len(), "a plan for every move: {game}");
    for plan in plans {
        let (planned, cap) = (plan["planned_ms"].as_f64(), plan["cap_ms"].as_f64());
        assert!(planned.unwrap() <= cap.unwrap(), "{plan}");
    }
    let left = game["clock_left_ms"][seat].as_f64().unwrap();
    let expected = total_ms - think.iter().sum::<f64>() + increment_ms * think.len() as f64;
    assert!(
        (left - expected).abs() < 0.1,
        "seat {seat}: {left} ms left, expected {expected}: {game}"
    );
    left
}

#[test]
fn a_clocked_match_with_an_increment_keeps_every_flag_up_and_says_what_was_left() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("games.jsonl");
    let log_arg = log.to_str().unwrap();
    let common = [
        "reversi",
        "--a",
        "strong",
        "--b",
        "strong",
        "--clock-s",
        "1",
        "--increment-ms",
        "20",
        "--threads",
        "1",
        "--games-log",
        log_arg,
    ];
    let output = arena(&[&common[..], &["--games", "2", "--json"]].concat());
    let (stdout, summary) = succeeded(&output);
    for seat in ["a", "b"] {
        let side = &summary[seat];
        assert_eq!(side["timeouts"], 0, "{summary}");
        assert_eq!(side["time"], "1 s + 20 ms clock");
        let left = side["clock"]["left_ms"].as_array().unwrap();
        assert_eq!(left.len(), 2, "{summary}");
        assert!(
            left.iter().all(|ms| ms.as_f64().unwrap() > 0.0),
            "{summary}"
        );
        assert!(side["clock"]["planned_moves"].as_u64().unwrap() > 0);
        assert!(side["clock"]["mean_planned_ms"].as_f64().unwrap() > 0.0);
    }
    assert!(
        stdout.contains("A lost 0 on time; clock left at the end"),
        "{stdout}"
    );
    assert!(stdout.contains("moves planned"), "{stdout}");
    let games = logged(&log);
    assert_eq!(games.len(), 2);
    for game in &games {
        for seat in 0..2 {
            clock_was_run(game, seat, 1000.0, 20.0);
        }
    }

    // A log written before clocks were planned (no plans, no clock left)
    // still resumes: its game is kept and the other played.
    let old: String = games[..1]
        .iter()
        .map(|game| {
            let mut game = game.clone();
            let object = game.as_object_mut().unwrap();
            object.remove("plans");
            object.remove("clock_left_ms");
            format!("{game}\n")
        })
        .collect();
    std::fs::write(&log, old).unwrap();
    let output = arena(&[&common[..], &["--games", "2", "--resume", "--json"]].concat());
    succeeded(&output);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("1 of 2 games kept"), "{stderr}");
    let resumed = logged(&log);
    assert_eq!(resumed.len(), 2);
    assert!(resumed[0].get("plans").is_none(), "{}", resumed[0]);
    clock_was_run(&resumed[1], 0, 1000.0, 20.0);
}

#[test]
fn a_side_with_far_too_little_time_loses_on_time_and_the_summary_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("games.jsonl");
    let output = arena(&[
        "reversi",
        "--a",
        "strong",
        "--b",
        "strong",
        "--a-clock-s",
        "0.001",
        "--b-time-ms",
        "20",
        "--games",
        "2",
        "--threads",
        "1",
        "--json",
        "--games-log",
        log.to_str().unwrap(),
    ]);
    let (stdout, summary) = succeeded(&output);
    assert_eq!(summary["a"]["timeouts"], 2, "{summary}");
    assert_eq!(summary["b"]["wins"], 2, "{summary}");
    assert_eq!(
        summary["a"]["clock"]["left_ms"],
        serde_json::json!([0.0, 0.0])
    );
    // B plays a time per move: no clock to report.
    assert!(summary["b"].get("clock").is_none(), "{summary}");
    assert!(stdout.contains("A lost 2 on time"), "{stdout}");
    for game in logged(&log) {
        assert_eq!(game["forfeit"], "A");
        assert_eq!(game["on_time"], true);
        assert!(game["reason"]
            .as_str()
            .unwrap()
            .starts_with("clock ran out"));
        assert_eq!(game["clock_left_ms"], serde_json::json!([0.0, null]));
    }
}

/// A `gamebot serve` child on a free port, stopped when dropped.
struct Service {
    child: std::process::Child,
    url: String,
}

impl Service {
    fn start() -> Self {
        let port = {
            let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            probe.local_addr().unwrap().port()
        };
        let addr = format!("127.0.0.1:{port}");
        let child = Command::new(env!("CARGO_BIN_EXE_gamebot"))
            .args(["serve", "--bind", &addr, "--workers", "2"])
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let started = std::time::Instant::now();
        while std::net::TcpStream::connect(&addr).is_err() {
            assert!(started.elapsed().as_secs() < 10, "the server did not start");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        Service {
            child,
            url: format!("http://{addr}"),
        }
    }
}

impl Drop for Service {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn a_service_is_sent_the_clock_and_charged_the_whole_call() {
    let service = Service::start();
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("games.jsonl");
    let b = format!("service:{} strong", service.url);
    let output = arena(&[
        "reversi",
        "--a",
        "strong",
        "--b",
        &b,
        "--clock-s",
        "1",
        "--b-increment-ms",
        "30",
        "--games",
        "2",
        "--threads",
        "1",
        "--json",
        "--games-log",
        log.to_str().unwrap(),
    ]);
    let (stdout, summary) = succeeded(&output);
    assert_eq!(summary["b"]["forfeits"], 0, "{summary}");
    assert_eq!(summary["b"]["timeouts"], 0, "{summary}");
    assert_eq!(summary["a"]["time"], "1 s clock");
    assert_eq!(summary["b"]["time"], "1 s + 30 ms clock");
    let clock = &summary["b"]["clock"];
    assert!(clock["planned_moves"].as_u64().unwrap() > 0, "{summary}");
    assert!(clock["mean_lag_ms"].is_number(), "{summary}");
    assert!(stdout.contains("beyond the service's own time"), "{stdout}");
    for game in logged(&log) {
        // B is seat 1: the clock the service planned from was charged the
        // wall time of each call and given B's increment after it.
        clock_was_run(&game, 1, 1000.0, 30.0);
        clock_was_run(&game, 0, 1000.0, 0.0);
        let plans = game["plans"][1].as_array().unwrap();
        assert!(
            plans.iter().all(|plan| plan["served_ms"].is_number()),
            "{game}"
        );
    }
}

#[test]
fn increments_are_checked_and_need_a_clock() {
    for (args, expected) in [
        (
            &[
                "reversi",
                "--a",
                "random",
                "--b",
                "random",
                "--increment-ms",
                "3600001",
            ][..],
            "an hour",
        ),
        (
            &[
                "reversi",
                "--a",
                "random",
                "--b",
                "random",
                "--increment-ms=-1",
            ][..],
            "an hour",
        ),
        (
            &[
                "reversi",
                "--a",
                "random",
                "--b",
                "random",
                "--a-clock-s",
                "5",
                "--b-increment-ms",
                "100",
            ][..],
            "--b-increment-ms: an increment is added to a game clock",
        ),
        (
            &[
                "crush",
                "--a",
                "random",
                "--b",
                "random",
                "--increment-ms",
                "10",
            ][..],
            "--increment-ms is for two-player games",
        ),
    ] {
        let output = arena(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
    // Halma's own clock takes an increment without --clock-s.
    let output = arena(&[
        "halma",
        "--a",
        "random",
        "--b",
        "random",
        "--increment-ms",
        "100",
        "--games",
        "1",
        "--max-plies",
        "4",
        "--json",
    ]);
    let (_, summary) = succeeded(&output);
    assert_eq!(summary["a"]["time"], "300 s + 100 ms clock");
}
