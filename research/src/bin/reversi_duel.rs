//! Two Reversi evaluations head to head: a weights file (a training run's
//! output) against the shipped weights, or against the hand-written
//! evaluation, both searching the same fixed depth with no clock, so the
//! result depends on the evaluations alone and repeats exactly. Every
//! opening (random plies from the seed) is played twice, colours swapped.
//!
//! ```text
//! cargo run --release -p gamebot-research --bin reversi_duel -- \
//!     --a /tmp/gen2.bin --b shipped --games 200 --depth 6
//! ```

use clap::Parser;
use gamebot::arena::run_parallel;
use gamebot::arena::stats::elo_estimate;
use gamebot::game::Budget;
use gamebot::games::reversi::board::{Bits, Board};
use gamebot::games::reversi::bots::engine::{think, Evaluation, Plan};
use gamebot::games::reversi::bots::patterns::Weights;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[derive(Parser, Debug)]
struct Args {
    /// A weights file, `shipped` or `classic`.
    #[arg(long)]
    a: String,
    /// The other side, written like `--a`.
    #[arg(long, default_value = "shipped")]
    b: String,
    /// Games (an even number: each opening twice).
    #[arg(long, default_value_t = 200)]
    games: usize,
    /// Midgame depth of both sides.
    #[arg(long, default_value_t = 6)]
    depth: u32,
    /// Both play perfectly from this many empties.
    #[arg(long, default_value_t = 14)]
    solve: u32,
    /// Random plies that open each game.
    #[arg(long, default_value_t = 8)]
    random_plies: usize,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads [default: the number of cores].
    #[arg(long)]
    threads: Option<usize>,
}

fn evaluation(name: &str) -> Evaluation {
    match name {
        "shipped" => Evaluation::Patterns,
        "classic" => Evaluation::Classic,
        path => {
            let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
            let weights = Weights::from_bytes(&bytes).unwrap_or_else(|e| panic!("{path}: {e}"));
            Evaluation::Weights(Box::leak(Box::new(weights)))
        }
    }
}

/// The final disc difference from A's view of game `index`.
fn play(args: &Args, sides: [Evaluation; 2], index: usize) -> i32 {
    let mut rng =
        ChaCha8Rng::seed_from_u64(args.seed ^ (index as u64 / 2).wrapping_mul(0x9e37_79b9));
    let a_black = index % 2 == 0;
    let mut board = Board::start();
    let mut black_to_move = true;
    let mut ply = 0;
    while !board.is_over() {
        let moves = board.moves();
        if moves == 0 {
            board = board.pass();
            black_to_move = !black_to_move;
            continue;
        }
        let square = if ply < args.random_plies {
            let all: Vec<u32> = Bits(moves).collect();
            all[rng.random_range(0..all.len())]
        } else {
            let a_moves = black_to_move == a_black;
            let plan = Plan {
                max_depth: args.depth,
                solve_empties: args.solve,
                solve_nodes: None,
                top: 1,
                include: None,
                table_log2: Some(16),
                evaluation: sides[usize::from(!a_moves)],
                probcut: None,
            };
            think(board, &Budget::unlimited(), plan).lines[0]
                .square
                .expect("a side with a move does not pass")
        };
        board = board.play(square);
        black_to_move = !black_to_move;
        ply += 1;
    }
    let mover = board.me.count_ones() as i32 - board.opp.count_ones() as i32;
    let black = if black_to_move { mover } else { -mover };
    if a_black {
        black
    } else {
        -black
    }
}

fn main() {
    let args = Args::parse();
    let sides = [evaluation(&args.a), evaluation(&args.b)];
    let threads = args.threads.unwrap_or_else(gamebot::arena::default_threads);
    let margins = run_parallel(args.games, threads, |i| Ok(play(&args, sides, i)))
        .expect("games cannot fail");
    let wins = margins.iter().filter(|&&m| m > 0).count();
    let draws = margins.iter().filter(|&&m| m == 0).count();
    let points: Vec<f64> = margins
        .iter()
        .map(|&m| match m.signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        })
        .collect();
    let score = points.iter().sum::<f64>() / points.len() as f64;
    let elo = match elo_estimate(&points) {
        Some(e) => format!("Elo {:+.0}, 95% {:+.0} to {:+.0}", e.diff, e.low, e.high),
        None => "no finite Elo".to_string(),
    };
    println!(
        "{} vs {}: {} games at depth {}: {wins} / {draws} / {} (A {:.1}%, {elo}), mean margin {:+.2}",
        args.a,
        args.b,
        margins.len(),
        args.depth,
        margins.len() - wins - draws,
        score * 100.0,
        margins.iter().sum::<i32>() as f64 / margins.len() as f64
    );
}
