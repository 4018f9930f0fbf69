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
//!
//! With `--endgame` it fits the endgame's lines instead: positions with
//! 12–23 empties are solved exactly and searched at depths 1–8, and the
//! exact score's line on the shallow one is fitted per range of empties
//! (`fit_end_cuts`). The solved samples are kept in `--samples` (a JSON
//! lines file), so that a second run fits again without solving. Each mode
//! keeps the other's lines in the file.

use clap::Parser;
use gamebot::arena::run_parallel;
use gamebot::game::Budget;
use gamebot::games::reversi::board::{Bits, Board};
use gamebot::games::reversi::bots::engine::{think, Plan};
use gamebot::games::reversi::bots::probcut::CutFile;
use gamebot_research::reversi_probcut::{
    fit_cuts, fit_end, fit_end_cuts, EndSample, Sample, END_RANGES, PHASES,
};
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
    /// Fit the endgame's lines (exact score on shallow score) instead.
    #[arg(long)]
    endgame: bool,
    /// With `--endgame`: the solved samples, read when the file exists,
    /// else solved and written there.
    #[arg(long, default_value = "target/reversi-probcut-endgame.jsonl")]
    samples: String,
}

/// The deepest shallow search an endgame sample is scored at.
const END_SHALLOW_MAX: u32 = 8;

/// Scores beyond this (hundredths of a disc) are forced ends, not estimates.
const ESTIMATE_LIMIT: i32 = 6_400;

/// A full-width search to `depth` with a table of `2^table_log2` entries,
/// without the exact solver's shortcut at the root.
fn full_width(depth: u32, table_log2: u32) -> Plan {
    Plan::full_width(depth, table_log2)
}

/// The score of a full-width search of `board` to `depth`.
fn score_at(board: Board, depth: u32) -> i32 {
    think(board, &Budget::unlimited(), full_width(depth, 18)).lines[0].score
}

/// The positions game `index` passes through that are picked for
/// searching, among those with `first..=last` empties.
fn positions_of(args: &Args, index: usize, (first, last): (u32, u32)) -> Vec<Board> {
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed.wrapping_mul(0x9e37_79b9) ^ index as u64);
    let opening_plies = rng.random_range(2..=12);
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

/// An endgame position's exact score and its scores at depths 1 to
/// [`END_SHALLOW_MAX`], or `None` when a shallow search already sees a
/// forced end.
fn end_sample_of(board: Board) -> Option<EndSample> {
    let solved = think(
        board,
        &Budget::unlimited(),
        Plan {
            solve_empties: 64,
            ..full_width(60, 18)
        },
    );
    assert!(solved.proven, "an unlimited solve is proven");
    let mut shallow = Vec::new();
    for depth in 1..=END_SHALLOW_MAX {
        let score = score_at(board, depth);
        if score.abs() >= ESTIMATE_LIMIT {
            return None;
        }
        shallow.push(score);
    }
    Some(EndSample {
        empties: board.empties(),
        exact: 100 * solved.lines[0].score,
        shallow,
    })
}

/// The self-play positions with `range` empties, from every game.
fn all_positions(args: &Args, threads: usize, range: (u32, u32)) -> Vec<Board> {
    let started = Instant::now();
    let positions: Vec<Board> =
        run_parallel(args.games, threads, |i| Ok(positions_of(args, i, range)))
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
    positions
}

/// The file the fit goes into: the one at `--out` when it reads, so that
/// the other mode's lines stay.
fn existing_file(args: &Args) -> Option<CutFile> {
    let text = std::fs::read_to_string(&args.out).ok()?;
    CutFile::parse(&text).ok()
}

/// Writes `file` to `--out`, checking that it reads back.
fn write_file(args: &Args, file: &CutFile) {
    let text = serde_json::to_string_pretty(file).expect("the file serialises") + "\n";
    CutFile::parse(&text).expect("the fitted file reads back");
    std::fs::write(&args.out, text).unwrap_or_else(|e| panic!("{}: {e}", args.out));
}

/// The endgame samples: read from `--samples`, or solved and written there.
fn end_samples(args: &Args, threads: usize) -> Vec<EndSample> {
    if let Ok(text) = std::fs::read_to_string(&args.samples) {
        let samples: Vec<EndSample> = text
            .lines()
            .map(|l| serde_json::from_str(l).expect("a sample line"))
            .collect();
        eprintln!("{} samples read from {}", samples.len(), args.samples);
        return samples;
    }
    let range = (END_RANGES[0].0, END_RANGES[END_RANGES.len() - 1].1);
    let positions = all_positions(args, threads, range);
    let samples: Vec<EndSample> = run_parallel(positions.len(), threads, |i| {
        Ok(end_sample_of(positions[i]))
    })
    .expect("searches cannot fail")
    .into_iter()
    .flatten()
    .collect();
    let lines: String = samples
        .iter()
        .map(|s| serde_json::to_string(s).expect("a sample serialises") + "\n")
        .collect();
    std::fs::write(&args.samples, lines).unwrap_or_else(|e| panic!("{}: {e}", args.samples));
    samples
}

/// `--endgame`: fits the endgame's lines, printing every shallow depth's.
fn fit_endgame(args: &Args, threads: usize) {
    let started = Instant::now();
    let samples = end_samples(args, threads);
    println!("| empties | shallow | slope | intercept | sigma | positions |");
    println!("|---|---|---|---|---|---|");
    for range in END_RANGES {
        for shallow in 1..=END_SHALLOW_MAX {
            if let Some(f) = fit_end(&samples, shallow, range) {
                println!(
                    "| {}–{} | {} | {:.3} | {:.0} | {:.0} | {} |",
                    f.min_empties,
                    f.max_empties,
                    f.shallow,
                    f.slope,
                    f.intercept,
                    f.sigma,
                    f.samples
                );
            }
        }
    }
    let mut file = existing_file(args).expect("--endgame adds to a file with the midgame's lines");
    file.endgame = fit_end_cuts(&samples);
    file.endgame_positions = samples.len();
    file.endgame_command = format!(
        "cargo run --release -p gamebot-research --bin reversi_probcut -- --endgame --games {} \
         --seed {} --sample {}",
        args.games, args.seed, args.sample
    );
    write_file(args, &file);
    eprintln!(
        "{} endgame lines from {} positions written to {} in {:.0} s",
        file.endgame.len(),
        samples.len(),
        args.out,
        started.elapsed().as_secs_f64()
    );
}

fn main() {
    let args = Args::parse();
    let threads = args.threads.unwrap_or_else(gamebot::arena::default_threads);
    if args.endgame {
        fit_endgame(&args, threads);
        return;
    }
    let started = Instant::now();
    let positions = all_positions(&args, threads, (PHASES[0].0, PHASES[PHASES.len() - 1].1));
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
    let kept = existing_file(&args);
    let file = CutFile {
        command,
        positions: samples.len(),
        fits,
        endgame_command: kept
            .as_ref()
            .map(|f| f.endgame_command.clone())
            .unwrap_or_default(),
        endgame_positions: kept.as_ref().map_or(0, |f| f.endgame_positions),
        endgame: kept.map(|f| f.endgame).unwrap_or_default(),
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
    write_file(&args, &file);
    eprintln!(
        "{} lines from {} positions written to {} in {:.0} s",
        file.fits.len(),
        samples.len(),
        args.out,
        started.elapsed().as_secs_f64()
    );
}
