//! Placing a player of a one-player game (Number Crush) from their scores.
//! Its levels are not rated: each level's ladder file keeps the
//! distribution of the scores it reached at each `k` (quantiles over the
//! same game seeds, [`crate::game::ladder::VariantScore::quantiles`]). A
//! player's score at some `k` is placed against each level's distribution
//! at that `k` as a percentile, the share of the level's games it beats (a
//! tie half): the player's expected score in a race against the level on
//! a board of that `k`. A level is beaten when the player's results beat
//! it more often than not (their mean percentile above 50), and the
//! recommended level is the one whose percentile is closest to the target
//! (half by default), moving at most [`MAX_LEVELS_A_RESULT`] levels a
//! result from the newcomer level, as on a rated ladder.

use super::{check_count, check_target, round, MAX_LEVELS_A_RESULT};
use crate::game::ladder::ScoredLevel;
use crate::game::GameError;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One game the player played, by its score.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScoredGame {
    /// The game's `k` (Number Crush: digits 1 to k), one the ladder
    /// measured (`mean_scores` in `GET /v1/games` lists them).
    pub k: u64,
    /// The player's score in the game (Number Crush: the 100-swap total).
    pub score: u64,
}

/// `placement`'s body for a one-player game: the player's scores.
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScorePlacementRequest {
    /// The player's games, oldest first, as they were played (none places
    /// the player at the game's newcomer level): each moves the
    /// recommendation at most two levels from the one before it.
    #[serde(default)]
    pub results: Vec<ScoredGame>,
    /// The share of the recommended level's games the player should expect
    /// to beat, from 0.05 to 0.95: 0.5 (the default) for an even race,
    /// higher for one won more often.
    #[serde(default)]
    pub target: Option<f64>,
}

/// Where a one-player game's player stands against its levels.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct ScorePlacement {
    /// The results it rests on.
    pub games: usize,
    /// The levels the player beats: those whose games the player's scores
    /// beat more often than not (a percentile above 50), lowest first.
    pub beaten: Vec<u8>,
    /// The level to race next.
    pub recommended: ScoreRecommendation,
    /// The player's percentile against every level, lowest first.
    pub levels: Vec<LevelPercentile>,
}

/// The level recommended next in a one-player game.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct ScoreRecommendation {
    /// The level's number.
    pub level: u8,
    /// The player's percentile against it, or null with no results.
    pub percentile: Option<f64>,
    /// The target it was chosen for (a share; the percentile over 100).
    pub target: f64,
    /// The level the percentiles alone recommend: another than `level`
    /// while the results are too few to move the recommendation that far.
    pub fitted: u8,
}

/// The player's standing against one level of a one-player game.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct LevelPercentile {
    /// The level's number.
    pub level: u8,
    /// The share of the level's games the player's scores beat, a tie
    /// counting half, in percent: the mean over the player's results, each
    /// against the level's scores at the result's `k`; null with no results.
    pub percentile: Option<f64>,
    /// Whether the player beats the level (a percentile above 50).
    pub beaten: bool,
    /// The same at each `k` the player played, lowest `k` first.
    pub by_k: Vec<KPercentile>,
}

/// The player's standing against one level at one `k`.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct KPercentile {
    /// The `k`.
    pub k: u64,
    /// The player's results at it.
    pub games: usize,
    /// Their mean percentile against the level's scores at this `k`.
    pub percentile: f64,
    /// The level's median score at this `k`.
    pub median: f64,
}

/// The percentile of `score` in a distribution given by its `quantiles`
/// (the score at evenly spaced shares of the games, from 0% to 100%, as a
/// ladder file keeps them): the share of the games below it, a share
/// whose scores equal it counting half, reading the distribution as linear
/// between neighbouring quantiles; in percent.
pub fn percentile(quantiles: &[f64], score: f64) -> f64 {
    match quantiles {
        [] => 50.0,
        [only] => match score.total_cmp(only) {
            std::cmp::Ordering::Less => 0.0,
            std::cmp::Ordering::Equal => 50.0,
            std::cmp::Ordering::Greater => 100.0,
        },
        _ => {
            let below: f64 = quantiles
                .windows(2)
                .map(|pair| {
                    let (low, high) = (pair[0], pair[1]);
                    if score > high {
                        1.0
                    } else if score < low {
                        0.0
                    } else if high == low {
                        0.5
                    } else {
                        (score - low) / (high - low)
                    }
                })
                .sum();
            100.0 * below / (quantiles.len() - 1) as f64
        }
    }
}

/// The median of a distribution given by its quantiles.
fn median(quantiles: &[f64]) -> f64 {
    let at = (quantiles.len().saturating_sub(1)) as f64 / 2.0;
    let (below, share) = (at.floor() as usize, at.fract());
    let above = (below + 1).min(quantiles.len().saturating_sub(1));
    quantiles
        .get(below)
        .map_or(0.0, |low| low + share * (quantiles[above] - low))
}

/// Places a one-player game's player against `levels` (the game's ladder
/// file's scored levels, lowest first) from their scores in `request`,
/// starting a newcomer at level `newcomer` (never the top); `game` names
/// the game in errors, which point into the request body (`/results/2/k`).
pub fn place_scores(
    game: &str,
    levels: &[ScoredLevel],
    newcomer: u8,
    request: &ScorePlacementRequest,
) -> Result<ScorePlacement, GameError> {
    if levels.is_empty()
        || levels
            .iter()
            .any(|level| level.variants.iter().any(|v| v.quantiles.is_empty()))
    {
        return Err(GameError::invalid_option(format!(
            "{game}'s ladder file keeps no distributions of its levels' scores, so there is no placement"
        )));
    }
    let target = check_target(request.target)?;
    check_count(request.results.len())?;
    let measured: Vec<&str> = levels[0]
        .variants
        .iter()
        .map(|v| v.variant.as_str())
        .collect();
    // Each result's percentile against every level, in percent.
    let mut percentiles: Vec<Vec<f64>> = Vec::with_capacity(request.results.len());
    for (i, result) in request.results.iter().enumerate() {
        let variant = format!("k={}", result.k);
        let row: Option<Vec<f64>> = levels
            .iter()
            .map(|level| {
                let scores = level.variants.iter().find(|v| v.variant == variant)?;
                Some(percentile(&scores.quantiles, result.score as f64))
            })
            .collect();
        percentiles.push(row.ok_or_else(|| {
            GameError::invalid_option_at(
                format!("/results/{i}/k"),
                format!(
                    "{game}'s ladder measured {}, not k={}",
                    measured.join(", "),
                    result.k
                ),
            )
        })?);
    }
    let start = usize::from(newcomer.max(1) - 1).min(levels.len().saturating_sub(2));
    let best = |sums: &[f64], count: usize| {
        let gap = |i: usize| (sums[i] / count as f64 / 100.0 - target).abs();
        (0..levels.len())
            .min_by(|&a, &b| gap(a).total_cmp(&gap(b)))
            .expect("the ladder has a level")
    };
    let mut sums = vec![0.0; levels.len()];
    let mut recommended = start;
    let mut fitted = start;
    for (count, row) in percentiles.iter().enumerate() {
        for (sum, p) in sums.iter_mut().zip(row) {
            *sum += p;
        }
        fitted = best(&sums, count + 1);
        recommended = fitted.clamp(
            recommended.saturating_sub(MAX_LEVELS_A_RESULT),
            recommended + MAX_LEVELS_A_RESULT,
        );
    }
    let games = request.results.len();
    let mean = |i: usize| (games > 0).then(|| round(sums[i] / games as f64, 1));
    let mut ks: Vec<u64> = request.results.iter().map(|r| r.k).collect();
    ks.sort_unstable();
    ks.dedup();
    let standings: Vec<LevelPercentile> = levels
        .iter()
        .enumerate()
        .map(|(i, level)| LevelPercentile {
            level: level.level,
            percentile: mean(i),
            beaten: mean(i).is_some_and(|p| p > 50.0),
            by_k: ks
                .iter()
                .map(|&k| {
                    let at: Vec<f64> = request
                        .results
                        .iter()
                        .zip(&percentiles)
                        .filter(|(result, _)| result.k == k)
                        .map(|(_, row)| row[i])
                        .collect();
                    let variant = format!("k={k}");
                    let scores = level
                        .variants
                        .iter()
                        .find(|v| v.variant == variant)
                        .expect("every result's k was found above");
                    KPercentile {
                        k,
                        games: at.len(),
                        percentile: round(at.iter().sum::<f64>() / at.len() as f64, 1),
                        median: round(median(&scores.quantiles), 1),
                    }
                })
                .collect(),
        })
        .collect();
    Ok(ScorePlacement {
        games,
        beaten: standings
            .iter()
            .filter(|s| s.beaten)
            .map(|s| s.level)
            .collect(),
        recommended: ScoreRecommendation {
            level: levels[recommended].level,
            percentile: mean(recommended),
            target,
            fitted: levels[fitted].level,
        },
        levels: standings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::ladder::VariantScore;

    /// Levels whose scores at k=4 are `scale` times 0..=20 (the 21
    /// quantiles), and at k=5 half that.
    fn levels(scales: &[f64]) -> Vec<ScoredLevel> {
        scales
            .iter()
            .enumerate()
            .map(|(i, &scale)| ScoredLevel {
                level: i as u8 + 1,
                plays: None,
                variants: [(4, 1.0), (5, 0.5)]
                    .iter()
                    .map(|&(k, share)| VariantScore {
                        variant: format!("k={k}"),
                        games: 30,
                        mean: 10.0 * scale * share,
                        step: None,
                        quantiles: (0..=20).map(|q| f64::from(q) * scale * share).collect(),
                    })
                    .collect(),
            })
            .collect()
    }

    fn request(results: &[(u64, u64)]) -> ScorePlacementRequest {
        ScorePlacementRequest {
            results: results
                .iter()
                .map(|&(k, score)| ScoredGame { k, score })
                .collect(),
            target: None,
        }
    }

    #[test]
    fn a_percentile_reads_the_distribution_between_quantiles() {
        let quantiles: Vec<f64> = (0..=20).map(f64::from).collect();
        assert_eq!(percentile(&quantiles, -1.0), 0.0);
        assert_eq!(percentile(&quantiles, 25.0), 100.0);
        assert!((percentile(&quantiles, 10.0) - 50.0).abs() < 1e-9);
        assert!((percentile(&quantiles, 5.5) - 27.5).abs() < 1e-9);
        // A score many games share sits in the middle of them.
        let flat = [0.0, 10.0, 10.0, 10.0, 20.0];
        assert!((percentile(&flat, 10.0) - 50.0).abs() < 1e-9);
        assert_eq!(median(&flat), 10.0);
    }

    #[test]
    fn scores_place_a_player_against_every_level() {
        let levels = levels(&[100.0, 400.0, 800.0, 1600.0]);
        // 4000 at k=4 beats all of level 1's games, half of level 2's.
        let placed = place_scores("Test", &levels, 2, &request(&[(4, 4000)])).unwrap();
        assert_eq!(placed.games, 1);
        assert_eq!(placed.levels[0].percentile, Some(100.0));
        assert_eq!(placed.levels[1].percentile, Some(50.0));
        assert_eq!(placed.beaten, vec![1]);
        assert_eq!(placed.recommended.level, 2);
        assert_eq!(placed.levels[1].by_k[0].median, 4000.0);
        // The same score at k=5, where the levels score half as much.
        let placed = place_scores("Test", &levels, 2, &request(&[(5, 4000)])).unwrap();
        assert_eq!(placed.beaten, vec![1, 2]);
        assert_eq!(placed.recommended.level, 3);
    }

    #[test]
    fn no_scores_start_at_the_newcomer_level_and_one_moves_two_levels_at_most() {
        let levels = levels(&[100.0, 400.0, 800.0, 1600.0, 3200.0]);
        let none = place_scores("Test", &levels, 1, &request(&[])).unwrap();
        assert_eq!(none.recommended.level, 1);
        assert_eq!(none.recommended.percentile, None);
        assert!(none.beaten.is_empty());
        let top = place_scores("Test", &levels, 5, &request(&[])).unwrap();
        assert_eq!(top.recommended.level, 4);
        let high = place_scores("Test", &levels, 1, &request(&[(4, 32_000)])).unwrap();
        assert_eq!((high.recommended.level, high.recommended.fitted), (3, 5));
        let two = place_scores("Test", &levels, 1, &request(&[(4, 32_000), (4, 32_000)])).unwrap();
        assert_eq!(two.recommended.level, 5);
    }

    #[test]
    fn an_unmeasured_k_is_refused_at_its_place() {
        let levels = levels(&[100.0, 400.0]);
        let error = place_scores("Test", &levels, 1, &request(&[(4, 10), (9, 10)])).unwrap_err();
        assert_eq!(error.pointer(), Some("/results/1/k"));
        assert!(error.to_string().contains("k=4, k=5"), "{error}");
        let mut bare = levels.clone();
        bare[1].variants[0].quantiles.clear();
        let error = place_scores("Test", &bare, 1, &request(&[])).unwrap_err();
        assert!(error.to_string().contains("no distributions"), "{error}");
    }
}
