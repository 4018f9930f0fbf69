//! A specialised bitboard perft with bulk counting at the last ply.
//!
//! The same recursion is compiled twice: portably, and (on x86-64 CPUs that
//! have them, detected at run time) with AVX2 move generation and the
//! hardware bit-count and bit-scan instructions. Both give the same counts;
//! the tests run both.

use super::board::{flips, moves, Board};

/// The number of move sequences of `depth` plies from `board` (a forced pass
/// is a move; a finished game reached earlier counts as one leaf), as in
/// OEIS A124004. Uses the fastest code path this CPU supports.
pub fn perft(board: Board, depth: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if super::board::x86::supported() {
        return perft_x86(board, depth);
    }
    perft_portable(board, depth)
}

/// [`perft`] in portable code only (the fallback, and its test).
pub fn perft_portable(board: Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    portable::perft_inner(board, depth, false)
}

/// [`perft`] with AVX2 move generation; falls back to [`perft_portable`]
/// when the CPU lacks the instructions.
#[cfg(target_arch = "x86_64")]
pub fn perft_x86(board: Board, depth: u32) -> u64 {
    if !super::board::x86::supported() {
        return perft_portable(board, depth);
    }
    if depth == 0 {
        return 1;
    }
    // SAFETY: the CPU supports every feature `fast` is compiled for.
    unsafe { fast::perft_inner(board, depth, false) }
}

/// The recursion, given a move generator and the attributes (target
/// features) to compile it with.
macro_rules! perft_recursion {
    ($(#[$attr:meta])* $($unsafe:ident)?; $moves:path) => {
        /// `depth` ≥ 1; `passed` says the previous ply was a pass.
        $(#[$attr])*
        pub(super) $($unsafe)? fn perft_inner(board: Board, depth: u32, passed: bool) -> u64 {
            let mut moves = $moves(board.me, board.opp);
            if moves == 0 {
                if passed || depth == 1 {
                    return 1;
                }
                if $moves(board.opp, board.me) == 0 {
                    return 1;
                }
                return perft_inner(board.pass(), depth - 1, true);
            }
            if depth == 1 {
                return u64::from(moves.count_ones());
            }
            let mut total = 0;
            if depth == 2 {
                // Bulk counting: each child's leaves are its move count
                // (or one pass, or one finished game).
                while moves != 0 {
                    let sq = moves.trailing_zeros();
                    moves &= moves - 1;
                    let child = board.play_flips(sq, flips(board.me, board.opp, sq));
                    total += match $moves(child.me, child.opp).count_ones() {
                        0 => 1,
                        n => u64::from(n),
                    };
                }
                return total;
            }
            while moves != 0 {
                let sq = moves.trailing_zeros();
                moves &= moves - 1;
                let child = board.play_flips(sq, flips(board.me, board.opp, sq));
                total += perft_inner(child, depth - 1, false);
            }
            total
        }
    };
}

mod portable {
    use super::*;
    perft_recursion!(; moves);
}

#[cfg(target_arch = "x86_64")]
mod fast {
    use super::*;
    use crate::games::reversi::board::x86::moves_avx2;
    perft_recursion!(#[target_feature(enable = "avx2,popcnt,lzcnt,bmi1")] unsafe; moves_avx2);
}
