//! The naughts terminal game driven by scripted input: whole transcripts of
//! the real binary compared with files under `tests/data/naughts/`, plus bot
//! games, stalemates, passes and end of input run in-process.

use crate::common::*;
use gamebot::cli::naughts::{checked_level, play, Session};
use gamebot::game::{BotParams, Bots, Budget, Codec, LevelSpec, Rules};
use gamebot::games::naughts::{Naughts, State};
use std::io::Write;
use std::process::{Command, Stdio};

fn session(bot: Option<&str>) -> Session {
    Session {
        grid_size: 3,
        pieces: 5,
        bot: bot.map(|b| checked_level(b).unwrap()),
        seed: 42,
        bot_time_ms: 5_000,
    }
}

fn run(session: &Session, input: &str) -> String {
    let mut output = Vec::new();
    play(session, input.as_bytes(), &mut output).unwrap();
    String::from_utf8(output).unwrap()
}

/// Two people on 3×3: help (`h` and `H`), every message of the table,
/// covering, a win on the anti-diagonal, another game that input ends in the
/// middle of.
const SCRIPTED_INPUT: &str = "\
h
22 5
4 2 5
2 4 5
2 2 6
2 2 3
H
2 2 3
1 1 2
1 1 2
1 1 4
3 3 5
1 3 2
1 2 1
3 1 5
Y
2 2 5
2 2 1
";

/// 2×2: help, the format error, a row, column and size just past the small
/// board's limits, covering refused both ways, a win on row 1, and declining
/// another game.
const GRID_2_INPUT: &str = "\
h
1 1
3 1 1
1 3 1
1 1 6
1 1 5
1 1 5
2 2 5
2 2 4
1 2 4
n
";

/// 6×6 with 5 pieces: no side can fill a line of six, so both hands run out
/// (the empty hands print as `O has:` and `X has:`) and the game is a
/// stalemate; then another game, which input ends at its first prompt.
const GRID_6_INPUT: &str = "\
1 1 1
7 1 1
1 7 1
6 6 6
1 1 2
6 6 5
3 4 5
1 1 3
6 1 1
2 2 4
5 5 3
4 3 2
6 6 4
2 6 4
y
";

/// 3×3 with 6 pieces: naughts' last marker (a 1) fits on no cell while
/// crosses can still cover X2 with its 4, so the turn passes to crosses; then
/// neither can move and the game is a stalemate.
const PASS_INPUT: &str = "\
2 1 3
2 3 5
3 2 5
3 1 1
1 2 6
2 2 6
3 3 4
1 1 2
1 3 2
3 1 3
1 1 4
n
";

/// Runs `gamebot naughts` with `args`, `input` piped to its standard input,
/// and returns what it printed.
fn run_binary(args: &[&str], input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamebot"))
        .arg("naughts")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the gamebot binary starts");
    let mut stdin = child.stdin.take().expect("a piped stdin");
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    let finished = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&finished.stderr);
    assert!(
        finished.status.success(),
        "gamebot naughts {args:?} failed: {stderr}"
    );
    String::from_utf8(finished.stdout).expect("the output is UTF-8")
}

/// The first line where `actual` departs from `expected`, with its neighbours, for a failure message.
fn first_difference(expected: &str, actual: &str) -> String {
    let (expected, actual): (Vec<&str>, Vec<&str>) =
        (expected.split('\n').collect(), actual.split('\n').collect());
    let at = (0..expected.len().max(actual.len()))
        .find(|&i| expected.get(i) != actual.get(i))
        .unwrap_or(0);
    let around = at.saturating_sub(3)..(at + 2);
    let show = |lines: &[&str]| {
        around
            .clone()
            .filter_map(|i| lines.get(i).map(|line| format!("{:>4} {line:?}", i + 1)))
            .collect::<Vec<_>>()
            .join("\n")
    };
    format!(
        "first difference at line {}\nexpected:\n{}\nactual:\n{}",
        at + 1,
        show(&expected),
        show(&actual)
    )
}

/// Compares `actual` with the checked-in `tests/data/naughts/{name}`; on a
/// mismatch writes the actual output under `target/` and fails with the first
/// differing lines.
fn assert_transcript(name: &str, actual: &str) {
    let expected = data::text(&format!("naughts/{name}"));
    if actual == expected {
        return;
    }
    let path = format!(
        "{}/target/naughts-{name}.actual",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::write(&path, actual).unwrap();
    panic!(
        "the transcript differs from tests/data/naughts/{name}; the actual output is in {path}\n{}",
        first_difference(&expected, actual)
    );
}

#[test]
fn scripted_game_matches_the_transcript() {
    assert_transcript("transcript.txt", &run_binary(&[], SCRIPTED_INPUT));
}

#[test]
fn two_by_two_game_matches_its_transcript() {
    let output = run_binary(&["--grid-size", "2"], GRID_2_INPUT);
    assert_transcript("grid-2x2.txt", &output);
}

#[test]
fn six_by_six_stalemate_matches_its_transcript() {
    let output = run_binary(&["--grid-size", "6"], GRID_6_INPUT);
    assert_transcript("grid-6x6.txt", &output);
}

#[test]
fn a_pass_matches_its_transcript() {
    let output = run_binary(&["--pieces", "6"], PASS_INPUT);
    assert_transcript("pass-3x3-6-pieces.txt", &output);
}

#[test]
fn windows_line_endings_are_accepted() {
    let crlf = SCRIPTED_INPUT.replace('\n', "\r\n");
    assert_transcript("transcript.txt", &run(&session(None), &crlf));
}

#[test]
fn declining_another_game_ends_the_session() {
    let output = run(&session(None), "1 1 1\n2 1 1\n1 2 2\n2 2 2\n1 3 3\nn\n");
    assert!(
        output.contains("Naughts (O) wins! (O completed row 1)"),
        "{output}"
    );
    assert!(
        output.ends_with("Play again? (y/n): Thanks for playing!\n"),
        "{output}"
    );
}

#[test]
fn end_of_input_at_any_prompt_ends_cleanly() {
    for input in ["", "1 1", "1 1 1\n", "1 1 1\n2 1 1\n1 2 2\n2 2 2\n1 3 3\n"] {
        let output = run(&session(None), input);
        assert!(output.ends_with('\n'), "{input:?}: {output}");
    }
}

#[test]
fn the_bot_plays_crosses() {
    let output = run(&session(Some("perfect")), "2 2 5\n1 1 5\n1 1 1\n");
    assert!(output.contains("Crosses (X) plays "), "{output}");
    assert!(
        !output.contains("Crosses (X) to move.\nEnter your move"),
        "{output}"
    );
    // Greedy with a seed plays the same game every time.
    let greedy = session(Some("greedy"));
    let input = "2 2 5\n1 1 5\n3 3 4\n1 3 3\n3 1 2\n2 1 1\nn\n";
    assert_eq!(run(&greedy, input), run(&greedy, input));
}

#[test]
fn unknown_levels_are_refused() {
    assert!(checked_level("oracle").is_err());
    assert!(checked_level("greedy").is_ok());
}

/// Finds, by seeded play at `level`, a game that ends in the state `wanted` accepts.
fn find_game(level: &str, pieces: u8, wanted: impl Fn(&[String], &State) -> bool) -> Vec<String> {
    let level = LevelSpec::parse(level).unwrap();
    for seed in 0..10_000u64 {
        let mut state = State::new(3, pieces);
        let mut moves = Vec::new();
        let mut ply = 0;
        while !Naughts::outcome(&state).is_over() {
            let params = BotParams::seeded(seed * 100 + ply);
            let choice =
                Naughts::choose_move(&state, &level, &params, &Budget::unlimited()).unwrap();
            moves.push(Naughts::notation(&state, &choice.mv));
            state = state.play(&choice.mv);
            ply += 1;
        }
        if wanted(&moves, &state) {
            return moves;
        }
    }
    panic!("no such game found");
}

#[test]
fn stalemates_and_passes_are_announced() {
    // Perfect play from the start is a draw: both sides run out of moves.
    let moves = find_game("perfect", 5, |_, end| end.is_stalemate());
    let output = run(&session(None), &(moves.join("\n") + "\nn\n"));
    assert!(
        output.contains("Stalemate! Neither player can move: it's a draw."),
        "{output}"
    );

    // A game where one side runs out of moves and the other goes on (with
    // 5 pieces on 3×3 that cannot happen: the side behind always has an empty cell).
    let moves = find_game("random", 9, |moves, _| {
        let mut state = State::new(3, 9);
        let mut passed = false;
        for text in moves {
            let mover = state.to_move();
            let mv = Naughts::parse_move(&state, &serde_json::json!(text)).unwrap();
            state = state.play(&mv);
            passed |= !Naughts::outcome(&state).is_over() && state.to_move() == mover;
        }
        passed
    });
    let nine = Session {
        pieces: 9,
        ..session(None)
    };
    let output = run(&nine, &(moves.join("\n") + "\nn\n"));
    assert!(
        output.contains("cannot move, so the turn passes to"),
        "{output}"
    );
}
