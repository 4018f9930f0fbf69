//! What each numbered level costs a move, for `GET /v1/games` to publish:
//! every numbered level of every game searches the same positions (taken
//! from its ladder's top-pair games, or, for Number Crush, from seeded new
//! boards), one after another on the calling thread with the level's own
//! budget, and the median and 95th percentile of its time and positions a
//! move are written to `data/level-costs.json`, with the command and the
//! build, which the product includes at build time.
//!
//! ```text
//! taskset -c 1 cargo run --release -p gamebot-research --bin level_costs -- \
//!     --every 6 --games 6 --out data/level-costs.json
//! ```
//!
//! Pin it to a core nothing else uses: the time is the figure.

use clap::Parser;
use gamebot::game::wire::{BotRequest, StateInput};
use gamebot::game::{Budget, DynGame};
use serde_json::{json, Map, Value};
use std::time::Instant;

#[derive(Parser, Debug)]
struct Args {
    /// Take every this many-th position of a game.
    #[arg(long, default_value_t = 6)]
    every: usize,
    /// How many games of each log to take positions from.
    #[arg(long, default_value_t = 6)]
    games: usize,
    /// Boards for a one-player game (Number Crush): new boards, seeds 1..=N.
    #[arg(long, default_value_t = 30)]
    boards: u32,
    /// Only these games (all by default).
    #[arg(long = "game")]
    only: Vec<String>,
    /// Where to write the figures.
    #[arg(long, default_value = "data/level-costs.json")]
    out: String,
    /// What to say the figures were measured on.
    #[arg(
        long,
        default_value = "the development machine: 2 cores, one used, nothing else running"
    )]
    machine: String,
}

/// Each two-player game's log of its ladder's top pair, whose positions
/// the levels are timed on.
const LOGS: [(&str, &str); 4] = [
    (
        "advance",
        "docs/ladder-runs/advance-top-pair-rerun.games.jsonl",
    ),
    (
        "halma",
        "docs/ladder-runs/halma-top-pair-rerun-2.games.jsonl",
    ),
    (
        "naughts",
        "docs/ladder-runs/naughts-top-pair-rerun.games.jsonl",
    ),
    (
        "reversi",
        "docs/ladder-runs/reversi-top-pair-rerun-gen3.games.jsonl",
    ),
];

fn main() -> Result<(), String> {
    let args = Args::parse();
    let mut games = Map::new();
    for game in gamebot::games::REGISTRY {
        let id = game.info().id;
        if !args.only.is_empty() && !args.only.iter().any(|g| g == id) {
            continue;
        }
        let numbered = game.listing().numbered_levels;
        if numbered.is_empty() {
            continue;
        }
        let positions = positions_of(*game, &args)?;
        let mut levels = Vec::new();
        for level in numbered {
            let figures = time_level(*game, level.level, &positions)?;
            eprintln!("{id} level {}: {figures}", level.level);
            levels.push(figures);
        }
        games.insert(
            id.to_string(),
            json!({"positions": positions.len(), "levels": levels}),
        );
    }
    let figures = json!({
        "command": std::env::args().collect::<Vec<_>>().join(" "),
        "build": env!("CARGO_PKG_VERSION"),
        "machine": args.machine,
        "games": games,
    });
    let text = serde_json::to_string_pretty(&figures).map_err(|e| e.to_string())? + "\n";
    std::fs::write(&args.out, text).map_err(|e| format!("{}: {e}", args.out))?;
    Ok(())
}

/// The positions `game`'s levels are timed on.
fn positions_of(game: &dyn DynGame, args: &Args) -> Result<Vec<Value>, String> {
    let id = game.info().id;
    if let Some((_, log)) = LOGS.iter().find(|(game, _)| *game == id) {
        return gamebot_research::positions::from_games_log(game, log, args.games, args.every);
    }
    (1..=args.boards)
        .map(|seed| {
            game.new_game(&json!({"seed": seed}))
                .map(|new| new.state)
                .map_err(|e| format!("{id} board {seed}: {e}"))
        })
        .collect()
}

/// The median and 95th percentile of `level`'s time and positions a move
/// over `positions`, each searched with the level's own budget.
fn time_level(game: &dyn DynGame, level: u8, positions: &[Value]) -> Result<Value, String> {
    let mut ms = Vec::new();
    let mut nodes = Vec::new();
    for (index, state) in positions.iter().enumerate() {
        let request = BotRequest {
            state: StateInput::Json(state.clone()),
            level: Some(level.to_string().into()),
            seed: Some(index as u64 + 1),
            budget_fields: Vec::new(),
            own_fields: Map::new(),
            perspective: None,
        };
        let started = Instant::now();
        let reply = match game.bot_move(&request, &Budget::unlimited()) {
            Ok(reply) => reply,
            // A finished position in the log has no move to time.
            Err(gamebot::game::GameError::GameOver { .. }) => continue,
            Err(error) => return Err(format!("level {level}: {error}")),
        };
        ms.push(started.elapsed().as_secs_f64() * 1000.0);
        nodes.push(reply.search.nodes.unwrap_or(0) as f64);
    }
    Ok(json!({
        "level": level,
        "median_ms": round1(quantile(&mut ms, 0.5)),
        "p95_ms": round1(quantile(&mut ms, 0.95)),
        "median_positions": quantile(&mut nodes, 0.5).round(),
        "p95_positions": quantile(&mut nodes, 0.95).round(),
        "moves": ms.len(),
    }))
}

/// The `share` quantile of `values` (the nearest rank), 0 for none.
fn quantile(values: &mut [f64], share: f64) -> f64 {
    values.sort_by(f64::total_cmp);
    let Some(last) = values.len().checked_sub(1) else {
        return 0.0;
    };
    values[((share * values.len() as f64).ceil() as usize)
        .saturating_sub(1)
        .min(last)]
}

fn round1(value: f64) -> f64 {
    (value * 10.0).round() / 10.0
}
