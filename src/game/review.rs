//! Game review: a whole game analysed position by position, each move
//! judged by what it cost the player who made it.
//!
//! A review of `n` moves analyses the `n + 1` positions of the game (the
//! last only when the game goes on) independently, so a caller may run them
//! in parallel, in any order; [`Review::ply`] then judges move `i` from the
//! analyses of the positions before and after it. In a two-player game a
//! move's cost is the fall in its player's chance of winning (draws count
//! half), from the best move's chance before to the chance after the move
//! played, as the engine sees both; a move the engine would have played
//! costs nothing. In a one-player game (Number Crush) it is the points the
//! swap is expected to score below the best swap the engine finds.
//!
//! The labels, and each side's accuracy, are on one scale for every game
//! (docs/REVIEW.md): a loss in win probability below 0.02 is `excellent`,
//! below 0.05 `good`, below 0.10 `inaccuracy`, below 0.20 `mistake`, and
//! from 0.20 on `blunder` — Lichess's winning-chance thresholds (0.1, 0.2,
//! 0.3 of its −1…1 scale, i.e. 0.05, 0.10, 0.15 of a probability) with the
//! blunder line moved to 0.20, so that only a move that throws away a fifth
//! of a game is a blunder. Accuracy follows Lichess's formula on the same
//! losses, in percentage points: `103.1668 · e^(−0.04354 · loss) − 3.1669`
//! per move, clamped to 0–100, averaged over the side's moves.

use super::erased::{AnalyzedMove, Erased};
use super::record::Replay;
use super::{BotParams, Budget, Game, GameError, Outcome, SearchReport, Side};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// The most moves one review takes.
pub const MAX_REVIEW_MOVES: usize = 600;

/// How good a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Label {
    /// The move the engine would have played.
    Best,
    /// Lost less than 0.02 of a win (Crush: less than 5% of the best swap's points).
    Excellent,
    /// Lost less than 0.05 (Crush: 15%).
    Good,
    /// Lost less than 0.10 (Crush: 30%).
    Inaccuracy,
    /// Lost less than 0.20 (Crush: 50%).
    Mistake,
    /// Lost 0.20 or more of a win (Crush: half the best swap's points or more).
    Blunder,
}

impl Label {
    /// The label of a move that lost `loss` of a win (0–1), or `fraction`
    /// of the best swap's points: the thresholds are the module doc's.
    fn of_loss(loss: f64, thresholds: [f64; 4]) -> Label {
        match loss {
            l if l < thresholds[0] => Label::Excellent,
            l if l < thresholds[1] => Label::Good,
            l if l < thresholds[2] => Label::Inaccuracy,
            l if l < thresholds[3] => Label::Mistake,
            _ => Label::Blunder,
        }
    }
}

/// Win-probability thresholds between the labels after `best`.
const WIN_THRESHOLDS: [f64; 4] = [0.02, 0.05, 0.10, 0.20];
/// Thresholds on the fraction of the best swap's points lost (Crush).
const POINTS_THRESHOLDS: [f64; 4] = [0.05, 0.15, 0.30, 0.50];

/// One analysed position of the game.
#[derive(Clone, Debug)]
pub struct PositionEval {
    /// The engine's moves there, best first (the best only, in a
    /// two-player game); empty where the game is over.
    moves: Vec<AnalyzedMove>,
    /// The best move's notation.
    best_notation: Option<String>,
    /// Where the game is over: each side's result (1 win, ½ draw, 0 loss),
    /// by [`Side::index`].
    result: Option<[f64; 2]>,
    /// What the search did.
    report: SearchReport,
}

impl PositionEval {
    /// The positions the search visited.
    pub fn nodes(&self) -> u64 {
        self.report.nodes.unwrap_or(0)
    }
}

/// The engine's choice in a position, as a review gives it.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct BestMove {
    /// The move, as a JSON object.
    #[serde(rename = "move")]
    pub mv: Value,
    /// Its notation.
    pub notation: String,
    /// The line expected to follow, starting with it.
    pub pv: Vec<String>,
    /// Its score from the player's view, in the game's units.
    pub score: i64,
}

/// One move of the game, judged.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct PlyReview {
    /// The move's number in the game, from 1.
    pub ply: usize,
    /// The side that played it (the game's side name).
    pub side: &'static str,
    /// The move played, as a JSON object.
    #[serde(rename = "move")]
    pub mv: Value,
    /// Its notation.
    pub notation: String,
    /// What the engine would have played.
    pub best: BestMove,
    /// The best move's score from the player's view (the position's value
    /// before the move).
    pub score_before: i64,
    /// The position's score after the move, from the player's view; absent
    /// when the move ended the game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score_after: Option<i64>,
    /// The player's chance of winning (draws half) with the best move;
    /// absent in a one-player game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub win_probability_before: Option<f64>,
    /// The player's chance of winning after the move played.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub win_probability_after: Option<f64>,
    /// The fall in the chance of winning, 0 for the best move (two-player).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loss: Option<f64>,
    /// Points below the best swap (one-player): the best swap's expected
    /// points less the played swap's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points_lost: Option<i64>,
    /// How good the move was; absent where neither side of the move has a
    /// win probability to compare (an unproven score of a game without a
    /// win model, such as Naughts on a large grid) and it was not the
    /// engine's own move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<Label>,
}

/// One side's figures over a review.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct SideSummary {
    /// The side.
    pub side: &'static str,
    /// Its moves reviewed.
    pub moves: usize,
    /// 0–100: the mean of its moves' accuracies (module doc).
    pub accuracy: f64,
    /// How many of its moves got each label.
    pub labels: BTreeMap<String, usize>,
}

/// A whole review's figures, per side.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct ReviewSummary {
    /// Every side that moved, in the game's order of sides.
    pub sides: Vec<SideSummary>,
    /// Positions analysed.
    pub positions: usize,
    /// Positions visited by all the searches together.
    pub nodes: u64,
}

/// A game ready to review: replayed and checked, its positions still to
/// analyse.
pub trait Review: Send + Sync {
    /// The positions to analyse: one per move, and the last position's.
    fn positions(&self) -> usize;
    /// The moves to judge.
    fn moves(&self) -> usize;
    /// Analyses position `index` (0 = the start) under `budget`.
    fn analyse(&self, index: usize, budget: &Budget) -> Result<PositionEval, GameError>;
    /// Judges move `index` from the analyses of the positions before and after it.
    fn ply(&self, index: usize, before: &PositionEval, after: &PositionEval) -> PlyReview;
    /// Each side's figures over the judged moves.
    fn summary(&self, plies: &[PlyReview], nodes: u64) -> ReviewSummary;
}

/// A review of one game of `G`.
pub struct GameReview<G: Game> {
    replay: Replay<G>,
    seed: u64,
}

impl<G: Game> GameReview<G> {
    /// A review of `replay`, its searches seeded with `seed`.
    pub fn new(replay: Replay<G>, seed: u64) -> Result<Self, GameError> {
        if replay.moves.len() > MAX_REVIEW_MOVES {
            return Err(GameError::invalid_option(format!(
                "the game has {} moves: a review takes at most {MAX_REVIEW_MOVES}",
                replay.moves.len()
            )));
        }
        Ok(GameReview { replay, seed })
    }

    fn one_player() -> bool {
        G::info().players == 1
    }
}

/// A game's result for each side, where it is over.
fn results<T>(outcome: &Outcome<T>) -> Option<[f64; 2]> {
    match outcome {
        Outcome::Ongoing => None,
        Outcome::Win { winner, .. } => {
            let mut result = [0.0; 2];
            result[winner.index()] = 1.0;
            Some(result)
        }
        Outcome::Draw { .. } | Outcome::Finished { .. } => Some([0.5; 2]),
    }
}

impl<G: Game> Review for GameReview<G> {
    fn positions(&self) -> usize {
        self.replay.states.len()
    }

    fn moves(&self) -> usize {
        self.replay.moves.len()
    }

    fn analyse(&self, index: usize, budget: &Budget) -> Result<PositionEval, GameError> {
        let state = &self.replay.states[index];
        if let Some(result) = results(&G::outcome(state)) {
            return Ok(PositionEval {
                moves: Vec::new(),
                best_notation: None,
                result: Some(result),
                report: SearchReport::plain(),
            });
        }
        // A one-player review needs the played swap's value too: the engine
        // ranks every swap it weighed.
        let top = if Self::one_player() { usize::MAX } else { 1 };
        let params = BotParams::seeded(self.seed ^ index as u64);
        let analysis = Erased::<G>::analyze_twin(state, top, &params, budget)?;
        let best_notation = analysis.moves.first().map(|m| G::notation(state, &m.mv));
        let report = analysis.report.clone();
        let reply = Erased::<G>::judged_reply(state, analysis);
        Ok(PositionEval {
            moves: reply.moves,
            best_notation,
            result: None,
            report,
        })
    }

    fn ply(&self, index: usize, before: &PositionEval, after: &PositionEval) -> PlyReview {
        let state = &self.replay.states[index];
        let next = &self.replay.states[index + 1];
        let played = &self.replay.moves[index];
        let mover = G::to_move(state);
        let notation = G::notation(state, played);
        let best = before
            .moves
            .first()
            .expect("an ongoing position has a move");
        let is_best = before.best_notation.as_deref() == Some(notation.as_str());
        // The next position's figures are its own mover's: turned to this
        // move's player where the turn passed.
        let turned = G::to_move(next) != mover;
        let next_best = after.moves.first();
        let score_after = next_best.map(|m| if turned { -m.score } else { m.score });
        let win_after = match after.result {
            Some(result) => Some(result[mover.index()]),
            None => next_best
                .and_then(|m| m.win_probability)
                .map(|p| if turned { 1.0 - p } else { p }),
        };
        let mut review = PlyReview {
            ply: index + 1,
            side: G::info().sides[mover.index()],
            mv: G::move_to_json(state, played),
            notation,
            best: BestMove {
                mv: best.mv.clone(),
                notation: before.best_notation.clone().unwrap_or_default(),
                pv: best.pv.clone(),
                score: best.score,
            },
            score_before: best.score,
            score_after,
            win_probability_before: None,
            win_probability_after: None,
            loss: None,
            points_lost: None,
            label: is_best.then_some(Label::Best),
        };
        if Self::one_player() {
            let played_score = before
                .moves
                .iter()
                .find(|m| m.pv.first() == Some(&review.notation))
                .or(before.moves.last())
                .map_or(best.score, |m| m.score);
            let lost = if is_best {
                0
            } else {
                (best.score - played_score).max(0)
            };
            review.points_lost = Some(lost);
            if !is_best {
                let fraction = lost as f64 / best.score.max(1) as f64;
                review.label = Some(Label::of_loss(fraction, POINTS_THRESHOLDS));
            }
            return review;
        }
        review.win_probability_before = best.win_probability;
        review.win_probability_after = win_after.map(super::calibration::round3);
        if let (Some(before), Some(after)) = (best.win_probability, win_after) {
            let loss = if is_best {
                0.0
            } else {
                (before - after).max(0.0)
            };
            review.loss = Some(super::calibration::round3(loss));
            if !is_best {
                review.label = Some(Label::of_loss(loss, WIN_THRESHOLDS));
            }
        }
        review
    }

    fn summary(&self, plies: &[PlyReview], nodes: u64) -> ReviewSummary {
        let sides = G::info().sides;
        let players: &[Side] = if Self::one_player() {
            &[Side::First]
        } else {
            &[Side::First, Side::Second]
        };
        let sides = players
            .iter()
            .filter_map(|player| {
                let name = sides[player.index()];
                let own: Vec<&PlyReview> = plies.iter().filter(|p| p.side == name).collect();
                (!own.is_empty()).then(|| side_summary(name, &own))
            })
            .collect();
        ReviewSummary {
            sides,
            positions: self.positions(),
            nodes,
        }
    }
}

/// A side's accuracy and label counts.
fn side_summary(side: &'static str, plies: &[&PlyReview]) -> SideSummary {
    let mut labels = BTreeMap::new();
    let mut total = 0.0;
    for ply in plies {
        if let Some(name) = ply.label.and_then(|label| {
            serde_json::to_value(label)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
        }) {
            *labels.entry(name).or_insert(0) += 1;
        }
        total += move_accuracy(ply);
    }
    SideSummary {
        side,
        moves: plies.len(),
        accuracy: (total / plies.len() as f64 * 10.0).round() / 10.0,
        labels,
    }
}

/// A move's accuracy, 0–100: Lichess's curve on the loss in percentage
/// points (of a win, or of the best swap's points).
fn move_accuracy(ply: &PlyReview) -> f64 {
    let loss = match (ply.loss, ply.points_lost) {
        (Some(loss), _) => loss * 100.0,
        (None, Some(lost)) => lost as f64 * 100.0 / ply.best.score.max(1) as f64,
        (None, None) => 0.0,
    };
    (103.1668 * (-0.04354 * loss).exp() - 3.1669).clamp(0.0, 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn losses_fall_into_the_documented_bands() {
        let label = |loss| Label::of_loss(loss, WIN_THRESHOLDS);
        assert_eq!(label(0.0), Label::Excellent);
        assert_eq!(label(0.03), Label::Good);
        assert_eq!(label(0.07), Label::Inaccuracy);
        assert_eq!(label(0.15), Label::Mistake);
        assert_eq!(label(0.2), Label::Blunder);
        assert_eq!(label(1.0), Label::Blunder);
    }

    #[test]
    fn accuracy_is_full_for_no_loss_and_falls_with_it() {
        let ply = |loss: f64| PlyReview {
            ply: 1,
            side: "black",
            mv: Value::Null,
            notation: String::new(),
            best: BestMove {
                mv: Value::Null,
                notation: String::new(),
                pv: Vec::new(),
                score: 0,
            },
            score_before: 0,
            score_after: None,
            win_probability_before: None,
            win_probability_after: None,
            loss: Some(loss),
            points_lost: None,
            label: Some(Label::Best),
        };
        assert!((move_accuracy(&ply(0.0)) - 100.0).abs() < 0.001);
        let small = move_accuracy(&ply(0.05));
        let large = move_accuracy(&ply(0.3));
        assert!(small > 75.0 && small < 85.0, "{small}");
        assert!((large - 24.8).abs() < 0.1, "{large}");
        assert_eq!(move_accuracy(&ply(1.0)), 0.0);
    }
}
