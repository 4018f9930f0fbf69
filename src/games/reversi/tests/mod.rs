//! Tests of the rules, the fixtures (perft, FFO), the levels and the JSON view.

use super::board::Move;
use super::board::{flips, moves, stable_discs, Bits, Board};
use super::bots::endgame::{NodeCode, Solver};
use super::bots::norvig::{self, final_value, weighted_squares};
use super::obf::ObfPosition;
use super::state::State;
use super::{Reversi, ReversiTermination};
use crate::game::erased::{BotRequest, StateInput, TextParams};
use crate::game::{
    perft, Bots, Budget, Codec, GameError, LevelSpec, Outcome, Rules, Side, StopReason,
};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

fn fixture(name: &str) -> Value {
    crate::test_data::json(&format!("reversi/{name}"))
}

fn state_of(lines: &[&str], to_move: &str) -> State {
    Reversi::state_from_json(&json!({"board": lines, "to_move": to_move})).unwrap()
}

/// A position reached by random moves from the start with exactly `empties`
/// empty squares and the game not over, or `None` if the game ended first.
fn random_position(rng: &mut ChaCha8Rng, empties: u32) -> Option<Board> {
    let mut board = Board::start();
    while board.empties() > empties {
        let moves = board.moves();
        if moves == 0 {
            if board.opp_moves() == 0 {
                return None;
            }
            board = board.pass();
            continue;
        }
        let all: Vec<u32> = Bits(moves).collect();
        board = board.play(all[rng.random_range(0..all.len())]);
    }
    (!board.is_over()).then_some(board)
}

/// Reference move generation: walk each direction square by square.
fn slow_flips(me: u64, opp: u64, sq: u32) -> u64 {
    if (me | opp) & (1 << sq) != 0 {
        return 0;
    }
    let mut all = 0;
    for (dc, dr) in [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (-1, -1),
        (1, -1),
        (-1, 1),
    ] {
        let (mut c, mut r) = ((sq % 8) as i32 + dc, (sq / 8) as i32 + dr);
        let mut run = 0u64;
        while (0..8).contains(&c) && (0..8).contains(&r) {
            let bit = 1u64 << (r * 8 + c);
            if opp & bit != 0 {
                run |= bit;
            } else {
                if me & bit != 0 {
                    all |= run;
                }
                break;
            }
            c += dc;
            r += dr;
        }
    }
    all
}

mod endgame_solver;
mod erased_view;
mod forms;
mod levels;
mod norvig_level;
mod perft_counts;
mod props;
mod records;
mod rules;
mod strong;
