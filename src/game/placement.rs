//! Placing a player on a game's measured ladder: from their results against
//! numbered levels, their rating with its 95% interval, and the level to
//! play next; for a one-player game, from their scores ([`scores`]).
//!
//! The model is the ladder's own (the logistic Elo model, a draw counting
//! as half a win, fitted by maximum likelihood), with the levels' published
//! ratings held fixed and one unknown: the player's rating, bounded below
//! by the ladder's zero (the random mover). A weak prior, a quarter of a
//! drawn game against the game's newcomer level ([`newcomer_level`]: the
//! level a new player of that game can expect to score about half against,
//! chosen by simulation, never the top), keeps a clean sweep finite and
//! gives a sensible answer after a single game; with no games at all the
//! player is placed at that level. The recommended level is the one the
//! player is expected to score closest to the target against, the easier of
//! two as close, and each result moves it at most [`MAX_LEVELS_A_RESULT`]
//! levels from the one recommended before it, so the first few games move a
//! newcomer gradually. Results with a date count less as they age
//! ([`HALF_LIFE_DAYS`] before the newest), so a player who improves moves
//! up; a date after today is refused, since it would make every other
//! result old.

pub mod scores;

use super::{GameError, NumberedLevelInfo};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Each game's newcomer level: the level a new player of that game can
/// expect to score about half against, where a player with no results is
/// placed and the prior is centred. Chosen by [`choose_newcomer`] on each
/// game's published ladder (`tests/it/placement.rs` holds the table to it;
/// docs/LADDER.md says why); never the top level.
pub const NEWCOMER_LEVELS: &[(&str, u8)] = &[
    ("advance", 2),
    ("halma", 2),
    ("reversi", 3),
    ("naughts", 1),
    ("crush", 2),
];

/// The newcomer level of the game `id` ([`NEWCOMER_LEVELS`]); level 1 for
/// a game the table does not list.
pub fn newcomer_level(id: &str) -> u8 {
    NEWCOMER_LEVELS
        .iter()
        .find(|(game, _)| *game == id)
        .map_or(1, |&(_, level)| level)
}

/// The most levels one result moves the recommendation from the level
/// recommended before it (the newcomer level before the first result).
pub const MAX_LEVELS_A_RESULT: usize = 2;

/// The score a player is expected to reach against the recommended level
/// when the request sets no `target`.
pub const DEFAULT_TARGET: f64 = 0.5;

/// A dated result weighs half as much this many days before the newest.
pub const HALF_LIFE_DAYS: f64 = 180.0;

/// The most results one request may carry.
pub const MAX_RESULTS: usize = 10_000;

/// How many drawn games against the newcomer level the prior counts as: weak enough to cover players anywhere on a ladder (its
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
    /// The player's games against numbered levels, oldest first, as they
    /// were played (none places the player at the game's newcomer level):
    /// each moves the recommendation at most two levels from the one
    /// before it.
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
    /// `GET /v1/games`), at least 0: the ladder's zero, the random mover.
    pub rating: f64,
    /// Its 95% interval, bounded below by the ladder's zero.
    pub interval: [f64; 2],
    /// The results it rests on (dated ones weighted by age).
    pub games: usize,
    /// The level to play next: the one the player is expected to score
    /// closest to the target against, at most two levels from the one
    /// recommended before the last result.
    pub recommended: RecommendedLevel,
    /// The player's expected score against every rated level, lowest first.
    pub levels: Vec<LevelExpectation>,
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
    /// The level the rating alone recommends: another than `level` while
    /// the results are too few to move the recommendation that far.
    pub fitted: u8,
}

/// The player's expected score against one level.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct LevelExpectation {
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
    /// The player's points (1, ½ or 0; a mean of them for several results
    /// against one opponent).
    pub points: f64,
    /// How much the result counts (1 for an undated or the newest result).
    pub weight: f64,
}

/// The expected score of a player rated `rating` against one rated `opponent`.
pub fn expected_score(rating: f64, opponent: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf((opponent - rating) / 400.0))
}

/// The player's maximum-likelihood rating under the prior centred on
/// `centre`, and its standard error, from `observations`. The rating is
/// not bounded here; [`place`] bounds it by the ladder's zero.
pub fn fit(observations: &[Observation], centre: f64) -> (f64, f64) {
    let rating = newton(observations, centre, centre);
    (rating, standard_error(observations, centre, rating))
}

/// The prior: a share of a drawn game against the newcomer level.
fn prior(centre: f64) -> Observation {
    Observation {
        opponent: centre,
        points: 0.5,
        weight: PRIOR_GAMES,
    }
}

/// The maximum-likelihood rating, by Newton's method from `start`.
fn newton(observations: &[Observation], centre: f64, start: f64) -> f64 {
    let prior = prior(centre);
    let mut rating = start;
    for _ in 0..200 {
        let (mut gradient, mut curvature) = (0.0, 0.0);
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
    rating
}

/// The standard error of a rating: the likelihood's curvature there.
fn standard_error(observations: &[Observation], centre: f64, rating: f64) -> f64 {
    let curvature: f64 = observations
        .iter()
        .chain([&prior(centre)])
        .map(|seen| {
            let expected = expected_score(rating, seen.opponent);
            seen.weight * SCALE * SCALE * expected * (1.0 - expected)
        })
        .sum();
    1.0 / curvature.sqrt()
}

/// Places a player on the ladder `levels` (a game's numbered levels with
/// their ratings) from `request`, starting a newcomer at level `newcomer`
/// ([`newcomer_level`]; the level below the top if it names the top);
/// `game` names the game in errors. An error points into the request body
/// (`/results/3/level`). A result may be dated no later than today's date
/// anywhere on Earth (see [`latest_day_now`]).
pub fn place(
    game: &str,
    levels: &[NumberedLevelInfo],
    newcomer: u8,
    request: &PlacementRequest,
) -> Result<Placement, GameError> {
    place_by(game, levels, newcomer, request, latest_day_now())
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
    newcomer: u8,
    request: &PlacementRequest,
    latest_day: i64,
) -> Result<Placement, GameError> {
    let rated: Vec<(u8, f64)> = levels
        .iter()
        .filter_map(|level| level.rating.map(|rating| (level.level, rating)))
        .collect();
    if rated.is_empty() {
        return Err(GameError::invalid_option(format!(
            "{game}'s levels have no ratings, so there is no ladder to place a player on"
        )));
    }
    let target = check_target(request.target)?;
    check_count(request.results.len())?;
    let played = played(game, &rated, &request.results, latest_day)?;
    let start = newcomer_index(&rated, newcomer);
    let centre = rated[start].1;
    // Each result in turn: the fit after it, and the recommendation, which
    // moves at most MAX_LEVELS_A_RESULT from the one before.
    let mut tally = Tally::new(rated.len());
    let mut rating = centre;
    let mut recommended = best_level(&rated, centre, target);
    for &(index, points, day) in &played {
        tally.add(index, points, day);
        rating = newton(&tally.observations(&rated), centre, rating);
        recommended = best_level(&rated, rating.max(0.0), target).clamp(
            recommended.saturating_sub(MAX_LEVELS_A_RESULT),
            recommended + MAX_LEVELS_A_RESULT,
        );
    }
    let rating = rating.max(0.0);
    let error = standard_error(&tally.observations(&rated), centre, rating);
    let fitted = best_level(&rated, rating, target);
    let scores: Vec<LevelExpectation> = rated
        .iter()
        .map(|&(level, level_rating)| LevelExpectation {
            level,
            rating: level_rating,
            expected_score: round(expected_score(rating, level_rating), 3),
        })
        .collect();
    let (level, level_rating) = rated[recommended];
    Ok(Placement {
        rating: round(rating, 1),
        interval: [
            round((rating - 1.96 * error).max(0.0), 1),
            round(rating + 1.96 * error, 1),
        ],
        games: request.results.len(),
        recommended: RecommendedLevel {
            level,
            rating: level_rating,
            expected_score: round(expected_score(rating, level_rating), 3),
            target,
            fitted: rated[fitted].0,
        },
        levels: scores,
    })
}

/// The request's target, checked, or the default.
fn check_target(target: Option<f64>) -> Result<f64, GameError> {
    let target = target.unwrap_or(DEFAULT_TARGET);
    if !(0.05..=0.95).contains(&target) {
        return Err(GameError::invalid_option_at(
            "/target",
            format!(
                "target must be a score from 0.05 to 0.95 (0.5 for an even game), not {target}"
            ),
        ));
    }
    Ok(target)
}

/// Refuses more than [`MAX_RESULTS`] results.
fn check_count(results: usize) -> Result<(), GameError> {
    if results > MAX_RESULTS {
        return Err(GameError::invalid_option_at(
            "/results",
            format!("at most {MAX_RESULTS} results are taken, not {results}"),
        ));
    }
    Ok(())
}

/// Where on `rated` (lowest first) a newcomer starts: the level numbered
/// `newcomer`, or the highest below it, never the top of a ladder of more
/// than one level.
fn newcomer_index(rated: &[(u8, f64)], newcomer: u8) -> usize {
    rated
        .iter()
        .rposition(|&(level, _)| level <= newcomer)
        .unwrap_or(0)
        .min(rated.len().saturating_sub(2))
}

/// The index of the level a player rated `rating` is expected to score
/// closest to `target` against, the easier of two as close.
fn best_level(rated: &[(u8, f64)], rating: f64, target: f64) -> usize {
    let gap = |r: f64| (expected_score(rating, r) - target).abs();
    (0..rated.len())
        .min_by(|&a, &b| gap(rated[a].1).total_cmp(&gap(rated[b].1)))
        .expect("the ladder has a rated level")
}

/// The results so far, summed per level: all the fit needs. Dated results
/// are weighed by their age before the newest dated one so far, and
/// reweighed when a newer one comes; undated ones always count 1.
struct Tally {
    /// Per rated level: the undated results' weight and points.
    undated: Vec<(f64, f64)>,
    /// Per rated level: the dated results' weight and weighted points.
    dated: Vec<(f64, f64)>,
    /// The newest dated result's day.
    newest: Option<i64>,
}

impl Tally {
    fn new(levels: usize) -> Tally {
        Tally {
            undated: vec![(0.0, 0.0); levels],
            dated: vec![(0.0, 0.0); levels],
            newest: None,
        }
    }

    fn add(&mut self, index: usize, points: f64, day: Option<i64>) {
        let Some(day) = day else {
            self.undated[index].0 += 1.0;
            self.undated[index].1 += points;
            return;
        };
        let newest = match self.newest {
            Some(newest) if newest >= day => newest,
            Some(newest) => {
                let factor = age_weight(day - newest);
                for sums in &mut self.dated {
                    sums.0 *= factor;
                    sums.1 *= factor;
                }
                day
            }
            None => day,
        };
        self.newest = Some(newest);
        let weight = age_weight(newest - day);
        self.dated[index].0 += weight;
        self.dated[index].1 += weight * points;
    }

    fn observations(&self, rated: &[(u8, f64)]) -> Vec<Observation> {
        rated
            .iter()
            .zip(self.undated.iter().zip(&self.dated))
            .filter_map(|(&(_, opponent), (undated, dated))| {
                let weight = undated.0 + dated.0;
                (weight > 0.0).then(|| Observation {
                    opponent,
                    points: (undated.1 + dated.1) / weight,
                    weight,
                })
            })
            .collect()
    }
}

/// How much a result counts `age` days before the newest.
fn age_weight(age: i64) -> f64 {
    0.5f64.powf(age as f64 / HALF_LIFE_DAYS)
}

/// The results as the fit takes them, in order: each one's level (an index
/// into `rated`), points and day, every date checked.
fn played(
    game: &str,
    rated: &[(u8, f64)],
    results: &[PlayedGame],
    latest_day: i64,
) -> Result<Vec<(usize, f64, Option<i64>)>, GameError> {
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
    results
        .iter()
        .zip(days)
        .enumerate()
        .map(|(i, (result, day))| {
            let index = level_index(game, rated, &result.level).map_err(|detail| {
                GameError::invalid_option_at(format!("/results/{i}/level"), detail)
            })?;
            Ok((index, result.result.points(), day))
        })
        .collect()
}

/// Where on `rated` the level `level` names is, or why it is not there.
fn level_index(game: &str, rated: &[(u8, f64)], level: &LevelNumber) -> Result<usize, String> {
    let number = match level {
        LevelNumber::Number(n) => Some(*n),
        LevelNumber::Text(text) => text.trim().parse().ok(),
    };
    let first = rated.first().map_or(1, |r| r.0);
    let last = rated.last().map_or(1, |r| r.0);
    number
        .and_then(|n| rated.iter().position(|r| u64::from(r.0) == n))
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
#[derive(Clone, Debug)]
pub struct Simulated {
    /// Share of players whose 95% interval covered their true rating.
    pub coverage: f64,
    /// Share of players recommended their ideal level or one next to it.
    pub converged: f64,
    /// That share after each number of games, from none to all of them.
    pub converged_after: Vec<f64>,
    /// The most levels one game moved any player's recommendation.
    pub largest_move: usize,
}

/// Places `players` simulated players with true ratings spread evenly from 200
/// below the ladder's bottom (but not below its zero) to 200 above its top,
/// each playing `games` games in turn against the level recommended after
/// the games before (winning with the model's expected score), starting
/// at the level `newcomer`, and says how often the final interval covers
/// the truth and the final recommendation is the ideal level (the one the
/// true rating scores closest to 50% against) or next to it. The check of
/// the placement bars, on any ladder.
pub fn simulate(
    levels: &[NumberedLevelInfo],
    newcomer: u8,
    players: usize,
    games: usize,
    seed: u64,
) -> Simulated {
    let ratings: Vec<f64> = levels.iter().filter_map(|l| l.rating).collect();
    let truths = (ratings[0] - 200.0).max(0.0)..ratings[ratings.len() - 1] + 200.0;
    simulate_between(levels, newcomer, truths, players, games, seed)
}

/// [`simulate`] with the players' true ratings spread evenly over `truths`.
pub fn simulate_between(
    levels: &[NumberedLevelInfo],
    newcomer: u8,
    truths: std::ops::Range<f64>,
    players: usize,
    games: usize,
    seed: u64,
) -> Simulated {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let ratings: Vec<f64> = levels.iter().filter_map(|l| l.rating).collect();
    let (mut covered, mut placed, mut largest_move) = (0, vec![0usize; games + 1], 0);
    for _ in 0..players {
        let truth = rng.random_range(truths.clone());
        let ideal = ratings
            .iter()
            .enumerate()
            .min_by(|a, b| {
                let gap = |r: f64| (expected_score(truth, r) - DEFAULT_TARGET).abs();
                gap(*a.1).total_cmp(&gap(*b.1))
            })
            .map(|(i, _)| i as i64 + 1)
            .unwrap();
        let mut request = PlacementRequest::default();
        let mut placement = place("Test", levels, newcomer, &request).unwrap();
        for (played, count) in placed.iter_mut().enumerate() {
            let level = placement.recommended.level;
            *count += usize::from((i64::from(level) - ideal).abs() <= 1);
            if played == games {
                break;
            }
            let result =
                match rng.random::<f64>() < expected_score(truth, placement.recommended.rating) {
                    true => GameResult::Win,
                    false => GameResult::Loss,
                };
            request.results.push(PlayedGame {
                level: LevelNumber::Number(u64::from(level)),
                result,
                date: None,
            });
            placement = place("Test", levels, newcomer, &request).unwrap();
            largest_move =
                largest_move.max(usize::from(placement.recommended.level.abs_diff(level)));
        }
        covered += usize::from((placement.interval[0]..=placement.interval[1]).contains(&truth));
    }
    let share = |count: usize| count as f64 / players as f64;
    Simulated {
        coverage: share(covered),
        converged: share(placed[games]),
        converged_after: placed.into_iter().map(share).collect(),
        largest_move,
    }
}

/// How many first games [`choose_newcomer`] scores a start level by.
pub const NEWCOMER_GAMES: usize = 5;

/// The placement bars: after [`BAR_GAMES`] games the 95% interval covers
/// at least this share of simulated players' true ratings, and this share
/// is recommended their ideal level or one next to it ([`simulate`]).
pub const BAR: f64 = 0.9;

/// The games after which [`BAR`] holds.
pub const BAR_GAMES: usize = 10;

/// The newcomer level simulation picks for the ladder `levels`, with each
/// candidate's score. Simulated newcomers, `players` of them, have true
/// ratings spread evenly from 200 below level 1 (but not below the zero)
/// to the middle of the ladder (halfway between level 1's rating and the
/// top's): a new player is a beginner, not any player. Each candidate
/// level, every level but the top, starts them all on the same seeds, and
/// scores the share of them placed (the ideal level or one next to it, as
/// [`Simulated::converged`]) before their first game and after each of
/// their first [`NEWCOMER_GAMES`], averaged. The best candidate wins, the
/// easier of two as good, among those under which every player, not only
/// newcomers, still meets the placement bars ([`BAR`] after [`BAR_GAMES`]
/// games in [`simulate`], on the same seed): a start too low would keep
/// strong players from their level for too long.
pub fn choose_newcomer(
    levels: &[NumberedLevelInfo],
    players: usize,
    seed: u64,
) -> (u8, Vec<(u8, f64)>) {
    let rated: Vec<(u8, f64)> = levels
        .iter()
        .filter_map(|level| level.rating.map(|rating| (level.level, rating)))
        .collect();
    let (bottom, top) = (rated[0].1, rated[rated.len() - 1].1);
    let truths = (bottom - 200.0).max(0.0)..(bottom + top) / 2.0;
    let candidates = &rated[..rated.len().saturating_sub(1).max(1)];
    let scores: Vec<(u8, f64)> = candidates
        .iter()
        .map(|&(level, _)| {
            let simulated =
                simulate_between(levels, level, truths.clone(), players, NEWCOMER_GAMES, seed);
            let placed = &simulated.converged_after;
            (level, placed.iter().sum::<f64>() / placed.len() as f64)
        })
        .collect();
    let mut ranked = scores.clone();
    // A stable sort: of two as good, the easier stays first.
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
    let keeps_the_bars = |level: u8| {
        let simulated = simulate(levels, level, players, BAR_GAMES, seed);
        simulated.coverage >= BAR && simulated.converged >= BAR
    };
    let chosen = ranked
        .iter()
        .find(|(level, _)| keeps_the_bars(*level))
        .unwrap_or(&ranked[0]);
    (chosen.0, scores)
}

fn round(x: f64, digits: i32) -> f64 {
    let factor = 10f64.powi(digits);
    (x * factor).round() / factor
}

#[cfg(test)]
mod tests;
