//! Working-folder programs in the arena (`halma-agent:PATH [ARGS…]`, the
//! Halma course's referee contract): gamebot's own `halma` subcommand plays
//! through `input.txt` and `output.txt` with its clock charged, the state's
//! camp rule binds it, and programs that hang, fail, say nothing or cheat
//! forfeit with the reason and leave no process behind, even over 20 games.

use crate::common::outside::{log_records, processes_mentioning, scratch, unique_tag};
use gamebot::cli::arena::{play_arena, ArenaArgs};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

fn args(b: &str, games: usize, log: &Path) -> ArenaArgs {
    ArenaArgs {
        a: "random".into(),
        b: b.into(),
        games,
        a_clock_s: Some(30.0),
        b_clock_s: Some(30.0),
        grace_ms: 50,
        seed: 7,
        random_plies: 2,
        max_plies: 40,
        threads: Some(2),
        games_log: Some(log.to_path_buf()),
        ..ArenaArgs::new("halma")
    }
}

/// An executable shell script `name` in `dir` with `body`.
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[test]
fn gamebot_halma_plays_through_the_files_and_its_clock_is_charged() {
    let tag = unique_tag("halma-agent", "clean");
    let dir = scratch(&tag);
    let clocks = dir.join("clocks.txt");
    // Notes the clock it is given (line 3 of input.txt), then lets
    // gamebot's own harness answer in the same folder.
    let agent = script(
        &dir,
        "agent.sh",
        &format!(
            "sed -n 1,3p input.txt | tr '\\n' ' ' >> '{}'; echo >> '{}'\nexec '{}' halma --level minimax\n",
            clocks.display(),
            clocks.display(),
            env!("CARGO_BIN_EXE_gamebot")
        ),
    );
    let log = dir.join("games.jsonl");
    let summary = play_arena(&ArenaArgs {
        threads: Some(1),
        ..args(&format!("halma-agent:{}", agent.display()), 2, &log)
    })
    .unwrap();
    assert_eq!(summary.games, 2);
    assert!(summary.b.name.starts_with("halma-agent:"), "{summary:?}");
    for record in log_records(&log) {
        assert!(record["forfeit"].is_null(), "{record}");
        assert_eq!(record["moves"].as_array().unwrap().len(), 40, "{record}");
    }
    // GAME mode, the agent's side, and its clock running down from 30 s by
    // what each move took.
    let seen = std::fs::read_to_string(&clocks).unwrap();
    let lines: Vec<&str> = seen.lines().collect();
    assert_eq!(lines.len(), 2 * 19, "{seen}");
    let first_game: Vec<f64> = lines[..19]
        .iter()
        .map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(words[0], "GAME", "{line}");
            assert!(["BLACK", "WHITE"].contains(&words[1]), "{line}");
            words[2].parse().unwrap()
        })
        .collect();
    assert_eq!(first_game[0], 30.0, "{seen}");
    assert!(first_game.windows(2).all(|w| w[1] < w[0]), "{seen}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn the_states_camp_rule_binds_the_program_too() {
    let dir = scratch(&unique_tag("halma-agent", "basic"));
    let log = dir.join("games.jsonl");
    let program = format!(
        "halma-agent:{} halma --level minimax --camp-rule basic",
        env!("CARGO_BIN_EXE_gamebot")
    );
    let summary = play_arena(&ArenaArgs {
        options: Some(r#"{"camp_rule":"basic"}"#.into()),
        ..args(&program, 2, &log)
    })
    .unwrap();
    assert_eq!(summary.b.forfeits + summary.b.timeouts, 0, "{summary:?}");
    // A move onto an occupied cell is refused under any rule.
    let occupied = script(&dir, "occupied.sh", "echo 'E 1,1 0,0' > output.txt\n");
    let log = dir.join("occupied.jsonl");
    play_arena(&args(
        &format!("halma-agent:{}", occupied.display()),
        1,
        &log,
    ))
    .unwrap();
    let record = &log_records(&log)[0];
    assert_eq!(record["forfeit"], "B", "{record}");
    assert!(
        record["reason"].as_str().unwrap().starts_with("illegal: "),
        "{record}"
    );
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn bad_programs_forfeit_with_the_reason_and_leave_no_process() {
    let tag = unique_tag("halma-agent", "bad");
    let dir = scratch(&tag);
    let cases = [
        (
            "hang",
            format!("sh -c 'sleep 1000; :' {tag}-child &\nsleep 1000\n"),
            "timeout after 350 ms",
        ),
        (
            "garbage",
            "echo 'hello there' > output.txt\n".to_string(),
            "illegal: \"hello there\"",
        ),
        ("exit1", "exit 1\n".to_string(), "exit code 1"),
        ("silent", "exit 0\n".to_string(), "no output.txt"),
        (
            "empty",
            ": > output.txt\n".to_string(),
            "no move in output.txt",
        ),
        (
            "illegal",
            "echo 'E 7,7 8,8' > output.txt\n".to_string(),
            "illegal: \"E 7,7 8,8\"",
        ),
    ];
    for (what, body, reason) in &cases {
        let program = script(&dir, &format!("{what}-{tag}.sh"), body);
        let log = dir.join(format!("{what}.jsonl"));
        let summary = play_arena(&ArenaArgs {
            b_clock_s: Some(0.3),
            ..args(&format!("halma-agent:{}", program.display()), 2, &log)
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
    let left = processes_mentioning(&tag);
    assert!(left.is_empty(), "processes left behind: {left:#?}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn twenty_games_against_a_hanging_program_leave_no_process() {
    let tag = unique_tag("halma-agent", "hang20");
    let dir = scratch(&tag);
    let program = script(
        &dir,
        &format!("hang-{tag}.sh"),
        &format!("sh -c 'sleep 1000; :' {tag}-child &\n(sleep 1000; :) &\nsleep 1000\n"),
    );
    let log = dir.join("games.jsonl");
    let summary = play_arena(&ArenaArgs {
        b_clock_s: Some(0.1),
        ..args(&format!("halma-agent:{}", program.display()), 20, &log)
    })
    .unwrap();
    assert_eq!(
        (summary.a.wins, summary.b.timeouts),
        (20, 20),
        "{summary:?}"
    );
    let left = processes_mentioning(&tag);
    assert!(left.is_empty(), "processes left behind: {left:#?}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn working_folder_players_need_a_game_with_an_agent_input() {
    let log = std::env::temp_dir().join(unique_tag("halma-agent", "reversi"));
    let error = play_arena(&ArenaArgs {
        game: "reversi".into(),
        ..args("halma-agent:/bin/true", 1, &log)
    })
    .unwrap_err();
    assert!(error.to_string().contains("halma-agent:"), "{error}");
}
