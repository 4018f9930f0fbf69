//! Positions from real games: every `every`-th state of an arena games log's
//! first games, so a level is measured on the phases its own matches visit.

use gamebot::game::wire::{ReplayMoves, ReplayRequest, ReplayStart};
use gamebot::game::DynGame;
use serde::Deserialize;
use serde_json::Value;
use std::fs;

/// The part of a games-log line the sampling reads.
#[derive(Deserialize)]
struct LoggedGame {
    moves: Vec<Value>,
}

/// Every `every`-th state before each move of the first `games` games of
/// the games log at `log` (from the middle of the first stride on), as
/// `game`'s JSON states.
pub fn from_games_log(
    game: &dyn DynGame,
    log: &str,
    games: usize,
    every: usize,
) -> Result<Vec<Value>, String> {
    if every == 0 {
        return Err("--every must be at least 1".into());
    }
    let text = fs::read_to_string(log).map_err(|e| format!("{log}: {e}"))?;
    let mut positions = Vec::new();
    for (index, line) in text.lines().take(games).enumerate() {
        let logged: LoggedGame =
            serde_json::from_str(line).map_err(|e| format!("{log} game {index}: {e}"))?;
        let replay = game
            .replay(&ReplayRequest {
                start: ReplayStart::NewGame,
                moves: ReplayMoves::List(logged.moves),
                max_moves: gamebot::game::record::MAX_REPLAY_MOVES,
                states: true,
            })
            .map_err(|e| format!("{log} game {index}: {e}"))?;
        let mut states = replay.states.unwrap_or_default();
        states.pop();
        positions.extend(states.into_iter().skip(every / 2).step_by(every));
    }
    Ok(positions)
}
