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
        Err(GameError::IllegalMove { code, detail, .. }) => (code.as_str(), detail),
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

mod erased_view;
mod levels;
mod props;
mod records;
mod rules;
mod setup;
mod strength;
mod typed_moves;
