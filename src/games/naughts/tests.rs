//! Unit tests of the rules, notation, validation, levels and solver.

use super::bots::solver::{self, describe, Solver};
use super::state::full_hand;
use super::*;
use crate::game::{Budget, StopReason};
use proptest::prelude::*;
use serde_json::json;

const O: Side = Side::First;
const X: Side = Side::Second;

/// A state from rows of cell texts ("O3", "X1", ".") and explicit hands; not validated.
fn position(rows: &[&str], pieces: u8, hand_o: &[u8], hand_x: &[u8], to_move: Side) -> State {
    let n = rows.len();
    let mut state = State::new(n as u8, pieces);
    for (r, row) in rows.iter().enumerate() {
        for (c, text) in row.split_whitespace().enumerate() {
            state.cells[r * n + c] = match text {
                "." => Cell::EMPTY,
                t => {
                    let owner = if t.starts_with('O') { O } else { X };
                    Cell::marker(owner, t[1..].parse().unwrap())
                }
            };
        }
    }
    state.hands = [hand_o, hand_x].map(|h| h.iter().fold(0u16, |acc, s| acc | 1 << s));
    state.to_move = to_move;
    state
}

/// The placement a turn makes; tests call it only where a pass cannot be due.
fn placed(turn: Play) -> Move {
    turn.placement()
        .unwrap_or_else(|| panic!("expected a placement, got a pass"))
}

fn typed(state: &State, text: &str) -> Result<Move, GameError> {
    Naughts::parse_move(state, &json!(text)).map(placed)
}

fn code_of<T: std::fmt::Debug>(result: Result<T, GameError>) -> (&'static str, String) {
    match result {
        Err(GameError::IllegalMove { code, detail, .. }) => (code, detail),
        other => panic!("expected an illegal move, got {other:?}"),
    }
}

fn play(state: &State, text: &str) -> State {
    let mv = typed(state, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    state.apply(&mv)
}

fn moves_of(state: &State) -> Vec<Move> {
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    moves
}

fn invalid_pointer(value: Value) -> (Option<String>, String) {
    match Naughts::state_from_json(&value) {
        Err(GameError::InvalidState { pointer, detail }) => (pointer, detail),
        other => panic!("expected invalid_state for {value}, got {other:?}"),
    }
}

fn empty_json() -> Value {
    Naughts::state_to_json(&State::new(3, 5))
}

// ---- setup and JSON ----

#[test]
fn new_game_defaults_and_options() {
    let state = Naughts::new_game(Default::default()).unwrap();
    assert_eq!((state.grid(), state.pieces()), (3, 5));
    assert_eq!(moves_of(&state).len(), 45);
    let options = json!({"grid_size": 8, "pieces": 9});
    let state = crate::game::read_new_options::<Naughts>(&options)
        .and_then(Naughts::new_game)
        .unwrap();
    assert_eq!(moves_of(&state).len(), 64 * 9);
    for bad in [
        json!({"grid_size": 1}),
        json!({"grid_size": 9}),
        json!({"pieces": 4}),
        json!({"pieces": 10}),
        json!({"pieces": "5"}),
        json!({"size": 3}),
    ] {
        assert!(matches!(
            crate::game::read_new_options::<Naughts>(&bad).and_then(Naughts::new_game),
            Err(GameError::InvalidOption { .. })
        ));
    }
}

#[test]
fn state_json_round_trips() {
    let state = play(&play(&State::new(3, 5), "2 2 3"), "2 2 4");
    let value = Naughts::state_to_json(&state);
    assert_eq!(
        value,
        json!({"grid_size": 3, "pieces": 5,
               "board": [["", "", ""], ["", "X4", ""], ["", "", ""]],
               "hands": {"O": [1, 2, 4, 5], "X": [1, 2, 3, 5]}, "to_move": "O"})
    );
    assert_eq!(Naughts::state_from_json(&value).unwrap(), state);
}

#[test]
fn malformed_states_name_the_place() {
    let with = |pointer: &str, v: Value| {
        let mut state = empty_json();
        *state.pointer_mut(pointer).unwrap() = v;
        state
    };
    let cases = [
        (with("/grid_size", json!(1)), "/grid_size"),
        (with("/grid_size", json!(9)), "/grid_size"),
        (with("/pieces", json!(4)), "/pieces"),
        (with("/pieces", json!(10)), "/pieces"),
        (with("/board", json!([["", "", ""]])), "/board"),
        (with("/board/1", json!(["", ""])), "/board/1"),
        (with("/board/2/1", json!("Y3")), "/board/2/1"),
        (with("/board/2/1", json!("O0")), "/board/2/1"),
        (with("/board/2/1", json!("O6")), "/board/2/1"),
        (with("/board/2/1", json!("O33")), "/board/2/1"),
        (with("/hands/O/0", json!(0)), "/hands/O/0"),
        (with("/hands/O/0", json!(6)), "/hands/O/0"),
        (with("/hands/X/1", json!(1)), "/hands/X/1"),
        (with("/hands", json!({"O": [1, 2, 3, 4, 5]})), "/hands"),
        (with("/hands", json!({"O": [], "X": [], "Z": []})), "/hands"),
        (with("/to_move", json!("Z")), "/to_move"),
        (with("/to_move", json!("X")), "/to_move"),
    ];
    for (state, pointer) in cases {
        let (got, detail) = invalid_pointer(state.clone());
        assert_eq!(got.as_deref(), Some(pointer), "{state}: {detail}");
    }
    let shapes = [
        (json!([1, 2]), None),
        (json!({"grid_size": 3}), Some("/pieces")),
        (with("/grid_size", json!(-1)), Some("/grid_size")),
        (with("/pieces", json!("5")), Some("/pieces")),
        (with("/board", json!("...")), Some("/board")),
        (with("/board/1", json!(7)), Some("/board/1")),
        (with("/board/1/2", json!(null)), Some("/board/1/2")),
        (with("/hands", json!([])), Some("/hands")),
        (with("/hands/X", json!({})), Some("/hands/X")),
        (with("/hands/X/2", json!(2.5)), Some("/hands/X/2")),
        (with("/to_move", json!(0)), Some("/to_move")),
    ];
    for (state, pointer) in shapes {
        assert_eq!(
            invalid_pointer(state.clone()).0.as_deref(),
            pointer,
            "{state}"
        );
    }
    let mut extra = empty_json();
    extra["colour"] = json!("red");
    assert_eq!(invalid_pointer(extra).0.as_deref(), Some("/colour"));
}

#[test]
fn visible_markers_must_agree_with_hands() {
    let mut state = empty_json();
    state["board"][0][0] = json!("O3");
    let (pointer, detail) = invalid_pointer(state.clone());
    assert_eq!(pointer.as_deref(), Some("/board/0/0"));
    assert!(detail.contains("hand"), "{detail}");

    state["hands"]["O"] = json!([1, 2, 4, 5]);
    state["board"][1][1] = json!("O3");
    state["to_move"] = json!("X");
    let (pointer, detail) = invalid_pointer(state.clone());
    assert_eq!(pointer.as_deref(), Some("/board/1/1"));
    assert!(detail.contains("twice"), "{detail}");

    // O has played its 1 but nothing on the board is big enough to hide it.
    let mut state = empty_json();
    state["hands"]["O"] = json!([2, 3, 4, 5]);
    state["to_move"] = json!("X");
    let (pointer, detail) = invalid_pointer(state);
    assert_eq!(pointer.as_deref(), Some("/hands"));
    assert!(detail.contains("size 1"), "{detail}");
}

#[test]
fn turn_must_agree_with_markers_played() {
    let mut state = empty_json();
    state["board"][0][0] = json!("O3");
    state["hands"]["O"] = json!([1, 2, 4, 5]);
    assert_eq!(
        invalid_pointer(state.clone()).0.as_deref(),
        Some("/to_move")
    );
    state["to_move"] = json!("X");
    assert!(Naughts::state_from_json(&state).is_ok());
    // Two markers ahead is never possible while both sides can move.
    state["board"][0][1] = json!("O4");
    state["hands"]["O"] = json!([1, 2, 5]);
    assert_eq!(invalid_pointer(state).0.as_deref(), Some("/to_move"));
}

#[test]
fn won_positions_are_checked() {
    let won = json!({"grid_size": 3, "pieces": 5,
        "board": [["O1", "O2", "O3"], ["X1", "X2", ""], ["", "", ""]],
        "hands": {"O": [4, 5], "X": [3, 4, 5]}, "to_move": "X"});
    let state = Naughts::state_from_json(&won).unwrap();
    assert_eq!(
        Naughts::outcome(&state),
        Outcome::Win {
            winner: O,
            reason: "O completed row 1".into(),
            termination: NaughtsTermination::Line,
            score: [3, 2],
        }
    );
    assert!(moves_of(&state).is_empty());
    let mut wrong_turn = won.clone();
    wrong_turn["to_move"] = json!("O");
    assert_eq!(invalid_pointer(wrong_turn).0.as_deref(), Some("/to_move"));
    let both = json!({"grid_size": 3, "pieces": 5,
        "board": [["O1", "O2", "O3"], ["X1", "X2", "X3"], ["", "", ""]],
        "hands": {"O": [4, 5], "X": [4, 5]}, "to_move": "X"});
    assert_eq!(invalid_pointer(both).0.as_deref(), Some("/board"));
}

// ---- typed moves: the table, in order ----

#[test]
fn every_row_of_the_table_has_its_code_and_says_what_was_expected() {
    let state = play(&play(&State::new(3, 5), "2 2 3"), "1 1 2");
    let format = "a move is \"row col size\", one character each with one space between \
                  (\"2 2 5\"), or \"pass\"; got ";
    let cases = [
        ("22 5", "invalid_format", format!("{format}\"22 5\"")),
        ("2 2 5 ", "invalid_format", format!("{format}\"2 2 5 \"")),
        ("2  2 5", "invalid_format", format!("{format}\"2  2 5\"")),
        ("", "invalid_format", format!("{format}\"\"")),
        (
            "4 2 5",
            "invalid_row",
            "row must be 1-3 in notation (0-2 in a move object), got 4".into(),
        ),
        (
            "0 2 5",
            "invalid_row",
            "row must be 1-3 in notation (0-2 in a move object), got 0".into(),
        ),
        (
            "2 a 5",
            "invalid_column",
            "column must be 1-3 in notation (0-2 in a move object), got a".into(),
        ),
        (
            "2 2 6",
            "invalid_size",
            "size must be 1-5 (the sizes of this game's markers), got 6".into(),
        ),
        (
            "2 2 0",
            "invalid_size",
            "size must be 1-5 (the sizes of this game's markers), got 0".into(),
        ),
        (
            "1 3 3",
            "invalid_move",
            "O has already played size 3 (it holds 1, 2, 4, 5)".into(),
        ),
        (
            "2 2 2",
            "invalid_move",
            "cell \"2 2\" holds O3, which is not smaller than 2: a marker goes on an \
             empty cell or over a smaller marker"
                .into(),
        ),
    ];
    for (input, code, detail) in cases {
        assert_eq!(code_of(typed(&state, input)), (code, detail), "{input:?}");
    }
    assert_eq!(
        typed(&state, "2 2 4").unwrap(),
        Move {
            row: 1,
            col: 1,
            size: 4
        }
    );
}

#[test]
fn a_notation_error_points_at_the_whole_move() {
    let game = crate::games::find("naughts").unwrap();
    let state = game.new_game(&json!({})).unwrap().state;
    for text in ["0 0 5", "1 4 5", "1 1 6", "11 5"] {
        match game.play(&state, &json!(text)).unwrap_err() {
            GameError::IllegalMove { pointer, .. } => {
                assert_eq!(pointer.as_deref(), Some("/move"), "{text}")
            }
            other => panic!("{text}: {other:?}"),
        }
    }
}

#[test]
fn an_object_error_points_at_its_field_and_gives_the_range() {
    let game = crate::games::find("naughts").unwrap();
    let state = game
        .new_game(&json!({"grid_size": 4, "pieces": 6}))
        .unwrap()
        .state;
    let state = game.play(&state, &json!("1 1 6")).unwrap().state;
    let state = game.play(&state, &json!("1 2 2")).unwrap().state;
    let cases = [
        (
            json!({"row": 5, "col": 0, "size": 1}),
            "invalid_row",
            "/move/row",
            "row must be 0-3 in a move object (1-4 in notation), got 5",
        ),
        (
            json!({"row": "1", "col": 0, "size": 1}),
            "invalid_row",
            "/move/row",
            "row must be 0-3 in a move object (1-4 in notation), got \"1\"",
        ),
        (
            json!({"row": 0, "col": -1, "size": 1}),
            "invalid_column",
            "/move/col",
            "col must be 0-3 in a move object (1-4 in notation), got -1",
        ),
        (
            json!({"row": 0, "col": 0, "size": 7}),
            "invalid_size",
            "/move/size",
            "size must be 1-6 (the sizes of this game's markers), got 7",
        ),
        (
            json!({"row": 3, "col": 3, "size": 6}),
            "invalid_move",
            "/move/size",
            "O has already played size 6 (it holds 1, 2, 3, 4, 5)",
        ),
        (
            json!({"row": 0, "col": 1, "size": 2}),
            "invalid_move",
            "/move",
            "the cell at row 0, col 1 holds X2, which is not smaller than 2: a marker goes on \
             an empty cell or over a smaller marker",
        ),
        (
            json!({"row": 0, "col": 0, "size": 1, "notation": "1 1 2"}),
            "invalid_format",
            "/move/notation",
            "\"notation\" is \"1 1 2\" but row, col and size say \"1 1 1\"",
        ),
        (
            json!({"row": 0, "col": 0}),
            "invalid_format",
            "/move",
            "the move has no \"size\": expected {\"row\": r, \"col\": c, \"size\": s}",
        ),
    ];
    for (mv, code, pointer, detail) in cases {
        assert_eq!(
            game.play(&state, &mv).unwrap_err(),
            GameError::IllegalMove {
                code,
                pointer: Some(pointer.to_string()),
                detail: detail.to_string(),
            },
            "{mv}"
        );
    }
}

#[test]
fn the_first_failing_check_wins() {
    let state = play(&play(&State::new(3, 5), "1 1 5"), "2 2 5");
    let cases = [
        ("9 9 9 ", "invalid_format"),
        ("x y z", "invalid_row"),
        ("9 9 9", "invalid_row"),
        ("1 9 9", "invalid_column"),
        ("1 1 9", "invalid_size"),
        ("1 1 5", "invalid_move"),
    ];
    for (input, code) in cases {
        assert_eq!(code_of(typed(&state, input)).0, code, "{input:?}");
    }
    // Naughts' 5 is already played: size 5 is still a valid size, so the move check fails.
    assert_eq!(code_of(typed(&state, "3 3 5")).0, "invalid_move");
}

#[test]
fn object_moves_are_zero_based() {
    let state = State::new(3, 5);
    let mv = Naughts::parse_move(&state, &json!({"row": 2, "col": 0, "size": 5})).unwrap();
    assert_eq!(Naughts::notation(&state, &mv), "3 1 5");
    assert_eq!(
        Naughts::move_to_json(&state, &mv),
        json!({"row": 2, "col": 0, "size": 5, "notation": "3 1 5"})
    );
    let bad = [
        (json!({"row": 3, "col": 0, "size": 5}), "invalid_row"),
        (json!({"row": 0, "col": -1, "size": 5}), "invalid_column"),
        (json!({"row": 0, "col": 0, "size": 6}), "invalid_size"),
        (json!({"row": 0, "col": 0}), "invalid_format"),
        (
            json!({"row": 0, "col": 0, "size": 1, "notation": "1 1 2"}),
            "invalid_format",
        ),
        (
            json!({"row": 0, "col": 0, "size": 1, "colour": "red"}),
            "invalid_format",
        ),
        (json!(17), "invalid_format"),
    ];
    for (value, code) in bad {
        assert_eq!(
            code_of(Naughts::parse_move(&state, &value)).0,
            code,
            "{value}"
        );
    }
    let after = play(&state, "1 1 4");
    let (code, detail) = code_of(Naughts::parse_move(
        &after,
        &json!({"row": 0, "col": 0, "size": 3}),
    ));
    assert_eq!(code, "invalid_move");
    assert!(
        detail.starts_with("the cell at row 0, col 0 holds O4, which is not smaller than 3"),
        "{detail}"
    );
}

// ---- rules ----

/// Plays naughts along `line` (cells as (row, col)) while crosses play small
/// markers elsewhere, and checks that the game is won exactly at the last one.
fn win_along(n: u8, line: &[(u8, u8)]) {
    let mut state = State::new(n, 9);
    let spare: Vec<(u8, u8)> = (0..n)
        .flat_map(|r| (0..n).map(move |c| (r, c)))
        .filter(|cell| !line.contains(cell))
        .collect();
    for (i, &(r, c)) in line.iter().enumerate() {
        assert_eq!(state.winner(), None);
        state = state.apply(&Move {
            row: r,
            col: c,
            size: 9 - (i as u8 % 9),
        });
        if i + 1 < line.len() {
            let (xr, xc) = spare[i * 2 % spare.len()];
            state = state.apply(&Move {
                row: xr,
                col: xc,
                size: 1 + i as u8 % 9,
            });
        }
    }
    assert_eq!(state.winner(), Some(O), "{n}x{n} {line:?}");
    assert!(matches!(
        Naughts::outcome(&state),
        Outcome::Win { winner: O, .. }
    ));
    assert!(moves_of(&state).is_empty());
}

#[test]
fn wins_on_rows_columns_and_both_diagonals() {
    for n in [3u8, 4, 5, 8] {
        let k = n.min(9);
        let last = n - 1;
        let _ = k;
        win_along(n, &(0..n).map(|c| (last, c)).collect::<Vec<_>>());
        win_along(n, &(0..n).map(|r| (r, 1)).collect::<Vec<_>>());
        win_along(n, &(0..n).map(|i| (i, i)).collect::<Vec<_>>());
        win_along(n, &(0..n).map(|i| (i, last - i)).collect::<Vec<_>>());
    }
}

#[test]
fn two_by_two_is_won_by_any_pair() {
    let state = play(&play(&State::new(2, 5), "1 1 1"), "2 2 1");
    let won = play(&state, "1 2 2");
    let outcome = Naughts::outcome(&won);
    assert!(
        matches!(&outcome, Outcome::Win { winner: O, reason, .. } if reason == "O completed row 1"),
        "{outcome:?}"
    );
}

#[test]
fn covering_takes_the_cell_and_breaks_lines() {
    let state = State::new(3, 5);
    let state = play(&state, "1 1 2");
    let state = play(&state, "1 1 3");
    assert_eq!(state.cell(0, 0), Cell::marker(X, 3));
    assert_eq!(code_of(typed(&state, "1 1 3")).0, "invalid_move");
    assert_eq!(code_of(typed(&state, "1 1 1")).0, "invalid_move");
    let state = play(&state, "1 1 4");
    assert_eq!(state.cell(0, 0), Cell::marker(O, 4));
    assert_eq!(state.hand(O), vec![1, 3, 5]);
    assert_eq!(state.hand(X), vec![1, 2, 4, 5]);
    // O threatens the top row (O4 O1 .); X breaks it by covering the 1 instead of taking the gap.
    let state = play(&state, "3 3 1");
    let state = play(&state, "1 2 1");
    let wins = |s: &State| {
        moves_of(s)
            .into_iter()
            .filter(|m| s.apply(m).winner().is_some())
            .count()
    };
    assert_eq!(
        wins(&play(&state, "2 2 2")),
        2,
        "O wins at 1 3 with its 3 or its 5"
    );
    let blocked = play(&state, "1 2 2");
    assert_eq!(blocked.cell(0, 1), Cell::marker(X, 2));
    assert_eq!(wins(&blocked), 0);
}

#[test]
fn the_turn_passes_when_the_opponent_is_stuck() {
    // Crosses hold only 1 and 2 and every top is 3 or bigger: only naughts can move.
    let state = position(
        &["O3 X6 O4", "O5 X7 X8", "X9 O6 O7"],
        9,
        &[8, 9],
        &[1, 2],
        O,
    );
    let value = Naughts::state_to_json(&state);
    assert_eq!(Naughts::state_from_json(&value).unwrap(), state);
    // Both sides have played 7 markers, so crosses moved last: the stuck
    // side cannot be to move (it would be right after a move of naughts).
    let mut wrong = value.clone();
    wrong["to_move"] = json!("X");
    let (pointer, detail) = invalid_pointer(wrong);
    assert_eq!(pointer.as_deref(), Some("/to_move"));
    assert!(detail.contains("must then pass"), "{detail}");

    let after = play(&state, "1 1 8");
    assert_eq!(
        after.to_move(),
        O,
        "crosses cannot move, so naughts go again"
    );
    assert_eq!(Naughts::outcome(&after), Outcome::Ongoing);
    let after = play(&after, "1 2 9");
    assert!(matches!(
        Naughts::outcome(&after),
        Outcome::Win { winner: O, .. }
    ));
}

/// Crosses (holding 1 and 2, every top 4 or bigger) are stuck and to move
/// right after naughts covered O3 with O8; naughts can still win with O9 on X6.
fn crosses_must_pass() -> State {
    position(&["O8 X6 O4", "O5 X7 X8", "X9 O6 O7"], 9, &[9], &[1, 2], X)
}

#[test]
fn a_stuck_side_to_move_has_the_pass_as_its_only_move() {
    let state = crosses_must_pass();
    let value = Naughts::state_to_json(&state);
    assert_eq!(Naughts::state_from_json(&value).unwrap(), state);
    assert!(state.must_pass());
    assert_eq!(Naughts::outcome(&state), Outcome::Ongoing);
    let mut turns = Vec::new();
    Naughts::legal_moves(&state, &mut turns);
    assert_eq!(turns, [Play::Pass]);
    assert_eq!(Naughts::notation(&state, &Play::Pass), "pass");
    assert_eq!(
        Naughts::move_to_json(&state, &Play::Pass),
        json!({"row": null, "col": null, "size": null, "notation": "pass"})
    );
    let after = Naughts::apply(&state, &Play::Pass);
    assert_eq!(after.to_move(), O);
    assert_eq!(after.cells, state.cells);
    assert_eq!(after.hands, state.hands);
    let won = play(&after, "1 2 9");
    assert!(matches!(
        Naughts::outcome(&won),
        Outcome::Win { winner: O, .. }
    ));
}

#[test]
fn a_pass_is_read_in_every_form_and_only_when_due() {
    let stuck = crosses_must_pass();
    let forms = [
        json!("pass"),
        json!(" PASS "),
        json!({"row": null, "col": null, "size": null}),
        json!({"row": null, "col": null, "size": null, "notation": "pass"}),
        json!({"notation": "pass"}),
    ];
    for form in &forms {
        assert_eq!(
            Naughts::parse_move(&stuck, form).unwrap(),
            Play::Pass,
            "{form}"
        );
    }
    let (code, detail) = code_of(Naughts::parse_move(&State::new(3, 5), &json!("pass")));
    assert_eq!(code, "invalid_move");
    assert!(detail.contains("O cannot pass"), "{detail}");
    let (code, detail) = code_of(Naughts::parse_move(&stuck, &json!("1 1 2")));
    assert_eq!(code, "invalid_move");
    assert!(detail.starts_with("cell \"1 1\" holds"), "{detail}");
    assert!(
        detail.ends_with("(X has no legal move and must pass)"),
        "{detail}"
    );
    let half = json!({"row": null, "col": 0, "size": 1});
    assert_eq!(
        code_of(Naughts::parse_move(&stuck, &half)).0,
        "invalid_format"
    );
    let unknown = json!({"row": null, "col": null, "size": null, "why": "stuck"});
    let (code, detail) = code_of(Naughts::parse_move(&stuck, &unknown));
    assert_eq!(code, "invalid_format");
    assert!(detail.contains("\"why\""), "{detail}");
    let disagreeing = json!({"row": null, "col": null, "size": null, "notation": "1 1 1"});
    assert_eq!(
        code_of(Naughts::parse_move(&stuck, &disagreeing)).0,
        "invalid_format"
    );
}

#[test]
fn every_level_passes_when_it_must() {
    let state = crosses_must_pass();
    for level in ["random", "greedy", "perfect"] {
        let spec = LevelSpec::parse(level).unwrap();
        let choice =
            Naughts::choose_move(&state, &spec, &BotParams::seeded(1), &Budget::unlimited())
                .unwrap();
        assert_eq!(choice.mv, Play::Pass, "{level}");
    }
    let oracle = LevelSpec::<super::NaughtsLevel>::parse("oracle").unwrap_err();
    assert_eq!(
        oracle.to_string(),
        "unknown level 'oracle'; this game has: random, greedy, perfect"
    );
}

#[test]
fn analyze_values_the_pass_from_the_side_that_passes() {
    let state = crosses_must_pass();
    let analysis =
        Naughts::analyze(&state, 100, &BotParams::seeded(0), &Budget::unlimited()).unwrap();
    assert_eq!(analysis.moves.len(), 1);
    let pass = &analysis.moves[0];
    assert_eq!(pass.mv, Play::Pass);
    assert_eq!(pass.exact.as_deref(), Some("loss in 1"));
    assert_eq!(pass.pv[0], Play::Pass);
    let winning = state.pass().play(&pass.pv[1]);
    assert_eq!(winning.winner(), Some(O));
    assert_eq!(analysis.report.score, Some(pass.score));
}

#[test]
fn stalemate_when_nobody_can_move() {
    let state = position(&["O3 X6 O4", "O5 X7 X8", "X9 O6 O9"], 9, &[8], &[1, 2], O);
    let after = play(&state, "1 1 8");
    assert!(after.is_stalemate());
    // The tally counts the cells each side's marker tops: O five, X four.
    assert_eq!(
        Naughts::outcome(&after),
        Outcome::Draw {
            reason: "stalemate: neither side can move".into(),
            termination: NaughtsTermination::Stalemate,
            score: [5, 4],
        }
    );
    assert!(moves_of(&after).is_empty());
    let mut turns = Vec::new();
    Naughts::legal_moves(&after, &mut turns);
    assert!(turns.is_empty(), "a stalemate has no pass: {turns:?}");
    let reread = Naughts::state_from_json(&Naughts::state_to_json(&after)).unwrap();
    assert_eq!(reread, after);
}

#[test]
fn the_opponent_side_is_to_move_after_a_win() {
    let state = State::new(3, 5);
    let state = ["1 1 1", "2 1 1", "1 2 2", "2 2 2"]
        .iter()
        .fold(state, |s, m| play(&s, m));
    let won = play(&state, "1 3 3");
    assert_eq!(won.to_move(), X);
    assert_eq!(won.hands[X.index()], full_hand(5) & !(1 << 1) & !(1 << 2));
}

// ---- levels ----

fn bot(state: &State, level: &str, seed: u64) -> BotChoice<Move> {
    let spec = LevelSpec::parse(level).unwrap();
    let choice =
        Naughts::choose_move(state, &spec, &BotParams::seeded(seed), &Budget::unlimited()).unwrap();
    BotChoice {
        mv: placed(choice.mv),
        report: choice.report,
    }
}

#[test]
fn random_is_seeded() {
    let state = State::new(4, 7);
    let a = bot(&state, "random", 7).mv;
    assert_eq!(a, bot(&state, "random", 7).mv);
    let distinct: std::collections::HashSet<_> =
        (0..20).map(|s| bot(&state, "random", s).mv).collect();
    assert!(distinct.len() > 5);
}

#[test]
fn greedy_wins_then_blocks() {
    // O to move can win on the top row.
    let state = ["1 1 1", "3 1 1", "1 2 2", "3 2 2"]
        .iter()
        .fold(State::new(3, 5), |s, m| play(&s, m));
    for seed in 0..10 {
        let mv = bot(&state, "greedy", seed).mv;
        assert!(state.apply(&mv).winner() == Some(O), "seed {seed}: {mv:?}");
    }
    // X to move must stop O's top row (O1 O2 .), by the empty cell or by covering.
    let state = ["1 1 1", "3 1 1", "1 2 2"]
        .iter()
        .fold(State::new(3, 5), |s, m| play(&s, m));
    for seed in 0..20 {
        let mv = bot(&state, "greedy", seed).mv;
        let after = state.apply(&mv);
        assert!(
            moves_of(&after)
                .iter()
                .all(|m| after.apply(m).winner().is_none()),
            "seed {seed}: {mv:?}"
        );
    }
}

#[test]
fn perfect_takes_an_immediate_win_and_reports_it() {
    let state = ["1 1 1", "3 1 1", "1 2 2", "3 2 2"]
        .iter()
        .fold(State::new(3, 5), |s, m| play(&s, m));
    let choice = bot(&state, "perfect", 0);
    assert_eq!(state.apply(&choice.mv).winner(), Some(O));
    assert_eq!(choice.report.proven, Some(true));
    assert_eq!(choice.report.stopped_by, Some(StopReason::Proven));
    assert_eq!(choice.report.notes["value"], json!("win in 1"));
}

#[test]
fn perfect_respects_tiny_budgets_on_big_grids() {
    let state = State::new(8, 9);
    let spec = LevelSpec::parse("perfect").unwrap();
    let budget = Budget::unlimited().nodes(2_000);
    let choice = Naughts::choose_move(&state, &spec, &BotParams::seeded(1), &budget).unwrap();
    assert!(state.allows(&placed(choice.mv)));
    assert_eq!(choice.report.proven, Some(false));
    let again = Naughts::choose_move(&state, &spec, &BotParams::seeded(1), &budget).unwrap();
    assert_eq!(again.mv, choice.mv, "node budgets are deterministic");
    let timed = Budget::with_time_ms(30);
    let choice = Naughts::choose_move(&state, &spec, &BotParams::seeded(1), &timed).unwrap();
    assert!(state.allows(&placed(choice.mv)));
    let deep = Budget::unlimited().depth(1);
    let choice = Naughts::choose_move(&state, &spec, &BotParams::seeded(1), &deep).unwrap();
    assert_eq!(choice.report.depth, Some(1));
    // 3×3 with 9 pieces can take seconds to solve (past the opening book): a
    // short budget still gives a move, and says whether it got to proving it
    // (how far it gets depends on the machine and on what the shared table
    // already holds, so either answer is right as long as it is honest).
    let state = play(&play(&State::new(3, 9), "1 2 8"), "2 2 9");
    assert!(super::bots::book::book_move(&state).is_none());
    let short = Budget::with_time_ms(200);
    let choice = Naughts::choose_move(&state, &spec, &BotParams::seeded(1), &short).unwrap();
    assert!(state.allows(&placed(choice.mv)));
    match choice.report.stopped_by {
        Some(StopReason::Time) => assert_eq!(choice.report.proven, Some(false)),
        Some(StopReason::Proven) => assert_eq!(choice.report.proven, Some(true)),
        other => panic!("a timed solve stops for time or proof, not {other:?}"),
    }
}

#[test]
fn levels_reject_options_and_unknown_names() {
    let state = State::new(3, 5);
    let params = BotParams::seeded(0);
    let spec = LevelSpec::parse("perfect:depth=3").unwrap();
    assert!(Naughts::choose_move(&state, &spec, &params, &Budget::unlimited()).is_err());
    assert!(LevelSpec::<super::NaughtsLevel>::parse("oracle").is_err());
}

#[test]
fn analyze_gives_exact_values() {
    // X to move must block O's top row; every other move loses at once.
    let state = ["1 1 1", "3 1 1", "1 2 2"]
        .iter()
        .fold(State::new(3, 5), |s, m| play(&s, m));
    let analysis =
        Naughts::analyze(&state, 100, &BotParams::seeded(0), &Budget::unlimited()).unwrap();
    assert_eq!(analysis.report.proven, Some(true));
    assert_eq!(analysis.moves.len(), moves_of(&state).len());
    for scored in &analysis.moves {
        let exact = scored.exact.as_deref().expect("proven");
        assert_eq!(exact, describe(scored.score as i32));
        assert_eq!(scored.pv[0], scored.mv);
        let after = state.play(&scored.mv);
        if moves_of(&after)
            .iter()
            .any(|m| after.apply(m).winner().is_some())
        {
            assert_eq!(exact, "loss in 2", "{:?}", scored.mv);
        }
    }
    let best = &analysis.moves[0];
    assert!(analysis.moves.windows(2).all(|w| w[0].score >= w[1].score));
    assert_ne!(best.exact.as_deref(), Some("loss in 2"));
}

#[test]
fn solver_values_agree_with_a_plain_minimax_on_small_games() {
    // 2×2 with 5 pieces: every position two plies in, solver vs brute force.
    fn minimax(state: &State) -> i32 {
        if state.winner().is_some() {
            return -(solver::WIN);
        }
        let moves = moves_of(state);
        if moves.is_empty() {
            return 0;
        }
        moves
            .iter()
            .map(|mv| {
                let child = state.apply(mv);
                let v = if child.winner().is_some() {
                    -(solver::WIN)
                } else if child.to_move() == state.to_move() {
                    -minimax(&child)
                } else {
                    minimax(&child)
                };
                let v = -v;
                v - v.signum()
            })
            .max()
            .unwrap()
    }
    let start = State::new(2, 5);
    for first in moves_of(&start) {
        let state = start.apply(&first);
        let budget = Budget::unlimited();
        let solution = Solver::new(2, &budget, 12).solve(&state, true);
        let expected = minimax(&state);
        assert_eq!(solution.moves[0].score, expected, "after {first:?}");
        assert!(solution.moves.iter().all(|r| r.proven));
    }
}

// ---- through the type-erased view ----

#[test]
fn the_registry_serves_naughts() {
    let game = crate::games::find("naughts").unwrap();
    let listing = game.listing();
    assert_eq!((listing.id, listing.default_level), ("naughts", "perfect"));
    let state = game.new_game(&json!({"grid_size": 4})).unwrap().state;
    let moves = game.legal_moves(&state).unwrap();
    assert_eq!(moves.count, 16 * 5);
    assert_eq!(
        moves.moves[0],
        json!({"row": 0, "col": 0, "size": 1, "notation": "1 1 1"})
    );
    let played = game.play(&state, &json!("2 3 5")).unwrap();
    assert_eq!(played.state["board"][1][2], json!("O5"));
    assert_eq!(played.outcome, json!({"status": "ongoing"}));
    let err = game.play(&state, &json!("2 3 6")).unwrap_err();
    assert_eq!(
        err,
        GameError::IllegalMove {
            code: "invalid_size",
            pointer: Some("/move".to_string()),
            detail: "size must be 1-5 (the sizes of this game's markers), got 6".to_string()
        }
    );
    let mut bad = state.clone();
    bad["board"][3][3] = json!("Q");
    match game.legal_moves(&bad) {
        Err(GameError::InvalidState { pointer, .. }) => {
            assert_eq!(pointer.as_deref(), Some("/state/board/3/3"))
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_registry_bot_answers_small_boards_proven() {
    let game = crate::games::find("naughts").unwrap();
    let state = game.new_game(&json!({})).unwrap().state;
    let request = crate::game::erased::BotRequest {
        state: crate::game::erased::StateInput::Json(state),
        seed: Some(3),
        ..Default::default()
    };
    let reply = game
        .bot_move(&request, &Budget::with_time_ms(5_000))
        .unwrap();
    assert_eq!(reply.search.proven, Some(true));
    assert_eq!(reply.search.level, "perfect");
}

// ---- property tests ----

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_playouts_respect_the_rules(grid in 2u8..=5, pieces in 5u8..=9, picks in proptest::collection::vec(any::<u16>(), 0..60)) {
        let mut state = State::new(grid, pieces);
        for pick in picks {
            let moves = moves_of(&state);
            prop_assert_eq!(moves.is_empty(), Naughts::outcome(&state).is_over());
            if moves.is_empty() {
                break;
            }
            let json = Naughts::state_to_json(&state);
            prop_assert_eq!(Naughts::state_from_json(&json).unwrap(), state);
            for mv in &moves {
                let turn = Play::Place(*mv);
                let text = Naughts::notation(&state, &turn);
                prop_assert_eq!(&typed(&state, &text).unwrap(), mv);
                let object = Naughts::move_to_json(&state, &turn);
                prop_assert_eq!(Naughts::parse_move(&state, &object).unwrap(), turn);
            }
            let n = grid;
            for row in 0..n {
                for col in 0..n {
                    for size in 1..=pieces {
                        let mv = Move { row, col, size };
                        let object = json!({"row": row, "col": col, "size": size});
                        prop_assert_eq!(moves.contains(&mv), Naughts::parse_move(&state, &object).is_ok());
                    }
                }
            }
            let mover = state.to_move();
            state = state.apply(&moves[pick as usize % moves.len()]);
            if !Naughts::outcome(&state).is_over() {
                prop_assert!(state.can_move(state.to_move()));
                if state.to_move() == mover {
                    prop_assert!(!state.can_move(mover.other()));
                }
            }
        }
        let json = Naughts::state_to_json(&state);
        prop_assert_eq!(Naughts::state_from_json(&json).unwrap(), state);
    }
}

// ---- strength ----

/// Plays a whole game between two levels and returns the final state.
fn match_game(levels: [&str; 2], seed: u64, grid: u8, pieces: u8) -> State {
    let mut state = State::new(grid, pieces);
    let mut ply = 0;
    while !Naughts::outcome(&state).is_over() {
        let level = levels[state.to_move().index()];
        let mv = bot(&state, level, seed * 1_000 + ply).mv;
        state = state.apply(&mv);
        ply += 1;
    }
    state
}

#[test]
fn perfect_never_loses_to_random_or_greedy() {
    for opponent in ["random", "greedy"] {
        let mut results = [0; 3];
        for game in 0..200u64 {
            let perfect = if game % 2 == 0 { O } else { X };
            let mut levels = [opponent; 2];
            levels[perfect.index()] = "perfect";
            let end = match_game(levels, game, 3, 5);
            match end.winner() {
                Some(w) if w == perfect => results[0] += 1,
                None => results[1] += 1,
                Some(_) => panic!(
                    "perfect lost game {game} to {opponent}: {:?}",
                    Naughts::state_to_json(&end)
                ),
            }
        }
        assert_eq!(results[0] + results[1], 200, "{opponent}: {results:?}");
        assert!(
            results[0] > 100,
            "perfect should beat {opponent} most of the time: {results:?}"
        );
    }
}

#[test]
fn perfect_self_play_draws_on_the_classic_board() {
    let end = match_game(["perfect", "perfect"], 1, 3, 5);
    assert!(end.is_stalemate(), "{:?}", Naughts::state_to_json(&end));
}

/// The exact value of `state` for the side to move by plain memoised negamax
/// (no pruning, no symmetry): the reference the solver is checked against.
fn brute_force(state: &State, memo: &mut std::collections::HashMap<u64, i32>) -> i32 {
    let key = state.cells[..9]
        .iter()
        .enumerate()
        .fold(0u64, |k, (i, c)| k | (c.code() as u64) << (5 * i))
        | (state.hands[0] as u64) << 45
        | (state.hands[1] as u64) << 55;
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let value = moves_of(state)
        .iter()
        .map(|mv| move_value(state, mv, memo))
        .max()
        .expect("not over");
    memo.insert(key, value);
    value
}

/// The exact value of playing `mv` in `state`, for its mover, counted in plies from `state`.
fn move_value(state: &State, mv: &Move, memo: &mut std::collections::HashMap<u64, i32>) -> i32 {
    let child = state.apply(mv);
    let stretch = |v: i32| match v {
        v if v >= solver::WIN - 100 => v - 1,
        v if v <= -(solver::WIN - 100) => v + 1,
        v => v,
    };
    if child.winner().is_some() {
        solver::WIN - 1
    } else if child.is_stalemate() {
        0
    } else if child.to_move() == state.to_move() {
        stretch(brute_force(&child, memo))
    } else {
        stretch(-brute_force(&child, memo))
    }
}

/// Every move's analysed value equals plain minimax, on positions reached by
/// a few random moves (the full 3×3 tree is too big for the memo). Release:
/// `cargo test --release --lib games::naughts::tests::analysis_matches -- --ignored`.
#[test]
#[ignore = "slow in debug builds: cargo test --release --lib games::naughts::tests::analysis_matches -- --ignored"]
fn analysis_matches_brute_force_on_3x3() {
    let mut checked = 0;
    let mut kinds = std::collections::BTreeMap::new();
    for (pieces, plies) in [(5u8, 3u64), (5, 4), (6, 6), (7, 8)] {
        for seed in 0..10 {
            let mut state = State::new(3, pieces);
            for ply in 0..plies {
                if Naughts::outcome(&state).is_over() {
                    break;
                }
                state = state.apply(&bot(&state, "random", seed * 10 + ply).mv);
            }
            if Naughts::outcome(&state).is_over() {
                continue;
            }
            let mut memo = std::collections::HashMap::new();
            let analysis =
                Naughts::analyze(&state, 100, &BotParams::seeded(0), &Budget::unlimited()).unwrap();
            assert_eq!(analysis.moves.len(), moves_of(&state).len());
            for scored in &analysis.moves {
                let expected = move_value(&state, &placed(scored.mv), &mut memo);
                assert_eq!(
                    scored.score as i32, expected,
                    "{pieces} pieces seed {seed} {:?}",
                    scored.mv
                );
                assert_eq!(scored.exact.as_deref(), Some(describe(expected).as_str()));
            }
            let best = bot(&state, "perfect", 0);
            assert_eq!(best.report.score, Some(analysis.moves[0].score));
            checked += analysis.moves.len();
            for scored in &analysis.moves {
                let kind = describe(scored.score as i32);
                *kinds
                    .entry(kind.split(" in ").next().unwrap().to_string())
                    .or_insert(0) += 1;
            }
        }
    }
    println!("{checked} moves agree with brute force: {kinds:?}");
}

/// `perfect` against itself draws on 3×3 with 6 to 9 pieces a side, the value
/// of the empty board (the book's; 5 pieces are checked by
/// `perfect_self_play_draws_on_the_classic_board`). The solve times are
/// criterion's: `cargo bench --bench naughts -- empty`.
#[test]
fn perfect_self_play_draws_with_more_pieces() {
    for pieces in 6..=9 {
        let (_, value) = super::bots::book::book_move(&State::new(3, pieces)).expect("in the book");
        assert_eq!(value, 0, "{pieces} pieces");
        let end = match_game(["perfect", "perfect"], 7, 3, pieces);
        assert!(
            end.is_stalemate(),
            "{pieces} pieces: {:?}",
            Naughts::state_to_json(&end)
        );
    }
}

#[test]
fn perft_counts() {
    let start = State::new(3, 5);
    // Depth 2 by hand: after O's size s on one of 9 cells, X has 8 × 5 moves
    // elsewhere and 5 - s on top of it: 9 × Σ (45 - s) = 1890.
    let counts: Vec<u64> = (1..=3)
        .map(|d| crate::game::perft::<Naughts>(&start, d))
        .collect();
    assert_eq!(counts, vec![45, 1890, 59_850]);
}

/// The checked-in book is what its generator writes (`cargo run --release -p
/// gamebot-research --bin naughts_opening_book`, through
/// [`super::bots::book::opening_book_lines`]): its header names that command, and its
/// lines start with those for 6 pieces, solved again here (the 7 to 9 pieces
/// take too long for a debug build).
#[test]
fn the_opening_book_is_what_its_generator_writes() {
    let book = include_str!("bots/opening_book.txt");
    assert_eq!(
        book.lines().nth(1),
        Some("# Regenerate: cargo run --release -p gamebot-research --bin naughts_opening_book")
    );
    let lines: Vec<&str> = book.lines().filter(|l| !l.starts_with('#')).collect();
    let six: Vec<String> = super::bots::book::opening_book_lines(6).collect();
    assert!(six.len() > 1, "{six:?}");
    assert_eq!(lines[..six.len()], six, "regenerate the book");
    // The rest, for 7 to 9 pieces, hold one line per position.
    let keys: std::collections::HashSet<&str> = lines.iter().map(|l| &l[..16]).collect();
    assert_eq!(keys.len(), lines.len());
}

#[test]
fn the_opening_book_answers_with_legal_proven_moves() {
    for pieces in 6..=9u8 {
        let start = State::new(3, pieces);
        for state in std::iter::once(start).chain(moves_of(&start).iter().map(|mv| start.apply(mv)))
        {
            if let Some((mv, score)) = super::bots::book::book_move(&state) {
                assert!(state.allows(&mv));
                assert!(score.abs() < solver::WIN);
                let choice = bot(&state, "perfect", 0);
                assert_eq!(choice.mv, mv);
                assert_eq!(choice.report.notes["book"], json!(true));
            }
        }
    }
}

mod records {
    use super::*;
    use crate::game::record::checks::{fails_at, round_trips};
    const FORMAT_MESSAGE: &str = "a move is \"row col size\"";
    const MOVE_MESSAGE: &str = "which is not smaller than 4";
    const ROW_MESSAGE: &str = "row must be 1-3";

    #[test]
    fn a_record_is_the_typed_moves_joined_with_spaces() {
        let start = State::new(3, 5);
        let moves = Naughts::read_record(&start, "2 2 5 1 1 4  3 3\t3").unwrap();
        assert_eq!(Naughts::write_record(&start, &moves), "2 2 5 1 1 4 3 3 3");
        assert_eq!(
            moves[0],
            Play::Place(Move {
                row: 1,
                col: 1,
                size: 5
            })
        );
    }

    #[test]
    fn random_games_read_back() {
        for (seed, (grid, pieces)) in [(3, 5), (3, 9), (2, 9), (4, 7), (2, 5)]
            .into_iter()
            .enumerate()
        {
            let start = State::new(grid, pieces);
            round_trips::<Naughts>(&start, seed as u64, 150, 40);
        }
        round_trips::<Naughts>(&crosses_must_pass(), 9, 20, 10);
    }

    #[test]
    fn a_pass_is_written_and_read_as_pass() {
        let stuck = crosses_must_pass();
        let moves = Naughts::read_record(&stuck, "PASS 1 2 9").unwrap();
        assert_eq!(moves[0], Play::Pass);
        assert_eq!(Naughts::write_record(&stuck, &moves), "pass 1 2 9");
    }

    #[test]
    fn a_bad_move_is_reported_with_its_index_and_the_course_message() {
        let start = State::new(3, 5);
        let covered = fails_at::<Naughts>(&start, "2 2 5 2 2 4", 1, "2 2 4", MOVE_MESSAGE);
        assert!(matches!(
            covered,
            GameError::IllegalMove {
                code: "invalid_move",
                ..
            }
        ));
        let row = fails_at::<Naughts>(&start, "2 2 5 9 1 1", 1, "9 1 1", ROW_MESSAGE);
        assert!(matches!(
            row,
            GameError::IllegalMove {
                code: "invalid_row",
                ..
            }
        ));
        fails_at::<Naughts>(&start, "2 2 5 1 1", 1, "1 1", FORMAT_MESSAGE);
        fails_at::<Naughts>(&start, "2 2 5 1 pass", 1, "1", FORMAT_MESSAGE);
        fails_at::<Naughts>(&start, "pass", 0, "pass", "O cannot pass");
    }

    #[test]
    fn a_move_after_a_win_says_who_won() {
        let start = State::new(3, 5);
        fails_at::<Naughts>(
            &start,
            "1 1 5 2 1 5 1 2 4 2 2 4 1 3 3 2 3 3",
            5,
            "2 3 3",
            "O won: O completed row 1",
        );
    }
}
