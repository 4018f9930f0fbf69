//! The rule-based levels of the studio's grading scale: `legal`, `win`,
//! `greedy` and `predict`, exactly as the rules describe them, with ties
//! broken by the request's seeded generator.

pub mod eval;
pub mod strong;

use crate::game::{
    Analysis, BotChoice, BotParams, Budget, GameError, LevelSpec, Scope, SearchReport, StopReason,
};
use crate::games::advance::board::Color;
use crate::games::advance::movegen::Move;
use crate::games::advance::state::State;
use crate::games::advance::{outcome, Advance, AdvanceLevel};
use crate::search;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// The penalty (or bonus) `predict` gives a line where the opponent (or we)
/// can win at once: far beyond any material difference.
pub const DECISIVE: i32 = 10_000;

/// Reusable buffers and the node count of a rule-based level.
pub struct Scratch {
    moves: Vec<Move>,
    nodes: u64,
}

impl Scratch {
    /// Empty buffers.
    pub fn new() -> Scratch {
        Scratch {
            moves: Vec::with_capacity(128),
            nodes: 0,
        }
    }
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch::new()
    }
}

/// Every legal move of the side to move.
pub fn legal_moves(state: &State) -> Vec<Move> {
    let mut moves = Vec::new();
    state.clone().legal_moves_into(&mut moves);
    moves
}

/// Whether the game is over after `next` and `winner` has won it: the
/// other side has no legal move, or the material rule gives `winner` more.
fn has_won(next: &State, winner: Color, scratch: &mut Scratch) -> bool {
    scratch.nodes += 1;
    if next.ply_limit_reached() {
        return next.material(winner) > next.material(winner.other());
    }
    !next.clone().has_legal_move(&mut scratch.moves)
}

/// Whether playing `mv` wins at once for the side to move.
pub fn wins_at_once(state: &State, mv: Move, scratch: &mut Scratch) -> bool {
    has_won(&state.after(mv), state.to_move(), scratch)
}

/// One of `candidates`, chosen uniformly by the seeded generator.
pub fn pick(candidates: &[Move], rng: &mut ChaCha8Rng) -> Move {
    candidates[rng.random_range(0..candidates.len())]
}

/// The moves among `moves` that win at once.
fn winning_moves(state: &State, moves: &[Move], scratch: &mut Scratch) -> Vec<Move> {
    moves
        .iter()
        .copied()
        .filter(|&mv| wins_at_once(state, mv, scratch))
        .collect()
}

/// The moves of largest immediate material gain, and that gain.
pub(super) fn best_gain_moves(state: &State, moves: &[Move]) -> (Vec<Move>, i32) {
    let best = moves.iter().map(|&m| state.gain(m)).max().unwrap_or(0);
    let chosen = moves
        .iter()
        .copied()
        .filter(|&m| state.gain(m) == best)
        .collect();
    (chosen, best)
}

/// `legal`: any legal move.
pub fn legal(state: &State, rng: &mut ChaCha8Rng) -> Move {
    pick(&legal_moves(state), rng)
}

/// `win`: a winning move if there is one, otherwise any legal move.
pub fn win(state: &State, rng: &mut ChaCha8Rng, scratch: &mut Scratch) -> Move {
    let moves = legal_moves(state);
    let winners = winning_moves(state, &moves, scratch);
    pick(if winners.is_empty() { &moves } else { &winners }, rng)
}

/// `greedy`: a winning move if there is one, otherwise one of largest
/// immediate material gain.
pub fn greedy(state: &State, rng: &mut ChaCha8Rng, scratch: &mut Scratch) -> Move {
    let moves = legal_moves(state);
    let winners = winning_moves(state, &moves, scratch);
    if !winners.is_empty() {
        return pick(&winners, rng);
    }
    pick(&best_gain_moves(state, &moves).0, rng)
}

/// Our material minus the opponent's.
fn balance(state: &State, me: Color) -> i32 {
    state.material(me) - state.material(me.other())
}

/// The value for `me` of a finished game, `None` if it goes on. A game
/// ended by "no legal move" is seen by the callers before it gets here.
fn finished_value(state: &State, me: Color) -> Option<i32> {
    state.ply_limit_reached().then(|| match balance(state, me) {
        b if b > 0 => DECISIVE,
        b if b < 0 => -DECISIVE,
        _ => 0,
    })
}

/// The value for `me` (to move in `state`) of answering with `greedy`: a
/// large bonus when it can win at once, else the material balance after
/// the best gain.
fn greedy_answer_value(state: &State, me: Color, scratch: &mut Scratch) -> i32 {
    if let Some(value) = finished_value(state, me) {
        return value;
    }
    let moves = legal_moves(state);
    if moves.is_empty() {
        return -DECISIVE;
    }
    if moves.iter().any(|&mv| wins_at_once(state, mv, scratch)) {
        return DECISIVE;
    }
    let (_, gain) = best_gain_moves(state, &moves);
    balance(state, me) + gain
}

/// The value for `me` of the position after our candidate move: the
/// opponent answers with `greedy` (the worst of its equal choices for us),
/// and we answer that with `greedy`.
fn predicted_value(after: &State, me: Color, scratch: &mut Scratch) -> i32 {
    if let Some(value) = finished_value(after, me) {
        return value;
    }
    let replies = legal_moves(after);
    if replies.is_empty() {
        return DECISIVE;
    }
    if replies.iter().any(|&r| wins_at_once(after, r, scratch)) {
        return -DECISIVE;
    }
    let (greedy_replies, _) = best_gain_moves(after, &replies);
    greedy_replies
        .iter()
        .map(|&r| greedy_answer_value(&after.after(r), me, scratch))
        .min()
        .unwrap_or(0)
}

/// What `predict` decided, and how the search went.
pub struct Prediction {
    /// The move chosen.
    pub mv: Move,
    /// Its predicted value (material balance two replies later, or ±[`DECISIVE`]).
    pub score: i32,
    /// What was searched.
    pub report: SearchReport,
}

/// `predict`: a winning move if there is one; otherwise, among the greedy
/// moves, the one whose predicted outcome two replies later is best.
/// Stops early when the budget runs out, choosing among the candidates
/// valued so far.
pub fn predict(state: &State, rng: &mut ChaCha8Rng, budget: &Budget) -> Prediction {
    let mut scratch = Scratch::new();
    let me = state.to_move();
    let moves = legal_moves(state);
    let winners = winning_moves(state, &moves, &mut scratch);
    let mut stopped_by = StopReason::Depth;
    let (mv, score) = if !winners.is_empty() {
        stopped_by = StopReason::Proven;
        (pick(&winners, rng), DECISIVE)
    } else {
        let (candidates, _) = best_gain_moves(state, &moves);
        let mut best_value = i32::MIN;
        let mut best: Vec<Move> = Vec::new();
        for &mv in &candidates {
            if !best.is_empty() {
                if let Some(reason) = budget.interrupted() {
                    stopped_by = reason;
                    break;
                }
                if budget.nodes_exhausted(scratch.nodes) {
                    stopped_by = StopReason::Nodes;
                    break;
                }
            }
            let value = predicted_value(&state.after(mv), me, &mut scratch);
            if value > best_value {
                best_value = value;
                best.clear();
            }
            if value == best_value {
                best.push(mv);
            }
        }
        (pick(&best, rng), best_value)
    };
    let report = SearchReport {
        depth: Some(3),
        nodes: Some(scratch.nodes),
        score: Some(score as i64),
        stopped_by: Some(stopped_by),
        proven: Some(false),
        ..SearchReport::plain()
    };
    Prediction { mv, score, report }
}

/// Runs the level named in `level`.
pub(crate) fn choose(
    state: &State,
    level: &LevelSpec<AdvanceLevel>,
    params: &BotParams,
    budget: &Budget,
) -> Result<BotChoice<Move>, GameError> {
    if level.level != AdvanceLevel::Strong {
        level.only_options(&[])?;
    }
    if outcome(state).is_over() {
        return Err(GameError::game_over());
    }
    let mut rng = params.rng();
    let mut scratch = Scratch::new();
    let plain = |mv| BotChoice {
        mv,
        report: SearchReport::plain(),
    };
    Ok(match level.level {
        AdvanceLevel::Legal => plain(legal(state, &mut rng)),
        AdvanceLevel::Win => plain(win(state, &mut rng, &mut scratch)),
        AdvanceLevel::Greedy => plain(greedy(state, &mut rng, &mut scratch)),
        AdvanceLevel::Predict => {
            let prediction = predict(state, &mut rng, budget);
            BotChoice {
                mv: prediction.mv,
                report: prediction.report,
            }
        }
        AdvanceLevel::Strong => strong::choose(state, level, budget)?,
    })
}

/// The moves of `scope` by `strong`'s search within `budget`.
pub(crate) fn analyze(
    state: &State,
    scope: &Scope<Move>,
    budget: &Budget,
) -> Result<Analysis<Move>, GameError> {
    if outcome(state).is_over() {
        return Err(GameError::game_over());
    }
    Ok(search::analyze::<Advance>(
        state,
        scope,
        &strong::bounded(budget),
        &strong::options(),
    ))
}
