//! Placing a player on a game's measured ladder: from their results against
//! numbered levels, their rating with its 95% interval, and the level to
//! play next.
//!
//! The model is the ladder's own (the logistic Elo model, a draw counting
//! as half a win, fitted by maximum likelihood), with the levels' published
//! ratings held fixed and one unknown: the player's rating. A weak prior,
//! a quarter of a drawn game against a player rated [`DEFAULT_RATING`]
//! above level 1, keeps a clean sweep finite and gives a sensible answer after a single
//! game; with no games at all the player is placed at that default. The
//! recommended level is the one the player is expected to score closest to
//! the target against, the easier of two as close. Results with a date
//! count less as they age ([`HALF_LIFE_DAYS`] before the newest), so a
//! player who improves moves up; a date after today is refused, since it
//! would make every other result old.

use super::{GameError, NumberedLevelInfo};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How far above level 1 a player with no results is placed, and the
/// centre of the prior: a beginner who knows the rules. (Ratings count
/// from the ladder's zero, the random mover, which level 1 is above.)
pub const DEFAULT_RATING: f64 = 400.0;

/// The score a player is expected to reach against the recommended level
/// when the request sets no `target`.
pub const DEFAULT_TARGET: f64 = 0.5;

/// A dated result weighs half as much this many days before the newest.
pub const HALF_LIFE_DAYS: f64 = 180.0;

/// The most results one request may carry.
pub const MAX_RESULTS: usize = 10_000;

/// How many drawn games against a player rated [`DEFAULT_RATING`] the
/// prior counts as: weak enough to cover players anywhere on a ladder (its
/// spread is about 700 Elo), strong enough to keep one result sensible.
const PRIOR_GAMES: f64 = 0.25;

/// Elo points per natural unit of the logistic model.
const SCALE: f64 = std::f64::consts::LN_10 / 400.0;

/// How a game against a level ended, for the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum GameResult {
    /// The player won.
    Win,
    /// A draw.
    Draw,
    /// The player lost.
    Loss,
}

impl GameResult {
    /// The player's points: a win 1, a draw ½, a loss 0.
    pub fn points(self) -> f64 {
        match self {
            GameResult::Win => 1.0,
            GameResult::Draw => 0.5,
            GameResult::Loss => 0.0,
        }
    }
}

/// A numbered level, as a number (`5`) or its digits (`"5"`), like the
/// `level` of a bot move.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum LevelNumber {
    /// The level's number.
    Number(u64),
    /// The level's number written as a string.
    Text(String),
}

/// One game the player played against a numbered level.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayedGame {
    /// The numbered level the player played against
    /// (`GET /v1/games` lists each level's rating).
    pub level: LevelNumber,
    /// How the game ended for the player.
    pub result: GameResult,
    /// When it was played (`2026-11-26`), today at the latest (today in
    /// the earliest time zone, UTC+14); older results count less.
    #[serde(default)]
    #[schemars(regex(pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"))]
    pub date: Option<String>,
}

/// `placement`'s body: a player's results against the game's numbered levels.
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlacementRequest {
    /// The player's games against numbered levels, in any order (none
    /// places the player at the default rating).
    #[serde(default)]
    pub results: Vec<PlayedGame>,
    /// The score the player should expect against the recommended level,
    /// from 0.05 to 0.95: 0.5 (the default) for an even game, higher for
    /// practice that is won more often.
    #[serde(default)]
    pub target: Option<f64>,
}

/// Where the player stands on the ladder.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Placement {
    /// The player's rating on the ladder's scale (the levels' ratings in
    /// `GET /v1/games`).
    pub rating: f64,
    /// Its 95% interval.
    pub interval: [f64; 2],
    /// The results it rests on (dated ones weighted by age).
    pub games: usize,
    /// The level to play next: the one the player is expected to score
    /// closest to the target against.
    pub recommended: RecommendedLevel,
    /// The player's expected score against every rated level, lowest first.
    pub levels: Vec<ExpectedScore>,
}

/// The level recommended next.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct RecommendedLevel {
    /// The level's number.
    pub level: u8,
    /// Its published rating.
    pub rating: f64,
    /// The player's expected score against it (a win 1, a draw ½).
    pub expected_score: f64,
    /// The target it was chosen for.
    pub target: f64,
}

/// The player's expected score against one level.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct ExpectedScore {
    /// The level's number.
    pub level: u8,
    /// Its published rating.
    pub rating: f64,
    /// The player's expected score against it.
    pub expected_score: f64,
}

/// One result as the fit uses it: the opponent's rating, the points and
/// the weight.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Observation {
    /// The opponent's rating.
    pub opponent: f64,
    /// The player's points (1, ½ or 0).
    pub points: f64,
    /// How much the result counts (1 for an undated or the newest result).
    pub weight: f64,
}

/// The expected score of a player rated `rating` against one rated `opponent`.
pub fn expected_score(rating: f64, opponent: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf((opponent - rating) / 400.0))
}

/// The player's maximum-likelihood rating under the prior centred on
/// `centre`, and its standard error, from `observations`.
pub fn fit(observations: &[Observation], centre: f64) -> (f64, f64) {
    let prior = Observation {
        opponent: centre,
        points: 0.5,
        weight: PRIOR_GAMES,
    };
    let mut rating = centre;
    let mut curvature = 0.0;
    for _ in 0..200 {
        let mut gradient = 0.0;
        curvature = 0.0;
        for seen in observations.iter().chain([&prior]) {
            let expected = expected_score(rating, seen.opponent);
            gradient += seen.weight * SCALE * (seen.points - expected);
            curvature += seen.weight * SCALE * SCALE * expected * (1.0 - expected);
        }
        // The log-likelihood is concave, so a Newton step in the right
        // direction, bounded so that a far start does not overshoot, converges.
        let step = (gradient / curvature).clamp(-400.0, 400.0);
        rating += step;
        if step.abs() < 1e-6 {
            break;
        }
    }
    (rating, 1.0 / curvature.sqrt())
}

/// Places a player on the ladder `levels` (a game's numbered levels with
/// their ratings) from `request`; `game` names the game in errors. An
/// error points into the request body (`/results/3/level`). A result may
/// be dated no later than today's date anywhere on Earth (see
/// [`latest_day_now`]).
pub fn place(
    game: &str,
    levels: &[NumberedLevelInfo],
    request: &PlacementRequest,
) -> Result<Placement, GameError> {
    place_by(game, levels, request, latest_day_now())
}

/// The latest date a result may carry, as days since 1970-01-01: today's
/// date in the earliest time zone (UTC+14), so that a result a player
/// dated with their own today is never refused, while a date after it has
/// not come anywhere yet.
pub fn latest_day_now() -> i64 {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_secs() as i64);
    (seconds + 14 * 3600).div_euclid(86_400)
}

/// [`place`] with the latest date a result may carry given, as days since
/// 1970-01-01: a result dated after it is `invalid_option` at its `date`
/// (a date far ahead would make every other result old, and count for
/// almost nothing).
pub fn place_by(
    game: &str,
    levels: &[NumberedLevelInfo],
    request: &PlacementRequest,
    latest_day: i64,
) -> Result<Placement, GameError> {
    let rated: Vec<(u8, f64)> = levels
        .iter()
        .filter_map(|level| level.rating.map(|rating| (level.level, rating)))
        .collect();
    if rated.is_empty() {
        return Err(GameError::invalid_option(format!(
            "{game}'s levels have no ratings (a one-player game's levels are measured by their mean scores), so there is no ladder to place a player on"
        )));
    }
    let target = request.target.unwrap_or(DEFAULT_TARGET);
    if !(0.05..=0.95).contains(&target) {
        return Err(GameError::invalid_option_at(
            "/target",
            format!(
                "target must be a score from 0.05 to 0.95 (0.5 for an even game), not {target}"
            ),
        ));
    }
    if request.results.len() > MAX_RESULTS {
        return Err(GameError::invalid_option_at(
            "/results",
            format!(
                "at most {MAX_RESULTS} results are taken, not {}",
                request.results.len()
            ),
        ));
    }
    let observations = observations(game, &rated, &request.results, latest_day)?;
    // The levels come lowest first, so the first rated one is level 1.
    let (rating, error) = fit(&observations, rated[0].1 + DEFAULT_RATING);
    let scores: Vec<ExpectedScore> = rated
        .iter()
        .map(|&(level, level_rating)| ExpectedScore {
            level,
            rating: level_rating,
            expected_score: round(expected_score(rating, level_rating), 3),
        })
        .collect();
    let best = rated
        .iter()
        .min_by(|a, b| {
            let gap = |r: f64| (expected_score(rating, r) - target).abs();
            gap(a.1).total_cmp(&gap(b.1))
        })
        .copied()
        .expect("the ladder has a rated level");
    Ok(Placement {
        rating: round(rating, 1),
        interval: [
            round(rating - 1.96 * error, 1),
            round(rating + 1.96 * error, 1),
        ],
        games: request.results.len(),
        recommended: RecommendedLevel {
            level: best.0,
            rating: best.1,
            expected_score: round(expected_score(rating, best.1), 3),
            target,
        },
        levels: scores,
    })
}

/// The results as the fit uses them: each level's rating, and each dated
/// result's weight by its age before the newest dated one.
fn observations(
    game: &str,
    rated: &[(u8, f64)],
    results: &[PlayedGame],
    latest_day: i64,
) -> Result<Vec<Observation>, GameError> {
    let mut days = Vec::with_capacity(results.len());
    for (i, result) in results.iter().enumerate() {
        days.push(match &result.date {
            Some(date) => {
                let pointer = format!("/results/{i}/date");
                let day = day_number(date).ok_or_else(|| {
                    GameError::invalid_option_at(
                        &pointer,
                        format!("date must be a calendar date YYYY-MM-DD such as \"2026-11-26\", not {date:?}"),
                    )
                })?;
                if day > latest_day {
                    return Err(GameError::invalid_option_at(
                        pointer,
                        format!(
                            "date {date:?} is after today ({} in the earliest time zone, UTC+14): a result is dated the day it was played, at the latest today",
                            date_of_day(latest_day)
                        ),
                    ));
                }
                Some(day)
            }
            None => None,
        });
    }
    let newest = days.iter().flatten().max().copied();
    results
        .iter()
        .zip(&days)
        .enumerate()
        .map(|(i, (result, day))| {
            let opponent = level_rating(game, rated, &result.level).map_err(|detail| {
                GameError::invalid_option_at(format!("/results/{i}/level"), detail)
            })?;
            let age = match (newest, day) {
                (Some(newest), Some(day)) => (newest - day) as f64,
                _ => 0.0,
            };
            Ok(Observation {
                opponent,
                points: result.result.points(),
                weight: 0.5f64.powf(age / HALF_LIFE_DAYS),
            })
        })
        .collect()
}

/// The published rating of the level `level` names, or why there is none.
fn level_rating(game: &str, rated: &[(u8, f64)], level: &LevelNumber) -> Result<f64, String> {
    let number = match level {
        LevelNumber::Number(n) => Some(*n),
        LevelNumber::Text(text) => text.trim().parse().ok(),
    };
    let first = rated.first().map_or(1, |r| r.0);
    let last = rated.last().map_or(1, |r| r.0);
    number
        .and_then(|n| rated.iter().find(|r| u64::from(r.0) == n))
        .map(|r| r.1)
        .ok_or_else(|| {
            let given = match level {
                LevelNumber::Number(n) => n.to_string(),
                LevelNumber::Text(text) => format!("{text:?}"),
            };
            format!(
                "level {given} is not a rated level of {game}: the rated levels are {first}-{last}"
            )
        })
}

/// Days since 1970-01-01 of a `YYYY-MM-DD` calendar date, `None` when it is
/// not one (a 31st of a 30-day month, a 29th of February in a common year).
fn day_number(date: &str) -> Option<i64> {
    let bytes = date.as_bytes();
    let well_formed = bytes.len() == 10
        && bytes[4] == b'-'
        && bytes[7] == b'-'
        && bytes
            .iter()
            .enumerate()
            .all(|(i, b)| i == 4 || i == 7 || b.is_ascii_digit());
    if !well_formed {
        return None;
    }
    let year: i64 = date[0..4].parse().ok()?;
    let month: i64 = date[5..7].parse().ok()?;
    let day: i64 = date[8..10].parse().ok()?;
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let month_days = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    if !(1..=12).contains(&month) || day < 1 || day > month_days[(month - 1) as usize] {
        return None;
    }
    // Days from civil (H. Hinnant's algorithm), with March as the year's first month.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let year_of_era = y - era * 400;
    let month_from_march = (month + 9) % 12;
    let day_of_year = (153 * month_from_march + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    Some(era * 146_097 + day_of_era - 719_468)
}

/// The `YYYY-MM-DD` date of a day number (days since 1970-01-01): the
/// inverse of [`day_number`] (H. Hinnant's civil-from-days).
fn date_of_day(day: i64) -> String {
    let z = day + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day_of_month = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day_of_month:02}")
}

/// What a simulation of placed players measured.
#[derive(Clone, Copy, Debug)]
pub struct Simulated {
    /// Share of players whose 95% interval covered their true rating.
    pub coverage: f64,
    /// Share of players recommended their ideal level or one next to it.
    pub converged: f64,
}

/// Places `players` simulated players with true ratings spread evenly from 200
/// below the ladder's bottom to 200 above its top, each playing `games`
/// games in turn against the level recommended after the games before
/// (winning with the model's expected score), and says how often the
/// final interval covers the truth and the final recommendation is the
/// ideal level (the one the true rating scores closest to 50% against)
/// or next to it. The check of the placement bars, on any ladder.
pub fn simulate(
    levels: &[NumberedLevelInfo],
    players: usize,
    games: usize,
    seed: u64,
) -> Simulated {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let ratings: Vec<f64> = levels.iter().filter_map(|l| l.rating).collect();
    let (low, high) = (ratings[0] - 200.0, ratings[ratings.len() - 1] + 200.0);
    let (mut covered, mut converged) = (0, 0);
    for _ in 0..players {
        let truth = rng.random_range(low..high);
        let mut request = PlacementRequest::default();
        let mut placement = place("Test", levels, &request).unwrap();
        for _ in 0..games {
            let level = placement.recommended;
            let result = match rng.random::<f64>() < expected_score(truth, level.rating) {
                true => GameResult::Win,
                false => GameResult::Loss,
            };
            request.results.push(PlayedGame {
                level: LevelNumber::Number(u64::from(level.level)),
                result,
                date: None,
            });
            placement = place("Test", levels, &request).unwrap();
        }
        covered += usize::from((placement.interval[0]..=placement.interval[1]).contains(&truth));
        let ideal = ratings
            .iter()
            .enumerate()
            .min_by(|a, b| {
                let gap = |r: f64| (expected_score(truth, r) - DEFAULT_TARGET).abs();
                gap(*a.1).total_cmp(&gap(*b.1))
            })
            .map(|(i, _)| i as i64 + 1)
            .unwrap();
        converged += usize::from((i64::from(placement.recommended.level) - ideal).abs() <= 1);
    }
    Simulated {
        coverage: covered as f64 / players as f64,
        converged: converged as f64 / players as f64,
    }
}

fn round(x: f64, digits: i32) -> f64 {
    let factor = 10f64.powi(digits);
    (x * factor).round() / factor
}

#[cfg(test)]
mod tests;
