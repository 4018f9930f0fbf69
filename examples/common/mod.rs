//! What the Number Crush diagnostics share: their count arguments and the
//! boards they study, taken from greedy games.

// Each example uses part of it.
#![allow(dead_code)]

use gamebot::game::Game;
use gamebot::games::crush::bot;
use gamebot::games::crush::moves::Swap;
use gamebot::games::crush::{Crush, State};

/// Boards taken per game: every 10th swap, from swap 5.
const EVERY: u64 = 10;

/// The command line's arguments as counts, in order.
pub fn counts() -> impl Iterator<Item = u64> {
    std::env::args().skip(1).map(|a| {
        a.parse::<u64>()
            .unwrap_or_else(|_| panic!("not a count: {a}"))
    })
}

/// A board from a greedy game, with where it comes from and greedy's swap.
pub struct GreedyBoard {
    /// The game: its seed is 100 plus this.
    pub game: u64,
    /// The swap number in that game.
    pub swap: u64,
    /// The state before the swap.
    pub state: State,
    /// Greedy's swap there.
    pub greedy: Swap,
}

/// Boards of `games` greedy games (seeds 100 and up) with digits `1..=k`,
/// every 10th swap from swap 5.
pub fn greedy_boards(games: u64, k: u8) -> Vec<GreedyBoard> {
    let mut boards = Vec::new();
    for game in 0..games {
        let mut state = Crush::new_seeded(k, 100 + game as u32);
        for swap in 0..100u64 {
            let (greedy, _) = bot::greedy(&state.board);
            if swap % EVERY == EVERY / 2 {
                boards.push(GreedyBoard {
                    game,
                    swap,
                    state: state.clone(),
                    greedy,
                });
            }
            state = Crush::apply(&state, &greedy);
        }
    }
    boards
}
