//! A side's accuracy from its judged moves: Lichess's per-move curve, the
//! weights by how much the game swung around each move, and the mix of
//! the weighted and the harmonic mean (docs/REVIEW.md).

use super::PlyReview;
use crate::game::wire::AnalyzedMove;

/// A side's accuracy from its moves' (accuracy, weight): Lichess's mean of
/// the weighted mean and the harmonic mean, each accuracy counted at least
/// 1 in the harmonic mean (as Lichess does) so that one lost game does not
/// make it 0; `None` for no moves.
pub fn side_accuracy(moves: &[(f64, f64)]) -> Option<f64> {
    if moves.is_empty() {
        return None;
    }
    let total_weight: f64 = moves.iter().map(|(_, w)| w).sum();
    let weighted = moves.iter().map(|(a, w)| a * w).sum::<f64>() / total_weight;
    let harmonic = moves.len() as f64 / moves.iter().map(|(a, _)| 1.0 / a.max(1.0)).sum::<f64>();
    Some((weighted + harmonic) / 2.0)
}

/// Each move's weight in its side's accuracy: how much the game's win
/// chances (the first side's, in percentage points) swung around it, as
/// Lichess weighs them: the standard deviation of a window of
/// `clamp(moves / 10, 2, 8)` positions ending after the move, held to
/// 0.5–12. One-player games and moves without win chances weigh 1.
pub fn volatility_weights(plies: &[PlyReview], first: &str) -> Vec<f64> {
    // A mover's chance as the first side's, in percentage points.
    let firsts = |ply: &PlyReview, p: Option<f64>| {
        p.map(|p| (if ply.side == first { p } else { 1.0 - p }) * 100.0)
    };
    let mut chances = Vec::with_capacity(plies.len() + 1);
    for ply in plies {
        let before = firsts(ply, ply.win_probability_before);
        chances.push(before.or(chances.last().copied().flatten()));
    }
    let Some(last) = plies.last() else {
        return Vec::new();
    };
    let end = firsts(last, last.win_probability_after);
    chances.push(end.or(chances.last().copied().flatten()));
    if chances.iter().all(Option::is_none) {
        return vec![1.0; plies.len()];
    }
    let filled: Vec<f64> = chances
        .iter()
        .scan(50.0, |last, c| {
            *last = c.unwrap_or(*last);
            Some(*last)
        })
        .collect();
    let window = (plies.len() / 10).clamp(2, 8).min(filled.len());
    (0..plies.len())
        .map(|i| {
            let start = (i + 2).saturating_sub(window).min(filled.len() - window);
            deviation(&filled[start..start + window]).clamp(0.5, 12.0)
        })
        .collect()
}

/// The population standard deviation of `values`.
fn deviation(values: &[f64]) -> f64 {
    let mean = values.iter().sum::<f64>() / values.len() as f64;
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / values.len() as f64;
    variance.sqrt()
}

/// Rounds to one decimal.
pub(super) fn round1(value: f64) -> f64 {
    (value * 10.0).round() / 10.0
}

/// The chance of winning within which a game is decided, either way.
const DECIDED: f64 = 0.02;

/// Whether the move's choice said nothing of its player: it was played in
/// a decided game and left it decided the same way, and no move the search
/// `valued` (from the mover's view, the best first) would have changed the
/// result. Where every move wins (or loses) alike,
/// counting the move at 100 is what let a random mover read 93%; a win
/// kept where another move would have let it go is the player's doing.
pub(super) fn choice_said_nothing(ply: &PlyReview, valued: &[AnalyzedMove]) -> bool {
    let decided = |p: f64| p <= DECIDED || p >= 1.0 - DECIDED;
    let kept = match (ply.win_probability_before, ply.win_probability_after) {
        (Some(before), Some(after)) => {
            decided(before) && decided(after) && (before - after).abs() < DECIDED
        }
        _ => false,
    };
    let could_change = match valued.first().and_then(|m| m.win_probability) {
        Some(best) => valued
            .iter()
            .filter_map(|m| m.win_probability)
            .any(|p| (best - p).abs() >= DECIDED),
        None => false,
    };
    kept && !could_change
}

/// Lichess's accuracy of a move that lost `loss` percentage points.
pub fn accuracy_of_loss(loss: f64) -> f64 {
    (103.1668 * (-0.04354 * loss).exp() - 3.1669).clamp(0.0, 100.0)
}

#[cfg(test)]
mod tests {
    use super::super::BestMove;
    use super::*;
    use serde_json::Value;

    #[test]
    fn accuracy_is_full_for_no_loss_and_falls_with_it() {
        assert!((accuracy_of_loss(0.0) - 100.0).abs() < 0.001);
        let small = accuracy_of_loss(5.0);
        assert!(small > 75.0 && small < 85.0, "{small}");
        assert!((accuracy_of_loss(30.0) - 24.8).abs() < 0.1);
        assert_eq!(accuracy_of_loss(100.0), 0.0);
    }

    #[test]
    fn one_thrown_away_game_outweighs_many_moves_in_a_decided_one() {
        // Nineteen moves that lose nothing once the game is lost, one that
        // lost it: the plain mean read 95.
        let mut moves = vec![(100.0, 0.5); 19];
        moves.push((0.0, 12.0));
        let accuracy = side_accuracy(&moves).unwrap();
        assert!(accuracy < 35.0, "{accuracy}");
        // Every move perfect: 100, whatever the weights.
        let perfect = side_accuracy(&[(100.0, 0.5), (100.0, 12.0)]).unwrap();
        assert!((perfect - 100.0).abs() < 1e-9);
        assert_eq!(side_accuracy(&[]), None);
    }

    fn ply(side: &'static str, before: f64, after: f64) -> PlyReview {
        PlyReview {
            ply: 1,
            side,
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
            win_probability_before: Some(before),
            win_probability_after: Some(after),
            loss: Some((before - after).max(0.0)),
            points_lost: None,
            noise: 0.0,
            forced: false,
            label: None,
            accuracy: None,
        }
    }

    #[test]
    fn a_swing_weighs_more_than_a_quiet_stretch() {
        // Black throws the game away at the fifth move; the rest is quiet.
        let mut plies = Vec::new();
        for i in 0..20 {
            let side = if i % 2 == 0 { "black" } else { "white" };
            let black = if i < 4 { 0.5 } else { 0.02 };
            let own = |p: f64| if side == "black" { p } else { 1.0 - p };
            let after = if i == 4 { 0.02 } else { black };
            let before = if i == 4 { 0.5 } else { black };
            plies.push(ply(side, own(before), own(after)));
        }
        let weights = volatility_weights(&plies, "black");
        assert_eq!(weights.len(), 20);
        assert!(weights[4] > 10.0, "{weights:?}");
        assert!(weights[19] <= 0.5 + 1e-9, "{weights:?}");
    }
}
