//! Game review: a whole game analysed position by position, each move
//! judged by what it cost the player who made it.
//!
//! A review of `n` moves analyses the `n` positions before them
//! independently, so a caller may run them in parallel, in any order:
//! [`Review::judge`] analyses position `i` and judges the move played
//! there from that analysis alone, with the game's own types, in one job.
//! That analysis scores the played move beside the best
//! one in the same search ([`Scope`]: the same depth, the same side to
//! move, a full window each), so a move's cost is the best move's value
//! less the played move's, and not the difference of two searches (an
//! estimated cost is averaged over the search's last three completed
//! depths, each judged the same way: `LOSS_DEPTHS`). In a
//! two-player game the cost is the fall in the player's chance of winning
//! (draws count half); in a one-player game (Number Crush) the points the
//! swap is expected to score below the best swap. A move as good as the
//! best (the engine's own, one of equal score, or one leading to the same
//! position up to the board's symmetries) is `best`; a move of the game's
//! opening book is `book`.
//!
//! The labels are on one scale for every game (docs/REVIEW.md): a loss in
//! win probability below 0.02 is `excellent`, below 0.05 `good`, below
//! 0.10 `inaccuracy`, below 0.20 `mistake`, and from 0.20 on `blunder`;
//! a loss within the evaluation's measured noise at the search's budget
//! ([`Bots::REVIEW_NOISE`]) cannot be told from the best's, and is `best`. Each side's
//! accuracy follows Lichess's: a move's accuracy is
//! `103.1668 · e^(−0.04354 · loss) − 3.1669` on the loss in percentage
//! points, and the side's is the mean of the volatility-weighted mean and
//! the harmonic mean of its moves' ([`side_accuracy`]). Unlike Lichess's,
//! a move's loss for its accuracy is at least what its score loss would
//! cost in an even position, so a game already lost does not forgive the
//! moves played in it.

use super::analysis;
use super::calibration;
use super::forms::{AnyForms, Forms, WireForms};
use super::record::Replay;
use super::wire::{AnalyzedMove, ReviewBasis};
use super::{symmetry, BotParams, Bots, Budget, Codec, Game, GameError, Rules, Scope};
use super::{SearchReport, Side};
use accuracy::{choice_said_nothing, round1};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

mod accuracy;
pub use accuracy::{accuracy_of_loss, side_accuracy, volatility_weights};

/// The most moves one review takes.
pub const MAX_REVIEW_MOVES: usize = 600;

/// How good a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Label {
    /// A move of the game's opening book (Reversi's, Naughts').
    Book,
    /// As good as the engine's choice as far as the search can tell: the
    /// engine's own move, one scored the same in the same search, one that
    /// leads to the same position up to the board's symmetries, or one
    /// whose loss is within the evaluation's measured noise.
    Best,
    /// Lost less than 0.02 of a win (Crush: less than 5% of the best
    /// swap's points), beyond the noise.
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

    /// The label's step on the scale, 0 (`book` and `best`) to 5
    /// (`blunder`): two reviews of one move agree within a step.
    pub fn step(self) -> u8 {
        match self {
            Label::Book | Label::Best => 0,
            Label::Excellent => 1,
            Label::Good => 2,
            Label::Inaccuracy => 3,
            Label::Mistake => 4,
            Label::Blunder => 5,
        }
    }

    /// The label's name in the API.
    pub fn name(self) -> &'static str {
        match self {
            Label::Book => "book",
            Label::Best => "best",
            Label::Excellent => "excellent",
            Label::Good => "good",
            Label::Inaccuracy => "inaccuracy",
            Label::Mistake => "mistake",
            Label::Blunder => "blunder",
        }
    }
}

/// Win-probability thresholds between the labels after `best`.
const WIN_THRESHOLDS: [f64; 4] = [0.02, 0.05, 0.10, 0.20];
/// Thresholds on the fraction of the best swap's points lost (Crush).
const POINTS_THRESHOLDS: [f64; 4] = [0.05, 0.15, 0.30, 0.50];

/// A game's measured review noise: at each budget, the loss (in win
/// probability, or in Crush in the fraction of the best swap's points)
/// that the same move's review at four times the budget differs by in
/// nine plies of ten (docs/REVIEW.md).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Noise {
    /// The command that measured it.
    #[serde(default)]
    pub command: String,
    /// The budgets measured, smallest first.
    pub budgets: Vec<NoiseAt>,
}

/// The noise at one budget.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoiseAt {
    /// Positions a search visited.
    pub nodes: u64,
    /// The loss within the noise there.
    pub loss: f64,
    /// The plies it was measured on.
    #[serde(default)]
    pub plies: usize,
}

impl Noise {
    /// `G`'s measured noise; none where it has no file.
    pub fn of<G: Bots>() -> Result<Noise, String> {
        match G::REVIEW_NOISE {
            None => Ok(Noise::default()),
            Some(text) => {
                let mut noise: Noise = serde_json::from_str(text).map_err(|e| e.to_string())?;
                noise.budgets.sort_by_key(|b| b.nodes);
                Ok(noise)
            }
        }
    }

    /// The noise of a search that visited `nodes` positions: that of the
    /// largest budget measured at or below it (of the smallest where it
    /// is below them all, the most noise measured); 0 with no table.
    pub fn at(&self, nodes: u64) -> f64 {
        self.budgets
            .iter()
            .rev()
            .find(|b| b.nodes <= nodes)
            .or(self.budgets.first())
            .map_or(0.0, |b| b.loss)
    }
}

/// One analysed position of the game, with the move played there.
#[derive(Clone, Debug)]
struct PositionEval {
    /// The engine's best move first, then the others the review asked the
    /// search to value ([`GameReview::moves_valued`]) and the played move,
    /// all scored by the one search, from the mover's view.
    moves: Vec<AnalyzedMove>,
    /// The best move's notation.
    best_notation: String,
    /// Whether the played move is the best.
    best_is_played: bool,
    /// Where the played move is in `moves`.
    played: Option<usize>,
    /// Whether the played move leads to the best move's position, up to
    /// the board's symmetries (a mirror image, a transposition).
    equivalent: bool,
    /// Whether the played move is one of the opening book's.
    book: bool,
    /// Whether the played move was the only legal one.
    forced: bool,
    /// The played move's loss at each depth the search completed before
    /// its last, deepest last, where that depth gave one (see
    /// [`LOSS_DEPTHS`]).
    earlier_losses: Vec<f64>,
    /// What the search did.
    report: SearchReport,
}

impl PositionEval {
    /// The positions the search visited.
    fn nodes(&self) -> u64 {
        self.report.nodes.unwrap_or(0)
    }
}

/// The engine's choice in a position, as a review gives it.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(rename = "{F}BestMove")]
#[serde(bound(serialize = "F: WireForms"))]
pub struct BestMove<F: Forms = AnyForms> {
    /// The move, as a JSON object.
    #[serde(rename = "move")]
    pub mv: F::Move,
    /// Its notation.
    pub notation: String,
    /// The line expected to follow, starting with it.
    pub pv: Vec<String>,
    /// Its score from the player's view, in the game's units.
    pub score: i64,
}

/// One move of the game, judged.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(rename = "{F}PlyReview")]
#[serde(bound(serialize = "F: WireForms"))]
pub struct PlyReview<F: Forms = AnyForms> {
    /// The move's number in the game, from 1.
    pub ply: usize,
    /// The side that played it (the game's side name).
    pub side: &'static str,
    /// The move played, as a JSON object.
    #[serde(rename = "move")]
    pub mv: F::Move,
    /// Its notation.
    pub notation: String,
    /// What the engine would have played.
    pub best: BestMove<F>,
    /// The best move's score from the player's view (the position's value
    /// before the move).
    pub score_before: i64,
    /// The played move's score from the player's view, by the same search
    /// as the best move's (the best's where it leads to the same position).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score_after: Option<i64>,
    /// The player's chance of winning (draws half) with the best move;
    /// absent in a one-player game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub win_probability_before: Option<f64>,
    /// The player's chance of winning with the move played.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub win_probability_after: Option<f64>,
    /// The fall in the chance of winning, 0 for a move as good as the best
    /// and for a book move (two-player). Where neither score is proven, it
    /// is the mean of the falls at the search's last three completed
    /// depths, so it may differ from the two chances' difference at the
    /// last depth (docs/REVIEW.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loss: Option<f64>,
    /// Points below the best swap (one-player): the best swap's expected
    /// points less the played swap's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points_lost: Option<i64>,
    /// The loss the evaluation's measured noise allows at this search's
    /// budget: a loss within it cannot be told from the best's (`best`).
    pub noise: f64,
    /// Whether it was the only legal move: it counts in no accuracy.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub forced: bool,
    /// How good the move was; absent where the move has no win probability
    /// to compare (an unproven score of a game without a win model, such
    /// as Naughts on a large grid) and was not as good as the best.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<Label>,
    /// The move's accuracy, 0–100 (docs/REVIEW.md): Lichess's curve on its
    /// loss, or on what the score it gave away would cost in an even
    /// position where that is more (a move thrown away in a decided game
    /// still counts); 100 for a book move and for a loss within the noise. Absent for a move
    /// that says nothing of its player: the only legal move, one without a
    /// loss to judge it by, or one that kept a proven result as it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accuracy: Option<f64>,
}

/// One side's figures over a review.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct SideSummary {
    /// The side.
    pub side: &'static str,
    /// Its moves reviewed.
    pub moves: usize,
    /// Its moves with a loss to judge them by (those with a label but no
    /// win probability are left out of the accuracy).
    pub judged: usize,
    /// 0–100, Lichess's accuracy over the judged moves (docs/REVIEW.md):
    /// the mean of their volatility-weighted mean and their harmonic mean,
    /// so that one thrown-away game weighs more than many moves in a
    /// decided one. Absent where no move could be judged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accuracy: Option<f64>,
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
    /// The positions to analyse: the one before each move.
    fn positions(&self) -> usize;
    /// Analyses position `index` (0 = the start) under `budget` and judges
    /// the move played there, with the game's own types, in one job.
    fn judge(&self, index: usize, budget: &Budget) -> Result<Judged, GameError>;
    /// Each side's figures over the judged moves.
    fn summary(&self, plies: &[PlyReview], nodes: u64) -> ReviewSummary;
}

/// A move judged, and what judging it cost.
#[derive(Clone, Debug)]
pub struct Judged {
    /// The move's review.
    pub ply: PlyReview,
    /// The positions its analysis visited.
    pub nodes: u64,
}

/// A review of one game of `G`.
pub struct GameReview<G: Game> {
    replay: Replay<G>,
    seed: u64,
    noise: Noise,
}

impl<G: Game> GameReview<G> {
    /// A review of `replay`, its searches seeded with `seed` (the request
    /// caps its moves at [`MAX_REVIEW_MOVES`] before replaying them).
    pub fn new(replay: Replay<G>, seed: u64) -> Self {
        // The file is checked by a unit test for every game; a broken one
        // only loses the noise allowance.
        let noise = Noise::of::<G>().unwrap_or_default();
        GameReview {
            replay,
            seed,
            noise,
        }
    }

    /// What this game's moves are judged by.
    pub fn basis() -> ReviewBasis {
        if G::info().players == 1 {
            ReviewBasis::Points
        } else if G::WIN_MODEL.is_some() {
            ReviewBasis::WinProbability
        } else {
            ReviewBasis::ProvenResults
        }
    }

    fn one_player() -> bool {
        Self::basis() == ReviewBasis::Points
    }

    /// How many of the best moves a position with `legal` moves has valued
    /// beside the played one: every legal move in a game judged by proven
    /// results, so that a decided game kept decided shows whether another
    /// move would have let the result go (a kept win counts where one
    /// would have), and the best alone elsewhere.
    fn moves_valued(legal: usize) -> usize {
        match Self::basis() {
            ReviewBasis::ProvenResults => legal,
            ReviewBasis::WinProbability | ReviewBasis::Points => 1,
        }
    }

    /// What the score a move gave away would cost a player in an even
    /// position of the same phase (the win model's chance at 0 less its
    /// chance at minus the loss): how bad the move was whatever the game's
    /// state, so that moves thrown away in a decided game still count
    /// against an accuracy. `None` where either score is a proven result
    /// (judged by the result alone) or the game has no win model.
    fn even_loss(state: &G::State, best: &AnalyzedMove, cost: &Cost) -> Option<f64> {
        if cost.by_result(best) {
            return None;
        }
        let model = calibration::shipped(G::info().id, G::WIN_MODEL)?;
        let lost = (best.score - cost.score?).max(0);
        let phase = G::phase(state);
        Some((model.probability(phase, 0) - model.probability(phase, -lost)).max(0.0))
    }
}

/// Whether `a` and `b` lead from `state` to the same position up to the
/// board's symmetries, so that they are worth the same.
fn same_position<G: Rules + Codec>(state: &G::State, a: &G::Move, b: &G::Move) -> bool {
    symmetry::are_twins::<G>(&G::apply(state, a), &G::apply(state, b))
}

/// How many legal moves `state` has.
fn legal_moves<G: Rules>(state: &G::State) -> usize {
    let mut moves = Vec::new();
    G::legal_moves(state, &mut moves);
    moves.len()
}

/// What a move cost against the best in one search.
struct Cost {
    /// The played move's score and win probability, from the mover's view.
    score: Option<i64>,
    win: Option<f64>,
    /// Whether its score is proven (a result, not an evaluation).
    proven: bool,
    /// Whether it is as good as the best.
    as_good: bool,
}

impl Cost {
    /// Whether the move is judged by a proven result rather than by
    /// estimates: its own score or the best move's is proven.
    fn by_result(&self, best: &AnalyzedMove) -> bool {
        self.proven || best.exact.is_some()
    }
}

impl<G: Game> Review for GameReview<G> {
    fn positions(&self) -> usize {
        self.replay.moves.len()
    }

    fn judge(&self, index: usize, budget: &Budget) -> Result<Judged, GameError> {
        let eval = self.analyse(index, budget)?;
        Ok(Judged {
            ply: self.ply(index, &eval),
            nodes: eval.nodes(),
        })
    }

    fn summary(&self, plies: &[PlyReview], nodes: u64) -> ReviewSummary {
        let sides = G::info().sides;
        let players: &[Side] = if Self::one_player() {
            &[Side::First]
        } else {
            &[Side::First, Side::Second]
        };
        let weights = volatility_weights(plies, sides[Side::First.index()]);
        let sides = players
            .iter()
            .filter_map(|player| {
                let name = sides[player.index()];
                let own: Vec<(&PlyReview, f64)> = plies
                    .iter()
                    .zip(&weights)
                    .filter(|(p, _)| p.side == name)
                    .map(|(p, &w)| (p, w))
                    .collect();
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

impl<G: Game> GameReview<G> {
    /// Analyses position `index` (0 = the start) under `budget`, the move
    /// played there scored beside the best in the same search.
    fn analyse(&self, index: usize, budget: &Budget) -> Result<PositionEval, GameError> {
        let state = &self.replay.states[index];
        let played = &self.replay.moves[index];
        let params = BotParams::seeded(self.seed ^ index as u64);
        let legal = legal_moves::<G>(state);
        let scope = Scope::including(Self::moves_valued(legal), played.clone());
        let analysis::Deepening { analysis, depths } =
            analysis::analyze_twin_by_depth::<G>(state, &scope, &params, budget)?;
        let final_depth = analysis.report.depth;
        let earlier_losses = depths
            .iter()
            .filter(|d| d.report.depth < final_depth)
            .filter_map(|d| loss_at_depth::<G>(state, d, played))
            .collect();
        let best = &analysis.moves[0].mv;
        let best_notation = G::notation(state, best);
        let best_is_played = best == played;
        let equivalent = !best_is_played && same_position::<G>(state, best, played);
        let played_at = analysis.moves.iter().position(|m| &m.mv == played);
        let report = analysis.report.clone();
        let reply = analysis::judged_reply::<G>(state, analysis);
        Ok(PositionEval {
            moves: reply.moves,
            best_notation,
            best_is_played,
            played: played_at,
            equivalent,
            book: G::book_moves(state).contains(played),
            forced: legal == 1,
            earlier_losses,
            report,
        })
    }

    /// Judges move `index` from the analysis of its position.
    fn ply(&self, index: usize, eval: &PositionEval) -> PlyReview {
        let state = &self.replay.states[index];
        let played = &self.replay.moves[index];
        let mover = G::to_move(state);
        let notation = G::notation(state, played);
        let best = &eval.moves[0];
        let cost = cost_of(eval);
        let noise = self.noise.at(eval.nodes());
        let mut review = PlyReview {
            ply: index + 1,
            side: G::info().sides[mover.index()],
            mv: G::move_to_json(state, played),
            notation,
            best: BestMove {
                mv: best.mv.clone(),
                notation: eval.best_notation.clone(),
                pv: best.pv.clone(),
                score: best.score,
            },
            score_before: best.score,
            score_after: cost.score,
            win_probability_before: None,
            win_probability_after: None,
            loss: None,
            points_lost: None,
            noise,
            forced: eval.forced,
            label: None,
            accuracy: None,
        };
        let (loss, thresholds, accuracy_loss) = if Self::one_player() {
            let lost = match cost.score {
                _ if cost.as_good || eval.book => 0,
                Some(score) => (best.score - score).max(0),
                None => best.score.max(0),
            };
            review.points_lost = Some(lost);
            let fraction = lost as f64 / best.score.max(1) as f64;
            (Some(fraction), POINTS_THRESHOLDS, Some(fraction))
        } else {
            review.win_probability_before = best.win_probability;
            review.win_probability_after = cost.win.map(calibration::round3);
            let loss = match (best.win_probability, cost.win) {
                _ if cost.as_good || eval.book => Some(0.0),
                (Some(before), Some(after)) if cost.by_result(best) => {
                    Some((before - after).max(0.0))
                }
                (Some(before), Some(after)) => Some(mean_over_depths(
                    (before - after).max(0.0),
                    &eval.earlier_losses,
                )),
                _ => None,
            };
            review.loss = loss.map(calibration::round3);
            // A proven result kept as it was says nothing of the player.
            let accuracy_loss = match Self::even_loss(state, best, &cost) {
                Some(even) => Some(loss.map_or(even, |loss| loss.max(even))),
                None if choice_said_nothing(&review, &eval.moves) => None,
                None => loss,
            };
            (loss, WIN_THRESHOLDS, accuracy_loss)
        };
        review.label = if eval.book {
            Some(Label::Book)
        } else if cost.as_good {
            Some(Label::Best)
        } else {
            // A loss within the noise cannot be told from the best's.
            loss.map(|loss| match loss <= noise {
                true => Label::Best,
                false => Label::of_loss(loss, thresholds),
            })
        };
        review.accuracy = match accuracy_loss {
            _ if eval.forced => None,
            Some(_) if eval.book || cost.as_good => Some(100.0),
            Some(loss) if loss <= noise => Some(100.0),
            Some(loss) => Some(round1(accuracy_of_loss(loss * 100.0))),
            None => None,
        };
        review
    }
}

/// How many of the search's last completed depths an estimated loss is
/// the mean of: the difference between two moves' scores swings from one
/// depth to the next, and its mean over the last few swings less between
/// two budgets (docs/REVIEW.md). A proven result is not averaged.
const LOSS_DEPTHS: usize = 3;

/// The mean of the last depth's loss `last` and the losses of up to
/// [`LOSS_DEPTHS`]` - 1` depths before it (`earlier`, deepest last).
fn mean_over_depths(last: f64, earlier: &[f64]) -> f64 {
    let taken = &earlier[earlier.len().saturating_sub(LOSS_DEPTHS - 1)..];
    (last + taken.iter().sum::<f64>()) / (1 + taken.len()) as f64
}

/// The played move's loss in win probability in one depth's analysis:
/// none as good as the best there, else the best's chance less its own;
/// `None` where the depth did not score it or a score has no chance.
fn loss_at_depth<G: Game>(
    state: &G::State,
    depth: &super::Analysis<G::Move>,
    played: &G::Move,
) -> Option<f64> {
    let best = depth.moves.first()?;
    if &best.mv == played || same_position::<G>(state, &best.mv, played) {
        return Some(0.0);
    }
    let own = depth.moves.iter().find(|m| &m.mv == played)?;
    let chance = |m: &super::ScoredMove<G::Move>| {
        analysis::win_probability::<G>(state, m.score, m.exact.is_some())
    };
    Some((chance(best)? - chance(own)?).max(0.0))
}

/// The played move's figures in its position's analysis: the best's where
/// it is the best or leads to its position, else its own (scored beside
/// the best in the same search).
fn cost_of(eval: &PositionEval) -> Cost {
    let best = &eval.moves[0];
    if eval.best_is_played || eval.equivalent {
        return Cost {
            score: Some(best.score),
            win: best.win_probability,
            proven: best.exact.is_some(),
            as_good: true,
        };
    }
    match eval.played.map(|at| &eval.moves[at]) {
        Some(played) => Cost {
            score: Some(played.score),
            win: played.win_probability,
            proven: played.exact.is_some(),
            as_good: played.score >= best.score,
        },
        None => Cost {
            score: None,
            win: None,
            proven: false,
            as_good: false,
        },
    }
}

/// A side's accuracy and label counts, from its moves and their weights.
fn side_summary(side: &'static str, plies: &[(&PlyReview, f64)]) -> SideSummary {
    let mut labels = BTreeMap::new();
    for (ply, _) in plies {
        if let Some(label) = ply.label {
            *labels.entry(label.name().to_string()).or_insert(0) += 1;
        }
    }
    let judged: Vec<(f64, f64)> = plies
        .iter()
        .filter_map(|(ply, weight)| ply.accuracy.map(|a| (a, *weight)))
        .collect();
    SideSummary {
        side,
        moves: plies.len(),
        judged: judged.len(),
        accuracy: side_accuracy(&judged).map(round1),
        labels,
    }
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

    /// A judged Reversi position: the start, where the best move scores
    /// `best` and the played one `played` (with their proofs, if any).
    fn judged_at_start(best: (i64, Option<&str>), played: (i64, Option<&str>)) -> PlyReview {
        judged_at_start_after(best, played, &[])
    }

    /// [`judged_at_start`] with the played move's losses at the depths the
    /// search completed before its last.
    fn judged_at_start_after(
        best: (i64, Option<&str>),
        played: (i64, Option<&str>),
        earlier_losses: &[f64],
    ) -> PlyReview {
        use crate::games::reversi::Reversi;
        let start = Reversi::new_game(Default::default()).unwrap();
        let mut moves = Vec::new();
        Reversi::legal_moves(&start, &mut moves);
        let replay = Replay::<Reversi> {
            states: vec![start, Reversi::apply(&start, &moves[1])],
            moves: vec![moves[1]],
        };
        let review = GameReview::new(replay, 1);
        let model = calibration::shipped("reversi", Reversi::WIN_MODEL).unwrap();
        let scored = |(score, exact): (i64, Option<&str>), mv: &_| AnalyzedMove {
            mv: Reversi::move_to_json(&start, mv),
            score,
            win_probability: Some(match exact {
                Some(_) => (score.signum() as f64 + 1.0) / 2.0,
                None => model.probability(Reversi::phase(&start), score),
            }),
            pv: Vec::new(),
            exact: exact.map(str::to_string),
        };
        let eval = PositionEval {
            moves: vec![scored(best, &moves[0]), scored(played, &moves[1])],
            best_notation: Reversi::notation(&start, &moves[0]),
            best_is_played: false,
            played: Some(1),
            equivalent: false,
            book: false,
            forced: false,
            earlier_losses: earlier_losses.to_vec(),
            report: SearchReport::default(),
        };
        review.ply(0, &eval)
    }

    #[test]
    fn an_estimated_loss_is_the_mean_of_the_last_depths_and_a_proven_one_stands() {
        let last = judged_at_start((1000, None), (-1000, None)).loss.unwrap();
        // The deepest two earlier depths count; the one before them does not.
        let averaged = judged_at_start_after((1000, None), (-1000, None), &[0.9, 0.0, 0.3]);
        let expected = calibration::round3((last + 0.0 + 0.3) / 3.0);
        assert!(
            (averaged.loss.unwrap() - expected).abs() <= 0.001,
            "{averaged:?}"
        );
        assert!(
            averaged.accuracy.unwrap()
                > judged_at_start((1000, None), (-1000, None))
                    .accuracy
                    .unwrap()
        );
        // With no earlier depth, the last stands alone.
        assert_eq!(mean_over_depths(0.25, &[]), 0.25);
        assert_eq!(mean_over_depths(0.25, &[0.05]), 0.15);
        // A proven result is judged by the result, whatever the depths said.
        let proven = judged_at_start_after((2, Some("+2")), (-2, Some("-2")), &[0.0, 0.0]);
        assert_eq!(proven.loss, Some(1.0));
        assert_eq!(proven.label, Some(Label::Blunder));
    }

    #[test]
    fn a_review_of_a_real_position_averages_the_depths_its_search_completed() {
        use crate::games::reversi::Reversi;
        // A midgame position after a few plies; the played move is not the
        // engine's, so its loss is estimated at every depth.
        let mut state = Reversi::new_game(Default::default()).unwrap();
        let mut moves = Vec::new();
        for pick in [0usize, 1, 2, 0, 3, 1, 2, 0] {
            moves.clear();
            Reversi::legal_moves(&state, &mut moves);
            state = Reversi::apply(&state, &moves[pick % moves.len()]);
        }
        moves.clear();
        Reversi::legal_moves(&state, &mut moves);
        let budget = Budget::unlimited().nodes(20_000);
        let judged: Vec<_> = moves
            .iter()
            .map(|mv| {
                let replay = Replay::<Reversi> {
                    states: vec![state, Reversi::apply(&state, mv)],
                    moves: vec![*mv],
                };
                let review = GameReview::new(replay, 1);
                let eval = review.analyse(0, &budget).unwrap();
                (review.ply(0, &eval), eval)
            })
            .collect();
        let (ply, eval) = judged
            .iter()
            .find(|(ply, eval)| ply.label != Some(Label::Best) && eval.moves[0].exact.is_none())
            .expect("a move worse than the best");
        assert!(!eval.earlier_losses.is_empty(), "{eval:?}");
        let last = ply.win_probability_before.unwrap() - ply.win_probability_after.unwrap();
        let expected = mean_over_depths(last, &eval.earlier_losses);
        assert!(
            (ply.loss.unwrap() - expected).abs() <= 0.002,
            "{ply:?} {eval:?}"
        );
    }

    #[test]
    fn a_move_thrown_away_in_a_lost_game_still_costs_accuracy() {
        // Lost either way: the chance of winning hardly moves, so the label
        // is `best` (within the noise), but 20 discs given away (scores in
        // hundredths of a disc) count as
        // they would in an even game.
        let thrown = judged_at_start((-4000, None), (-6000, None));
        assert!(thrown.loss.unwrap() < 0.01, "{thrown:?}");
        assert_eq!(thrown.label, Some(Label::Best));
        assert!(thrown.accuracy.unwrap() < 30.0, "{thrown:?}");
        // The same in an even game: the same accuracy, a worse label.
        let even = judged_at_start((1000, None), (-1000, None));
        assert!(
            even.label.unwrap().step() >= Label::Mistake.step(),
            "{even:?}"
        );
        assert!(
            thrown.accuracy.unwrap() >= even.accuracy.unwrap(),
            "{thrown:?} {even:?}"
        );
        // A move as good as the best is 100 however lost the game.
        assert_eq!(
            judged_at_start((-4000, None), (-4000, None)).accuracy,
            Some(100.0)
        );
    }

    #[test]
    fn a_proven_result_kept_counts_in_no_accuracy_and_one_thrown_away_counts_fully() {
        let kept = judged_at_start((-4, Some("-4")), (-12, Some("-12")));
        assert_eq!(kept.accuracy, None, "{kept:?}");
        let thrown = judged_at_start((2, Some("+2")), (-2, Some("-2")));
        assert_eq!(thrown.label, Some(Label::Blunder));
        assert_eq!(thrown.accuracy, Some(0.0), "{thrown:?}");
    }

    #[test]
    fn noise_is_the_largest_budget_measured_at_or_below_the_search() {
        let noise: Noise = serde_json::from_str(
            r#"{"budgets": [{"nodes": 100000, "loss": 0.02}, {"nodes": 25000, "loss": 0.05}]}"#,
        )
        .unwrap();
        let mut noise = noise;
        noise.budgets.sort_by_key(|b| b.nodes);
        assert_eq!(noise.at(1_000), 0.05);
        assert_eq!(noise.at(30_000), 0.05);
        assert_eq!(noise.at(100_000), 0.02);
        assert_eq!(Noise::default().at(100_000), 0.0);
    }

    #[test]
    fn every_first_move_of_reversi_scores_and_labels_alike_out_of_book_too() {
        use crate::games::reversi::Reversi;
        let start = Reversi::new_game(Default::default()).unwrap();
        let mut moves = Vec::new();
        Reversi::legal_moves(&start, &mut moves);
        assert_eq!(moves.len(), 4);
        let judged: Vec<_> = moves
            .iter()
            .map(|mv| {
                let after = Reversi::apply(&start, mv);
                let replay = Replay::<Reversi> {
                    states: vec![start, after],
                    moves: vec![*mv],
                };
                let review = GameReview::new(replay, 1);
                let mut eval = review
                    .analyse(0, &Budget::unlimited().nodes(20_000))
                    .unwrap();
                assert!(eval.book);
                eval.book = false;
                let ply = review.ply(0, &eval);
                (ply.score_before, ply.score_after, ply.loss, ply.label)
            })
            .collect();
        assert!(judged.windows(2).all(|w| w[0] == w[1]), "{judged:?}");
        assert_eq!(judged[0].3, Some(Label::Best));
    }

    /// Each ply of a Naughts game (default options) judged by the real
    /// analysis.
    fn naughts_plies(moves: &[&str]) -> Vec<PlyReview> {
        use crate::games::naughts::Naughts;
        let start = Naughts::new_game(Default::default()).unwrap();
        let moves: Vec<serde_json::Value> = moves.iter().map(|m| (*m).into()).collect();
        let replay = crate::game::record::replay::<Naughts>(start, &moves, 20).unwrap();
        let review = GameReview::new(replay, 1);
        let budget = Budget::unlimited().nodes(25_000);
        (0..moves.len())
            .map(|i| review.judge(i, &budget).unwrap().ply)
            .collect()
    }

    #[test]
    fn a_won_game_kept_won_counts_where_another_move_would_have_let_it_go() {
        // X's sixth move throws the draw away; O's seventh keeps the win,
        // where other moves would not have: it counts at 100.
        let plies = naughts_plies(&[
            "3 2 4", "3 1 2", "2 1 1", "3 2 5", "3 1 3", "1 2 3", "1 1 2",
        ]);
        assert_eq!(plies[5].label, Some(Label::Blunder), "{:?}", plies[5]);
        let kept = &plies[6];
        assert_eq!(
            (kept.win_probability_before, kept.win_probability_after),
            (Some(1.0), Some(1.0))
        );
        assert_eq!(kept.accuracy, Some(100.0), "{kept:?}");
        // In a lost game every move loses alike: O's seventh move here,
        // lost before and after, counts in no accuracy.
        let plies = naughts_plies(&[
            "2 3 3", "2 3 4", "3 2 5", "1 1 5", "3 1 4", "3 3 3", "2 1 2",
        ]);
        let lost = &plies[6];
        assert_eq!(
            (lost.win_probability_before, lost.win_probability_after),
            (Some(0.0), Some(0.0))
        );
        assert_eq!(lost.accuracy, None, "{lost:?}");
    }

    struct ReadNoise;

    impl crate::games::GameVisitor for ReadNoise {
        type Output = Result<Noise, String>;
        fn visit<G: Game>(self) -> Self::Output {
            Noise::of::<G>()
        }
    }

    #[test]
    fn every_game_s_noise_file_reads() {
        for id in crate::games::ids() {
            let noise = crate::games::with_game(id, ReadNoise).unwrap();
            let noise = noise.unwrap_or_else(|e| panic!("{id}: {e}"));
            assert!(
                noise.budgets.iter().all(|b| (0.0..1.0).contains(&b.loss)),
                "{id}"
            );
        }
    }
}
