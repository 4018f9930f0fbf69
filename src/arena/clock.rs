//! Time controls and the bookkeeping of a side's time.

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
    /// One clock for the whole game; a side whose clock runs out loses.
    /// `move_cap` optionally caps any single move's budget.
    GameClock {
        /// The whole game's time.
        total: Duration,
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

    /// Short words for tables: `100 ms/move`, `60 s clock`.
    pub fn label(&self) -> String {
        match self {
            TimeControl::PerMove { time, .. } => format!("{} ms/move", time.as_millis()),
            TimeControl::GameClock { total, .. } => format!("{} s clock", total.as_secs_f64()),
        }
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
        matches!(self.control, TimeControl::GameClock { .. }).then_some(self.left)
    }

    /// Charges a move that took `spent`; `Err` with the reason when that
    /// loses on time.
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
            TimeControl::GameClock { total, .. } => match self.left.checked_sub(spent) {
                Some(left) if !left.is_zero() => {
                    self.left = left;
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
            move_cap: Some(Duration::from_millis(300)),
        };
        let mut clock = SideClock::new(control);
        assert_eq!(clock.move_budget(), Duration::from_millis(300));
        clock.charge(Duration::from_millis(800)).unwrap();
        assert_eq!(clock.move_budget(), Duration::from_millis(200));
        assert_eq!(clock.game_time_left(), Some(Duration::from_millis(200)));
        assert!(clock.charge(Duration::from_millis(200)).is_err());
    }
}
