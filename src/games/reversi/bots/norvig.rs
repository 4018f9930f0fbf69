//! The `norvig` level: fixed-depth minimax with alpha-beta over Norvig's
//! square-weight table (PAIP), scored from the bot's point of view.
//!
//! A pass is a node with one child (it uses a ply); a finished game is a leaf
//! worth [`FINAL_DISC_VALUE`] per disc of difference (empty squares uncounted),
//! so any win outranks any weighted position and a bigger win a smaller one.
//! Among equal values the first move in row-major order wins: the root keeps
//! a move only when it is strictly better than the best so far.

use crate::game::{Budget, StopReason};
use crate::games::reversi::board::{flips, Bits, Board};

/// Norvig's square weights, row 1 first.
pub const WEIGHTS: [i32; 64] = [
    120, -20, 20, 5, 5, 20, -20, 120, //
    -20, -40, -5, -5, -5, -5, -40, -20, //
    20, -5, 15, 3, 3, 15, -5, 20, //
    5, -5, 3, 3, 3, 3, -5, 5, //
    5, -5, 3, 3, 3, 3, -5, 5, //
    20, -5, 15, 3, 3, 15, -5, 20, //
    -20, -40, -5, -5, -5, -5, -40, -20, //
    120, -20, 20, 5, 5, 20, -20, 120,
];

/// The value of a finished game per disc of difference (bigger than any weighted sum).
pub const FINAL_DISC_VALUE: i32 = 10_000;

/// The depth used when neither the level nor the request sets one.
pub const DEFAULT_DEPTH: u32 = 6;

/// `ROW_SUMS[row][byte]`: the weight of the discs `byte` marks on that row.
static ROW_SUMS: [[i16; 256]; 8] = build_row_sums();

const fn build_row_sums() -> [[i16; 256]; 8] {
    let mut sums = [[0i16; 256]; 8];
    let mut row = 0;
    while row < 8 {
        let mut byte = 0;
        while byte < 256 {
            let mut col = 0;
            let mut sum = 0;
            while col < 8 {
                if byte & (1 << col) != 0 {
                    sum += WEIGHTS[row * 8 + col];
                }
                col += 1;
            }
            sums[row][byte] = sum as i16;
            byte += 1;
        }
        row += 1;
    }
    sums
}

/// The sum of the weights of the squares in `bits`.
#[inline]
fn weight_of(bits: u64) -> i32 {
    let bytes = bits.to_le_bytes();
    let mut sum = 0;
    for (row, &byte) in bytes.iter().enumerate() {
        sum += i32::from(ROW_SUMS[row][usize::from(byte)]);
    }
    sum
}

/// Norvig's weighted-square sum for `board.me` minus that for `board.opp`.
pub fn weighted_squares(board: Board) -> i32 {
    weight_of(board.me) - weight_of(board.opp)
}

/// The value of a finished game for `board.me`.
pub fn final_value(board: Board) -> i32 {
    (board.me.count_ones() as i32 - board.opp.count_ones() as i32) * FINAL_DISC_VALUE
}

/// The outcome of a norvig search.
#[derive(Clone, Copy, Debug)]
pub struct NorvigResult {
    /// The chosen square, or `None` for a pass.
    pub square: Option<u32>,
    /// Its minimax value for the bot.
    pub value: i32,
    /// The depth of the last completed search.
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// Why it stopped (`Depth` when the full depth was searched).
    pub stopped_by: StopReason,
}

/// Searches `board` (the bot to move) to `depth` plies. Depths 1, 2, … are
/// searched in turn so that a budget that runs out still leaves the best move
/// of the last completed depth; the result at the full depth does not depend
/// on that.
pub fn choose(board: Board, depth: u32, budget: &Budget) -> NorvigResult {
    let mut search = Search {
        budget,
        nodes: 0,
        stopped: None,
    };
    let mut result = NorvigResult {
        square: None,
        value: 0,
        depth: 0,
        nodes: 0,
        stopped_by: StopReason::Depth,
    };
    for d in 1..=depth.max(1) {
        let found = search.root(board, d);
        if let Some(reason) = search.stopped {
            if result.depth == 0 {
                // Not even depth 1 finished: still answer with its best so far.
                result.square = found.0.or_else(|| first_move(board));
                result.value = found.1;
            }
            result.stopped_by = reason;
            break;
        }
        result.square = found.0;
        result.value = found.1;
        result.depth = d;
    }
    result.nodes = search.nodes;
    result
}

fn first_move(board: Board) -> Option<u32> {
    Bits(board.moves()).next()
}

/// The plain fixed-depth alpha-beta search.
struct Search<'a> {
    budget: &'a Budget,
    nodes: u64,
    stopped: Option<StopReason>,
}

impl Search<'_> {
    /// The best root move (first in row-major order among equals) and its value.
    fn root(&mut self, board: Board, depth: u32) -> (Option<u32>, i32) {
        let moves = board.moves();
        if moves == 0 {
            // The caller only asks when the game is not over: the bot must pass.
            let value = -self.alpha_beta(board.pass(), depth - 1, -i32::MAX, i32::MAX);
            return (None, value);
        }
        let mut best = None;
        let mut best_value = -i32::MAX;
        for sq in Bits(moves) {
            let child = board.play_flips(sq, flips(board.me, board.opp, sq));
            let value = -self.alpha_beta(child, depth - 1, -i32::MAX, -best_value);
            if self.stopped.is_some() {
                break;
            }
            if best.is_none() || value > best_value {
                best = Some(sq);
                best_value = value;
            }
        }
        (best, best_value)
    }

    /// Negamax value of `board` for its mover, within (alpha, beta) (fail-hard
    /// bounds outside it).
    fn alpha_beta(&mut self, board: Board, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes % 1024 == 0 {
            if self.budget.nodes_exhausted(self.nodes) {
                self.stopped = Some(StopReason::Nodes);
            } else if let Some(reason) = self.budget.interrupted() {
                self.stopped = Some(reason);
            }
        }
        if self.stopped.is_some() {
            return 0;
        }
        let moves = board.moves();
        if moves == 0 {
            if board.opp_moves() == 0 {
                return final_value(board);
            }
            if depth == 0 {
                return weighted_squares(board);
            }
            return -self.alpha_beta(board.pass(), depth - 1, -beta, -alpha);
        }
        if depth == 0 {
            return weighted_squares(board);
        }
        for sq in Bits(moves) {
            let child = board.play_flips(sq, flips(board.me, board.opp, sq));
            let value = -self.alpha_beta(child, depth - 1, -beta, -alpha);
            if value >= beta {
                return value;
            }
            alpha = alpha.max(value);
        }
        alpha
    }
}
