//! Times the move generators and the exact solver, for comparing two builds
//! side by side: Reversi perft(11) from the start, Advance perft(5) from
//! the start, each counted and timed, the best of `--rounds`.
//!
//! ```text
//! cargo run --release -p gamebot-research --bin perft_timing -- --rounds 3
//! ```

use clap::Parser;
use gamebot::games::advance::movegen::perft as advance_perft;
use gamebot::games::advance::State as AdvanceState;
use gamebot::games::reversi::board::Board;
use gamebot::games::reversi::perft::perft as reversi_perft;
use std::time::Instant;

#[derive(Parser, Debug)]
struct Args {
    /// Rounds of each count; the fastest is printed.
    #[arg(long, default_value_t = 3)]
    rounds: u32,
}

fn best_of<F: FnMut() -> u64>(rounds: u32, mut count: F) -> (u64, f64) {
    let mut best = f64::INFINITY;
    let mut leaves = 0;
    for _ in 0..rounds {
        let started = Instant::now();
        leaves = count();
        best = best.min(started.elapsed().as_secs_f64());
    }
    (leaves, best)
}

fn main() {
    let args = Args::parse();
    let (leaves, seconds) = best_of(args.rounds, || reversi_perft(Board::start(), 11));
    println!(
        "reversi perft(11) = {leaves} in {seconds:.3} s ({:.0} M leaves/s)",
        leaves as f64 / seconds / 1e6
    );
    let (leaves, seconds) = best_of(args.rounds, || advance_perft(&mut AdvanceState::start(), 5));
    println!(
        "advance perft(5) = {leaves} in {seconds:.3} s ({:.1} M nodes/s)",
        leaves as f64 / seconds / 1e6
    );
}
