//! Reversi (Othello) on bitboards, with three bot levels: `random`,
//! `norvig` (the course-lab reference: fixed-depth alpha-beta over Norvig's
//! square weights) and `strong` (an engine with an exact endgame solver).
//! Rules, notation and levels: `docs/rules/reversi.md`.
//!
//! Layout: [`board`] holds the bitboard rules, [`state`] the validated state
//! and its JSON and text forms, [`perft`] the fast move counter, [`norvig`],
//! [`eval`], [`engine`] and [`endgame`] the bots.
//!
//! Decisions worth knowing:
//! - `norvig`: depth from `norvig:depth=N`, else the request's `max_depth`,
//!   else 6, always capped by `max_depth` and kept within 1–10. A finished
//!   game is a leaf worth 10 000 per disc of difference (any win beats any
//!   square-weight sum, a bigger win a smaller one); a pass uses a ply.
//! - `strong` scores: exact (solved) scores are final disc differences with
//!   the empty squares going to the winner (the FFO convention); unsolved
//!   scores are evaluation units, about hundredths of a disc. The report's
//!   `score_unit` says which. The game's outcome itself only compares discs,
//!   which names the same winner.
//! - A time budget makes `strong` non-deterministic; with only depth or node
//!   caps it is deterministic.

pub mod board;
pub mod endgame;
pub mod engine;
pub mod eval;
pub mod norvig;
pub mod perft;
pub mod state;

#[cfg(test)]
mod tests;

pub use state::{Move, State};

use crate::game::{
    Analysis, BotChoice, BotParams, Bots, Budget, Codec, GameError, GameInfo, LevelSpec, NoOptions,
    Outcome, Player, Rules, ScoredMove, SearchReport, TextRequest,
};
use board::Bits;
use engine::{Plan, RootLine, Thought, WIN};
use rand::Rng;
use serde_json::{json, Map, Value};

/// The game of Reversi, as seen by the registry.
pub struct Reversi;

/// The deepest `norvig` search a request may ask for.
const NORVIG_MAX_DEPTH: u32 = 10;
/// The `strong` level's midgame depth when it has neither deadline nor depth cap.
const STRONG_UNTIMED_DEPTH: u32 = 10;
/// Without a deadline, `strong` solves exactly from this many empties.
const STRONG_UNTIMED_SOLVE: u32 = 18;
/// With a deadline, the solver is tried from this many empties if time looks enough.
const STRONG_TIMED_SOLVE: u32 = 26;

crate::declare_levels! {
    /// The bot levels of Reversi.
    pub enum ReversiLevel {
        Random = "random": "a uniformly random legal move (seeded)",
        Norvig = "norvig": "fixed-depth alpha-beta over Norvig's square weights (depth 6; norvig:depth=N or max_depth, 1-10)",
        Strong = "strong": "iterative-deepening PVS with mobility, stability and parity, and an exact endgame solver",
    }
}

impl Rules for Reversi {
    type State = State;
    type Move = Move;

    fn to_move(state: &State) -> Player {
        state.to_move
    }

    fn legal_moves(state: &State, out: &mut Vec<Move>) {
        state.legal_moves(out);
    }

    fn apply(state: &State, mv: &Move) -> State {
        state.apply(*mv)
    }

    fn outcome(state: &State) -> Outcome {
        outcome(state)
    }
}

impl Bots for Reversi {
    type Level = ReversiLevel;

    type BotOptions = NoOptions;

    const DEFAULT_LEVEL: ReversiLevel = ReversiLevel::Strong;

    fn choose_move(
        state: &State,
        level: &LevelSpec<ReversiLevel>,
        params: &BotParams,
        budget: &Budget,
    ) -> Result<BotChoice<Move>, GameError> {
        match level.level {
            ReversiLevel::Random => {
                level.only_options(&[])?;
                Ok(random_move(state, params))
            }
            ReversiLevel::Norvig => {
                level.only_options(&["depth"])?;
                let depth = level.int_option("depth", 1..=u64::from(NORVIG_MAX_DEPTH))?;
                Ok(norvig_move(state, depth.map(|d| d as u32), budget))
            }
            ReversiLevel::Strong => {
                level.only_options(&[])?;
                Ok(strong_move(state, budget))
            }
        }
    }

    fn analyze(
        state: &State,
        top: usize,
        _params: &BotParams,
        budget: &Budget,
    ) -> Result<Analysis<Move>, GameError> {
        let thought = engine::think(state.board(), budget, strong_plan(budget, top.max(1)));
        let report = thought_report(&thought);
        let moves = thought
            .lines
            .iter()
            .take(top)
            .map(|line| ScoredMove {
                mv: to_move(line.square),
                score: reported_score(line).into(),
                pv: line.pv.iter().map(|&sq| to_move(sq)).collect(),
                exact: line.exact.then(|| exact_words(line.score)),
            })
            .collect();
        Ok(Analysis { moves, report })
    }
}

impl Codec for Reversi {
    type NewOptions = NoOptions;

    fn info() -> GameInfo {
        GameInfo {
            id: "reversi",
            name: "Reversi (Othello), 8×8",
            players: 2,
            sides: &["black", "white"],
            new_options: &[],
            text_forms: &["text/plain"],
            rules: include_str!("../../../docs/rules/reversi.md"),
        }
    }

    fn new_game(_: NoOptions) -> Result<State, GameError> {
        Ok(State::start())
    }

    fn state_from_json(value: &Value) -> Result<State, GameError> {
        State::try_from(value)
    }

    fn state_to_json(state: &State) -> Value {
        state.to_json()
    }

    fn notation(_state: &State, mv: &Move) -> String {
        mv.notation()
    }

    fn move_to_json(_state: &State, mv: &Move) -> Value {
        mv.to_json()
    }

    fn parse_move(state: &State, value: &Value) -> Result<Move, GameError> {
        state.parse_move(value)
    }

    fn describe_move(state: &State, mv: &Move) -> Option<Value> {
        let Move::Place(sq) = *mv else {
            return None;
        };
        let board = state.board();
        let flipped = board::flips(board.me, board.opp, u32::from(sq));
        let squares: Vec<String> = Bits(flipped).map(board::square_name).collect();
        Some(json!({"flipped": squares}))
    }

    fn parse_text(
        body: &str,
        query: &Map<String, Value>,
    ) -> Result<TextRequest<State, NoOptions>, GameError> {
        Ok(TextRequest {
            state: state::parse_text(body, query)?,
            level: None,
            options: NoOptions::default(),
        })
    }

    fn text_bot_move(_before: &State, _mv: &Move, after: &State) -> String {
        state::to_text(after)
    }
}

/// How the game stands: over when neither side can move.
fn outcome(state: &State) -> Outcome {
    let board = state.board();
    if !board.is_over() {
        return Outcome::Ongoing;
    }
    let black = state.black.count_ones();
    let white = state.white.count_ones();
    let reason = format!("neither side can move; black {black}, white {white}");
    match black.cmp(&white) {
        std::cmp::Ordering::Greater => Outcome::Win {
            winner: Player::First,
            reason,
        },
        std::cmp::Ordering::Less => Outcome::Win {
            winner: Player::Second,
            reason,
        },
        std::cmp::Ordering::Equal => Outcome::Draw { reason },
    }
}

fn to_move(square: Option<u32>) -> Move {
    square.map_or(Move::Pass, |sq| Move::Place(sq as u8))
}

/// The `random` level.
fn random_move(state: &State, params: &BotParams) -> BotChoice<Move> {
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    let mut rng = params.rng();
    let mv = moves[rng.random_range(0..moves.len())];
    BotChoice {
        mv,
        report: SearchReport::plain(),
    }
}

/// The `norvig` level: the level option wins, then the request's `max_depth`, then 6.
fn norvig_move(state: &State, depth_option: Option<u32>, budget: &Budget) -> BotChoice<Move> {
    let requested = depth_option
        .or(budget.max_depth)
        .unwrap_or(norvig::DEFAULT_DEPTH);
    let cap = budget.max_depth.unwrap_or(NORVIG_MAX_DEPTH);
    let depth = requested.min(cap).clamp(1, NORVIG_MAX_DEPTH);
    let result = norvig::choose(state.board(), depth, budget);
    let report = SearchReport {
        depth: Some(result.depth),
        nodes: Some(result.nodes),
        score: Some(result.value.into()),
        stopped_by: Some(result.stopped_by),
        max_depth: Some(depth),
        ..SearchReport::default()
    };
    BotChoice {
        mv: to_move(result.square),
        report,
    }
}

/// How `strong` spends a budget.
fn strong_plan(budget: &Budget, top: usize) -> Plan {
    let timed = budget.deadline.is_some() || budget.max_nodes.is_some();
    let max_depth = budget
        .max_depth
        .unwrap_or(if timed { 60 } else { STRONG_UNTIMED_DEPTH });
    let solve_empties = if budget.deadline.is_some() {
        STRONG_TIMED_SOLVE
    } else {
        STRONG_UNTIMED_SOLVE
    };
    Plan {
        max_depth,
        solve_empties,
        top,
    }
}

/// The `strong` level.
fn strong_move(state: &State, budget: &Budget) -> BotChoice<Move> {
    let thought = engine::think(state.board(), budget, strong_plan(budget, 1));
    let best = &thought.lines[0];
    BotChoice {
        mv: to_move(best.square),
        report: thought_report(&thought),
    }
}

/// The search report of an engine run.
fn thought_report(thought: &Thought) -> SearchReport {
    let best = thought.lines.first();
    let mut extra = Map::new();
    let unit = if best.is_some_and(|b| b.exact) {
        "discs (exact final difference)"
    } else {
        "hundredths of a disc (estimate)"
    };
    extra.insert("score_unit".to_string(), json!(unit));
    SearchReport {
        depth: Some(thought.depth),
        nodes: Some(thought.nodes),
        score: best.map(|b| reported_score(b).into()),
        stopped_by: Some(thought.stopped_by),
        proven: Some(thought.proven),
        extra,
        ..SearchReport::default()
    }
}

/// A line's score for reports: exact discs, or the estimate with forced
/// game ends inside the horizon turned into hundredths of a disc.
fn reported_score(line: &RootLine) -> i32 {
    match line.score {
        s if line.exact => s,
        s if s >= WIN => 100 * (s - WIN),
        s if s <= -WIN => 100 * (s + WIN),
        s => s,
    }
}

/// An exact score in words: `+12`, `-4` or `draw`.
fn exact_words(score: i32) -> String {
    match score {
        0 => "draw".to_string(),
        s if s > 0 => format!("+{s}"),
        s => format!("{s}"),
    }
}
