//! Evaluations: the plain distance sum of the `minimax` level, and the richer
//! one of `strong` (progress, stragglers, camp filling, blocked pieces).

use crate::game::Side;
use crate::games::halma::board::{goal, goal_distance, home, Bits, Cell, CELLS, NEIGHBOURS, NONE};
use crate::games::halma::movegen::Move;
use crate::games::halma::state::State;
use crate::games::halma::Halma;
use crate::search::Evaluate;

/// The sum of Manhattan distances of `side`'s pieces to its goal corner.
pub fn distance_sum(state: &State, side: Side) -> i32 {
    state
        .side(side)
        .cells()
        .map(|c| goal_distance(side, c) as i32)
        .sum()
}

/// The `minimax` level's evaluation for `side`: how much farther the
/// opponent still has to go than `side` (sum of distances to the goal corners).
pub fn distance_eval(state: &State, side: Side) -> i32 {
    distance_sum(state, side.other()) - distance_sum(state, side)
}

/// Cost of a piece of `side` standing on a cell: grows faster than linearly
/// with the distance to the goal corner, so that stragglers weigh more than
/// pieces already far advanced; pieces in the goal camp get a bonus, pieces
/// far off the board's long diagonal a small penalty.
const fn piece_cost(black: bool, c: usize) -> i32 {
    let (x, y) = (c % 16, c / 16);
    let (gx, gy) = if black { (15, 15) } else { (0, 0) };
    let dx = x.abs_diff(gx);
    let dy = y.abs_diff(gy);
    let d = (dx + dy) as i32;
    let in_goal = dx + dy <= 5 && dx <= 4 && dy <= 4;
    let off_diagonal = x.abs_diff(y) as i32;
    let mut cost = 10 * d + d * d / 2;
    if in_goal {
        cost -= 25;
    } else if off_diagonal > 3 {
        cost += (off_diagonal - 3) * 2;
    }
    cost
}

const fn build_costs() -> [[i32; CELLS]; 2] {
    let mut table = [[0; CELLS]; 2];
    let mut c = 0;
    while c < CELLS {
        table[0][c] = piece_cost(true, c);
        table[1][c] = piece_cost(false, c);
        c += 1;
    }
    table
}

/// `piece_cost` per side and cell.
pub static COSTS: [[i32; CELLS]; 2] = build_costs();

/// The cost change when `side` moves a piece from `from` to `to` (positive: progress).
#[inline]
pub fn progress(side: Side, from: Cell, to: Cell) -> i32 {
    let t = &COSTS[side.index()];
    t[from as usize] - t[to as usize]
}

/// Penalty for pieces of `side` that cannot move forward by a step: every
/// forward-ish neighbour cell occupied. Such pieces waste tempo later.
fn blocked_penalty(side: Side, mine: Bits, occupied: Bits) -> i32 {
    let target = goal(side);
    let t = &COSTS[side.index()];
    let mut penalty = 0;
    for c in mine.minus(target).cells() {
        let here = t[c as usize];
        let free_forward = NEIGHBOURS[c as usize]
            .iter()
            .any(|&n| n != NONE && !occupied.has(n as Cell) && t[n as usize] < here);
        if !free_forward {
            penalty += 6;
        }
    }
    penalty
}

/// The total cost of `side`'s position (lower is better).
fn side_cost(state: &State, side: Side) -> i32 {
    let mine = state.side(side);
    let t = &COSTS[side.index()];
    let mut cost: i32 = mine.cells().map(|c| t[c as usize]).sum();
    // Pieces still at home late in the game are the classic way to lose a race.
    let left_home = mine.and(home(side)).count() as i32;
    let in_goal = mine.and(goal(side)).count() as i32;
    if in_goal >= 8 {
        cost += left_home * 30;
    }
    cost + blocked_penalty(side, mine, state.occupied())
}

/// The `strong` level's evaluation for the side to move (higher is better for it).
pub fn strong_eval(state: &State) -> i32 {
    let side = state.to_move();
    side_cost(state, side.other()) - side_cost(state, side)
}

/// What the generic search and analysis see of Halma: `strong`'s
/// evaluation, the state's hash, and a move's progress as its order hint.
impl Evaluate for Halma {
    fn evaluate(state: &State) -> i32 {
        strong_eval(state)
    }

    fn hash(state: &State) -> u64 {
        state.hash()
    }

    fn order_hint(state: &State, mv: &Move) -> i32 {
        progress(state.to_move(), mv.from, mv.to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::halma::board::{cell, CampRule};

    #[test]
    fn start_position_is_balanced() {
        let s = State::start(Side::First, CampRule::Referee);
        assert_eq!(distance_eval(&s, Side::First), 0);
        assert_eq!(strong_eval(&s), 0);
    }

    #[test]
    fn progress_is_positive_towards_the_goal() {
        assert!(progress(Side::First, cell(4, 4), cell(5, 5)) > 0);
        assert!(progress(Side::Second, cell(4, 4), cell(5, 5)) < 0);
    }
}
