//! GTP engines in the arena (`gtp:COMMAND [ARGS…]`, Reversi): GRhino plays
//! a clean match against `strong` (skipped, with a message, where GRhino is
//! not installed), and fake engines that hang or answer garbage forfeit with
//! the reason and leave no process behind.

use crate::common::outside::{log_records, processes_mentioning, scratch, unique_tag};
use gamebot::cli::arena::{play_arena, ArenaArgs};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::time::{Duration, Instant};

const GRHINO: &str = "/usr/games/gtp-rhino";

fn args(b: &str, games: usize, log: &Path) -> ArenaArgs {
    ArenaArgs {
        a: "norvig:depth=2".into(),
        b: b.into(),
        games,
        time_ms: Some(50),
        b_time_ms: Some(200),
        seed: 3,
        random_plies: 2,
        max_plies: 200,
        threads: Some(2),
        games_log: Some(log.to_path_buf()),
        ..ArenaArgs::new("reversi")
    }
}

#[test]
fn grhino_plays_a_clean_match() {
    if !Path::new(GRHINO).exists() {
        println!("skipped: {GRHINO} is not installed (Debian package grhino)");
        return;
    }
    let dir = scratch(&unique_tag("gtp", "grhino"));
    let log = dir.join("games.jsonl");
    let summary = play_arena(&ArenaArgs {
        b_time_ms: None,
        ..args(&format!("gtp:{GRHINO} -l 1"), 2, &log)
    })
    .unwrap();
    assert_eq!(summary.b.name, "gtp:GTP GRhino 0.16.1", "{summary:?}");
    assert_eq!(summary.a.forfeits + summary.b.forfeits, 0, "{summary:?}");
    assert_eq!(summary.a.timeouts + summary.b.timeouts, 0, "{summary:?}");
    assert_eq!(summary.a.wins + summary.b.wins + summary.draws, 2);
    for record in log_records(&log) {
        assert!(record["forfeit"].is_null(), "{record}");
        let reason = record["reason"].as_str().unwrap();
        assert!(reason.contains("neither side can move"), "{record}");
        // Every placed disc is on the board at the end (a game may end
        // early, when one side is wiped out).
        let placed = record["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|mv| mv.as_str() != Some("pass"))
            .count();
        let discs: usize = reason
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|n| n.parse::<usize>().ok())
            .sum();
        assert_eq!(discs, 4 + placed, "{record}");
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn bad_engines_forfeit_with_the_reason_and_leave_no_process() {
    let tag = unique_tag("gtp", "bad");
    let dir = scratch(&tag);
    let cases = [
        (
            "hang",
            format!("sh -c 'sleep 1000; :' {tag}-child; printf '= e6\\n\\n'"),
            "timeout after 250 ms",
        ),
        ("vertex", "printf '= zz9\\n\\n'".to_string(), "illegal"),
        ("chatter", "echo 'I think e6'".to_string(), "illegal"),
        ("refuse", "printf '? no\\n\\n'".to_string(), "illegal"),
    ];
    for (what, genmove, reason) in &cases {
        let script = dir.join(format!("{what}-{tag}.sh"));
        let body = format!(
            "#!/bin/sh\nwhile read -r cmd rest; do\n  case \"$cmd\" in\n    \
             genmove) {genmove} ;;\n    name) printf '= fake\\n\\n' ;;\n    \
             quit) printf '=\\n\\n'; exit 0 ;;\n    *) printf '=\\n\\n' ;;\n  esac\ndone\n"
        );
        std::fs::write(&script, body).unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let log = dir.join(format!("{what}.jsonl"));
        let summary = play_arena(&args(&format!("gtp:{}", script.display()), 2, &log)).unwrap();
        assert_eq!(summary.a.wins, 2, "{what}: {summary:?}");
        assert_eq!(summary.b.name, "gtp:fake", "{what}: {summary:?}");
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
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(processes_mentioning(&format!("{tag}-probe")).len(), 1);
    // The whole group, so that its `sleep` goes too.
    // SAFETY: kill has no memory effects; the probe is not yet reaped.
    unsafe {
        libc::kill(-(probe.id() as libc::pid_t), libc::SIGKILL);
    }
    probe.wait().unwrap();
    // Killed processes leave /proc at once, but allow the kernel a moment.
    let started = Instant::now();
    let mut left = processes_mentioning(&tag);
    while !left.is_empty() && started.elapsed() < Duration::from_secs(2) {
        std::thread::sleep(Duration::from_millis(50));
        left = processes_mentioning(&tag);
    }
    assert!(left.is_empty(), "processes left behind: {left:#?}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn gtp_players_need_a_game_gtp_engines_play() {
    let log = std::env::temp_dir().join(unique_tag("gtp", "advance"));
    let error = play_arena(&ArenaArgs {
        game: "advance".into(),
        a: "strong".into(),
        ..args("gtp:/bin/cat", 1, &log)
    })
    .unwrap_err();
    assert!(error.to_string().contains("GTP"), "{error}");
}
