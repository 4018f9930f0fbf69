//! The naughts terminal game driven by scripted input, compared with a
//! checked-in transcript, plus bot games, stalemates, passes and end of input.

use gamebot::cli::naughts::{checked_level, play, Session};
use gamebot::game::{BotParams, Budget, Game, LevelSpec};
use gamebot::games::naughts::{Naughts, State};

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

const TRANSCRIPT: &str = include_str!("data/naughts/transcript.txt");

/// Two people: help, every message of the table, covering, a win on the
/// diagonal, another game that input ends in the middle of.
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

#[test]
fn scripted_game_matches_the_transcript() {
    let output = run(&session(None), SCRIPTED_INPUT);
    if output != TRANSCRIPT {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/target/naughts_transcript.actual.txt"
        );
        std::fs::write(path, &output).unwrap();
        panic!("the transcript differs; the actual output is in {path}");
    }
}

#[test]
fn windows_line_endings_are_accepted() {
    let crlf = SCRIPTED_INPUT.replace('\n', "\r\n");
    assert_eq!(run(&session(None), &crlf), TRANSCRIPT);
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
            state = state.apply(&choice.mv);
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
            state = state.apply(&mv);
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
