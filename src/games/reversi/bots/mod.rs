//! The bot levels: `random`, `norvig` (the course-lab reference in
//! [`norvig`]) and `strong` (the [`engine`]'s midgame search, selective by
//! [`probcut`], with its exact [`endgame`] solver and the [`patterns`]
//! evaluation, after the opening [`book`]); this module runs each level and
//! turns the engine's thoughts into search reports.

pub mod book;
pub mod endgame;
pub mod engine;
pub mod eval;
pub mod lookups;
pub mod norvig;
pub mod patterns;
pub mod probcut;
pub mod solve_costs;

use super::board::Move;
use super::state::State;
use super::ReversiLevel;
use crate::game::{
    Analysis, BotChoice, BotParams, Budget, GameError, LevelSpec, Scope, ScoredMove, SearchReport,
    StopReason,
};
use engine::{Evaluation, Plan, Thought, WIN};
use rand::Rng;

/// The deepest `norvig` search a request may ask for.
const NORVIG_MAX_DEPTH: u32 = 10;
/// The `strong` level's midgame depth when it has neither deadline nor depth cap.
const STRONG_UNTIMED_DEPTH: u32 = 10;
/// Without a deadline, `strong` solves exactly from this many empties.
const STRONG_UNTIMED_SOLVE: u32 = 18;
/// With a deadline, the solver is tried from this many empties if time looks enough.
const STRONG_TIMED_SOLVE: u32 = 26;
/// `strong`'s Multi-ProbCut confidence, in tenths of the fitted error's
/// standard deviation (`strong:probcut=N`; 0 searches every node, as the
/// engine did before selective search).
const STRONG_PROBCUT_TENTHS: u64 = 10;
/// The largest confidence `strong:probcut=N` takes, in tenths: beyond
/// about 4 standard deviations a cut is all but never taken.
const STRONG_MAX_PROBCUT_TENTHS: u64 = 40;
/// How far below the best book move (hundredths of a disc) `strong` may
/// play another, drawn by the request's seed so that games vary.
const BOOK_MARGIN: i32 = 100;
/// The most positions `strong:solve_nodes=N` may give the exact solve.
const STRONG_MAX_SOLVE_NODES: u64 = 100_000_000_000;

/// Runs `level` on `state` (not over).
pub(crate) fn choose(
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
            level.only_options(&["patterns", "solve", "solve_nodes", "probcut", "book"])?;
            let book = level.switch_option("book", true)?;
            let evaluation = if level.switch_option("patterns", true)? {
                Evaluation::Patterns
            } else {
                Evaluation::Classic
            };
            let solve = level.int_option("solve", 0..=u64::from(STRONG_TIMED_SOLVE))?;
            let mut plan = strong_plan(budget, 1, evaluation);
            if let Some(empties) = solve {
                plan.solve_empties = empties as u32;
            }
            plan.solve_nodes = level.int_option("solve_nodes", 1..=STRONG_MAX_SOLVE_NODES)?;
            let tenths = level
                .int_option("probcut", 0..=STRONG_MAX_PROBCUT_TENTHS)?
                .unwrap_or(STRONG_PROBCUT_TENTHS);
            plan.probcut = (tenths > 0).then(|| tenths as f64 / 10.0);
            if book {
                if let Some(choice) = book_move(state, params) {
                    return Ok(choice);
                }
            }
            Ok(strong_move(state, budget, plan))
        }
    }
}

/// A move from the opening book ([`book`]) when `state` is in it: one of
/// the moves within [`BOOK_MARGIN`] of the best, drawn by the request's seed.
fn book_move(state: &State, params: &BotParams) -> Option<BotChoice<Move>> {
    let chosen = book::shipped().choose(state.board(), BOOK_MARGIN, &mut params.rng())?;
    Some(BotChoice {
        mv: Move::Place(chosen.square as u8),
        report: SearchReport {
            nodes: Some(0),
            score: Some(chosen.value.into()),
            stopped_by: Some(StopReason::Book),
            proven: Some(false),
            score_unit: Some("hundredths of a disc (estimate)".to_string()),
            ..SearchReport::default()
        },
    })
}

/// The moves `strong` may play from the opening book in `state`: those
/// within [`BOOK_MARGIN`] of the book's best (none out of book).
pub(crate) fn book_moves(state: &State) -> Vec<Move> {
    let Some(moves) = book::shipped().moves(state.board()) else {
        return Vec::new();
    };
    let best = moves[0].value;
    moves
        .into_iter()
        .take_while(|m| m.value >= best - BOOK_MARGIN)
        .map(|m| Move::Place(m.square as u8))
        .collect()
}

/// The moves of `scope` by the `strong` engine: its `top` best first,
/// then its included move.
pub(crate) fn analyze(state: &State, scope: &Scope<Move>, budget: &Budget) -> Analysis<Move> {
    let mut plan = strong_plan(budget, scope.top.max(1), Evaluation::default());
    plan.include = match scope.include {
        Some(Move::Place(square)) => Some(u32::from(square)),
        _ => None,
    };
    let thought = engine::think(state.board(), budget, plan);
    analysis_of(&thought, thought.nodes, scope.top, plan.include)
}

/// What an analysis answers from a thought: its first `top` lines and the
/// `include`d square's, with settled scores, and the report (`nodes`
/// visited so far).
pub(crate) fn analysis_of(
    thought: &Thought,
    nodes: u64,
    top: usize,
    include: Option<u32>,
) -> Analysis<Move> {
    let mut report = thought_report(thought);
    report.nodes = Some(nodes);
    let moves = thought
        .lines
        .iter()
        .enumerate()
        .filter(|(rank, line)| *rank < top || include.is_some() && line.square == include)
        .map(|(rank, line)| ScoredMove {
            mv: to_move(line.square),
            score: settled_score(thought, rank).into(),
            pv: line.pv.iter().map(|&sq| to_move(sq)).collect(),
            exact: line.exact.then(|| exact_words(line.score)),
        })
        .collect();
    Analysis { moves, report }
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

/// How `strong` spends a budget; the search is full-width (analyses score
/// every move as it is; the `strong` level adds its ProbCut).
pub(crate) fn strong_plan(budget: &Budget, top: usize, evaluation: Evaluation) -> Plan {
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
        solve_nodes: None,
        top,
        include: None,
        table_log2: None,
        evaluation,
        probcut: None,
    }
}

/// The `strong` level, searching by `plan`.
fn strong_move(state: &State, budget: &Budget, plan: Plan) -> BotChoice<Move> {
    let thought = engine::think(state.board(), budget, plan);
    let best = &thought.lines[0];
    BotChoice {
        mv: to_move(best.square),
        report: thought_report(&thought),
    }
}

/// The search report of an engine run.
fn thought_report(thought: &Thought) -> SearchReport {
    let best = thought.lines.first();
    let unit = if best.is_some_and(|b| b.exact) {
        "discs (exact final difference)"
    } else {
        "hundredths of a disc (estimate)"
    };
    SearchReport {
        depth: Some(thought.depth),
        nodes: Some(thought.nodes),
        score: best.map(|_| settled_score(thought, 0).into()),
        stopped_by: Some(thought.stopped_by),
        proven: Some(thought.proven),
        score_unit: Some(unit.to_string()),
        ..SearchReport::default()
    }
}

/// A midgame score in hundredths of a disc: forced game ends (`WIN` plus
/// the final disc difference) become that difference in hundredths.
fn estimate_in_hundredths(score: i32) -> i32 {
    match score {
        s if s >= WIN => 100 * (s - WIN),
        s if s <= -WIN => 100 * (s + WIN),
        s => s,
    }
}

/// The score a report gives the line at `rank`: the shared two-depth
/// average ([`crate::search::settled`]) of its estimate with the shallower
/// depth's (the best line with that depth's best score, another line with
/// its own full-window score there, if it had one), which cancels the
/// odd/even swing of the evaluation (docs/SCORE-STABILITY.md). Exact and
/// forced scores stand as they are.
fn settled_score(thought: &Thought, rank: usize) -> i32 {
    let line = &thought.lines[rank];
    if line.exact {
        return line.score;
    }
    let shallower = if rank == 0 {
        thought.previous.first()
    } else {
        thought.previous.iter().find(|p| p.square == line.square)
    };
    let shallower = shallower.filter(|p| !p.exact).map(|p| p.score);
    estimate_in_hundredths(crate::search::settled(line.score, shallower))
}

/// An exact score in words: `+12`, `-4` or `draw`.
fn exact_words(score: i32) -> String {
    match score {
        0 => "draw".to_string(),
        s if s > 0 => format!("+{s}"),
        s => format!("{s}"),
    }
}
