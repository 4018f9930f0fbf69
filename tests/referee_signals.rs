//! Stopping the referee stops its programs: the real binary, running
//! outside programs that hang (each in a process group of its own, which
//! a terminal's Ctrl-C never reaches), is sent SIGINT or SIGTERM, exits
//! with 128 plus the signal, and leaves none of their processes behind.

mod common;

use common::outside::{processes_mentioning, scratch, unique_tag};
use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const GAMEBOT: &str = env!("CARGO_BIN_EXE_gamebot");

/// A script that hangs with a child of its own, both findable by `tag`.
fn hanging_script(tag: &str, body_before: &str) -> std::path::PathBuf {
    let dir = scratch(tag);
    let path = dir.join(format!("hang-{tag}.sh"));
    let body = format!("#!/bin/sh\n{body_before}sh -c 'sleep 1000; :' {tag}-child &\nsleep 1000\n");
    std::fs::write(&path, body).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// Waits up to `limit` for `done`.
fn wait_for(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let until = Instant::now() + limit;
    while Instant::now() < until {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    done()
}

/// Starts `args`, waits until its programs run, sends `signal`, and checks
/// the exit code and that nothing tagged is left.
fn stop_with(signal: i32, tag: &str, args: &[String]) {
    let mut referee = Command::new(GAMEBOT)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let child_tag = format!("{tag}-child");
    assert!(
        wait_for(Duration::from_secs(20), || !processes_mentioning(
            &child_tag
        )
        .is_empty()),
        "the programs never started"
    );
    // SAFETY: kill has no memory effects.
    unsafe {
        libc::kill(referee.id() as libc::pid_t, signal);
    }
    let status = referee.wait().unwrap();
    assert_eq!(status.code(), Some(128 + signal), "{status:?}");
    let gone = wait_for(Duration::from_secs(2), || {
        processes_mentioning(tag).is_empty()
    });
    assert!(gone, "left behind: {:#?}", processes_mentioning(tag));
    std::fs::remove_dir_all(std::env::temp_dir().join(tag)).ok();
}

#[test]
fn ctrl_c_stops_a_halma_agent_run_with_its_programs() {
    let tag = unique_tag("signals", "agent");
    let script = hanging_script(&tag, "");
    let args = [
        "arena",
        "halma",
        "--a",
        "random",
        "--b",
        &format!("halma-agent:{}", script.display()),
        "--clock-s",
        "600",
        "--games",
        "4",
        "--threads",
        "2",
    ]
    .map(String::from);
    stop_with(libc::SIGINT, &tag, &args);
}

#[test]
fn sigterm_stops_a_crush_benchmark_with_its_programs() {
    let tag = unique_tag("signals", "exec");
    let script = hanging_script(&tag, "read line\n");
    let args = [
        "crush",
        "--benchmark",
        "--seeds",
        "4",
        "--ks",
        "4",
        "--time-ms",
        "600000",
        "--threads",
        "2",
        "--levels",
        &format!("exec:{}", script.display()),
    ]
    .map(String::from);
    stop_with(libc::SIGTERM, &tag, &args);
}
