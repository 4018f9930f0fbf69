//! The bot levels: `random`, `greedy` and `perfect`, and the analysis.

pub mod book;
mod canonical;
pub mod solver;

use self::solver::{describe, Solution};
use crate::game::{
    Analysis, BotChoice, BotParams, Budget, GameError, LevelSpec, Scope, ScoredMove, SearchReport,
    StopReason,
};
use crate::games::naughts::state::{Move, Play, State};
use crate::games::naughts::NaughtsLevel;
use rand::seq::IndexedRandom;
use serde_json::Value;

/// log2 of the transposition table's entries for one search (16 bytes each).
fn table_log2(state: &State) -> u32 {
    match state.grid() {
        2 | 3 => 18,
        _ => 20,
    }
}

/// Runs `level` on `state` (not over). When the side to move must pass,
/// every level passes.
pub fn choose(
    state: &State,
    level: &LevelSpec<NaughtsLevel>,
    params: &BotParams,
    budget: &Budget,
) -> Result<BotChoice<Play>, GameError> {
    level.only_options(&[])?;
    if state.must_pass() {
        return Ok(forced_pass());
    }
    let choice = match level.level {
        NaughtsLevel::Random => random(state, params),
        NaughtsLevel::Greedy => greedy(state, params),
        NaughtsLevel::Perfect => perfect(state, budget),
    };
    Ok(BotChoice {
        mv: Play::Place(choice.mv),
        report: choice.report,
    })
}

/// The pass of a side with no legal move, with a report that says why.
fn forced_pass() -> BotChoice<Play> {
    let mut report = SearchReport::plain();
    report.notes.insert(
        "rule".to_string(),
        Value::String("pass: no legal move while the opponent has one".to_string()),
    );
    BotChoice {
        mv: Play::Pass,
        report,
    }
}

fn legal_moves(state: &State) -> Vec<Move> {
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    moves
}

fn pick(moves: &[Move], params: &BotParams, rule: &str) -> BotChoice<Move> {
    let mut rng = params.rng();
    let mv = *moves.choose(&mut rng).expect("the game is not over");
    let mut report = SearchReport::plain();
    report
        .notes
        .insert("rule".to_string(), Value::String(rule.to_string()));
    BotChoice { mv, report }
}

/// A uniformly random legal move.
pub fn random(state: &State, params: &BotParams) -> BotChoice<Move> {
    pick(&legal_moves(state), params, "random")
}

/// Whether the side to move in `state` can win at once.
fn wins_at_once(state: &State) -> bool {
    legal_moves(state)
        .iter()
        .any(|mv| state.apply(mv).winner().is_some())
}

/// Wins at once if it can, else blocks the opponent's immediate win, else plays at random.
pub fn greedy(state: &State, params: &BotParams) -> BotChoice<Move> {
    let moves = legal_moves(state);
    let wins: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|mv| state.apply(mv).winner().is_some())
        .collect();
    if !wins.is_empty() {
        return pick(&wins, params, "win");
    }
    let mover = state.to_move();
    let safe: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|mv| {
            let after = state.apply(mv);
            after.to_move() == mover || !wins_at_once(&after)
        })
        .collect();
    match safe.len() {
        0 => pick(&moves, params, "random (cannot block)"),
        n if n == moves.len() => pick(&moves, params, "random"),
        _ => pick(&safe, params, "block"),
    }
}

/// What a search did, with the best move's score.
fn report(solution: &Solution) -> SearchReport {
    report_with_score(solution, solution.moves[0].score)
}

/// What a search did, with `score` as the mover's value.
fn report_with_score(solution: &Solution, score: i32) -> SearchReport {
    let proven = solution.stopped_by == StopReason::Proven;
    let mut report = SearchReport {
        depth: Some(solution.depth),
        nodes: Some(solution.nodes),
        score: Some(score as i64),
        stopped_by: Some(solution.stopped_by),
        proven: Some(proven),
        ..SearchReport::plain()
    };
    if proven {
        report
            .notes
            .insert("value".to_string(), Value::String(describe(score)));
    }
    report
}

/// The exact solver under the budget, after the opening book.
pub fn perfect(state: &State, budget: &Budget) -> BotChoice<Move> {
    if let Some((mv, score)) = book::book_move(state) {
        let mut report = SearchReport {
            nodes: Some(0),
            score: Some(score as i64),
            stopped_by: Some(StopReason::Proven),
            proven: Some(true),
            ..SearchReport::plain()
        };
        report
            .notes
            .insert("value".to_string(), Value::String(describe(score)));
        report.notes.insert("book".to_string(), Value::Bool(true));
        return BotChoice { mv, report };
    }
    let solution = solver::solve(state, budget, false, table_log2(state));
    BotChoice {
        mv: solution.moves[0].mv,
        report: report(&solution),
    }
}

/// Every move's value (exact where proven), best first, the first `top` of
/// them and `scope`'s included move (the solver values every move in the
/// one search); for a side that must pass, the pass alone.
pub fn analyze(state: &State, scope: &Scope<Play>, budget: &Budget) -> Analysis<Play> {
    if state.must_pass() {
        return analyze_pass(state, budget);
    }
    let solution = solver::solve(state, budget, true, table_log2(state));
    let report = report(&solution);
    let moves = solution
        .moves
        .into_iter()
        .enumerate()
        .filter(|(rank, r)| scope.keeps(*rank, &Play::Place(r.mv)))
        .map(|(_, r)| ScoredMove {
            mv: Play::Place(r.mv),
            score: r.score as i64,
            pv: r.pv.into_iter().map(Play::Place).collect(),
            exact: r.proven.then(|| describe(r.score)),
        })
        .collect();
    Analysis { moves, report }
}

/// The pass, valued by the opponent's best play after it, seen from the side
/// that passes (the solver does not count a pass as a ply).
fn analyze_pass(state: &State, budget: &Budget) -> Analysis<Play> {
    let after = state.pass();
    let solution = solver::solve(&after, budget, false, table_log2(&after));
    let best = &solution.moves[0];
    let score = -best.score;
    let pv = std::iter::once(Play::Pass)
        .chain(best.pv.iter().copied().map(Play::Place))
        .collect();
    let pass = ScoredMove {
        mv: Play::Pass,
        score: score as i64,
        pv,
        exact: best.proven.then(|| describe(score)),
    };
    Analysis {
        moves: vec![pass],
        report: report_with_score(&solution, score),
    }
}
