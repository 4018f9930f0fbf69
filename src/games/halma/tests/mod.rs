//! Rules, fixtures, levels and property tests for Halma.

use super::board::{cell, col, goal, home, row, Bits, CampRule, Cell, CELLS};
use super::bots::{read_clock, time_for_move, Clock, ClockMode, HalmaOptions};
use super::movegen::{generate, has_any_move, Move};
use super::notation::{notation, parse_move};
use super::state::State;
use super::{Halma, HalmaTermination};
use crate::game::{
    BotParams, Bots, Budget, Codec, GameError, LevelSpec, Outcome, Referee, Rules, Side,
};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

/// A board from text rows (missing rows are empty), without the 19-piece check.
fn board(rows: &[&str], to_move: Side, rule: CampRule) -> State {
    let mut pieces = [Bits::EMPTY; 2];
    for (y, r) in rows.iter().enumerate() {
        for (x, ch) in r.chars().enumerate() {
            match ch {
                'B' => pieces[0].set(cell(x, y)),
                'W' => pieces[1].set(cell(x, y)),
                _ => {}
            }
        }
    }
    State::from_parts(pieces, to_move, rule)
}

/// A board with the given pieces placed on an empty board.
fn place(
    black: &[(usize, usize)],
    white: &[(usize, usize)],
    to_move: Side,
    rule: CampRule,
) -> State {
    let mut pieces = [Bits::EMPTY; 2];
    for &(x, y) in black {
        pieces[0].set(cell(x, y));
    }
    for &(x, y) in white {
        pieces[1].set(cell(x, y));
    }
    State::from_parts(pieces, to_move, rule)
}

fn moves(state: &State) -> Vec<Move> {
    let mut out = Vec::new();
    generate(state, &mut out);
    out
}

fn ends_from(state: &State, x: usize, y: usize) -> BTreeSet<(usize, usize, bool)> {
    moves(state)
        .into_iter()
        .filter(|m| m.from == cell(x, y))
        .map(|m| (col(m.to), row(m.to), m.jump))
        .collect()
}

/// An independent, slow reference generator: depth-first chains with a
/// visited set per path, then the camp rules as the rules text states them.
fn reference_moves(state: &State) -> BTreeSet<(Cell, Cell, bool)> {
    if state.has_won(state.to_move().other()) {
        return BTreeSet::new();
    }
    let side = state.to_move();
    let mut raw = BTreeSet::new();
    for from in state.side(side).cells() {
        let mut others = state.occupied();
        others.clear(from);
        let (fx, fy) = (col(from) as i32, row(from) as i32);
        for dx in -1..=1 {
            for dy in -1..=1 {
                let (x, y) = (fx + dx, fy + dy);
                if (dx, dy) != (0, 0)
                    && (0..16).contains(&x)
                    && (0..16).contains(&y)
                    && !others.has(cell(x as usize, y as usize))
                {
                    raw.insert((from, cell(x as usize, y as usize), false));
                }
            }
        }
        let mut reached = BTreeSet::new();
        let mut stack = vec![from];
        while let Some(c) = stack.pop() {
            let (cx, cy) = (col(c) as i32, row(c) as i32);
            for dx in -1..=1 {
                for dy in -1..=1 {
                    let (ox, oy, lx, ly) = (cx + dx, cy + dy, cx + 2 * dx, cy + 2 * dy);
                    if (dx, dy) == (0, 0) || !(0..16).contains(&lx) || !(0..16).contains(&ly) {
                        continue;
                    }
                    let (over, land) = (
                        cell(ox as usize, oy as usize),
                        cell(lx as usize, ly as usize),
                    );
                    if others.has(over) && !others.has(land) && reached.insert(land) {
                        stack.push(land);
                    }
                }
            }
        }
        for to in reached {
            if to != from {
                raw.insert((from, to, true));
            }
        }
    }
    let (own, target) = (home(side), goal(side));
    let basic: BTreeSet<_> = raw
        .into_iter()
        .filter(|&(f, t, _)| !target.has(f) || target.has(t))
        .collect();
    if state.camp_rule() == CampRule::Basic {
        return basic;
    }
    let free: BTreeSet<_> = basic
        .into_iter()
        .filter(|&(f, t, _)| own.has(f) || !own.has(t))
        .collect();
    let out: BTreeSet<_> = free
        .iter()
        .copied()
        .filter(|&(f, t, _)| own.has(f) && !own.has(t))
        .collect();
    if !out.is_empty() {
        return out;
    }
    let (cx, cy) = if side == Side::First {
        (0, 0)
    } else {
        (15, 15)
    };
    let farther: BTreeSet<_> = free
        .iter()
        .copied()
        .filter(|&(f, t, _)| {
            let (a, b) = (col(f).abs_diff(cx), row(f).abs_diff(cy));
            let (c, d) = (col(t).abs_diff(cx), row(t).abs_diff(cy));
            own.has(f) && c >= a && d >= b && (c > a || d > b)
        })
        .collect();
    if !farther.is_empty() {
        return farther;
    }
    free
}

mod camps;
mod json_and_view;
mod levels;
mod playouts;
mod ply_limit;
mod records;
mod steps;
mod text_forms;
mod winning;
