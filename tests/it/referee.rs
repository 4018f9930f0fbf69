//! gamebot as referee: outside programs play Advance in the arena through
//! the studio's board-file contract (`cab201:PATH [ARGS…]`), gamebot's own
//! `advance` subcommand plays a clean match that way, and programs that hang,
//! fail, say nothing or cheat forfeit with the reason and leave no process.

use crate::common::outside::{log_records, processes_mentioning, scratch, unique_tag};
use gamebot::cli::arena::{play_arena, ArenaArgs};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::Path;

fn args(b: &str, games: usize, log: &Path) -> ArenaArgs {
    ArenaArgs {
        a: "greedy".into(),
        b: b.into(),
        games,
        time_ms: Some(100),
        a_time_ms: Some(20),
        b_time_ms: Some(200),
        grace_ms: 50,
        seed: 5,
        random_plies: 2,
        max_plies: 400,
        threads: Some(2),
        games_log: Some(log.to_path_buf()),
        ..ArenaArgs::new("advance")
    }
}

#[test]
fn gamebot_advance_plays_a_clean_match_through_the_contract() {
    let dir = scratch(&unique_tag("referee", "clean"));
    let log = dir.join("games.jsonl");
    let program = format!(
        "cab201:{} advance --level greedy --time-ms 20",
        env!("CARGO_BIN_EXE_gamebot")
    );
    let summary = play_arena(&ArenaArgs {
        b_time_ms: Some(3_000),
        ..args(&program, 2, &log)
    })
    .unwrap();
    assert_eq!(summary.games, 2);
    assert_eq!(summary.b.name, "cab201:gamebot-advance", "{summary:?}");
    for record in log_records(&log) {
        assert!(record["forfeit"].is_null(), "{record}");
        assert!(record["moves"].as_array().unwrap().len() > 4, "{record}");
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn bad_programs_forfeit_with_the_reason_and_leave_no_process() {
    let tag = unique_tag("referee", "bad");
    let dir = scratch(&tag);
    // $1 is the side, $2 IN, $3 OUT (and $1 is `name` when asked for one).
    let cases = [
        (
            "hang",
            format!("sh -c 'sleep 1000; :' {tag}-child &\nsleep 1000\n"),
            "timeout after 1050 ms",
        ),
        (
            "garbage",
            "echo 'hello there' > \"$3\"\n".to_string(),
            "illegal: not a board",
        ),
        ("exit1", "exit 1\n".to_string(), "exit code 1"),
        ("silent", "exit 0\n".to_string(), "no output"),
        (
            "unchanged",
            "cp \"$2\" \"$3\"\n".to_string(),
            "illegal: the board is unchanged",
        ),
        (
            "remove",
            "sed '0,/[A-Za-z]/s/[A-Za-z]/./' \"$2\" > \"$3\"\n".to_string(),
            "illegal: no legal move leads to this board",
        ),
    ];
    for (what, body, reason) in &cases {
        let script = dir.join(format!("{what}-{tag}.sh"));
        std::fs::write(&script, format!("#!/bin/sh\n{body}")).unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let log = dir.join(format!("{what}.jsonl"));
        // A second a move: a program that fails at once must not time out
        // on a machine whose other cores are busy with other tests.
        let summary = play_arena(&ArenaArgs {
            b_time_ms: Some(1_000),
            ..args(&format!("cab201:{}", script.display()), 2, &log)
        })
        .unwrap();
        assert_eq!(summary.a.wins, 2, "{what}: {summary:?}");
        for record in log_records(&log) {
            assert_eq!(record["forfeit"], "B", "{what}: {record}");
            let given = record["reason"].as_str().unwrap();
            assert!(
                given.starts_with(reason),
                "{what}: {given:?}, expected {reason:?}"
            );
            assert_eq!(record["on_time"], *what == "hang", "{what}: {record}");
        }
    }
    // The count sees a tagged process while there is one.
    let mut probe = std::process::Command::new("/bin/sh")
        .args(["-c", "sleep 30; :", &format!("{tag}-probe")])
        .process_group(0)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(100));
    assert_eq!(processes_mentioning(&format!("{tag}-probe")).len(), 1);
    // The whole group, so that its `sleep` goes too.
    // SAFETY: kill has no memory effects; the probe is not yet reaped.
    unsafe {
        libc::kill(-(probe.id() as libc::pid_t), libc::SIGKILL);
    }
    probe.wait().unwrap();
    let left = processes_mentioning(&tag);
    assert!(left.is_empty(), "processes left behind: {left:#?}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn board_file_players_need_a_game_with_a_board_file() {
    let log = std::env::temp_dir().join(unique_tag("referee", "reversi"));
    let error = play_arena(&ArenaArgs {
        game: "reversi".into(),
        a: "strong".into(),
        ..args("cab201:/bin/true", 1, &log)
    })
    .unwrap_err();
    assert!(error.to_string().contains("board file"), "{error}");
}
