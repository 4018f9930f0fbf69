//! Matches of a one-player game: every contestant plays the same seeded
//! starts, so two levels are compared board by board (a paired difference
//! of their points), not by the luck of the boards they happened to get.
//!
//! A game `seed` of a match starts from the game's seeded start
//! ([`Referee::seeded_game`](crate::game::Referee::seeded_game)), and every
//! turn's seed comes from the game's seed and the ply only, so a
//! node-capped level scores the same on a board whoever else plays it and
//! however busy the machine is.

use super::engine::run_parallel;
use super::player::{Player, Turn};
use super::stats::{paired_difference, round};
use crate::game::{Game, Outcome};
use serde::Serialize;
use std::ops::Range;
use std::time::Duration;

/// One game of a one-player match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SoloGame {
    /// The game's seed (which board it started from).
    pub seed: u64,
    /// The points scored: at the end, or when the player forfeited.
    pub points: i64,
    /// Why the player forfeited (`timeout after 150 ms`, `illegal: …`), if
    /// it did; the game stops there with its points so far.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forfeit: Option<String>,
}

/// The seed a player's choice on ply `ply` of game `game_seed` gets.
pub fn turn_seed(game_seed: u64, ply: usize) -> u64 {
    game_seed.wrapping_mul(1_000).wrapping_add(ply as u64)
}

/// Plays game `seed` from `start` to its end (or the player's forfeit),
/// `time` a move.
pub fn play_solo_game<G: Game>(
    start: G::State,
    seed: u64,
    player: &mut dyn Player<G>,
    time: Duration,
) -> SoloGame {
    let mut state = start;
    for ply in 0.. {
        if let Outcome::Finished { points, .. } = G::outcome(&state) {
            return SoloGame {
                seed,
                points,
                forfeit: None,
            };
        }
        let turn = Turn {
            ply,
            seed: turn_seed(seed, ply),
            budget: time,
            game_time_left: None,
            clock: None,
        };
        match player.choose(&state, &turn) {
            Ok(choice) => state = G::apply(&state, &choice.mv),
            Err(forfeit) => {
                return SoloGame {
                    seed,
                    points: G::margin(&state).unwrap_or(0),
                    forfeit: Some(forfeit.0),
                }
            }
        }
    }
    unreachable!("a game's plies are counted without end")
}

/// What a one-player match plays: the game seeds, each contestant's time
/// a move, and the games played at once.
#[derive(Clone, Debug)]
pub struct SoloSpec {
    /// The games' seeds; every contestant plays each of them.
    pub seeds: Range<u64>,
    /// The time each contestant's moves get, by contestant.
    pub times: Vec<Duration>,
    /// Games played at once.
    pub threads: usize,
}

/// Plays every game seed of `spec` with each contestant (`make_player(i)`
/// for `i` below `spec.times.len()`, fresh for each game, so an outside
/// program starts anew) from `start(seed)`, on all threads; answers each
/// contestant's games in seed order. A player that cannot be made or a
/// start that cannot be built stops the match.
pub fn play_solo<G: Game>(
    spec: &SoloSpec,
    start: &(dyn Fn(u64) -> Result<G::State, String> + Sync),
    make_player: &(dyn Fn(usize) -> Result<Box<dyn Player<G>>, String> + Sync),
) -> Result<Vec<Vec<SoloGame>>, String> {
    let contestants = spec.times.len();
    let seeds: Vec<u64> = spec.seeds.clone().collect();
    let jobs: Vec<(usize, u64)> = (0..contestants)
        .flat_map(|who| seeds.iter().map(move |&seed| (who, seed)))
        .collect();
    let games = run_parallel(jobs.len(), spec.threads, |index| {
        let (who, seed) = jobs[index];
        let mut player = make_player(who)?;
        Ok(play_solo_game::<G>(
            start(seed)?,
            seed,
            player.as_mut(),
            spec.times[who],
        ))
    })?;
    let mut by_contestant = vec![Vec::with_capacity(seeds.len()); contestants];
    for (&(who, _), game) in jobs.iter().zip(games) {
        by_contestant[who].push(game);
    }
    Ok(by_contestant)
}

/// The points of games, in their order.
pub fn points(games: &[SoloGame]) -> Vec<i64> {
    games.iter().map(|game| game.points).collect()
}

/// The mean of some points (0 for none).
pub fn mean(points: &[i64]) -> f64 {
    if points.is_empty() {
        0.0
    } else {
        points.iter().sum::<i64>() as f64 / points.len() as f64
    }
}

/// How much more one contestant scored than another on the same boards:
/// the mean of the per-board differences and its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PairedGain {
    /// The mean difference in points.
    pub mean: f64,
    /// The interval's low end (equal to `mean` under two boards).
    pub low: f64,
    /// The interval's high end.
    pub high: f64,
    /// The mean difference as a share of the base's mean points, in
    /// percent (0 when the base scored nothing).
    pub percent: f64,
    /// Half the interval's width as a share of the base's mean points.
    pub percent_margin: f64,
}

impl PairedGain {
    /// `scores` over `base`, both in seed order.
    pub fn over(base: &[i64], scores: &[i64]) -> PairedGain {
        let (gain, margin) = paired_difference(base, scores);
        let margin = margin.unwrap_or(0.0);
        let base_mean = mean(base);
        let share = |x: f64| {
            if base_mean > 0.0 {
                round(x / base_mean * 100.0, 1)
            } else {
                0.0
            }
        };
        PairedGain {
            mean: round(gain, 1),
            low: round(gain - margin, 1),
            high: round(gain + margin, 1),
            percent: share(gain),
            percent_margin: share(margin),
        }
    }
}

/// One contestant's side of a one-player match.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SoloSide {
    /// The contestant as the command line named it.
    pub name: String,
    /// Games played.
    pub games: usize,
    /// Mean points.
    pub mean: f64,
    /// The fewest points of a game.
    pub min: i64,
    /// The most points of a game.
    pub max: i64,
    /// Games it forfeited.
    pub forfeits: usize,
    /// The first forfeit's game seed and reason, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_forfeit: Option<String>,
}

impl SoloSide {
    /// The side of `name`, from its games.
    pub fn of(name: String, games: &[SoloGame]) -> SoloSide {
        let scores = points(games);
        let forfeited: Vec<&SoloGame> = games.iter().filter(|g| g.forfeit.is_some()).collect();
        SoloSide {
            name,
            games: games.len(),
            mean: round(mean(&scores), 1),
            min: scores.iter().min().copied().unwrap_or(0),
            max: scores.iter().max().copied().unwrap_or(0),
            forfeits: forfeited.len(),
            first_forfeit: forfeited.first().map(|game| {
                format!(
                    "seed {}: {}",
                    game.seed,
                    game.forfeit.as_deref().unwrap_or("")
                )
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gain_is_the_mean_per_board_difference_with_its_interval() {
        let gain = PairedGain::over(&[100, 200, 300], &[110, 230, 320]);
        assert_eq!(gain.mean, 20.0);
        assert!(gain.low < 20.0 && gain.high > 20.0);
        assert_eq!(gain.percent, 10.0);
        let same = PairedGain::over(&[5, 7], &[5, 7]);
        assert_eq!((same.mean, same.low, same.high), (0.0, 0.0, 0.0));
    }

    #[test]
    fn turn_seeds_depend_on_the_game_and_the_ply_only() {
        assert_ne!(turn_seed(1, 0), turn_seed(2, 0));
        assert_ne!(turn_seed(1, 0), turn_seed(1, 1));
        assert_eq!(turn_seed(7, 3), turn_seed(7, 3));
    }
}
