//! Win probabilities from scores: a game's logistic model of the result
//! against the score its analysis reports, fitted on the engine's own
//! self-play by phase of the game (`gamebot-research calibrate`), and
//! shipped as `data/calibration/<game>.json`.
//!
//! A probability is always for the side to move, with draws counted half:
//! `1 / (1 + e^-(slope · score + intercept))` with the fit of the phase the
//! position is in. A proven result needs no model: a win is 1, a draw ½ and
//! a loss 0.

use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::{OnceLock, RwLock};

/// The fit of one phase of the game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PhaseFit {
    /// The lowest phase value (the game's [`Bots::phase`](super::Bots::phase)) it covers.
    pub from: u32,
    /// The highest phase value it covers.
    pub to: u32,
    /// The logistic slope per unit of score.
    pub slope: f64,
    /// The logistic intercept: the side to move's edge at score 0.
    pub intercept: f64,
    /// Positions the fit was made on.
    pub positions: usize,
    /// The fit's mean log loss (natural log) on its positions.
    pub log_loss: f64,
    /// The fit's mean squared error of the probability (Brier score).
    pub brier: f64,
}

/// A game's fitted model, as `data/calibration/<game>.json` holds it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WinModel {
    /// The game's id.
    pub game: String,
    /// What the phase counts (`"discs on the board"`).
    pub phase: String,
    /// The command that made the file.
    pub command: String,
    /// The self-play games the fit used.
    pub games: usize,
    /// The fits, by phase, in increasing `from` order, covering every phase.
    pub phases: Vec<PhaseFit>,
}

/// A proven or decided result, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Known {
    /// A forced win.
    Win,
    /// A forced draw.
    Draw,
    /// A forced loss.
    Loss,
}

impl Known {
    /// The result's probability of winning, draws counted half.
    pub fn probability(self) -> f64 {
        match self {
            Known::Win => 1.0,
            Known::Draw => 0.5,
            Known::Loss => 0.0,
        }
    }
}

impl WinModel {
    /// Reads a model file, checking that its phases are in order and cover
    /// a contiguous range.
    pub fn parse(text: &str) -> Result<WinModel, String> {
        let model: WinModel = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if model.phases.is_empty() {
            return Err("a win model needs at least one phase".into());
        }
        for pair in model.phases.windows(2) {
            if pair[1].from != pair[0].to + 1 {
                return Err(format!(
                    "phases {}–{} and {}–{} are not contiguous",
                    pair[0].from, pair[0].to, pair[1].from, pair[1].to
                ));
            }
        }
        Ok(model)
    }

    /// The fit for `phase`: the phase that covers it, or the nearest end.
    pub fn fit(&self, phase: u32) -> &PhaseFit {
        self.phases
            .iter()
            .find(|fit| phase <= fit.to)
            .unwrap_or_else(|| self.phases.last().expect("parse checks one phase"))
    }

    /// The side to move's chance of winning (draws half) in `phase` at
    /// `score`, rounded to three decimals.
    pub fn probability(&self, phase: u32, score: i64) -> f64 {
        let fit = self.fit(phase);
        round3(logistic(fit.slope * score as f64 + fit.intercept))
    }
}

/// The model a game ships (its [`Bots::WIN_MODEL`](super::Bots::WIN_MODEL)
/// text), parsed once per game. A shipped file that does not parse is a
/// build's mistake, which the registry's tests catch.
pub fn shipped(game: &'static str, text: Option<&'static str>) -> Option<&'static WinModel> {
    static MODELS: OnceLock<RwLock<HashMap<&'static str, &'static WinModel>>> = OnceLock::new();
    let text = text?;
    let models = MODELS.get_or_init(Default::default);
    if let Some(model) = models.read().ok()?.get(game) {
        return Some(model);
    }
    let model = WinModel::parse(text)
        .unwrap_or_else(|e| panic!("data/calibration/{game}.json does not parse: {e}"));
    let model: &'static WinModel = Box::leak(Box::new(model));
    models.write().ok()?.entry(game).or_insert(model);
    Some(model)
}

/// The logistic function.
pub fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// A probability as the API gives it: three decimals.
pub fn round3(p: f64) -> f64 {
    (p * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model() -> WinModel {
        let fit = |from, to, slope| PhaseFit {
            from,
            to,
            slope,
            intercept: 0.0,
            positions: 1,
            log_loss: 0.5,
            brier: 0.2,
        };
        WinModel {
            game: "test".into(),
            phase: "plies".into(),
            command: "none".into(),
            games: 1,
            phases: vec![fit(0, 9, 0.01), fit(10, 99, 0.02)],
        }
    }

    #[test]
    fn a_score_of_zero_is_even_and_a_higher_score_is_likelier_to_win() {
        let model = model();
        assert_eq!(model.probability(3, 0), 0.5);
        assert!(model.probability(3, 100) > 0.7);
        assert!(model.probability(3, -100) < 0.3);
        assert_eq!(model.probability(3, 100) + model.probability(3, -100), 1.0);
    }

    #[test]
    fn the_phase_picks_its_fit_and_a_phase_past_the_last_uses_the_last() {
        let model = model();
        assert_eq!(model.fit(9).slope, 0.01);
        assert_eq!(model.fit(10).slope, 0.02);
        assert_eq!(model.fit(500).slope, 0.02);
    }

    #[test]
    fn a_model_file_with_a_gap_between_phases_is_refused() {
        let mut model = model();
        model.phases[1].from = 12;
        let text = serde_json::to_string(&model).unwrap();
        assert!(WinModel::parse(&text).unwrap_err().contains("contiguous"));
        let text = serde_json::to_string(&self::model()).unwrap();
        assert_eq!(WinModel::parse(&text).unwrap(), self::model());
    }
}
