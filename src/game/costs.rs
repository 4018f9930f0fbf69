//! What each numbered level costs a move, as measured by the research study
//! `level_costs` and kept in `data/level-costs.json` (included at build
//! time): `GET /v1/games` publishes it beside each level, so that a portal
//! can size its servers and pick clocks that let a rated level play at its
//! rating.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// One numbered level's time and positions a move, on the reference machine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct LevelCost {
    /// The median time a move, in milliseconds.
    pub median_ms: f64,
    /// The 95th percentile of the time a move, in milliseconds.
    pub p95_ms: f64,
    /// The median positions searched a move.
    pub median_positions: f64,
    /// The 95th percentile of the positions searched a move.
    pub p95_positions: f64,
    /// The moves measured.
    pub moves: u32,
    /// The command that measured it.
    #[serde(default)]
    pub command: String,
    /// The machine it was measured on.
    #[serde(default)]
    pub machine: String,
}

/// The file's shape.
#[derive(Deserialize)]
struct CostsFile {
    command: String,
    machine: String,
    games: BTreeMap<String, GameCosts>,
}

/// One game's levels in the file.
#[derive(Deserialize)]
struct GameCosts {
    levels: Vec<LevelEntry>,
}

/// One level's figures in the file.
#[derive(Deserialize)]
struct LevelEntry {
    level: u8,
    #[serde(flatten)]
    cost: LevelCost,
}

/// The measured costs, by game id and level, with the command and machine
/// of the measurement on each.
fn shipped() -> &'static BTreeMap<(String, u8), LevelCost> {
    static COSTS: OnceLock<BTreeMap<(String, u8), LevelCost>> = OnceLock::new();
    COSTS.get_or_init(|| {
        let file: CostsFile = serde_json::from_str(include_str!("../../data/level-costs.json"))
            .expect("data/level-costs.json is the study's output");
        let mut costs = BTreeMap::new();
        for (game, levels) in file.games {
            for entry in levels.levels {
                let mut cost = entry.cost;
                cost.command.clone_from(&file.command);
                cost.machine.clone_from(&file.machine);
                costs.insert((game.clone(), entry.level), cost);
            }
        }
        costs
    })
}

/// The measured cost of `game`'s numbered `level`, if it was measured.
pub fn of(game: &str, level: u8) -> Option<LevelCost> {
    shipped().get(&(game.to_string(), level)).cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_numbered_level_of_every_game_has_a_measured_cost() {
        for game in crate::games::REGISTRY {
            let id = game.info().id;
            for numbered in game.listing().numbered_levels {
                let cost = of(id, numbered.level)
                    .unwrap_or_else(|| panic!("{id} level {} has no cost", numbered.level));
                assert!(cost.median_ms <= cost.p95_ms, "{id} {cost:?}");
                assert!(cost.moves > 0 && !cost.command.is_empty(), "{id} {cost:?}");
            }
        }
    }
}
