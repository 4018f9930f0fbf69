//! Trains Reversi's pattern evaluation (`src/games/reversi/bots/patterns.rs`)
//! from self-play, reproducibly: one command with a seed.
//!
//! ```text
//! cargo run --release -p gamebot-research --bin reversi_train -- \
//!     --games 60000 --seed 1 --out src/games/reversi/bots/weights.bin
//! ```
//!
//! 1. **Self-play.** Each game opens with 6–14 random plies (from the seed
//!    and the game's number), then both sides play the `strong` engine as
//!    built (the shipped evaluation) at a fixed midgame depth with no clock,
//!    so the games are the same on any machine, with an occasional random
//!    move (`--epsilon`) for variety, and perfectly from `--solve` empties
//!    on (the exact solver).
//! 2. **Labels.** Every position after the opening where the mover has a
//!    move is labelled with the game's final disc difference from the
//!    mover's view. From `--solve` empties on both sides play perfectly, so
//!    those labels are the positions' exact values; earlier ones are the
//!    result of good play.
//! 3. **Fit.** Least squares with a little L2, by stochastic gradient
//!    descent in a seeded order, phase by phase
//!    (`gamebot::games::reversi::bots::train`), then the weights are written
//!    in the shipped file's form.
//!
//! `--save FILE` keeps the labelled positions (16 bytes and a label each)
//! and `--load FILE` fits from them again without the self-play, to try
//! fitting settings.

use clap::Parser;
use gamebot::arena::run_parallel;
use gamebot::game::Budget;
use gamebot::games::reversi::board::{Bits, Board};
use gamebot::games::reversi::bots::engine::{think, Evaluation, Plan};
use gamebot_research::reversi_fit::{fit, FitOptions, Sample};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Parser, Debug)]
struct Args {
    /// Self-play games.
    #[arg(long, default_value_t = 60_000)]
    games: usize,
    /// Seed of the openings, the random moves and the fit's order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The evaluation self-play searches with: `patterns` (the shipped
    /// weights, to improve on them) or `classic` (the hand-written one, to
    /// start from nothing).
    #[arg(long, default_value = "patterns", value_parser = ["patterns", "classic"])]
    eval: String,
    /// The engine's midgame depth in self-play.
    #[arg(long, default_value_t = 4)]
    depth: u32,
    /// Play perfectly (the exact solver) from this many empties.
    #[arg(long, default_value_t = 14)]
    solve: u32,
    /// The chance of a random move in the midgame.
    #[arg(long, default_value_t = 0.03)]
    epsilon: f64,
    /// Passes of the fit over the positions.
    #[arg(long, default_value_t = 12)]
    epochs: usize,
    /// The fit's first step size.
    #[arg(long, default_value_t = 0.003)]
    rate: f32,
    /// The fit's L2 penalty.
    #[arg(long, default_value_t = 0.0005)]
    l2: f32,
    /// Threads [default: the number of cores].
    #[arg(long)]
    threads: Option<usize>,
    /// Where to write the weights.
    #[arg(long, default_value = "src/games/reversi/bots/weights.bin")]
    out: PathBuf,
    /// Keep the labelled positions in this file.
    #[arg(long)]
    save: Option<PathBuf>,
    /// Fit from positions saved earlier instead of playing.
    #[arg(long)]
    load: Option<PathBuf>,
}

impl Args {
    fn evaluation(&self) -> Evaluation {
        match self.eval.as_str() {
            "classic" => Evaluation::Classic,
            _ => Evaluation::Patterns,
        }
    }
}

/// A seed for game `index` from the run's seed.
fn game_seed(seed: u64, index: usize) -> u64 {
    let mut x = seed ^ (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    x ^= x >> 31;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 29)
}

/// One self-play game's labelled positions.
fn self_play(args: &Args, index: usize) -> Vec<Sample> {
    let mut rng = ChaCha8Rng::seed_from_u64(game_seed(args.seed, index));
    let opening = rng.random_range(6..=14);
    let plan = Plan {
        max_depth: args.depth,
        solve_empties: args.solve,
        solve_nodes: None,
        top: 1,
        table_log2: Some(14),
        evaluation: args.evaluation(),
        probcut: None,
    };
    let budget = Budget::unlimited();
    let mut board = Board::start();
    // Each recorded position, and whether its mover is the side that
    // moved first (the labels are turned to each mover's view at the end).
    let mut seen: Vec<(Board, bool)> = Vec::new();
    let mut first_to_move = true;
    let mut ply = 0;
    while !board.is_over() {
        let moves = board.moves();
        if moves == 0 {
            board = board.pass();
            first_to_move = !first_to_move;
            continue;
        }
        let squares: Vec<u32> = Bits(moves).collect();
        let random =
            ply < opening || (board.empties() > args.solve && rng.random_bool(args.epsilon));
        let square = if random {
            squares[rng.random_range(0..squares.len())]
        } else {
            think(board, &budget, plan).lines[0]
                .square
                .expect("a side with a move does not pass")
        };
        if ply >= opening {
            seen.push((board, first_to_move));
        }
        board = board.play(square);
        first_to_move = !first_to_move;
        ply += 1;
    }
    let last = board.me.count_ones() as f32 - board.opp.count_ones() as f32;
    seen.into_iter()
        .map(|(position, first)| Sample {
            board: position,
            target: if first == first_to_move { last } else { -last },
        })
        .collect()
}

fn save(path: &PathBuf, samples: &[Sample]) -> std::io::Result<()> {
    let mut bytes = Vec::with_capacity(samples.len() * 20);
    for s in samples {
        bytes.extend(s.board.me.to_le_bytes());
        bytes.extend(s.board.opp.to_le_bytes());
        bytes.extend(s.target.to_le_bytes());
    }
    std::fs::write(path, bytes)
}

fn load(path: &PathBuf) -> std::io::Result<Vec<Sample>> {
    let bytes = std::fs::read(path)?;
    Ok(bytes
        .chunks_exact(20)
        .map(|c| Sample {
            board: Board {
                me: u64::from_le_bytes(c[0..8].try_into().expect("8 bytes")),
                opp: u64::from_le_bytes(c[8..16].try_into().expect("8 bytes")),
            },
            target: f32::from_le_bytes(c[16..20].try_into().expect("4 bytes")),
        })
        .collect())
}

fn main() {
    let args = Args::parse();
    let threads = args.threads.unwrap_or_else(gamebot::arena::default_threads);
    let started = Instant::now();
    let samples = match &args.load {
        Some(path) => load(path).expect("the saved positions can be read"),
        None => {
            let games = run_parallel(args.games, threads, |i| Ok(self_play(&args, i)))
                .expect("self-play cannot fail");
            games.into_iter().flatten().collect()
        }
    };
    let played = started.elapsed().as_secs_f64();
    println!(
        "{} positions from {} games in {played:.0} s ({:.0} positions a minute; depth {}, solved from {} empties)",
        samples.len(),
        args.games,
        samples.len() as f64 / played.max(1e-9) * 60.0,
        args.depth,
        args.solve
    );
    if let Some(path) = &args.save {
        save(path, &samples).expect("the positions can be saved");
    }
    let options = FitOptions {
        epochs: args.epochs,
        rate: args.rate,
        l2: args.l2,
        seed: args.seed,
        threads,
    };
    let fit_started = Instant::now();
    let (weights, report) = fit(&samples, &options);
    println!(
        "fit: {} epochs in {:.0} s; RMSE {:.2} discs with zero weights, {:.2} fitted",
        args.epochs,
        fit_started.elapsed().as_secs_f64(),
        report.rmse_before,
        report.rmse_after
    );
    std::fs::write(&args.out, weights.to_bytes()).expect("the weights can be written");
    println!(
        "wrote {} ({} bytes) in {:.0} s in all",
        args.out.display(),
        weights.to_bytes().len(),
        started.elapsed().as_secs_f64()
    );
}
