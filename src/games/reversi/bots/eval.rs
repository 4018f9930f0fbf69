//! The `strong` level's static evaluation: mobility, potential mobility,
//! corners and the squares next to empty corners, stable discs, parity and,
//! late, the disc count. Units are roughly hundredths of a disc.

use crate::games::reversi::board::{moves, neighbours, stable_discs, Board, CORNERS};

/// The X-squares (b2, g2, b7, g7), each with its corner.
const X_SQUARES: [(u64, u64); 4] = [
    (1 << 9, 1 << 0),
    (1 << 14, 1 << 7),
    (1 << 49, 1 << 56),
    (1 << 54, 1 << 63),
];

/// The C-squares (next to a corner on an edge), each pair with its corner.
const C_SQUARES: [(u64, u64); 4] = [
    ((1 << 1) | (1 << 8), 1 << 0),
    ((1 << 6) | (1 << 15), 1 << 7),
    ((1 << 48) | (1 << 57), 1 << 56),
    ((1 << 55) | (1 << 62), 1 << 63),
];

/// The score of `board` for the side to move (positive: good for it).
pub fn evaluate(board: Board) -> i32 {
    let Board { me, opp } = board;
    let empty = board.empty();
    let empties = empty.count_ones() as i32;
    let my_moves = moves(me, opp);
    let their_moves = moves(opp, me);

    let mobility = mobility_score(my_moves, their_moves);
    let potential = (neighbours(opp) & empty).count_ones() as i32
        - (neighbours(me) & empty).count_ones() as i32;
    let corners = (me & CORNERS).count_ones() as i32 - (opp & CORNERS).count_ones() as i32;
    let corner_moves =
        (my_moves & CORNERS).count_ones() as i32 - (their_moves & CORNERS).count_ones() as i32;
    let (x_squares, c_squares) = corner_neighbours(me, opp, empty);
    let stable =
        stable_discs(me, opp).count_ones() as i32 - stable_discs(opp, me).count_ones() as i32;

    let mut score = mobility + 22 * potential + 420 * corners + 130 * corner_moves
        - 220 * x_squares
        - 70 * c_squares
        + 110 * stable;
    if empties <= 20 {
        score += if empties % 2 == 1 { 60 } else { -60 };
    }
    if empties <= 14 {
        score += 8 * (me.count_ones() as i32 - opp.count_ones() as i32);
    }
    score
}

/// Mobility, counting the difference and the ratio of moves.
fn mobility_score(my_moves: u64, their_moves: u64) -> i32 {
    let mine = my_moves.count_ones() as i32;
    let theirs = their_moves.count_ones() as i32;
    if mine == 0 && theirs != 0 {
        // Having to pass is worse than any plain mobility count suggests.
        return -600 - 40 * theirs;
    }
    if theirs == 0 && mine != 0 {
        return 600 + 40 * mine;
    }
    60 * (mine - theirs) + 400 * (mine - theirs) / (mine + theirs + 2)
}

/// (X-squares, C-squares) held next to an empty corner: mine minus theirs.
fn corner_neighbours(me: u64, opp: u64, empty: u64) -> (i32, i32) {
    let mut x = 0;
    let mut c = 0;
    for &(square, corner) in &X_SQUARES {
        if empty & corner != 0 {
            x += i32::from(me & square != 0) - i32::from(opp & square != 0);
        }
    }
    for &(squares, corner) in &C_SQUARES {
        if empty & corner != 0 {
            c += (me & squares).count_ones() as i32 - (opp & squares).count_ones() as i32;
        }
    }
    (x, c)
}
