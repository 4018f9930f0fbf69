//! A match's totals: results by seat, the score with its Elo difference
//! and 95% interval, think times and search speed, and the games log.

use super::engine::{GameRecord, GameResult, Seat};
use serde::Serialize;

/// How far past its time per move a move may come before it counts as an
/// overrun in the summary (the strong levels' promise; losing on time is the
/// clock's separate, looser grace).
pub const OVERRUN_MS: f64 = 10.0;

/// One seat's figures over a match.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SeatSummary {
    /// The player's name.
    pub name: String,
    /// Its time control, in words.
    pub time: String,
    /// Games it won.
    pub wins: usize,
    /// Games it lost on time.
    pub timeouts: usize,
    /// Games it lost by forfeit other than on time (illegal move, failure).
    pub forfeits: usize,
    /// Mean think time per move, ms.
    pub avg_ms: f64,
    /// Median think time per move, ms.
    pub median_ms: f64,
    /// Longest think, ms.
    pub max_ms: f64,
    /// Moves that came more than [`OVERRUN_MS`] after their time per move
    /// (`None` under a game clock, where there is no time per move).
    pub overruns: Option<usize>,
    /// Search speed, positions per second of thinking.
    pub nodes_per_s: f64,
    /// Under a game clock: the time left at each game's end and the time
    /// manager's plans against the time used (absent without a clock).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockSummary>,
}

/// One seat's clock over a match: what was left at each game's end, and
/// the planned time of its moves against the time they used.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ClockSummary {
    /// The clock at each game's end, in milliseconds, in game order (0
    /// after a loss on time; `null` for a game whose clock was not run).
    pub left_ms: Vec<Option<f64>>,
    /// The mean of `left_ms`.
    pub mean_left_ms: f64,
    /// The least of `left_ms`.
    pub min_left_ms: f64,
    /// Moves the time manager planned.
    pub planned_moves: usize,
    /// Their mean planned time, in milliseconds.
    pub mean_planned_ms: f64,
    /// The mean time they used (the referee's think time: for a service,
    /// the whole call), in milliseconds.
    pub mean_used_ms: f64,
    /// Planned moves that took longer than their cap.
    pub past_cap: usize,
    /// For a service: the mean of each planned move's think time less the
    /// time the service says it took (the network and the HTTP path).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_lag_ms: Option<f64>,
}

/// An Elo difference with its 95% interval, from a score.
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct EloEstimate {
    /// Seat A's rating minus seat B's.
    pub diff: f64,
    /// The interval's lower end.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
}

/// A whole match, as printed with `--json`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct MatchSummary {
    /// The game id.
    pub game: String,
    /// Games played.
    pub games: usize,
    /// The match seed.
    pub seed: u64,
    /// Seat A.
    pub a: SeatSummary,
    /// Seat B.
    pub b: SeatSummary,
    /// Games drawn, capped ones included.
    pub draws: usize,
    /// Games stopped at the ply cap.
    pub capped: usize,
    /// Games given to a side by resign adjudication (counted as its wins).
    pub adjudicated: usize,
    /// A's points (a win 1, a draw ½) over the games.
    pub a_score: f64,
    /// The Elo difference the score implies, where it is finite.
    pub elo: Option<EloEstimate>,
    /// A's mean final margin (Reversi's discs, A's minus B's) over the
    /// games that ended on the board, for a game that has one.
    pub a_margin: Option<f64>,
}

/// What a summary needs to know about each seat besides its games.
pub struct SeatSetup {
    /// The player's name.
    pub name: String,
    /// Its time control, in words.
    pub time: String,
    /// Its time per move in ms, for counting overruns (`None` under a clock).
    pub per_move_ms: Option<f64>,
}

/// Sums up the records of a match; `opening_of` names the opening each
/// game index played ([`Openings::of_game`](super::Openings::of_game)),
/// and the Elo interval counts the games of one opening as one unit
/// ([`elo_estimate_by_units`]).
pub fn summarise(
    game: &str,
    seed: u64,
    seats: [SeatSetup; 2],
    records: &[GameRecord],
    opening_of: impl Fn(usize) -> usize,
) -> MatchSummary {
    let [a, b] = seats.map(|setup| setup);
    let a_summary = seat_summary(Seat::A, a, records);
    let b_summary = seat_summary(Seat::B, b, records);
    let draws = records
        .iter()
        .filter(|r| r.result == GameResult::Draw)
        .count();
    let points: Vec<f64> = records.iter().map(|r| points_of(Seat::A, r)).collect();
    let a_score = if points.is_empty() {
        0.0
    } else {
        points.iter().sum::<f64>() / points.len() as f64
    };
    MatchSummary {
        game: game.to_string(),
        games: records.len(),
        seed,
        a: a_summary,
        b: b_summary,
        draws,
        capped: records.iter().filter(|r| r.capped).count(),
        adjudicated: records.iter().filter(|r| r.adjudicated).count(),
        a_score: round(a_score, 4),
        elo: elo_estimate_by_units(&units_of(records, opening_of)),
        a_margin: mean_margin(records),
    }
}

/// A's points grouped by the opening their games played.
fn units_of(records: &[GameRecord], opening_of: impl Fn(usize) -> usize) -> Vec<Vec<f64>> {
    let mut units: std::collections::BTreeMap<usize, Vec<f64>> = Default::default();
    for record in records {
        units
            .entry(opening_of(record.index))
            .or_default()
            .push(points_of(Seat::A, record));
    }
    units.into_values().collect()
}

/// Seat A's mean margin over the games that have one.
fn mean_margin(records: &[GameRecord]) -> Option<f64> {
    let margins: Vec<f64> = records
        .iter()
        .filter_map(|r| r.margin_a)
        .map(|m| m as f64)
        .collect();
    (!margins.is_empty()).then(|| round(mean(&margins), 2))
}

/// A seat's points in one game: 1 for a win, ½ for a draw.
pub fn points_of(seat: Seat, record: &GameRecord) -> f64 {
    match record.result {
        GameResult::Win(winner) if winner == seat => 1.0,
        GameResult::Win(_) => 0.0,
        GameResult::Draw | GameResult::Score(_) => 0.5,
    }
}

fn seat_summary(seat: Seat, setup: SeatSetup, records: &[GameRecord]) -> SeatSummary {
    let i = seat.index();
    let thinks: Vec<f64> = records
        .iter()
        .flat_map(|r| r.think_ms[i].iter().copied())
        .collect();
    let total_ms: f64 = thinks.iter().sum();
    let nodes: u64 = records.iter().map(|r| r.nodes[i]).sum();
    let lost_by_forfeit = |on_time: bool| {
        records
            .iter()
            .filter(|r| r.forfeit == Some(seat) && r.on_time == on_time)
            .count()
    };
    SeatSummary {
        name: setup.name,
        time: setup.time,
        wins: records
            .iter()
            .filter(|r| r.result == GameResult::Win(seat))
            .count(),
        timeouts: lost_by_forfeit(true),
        forfeits: lost_by_forfeit(false),
        avg_ms: round(mean(&thinks), 2),
        median_ms: round(median(&thinks), 2),
        max_ms: round(thinks.iter().copied().fold(0.0, f64::max), 2),
        overruns: setup
            .per_move_ms
            .map(|budget| thinks.iter().filter(|&&t| t > budget + OVERRUN_MS).count()),
        nodes_per_s: if total_ms > 0.0 {
            (nodes as f64 / (total_ms / 1000.0)).round()
        } else {
            0.0
        },
        clock: clock_summary(seat, records),
    }
}

/// `seat`'s clock over `records`: `None` when no game ran its clock and
/// none of its moves was planned.
fn clock_summary(seat: Seat, records: &[GameRecord]) -> Option<ClockSummary> {
    let i = seat.index();
    let left_ms: Vec<Option<f64>> = records.iter().map(|r| r.clock_left_ms[i]).collect();
    // Each planned move with the time it used.
    let planned: Vec<_> = records
        .iter()
        .flat_map(|r| r.plans[i].iter().zip(&r.think_ms[i]))
        .filter_map(|(plan, &used)| plan.map(|plan| (plan, used)))
        .collect();
    let left: Vec<f64> = left_ms.iter().flatten().copied().collect();
    if left.is_empty() && planned.is_empty() {
        return None;
    }
    let of = |get: &dyn Fn(&(super::player::MovePlan, f64)) -> f64| {
        round(mean(&planned.iter().map(get).collect::<Vec<_>>()), 2)
    };
    let lags: Vec<f64> = planned
        .iter()
        .filter_map(|(plan, used)| plan.served_ms.map(|served| used - served))
        .collect();
    Some(ClockSummary {
        mean_left_ms: round(mean(&left), 2),
        min_left_ms: round(left.iter().copied().reduce(f64::min).unwrap_or(0.0), 2),
        left_ms,
        planned_moves: planned.len(),
        mean_planned_ms: of(&|(plan, _)| plan.planned_ms),
        mean_used_ms: of(&|(_, used)| *used),
        past_cap: planned
            .iter()
            .filter(|(plan, used)| *used > plan.cap_ms)
            .count(),
        mean_lag_ms: (!lags.is_empty()).then(|| round(mean(&lags), 2)),
    })
}

/// The Elo difference implied by per-game points, with a 95% interval from
/// the points' standard error; `None` when the score is 0 or 1 (no finite
/// difference) or there are no games.
pub fn elo_estimate(points: &[f64]) -> Option<EloEstimate> {
    let games: Vec<Vec<f64>> = points.iter().map(|&p| vec![p]).collect();
    elo_estimate_by_units(&games)
}

/// [`elo_estimate`] for games played in units that are not independent
/// of each other within (the two games of a paired opening): the score
/// is every game's, the interval's standard error that of the units'
/// means (as fishtest's pentanomial model counts game pairs), so an
/// opening's lean towards one colour, which a pair cancels, does not
/// widen it.
pub fn elo_estimate_by_units(units: &[Vec<f64>]) -> Option<EloEstimate> {
    let units: Vec<&Vec<f64>> = units.iter().filter(|unit| !unit.is_empty()).collect();
    if units.is_empty() {
        return None;
    }
    let games = units.iter().map(|unit| unit.len()).sum::<usize>() as f64;
    let score = units.iter().flat_map(|unit| unit.iter()).sum::<f64>() / games;
    let n = units.len() as f64;
    let variance = units
        .iter()
        .map(|unit| (mean(unit) - score).powi(2))
        .sum::<f64>()
        / n;
    let margin = 1.96 * (variance / n).sqrt();
    let elo = |p: f64| (p > 0.0 && p < 1.0).then(|| elo_of_score(p));
    Some(EloEstimate {
        diff: round(elo(score)?, 1),
        low: round(elo((score - margin).max(1e-6))?, 1),
        high: round(elo((score + margin).min(1.0 - 1e-6))?, 1),
    })
}

/// The Elo difference a score (0 < `score` < 1) implies under the logistic
/// model.
pub fn elo_of_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The mean of `scores[i] - base[i]` over paired results (the same seeds),
/// and half the width of its 95% interval from the spread of the
/// differences (none under two pairs).
pub fn paired_difference(base: &[i64], scores: &[i64]) -> (f64, Option<f64>) {
    let diffs: Vec<f64> = scores
        .iter()
        .zip(base)
        .map(|(s, b)| (s - b) as f64)
        .collect();
    let n = diffs.len().max(1) as f64;
    let mean = diffs.iter().sum::<f64>() / n;
    let margin = (diffs.len() >= 2).then(|| {
        let variance = diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0);
        1.96 * (variance / n).sqrt()
    });
    (mean, margin)
}

/// One match of a ladder run for [`fit_ratings`]: players `a` and `b`
/// (indices from 0), the games they played and `a`'s points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pairing {
    /// The first player's index.
    pub a: usize,
    /// The second player's index.
    pub b: usize,
    /// Games played.
    pub games: f64,
    /// `a`'s points (a win 1, a draw ½).
    pub a_points: f64,
}

/// A fitted rating with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The Elo rating.
    pub elo: f64,
    /// The interval's lower end.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
}

/// Fitted ratings, and the steps between consecutive players.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// Each player's rating, player 0 at 0.
    pub ratings: Vec<Rating>,
    /// `steps[i]`: player `i + 1`'s rating minus player `i`'s, with the
    /// 95% interval of that difference (narrower than the two ratings'
    /// intervals suggest, since they move together).
    pub steps: Vec<Rating>,
}

/// Elo ratings of `players` fitted by maximum likelihood to the results of
/// `pairings` (the logistic Elo model, a draw counting as half a win),
/// player 0 fixed at 0, with 95% intervals from the inverse of the
/// likelihood's curvature. Each pairing counts one extra drawn game, a weak
/// prior that keeps a clean sweep finite. `None` when some player is not
/// connected to player 0 through the pairings.
pub fn fit_ratings(players: usize, pairings: &[Pairing]) -> Option<Fit> {
    const SCALE: f64 = std::f64::consts::LN_10 / 400.0;
    let free = players.checked_sub(1)?;
    let mut ratings = vec![0.0; players];
    let mut covariance = vec![vec![0.0; free]; free];
    for _ in 0..100 {
        let mut gradient = vec![0.0; free];
        let mut curvature = vec![vec![0.0; free]; free];
        for pairing in pairings {
            let games = pairing.games + 1.0;
            let points = pairing.a_points + 0.5;
            let expected =
                1.0 / (1.0 + 10f64.powf((ratings[pairing.b] - ratings[pairing.a]) / 400.0));
            let pull = SCALE * (points - games * expected);
            let weight = SCALE * SCALE * games * expected * (1.0 - expected);
            for (player, sign) in [(pairing.a, 1.0), (pairing.b, -1.0)] {
                if player > 0 {
                    gradient[player - 1] += sign * pull;
                }
                for (other, other_sign) in [(pairing.a, 1.0), (pairing.b, -1.0)] {
                    if player > 0 && other > 0 {
                        curvature[player - 1][other - 1] += sign * other_sign * weight;
                    }
                }
            }
        }
        covariance = invert(curvature)?;
        let mut moved = 0.0f64;
        for i in 0..free {
            let step: f64 = (0..free).map(|j| covariance[i][j] * gradient[j]).sum();
            ratings[i + 1] += step;
            moved = moved.max(step.abs());
        }
        if moved < 1e-6 {
            break;
        }
    }
    // The covariance of ratings i and j, player 0 being fixed.
    let cov = |i: usize, j: usize| {
        if i == 0 || j == 0 {
            0.0
        } else {
            covariance[i - 1][j - 1]
        }
    };
    let rating = |value: f64, variance: f64| {
        let spread = 1.96 * variance.max(0.0).sqrt();
        Rating {
            elo: round(value, 1),
            low: round(value - spread, 1),
            high: round(value + spread, 1),
        }
    };
    Some(Fit {
        ratings: (0..players)
            .map(|i| rating(ratings[i], cov(i, i)))
            .collect(),
        steps: (1..players)
            .map(|i| {
                let variance = cov(i, i) + cov(i - 1, i - 1) - 2.0 * cov(i, i - 1);
                rating(ratings[i] - ratings[i - 1], variance)
            })
            .collect(),
    })
}

/// The inverse of a symmetric positive definite matrix by Gauss-Jordan
/// elimination; `None` when it is singular (a player without games).
fn invert(mut matrix: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = matrix.len();
    let mut inverse: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| f64::from(u8::from(i == j))).collect())
        .collect();
    for column in 0..n {
        let pivot = (column..n)
            .max_by(|&x, &y| matrix[x][column].abs().total_cmp(&matrix[y][column].abs()))?;
        if matrix[pivot][column].abs() < 1e-12 {
            return None;
        }
        matrix.swap(column, pivot);
        inverse.swap(column, pivot);
        let scale = matrix[column][column];
        for j in 0..n {
            matrix[column][j] /= scale;
            inverse[column][j] /= scale;
        }
        for row in 0..n {
            if row != column {
                let factor = matrix[row][column];
                for j in 0..n {
                    matrix[row][j] -= factor * matrix[column][j];
                    inverse[row][j] -= factor * inverse[column][j];
                }
            }
        }
    }
    Some(inverse)
}

fn mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        0.0
    } else {
        values.iter().sum::<f64>() / values.len() as f64
    }
}

/// The median (0 for none).
pub fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

/// `x` rounded to `digits` decimals.
pub fn round(x: f64, digits: i32) -> f64 {
    let scale = 10f64.powi(digits);
    (x * scale).round() / scale
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_takes_the_middle_or_the_mean_of_the_two_middles() {
        assert_eq!(median(&[]), 0.0);
        assert_eq!(median(&[5.0, 1.0, 9.0]), 5.0);
        assert_eq!(median(&[4.0, 1.0, 9.0, 2.0]), 3.0);
    }

    #[test]
    fn an_even_score_is_zero_elo_and_three_quarters_is_about_191() {
        let even = elo_estimate(&[1.0, 0.0, 0.5, 0.5]).unwrap();
        assert_eq!(even.diff, 0.0);
        assert!(even.low < 0.0 && even.high > 0.0);
        let points: Vec<f64> = (0..100)
            .map(|i| if i % 4 == 0 { 0.0 } else { 1.0 })
            .collect();
        let three_quarters = elo_estimate(&points).unwrap();
        assert!(
            (three_quarters.diff - 190.8).abs() < 0.2,
            "{three_quarters:?}"
        );
        assert!(three_quarters.low < 190.8 && three_quarters.high > 190.8);
        assert_eq!(elo_estimate(&[1.0, 1.0]), None);
    }

    #[test]
    fn paired_games_are_one_unit_of_the_interval_and_the_score_is_every_game_s() {
        // Each opening won by whoever had the favoured colour: the same
        // points read as a coin toss game by game, and as exactly even by
        // pairs, since every pair split.
        let split: Vec<Vec<f64>> = (0..50).map(|_| vec![1.0, 0.0]).collect();
        let by_pairs = elo_estimate_by_units(&split).unwrap();
        assert_eq!(
            (by_pairs.low, by_pairs.diff, by_pairs.high),
            (0.0, 0.0, 0.0)
        );
        let games: Vec<f64> = split.concat();
        let by_games = elo_estimate(&games).unwrap();
        assert!(by_games.low < -50.0 && by_games.high > 50.0, "{by_games:?}");
        // Pairs that each went one way keep the games' width; a lone game
        // (a match of odd length) counts on its own.
        let mut mixed: Vec<Vec<f64>> = (0..40)
            .map(|i| {
                if i % 4 == 0 {
                    vec![0.0, 0.0]
                } else {
                    vec![1.0, 1.0]
                }
            })
            .collect();
        mixed.push(vec![1.0]);
        let estimate = elo_estimate_by_units(&mixed).unwrap();
        let score: f64 = 61.0 / 81.0;
        assert!((estimate.diff - round(elo_of_score(score), 1)).abs() < 1e-9);
        assert!(estimate.low < estimate.diff && estimate.diff < estimate.high);
        assert_eq!(elo_estimate_by_units(&[vec![], vec![1.0, 1.0]]), None);
    }

    #[test]
    fn ratings_fitted_to_known_scores_recover_their_gaps() {
        // 76% is +200 Elo: a chain of three players 200 apart, with the
        // two-apart pair at the 91% that +400 implies.
        let score = |elo: f64| 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
        let pairing = |a, b, elo: f64| Pairing {
            a,
            b,
            games: 10_000.0,
            a_points: 10_000.0 * score(elo),
        };
        let fitted = fit_ratings(
            3,
            &[
                pairing(1, 0, 200.0),
                pairing(2, 1, 200.0),
                pairing(2, 0, 400.0),
            ],
        )
        .unwrap();
        let steps = fitted.steps;
        let fitted = fitted.ratings;
        assert_eq!(fitted[0].elo, 0.0);
        assert!((fitted[1].elo - 200.0).abs() < 1.0, "{fitted:?}");
        assert!((fitted[2].elo - 400.0).abs() < 1.0, "{fitted:?}");
        // With 10,000 games a pair the intervals are narrow, and wider for
        // the player further from the anchor.
        let width = |r: &Rating| r.high - r.low;
        assert!(width(&fitted[1]) < 20.0 && width(&fitted[2]) > width(&fitted[1]));
        // The step from 1 to 2 is known better than rating 2 itself.
        assert!((steps[1].elo - 200.0).abs() < 1.0, "{steps:?}");
        assert!(width(&steps[1]) < width(&fitted[2]), "{steps:?}");
        // A clean sweep stays finite, and an unconnected player is refused.
        let sweep = fit_ratings(
            2,
            &[Pairing {
                a: 1,
                b: 0,
                games: 10.0,
                a_points: 10.0,
            }],
        )
        .unwrap()
        .ratings;
        assert!(
            sweep[1].elo > 300.0 && sweep[1].elo.is_finite(),
            "{sweep:?}"
        );
        assert_eq!(fit_ratings(3, &[pairing(1, 0, 100.0)]), None);
    }
}
