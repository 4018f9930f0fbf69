//! How long a numbered level takes a move: the level's own search (its
//! rung's caps, no deadline) run on positions taken from real games, one
//! after another on the calling thread, with the time, positions and
//! positions a second of each search summed up. The positions are every
//! `--every`-th of the first `--games` games of an arena games log, so a
//! rung is timed on the phases its own matches visit.
//!
//! ```text
//! taskset -c 0 cargo run --release -p gamebot-research --bin rung_time -- \
//!     halma 12 docs/ladder-runs/halma-old-top-match.games.jsonl --every 12 --games 10
//! ```
//!
//! Pin it to a core nothing else uses: the time is the figure, so what
//! else runs on that core is part of it.
//!
//! `--moves` also prints each search's move, positions and score, one line
//! a position: two builds' lists are equal exactly when a change to the
//! code left every capped move (and so every measured rung) as it was,
//! which is how a speed-up of the search is checked before its ladder is
//! trusted.
//!
//! `--depth D` searches every position to depth D with no cap instead of
//! the level's own budget (give a named level, such as `strong`): the time
//! to a depth, for two builds whose change alters which positions a capped
//! search visits, so that their capped moves differ and only the time to
//! the same depth compares them.

use clap::Parser;
use gamebot::game::wire::{BotRequest, StateInput};
use gamebot::game::{Budget, DynGame};
use serde_json::{Map, Value};
use std::time::Instant;

#[derive(Parser, Debug)]
struct Args {
    /// The game id.
    game: String,
    /// The level to time: a numbered one, or a named one with `--depth`.
    level: String,
    /// An arena games log (`--games-log`), one game a line.
    log: String,
    /// Take every this many-th position of a game (from the middle of
    /// the first stride on).
    #[arg(long, default_value_t = 12)]
    every: usize,
    /// How many of the log's games to take positions from.
    #[arg(long, default_value_t = 10)]
    games: usize,
    /// The seed each search gets.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print each position's move, positions searched and score.
    #[arg(long)]
    moves: bool,
    /// Search to this depth with no cap instead of the level's budget.
    #[arg(long)]
    depth: Option<u32>,
}

/// One timed search.
struct Timed {
    ms: f64,
    nodes: u64,
    mv: Value,
    score: Option<i64>,
}

fn main() -> Result<(), String> {
    let args = Args::parse();
    let game = gamebot::games::find(&args.game).ok_or(format!("no game {}", args.game))?;
    let positions =
        gamebot_research::positions::from_games_log(game, &args.log, args.games, args.every)?;
    println!(
        "{} level {}: {} positions (every {}th of {} games of {})",
        args.game,
        args.level,
        positions.len(),
        args.every,
        args.games,
        args.log
    );
    let timed = positions
        .into_iter()
        .map(|state| time_one(game, &args, state))
        .collect::<Result<Vec<_>, _>>()?;
    if args.moves {
        for (index, one) in timed.iter().enumerate() {
            let score = one.score.map_or("-".to_string(), |s| s.to_string());
            println!(
                "{index}\t{}\t{score}\t{}\t{:.1} ms",
                one.nodes, one.mv, one.ms
            );
        }
    }
    report(&timed);
    Ok(())
}

/// The level's move in `state`, timed from request to answer.
fn time_one(game: &dyn DynGame, args: &Args, state: Value) -> Result<Timed, String> {
    let request = BotRequest {
        state: StateInput::Json(state),
        level: Some(args.level.clone().into()),
        seed: Some(args.seed),
        budget_fields: Vec::new(),
        own_fields: Map::new(),
        perspective: None,
    };
    let budget = match args.depth {
        Some(depth) => Budget::unlimited().depth(depth),
        None => Budget::unlimited(),
    };
    let started = Instant::now();
    let reply = game
        .bot_move(&request, &budget)
        .map_err(|e| e.to_string())?;
    Ok(Timed {
        ms: started.elapsed().as_secs_f64() * 1000.0,
        nodes: reply.search.nodes.unwrap_or(0),
        score: reply.search.score,
        mv: reply.mv,
    })
}

fn report(timed: &[Timed]) {
    let count = timed.len().max(1) as f64;
    let mut ms: Vec<f64> = timed.iter().map(|t| t.ms).collect();
    ms.sort_by(f64::total_cmp);
    let total_ms: f64 = ms.iter().sum();
    let total_nodes: u64 = timed.iter().map(|t| t.nodes).sum();
    let median = ms.get(ms.len() / 2).copied().unwrap_or(0.0);
    let longest = ms.last().copied().unwrap_or(0.0);
    println!(
        "time a move: mean {:.0} ms, median {median:.0} ms, longest {longest:.0} ms",
        total_ms / count
    );
    println!(
        "positions a move: mean {:.0}; positions a second over the whole: {:.0}",
        total_nodes as f64 / count,
        total_nodes as f64 / (total_ms / 1000.0).max(1e-9)
    );
}
