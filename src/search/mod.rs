//! Search algorithms shared by the games, generic over [`crate::game::Game`].
//!
//! [`alphabeta`] is the two-player engine (negamax with alpha-beta, iterative
//! deepening, a transposition table, killer moves and an optional quiescence
//! search); a game opts in by implementing [`Evaluate`]. It knows nothing of
//! HTTP or of any particular game.
//!
//! Every engine, generic or specialised, shares one score scale ([`score`]:
//! `WIN`, the distance to a decided result, table adjustment) and one
//! transposition table type ([`tt`]: bounds, two-slot buckets, one
//! replacement policy). [`memory`] bounds the engines' tables by
//! configuration: a table budget per compute worker, and a per-thread cache
//! of reusable tables.

pub mod alphabeta;
pub mod memory;
mod negamax;
pub mod score;
pub mod tt;
pub mod zeroed;

pub use alphabeta::{analyze, rank, search, Ranking, SearchOptions, SearchResult};
pub use score::{describe_decisive, is_decisive, settled, MAX_PLY, WIN};

use crate::game::{Outcome, Rules};

/// Size of the history table that [`Evaluate::history_slot`] indexes.
pub const HISTORY_SLOTS: usize = 1 << 16;

/// What the generic search needs from a game beyond its rules.
pub trait Evaluate: Rules {
    /// The static value of a position for the side to move (higher is better
    /// for it), well inside `±WIN / 2`.
    fn evaluate(state: &Self::State) -> i32;

    /// A hash of the position (including the side to move) for the transposition table.
    fn hash(state: &Self::State) -> u64;

    /// An ordering hint: moves with larger hints are searched first
    /// (captures by value, say). The default treats all moves alike.
    fn order_hint(_state: &Self::State, _mv: &Self::Move) -> i32 {
        0
    }

    /// A fall of the best score between two iterations, in evaluation
    /// units, that makes a clocked search think longer (the time
    /// manager's extension).
    const SIGNIFICANT_DROP: i32 = 50;

    /// Whether [`Evaluate::is_noisy`] calls any move noisy: a game that
    /// overrides it sets this too, or its quiescence search is skipped.
    /// Without noisy moves a horizon node is only asked whether it has a move.
    const HAS_NOISY_MOVES: bool = false;

    /// Whether a move is "noisy" enough to be searched past the horizon in
    /// quiescence (captures, shots). The default has no quiescence search.
    fn is_noisy(_state: &Self::State, _mv: &Self::Move) -> bool {
        false
    }

    /// The move's slot in the history table (`0..HISTORY_SLOTS`), which
    /// orders quiet moves by how often they caused cut-offs elsewhere in the
    /// tree. The default gives no slot: quiet moves keep their hint order.
    fn history_slot(_state: &Self::State, _mv: &Self::Move) -> Option<usize> {
        None
    }

    /// Whether the side to move is under direct threat (a king in check, a
    /// General in danger): such positions are never reduced or null-moved,
    /// and a move that creates one is searched a ply deeper when
    /// [`SearchOptions::threat_extension`] is on. The default: never.
    fn in_danger(_state: &Self::State) -> bool {
        false
    }

    /// The position with the turn simply passed, for null-move pruning;
    /// `None` where passing would mislead the search (zugzwang-prone
    /// positions). The default offers none, which turns the pruning off.
    fn null_move(_state: &Self::State) -> Option<Self::State> {
        None
    }

    /// The value of a finished game for the side to move in it, `ply` plies from
    /// the root: wins sooner and losses later are better.
    fn terminal_score(state: &Self::State, ply: usize) -> i32 {
        let ply = ply as i32;
        match Self::outcome(state) {
            Outcome::Win { winner, .. } if winner == Self::to_move(state) => WIN - ply,
            Outcome::Win { .. } => -(WIN - ply),
            Outcome::Draw { .. } | Outcome::Ongoing => 0,
            Outcome::Finished { points, .. } => {
                points.clamp(-(WIN as i64 / 2), WIN as i64 / 2) as i32
            }
        }
    }
}

#[cfg(test)]
mod tests;
