//! What a search may spend, how it is told to stop, and what it reports.

use super::clock::{GameClock, TimePlan};
use serde::Serialize;
use serde_json::{Map, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// A flag that asks a running search to stop; cheap to clone and to check.
#[derive(Clone, Debug, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    /// A flag that is not raised.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks every holder of this flag to stop.
    pub fn raise(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether someone asked to stop.
    pub fn is_raised(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Why a search stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// It reached its depth limit (or the level's fixed depth).
    Depth,
    /// It reached its node limit.
    Nodes,
    /// Its deadline passed.
    Time,
    /// It proved the result; searching further could not change it.
    Proven,
    /// The client went away or the server is stopping.
    Cancelled,
    /// The move came from the level's opening book, without a search.
    Book,
    /// Under a clock, the only legal move: played at once, without a search.
    Forced,
}

/// The limits of one search: a deadline, optional depth and node caps, and a
/// stop flag raised from outside.
#[derive(Clone, Debug)]
pub struct Budget {
    /// When the search must have answered, if it is timed.
    pub deadline: Option<Instant>,
    /// The time it was given, in milliseconds (echoed in reports).
    pub time_ms: Option<u64>,
    /// A cap on search depth, if the request set one.
    pub max_depth: Option<u32>,
    /// A cap on nodes searched, if the request set one.
    pub max_nodes: Option<u64>,
    /// Raised when the client goes away.
    pub stop: StopFlag,
    /// The server's limit on any one search (its `--max-time-ms`, counted
    /// from the request's arrival), which even a numbered level obeys,
    /// though it heeds no request's time: a level whose own node budget
    /// would outlast it (a slow or overloaded server) is cut short there
    /// and its report says `stopped_by: time`. `None` outside the server.
    pub hard_deadline: Option<Instant>,
    /// What is left of the mover's clock for the whole game, in
    /// milliseconds, when it plays under one: a bot that manages its own
    /// time (Halma's clock manager) plans this move's share from it. The
    /// deadline still caps the move.
    pub game_time_left_ms: Option<u64>,
    /// Who wants each completed depth of an analysis while it runs (a
    /// stream of deepening results); `None` for a plain request.
    pub observer: Option<Observer>,
    /// The mover's clock, when the request plays under one, and when the
    /// request arrived: the game plans the move's time from it
    /// ([`Budget::under_clock`]) once it knows the position.
    pub clock: Option<ClockedMove>,
    /// When the request arrived, on the server (a clock the request's text
    /// gives counts from then).
    pub arrived: Option<Instant>,
    /// Under a clock: the move's planned time and when the move began, so
    /// that a search whose best move has settled stops before it
    /// ([`Budget::enough`]).
    pub pace: Option<Pace>,
}

/// A clocked move's planned time and when it began.
#[derive(Clone, Copy, Debug)]
pub struct Pace {
    /// When the move's search began.
    pub started: Instant,
    /// The time the move was planned to take.
    pub target: std::time::Duration,
    /// The most it may take when its search is unsettled (the best move
    /// changed or the score fell): a few targets, never past the plan's
    /// hard cap.
    pub stretch: std::time::Duration,
}

/// How a clocked search's completed iterations went, for its time manager
/// to decide between them whether to go on ([`Budget::enough`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Iterations completed so far.
    pub iterations: u32,
    /// The last iterations in a row whose best move was the same (1 when
    /// the last one changed it).
    pub stable: u32,
    /// Whether the last iteration's best score fell by more than the
    /// game's significant drop below the one before.
    pub falling: bool,
    /// How long the last two completed iterations took (the last first),
    /// for a search whose iterations grow coarsely: the next one is
    /// foreseen from them, and not started when it would end well past
    /// the time to stop. Zero where the search does not say.
    pub iteration_times: [std::time::Duration; 2],
}

/// The most targets a move may stretch to when its search is unsettled.
const MOST_STRETCH: f64 = 3.0;

/// A move to be played under a clock: the clock as the request gave it and
/// when the request arrived (the time it waits in the queue is the
/// mover's own).
#[derive(Clone, Copy, Debug)]
pub struct ClockedMove {
    /// The mover's clock.
    pub clock: GameClock,
    /// When the request arrived.
    pub arrived: Instant,
}

/// What the time manager planned for a clocked move and what the move
/// took, as `search.clock` reports it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ClockReport {
    /// The time the move was planned to take, in milliseconds.
    pub planned_ms: u64,
    /// The most it could take (a safe share of what was left), in milliseconds.
    pub cap_ms: u64,
    /// The time it took from the request's arrival to the answer (the
    /// queue included), in milliseconds.
    pub used_ms: u64,
    /// The mover's clock after the move as the portal will show it: what
    /// was left, less the time used and the overhead, plus the increment.
    pub left_ms: u64,
}

impl ClockedMove {
    /// The report of a move planned as `plan` that took until now.
    pub fn report(&self, plan: &TimePlan) -> ClockReport {
        let used = self.arrived.elapsed().as_millis() as u64;
        ClockReport {
            planned_ms: plan.target.as_millis() as u64,
            cap_ms: plan.hard.as_millis() as u64,
            used_ms: used,
            left_ms: (self.clock.remaining_ms + self.clock.increment_ms)
                .saturating_sub(used + self.clock.overhead_ms),
        }
    }
}

/// Receives an analysis' result after each completed depth, as the game's
/// [`Analysis`](super::Analysis) behind `&dyn Any` (the budget knows no
/// game's move type; the receiver does, and downcasts).
#[derive(Clone)]
pub struct Observer(pub std::sync::Arc<ObserveFn>);

/// What an [`Observer`] calls.
pub type ObserveFn = dyn Fn(&dyn std::any::Any) + Send + Sync;

impl std::fmt::Debug for Observer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Observer")
    }
}

impl Budget {
    /// Hands a completed depth's analysis to the observer, if there is one;
    /// `make` runs only then.
    pub fn observe<T: std::any::Any>(&self, make: impl FnOnce() -> T) {
        if let Some(Observer(observer)) = &self.observer {
            observer(&make());
        }
    }
}

impl Budget {
    /// A budget with no limit at all (for tests and tools that set their own).
    pub fn unlimited() -> Self {
        Budget {
            deadline: None,
            time_ms: None,
            max_depth: None,
            max_nodes: None,
            stop: StopFlag::new(),
            hard_deadline: None,
            game_time_left_ms: None,
            observer: None,
            clock: None,
            arrived: None,
            pace: None,
        }
    }

    /// The budget of a clocked move in a position where the mover probably
    /// has `moves_left` moves to go: the plan's target is the deadline a
    /// timed level searches to, and its cap the hard deadline no level
    /// (a numbered one included, whose own budget is kept) passes. Both
    /// count from now, after the time the request waited. `None` when the
    /// budget has no clock.
    pub fn under_clock(&self, moves_left: f64) -> Option<(Budget, TimePlan)> {
        let clocked = self.clock?;
        let plan = clocked.clock.plan(moves_left, clocked.arrived.elapsed());
        let now = Instant::now();
        let earliest = |a: Option<Instant>, b: Instant| Some(a.map_or(b, |a| a.min(b)));
        let mut budget = self.clone();
        budget.deadline = earliest(self.hard_deadline, now + plan.target);
        budget.hard_deadline = earliest(self.hard_deadline, now + plan.hard);
        budget.time_ms = Some(plan.target.as_millis() as u64);
        budget.pace = Some(Pace {
            started: now,
            target: plan.target,
            stretch: plan.hard.min(plan.target.mul_f64(MOST_STRETCH)),
        });
        Some((budget, plan))
    }

    /// The budget for a clocked search that decides between its
    /// iterations whether to go on ([`Budget::enough`]): its deadline moves
    /// out to the move's stretch (never past the hard deadline), so an
    /// iteration the time manager chose to start may finish. A budget
    /// with no clock, or no deadline (a numbered level's), is the same.
    pub fn stretched(&self) -> Budget {
        let (Some(pace), Some(_)) = (self.pace, self.deadline) else {
            return self.clone();
        };
        let stretch = pace.started + pace.stretch;
        let mut budget = self.clone();
        budget.deadline = Some(self.hard_deadline.map_or(stretch, |hard| hard.min(stretch)));
        budget
    }

    /// Whether a clocked search that has completed `progress` may stop
    /// now instead of starting another iteration: once its time passes a
    /// share of the move's target that shrinks the longer the best move
    /// has held and grows when the last iteration changed it or the score
    /// fell (the extension, up to the move's stretch). The time saved
    /// goes to the moves after it. Never for a search with no clock.
    pub fn enough(&self, progress: Progress) -> bool {
        let Some(pace) = self.pace else {
            return false;
        };
        let limit = target_share(progress) * pace.target.as_secs_f64();
        let elapsed = pace.started.elapsed().as_secs_f64();
        elapsed >= limit || elapsed + next_iteration(progress) / 2.0 > limit
    }

    /// A budget of `time_ms` milliseconds from now.
    pub fn with_time_ms(time_ms: u64) -> Self {
        Budget {
            deadline: Some(Instant::now() + std::time::Duration::from_millis(time_ms)),
            time_ms: Some(time_ms),
            ..Budget::unlimited()
        }
    }

    /// The same budget with a depth cap.
    pub fn depth(mut self, depth: u32) -> Self {
        self.max_depth = Some(depth);
        self
    }

    /// The same budget with a node cap.
    pub fn nodes(mut self, nodes: u64) -> Self {
        self.max_nodes = Some(nodes);
        self
    }

    /// Whether the search must stop now for time or cancellation; `None` means go on.
    pub fn interrupted(&self) -> Option<StopReason> {
        if self.stop.is_raised() {
            return Some(StopReason::Cancelled);
        }
        // The hard deadline only stops a search; it plans by `deadline`
        // alone, so that a node-capped search searches the same way however
        // far off the server's limit is.
        let now = Instant::now();
        let past = |limit: Option<Instant>| limit.is_some_and(|limit| now >= limit);
        (past(self.deadline) || past(self.hard_deadline)).then_some(StopReason::Time)
    }

    /// Whether `nodes` searched so far exhaust the node cap.
    pub fn nodes_exhausted(&self, nodes: u64) -> bool {
        self.max_nodes.is_some_and(|cap| nodes >= cap)
    }

    /// Milliseconds left before the deadline (`None` when untimed).
    pub fn remaining_ms(&self) -> Option<f64> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()).as_secs_f64() * 1000.0)
    }

    /// The same budget with its deadline moved earlier to `deadline` if that is sooner.
    pub fn tightened(&self, deadline: Instant) -> Budget {
        let mut budget = self.clone();
        budget.deadline = Some(match self.deadline {
            Some(current) if current < deadline => current,
            _ => deadline,
        });
        budget
    }
}

/// A budget field the server cut to its cap, as `search.clamped` reports it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Clamped {
    /// The request field (`time_ms`, `max_depth`, `max_nodes`).
    pub field: &'static str,
    /// What the request asked for.
    pub requested: u64,
    /// What the search used: the server's cap.
    pub used: u64,
}

impl Clamped {
    /// `requested` cut to `cap` (a value is at least 1), the cut noted in
    /// `clamped`: the one way every endpoint holds a budget field to the
    /// server's cap.
    pub fn cap(field: &'static str, requested: u64, cap: u64, clamped: &mut Vec<Clamped>) -> u64 {
        let used = requested.clamp(1, cap.max(1));
        if used < requested {
            clamped.push(Clamped {
                field,
                requested,
                used,
            });
        }
        used
    }
}

/// What a bot's search did, returned as the `search` object of `bot-move`
/// and `analyze`. Fields not named here are a level's notes in its own
/// words (`rank_played`, `temperature`, Halma's `clock`): output only.
#[derive(Clone, Debug, Default, Serialize, schemars::JsonSchema)]
#[schemars(rename = "Search")]
pub struct SearchReport {
    /// The level that chose the move.
    pub level: String,
    /// Wall time spent, in milliseconds.
    pub elapsed_ms: f64,
    /// Time the request waited for a worker before the search began, in
    /// milliseconds (on the server; under a clock it was the mover's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub queued_ms: Option<f64>,
    /// Under a clock: the time planned for the move, its cap, the time it
    /// took from the request's arrival and the mover's time left after it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockReport>,
    /// The time budget used, in milliseconds (after clamping), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<u64>,
    /// The depth cap used, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_depth: Option<u32>,
    /// The node cap used, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_nodes: Option<u64>,
    /// The seed of the random choices, so that the answer can be reproduced.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The depth the search completed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// Positions visited.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// The chosen move's score from the side to move's point of view (or
    /// the request's `perspective`), in `score_unit`. Where the search
    /// completed two depths it is their average, which does not swing with
    /// the parity of the depth (docs/SCORE-STABILITY.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<i64>,
    /// The chance that the side whose view `score` takes wins with the
    /// chosen move (0–1, draws counted half): certain where proven, else
    /// from the game's win model fitted on self-play (docs/CALIBRATION.md).
    /// Absent where there is no score or no model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub win_probability: Option<f64>,
    /// Whose view `score` and `win_probability` take when the request named
    /// a side in `perspective`; absent for the side to move's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub perspective: Option<String>,
    /// Why the search stopped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped_by: Option<StopReason>,
    /// The unit of `score` (`"hundredths of a disc (estimate)"`), which is
    /// always from the side to move's point of view.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score_unit: Option<String>,
    /// The request's budget fields that were above the server's caps, each
    /// with what was asked and what was used; absent when nothing was cut.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clamped: Vec<Clamped>,
    /// Whether the score is the game-theoretic value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proven: Option<bool>,
    /// Whether this answer came from the position cache: an earlier
    /// identical request's (same position, level, seed and budget; for a
    /// game with board symmetries such as Reversi, the position may be a
    /// turned or mirrored twin, and the moves, lines and new state are
    /// turned back), whose search ended on its depth or node cap or on a
    /// proof, so that it is what searching again would give; the figures
    /// are that search's. Absent when the search ran for this request.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cached: bool,
    /// What a level adds to its report, in the game's own words: the unit
    /// of its score, its clock plan, the rule that forced a pass. Output
    /// only; nothing reads it back.
    #[serde(flatten)]
    pub notes: Map<String, Value>,
}

impl SearchReport {
    /// A report for a level that does not search (random, rule-based levels).
    pub fn plain() -> Self {
        SearchReport::default()
    }
}

/// The foreseen length of the next iteration, in seconds: the last one's
/// times the growth of the last two (held between 1.5 and 5); zero when
/// the search gave no times. Iterations of a game with few moves grow
/// coarsely (three to five times), and a search that stops only once it
/// has passed its limit would then take 1.7 times its target on average
/// (Advance did); one that skips an iteration ending more than halfway
/// past the limit spends about the target.
fn next_iteration(progress: Progress) -> f64 {
    let [last, before] = progress.iteration_times.map(|t| t.as_secs_f64());
    if last <= 0.0 {
        return 0.0;
    }
    let growth = if before > 0.0 { last / before } else { 3.0 };
    last * growth.clamp(1.5, 5.0)
}

/// The share of the target after which a clocked search stops between
/// iterations (following Stockfish's `timeman.cpp`: a stable best move
/// stops early, an unstable one or a falling score thinks longer).
fn target_share(progress: Progress) -> f64 {
    let by_stability: f64 = match progress.stable {
        _ if progress.iterations < 2 => 1.0,
        0 | 1 => 1.5,
        2 | 3 => 1.0,
        4..=6 => 0.8,
        _ => 0.6,
    };
    let by_score = if progress.falling { 1.3 } else { 1.0 };
    (by_stability * by_score).min(MOST_STRETCH)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn paced(target_ms: u64, started_ms_ago: u64) -> Budget {
        Budget {
            pace: Some(Pace {
                started: Instant::now() - Duration::from_millis(started_ms_ago),
                target: Duration::from_millis(target_ms),
                stretch: Duration::from_millis(target_ms * 3),
            }),
            ..Budget::unlimited()
        }
    }

    fn held(iterations: u32, stable: u32) -> Progress {
        Progress {
            iterations,
            stable,
            ..Progress::default()
        }
    }

    #[test]
    fn an_iteration_foreseen_to_end_well_past_the_limit_is_not_started() {
        let times = |last: u64, before: u64| Progress {
            iteration_times: [Duration::from_millis(last), Duration::from_millis(before)],
            ..held(6, 2)
        };
        // 700 ms of a 1000 ms limit gone, the last iteration 200 ms, four
        // times the one before: the next would take 800 ms, ending 500 ms
        // past the limit.
        assert!(paced(1000, 700).enough(times(200, 50)));
        // Growing half as fast, 400 ms: it ends 100 ms past.
        assert!(!paced(1000, 700).enough(times(200, 100)));
        assert!(
            !paced(1000, 700).enough(held(6, 2)),
            "no times, no foresight"
        );
    }

    #[test]
    fn a_clocked_search_stops_early_only_once_its_best_move_has_held() {
        assert!(
            !Budget::unlimited().enough(held(10, 10)),
            "no clock, no early stop"
        );
        assert!(!paced(1000, 900).enough(held(4, 2)), "two are not settled");
        assert!(paced(1000, 1000).enough(held(4, 3)));
        assert!(paced(1000, 800).enough(held(6, 5)));
        assert!(!paced(1000, 700).enough(held(6, 5)), "too early for five");
        assert!(paced(1000, 600).enough(held(9, 8)));
        assert!(!paced(1000, 500).enough(held(12, 11)));
        assert!(
            paced(1000, 1000).enough(held(1, 1)),
            "one iteration, the target"
        );
    }

    #[test]
    fn a_changed_best_move_or_a_falling_score_thinks_past_the_target() {
        assert!(!paced(1000, 1200).enough(held(4, 1)), "it just changed");
        assert!(paced(1000, 1500).enough(held(4, 1)));
        let falling = Progress {
            falling: true,
            ..held(6, 5)
        };
        assert!(
            !paced(1000, 1000).enough(falling),
            "a settled move, falling"
        );
        assert!(paced(1000, 1040).enough(falling));
        let both = Progress {
            falling: true,
            ..held(4, 1)
        };
        assert!(!paced(1000, 1900).enough(both));
        assert!(paced(1000, 1950).enough(both));
    }

    #[test]
    fn a_stretched_budget_moves_its_deadline_out_but_never_past_the_hard_one() {
        let now = Instant::now();
        let mut budget = paced(100, 0);
        budget.deadline = Some(now + Duration::from_millis(100));
        let stretched = budget.stretched();
        assert!(stretched.deadline.unwrap() >= now + Duration::from_millis(290));
        budget.hard_deadline = Some(now + Duration::from_millis(150));
        assert_eq!(budget.stretched().deadline, budget.hard_deadline);
        let no_deadline = Budget {
            deadline: None,
            ..paced(100, 0)
        };
        assert_eq!(no_deadline.stretched().deadline, None, "a numbered level's");
        let unclocked = Budget::with_time_ms(100);
        assert_eq!(unclocked.stretched().deadline, unclocked.deadline);
    }

    #[test]
    fn a_clock_plans_the_deadline_within_the_servers_cap() {
        let arrived = Instant::now();
        let budget = Budget {
            clock: Some(ClockedMove {
                clock: GameClock::sudden_death(10_000),
                arrived,
            }),
            hard_deadline: Some(arrived + Duration::from_millis(50)),
            ..Budget::unlimited()
        };
        let (planned, plan) = budget.under_clock(10.0).unwrap();
        assert!(plan.target > Duration::from_millis(500));
        assert!(planned.deadline.unwrap() <= arrived + Duration::from_millis(50));
        assert!(planned.pace.is_some());
        assert!(Budget::unlimited().under_clock(10.0).is_none());
    }
}
