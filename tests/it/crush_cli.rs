//! The `gamebot crush` program run as the course ran it: the real binary, no
//! options, swap files piped into standard input in both of the forms the
//! course's `scanf("%d")` accepted, compared with the course game's known
//! total and with a checked-in transcript.

use crate::common::*;

use gamebot::game::{Codec, Rules};
use gamebot::games::crush::{board_text, Crush};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The total of the recorded greedy game of the course preset
/// (`RECORDED_TOTAL` in the crush unit tests).
const COURSE_GAME_TOTAL: i64 = 16_478;

/// The prompt before every swap.
const PROMPT: &str = "swap (e.g. 2122): ";

/// `gamebot crush` with `args`, its standard input and output piped.
fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_gamebot"))
        .arg("crush")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the gamebot binary starts")
}

/// Everything `gamebot crush` with `args` prints when `input` is piped in;
/// the program must succeed.
fn run(args: &[&str], input: &str) -> String {
    let mut child = spawn(args);
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = input.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("the program runs");
    writer
        .join()
        .expect("the writer thread")
        .expect("the input is written");
    assert!(
        output.status.success(),
        "gamebot crush {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("utf-8 output")
}

/// The total a transcript ends with.
fn total(transcript: &str) -> i64 {
    transcript
        .lines()
        .find_map(|l| l.strip_prefix("Total score: "))
        .unwrap_or_else(|| panic!("no total in:\n{transcript}"))
        .parse()
        .expect("the total is a number")
}

/// The total of the recorded game, replayed through the library.
fn replayed_total(swaps: &str) -> i64 {
    let mut state = Crush::new_course();
    for line in swaps.lines() {
        let swap = Crush::parse_move(&state, &serde_json::json!(line.trim())).unwrap();
        state = Crush::apply(&state, &swap);
    }
    state.score()
}

/// The recorded game as a course test file: one four-digit swap a line,
/// without the repository's comment line (see
/// `a_comment_line_is_read_as_words_like_scanf_would`).
fn course_test_file() -> String {
    let recorded = data::text("crush/course-game.txt");
    let comment = recorded.lines().next().unwrap_or_default();
    assert!(
        comment.starts_with('#'),
        "the recording opens with a comment"
    );
    recorded[comment.len()..].trim_start().to_string()
}

#[test]
fn both_forms_of_the_course_game_give_its_known_total_without_options() {
    let four_digits = course_test_file();
    let scanf_form = data::text("crush/course-game-scanf.txt");
    assert!(four_digits.lines().all(|l| l.len() == 4));
    assert!(four_digits.lines().any(|l| l.starts_with('0')));
    assert!(scanf_form.lines().any(|l| l.split_whitespace().count() > 1));
    assert!(!scanf_form.split_whitespace().any(|w| w.starts_with('0')));
    assert_eq!(replayed_total(&four_digits), COURSE_GAME_TOTAL);

    let from_four_digits = run(&[], &four_digits);
    let from_scanf_form = run(&[], &scanf_form);
    assert_eq!(total(&from_four_digits), COURSE_GAME_TOTAL);
    assert_eq!(total(&from_scanf_form), COURSE_GAME_TOTAL);
    assert!(from_four_digits.contains("swaps left 0\n"));
    assert!(!from_four_digits.contains("invalid swap"));
    assert_eq!(from_four_digits, from_scanf_form);
}

/// The recording's comment line is not part of the course's format: piped in
/// whole, its words are read like any others, as scanf would. Most warn, but
/// `100` is the swap 0100 (cells 01 and 00, written 0001), which is played
/// first.
#[test]
fn a_comment_line_is_read_as_words_like_scanf_would() {
    let recorded = data::text("crush/course-game.txt");
    let output = run(&[], &recorded);
    let comment = recorded.lines().next().unwrap();
    let first_swap = output
        .lines()
        .filter_map(|l| l.strip_prefix(PROMPT))
        .find(|l| l.starts_with("swap "));
    assert_eq!(first_swap, Some("swap 0001:"));
    assert_eq!(
        output.matches("invalid swap: ").count(),
        comment.split_whitespace().count() - 1
    );
    assert_ne!(total(&output), COURSE_GAME_TOTAL);
}

#[test]
fn a_short_game_with_invalid_swaps_matches_the_transcript() {
    let input = data::text("crush/short-game-input.txt");
    let expected = data::text("crush/short-game-transcript.txt");
    let output = run(&[], &input);
    if output != expected {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/target/crush_short_game.actual.txt"
        );
        std::fs::write(path, &output).unwrap();
        panic!("the transcript differs; the actual output is in {path}");
    }
}

#[test]
fn the_transcript_shows_what_the_rules_describe() {
    let transcript = data::text("crush/short-game-transcript.txt");
    let course = Crush::new_course();
    let opening = format!(
        "Number Crush, k = 4, 100 swaps\n{}",
        board_text(course.board())
    );
    assert!(
        transcript.starts_with(&opening),
        "starts from the course board"
    );
    let warnings: Vec<&str> = transcript
        .lines()
        .filter_map(|l| l.strip_prefix(PROMPT))
        .filter_map(|l| l.strip_prefix("invalid swap: "))
        .collect();
    for word in ["hello", "12345", "-102", "12ab"] {
        let warning = format!("'{word}' is not a swap: ");
        assert!(
            warnings.iter().any(|w| w.starts_with(&warning)),
            "{word} warns"
        );
    }
    assert!(warnings
        .iter()
        .any(|w| w.starts_with("cells 30 and 41 are not adjacent")));
    assert!(warnings.iter().any(|w| w.contains("both are 00")));
    assert_eq!(warnings.len(), 6);
    assert!(warnings.iter().all(|w| w.ends_with("; try again")));
    for played in ["swap 3040:", "swap 0102:", "swap 6061:", "swap 0001:"] {
        assert!(
            transcript.contains(&format!("{PROMPT}{played}\n")),
            "{played}"
        );
    }
    assert!(transcript.contains("  step 1: eliminated 40 50 60 (3 in a column, 9 points)\n"));
    assert!(transcript.contains("score +158 = 158, swaps left 99\n"));
    assert!(transcript.contains("swaps left 96\n"));
    assert!(transcript.contains("end of input\nTotal score: 529\nFinal board:\n"));
}

/// How long the program may take to answer swaps it has been given.
const ANSWER_WITHIN: Duration = Duration::from_secs(30);

/// Waits for a line of `lines` that ends with `ending`; every line up to it,
/// or `None` when the program does not print it in time.
fn wait_for_line(lines: &mpsc::Receiver<String>, ending: &str) -> Option<Vec<String>> {
    let deadline = Instant::now() + ANSWER_WITHIN;
    let mut seen = Vec::new();
    while let Ok(line) = lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
        let found = line.ends_with(ending);
        seen.push(line);
        if found {
            return Some(seen);
        }
    }
    None
}

/// The lines the program prints, sent on as they come.
fn line_by_line(output: impl Read + Send + 'static) -> mpsc::Receiver<String> {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(output).lines().map_while(Result::ok) {
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    receiver
}

#[test]
fn several_swaps_on_an_unfinished_line_are_played_at_once() {
    let mut child = spawn(&[]);
    let mut stdin = child.stdin.take().expect("piped stdin");
    let lines = line_by_line(child.stdout.take().expect("piped stdout"));
    stdin.write_all(b"3040 102 ").expect("the input is written");
    stdin.flush().expect("the input is flushed");
    let answered = wait_for_line(&lines, "swaps left 98");
    if answered.is_none() {
        child.kill().expect("the program we started stops");
    }
    assert!(
        answered.is_some(),
        "the two swaps were not played before the line ended"
    );
    drop(stdin);
    let end = wait_for_line(&lines, "Total score: 158");
    assert!(end.is_some(), "the end of input ends the game");
    assert!(child.wait().expect("the program exits").success());
}

#[test]
fn preset_course_is_the_default_game_and_k_or_seed_pick_a_random_board() {
    let input = data::text("crush/short-game-input.txt");
    assert_eq!(run(&["--preset", "course"], &input), run(&[], &input));
    for (args, k, seed) in [
        (&["--seed", "0"][..], 4, 0),
        (&["--k", "6"][..], 6, 0),
        (&["--k", "5", "--seed", "7"][..], 5, 7),
    ] {
        let opening = format!(
            "Number Crush, k = {k}, 100 swaps\n{}",
            board_text(Crush::new_seeded(k, seed).board())
        );
        assert!(run(args, "").starts_with(&opening), "{args:?}");
    }
}

#[test]
fn the_greedy_bot_replays_the_recorded_course_game_without_options() {
    let output = run(&["--bot", "greedy"], "");
    let played: Vec<&str> = output
        .lines()
        .filter_map(|l| l.strip_prefix("bot swaps "))
        .collect();
    let recorded = data::text("crush/course-game.txt");
    let recorded: Vec<&str> = recorded.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(played, recorded);
    assert_eq!(total(&output), COURSE_GAME_TOTAL);
}

#[test]
fn conflicting_options_are_refused_with_a_message() {
    let mut child = spawn(&["--preset", "course", "--seed", "3"]);
    drop(child.stdin.take());
    let output = child.wait_with_output().expect("the program runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--seed"));
}
