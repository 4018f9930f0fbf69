//! Time controls and the bookkeeping of a side's time: a time per move,
//! or a game clock with an increment that a side's moves run down and the
//! increment fills up after each, the clock the time manager
//! ([`GameClock::plan`]) plans a move from.

use crate::game::clock::{GameClock, DEFAULT_OVERHEAD_MS};
use std::time::Duration;

/// How much time a side has.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// A fixed time for every move; a move that comes more than `grace`
    /// after it loses on time.
    PerMove {
        /// The time each move is given.
        time: Duration,
        /// How late a move may come before it loses on time.
        grace: Duration,
    },
    /// One clock for the whole game, given `increment` after each of the
    /// side's moves; a side whose clock runs out loses. `move_cap`
    /// optionally caps any single move's budget.
    GameClock {
        /// The whole game's time at the start.
        total: Duration,
        /// Added to the clock after each move (zero for sudden death).
        increment: Duration,
        /// The most one move is offered, if capped.
        move_cap: Option<Duration>,
    },
}

impl TimeControl {
    /// A time per move with the given grace, in milliseconds.
    pub fn per_move_ms(time_ms: u64, grace_ms: u64) -> Self {
        TimeControl::PerMove {
            time: Duration::from_millis(time_ms),
            grace: Duration::from_millis(grace_ms),
        }
    }

    /// A game clock of `total` with `increment` after each move, no move capped.
    pub fn clock(total: Duration, increment: Duration) -> Self {
        TimeControl::GameClock {
            total,
            increment,
            move_cap: None,
        }
    }

    /// Short words for tables: `100 ms/move`, `60 s clock`, `60 s + 500
    /// ms clock` (a clock without increment is labelled as before
    /// increments existed, so that older games logs resume).
    pub fn label(&self) -> String {
        match self {
            TimeControl::PerMove { time, .. } => format!("{} ms/move", time.as_millis()),
            TimeControl::GameClock {
                total, increment, ..
            } if increment.is_zero() => format!("{} s clock", total.as_secs_f64()),
            TimeControl::GameClock {
                total, increment, ..
            } => format!(
                "{} s + {} ms clock",
                total.as_secs_f64(),
                increment.as_millis()
            ),
        }
    }

    /// Whether this is a game clock (rather than a time per move).
    pub fn is_clock(&self) -> bool {
        matches!(self, TimeControl::GameClock { .. })
    }
}

/// One side's time during a game.
#[derive(Clone, Debug)]
pub struct SideClock {
    control: TimeControl,
    left: Duration,
}

impl SideClock {
    /// A full clock under `control`.
    pub fn new(control: TimeControl) -> Self {
        let left = match control {
            TimeControl::PerMove { time, .. } => time,
            TimeControl::GameClock { total, .. } => total,
        };
        SideClock { control, left }
    }

    /// The budget offered for the next move.
    pub fn move_budget(&self) -> Duration {
        match self.control {
            TimeControl::PerMove { time, .. } => time,
            TimeControl::GameClock { move_cap, .. } => {
                move_cap.map_or(self.left, |cap| cap.min(self.left))
            }
        }
    }

    /// What is left of a game clock (`None` under a time per move).
    pub fn game_time_left(&self) -> Option<Duration> {
        self.control.is_clock().then_some(self.left)
    }

    /// The mover's clock as the time manager reads it (and a service is
    /// sent it): what is left, the increment, sudden death, and the
    /// default overhead a move. `None` under a time per move.
    pub fn game_clock(&self) -> Option<GameClock> {
        let TimeControl::GameClock { increment, .. } = self.control else {
            return None;
        };
        Some(GameClock {
            remaining_ms: self.left.as_millis() as u64,
            increment_ms: increment.as_millis() as u64,
            moves_to_go: None,
            overhead_ms: DEFAULT_OVERHEAD_MS,
        })
    }

    /// Charges a move that took `spent`, and then, under a game clock that
    /// did not run out, adds the increment; `Err` with the reason when the
    /// move loses on time.
    pub fn charge(&mut self, spent: Duration) -> Result<(), String> {
        match self.control {
            TimeControl::PerMove { time, grace } => {
                if spent > time + grace {
                    return Err(format!(
                        "timeout after {} ms (limit {} ms + {} ms grace)",
                        spent.as_millis(),
                        time.as_millis(),
                        grace.as_millis()
                    ));
                }
                Ok(())
            }
            TimeControl::GameClock {
                total, increment, ..
            } => match self.left.checked_sub(spent) {
                Some(left) if !left.is_zero() => {
                    self.left = left + increment;
                    Ok(())
                }
                _ => {
                    self.left = Duration::ZERO;
                    Err(format!("clock ran out ({} s)", total.as_secs_f64()))
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_past_its_time_and_grace_loses_on_time() {
        let mut clock = SideClock::new(TimeControl::per_move_ms(100, 50));
        assert!(clock.charge(Duration::from_millis(149)).is_ok());
        let reason = clock.charge(Duration::from_millis(151)).unwrap_err();
        assert!(reason.starts_with("timeout after 151 ms"), "{reason}");
        assert_eq!(clock.game_time_left(), None);
    }

    #[test]
    fn a_game_clock_runs_down_and_caps_each_move() {
        let control = TimeControl::GameClock {
            total: Duration::from_millis(1000),
            increment: Duration::ZERO,
            move_cap: Some(Duration::from_millis(300)),
        };
        let mut clock = SideClock::new(control);
        assert_eq!(clock.move_budget(), Duration::from_millis(300));
        clock.charge(Duration::from_millis(800)).unwrap();
        assert_eq!(clock.move_budget(), Duration::from_millis(200));
        assert_eq!(clock.game_time_left(), Some(Duration::from_millis(200)));
        assert!(clock.charge(Duration::from_millis(200)).is_err());
    }

    #[test]
    fn an_increment_is_added_after_each_move_that_kept_its_flag_up() {
        let control = TimeControl::clock(Duration::from_millis(1000), Duration::from_millis(100));
        assert_eq!(control.label(), "1 s + 100 ms clock");
        assert_eq!(
            TimeControl::clock(Duration::from_secs(60), Duration::ZERO).label(),
            "60 s clock"
        );
        let mut clock = SideClock::new(control);
        clock.charge(Duration::from_millis(400)).unwrap();
        assert_eq!(clock.game_time_left(), Some(Duration::from_millis(700)));
        let sent = clock.game_clock().unwrap();
        assert_eq!((sent.remaining_ms, sent.increment_ms), (700, 100));
        assert_eq!(sent.moves_to_go, None);
        // A move longer than what is left loses, increment or not.
        let reason = clock.charge(Duration::from_millis(701)).unwrap_err();
        assert_eq!(reason, "clock ran out (1 s)");
        assert_eq!(clock.game_time_left(), Some(Duration::ZERO));
        assert_eq!(
            SideClock::new(TimeControl::per_move_ms(100, 50)).game_clock(),
            None
        );
    }
}
