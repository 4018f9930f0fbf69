//! A specialised bitboard perft with bulk counting at the last ply.

use super::board::{flips, Board};

/// The number of move sequences of `depth` plies from `board` (a forced pass
/// is a move; a finished game reached earlier counts as one leaf), as in
/// OEIS A124004.
pub fn perft(board: Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    perft_inner(board, depth, false)
}

/// `depth` ≥ 1; `passed` says the previous ply was a pass.
fn perft_inner(board: Board, depth: u32, passed: bool) -> u64 {
    let mut moves = board.moves();
    if moves == 0 {
        if passed {
            return 1;
        }
        let opp_moves = board.opp_moves();
        if opp_moves == 0 {
            return 1;
        }
        if depth == 1 {
            return 1;
        }
        return perft_inner(board.pass(), depth - 1, true);
    }
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    let mut total = 0;
    while moves != 0 {
        let sq = moves.trailing_zeros();
        moves &= moves - 1;
        let child = board.play_flips(sq, flips(board.me, board.opp, sq));
        total += if depth == 2 {
            leaf_count(child)
        } else {
            perft_inner(child, depth - 1, false)
        };
    }
    total
}

/// perft(board, 1): the mover's moves, or one pass, or one finished game.
#[inline]
fn leaf_count(board: Board) -> u64 {
    match board.moves().count_ones() {
        0 => 1,
        n => u64::from(n),
    }
}
