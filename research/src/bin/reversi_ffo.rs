//! Solves FFO endgame positions exactly with Reversi's endgame solver, one
//! after the other, and prints a table row per position: empties, the score
//! found against the published one, the move, the time and the nodes. Exits
//! with 1 if any score or move disagrees with the file.
//!
//! ```text
//! cargo run --release -p gamebot-research --bin reversi_ffo -- \
//!     tests/data/reversi/fforum-40-59.obf --first 40 --only 53,55,57
//! ```
//!
//! Several processes, each with its own `--only`, use several cores.

use clap::Parser;
use gamebot::game::Budget;
use gamebot::games::reversi::board::square_name;
use gamebot::games::reversi::bots::endgame::{NodeCode, Solver};
use gamebot::games::reversi::obf::ObfPosition;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
struct Args {
    /// The `.obf` file (FFO suites: `tests/data/reversi/fforum-*.obf`).
    file: PathBuf,
    /// The FFO number of the file's first position.
    #[arg(long, default_value_t = 1)]
    first: usize,
    /// Solve only these FFO numbers (comma-separated); all when absent.
    #[arg(long, value_delimiter = ',')]
    only: Vec<usize>,
    /// The solver's table has 2^N entries (24 bytes each).
    #[arg(long, default_value_t = 24)]
    table_log2: u32,
    /// Run the solver's portable node searches even where the CPU has the
    /// instructions of the faster copy (to measure one against the other).
    #[arg(long)]
    portable: bool,
    /// Prove each position without the selective passes before the proof
    /// (to measure one against the other).
    #[arg(long)]
    no_selective: bool,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let text = std::fs::read_to_string(&args.file)
        .unwrap_or_else(|e| panic!("{}: {e}", args.file.display()));
    let positions =
        ObfPosition::parse_all(&text).unwrap_or_else(|e| panic!("{}: {e}", args.file.display()));
    let budget = Budget::unlimited();
    let mut wrong = 0;
    println!(
        "| FFO | empties | score (published) | move | seconds | nodes | M nodes/s | ordering nodes |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for (number, position) in (args.first..).zip(positions) {
        if !args.only.is_empty() && !args.only.contains(&number) {
            continue;
        }
        let started = Instant::now();
        let code = if args.portable {
            NodeCode::Portable
        } else {
            NodeCode::fastest()
        };
        let mut solver = Solver::new(&budget, args.table_log2)
            .with_code(code)
            .with_selective_passes(!args.no_selective);
        let roots = solver
            .solve_root(position.board, 1, None, &[])
            .expect("an unlimited budget never stops");
        let seconds = started.elapsed().as_secs_f64();
        let best = &roots[0];
        let right = best.score == position.best_score
            && best
                .square
                .is_some_and(|sq| position.best_moves.contains(&sq));
        if !right {
            wrong += 1;
        }
        println!(
            "| #{number} | {} | {:+} ({:+}){} | {} | {seconds:.2} | {} | {:.1} | {} |",
            position.board.empties(),
            best.score,
            position.best_score,
            if right { "" } else { " WRONG" },
            best.square.map_or("pass".into(), square_name),
            solver.nodes,
            solver.nodes as f64 / seconds / 1e6,
            solver.ordering_nodes(),
        );
    }
    if wrong == 0 {
        ExitCode::SUCCESS
    } else {
        eprintln!("{wrong} position(s) disagree with the file");
        ExitCode::FAILURE
    }
}
