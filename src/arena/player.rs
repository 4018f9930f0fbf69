//! Players: whatever chooses moves in a match. A bot level under a budget
//! is one; the outside programs of the referee plug in behind the same trait.

use crate::game::clock::{GameClock, TimePlan};
use crate::game::{ladder, AnyLevel, BotParams, Budget, ClockedMove, Game, Rules};
use serde::{Deserialize, Serialize};
use std::marker::PhantomData;
use std::time::{Duration, Instant};

/// What a player is told when it is its turn.
#[derive(Clone, Debug)]
pub struct Turn {
    /// Plies played so far in the game.
    pub ply: usize,
    /// The seed for this move's random choices, derived from the match seed.
    pub seed: u64,
    /// The time this move may take.
    pub budget: Duration,
    /// What is left of the mover's game clock, when the match has one.
    pub game_time_left: Option<Duration>,
    /// The mover's clock as the time manager plans from it (what is left,
    /// the increment, the overhead), when the match has one.
    pub clock: Option<GameClock>,
}

/// What the time manager planned for a move under a clock, as the games
/// log keeps it beside the move's think time (the time it used).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MovePlan {
    /// The time the move was planned to take, in milliseconds.
    pub planned_ms: f64,
    /// The most it could take (a safe share of what was left), in milliseconds.
    pub cap_ms: f64,
    /// For a service: the time the service itself says the move took from
    /// the request's arrival to its answer, in milliseconds (the think time
    /// beside it is the whole call's, so the difference is the lag).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub served_ms: Option<f64>,
}

impl MovePlan {
    /// The plan a local level searched under.
    pub fn of(plan: &TimePlan) -> Self {
        MovePlan {
            planned_ms: millis(plan.target),
            cap_ms: millis(plan.hard),
            served_ms: None,
        }
    }
}

/// `duration` in milliseconds, to the hundredth.
fn millis(duration: Duration) -> f64 {
    (duration.as_secs_f64() * 100_000.0).round() / 100.0
}

/// A chosen move with what the player says about its search.
#[derive(Clone, Debug)]
pub struct Choice<M> {
    /// The move.
    pub mv: M,
    /// Positions searched, where the player counts them.
    pub nodes: Option<u64>,
    /// The depth the search completed, where it has one.
    pub depth: Option<u32>,
    /// The player's own score of the move, from the mover's point of view
    /// in the game's units, where it reports one (resign adjudication
    /// reads it).
    pub score: Option<i64>,
    /// What the time manager planned for the move, for a player under a
    /// clock that plans with it (a level, local or a service's).
    pub plan: Option<MovePlan>,
}

impl<M> Choice<M> {
    /// A move with nothing said about its search.
    pub fn of(mv: M) -> Self {
        Choice {
            mv,
            nodes: None,
            depth: None,
            score: None,
            plan: None,
        }
    }
}

/// Why a player lost without the game ending on the board: it failed, hung,
/// or answered something that is not a legal move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Forfeit(pub String);

/// A participant in a match, for one game at a time (the engine makes a
/// fresh player for every game, so a player may keep state within a game).
pub trait Player<G: Rules>: Send {
    /// The name in the results table.
    fn name(&self) -> String;

    /// Chooses a move in `state`, where it is this player's turn. The engine
    /// checks that the move is legal; an error forfeits the game.
    fn choose(&mut self, state: &G::State, turn: &Turn) -> Result<Choice<G::Move>, Forfeit>;

    /// Told about every move played, by either side, before the next turn
    /// (players that keep a board of their own, such as a GTP engine, follow
    /// the game here).
    fn observe(&mut self, _before: &G::State, _mv: &G::Move) {}

    /// Whether the player searches to a budget of its own whatever time it
    /// is offered (a node-capped numbered level), so that the match clock
    /// times its moves but never forfeits one: under load such a player is
    /// slower, not weaker, and losing it on time would make a ladder's
    /// load-independent pairs depend on load after all.
    fn keeps_its_own_budget(&self) -> bool {
        false
    }
}

/// A bot level of the game, named or numbered, as the service plays it,
/// under the turn's budget: under a game clock a named level's move is
/// planned by the time manager the service uses ([`Budget::under_clock`]
/// from the game's estimate of the moves left), its target the deadline
/// and its cap the hard deadline; a numbered level keeps its own budget.
pub struct LevelPlayer<G: Game> {
    level: AnyLevel<G::Level>,
    fixed: Option<Budget>,
    _game: PhantomData<fn() -> G>,
}

impl<G: Game> LevelPlayer<G> {
    /// The level `level` (with its options), given each turn's time.
    pub fn new(level: AnyLevel<G::Level>) -> Self {
        LevelPlayer {
            level,
            fixed: None,
            _game: PhantomData,
        }
    }

    /// The same level searching with `budget`'s depth and node caps on
    /// every move (its time still comes from the turn), which makes it
    /// deterministic when the budget has no deadline of its own.
    pub fn with_caps(mut self, budget: Budget) -> Self {
        self.fixed = Some(budget);
        self
    }

    /// The budget of the move in `state`, and the time manager's plan
    /// when the move is planned under a clock.
    fn budget(&self, state: &G::State, turn: &Turn) -> (Budget, Option<TimePlan>) {
        let arrived = Instant::now();
        let mut budget = Budget::with_time_ms(turn.budget.as_millis().max(1) as u64);
        if let Some(fixed) = &self.fixed {
            budget.max_depth = fixed.max_depth;
            budget.max_nodes = fixed.max_nodes;
        }
        budget.game_time_left_ms = turn.game_time_left.map(|left| left.as_millis() as u64);
        let Some(clock) = turn.clock.filter(|_| !self.keeps_own_budget()) else {
            return (budget, None);
        };
        // What the move is offered (the move cap, or all that is left)
        // bounds the plan's cap, as a server's longest search does.
        budget.hard_deadline = budget.deadline;
        budget.clock = Some(ClockedMove { clock, arrived });
        budget.arrived = Some(arrived);
        match budget.under_clock(G::moves_left(state)) {
            Some((planned, plan)) => (planned, Some(plan)),
            None => (budget, None),
        }
    }

    fn keeps_own_budget(&self) -> bool {
        ladder::keeps_its_own_budget::<G>(&self.level)
    }
}

impl<G: Game> Player<G> for LevelPlayer<G> {
    fn name(&self) -> String {
        self.level.to_string()
    }

    fn choose(&mut self, state: &G::State, turn: &Turn) -> Result<Choice<G::Move>, Forfeit> {
        let params = BotParams::<G::BotOptions>::seeded(turn.seed);
        let (budget, plan) = self.budget(state, turn);
        if let (Some(plan), Some(mv)) = (&plan, crate::game::clock::forced_move::<G>(state)) {
            // Under a clock a forced move is played at once, as the service
            // plays it: the time a search would spend confirming it is the
            // mover's to keep.
            return Ok(Choice {
                nodes: Some(0),
                depth: Some(0),
                plan: Some(MovePlan::of(plan)),
                ..Choice::of(mv)
            });
        }
        let choice = ladder::choose::<G>(state, &self.level, &params, &budget)
            .map_err(|e| Forfeit(format!("{} failed: {e}", self.level)))?;
        Ok(Choice {
            mv: choice.mv,
            nodes: choice.report.nodes,
            depth: choice.report.depth,
            score: choice
                .report
                .score
                .filter(|_| ladder::scores_its_own_play::<G>(&self.level)),
            plan: plan.as_ref().map(MovePlan::of),
        })
    }

    fn keeps_its_own_budget(&self) -> bool {
        self.keeps_own_budget()
    }
}
