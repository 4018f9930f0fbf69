//! Measures how long Reversi's exact solver takes, for the engine's time
//! manager (`src/games/reversi/bots/solve_costs.rs`): positions of the
//! held-out self-play journal, the first `--per-empties` at each number of
//! empties, are searched by the midgame engine (which gives the solver its
//! root order, as in play) and then solved exactly; the median,
//! nine-in-ten and longest solve per number of empties go to `--out`.
//!
//! ```text
//! cargo run --release -p gamebot-research --bin reversi_solve_costs -- \
//!     --out src/games/reversi/bots/solve_costs.json
//! ```
//!
//! Run it on one core with nothing else on it: the times are the product.

use clap::Parser;
use gamebot::game::Budget;
use gamebot::games::reversi::board::Board;
use gamebot::games::reversi::bots::endgame::Solver;
use gamebot::games::reversi::bots::engine::{think, Plan};
use gamebot::games::reversi::bots::solve_costs::{SolveCostRow, SolveCosts};
use gamebot_research::reversi_selfplay::Journal;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Parser, Debug)]
struct Args {
    /// The journal the positions come from.
    #[arg(
        long,
        default_value = "research/data/reversi-selfplay/heldout.games.jsonl"
    )]
    journal: PathBuf,
    /// The fewest empties measured.
    #[arg(long, default_value_t = 12)]
    min_empties: u32,
    /// The most empties measured.
    #[arg(long, default_value_t = 24)]
    max_empties: u32,
    /// Positions solved at each number of empties.
    #[arg(long, default_value_t = 20)]
    per_empties: usize,
    /// The midgame search's depth before each solve: the engine first
    /// asks whether to solve after its fourth iteration.
    #[arg(long, default_value_t = 4)]
    depth: u32,
    /// log2 of the midgame table's entries (the solver's has twice as
    /// many): the engine's for a move of 30 to 300 ms, where when to
    /// solve matters most.
    #[arg(long, default_value_t = 16)]
    table_log2: u32,
    /// Where the measurements go.
    #[arg(long)]
    out: PathBuf,
}

/// The midgame search that orders the solver's root, as the engine's does.
fn midgame(depth: u32, table_log2: u32) -> Plan {
    Plan::full_width(depth, table_log2)
}

/// The value below which `share` of `sorted` lies.
fn quantile(sorted: &[f64], share: f64) -> f64 {
    let at = ((sorted.len() as f64 * share).ceil() as usize).clamp(1, sorted.len());
    sorted[at - 1]
}

fn main() -> Result<(), String> {
    let args = Args::parse();
    let journal = Journal::read(&args.journal)?;
    let mut by_empties: Vec<Vec<Board>> = vec![Vec::new(); 65];
    for game in journal.games.values() {
        for sample in game.samples()? {
            let e = sample.board.empties();
            if (args.min_empties..=args.max_empties).contains(&e)
                && by_empties[e as usize].len() < args.per_empties
            {
                by_empties[e as usize].push(sample.board);
            }
        }
    }
    let budget = Budget::unlimited();
    let mut rows = Vec::new();
    println!("| empties | positions | median ms | 90% ms | most ms |");
    println!("|---|---|---|---|---|");
    for empties in args.min_empties..=args.max_empties {
        let mut times = Vec::new();
        for &board in &by_empties[empties as usize] {
            let thought = think(board, &budget, midgame(args.depth, args.table_log2));
            let order: Vec<u32> = thought.lines.iter().filter_map(|l| l.square).collect();
            let started = Instant::now();
            Solver::new(&budget, args.table_log2 + 1)
                .solve_root(board, 1, None, &order)
                .ok_or("an unlimited solve never stops")?;
            times.push(started.elapsed().as_secs_f64() * 1000.0);
        }
        if times.is_empty() {
            return Err(format!("no position with {empties} empties in the journal"));
        }
        times.sort_by(f64::total_cmp);
        let row = SolveCostRow {
            empties,
            positions: times.len(),
            median_ms: round(quantile(&times, 0.5)),
            p90_ms: round(quantile(&times, 0.9)),
            max_ms: round(times[times.len() - 1]),
        };
        println!(
            "| {} | {} | {} | {} | {} |",
            row.empties, row.positions, row.median_ms, row.p90_ms, row.max_ms
        );
        rows.push(row);
    }
    let costs = SolveCosts {
        command: format!(
            "cargo run --release -p gamebot-research --bin reversi_solve_costs -- --min-empties {} \
             --max-empties {} --per-empties {} --depth {} --table-log2 {} --out {}",
            args.min_empties,
            args.max_empties,
            args.per_empties,
            args.depth,
            args.table_log2,
            args.out.display()
        ),
        rows,
    };
    let text = serde_json::to_string_pretty(&costs).map_err(|e| e.to_string())? + "\n";
    SolveCosts::parse(&text)?;
    std::fs::write(&args.out, text).map_err(|e| format!("{}: {e}", args.out.display()))
}

/// Milliseconds to a hundredth.
fn round(ms: f64) -> f64 {
    (ms * 100.0).round() / 100.0
}
