//! The solver's node searches by the number of empties: the sorted deep
//! search with table and stability cut-off, the shallow parity search
//! near the end and the last empties scored by look-ups, compiled once
//! portable and once with the x86 instructions.

use super::*;

/// `QUADRANT_MASKS[i]`: the union of the quadrants whose bit is set in `i`
/// (bit 0 top-left a1–d4, bit 1 top-right, bit 2 bottom-left, bit 3 bottom-right).
static QUADRANT_MASKS: [u64; 16] = build_quadrant_masks();

const fn build_quadrant_masks() -> [u64; 16] {
    const QUADRANTS: [u64; 4] = [
        0x0000_0000_0F0F_0F0F,
        0x0000_0000_F0F0_F0F0,
        0x0F0F_0F0F_0000_0000,
        0xF0F0_F0F0_0000_0000,
    ];
    let mut masks = [0u64; 16];
    let mut i = 0;
    while i < 16 {
        let mut q = 0;
        while q < 4 {
            if i & (1 << q) != 0 {
                masks[i] |= QUADRANTS[q];
            }
            q += 1;
        }
        i += 1;
    }
    masks
}

/// `NEIGHBOURS[sq]`: the squares next to `sq`. A move needs an opponent disc
/// there, which rules out most empties without computing their flips.
static NEIGHBOURS: [u64; 64] = build_neighbours();

const fn build_neighbours() -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = neighbours(1 << sq);
        sq += 1;
    }
    table
}

/// The node searches of the solver, written once and compiled twice (as
/// Reversi's perft is), given the attributes to compile them with and the
/// move generator: every function the recursion passes through carries the
/// attributes, so that the hardware instructions reach all of it.
macro_rules! node_searches {
    ($(#[$attr:meta])*; $moves:path) => {
        /// [`Solver::solve`] in this copy.
        $(#[$attr])*
        pub(in crate::games::reversi::bots::endgame) fn solve(s: &mut Solver<'_>, board: Board, alpha: i32, beta: i32) -> i32 {
            let empties = board.empties();
            if empties < SHALLOW_EMPTIES {
                s.nodes += 1;
                return shallow(s, board, alpha, beta, empties, false);
            }
            deep(s, board, alpha, beta, empties, false)
        }

        /// The sorted search with table and stability cut-off.
        $(#[$attr])*
        fn deep(
            s: &mut Solver<'_>,
            board: Board,
            mut alpha: i32,
            mut beta: i32,
            empties: u32,
            passed: bool,
        ) -> i32 {
            s.nodes += 1;
            if s.out_of_budget() {
                return 0;
            }
            let moves = $moves(board.me, board.opp);
            if moves == 0 {
                if passed {
                    return board.final_score();
                }
                return -deep(s, board.pass(), -beta, -alpha, empties, true);
            }
            // The opponent's stable discs bound what the mover can reach.
            if 64 - 2 * board.opp.count_ones() as i32 <= alpha {
                let upper_bound = 64 - 2 * stable_discs(board.opp, board.me).count_ones() as i32;
                if upper_bound <= alpha {
                    return upper_bound;
                }
                beta = beta.min(upper_bound);
            }

            let use_table = empties >= TABLE_EMPTIES;
            let mut table_move = None;
            if use_table {
                if let Some(entry) = s.probe(board) {
                    if let Some((lower, upper)) = entry.bounds_at(s.level) {
                        if lower >= beta {
                            return lower;
                        }
                        if upper <= alpha {
                            return upper;
                        }
                        if lower == upper {
                            return lower;
                        }
                        alpha = alpha.max(lower);
                        beta = beta.min(upper);
                    }
                    table_move = Some(u32::from(entry.best));
                }
            }
            if let Some(bound) = s.selective_cut(board, alpha, beta, empties) {
                return bound;
            }

            let mut list = [(0i32, 0u32, 0u64); 32];
            let mut count = 0;
            // The children's table slots are asked for all at once, so that
            // their cache misses overlap instead of following one another.
            let children_use_table = empties > TABLE_EMPTIES;
            for sq in Bits(moves) {
                let flipped = flips(board.me, board.opp, sq);
                if children_use_table {
                    s.prefetch(board.play_flips(sq, flipped));
                }
                list[count] = (0, sq, flipped);
                count += 1;
            }
            let list = &mut list[..count];
            if empties >= ETC_EMPTIES {
                // Enhanced transposition cut-off: a child already known to
                // be bad enough for the opponent refutes this position now.
                for &(_, sq, flipped) in list.iter() {
                    let entry = s.probe(board.play_flips(sq, flipped));
                    if let Some((_, upper)) = entry.and_then(|e| e.bounds_at(s.level)) {
                        let score = -upper;
                        if score >= beta {
                            return score;
                        }
                    }
                }
            }
            let alpha_start = alpha;
            let mut best = -65;
            let mut best_sq = 0;
            // The table's move goes first; the others' keys (an ordering
            // search each, with many empties) are computed only when it
            // does not cut, which it mostly does.
            let table_at = table_move.and_then(|m| list.iter().position(|&(_, sq, _)| sq == m));
            let mut keyed = false;
            for n in 0..count {
                let picked = match table_at {
                    Some(at) if n == 0 => {
                        list[..=at].rotate_right(1);
                        list[0]
                    }
                    _ => {
                        if !keyed {
                            keyed = true;
                            for (key, sq, flipped) in list[n..].iter_mut() {
                                *key = ordering_key(s, board, *sq, *flipped, empties);
                            }
                            if s.stopped.is_some() {
                                return 0;
                            }
                        }
                        // The next move by key (then square): picked one at
                        // a time rather than sorted, as most nodes cut after
                        // a move or two; the moves passed over keep their
                        // order (ties go by square).
                        let mut next = n;
                        for i in n + 1..count {
                            if (list[i].0, list[i].1) < (list[next].0, list[next].1) {
                                next = i;
                            }
                        }
                        list[n..=next].rotate_right(1);
                        list[n]
                    }
                };
                let (_, sq, flipped) = picked;
                if n == 0 {
                    best_sq = sq;
                }
                let child_board = board.play_flips(sq, flipped);
                let score = if n == 0 {
                    -child(s, child_board, -beta, -alpha, empties - 1)
                } else {
                    let probe = -child(s, child_board, -alpha - 1, -alpha, empties - 1);
                    if probe > alpha && probe < beta {
                        -child(s, child_board, -beta, -probe, empties - 1)
                    } else {
                        probe
                    }
                };
                if s.stopped.is_some() {
                    return 0;
                }
                if score > best {
                    best = score;
                    best_sq = sq;
                    if score > alpha {
                        alpha = score;
                        if alpha >= beta {
                            break;
                        }
                    }
                }
            }
            if use_table {
                let (lower, upper) = if best >= beta {
                    (best, 64)
                } else if best > alpha_start {
                    (best, best)
                } else {
                    (-64, best)
                };
                s.store(board, lower, upper, best_sq);
            }
            best
        }

        /// The ordering key of move `sq` (flipping `flipped`) of a sorted
        /// node with `empties` empties, smaller first: fastest first, with
        /// many empties helped by the evaluation or a shallow search over it.
        $(#[$attr])*
        #[inline]
        fn ordering_key(s: &mut Solver<'_>, board: Board, sq: u32, flipped: u64, empties: u32) -> i32 {
            let key = order_key(board, sq, flipped);
            if empties >= SEARCH_ORDER_EMPTIES {
                key + s.order_search(board.play_flips(sq, flipped), order_depth(empties), -i32::MAX, i32::MAX)
                    / EVAL_ORDER_DIVISOR
            } else if empties >= EVAL_ORDER_EMPTIES {
                key + crate::games::reversi::bots::patterns::evaluate(board.play_flips(sq, flipped))
                    / EVAL_ORDER_DIVISOR
            } else {
                key
            }
        }

        /// Dispatches a child to the deep or the shallow search.
        $(#[$attr])*
        #[inline]
        fn child(s: &mut Solver<'_>, board: Board, alpha: i32, beta: i32, empties: u32) -> i32 {
            if empties < SHALLOW_EMPTIES {
                s.nodes += 1;
                shallow(s, board, alpha, beta, empties, false)
            } else {
                deep(s, board, alpha, beta, empties, false)
            }
        }

        /// The search of the last few empties: parity order, no table.
        $(#[$attr])*
        fn shallow(
            s: &mut Solver<'_>,
            board: Board,
            mut alpha: i32,
            beta: i32,
            empties: u32,
            passed: bool,
        ) -> i32 {
            let empty = board.empty();
            if empties == 1 {
                return last_square(board, empty.trailing_zeros());
            }
            if empties == 2 {
                let first = empty.trailing_zeros();
                let second = 63 - empty.leading_zeros();
                return last_two(s, board, alpha, beta, first, second);
            }
            let mut best = -65;
            let odd = odd_quadrants(empty);
            // A move needs an opponent disc next to it.
            let candidates = empty & neighbours(board.opp);
            for region in [odd, !odd] {
                for class in SQUARE_CLASSES {
                    for sq in Bits(candidates & region & class) {
                        let flipped = flips(board.me, board.opp, sq);
                        if flipped == 0 {
                            continue;
                        }
                        s.nodes += 1;
                        let child_board = board.play_flips(sq, flipped);
                        let score = -shallow(s, child_board, -beta, -alpha, empties - 1, false);
                        if score > best {
                            best = score;
                            if score > alpha {
                                alpha = score;
                                if alpha >= beta {
                                    return best;
                                }
                            }
                        }
                    }
                }
            }
            if best == -65 {
                if passed {
                    return board.final_score();
                }
                return -shallow(s, board.pass(), -beta, -alpha, empties, true);
            }
            best
        }

        /// The exact score with two empty squares left (fail-soft in the window).
        $(#[$attr])*
        #[inline]
        fn last_two(s: &mut Solver<'_>, board: Board, alpha: i32, beta: i32, x: u32, y: u32) -> i32 {
            if let Some(score) = two_for_mover(s, board, beta, x, y) {
                return score;
            }
            match two_for_mover(s, board.pass(), -alpha, x, y) {
                Some(score) => -score,
                None => board.final_score(),
            }
        }

        /// The mover's best with two empties, or `None` when it cannot move.
        $(#[$attr])*
        #[inline]
        fn two_for_mover(s: &mut Solver<'_>, board: Board, beta: i32, x: u32, y: u32) -> Option<i32> {
            let mut best = None;
            let flipped = if NEIGHBOURS[x as usize] & board.opp != 0 {
                flips(board.me, board.opp, x)
            } else {
                0
            };
            if flipped != 0 {
                s.nodes += 1;
                let score = -last_square(board.play_flips(x, flipped), y);
                if score >= beta {
                    return Some(score);
                }
                best = Some(score);
            }
            let flipped = if NEIGHBOURS[y as usize] & board.opp != 0 {
                flips(board.me, board.opp, y)
            } else {
                0
            };
            if flipped != 0 {
                s.nodes += 1;
                let score = -last_square(board.play_flips(y, flipped), x);
                best = Some(best.map_or(score, |b: i32| b.max(score)));
            }
            best
        }

        /// Fastest first (smaller keys first): few replies (corner replies
        /// counting double), corners early.
        $(#[$attr])*
        #[inline]
        pub(in crate::games::reversi::bots::endgame) fn order_key(board: Board, sq: u32, flipped: u64) -> i32 {
            let child = board.play_flips(sq, flipped);
            let replies = $moves(child.me, child.opp);
            let mobility = (replies.count_ones() + (replies & CORNERS).count_ones()) as i32;
            // Empty squares next to the mover's discs: the opponent's future moves.
            let potential = (neighbours(child.opp) & child.empty()).count_ones() as i32;
            let mut key = 32 * mobility + 4 * potential;
            if (1u64 << sq) & CORNERS != 0 {
                key -= 24;
            }
            key
        }
    };
}

/// The node searches in portable code.
pub(super) mod portable_nodes {
    use super::*;
    use crate::games::reversi::board::moves;
    node_searches!(; moves);
}

/// The node searches with the x86 instructions; every function here may be
/// called only on a CPU that has them.
#[cfg(target_arch = "x86_64")]
pub(super) mod x86_nodes {
    use super::*;
    use crate::games::reversi::board::x86::moves_avx2;
    node_searches!(#[target_feature(enable = "avx2,popcnt,lzcnt,bmi1")]; moves_avx2);
}

/// The quadrants holding an odd number of empties: the parity of each
/// quadrant folded into one bit by xor-shifts (no bit counts).
#[inline]
fn odd_quadrants(empty: u64) -> u64 {
    let mut x = empty;
    x ^= x >> 16; // rows 3-4 onto rows 1-2 (and 7-8 onto 5-6)
    x ^= x >> 8; // then onto row 1 (row 5)
    x ^= x >> 2; // columns c-d onto a-b (g-h onto e-f)
    x ^= x >> 1; // then onto column a (column e)
    let index = (x & 1) | ((x >> 3) & 2) | ((x >> 30) & 4) | ((x >> 33) & 8);
    QUADRANT_MASKS[index as usize]
}

/// The exact score with one empty square `sq` left.
#[inline(always)]
fn last_square(board: Board, sq: u32) -> i32 {
    let mine = board.me.count_ones() as i32;
    let flipped = last_flip_count(board.me, sq) as i32;
    if flipped > 0 {
        return 2 * (mine + flipped + 1) - 64;
    }
    let theirs = 63 - mine;
    let flipped = last_flip_count(board.opp, sq) as i32;
    if flipped > 0 {
        return 64 - 2 * (theirs + flipped + 1);
    }
    let diff = mine - theirs;
    if diff > 0 {
        diff + 1
    } else {
        diff - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folded_parity_matches_counting_each_quadrant() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let empty = x & x.rotate_left(23);
            let mut expected = 0;
            for i in 0..4 {
                let q = QUADRANT_MASKS[1 << i];
                if (empty & q).count_ones() % 2 == 1 {
                    expected |= q;
                }
            }
            assert_eq!(odd_quadrants(empty), expected, "{empty:#x}");
        }
    }
}
