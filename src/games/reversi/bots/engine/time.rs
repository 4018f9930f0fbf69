//! The engine's own time management: how big a table a budget affords,
//! whether the exact solver is worth starting, and whether another
//! iteration is.

use super::RootLine;
use crate::game::Budget;
use std::time::Instant;

/// A fall of the best score between iterations (hundredths of a disc)
/// that makes a clocked move think longer.
pub(super) const SIGNIFICANT_DROP: i32 = 200;

/// Whether the best score of an iteration (`now`) fell below the one
/// before's by more than a clocked move lets pass without thinking longer.
pub(super) fn falling(now: &[RootLine], before: &[RootLine]) -> bool {
    match (now.first(), before.first()) {
        (Some(now), Some(before)) => now.score < before.score - SIGNIFICANT_DROP,
        _ => false,
    }
}

/// log2 of the midgame table size: small for short budgets, whose clearing
/// would otherwise cost a good part of the time.
pub(super) fn table_size_log2(budget: &Budget) -> u32 {
    match budget.remaining_ms() {
        Some(ms) if ms < 30.0 => 14,
        Some(ms) if ms < 300.0 => 16,
        _ => 18,
    }
}

/// A rough cost model of the exact solver, in milliseconds: a few ms at 14
/// empties, growing nearly threefold per extra empty.
pub(super) fn solve_estimate_ms(empties: u32) -> f64 {
    2.0 * 2.8f64.powi(empties as i32 - 14)
}

/// Whether the exact solver is worth starting now, given the time left.
pub(super) fn should_try_solve(budget: &Budget, started: Instant, empties: u32) -> bool {
    let Some(left) = budget.remaining_ms() else {
        return true;
    };
    let spent = started.elapsed().as_secs_f64() * 1000.0;
    let estimate = solve_estimate_ms(empties);
    // Solve at once when it is surely cheap; otherwise give the midgame a
    // fair share first. Solving costs vary tenfold between positions, and a
    // perfect endgame is worth more than a few plies of midgame search, so
    // the attempt is made whenever it has a fair chance.
    estimate * 8.0 <= left || (spent >= 0.25 * (spent + left) && estimate <= 1.5 * left)
}

/// Whether the time left is too short to be worth another iteration. An
/// unfinished iteration still pays when it proves a better first move (the
/// root adopts it), and a request's budget is the most the move may take
/// anyway, so iterations go on until a tenth of the time is left (stopping
/// much earlier, as earlier builds did, left much of a budget unused).
pub(super) fn out_of_time_for_next(budget: &Budget, started: Instant) -> bool {
    let Some(left) = budget.remaining_ms() else {
        return false;
    };
    let spent = started.elapsed().as_secs_f64() * 1000.0;
    spent > 9.0 * left
}
