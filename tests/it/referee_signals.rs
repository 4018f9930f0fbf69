//! Stopping the referee stops its programs: the real binary, running
//! outside programs that hang (each in a process group of its own, which
//! a terminal's Ctrl-C never reaches, some with a child in a session of
//! its own, which a kill of the group misses), is sent SIGINT or SIGTERM,
//! exits with 128 plus the signal, and leaves none of their processes and
//! none of its temporary folders behind.

use crate::common::outside::{processes_mentioning, scratch, unique_tag};
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

/// The referee's temporary folders in `dir`.
fn referee_folders(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("gamebot-referee-"))
        .collect()
}

/// Starts `args` with a temporary directory of its own, waits until its
/// programs run, sends `signal`, and checks the exit code, that nothing
/// tagged is left, and that the referee removed its temporary folders.
fn stop_with(signal: i32, tag: &str, args: &[String]) {
    let tmp = scratch(tag).join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let mut referee = Command::new(GAMEBOT)
        .args(args)
        .env("TMPDIR", &tmp)
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
    let left = processes_mentioning(tag);
    clean_up(&left);
    assert!(gone, "left behind: {left:#?}");
    assert_eq!(referee_folders(&tmp), Vec::<String>::new());
    std::fs::remove_dir_all(std::env::temp_dir().join(tag)).ok();
}

/// Kills what a failed test left, with the group each leads.
fn clean_up(left: &[String]) {
    for line in left {
        if let Some(pid) = line
            .split(':')
            .next()
            .and_then(|pid| pid.parse::<libc::pid_t>().ok())
        {
            // SAFETY: kill has no memory effects; the pids are this test's
            // processes, found by their unique tag.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
                libc::kill(pid, libc::SIGKILL);
            }
        }
    }
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

#[test]
fn sigterm_stops_programs_that_moved_to_a_session_of_their_own() {
    // The hanging agent's child leaves the group the referee kills.
    let tag = unique_tag("signals", "setsid");
    let dir = scratch(&tag);
    let path = dir.join(format!("hang-{tag}.sh"));
    let body = format!("#!/bin/sh\nsetsid sh -c 'sleep 1000; :' {tag}-child &\nsleep 1000\n");
    std::fs::write(&path, body).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    let args = [
        "arena",
        "halma",
        "--a",
        "random",
        "--b",
        &format!("halma-agent:{}", path.display()),
        "--clock-s",
        "600",
        "--games",
        "2",
        "--threads",
        "2",
    ]
    .map(String::from);
    stop_with(libc::SIGTERM, &tag, &args);
}
