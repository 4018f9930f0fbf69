//! Outside programs that try to escape the referee or hang it, through the
//! real binary: a child moved to a session of its own (`setsid`) or left
//! behind by a double fork is gone when the move ends, and an output file
//! that is a FIFO (or a link, or a device) forfeits the game with the
//! reason instead of hanging the match.

use crate::common::outside::{log_records, processes_mentioning, scratch, unique_tag};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const GAMEBOT: &str = env!("CARGO_BIN_EXE_gamebot");

/// An executable shell script `name` in `dir`.
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// Runs `gamebot args…` for at most `limit` (killing it past that), and
/// says whether it ended in time, with its exit code and stderr.
fn arena(args: &[String], limit: Duration) -> (bool, Option<i32>, String) {
    let mut child = Command::new(GAMEBOT)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let until = Instant::now() + limit;
    while Instant::now() < until {
        if child.try_wait().unwrap().is_some() {
            let output = child.wait_with_output().unwrap();
            let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
            return (true, output.status.code(), stderr);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().ok();
    child.wait().ok();
    (false, None, String::new())
}

/// Processes mentioning `tag` after a moment for the dying to go.
fn left_behind(tag: &str) -> Vec<String> {
    let until = Instant::now() + Duration::from_secs(2);
    loop {
        let found = processes_mentioning(tag);
        if found.is_empty() || Instant::now() > until {
            return found;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Ends whatever a failed test left sleeping, found by `tag`.
fn clean_up(tag: &str) {
    for line in processes_mentioning(tag) {
        if let Some(pid) = line
            .split(':')
            .next()
            .and_then(|pid| pid.parse::<libc::pid_t>().ok())
        {
            // SAFETY: kill has no memory effects; the pid is one of this
            // test's processes, found by its unique tag (and the group it
            // leads, its sleeping child with it).
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
                libc::kill(pid, libc::SIGKILL);
            }
        }
    }
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|arg| arg.to_string()).collect()
}

#[test]
fn a_setsid_child_of_a_board_file_program_is_gone_after_its_move() {
    let tag = unique_tag("hostile", "setsid-cab201");
    let dir = scratch(&tag);
    // A studio bot that leaves a sleeper in a session of its own, and one
    // behind a double fork, then plays its move as gamebot would.
    let bot = script(
        &dir,
        "bot.sh",
        &format!(
            "[ \"$1\" = name ] && {{ echo sleeper; exit 0; }}\n\
             setsid sh -c 'sleep 1000; :' {tag}-session &\n\
             ( setsid sh -c 'sleep 1000; :' {tag}-double & )\n\
             exec {GAMEBOT} advance --level greedy --time-ms 20 \"$@\"\n"
        ),
    );
    let log = dir.join("games.jsonl");
    let (ended, code, stderr) = arena(
        &strings(&[
            "arena",
            "advance",
            "--a",
            "greedy",
            "--b",
            &format!("cab201:{}", bot.display()),
            "--b-time-ms",
            "3000",
            "--a-time-ms",
            "20",
            "--games",
            "2",
            "--max-plies",
            "6",
            "--threads",
            "1",
            "--games-log",
            log.to_str().unwrap(),
        ]),
        Duration::from_secs(60),
    );
    let left = left_behind(&tag);
    clean_up(&tag);
    assert!(ended, "the match never ended");
    assert_eq!(code, Some(0), "{stderr}");
    let records = log_records(&log);
    assert_eq!(records.len(), 2);
    for record in records {
        assert!(record["forfeit"].is_null(), "{record}");
        assert_eq!(record["moves"].as_array().unwrap().len(), 6, "{record}");
    }
    assert_eq!(left, Vec::<String>::new(), "left behind");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_setsid_child_of_a_working_folder_program_is_gone_after_its_move() {
    let tag = unique_tag("hostile", "setsid-agent");
    let dir = scratch(&tag);
    let agent = script(
        &dir,
        "agent.sh",
        &format!(
            "setsid sh -c 'sleep 1000; :' {tag}-session &\n\
             exec {GAMEBOT} halma --level random\n"
        ),
    );
    let log = dir.join("games.jsonl");
    let (ended, code, stderr) = arena(
        &strings(&[
            "arena",
            "halma",
            "--a",
            "random",
            "--b",
            &format!("halma-agent:{}", agent.display()),
            "--clock-s",
            "600",
            "--games",
            "1",
            "--max-plies",
            "6",
            "--threads",
            "1",
            "--games-log",
            log.to_str().unwrap(),
        ]),
        Duration::from_secs(60),
    );
    let left = left_behind(&tag);
    clean_up(&tag);
    assert!(ended, "the match never ended");
    assert_eq!(code, Some(0), "{stderr}");
    let records = log_records(&log);
    assert!(records[0]["forfeit"].is_null(), "{}", records[0]);
    assert_eq!(left, Vec::<String>::new(), "left behind");
    std::fs::remove_dir_all(dir).ok();
}

/// Plays `game` against `player` twice and answers the games log's reason.
fn forfeit_of(game: &str, player: &str, log: &Path) -> String {
    let level = if game == "advance" { "legal" } else { "random" };
    let (ended, code, stderr) = arena(
        &strings(&[
            "arena",
            game,
            "--a",
            level,
            "--b",
            player,
            "--time-ms",
            "2000",
            "--games",
            "2",
            "--threads",
            "1",
            "--games-log",
            log.to_str().unwrap(),
        ]),
        Duration::from_secs(30),
    );
    assert!(ended, "{player}: the match hung");
    assert_eq!(code, Some(0), "{stderr}");
    let records = log_records(log);
    assert_eq!(records.len(), 2);
    let reason = records[0]["reason"].as_str().unwrap().to_string();
    for record in &records {
        assert_eq!(record["reason"].as_str(), Some(reason.as_str()), "{record}");
    }
    reason
}

#[test]
fn an_output_file_that_is_not_a_regular_file_forfeits_without_hanging() {
    let tag = unique_tag("hostile", "fifo");
    let dir = scratch(&tag);
    let log = dir.join("games.jsonl");
    // $3 is OUT; a course agent writes output.txt in its folder.
    let cases = [
        (
            "advance",
            "cab201",
            "[ \"$1\" = name ] && exit 1\nmkfifo \"$3\"\n",
            "OUT is not a regular file (a FIFO)",
        ),
        (
            "advance",
            "cab201",
            "[ \"$1\" = name ] && exit 1\nln -s /dev/zero \"$3\"\n",
            "OUT is not a regular file (a symbolic link)",
        ),
        (
            "halma",
            "halma-agent",
            "mkfifo output.txt\n",
            "output.txt is not a regular file (a FIFO)",
        ),
    ];
    for (i, (game, prefix, body, reason)) in cases.into_iter().enumerate() {
        let program = script(&dir, &format!("{i}.sh"), body);
        let player = format!("{prefix}:{}", program.display());
        let started = Instant::now();
        assert_eq!(forfeit_of(game, &player, &log), reason, "{player}");
        assert!(started.elapsed() < Duration::from_secs(30));
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_program_that_kills_its_keeper_leaves_nothing_behind() {
    let tag = unique_tag("hostile", "keeper");
    let dir = scratch(&tag);
    // The shell's parent is the process the referee runs it under.
    let bot = script(
        &dir,
        "bot.sh",
        &format!(
            "[ \"$1\" = name ] && exit 1\n\
             setsid sh -c 'sleep 1000; :' {tag}-session &\n\
             sleep 0.1\n\
             kill -KILL $PPID\n\
             sleep 1000\n"
        ),
    );
    let log = dir.join("games.jsonl");
    let (ended, code, stderr) = arena(
        &strings(&[
            "arena",
            "advance",
            "--a",
            "legal",
            "--b",
            &format!("cab201:{}", bot.display()),
            "--time-ms",
            "3000",
            "--games",
            "2",
            "--threads",
            "2",
            "--games-log",
            log.to_str().unwrap(),
        ]),
        Duration::from_secs(60),
    );
    let left = left_behind(&tag);
    clean_up(&tag);
    assert!(ended, "the match never ended");
    assert_eq!(code, Some(0), "{stderr}");
    for record in log_records(&log) {
        assert_eq!(record["reason"], "killed by signal 9", "{record}");
    }
    assert_eq!(left, Vec::<String>::new(), "left behind");
    std::fs::remove_dir_all(dir).ok();
}
