//! The fit behind Reversi's Multi-ProbCut (`reversi_probcut`): for each
//! depth pair and game phase, the least-squares line of the deep search's
//! score on the shallow one's, and the standard deviation of what it
//! leaves, from pairs of scores of the same positions.

use gamebot::games::reversi::bots::probcut::{
    end_shallow_depth, shallow_depth, CutFit, EndFit, MIN_DEPTH,
};
use serde::{Deserialize, Serialize};

/// The phases a line is fitted in, as ranges of empty squares: the
/// endgame's start, two midgame stretches and the opening.
pub const PHASES: [(u32, u32); 4] = [(14, 23), (24, 33), (34, 43), (44, 60)];

/// The fewest positions a line is fitted from.
pub const MIN_SAMPLES: usize = 20;

/// One searched position: its empties and its root score at each depth
/// from 1 (`scores[d - 1]`), in hundredths of a disc.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Empty squares of the position.
    pub empties: u32,
    /// The best score at depths 1, 2, …
    pub scores: Vec<i32>,
}

/// The ranges of empty squares the endgame's lines are fitted in; each
/// keeps one shallow depth ([`end_shallow_depth`]).
pub const END_RANGES: [(u32, u32); 3] = [(12, 15), (16, 19), (20, 23)];

/// One solved endgame position: its empties, its exact final disc
/// difference and its root score at depths 1, 2, … (`shallow[d - 1]`),
/// all in hundredths of a disc.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EndSample {
    /// Empty squares of the position.
    pub empties: u32,
    /// The exact final disc difference for the mover, in hundredths.
    pub exact: i32,
    /// The best score at depths 1, 2, …
    pub shallow: Vec<i32>,
}

/// The line of the exact score on the `shallow`-ply score over the
/// samples with `min..=max` empties, when there are enough of them.
pub fn fit_end(samples: &[EndSample], shallow: u32, (min, max): (u32, u32)) -> Option<EndFit> {
    let points: Vec<(f64, f64)> = samples
        .iter()
        .filter(|s| (min..=max).contains(&s.empties))
        .filter_map(|s| {
            let score = *s.shallow.get(shallow as usize - 1)?;
            Some((f64::from(score), f64::from(s.exact)))
        })
        .collect();
    if points.len() < MIN_SAMPLES {
        return None;
    }
    let (slope, intercept, sigma) = fit_line(&points)?;
    Some(EndFit {
        shallow,
        min_empties: min,
        max_empties: max,
        slope: round(slope, 4),
        intercept: round(intercept, 1),
        sigma: round(sigma, 1),
        samples: points.len(),
    })
}

/// The endgame's lines the engine uses: one per [`END_RANGES`] range, at
/// its [`end_shallow_depth`].
pub fn fit_end_cuts(samples: &[EndSample]) -> Vec<EndFit> {
    END_RANGES
        .iter()
        .filter_map(|&range| fit_end(samples, end_shallow_depth(range.0), range))
        .collect()
}

/// The least-squares line `y ≈ slope · x + intercept` and the standard
/// deviation of its residuals; `None` for fewer than two distinct `x`.
pub fn fit_line(points: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    let n = points.len() as f64;
    if points.len() < 2 {
        return None;
    }
    let mean_x = points.iter().map(|p| p.0).sum::<f64>() / n;
    let mean_y = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = points.iter().map(|p| (p.0 - mean_x).powi(2)).sum();
    let sxy: f64 = points.iter().map(|p| (p.0 - mean_x) * (p.1 - mean_y)).sum();
    if sxx <= 0.0 {
        return None;
    }
    let slope = sxy / sxx;
    let intercept = mean_y - slope * mean_x;
    let residuals: f64 = points
        .iter()
        .map(|p| (p.1 - slope * p.0 - intercept).powi(2))
        .sum();
    let sigma = (residuals / (n - 2.0).max(1.0)).sqrt();
    Some((slope, intercept, sigma))
}

/// Every line the samples support: each depth from [`MIN_DEPTH`] to the
/// deepest scored, in each of [`PHASES`], from the positions that have
/// both depths' scores, when there are at least [`MIN_SAMPLES`].
pub fn fit_cuts(samples: &[Sample]) -> Vec<CutFit> {
    let deepest = samples.iter().map(|s| s.scores.len()).max().unwrap_or(0) as u32;
    let mut fits = Vec::new();
    for depth in MIN_DEPTH..=deepest {
        let shallow = shallow_depth(depth);
        for (min_empties, max_empties) in PHASES {
            let points: Vec<(f64, f64)> = samples
                .iter()
                .filter(|s| (min_empties..=max_empties).contains(&s.empties))
                .filter(|s| s.scores.len() >= depth as usize)
                .map(|s| {
                    (
                        f64::from(s.scores[shallow as usize - 1]),
                        f64::from(s.scores[depth as usize - 1]),
                    )
                })
                .collect();
            if points.len() < MIN_SAMPLES {
                continue;
            }
            let Some((slope, intercept, sigma)) = fit_line(&points) else {
                continue;
            };
            fits.push(CutFit {
                depth,
                shallow,
                min_empties,
                max_empties,
                slope: round(slope, 4),
                intercept: round(intercept, 1),
                sigma: round(sigma, 1),
                samples: points.len(),
            });
        }
    }
    fits
}

fn round(value: f64, places: i32) -> f64 {
    let scale = 10f64.powi(places);
    (value * scale).round() / scale
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_through_exact_points_has_no_error() {
        let points: Vec<(f64, f64)> = (0..10).map(|x| (x as f64, 2.0 * x as f64 + 3.0)).collect();
        let (slope, intercept, sigma) = fit_line(&points).unwrap();
        assert!((slope - 2.0).abs() < 1e-9);
        assert!((intercept - 3.0).abs() < 1e-9);
        assert!(sigma < 1e-9);
        assert_eq!(fit_line(&[(1.0, 1.0)]), None);
        assert_eq!(fit_line(&[(1.0, 1.0), (1.0, 2.0)]), None);
    }

    #[test]
    fn the_error_is_the_residuals_spread() {
        // y = x ± 1 alternately: slope 1, intercept 0, residuals ±1.
        let points: Vec<(f64, f64)> = (0..100)
            .map(|x| (x as f64, x as f64 + if x % 2 == 0 { 1.0 } else { -1.0 }))
            .collect();
        let (slope, intercept, sigma) = fit_line(&points).unwrap();
        assert!((slope - 1.0).abs() < 0.01, "{slope}");
        assert!(intercept.abs() < 0.5, "{intercept}");
        assert!((sigma - 1.0).abs() < 0.02, "{sigma}");
    }

    #[test]
    fn endgame_lines_are_fitted_per_range_at_the_rule_s_depth() {
        let samples: Vec<EndSample> = (0..60)
            .map(|i| EndSample {
                empties: 12 + (i % 12) as u32,
                exact: 100 * (i % 9) - 400,
                shallow: (1..=8).map(|d| 90 * (i % 9) - 300 + d * (i % 2)).collect(),
            })
            .collect();
        let fits = fit_end_cuts(&samples);
        assert_eq!(fits.len(), END_RANGES.len());
        for (fit, range) in fits.iter().zip(END_RANGES) {
            assert_eq!((fit.min_empties, fit.max_empties), range);
            assert_eq!(fit.shallow, end_shallow_depth(range.0));
            assert_eq!(fit.samples, 20);
            assert!(fit.slope > 1.0 && fit.slope < 1.2, "{fit:?}");
        }
        assert!(fit_end_cuts(&samples[..30]).is_empty());
    }

    #[test]
    fn lines_are_fitted_per_depth_and_phase_from_enough_samples() {
        let samples: Vec<Sample> = (0..40)
            .map(|i| Sample {
                empties: 30,
                scores: (1..=5).map(|d| i * 10 + d * (i % 3)).collect(),
            })
            .collect();
        let fits = fit_cuts(&samples);
        let depths: Vec<u32> = fits.iter().map(|f| f.depth).collect();
        assert_eq!(depths, [3, 4, 5]);
        assert!(fits.iter().all(|f| f.min_empties == 24 && f.samples == 40));
        assert!(fit_cuts(&samples[..MIN_SAMPLES - 1]).is_empty());
    }
}
