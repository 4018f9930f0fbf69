//! Outside programs in the crush benchmark (`exec:PATH [ARGS…]`, the
//! course's `ai_player(K, board)` as a process), through the real binary:
//! gamebot's own `crush --ai-player` plays the same boards and refills as
//! the built-in level and reaches the same totals, and programs that hang,
//! quit, print garbage or an invalid swap forfeit with the reason (the game
//! stops with its points) and leave no process behind.

use crate::common::outside::{processes_mentioning, scratch, unique_tag};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

const GAMEBOT: &str = env!("CARGO_BIN_EXE_gamebot");

/// The benchmark's output for `levels` over 3 seeds of k = 4 and 7.
fn benchmark(levels: &str) -> String {
    let output = Command::new(GAMEBOT)
        .args(["crush", "--benchmark", "--seeds", "3", "--ks", "4,7"])
        .args(["--time-ms", "200", "--threads", "2", "--levels", levels])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout).unwrap()
}

/// The table's figures (mean, min, max) for the row of `name` and `k`.
fn row(table: &str, name: &str, k: u8) -> Vec<String> {
    let line = table
        .lines()
        .find(|line| {
            line.starts_with(name)
                && line[name.len()..].split_whitespace().next() == Some(&k.to_string())
        })
        .unwrap_or_else(|| panic!("no row {name} {k} in\n{table}"));
    line[name.len()..]
        .split_whitespace()
        .skip(1)
        .take(3)
        .map(str::to_string)
        .collect()
}

/// An executable shell script `name` in `dir` with `body`.
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[test]
fn gamebot_as_ai_player_scores_what_the_built_in_level_scores() {
    let program = format!("exec:{GAMEBOT} crush --ai-player --bot greedy");
    let table = benchmark(&format!("greedy,{program}"));
    for k in [4, 7] {
        let built_in = row(&table, "greedy", k);
        assert_eq!(row(&table, &program, k), built_in, "k {k}:\n{table}");
        assert!(built_in[0].parse::<f64>().unwrap() > 0.0, "{table}");
    }
    assert!(!table.contains("forfeited"), "{table}");
}

#[test]
fn the_ai_player_answers_a_swap_a_line_and_names_a_bad_line() {
    let board = "1234323234234234141142321141412343341214433231232221434141242112142433424331211321144211411342124213";
    let output = Command::new(GAMEBOT)
        .args(["crush", "--ai-player", "--bot", "greedy"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            let mut stdin = child.stdin.take().unwrap();
            writeln!(stdin, "4 {board}\n\n4 {board}\n9 {board}")?;
            drop(stdin);
            child.wait_with_output()
        })
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&output.stdout), "3040\n3040\n");
    assert_eq!(output.status.code(), Some(1));
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(message.contains("line 4: k is '9'"), "{message}");
}

#[test]
fn bad_programs_forfeit_with_the_reason_and_leave_no_process() {
    let tag = unique_tag("crush-exec", "bad");
    let dir = scratch(&tag);
    let cases = [
        (
            "hang",
            format!("sh -c 'sleep 1000; :' {tag}-child &\nsleep 1000\n"),
            "timeout after 2300 ms",
        ),
        (
            "quit",
            "read line; exit 1\n".to_string(),
            "the program quit",
        ),
        (
            "garbage",
            "while read line; do echo hello; done\n".to_string(),
            "illegal: \"hello\"",
        ),
        (
            "far",
            "while read line; do echo 0099; done\n".to_string(),
            "illegal: \"0099\"",
        ),
        (
            "late",
            "read line; echo 3040; read line; sleep 1000\n".to_string(),
            "timeout after 300 ms",
        ),
    ];
    for (what, body, reason) in &cases {
        let program = script(&dir, &format!("{what}-{tag}.sh"), body);
        let table = benchmark(&format!("greedy,exec:{}", program.display()));
        let expected = format!("exec:{} forfeited 6 games", program.display());
        assert!(table.contains(&expected), "{what}:\n{table}");
        let first = table.lines().last().unwrap();
        assert!(first.contains(&format!(": {reason}")), "{what}: {first}");
    }
    let left = processes_mentioning(&tag);
    assert!(left.is_empty(), "processes left behind: {left:#?}");
    std::fs::remove_dir_all(dir).ok();
}
