//! Players: whatever chooses moves in a match. A bot level under a budget
//! is one; the outside programs of the referee plug in behind the same trait.

use crate::game::{ladder, AnyLevel, BotParams, Budget, Game, Rules};
use std::marker::PhantomData;
use std::time::Duration;

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
/// under the turn's budget.
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

    fn budget(&self, turn: &Turn) -> Budget {
        let mut budget = Budget::with_time_ms(turn.budget.as_millis().max(1) as u64);
        if let Some(fixed) = &self.fixed {
            budget.max_depth = fixed.max_depth;
            budget.max_nodes = fixed.max_nodes;
        }
        budget.game_time_left_ms = turn.game_time_left.map(|left| left.as_millis() as u64);
        budget
    }
}

impl<G: Game> Player<G> for LevelPlayer<G> {
    fn name(&self) -> String {
        self.level.to_string()
    }

    fn choose(&mut self, state: &G::State, turn: &Turn) -> Result<Choice<G::Move>, Forfeit> {
        let params = BotParams::<G::BotOptions>::seeded(turn.seed);
        let choice = ladder::choose::<G>(state, &self.level, &params, &self.budget(turn))
            .map_err(|e| Forfeit(format!("{} failed: {e}", self.level)))?;
        Ok(Choice {
            mv: choice.mv,
            nodes: choice.report.nodes,
            depth: choice.report.depth,
            score: choice
                .report
                .score
                .filter(|_| ladder::scores_its_own_play::<G>(&self.level)),
        })
    }

    fn keeps_its_own_budget(&self) -> bool {
        ladder::keeps_its_own_budget::<G>(&self.level)
    }
}
