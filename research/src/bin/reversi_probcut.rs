//! Fits Reversi's Multi-ProbCut lines: seeded self-play games (depth-2
//! `strong` with some random moves) give positions across the game; each
//! is searched by the full-width engine at every depth from 1 to
//! `--max-depth`, and for each depth pair and phase the deep score's line
//! on the shallow score and its error are fitted
//! (`gamebot_research::reversi_probcut`) and written where the engine
//! reads them.
//!
//! ```text
//! cargo run --release -p gamebot-research --bin reversi_probcut -- \
//!     --games 300 --seed 1 --max-depth 10 --out src/games/reversi/bots/probcut.json
//! ```

use clap::Parser;
use gamebot::arena::run_parallel;
use gamebot::game::Budget;
use gamebot::games::reversi::board::{Bits, Board};
use gamebot::games::reversi::bots::engine::{think, Evaluation, Plan};
use gamebot::games::reversi::bots::probcut::CutFile;
use gamebot_research::reversi_probcut::{fit_cuts, Sample, PHASES};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

#[derive(Parser, Debug)]
struct Args {
    /// Self-play games the positions come from.
    #[arg(long, default_value_t = 300)]
    games: usize,
    /// Seed of the games and of the positions taken from them.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The deepest search, and so the deepest depth pair fitted.
    #[arg(long, default_value_t = 10)]
    max_depth: u32,
    /// The share of a game's positions that are searched.
    #[arg(long, default_value_t = 0.2)]
    sample: f64,
    /// Threads [default: the number of cores].
    #[arg(long)]
    threads: Option<usize>,
    /// Where the fitted lines go.
    #[arg(long, default_value = "src/games/reversi/bots/probcut.json")]
    out: String,
}

/// Scores beyond this (hundredths of a disc) are forced ends, not estimates.
const ESTIMATE_LIMIT: i32 = 6_400;

/// A full-width search to `depth` with a table of `2^table_log2` entries,
/// without the exact solver's shortcut at the root.
fn full_width(depth: u32, table_log2: u32) -> Plan {
    Plan {
        max_depth: depth,
        solve_empties: 0,
        solve_nodes: None,
        top: 1,
        include: None,
        table_log2: Some(table_log2),
        evaluation: Evaluation::Patterns,
        probcut: None,
    }
}

/// The score of a full-width search of `board` to `depth`.
fn score_at(board: Board, depth: u32) -> i32 {
    think(board, &Budget::unlimited(), full_width(depth, 18)).lines[0].score
}

/// The positions game `index` passes through that are picked for searching.
fn positions_of(args: &Args, index: usize) -> Vec<Board> {
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed.wrapping_mul(0x9e37_79b9) ^ index as u64);
    let opening_plies = rng.random_range(2..=12);
    let (first, last) = (PHASES[0].0, PHASES[PHASES.len() - 1].1);
    let mut picked = Vec::new();
    let mut board = Board::start();
    let mut ply = 0;
    while !board.is_over() {
        let moves = board.moves();
        if moves == 0 {
            board = board.pass();
            continue;
        }
        if (first..=last).contains(&board.empties()) && rng.random::<f64>() < args.sample {
            picked.push(board);
        }
        let square = if ply < opening_plies || rng.random::<f64>() < 0.1 {
            let all: Vec<u32> = Bits(moves).collect();
            all[rng.random_range(0..all.len())]
        } else {
            score_move(board)
        };
        board = board.play(square);
        ply += 1;
    }
    picked
}

/// The move of a depth-2 full-width search.
fn score_move(board: Board) -> u32 {
    think(board, &Budget::unlimited(), full_width(2, 12)).lines[0]
        .square
        .expect("a side with a move does not pass")
}

/// A position's scores at depths 1, 2, … up to `max_depth`, stopping
/// before a search that reaches the end of the game or a forced result.
fn sample_of(board: Board, max_depth: u32) -> Sample {
    let empties = board.empties();
    let mut scores = Vec::new();
    for depth in 1..=max_depth.min(empties.saturating_sub(2)) {
        let score = score_at(board, depth);
        if score.abs() >= ESTIMATE_LIMIT {
            break;
        }
        scores.push(score);
    }
    Sample { empties, scores }
}

fn main() {
    let args = Args::parse();
    let threads = args.threads.unwrap_or_else(gamebot::arena::default_threads);
    let started = Instant::now();
    let positions: Vec<Board> = run_parallel(args.games, threads, |i| Ok(positions_of(&args, i)))
        .expect("self-play cannot fail")
        .into_iter()
        .flatten()
        .collect();
    eprintln!(
        "{} positions from {} games in {:.0} s",
        positions.len(),
        args.games,
        started.elapsed().as_secs_f64()
    );
    let samples = run_parallel(positions.len(), threads, |i| {
        Ok(sample_of(positions[i], args.max_depth))
    })
    .expect("searches cannot fail");
    let fits = fit_cuts(&samples);
    let command = format!(
        "cargo run --release -p gamebot-research --bin reversi_probcut -- --games {} --seed {} \
         --max-depth {} --sample {}",
        args.games, args.seed, args.max_depth, args.sample
    );
    let file = CutFile {
        command,
        positions: samples.len(),
        fits,
    };
    println!("| depth | shallow | empties | slope | intercept | sigma | positions |");
    println!("|---|---|---|---|---|---|---|");
    for f in &file.fits {
        println!(
            "| {} | {} | {}–{} | {:.3} | {:.0} | {:.0} | {} |",
            f.depth,
            f.shallow,
            f.min_empties,
            f.max_empties,
            f.slope,
            f.intercept,
            f.sigma,
            f.samples
        );
    }
    let text = serde_json::to_string_pretty(&file).expect("the file serialises") + "\n";
    CutFile::parse(&text).expect("the fitted file reads back");
    std::fs::write(&args.out, text).unwrap_or_else(|e| panic!("{}: {e}", args.out));
    eprintln!(
        "{} lines from {} positions written to {} in {:.0} s",
        file.fits.len(),
        samples.len(),
        args.out,
        started.elapsed().as_secs_f64()
    );
}
