//! What a search may spend, how it is told to stop, and what it reports.

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
        }
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
