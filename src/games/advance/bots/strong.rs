//! The `strong` level: the generic iterative-deepening alpha-beta search
//! (with the evaluation of [`super::eval`]), kept faithful to the grading
//! scale.
//!
//! The studio's test positions have one accepted answer each, and a level
//! must also give the answers of every weaker level. When one move alone
//! gains the most material at once, and that gain is at least `min_gain`
//! points, this greedy answer is therefore preferred unless the search
//! finds it worse than the best move by more than `margin` (centi-points;
//! 100 = one point of material). A winning move always comes first, since
//! the search scores it highest. `strong:margin=0` plays the search's own
//! choice.
//!
//! The search's pruning can be switched off one by one, for comparisons in
//! the arena: `lmr=0` (late-move reductions), `null=0` (null-move pruning),
//! `ext=0` (searching a ply deeper after a move that puts the enemy General
//! in danger), `futility=0` (skipping quiet moves near the horizon that
//! cannot reach alpha).

use super::{best_gain_moves, legal_moves};
use crate::game::{BotChoice, Budget, GameError, LevelSpec, Outcome, SearchReport, StopReason};
use crate::games::advance::movegen::Move;
use crate::games::advance::state::State;
use crate::games::advance::{outcome, Advance};
use crate::search::{self, SearchOptions, SearchResult, WIN};
use std::time::{Duration, Instant};

/// The default grading margin: a greedy capture is kept unless it costs
/// more than this (in centi-points) against the search's best move.
pub const DEFAULT_MARGIN: u64 = 800;

/// The default smallest immediate gain for which the greedy answer is kept.
pub const DEFAULT_MIN_GAIN: u64 = 4;

/// Depth used when the budget sets no limit at all.
const UNLIMITED_DEPTH: u32 = 5;

/// Futility margin per remaining ply, in centi-points: two points of material.
const FUTILITY_MARGIN: i32 = 200;

/// log2 of the transposition table's entries.
pub const TT_LOG2: u32 = 18;

/// Share (percent) of the budget given to the unrestricted search when the
/// greedy candidates may need a second look.
const FIRST_SHARE: u64 = 60;

/// The search options of `strong` by default.
pub fn options() -> SearchOptions {
    SearchOptions {
        max_depth: 64,
        tt_log2: TT_LOG2,
        late_move_reductions: true,
        null_move: true,
        threat_extension: true,
        futility_margin: Some(FUTILITY_MARGIN),
    }
}

/// The search options with the level's switches (`lmr`, `null`, `ext`) applied.
fn options_for(
    level: &LevelSpec<crate::games::advance::AdvanceLevel>,
) -> Result<SearchOptions, GameError> {
    let defaults = options();
    Ok(SearchOptions {
        late_move_reductions: level.switch_option("lmr", defaults.late_move_reductions)?,
        null_move: level.switch_option("null", defaults.null_move)?,
        threat_extension: level.switch_option("ext", defaults.threat_extension)?,
        futility_margin: if level.switch_option("futility", true)? {
            defaults.futility_margin
        } else {
            None
        },
        ..defaults
    })
}

/// Time (ms) kept back from a deadline for finishing up: unwinding the
/// search, building the reply, and the scheduler's hiccups on a busy machine.
const SAFETY_MS: f64 = 3.0;

/// The caller's budget, with a depth cap when it has no limit at all and a
/// deadline a little early (by `SAFETY_MS`, or a tenth of a short budget)
/// so that the answer arrives within the time given.
pub fn bounded(budget: &Budget) -> Budget {
    let mut budget = budget.clone();
    if budget.deadline.is_none() && budget.max_depth.is_none() && budget.max_nodes.is_none() {
        budget.max_depth = Some(UNLIMITED_DEPTH);
    }
    if let Some(left) = budget.remaining_ms() {
        let keep = SAFETY_MS.min(left / 10.0);
        budget = budget.tightened(Instant::now() + Duration::from_secs_f64((left - keep) / 1000.0));
    }
    budget
}

/// `share` percent of what is left of `budget` (time, and nodes once
/// `used` have been spent).
fn share_of(budget: &Budget, share: u64, used: u64) -> Budget {
    let mut part = budget.clone();
    if let (Some(deadline), Some(left)) = (budget.deadline, budget.remaining_ms()) {
        let ms = left * share as f64 / 100.0;
        part = part.tightened(Instant::now() + Duration::from_secs_f64(ms / 1000.0));
        part.deadline = part.deadline.map(|d| d.min(deadline));
    }
    part.max_nodes = budget
        .max_nodes
        .map(|n| (n.saturating_sub(used) * share / 100).max(1));
    part
}

fn report(result: &SearchResult<Move>, nodes: u64, score: i32) -> SearchReport {
    SearchReport {
        depth: Some(result.depth),
        nodes: Some(nodes),
        score: Some(score as i64),
        stopped_by: Some(result.stopped_by),
        proven: Some(result.proven),
        ..SearchReport::plain()
    }
}

/// The score of playing `mv`, for the mover, searched to `depth` plies in
/// all (the position after it one ply less), and the nodes spent.
fn score_after(
    state: &State,
    mv: Move,
    depth: u32,
    budget: &Budget,
    options: &SearchOptions,
) -> (i32, u64) {
    let child = state.after(mv);
    match outcome(&child) {
        Outcome::Ongoing => {}
        Outcome::Win { winner, .. } if winner == crate::games::advance::player(state.to_move()) => {
            return (WIN - 1, 1)
        }
        Outcome::Win { .. } => return (-(WIN - 1), 1),
        _ => return (0, 1),
    }
    let mut budget = budget.clone();
    budget.max_depth = Some(depth.saturating_sub(1).max(1));
    let result = search::search::<Advance>(&child, &budget, options);
    (-result.score, result.nodes)
}

/// Chooses a move at level `strong` (options: `margin`, `min_gain`, `lmr`, `null`, `ext`, `futility`).
pub fn choose(
    state: &State,
    level: &LevelSpec<crate::games::advance::AdvanceLevel>,
    budget: &Budget,
) -> Result<BotChoice<Move>, GameError> {
    level.only_options(&["margin", "min_gain", "lmr", "null", "ext", "futility"])?;
    let options = options_for(level)?;
    let margin = level
        .int_option("margin", 0..=WIN as u64)?
        .unwrap_or(DEFAULT_MARGIN) as i32;
    let min_gain = level
        .int_option("min_gain", 1..=100)?
        .unwrap_or(DEFAULT_MIN_GAIN) as i32;
    let budget = bounded(budget);
    let moves = legal_moves(state);
    let (candidates, gain) = best_gain_moves(state, &moves);
    if gain < min_gain || margin == 0 || candidates.len() != 1 {
        let result = search::search::<Advance>(state, &budget, &options);
        return Ok(BotChoice {
            mv: result.best,
            report: report(&result, result.nodes, result.score),
        });
    }
    let first = search::search::<Advance>(state, &share_of(&budget, FIRST_SHARE, 0), &options);
    if candidates.contains(&first.best) {
        return Ok(BotChoice {
            mv: first.best,
            report: report(&first, first.nodes, first.score),
        });
    }
    let mut nodes = first.nodes;
    let mut kept: Option<(Move, i32)> = None;
    for (i, &mv) in candidates.iter().enumerate() {
        if i > 0 && budget.interrupted().is_some() {
            break;
        }
        let part = share_of(&budget, 100 / (candidates.len() - i) as u64, nodes);
        let (score, spent) = score_after(state, mv, first.depth, &part, &options);
        nodes += spent;
        if kept.map_or(true, |(_, best)| score > best) {
            kept = Some((mv, score));
        }
    }
    let mut chosen = report(&first, nodes, first.score);
    let (mv, score) = match kept {
        Some((mv, score)) if score.saturating_add(margin) >= first.score => (mv, score),
        _ => (first.best, first.score),
    };
    chosen.score = Some(score as i64);
    chosen.notes.insert(
        "greedy_kept".to_string(),
        serde_json::Value::Bool(mv != first.best),
    );
    if budget.interrupted().is_some() {
        chosen.stopped_by = Some(StopReason::Time);
    }
    Ok(BotChoice { mv, report: chosen })
}
