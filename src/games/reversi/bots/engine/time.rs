//! The engine's own time management: how big a table a budget affords,
//! whether the exact solver is worth starting, and whether another
//! iteration is.

use super::RootLine;
use crate::game::Budget;
use crate::games::reversi::bots::solve_costs;
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

/// Whether the exact solver should start now: when the measured solve
/// times (`solve_costs.json`) say that nine solves in ten of this many
/// empties fit in the time the move may still take (under a clock, its
/// stretch: a proof is worth more than the plies of midgame search the
/// planned time would buy, and the stretch never passes the clock's safe
/// cap). A solve that does not finish is stopped by the deadline, and the
/// move is the midgame's.
pub(super) fn should_try_solve(budget: &Budget, empties: u32) -> bool {
    match budget.remaining_ms() {
        Some(left) => solve_costs::shipped().likely_most_ms(empties) <= left,
        None => true,
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_solve_starts_when_its_measured_cost_fits_in_the_time_left() {
        let costs = solve_costs::shipped();
        assert!(should_try_solve(&Budget::unlimited(), 40));
        let budget = Budget::with_time_ms(10_000);
        let fits = (10..=40)
            .filter(|&e| costs.likely_most_ms(e) <= 9_000.0)
            .max()
            .unwrap();
        assert!(should_try_solve(&budget, fits));
        let too_many = (10..=60)
            .find(|&e| costs.likely_most_ms(e) > 10_000.0)
            .unwrap();
        assert!(!should_try_solve(&budget, too_many));
    }
}
