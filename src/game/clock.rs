//! A player's game clock and the time manager that plans a move's time
//! from it, for every game: what is left, the increment, the moves the game
//! probably has left (each game estimates them from its state), the
//! portal's own overhead a move, and the time the request already waited.
//!
//! The plan follows the engines that manage their own clocks (Stockfish's
//! `timeman.cpp`, KataGo's, UCI's `wtime winc movestogo`): the time the
//! remaining moves can spend (what is left plus the increments still to
//! come, less the overhead each will pay) shared over those moves is the
//! move's target, and a hard cap
//! that is a safe fraction of what is left after the overhead bounds it,
//! so the flag never falls: the target never exceeds the cap.

use super::GameError;
use std::time::Duration;

/// The portal's network and bookkeeping a move, in milliseconds, when the
/// clock does not say.
pub const DEFAULT_OVERHEAD_MS: u64 = 20;

/// The most a clock may hold: a day.
pub const MAX_REMAINING_MS: u64 = 86_400_000;

/// The most an increment may be: an hour.
pub const MAX_INCREMENT_MS: u64 = 3_600_000;

/// The most moves to the next time control.
pub const MAX_MOVES_TO_GO: u32 = 1_000;

/// The most overhead a move: a minute.
pub const MAX_OVERHEAD_MS: u64 = 60_000;

/// The share of what is left (after the overhead) that one move may take
/// at most: the rest is the margin that keeps the flag up.
const HARD_SHARE: f64 = 0.8;

/// The most moves the plan shares the time over, however long the game's
/// estimate says it goes on (beyond it, spending less now only wastes time).
const HORIZON_MOVES: f64 = 40.0;

/// The fewest: near the end the estimate falls, and a move still keeps
/// time for the few after it.
const FEWEST_MOVES: f64 = 2.0;

/// A player's clock as the request gives it: the mover's time left, the
/// time added after each move, and the moves to the next time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameClock {
    /// The mover's time left, in milliseconds.
    pub remaining_ms: u64,
    /// Added to the mover's clock after each of its moves, in milliseconds.
    pub increment_ms: u64,
    /// Moves until the clock is given more time (`remaining_ms` is for
    /// this many moves); `None` for sudden death (with an increment or not).
    pub moves_to_go: Option<u32>,
    /// What the portal spends a move on its side (network, bookkeeping),
    /// taken off what the bot may think.
    pub overhead_ms: u64,
}

/// What the time manager plans for one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimePlan {
    /// The move's target: the time it should take.
    pub target: Duration,
    /// The most it may take: a safe share of what is left.
    pub hard: Duration,
    /// What was left for thinking when the plan was made (after the
    /// overhead and the time the request waited).
    pub available: Duration,
}

impl GameClock {
    /// A clock with no increment, as the course's Halma referee gives one.
    pub fn sudden_death(remaining_ms: u64) -> GameClock {
        GameClock {
            remaining_ms,
            increment_ms: 0,
            moves_to_go: None,
            overhead_ms: DEFAULT_OVERHEAD_MS,
        }
    }

    /// Checks every field against its bounds: a clock in hand is one the
    /// time manager can plan with. Errors point at the field under `at`
    /// (`/clock/remaining_ms`).
    pub fn checked(self, at: &str) -> Result<GameClock, GameError> {
        let within = |field: &str, value: u64, max: u64, what: &str| {
            if value > max {
                Err(GameError::invalid_option_at(
                    format!("{at}/{field}"),
                    format!("{field}={value}: expected {what} from 0 to {max}"),
                ))
            } else {
                Ok(())
            }
        };
        within(
            "remaining_ms",
            self.remaining_ms,
            MAX_REMAINING_MS,
            "milliseconds",
        )?;
        within(
            "increment_ms",
            self.increment_ms,
            MAX_INCREMENT_MS,
            "milliseconds",
        )?;
        within(
            "overhead_ms",
            self.overhead_ms,
            MAX_OVERHEAD_MS,
            "milliseconds",
        )?;
        if let Some(moves) = self.moves_to_go {
            if moves == 0 || moves > MAX_MOVES_TO_GO {
                return Err(GameError::invalid_option_at(
                    format!("{at}/moves_to_go"),
                    format!(
                        "moves_to_go={moves}: expected a whole number from 1 to {MAX_MOVES_TO_GO}"
                    ),
                ));
            }
        }
        Ok(self)
    }

    /// The plan for a move when the game probably has `moves_left` of the
    /// mover's moves to go and the request has already waited `waited`.
    pub fn plan(&self, moves_left: f64, waited: Duration) -> TimePlan {
        let spent_already = self.overhead_ms as f64 + waited.as_secs_f64() * 1000.0;
        let available = (self.remaining_ms as f64 - spent_already).max(0.0);
        let hard = available * HARD_SHARE;
        let moves = match self.moves_to_go {
            Some(moves) => f64::from(moves).min(HORIZON_MOVES),
            None => moves_left.clamp(FEWEST_MOVES, HORIZON_MOVES),
        };
        // This move and the ones after it share what is left and the
        // increments still to come (this move's own comes after it), less
        // the overhead each of those moves will pay (as Stockfish's
        // timeman keeps it back): a bot whose real overhead is below the
        // clock's keeps a reserve that grows with the moves left, instead
        // of living on its increment with nothing in hand.
        let future = (moves - 1.0).max(0.0);
        let pool =
            (available + (self.increment_ms as f64 - self.overhead_ms as f64) * future).max(0.0);
        let target = (pool / moves).min(hard);
        TimePlan {
            target: millis(target),
            hard: millis(hard),
            available: millis(available),
        }
    }
}

/// The move of a position with exactly one legal move: under a clock it is
/// played at once, since the time a search would spend confirming it is
/// the mover's to keep.
pub fn forced_move<G: super::Rules>(state: &G::State) -> Option<G::Move> {
    let mut legal = Vec::new();
    G::legal_moves(state, &mut legal);
    match legal.as_slice() {
        [only] => Some(only.clone()),
        _ => None,
    }
}

/// `ms` milliseconds as a duration, whole microseconds.
fn millis(ms: f64) -> Duration {
    Duration::from_micros((ms.max(0.0) * 1000.0) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(remaining_ms: u64, increment_ms: u64) -> GameClock {
        GameClock {
            remaining_ms,
            increment_ms,
            moves_to_go: None,
            overhead_ms: 0,
        }
    }

    fn ms(duration: Duration) -> f64 {
        duration.as_secs_f64() * 1000.0
    }

    #[test]
    fn a_blitz_clock_shares_its_time_and_increments_over_the_moves_left() {
        // 3+2 at the start of a game estimated 30 moves long.
        let plan = clock(180_000, 2_000).plan(30.0, Duration::ZERO);
        let expected = (180_000.0 + 2_000.0 * 29.0) / 30.0;
        assert!((ms(plan.target) - expected).abs() < 1.0, "{plan:?}");
        assert!(plan.target <= plan.hard);
        assert_eq!(ms(plan.hard), 144_000.0);
    }

    #[test]
    fn the_overhead_of_the_moves_to_come_is_kept_back_so_a_short_clock_builds_a_reserve() {
        let mut low = clock(100, 30);
        low.overhead_ms = 20;
        let plan = low.plan(40.0, Duration::ZERO);
        let expected = (80.0 + 10.0 * 39.0) / 40.0;
        assert!((ms(plan.target) - expected).abs() < 0.01, "{plan:?}");
        assert!(ms(plan.target) < 30.0, "less than the increment: {plan:?}");
        let mut none_to_spare = clock(100, 0);
        none_to_spare.overhead_ms = 20;
        let plan = none_to_spare.plan(40.0, Duration::ZERO);
        assert_eq!(plan.target, Duration::ZERO, "{plan:?}");
    }

    #[test]
    fn the_target_never_passes_the_hard_cap_however_big_the_increment() {
        let plan = clock(1_000, 60_000).plan(30.0, Duration::ZERO);
        assert_eq!(plan.target, plan.hard);
        assert_eq!(ms(plan.hard), 800.0);
    }

    #[test]
    fn overhead_and_queueing_come_off_the_time_first() {
        let mut tight = clock(50, 0);
        tight.overhead_ms = 20;
        let plan = tight.plan(10.0, Duration::from_millis(10));
        assert_eq!(ms(plan.available), 20.0);
        assert!(ms(plan.hard) <= 16.0, "{plan:?}");
        let gone = tight.plan(10.0, Duration::from_millis(100));
        assert_eq!(gone.target, Duration::ZERO);
        assert_eq!(gone.hard, Duration::ZERO);
    }

    #[test]
    fn moves_to_go_bounds_the_share_and_one_move_to_go_takes_the_safe_share() {
        let mut control = clock(60_000, 0);
        control.moves_to_go = Some(10);
        assert_eq!(ms(control.plan(80.0, Duration::ZERO).target), 6_000.0);
        control.moves_to_go = Some(1);
        let last = control.plan(80.0, Duration::ZERO);
        assert_eq!(last.target, last.hard);
    }

    #[test]
    fn a_long_estimate_is_held_to_the_horizon_and_a_short_one_keeps_a_move_in_hand() {
        let long = clock(40_000, 0).plan(500.0, Duration::ZERO);
        assert_eq!(ms(long.target), 1_000.0);
        let short = clock(40_000, 0).plan(0.3, Duration::ZERO);
        assert_eq!(ms(short.target), 20_000.0);
    }

    #[test]
    fn a_clock_out_of_bounds_is_refused_at_its_field() {
        let huge = clock(MAX_REMAINING_MS + 1, 0)
            .checked("/clock")
            .unwrap_err();
        assert_eq!(huge.pointer(), Some("/clock/remaining_ms"));
        let mut zero = clock(1000, 0);
        zero.moves_to_go = Some(0);
        let error = zero.checked("/clock").unwrap_err();
        assert_eq!(error.pointer(), Some("/clock/moves_to_go"));
        assert!(clock(1000, 0).checked("/clock").is_ok());
    }
}
