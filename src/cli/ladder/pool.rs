//! `gamebot ladder --pool LOG`: the games of a match of two of a ladder's
//! levels played outside the ladder (an arena run kept with `--games-log`,
//! such as a re-run of a pair with a new seed) are added to that pair's
//! result before the ratings are fitted. A pair whose re-run lands outside
//! its recorded interval is then measured on all the games both runs
//! played, and only whole logs are pooled, so a run is not stopped where
//! its score happens to suit.

use crate::arena::stats::points_of;
use crate::arena::Seat;
use crate::cli::games_log::{read_log, MatchSetup};
use crate::cli::CliError;
use std::path::Path;

/// One pooled log: its match and what its games give the pair of levels
/// its two seats are.
#[derive(Debug)]
pub struct PooledLog {
    /// The log's match, to be checked against the ladder's own pairs.
    pub setup: MatchSetup,
    /// The lower of the two levels (0 for the ladder's zero).
    pub low: u8,
    /// The higher of the two levels.
    pub high: u8,
    /// Games in the log.
    pub games: u32,
    /// The lower level's points (a win 1, a draw ½).
    pub low_points: f64,
}

/// The refusal of the log at `path` for `--pool`, saying why.
pub fn refusal(path: &Path, detail: impl std::fmt::Display) -> CliError {
    CliError::Input {
        path: path.to_path_buf(),
        detail: format!("--pool: {detail}"),
    }
}

/// Reads the log at `path`, whose seats `level_of` names as levels (the
/// zero's name as 0, a numbered level as itself).
pub fn read_pooled(
    path: &Path,
    level_of: impl Fn(&str) -> Option<u8>,
) -> Result<PooledLog, CliError> {
    let (setup, games) = read_log(path)?;
    let seat_level = |seat: &str| {
        level_of(seat).ok_or_else(|| {
            refusal(
                path,
                format!("seat '{seat}' is not one of the ladder's levels (nor its zero)"),
            )
        })
    };
    let (a, b) = (seat_level(&setup.a)?, seat_level(&setup.b)?);
    if a == b {
        return Err(refusal(
            path,
            format!("both seats are level {a}; a pair needs two levels"),
        ));
    }
    let low_seat = if a < b { Seat::A } else { Seat::B };
    Ok(PooledLog {
        low: a.min(b),
        high: a.max(b),
        games: games.len() as u32,
        low_points: games.iter().map(|game| points_of(low_seat, game)).sum(),
        setup,
    })
}
