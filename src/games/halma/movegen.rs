//! Move generation: steps, jump chains (every reachable end cell once), the
//! camp rules, and the shortest chain of a jump move rebuilt on demand.

use super::board::{
    col, corner, goal, home, row, Bits, CampRule, Cell, CELLS, LANDINGS, NEIGHBOURS, NONE,
};
use super::state::State;
use crate::game::Side;

/// A move: one piece from `from` to `to`, by a step or by a jump chain.
/// The chain itself is not stored; [`jump_path`] rebuilds a shortest one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Where the piece starts.
    pub from: Cell,
    /// Where it ends.
    pub to: Cell,
    /// Whether it moves by jumps (else a single step).
    pub jump: bool,
}

/// Calls `visit(to, jump)` once for every cell the piece on `from` can end on,
/// `others` being every occupied cell except `from` itself (the moving piece
/// has left its cell, so a chain may pass over its start again).
#[inline]
pub fn for_each_destination(others: Bits, from: Cell, mut visit: impl FnMut(Cell, bool)) {
    for &n in &NEIGHBOURS[from as usize] {
        if n != NONE && !others.has(n as Cell) {
            visit(n as Cell, false);
        }
    }
    let mut seen = Bits::EMPTY;
    seen.set(from);
    let mut queue = [0u8; CELLS];
    queue[0] = from;
    let (mut head, mut tail) = (0, 1);
    while head < tail {
        let c = queue[head] as usize;
        head += 1;
        for d in 0..8 {
            let land = LANDINGS[c][d];
            if land == NONE {
                continue;
            }
            let land = land as Cell;
            if !others.has(NEIGHBOURS[c][d] as Cell) || others.has(land) || seen.has(land) {
                continue;
            }
            seen.set(land);
            queue[tail] = land;
            tail += 1;
            visit(land, true);
        }
    }
}

/// Whether a move from `from` to `to` by `side` keeps the basic camp rule and,
/// under the referee's rules, rule (a).
#[inline]
pub fn camp_allows(rule: CampRule, side: Side, from: Cell, to: Cell) -> bool {
    let target = goal(side);
    if target.has(from) && !target.has(to) {
        return false;
    }
    !(rule == CampRule::Referee && !home(side).has(from) && home(side).has(to))
}

/// Whether `to` is farther than `from` from the side's own corner: no closer
/// on either axis and farther on at least one.
#[inline]
pub fn farther_from_corner(side: Side, from: Cell, to: Cell) -> bool {
    let (cx, cy) = corner(side);
    let (fx, fy) = (col(from).abs_diff(cx), row(from).abs_diff(cy));
    let (tx, ty) = (col(to).abs_diff(cx), row(to).abs_diff(cy));
    tx >= fx && ty >= fy && (tx > fx || ty > fy)
}

/// Appends every legal move of the side to move (nothing once the game is
/// won or the ply limit is reached).
pub fn generate(state: &State, out: &mut Vec<Move>) {
    if state.is_decided() {
        return;
    }
    generate_ignoring_outcome(state, out);
}

/// The legal moves by the rules alone, without checking whether the game is over.
pub fn generate_ignoring_outcome(state: &State, out: &mut Vec<Move>) {
    let side = state.to_move;
    if state.camp_rule == CampRule::Referee && referee_camp_moves(state, out) {
        return;
    }
    let occupied = state.occupied();
    for from in state.side(side).cells() {
        let mut others = occupied;
        others.clear(from);
        for_each_destination(others, from, |to, jump| {
            if camp_allows(state.camp_rule, side, from, to) {
                out.push(Move { from, to, jump });
            }
        });
    }
}

/// Referee rule (b): while the mover has pieces in its own camp it must move
/// one out, or failing that one farther from its corner. Appends those moves
/// and returns true when the rule applies; false when the mover may move freely.
fn referee_camp_moves(state: &State, out: &mut Vec<Move>) -> bool {
    let side = state.to_move;
    let own = home(side);
    let in_camp = state.side(side).and(own);
    if in_camp.is_empty() {
        return false;
    }
    let occupied = state.occupied();
    let start = out.len();
    for from in in_camp.cells() {
        let mut others = occupied;
        others.clear(from);
        for_each_destination(others, from, |to, jump| {
            if !own.has(to) {
                out.push(Move { from, to, jump });
            }
        });
    }
    if out.len() > start {
        return true;
    }
    for from in in_camp.cells() {
        let mut others = occupied;
        others.clear(from);
        for_each_destination(others, from, |to, jump| {
            if farther_from_corner(side, from, to) {
                out.push(Move { from, to, jump });
            }
        });
    }
    out.len() > start
}

/// A shortest jump chain from `from` to `to` in `state` (the cells visited,
/// both ends included), or `None` if no chain joins them.
pub fn jump_path(state: &State, from: Cell, to: Cell) -> Option<Vec<Cell>> {
    let mut others = state.occupied();
    others.clear(from);
    let mut parent = [0u8; CELLS];
    let mut seen = Bits::EMPTY;
    seen.set(from);
    let mut queue = [0u8; CELLS];
    queue[0] = from;
    let (mut head, mut tail) = (0, 1);
    while head < tail {
        let c = queue[head];
        head += 1;
        if c == to && c != from {
            break;
        }
        for d in 0..8 {
            let land = LANDINGS[c as usize][d];
            if land == NONE {
                continue;
            }
            let land = land as Cell;
            if !others.has(NEIGHBOURS[c as usize][d] as Cell) || others.has(land) || seen.has(land)
            {
                continue;
            }
            seen.set(land);
            parent[land as usize] = c;
            queue[tail] = land;
            tail += 1;
        }
    }
    if to == from || !seen.has(to) {
        return None;
    }
    let mut path = vec![to];
    let mut c = to;
    while c != from {
        c = parent[c as usize];
        path.push(c);
    }
    path.reverse();
    Some(path)
}

/// The cells of a move: the step's two ends, or a shortest jump chain.
pub fn move_path(state: &State, mv: &Move) -> Vec<Cell> {
    if mv.jump {
        jump_path(state, mv.from, mv.to).unwrap_or_else(|| vec![mv.from, mv.to])
    } else {
        vec![mv.from, mv.to]
    }
}

/// Whether the side to move has any legal move. Most positions answer
/// at the first piece with a step the camp rules allow, without listing
/// jump chains. Referee rule (b) only narrows the moves to some the basic
/// rules allow, so a step allowed by them is enough, and failing one the
/// full list decides.
pub fn has_any_move(state: &State) -> bool {
    if state.is_decided() {
        return false;
    }
    let side = state.to_move;
    let occupied = state.occupied();
    let has_step = state.side(side).cells().any(|from| {
        NEIGHBOURS[from as usize].iter().any(|&n| {
            n != NONE
                && !occupied.has(n as Cell)
                && camp_allows(state.camp_rule, side, from, n as Cell)
        })
    });
    if has_step {
        return true;
    }
    let mut moves = Vec::new();
    generate_ignoring_outcome(state, &mut moves);
    !moves.is_empty()
}
