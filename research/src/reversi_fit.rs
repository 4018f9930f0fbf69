//! Fitting the pattern evaluation's weights (`gamebot::games::reversi::bots::patterns`) to
//! labelled positions by least squares: each position's label is the final
//! disc difference from the mover's view (exact where the position was
//! solved, otherwise the result of the game it came from), and the weights
//! minimise the squared error plus a small L2 penalty, by stochastic
//! gradient descent over the positions in a seeded order, phase by phase.
//!
//! Phases are independent, so they are fitted on parallel threads; every
//! phase's order comes from the seed alone, so the same positions and seed
//! give the same weights on any number of threads. The self-play that makes
//! the positions is `research/src/bin/reversi_train.rs`.

use gamebot::arena::run_parallel;
use gamebot::games::reversi::board::{Bits, Board};
use gamebot::games::reversi::bots::patterns::{
    self, Features, Weights, BIAS, MOBILITY, PHASES, PHASE_SIZE,
};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A labelled position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The position, mover first.
    pub board: Board,
    /// The final disc difference expected from it, from the mover's view.
    pub target: f32,
}

/// How to fit.
#[derive(Clone, Copy, Debug)]
pub struct FitOptions {
    /// Passes over the positions.
    pub epochs: usize,
    /// The first pass's step size; it falls linearly to a tenth of it.
    pub rate: f32,
    /// The L2 penalty on every weight.
    pub l2: f32,
    /// Seed of the order positions are visited in.
    pub seed: u64,
    /// Threads (phases are fitted in parallel).
    pub threads: usize,
    /// Each phase is fitted on the positions of the phases up to this many
    /// away as well as its own (0: its own only), so that configurations
    /// rare in one phase borrow from its neighbours.
    pub spread: usize,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            epochs: 12,
            rate: 0.003,
            l2: 0.0005,
            seed: 1,
            threads: 1,
            spread: 0,
        }
    }
}

/// How well the weights fit, in discs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitReport {
    /// Positions fitted.
    pub samples: usize,
    /// The root-mean-square error of all-zero weights (the labels' spread).
    pub rmse_before: f64,
    /// The root-mean-square error of the fitted (rounded) weights.
    pub rmse_after: f64,
}

/// The mobility feature is fed scaled down so that one step size suits it
/// and the pattern weights alike.
const MOBILITY_SCALE: f32 = 10.0;

/// One phase's weights in discs while fitting.
struct PhaseFit {
    weights: Vec<f32>,
}

impl PhaseFit {
    /// Weights read back from their [`PhaseFit::rounded`] form.
    fn from_rounded(values: &[i16]) -> PhaseFit {
        let mut weights: Vec<f32> = values.iter().map(|&w| f32::from(w) / 100.0).collect();
        weights[MOBILITY] *= MOBILITY_SCALE;
        PhaseFit { weights }
    }

    fn predict(&self, features: &Features) -> f32 {
        let patterns: f32 = features
            .indices
            .iter()
            .map(|&i| self.weights[i as usize])
            .sum();
        patterns
            + self.weights[BIAS]
            + self.weights[MOBILITY] * features.mobility as f32 / MOBILITY_SCALE
    }

    fn step(&mut self, features: &Features, error: f32, rate: f32, l2: f32) {
        for &i in &features.indices {
            let w = &mut self.weights[i as usize];
            *w -= rate * (error + l2 * *w);
        }
        self.weights[BIAS] -= rate * error;
        let mobility = features.mobility as f32 / MOBILITY_SCALE;
        let w = &mut self.weights[MOBILITY];
        *w -= rate * (error * mobility + l2 * *w);
    }

    /// The weights in hundredths of a disc, as the evaluation reads them.
    fn rounded(&self) -> Vec<i16> {
        let hundredths = |w: f32| (w * 100.0).round().clamp(-32000.0, 32000.0) as i16;
        let mut out: Vec<i16> = self.weights.iter().map(|&w| hundredths(w)).collect();
        out[MOBILITY] = hundredths(self.weights[MOBILITY] / MOBILITY_SCALE);
        out
    }
}

/// Fits weights to `samples`, from all-zero weights.
pub fn fit(samples: &[Sample], options: &FitOptions) -> (Weights, FitReport) {
    fit_from(samples, options, &Weights::zero())
}

/// Fits weights to `samples` starting from `start` (an earlier
/// generation's, so that what its positions taught and these do not
/// cover is kept).
pub fn fit_from(samples: &[Sample], options: &FitOptions, start: &Weights) -> (Weights, FitReport) {
    let mut by_phase: Vec<Vec<usize>> = vec![Vec::new(); PHASES];
    for (i, sample) in samples.iter().enumerate() {
        by_phase[patterns::phase(sample.board.empties())].push(i);
    }
    let fitted = run_parallel(PHASES, options.threads, |phase| {
        let near = phase.saturating_sub(options.spread)..=(phase + options.spread).min(PHASES - 1);
        let members: Vec<usize> = near.flat_map(|p| by_phase[p].iter().copied()).collect();
        let start = &start.values[phase * PHASE_SIZE..][..PHASE_SIZE];
        Ok(fit_phase(samples, &members, phase, options, start))
    })
    .expect("fitting a phase cannot fail");
    let mut weights = Weights::zero();
    for (phase, values) in fitted.into_iter().enumerate() {
        weights.values[phase * PHASE_SIZE..][..PHASE_SIZE].copy_from_slice(&values);
    }
    let report = FitReport {
        samples: samples.len(),
        rmse_before: rmse(samples, &Weights::zero()),
        rmse_after: rmse(samples, &weights),
    };
    (weights, report)
}

/// One phase's weights in hundredths of a disc, fitted to the samples at `members`.
fn fit_phase(
    samples: &[Sample],
    members: &[usize],
    phase: usize,
    options: &FitOptions,
    start: &[i16],
) -> Vec<i16> {
    let mut fit = PhaseFit::from_rounded(start);
    let mut order = members.to_vec();
    let mut rng =
        ChaCha8Rng::seed_from_u64(options.seed ^ (phase as u64).wrapping_mul(0x9e37_79b9));
    for epoch in 0..options.epochs {
        let progress = epoch as f32 / options.epochs.max(1) as f32;
        let rate = options.rate * (1.0 - 0.9 * progress);
        order.shuffle(&mut rng);
        for &i in &order {
            let features = Features::of(samples[i].board);
            let error = fit.predict(&features) - samples[i].target;
            fit.step(&features, error, rate, options.l2);
        }
    }
    fit.rounded()
}

/// The root-mean-square error of `weights` over `samples`, in discs.
pub fn rmse(samples: &[Sample], weights: &Weights) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples
        .iter()
        .map(|s| {
            let predicted = f64::from(weights.score(&Features::of(s.board))) / 100.0;
            (predicted - f64::from(s.target)).powi(2)
        })
        .sum();
    (total / samples.len() as f64).sqrt()
}

/// How well weights predict one phase's positions, in discs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PhaseError {
    /// The phase (empties 5·phase to 5·phase + 4; the last takes 55–60).
    pub phase: usize,
    /// Positions in it.
    pub positions: usize,
    /// How many of them are labelled with their exact value.
    pub exact: usize,
    /// The root-mean-square error over all of them.
    pub rmse: f64,
}

/// [`PhaseError`] of `weights` for every phase with positions in
/// `samples`; a position's label counts as exact when it has at most
/// `exact_from` empties.
pub fn phase_errors(samples: &[Sample], weights: &Weights, exact_from: u32) -> Vec<PhaseError> {
    let mut sums = [(0usize, 0usize, 0.0f64); PHASES];
    for s in samples {
        let empties = s.board.empties();
        let predicted = f64::from(weights.evaluate(s.board)) / 100.0;
        let entry = &mut sums[patterns::phase(empties)];
        entry.0 += 1;
        entry.1 += usize::from(empties <= exact_from);
        entry.2 += (predicted - f64::from(s.target)).powi(2);
    }
    sums.iter()
        .enumerate()
        .filter(|(_, (n, _, _))| *n > 0)
        .map(|(phase, &(positions, exact, squares))| PhaseError {
            phase,
            positions,
            exact,
            rmse: (squares / positions as f64).sqrt(),
        })
        .collect()
}

/// Positions from random games, labelled with each game's final disc
/// difference (for tests and smoke runs: a real fit uses self-play).
pub fn random_game_samples(games: usize, seed: u64) -> Vec<Sample> {
    use rand::Rng;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut samples = Vec::new();
    for _ in 0..games {
        let mut board = Board::start();
        let mut seen: Vec<(Board, bool)> = Vec::new();
        let mut flipped = false;
        while !board.is_over() {
            seen.push((board, flipped));
            let moves: Vec<u32> = Bits(board.moves()).collect();
            board = if moves.is_empty() {
                board.pass()
            } else {
                board.play(moves[rng.random_range(0..moves.len())])
            };
            flipped = !flipped;
        }
        // The final difference from the side to move at the end.
        let last = board.me.count_ones() as f32 - board.opp.count_ones() as f32;
        for (position, side) in seen {
            let target = if side == flipped { last } else { -last };
            samples.push(Sample {
                board: position,
                target,
            });
        }
    }
    samples
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tiny_fit_is_reproducible_and_lowers_the_error() {
        let samples = random_game_samples(300, 7);
        let options = FitOptions {
            epochs: 4,
            threads: 2,
            ..FitOptions::default()
        };
        let (first, report) = fit(&samples, &options);
        let (second, _) = fit(
            &samples,
            &FitOptions {
                threads: 1,
                ..options
            },
        );
        assert_eq!(
            first, second,
            "the same positions and seed give the same weights"
        );
        assert!(report.samples > 10_000, "{report:?}");
        assert!(
            report.rmse_after < 0.8 * report.rmse_before,
            "the fit lowers the error: {report:?}"
        );
        let (other_seed, _) = fit(&samples, &FitOptions { seed: 2, ..options });
        assert_ne!(first, other_seed, "the seed orders the positions");
        let (spread, _) = fit(
            &samples,
            &FitOptions {
                spread: 1,
                ..options
            },
        );
        assert_ne!(first, spread, "a spread fits on more positions");
    }

    #[test]
    fn a_fit_from_earlier_weights_starts_where_they_are() {
        let samples = random_game_samples(100, 9);
        let (earlier, _) = fit(&samples, &FitOptions::default());
        let none = FitOptions {
            epochs: 0,
            ..FitOptions::default()
        };
        let (kept, _) = fit_from(&samples, &none, &earlier);
        assert_eq!(kept, earlier, "no epochs keep the starting weights exactly");
        let (again, report) = fit_from(&samples, &FitOptions::default(), &earlier);
        assert_ne!(again, earlier);
        assert!(report.rmse_after < report.rmse_before, "{report:?}");
    }

    #[test]
    fn phase_errors_split_the_error_by_phase_and_count_the_exact_labels() {
        let samples = random_game_samples(50, 3);
        let (weights, report) = fit(&samples, &FitOptions::default());
        let phases = phase_errors(&samples, &weights, 9);
        assert_eq!(
            phases.iter().map(|p| p.positions).sum::<usize>(),
            samples.len()
        );
        let exact = samples.iter().filter(|s| s.board.empties() <= 9).count();
        assert_eq!(phases.iter().map(|p| p.exact).sum::<usize>(), exact);
        let squares: f64 = phases
            .iter()
            .map(|p| p.rmse.powi(2) * p.positions as f64)
            .sum();
        let whole = (squares / samples.len() as f64).sqrt();
        assert!(
            (whole - report.rmse_after).abs() < 1e-6,
            "{whole} {report:?}"
        );
    }
}
