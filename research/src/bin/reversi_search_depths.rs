//! How deep Reversi's `strong` level searches under a time budget, and how
//! fast: one position per number of empty squares (50 down to 16, reached by
//! random moves from the start), searched for 10, 100 and 1,000 ms, with the
//! depth reached, the nodes, the speed, the score and whether it was proven
//! (from 20 or so empties the endgame solver takes over).
//!
//! ```text
//! cargo run --release -p gamebot-research --bin reversi_search_depths -- [SEED]
//! ```
//!
//! `SEED` (default 5) picks the random positions.

use gamebot::game::{BotParams, Bots, Budget, LevelSpec, Side};
use gamebot::games::reversi::board::{Bits, Board};
use gamebot::games::reversi::{Reversi, State};
use std::time::Instant;

/// splitmix64: a small, seeded generator, enough to pick random moves.
fn next(seed: &mut u64) -> u64 {
    *seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *seed;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A position with `empties` empty squares reached by random moves, if the
/// game lasts that long.
fn random_position(seed: &mut u64, empties: u32) -> Option<Board> {
    let mut board = Board::start();
    while board.empties() > empties {
        let moves = board.moves();
        if moves == 0 {
            if board.opp_moves() == 0 {
                return None;
            }
            board = board.pass();
            continue;
        }
        let all: Vec<u32> = Bits(moves).collect();
        board = board.play(all[(next(seed) % all.len() as u64) as usize]);
    }
    (!board.is_over()).then_some(board)
}

/// A report field for the table: its value, or `-` when the search left it out.
fn show<T: std::fmt::Debug>(value: Option<T>) -> String {
    value.map_or("-".to_string(), |v| format!("{v:?}").to_lowercase())
}

fn main() {
    let mut seed: u64 = std::env::args().nth(1).map_or(5, |a| {
        a.parse().unwrap_or_else(|_| panic!("not a seed: {a}"))
    });
    let level = LevelSpec::parse("strong").expect("a level");
    println!(
        "| empties | budget | depth | nodes | M nodes/s | score | stopped by | proven | took |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for empties in [50, 40, 30, 24, 20, 18, 16] {
        let Some(board) = random_position(&mut seed, empties) else {
            continue;
        };
        let state = State::from_board(board, Side::First);
        for ms in [10, 100, 1000] {
            let started = Instant::now();
            let choice = Reversi::choose_move(
                &state,
                &level,
                &BotParams::seeded(0),
                &Budget::with_time_ms(ms),
            )
            .expect("a move");
            let took = started.elapsed().as_secs_f64() * 1000.0;
            let r = choice.report;
            let nodes = r.nodes.unwrap_or(0);
            println!(
                "| {empties} | {ms} ms | {} | {nodes} | {:.1} | {} | {} | {} | {took:.1} ms |",
                show(r.depth),
                nodes as f64 / took / 1000.0,
                show(r.score),
                show(r.stopped_by),
                show(r.proven),
            );
        }
    }
}
