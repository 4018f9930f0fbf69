//! Tests of the rules, forms and levels.

use super::board::square;
use super::movegen::{Kind, Move};
use super::state::State;
use super::{Advance, AdvanceTermination, Color};
use crate::game::erased::{BotRequest, StateInput, TextParams};
use crate::game::{BotParams, Bots, Budget, Codec, Outcome, Rules, Side};
use serde_json::{json, Value};

fn fixture(name: &str) -> Value {
    crate::test_data::json(&format!("advance/{name}"))
}

/// A state from rows, `to_move` and unknown ply.
fn board(rows: [&str; 9], to_move: Color) -> State {
    State::from_rows(&rows, to_move, None).expect("valid test board")
}

fn legal(state: &State) -> Vec<Move> {
    let mut moves = Vec::new();
    Advance::legal_moves(state, &mut moves);
    moves
}

/// The legal moves as notation, sorted.
fn notations(state: &State) -> Vec<String> {
    let mut list: Vec<String> = legal(state).iter().map(super::notation::notation).collect();
    list.sort();
    list
}

/// The legal moves of the piece on (row, col), as notation, sorted.
fn moves_from(state: &State, row: usize, col: usize) -> Vec<String> {
    let mut list: Vec<String> = legal(state)
        .iter()
        .filter(|m| m.from as usize == square(row, col))
        .map(super::notation::notation)
        .collect();
    list.sort();
    list
}

fn sorted(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn fixture_state(position: &Value) -> State {
    let rows: Vec<String> = position["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().to_string())
        .collect();
    let to_move = Color::from_name(position["to_move"].as_str().unwrap()).unwrap();
    State::from_rows(&rows, to_move, None).unwrap()
}

/// The levels from weakest to strongest.
const LEVELS: [&str; 5] = ["legal", "win", "greedy", "predict", "strong"];

mod reference;

/// The fast generator's moves in the slow form, sorted.
fn fast_as_slow(state: &State) -> Vec<reference::SlowMove> {
    let mut moves: Vec<reference::SlowMove> = legal(state)
        .iter()
        .map(|m| {
            let [fr, fc] = m.from_row_col();
            let [tr, tc] = m.to_row_col();
            (m.kind, (fr as i32, fc as i32), (tr as i32, tc as i32))
        })
        .collect();
    moves.sort_by_key(|&(k, f, t)| (k as u8, f, t));
    moves
}

/// Plays `plies` random legal moves from `state` with a seeded generator,
/// calling `check` on every position reached (the first included).
fn random_playout(mut state: State, seed: u64, plies: usize, mut check: impl FnMut(&State)) {
    use rand::Rng;
    let mut rng = BotParams::<crate::game::NoOptions>::seeded(seed).rng();
    for _ in 0..plies {
        check(&state);
        let moves = legal(&state);
        if moves.is_empty() {
            break;
        }
        // Prefer captures now and then, so that playouts reach open, sparse positions.
        let captures: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| m.kind != Kind::Move && m.kind != Kind::Build)
            .collect();
        let mv = if !captures.is_empty() && rng.random_bool(0.5) {
            captures[rng.random_range(0..captures.len())]
        } else {
            moves[rng.random_range(0..moves.len())]
        };
        state = Advance::apply(&state, &mv);
    }
}

/// A random board: each square empty with probability ~60%, else a random
/// piece or wall; at most one General a side.
fn random_board(seed: u64) -> State {
    use rand::Rng;
    let mut rng = BotParams::<crate::game::NoOptions>::seeded(seed).rng();
    let pieces: Vec<char> = "ZBJMSCDzbjmscd#".chars().collect();
    let mut rows = vec![vec!['.'; 9]; 9];
    for row in rows.iter_mut() {
        for cell in row.iter_mut() {
            if rng.random_bool(0.4) {
                *cell = pieces[rng.random_range(0..pieces.len())];
            }
        }
    }
    for general in ['G', 'g'] {
        if rng.random_bool(0.9) {
            rows[rng.random_range(0..9)][rng.random_range(0..9)] = general;
        }
    }
    let rows: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
    let side = if rng.random_bool(0.5) {
        Color::White
    } else {
        Color::Black
    };
    State::from_rows(&rows, side, None).expect("generated board is valid")
}

fn check_position(state: &State) {
    let side = state.to_move();
    let fast = fast_as_slow(state);
    let slow = reference::legal(&reference::grid(state), side);
    assert_eq!(fast, slow, "move lists differ in\n{state:?}");
    for mv in legal(state) {
        let after = Advance::apply(state, &mv);
        assert!(
            !after.in_danger(side),
            "{mv:?} leaves the General in danger in\n{state:?}"
        );
        assert_eq!(
            after.hash,
            after.full_hash(),
            "hash out of step after {mv:?}"
        );
        let notation = Advance::notation(state, &mv);
        assert_eq!(Advance::parse_move(state, &json!(notation)).unwrap(), mv);
        assert_eq!(
            Advance::parse_move(state, &Advance::move_to_json(state, &mv)).unwrap(),
            mv
        );
    }
    let json = Advance::state_to_json(state);
    assert_eq!(&Advance::state_from_json(&json).unwrap(), state);
}

mod props;
mod records;

mod forms;
mod levels;
mod perft_counts;
mod rules;
