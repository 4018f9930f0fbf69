//! Which first moves lose on Naughts' classic 3×3 board: for 6 to 9 pieces a
//! side, the first moves after which the opening book says the reply wins
//! (with the loss's length in plies, the first move included); for 5 pieces,
//! which the book does not hold, the first moves an exact analysis of the
//! empty board scores as losses.
//!
//! ```text
//! cargo run --release -p gamebot-research --bin naughts_first_moves
//! ```

use gamebot::game::{BotParams, Bots, Budget};
use gamebot::games::naughts::bots::book::book_move;
use gamebot::games::naughts::bots::solver::describe;
use gamebot::games::naughts::{notation, Naughts, State};

fn main() {
    for pieces in 6..=9u8 {
        let start = State::new(3, pieces);
        let mut firsts = Vec::new();
        start.legal_moves(&mut firsts);
        let losing: Vec<String> = firsts
            .iter()
            .filter_map(|mv| {
                let (_, reply) = book_move(&start.apply(mv))?;
                // The reply's score is its mover's; one ply more for the first.
                (reply > 0).then(|| format!("{} ({})", notation::notation(mv), describe(1 - reply)))
            })
            .collect();
        println!("{pieces} pieces: first moves that lose: {losing:?}");
    }
    let start = State::new(3, 5);
    let analysis = Naughts::analyze(&start, 100, &BotParams::seeded(0), &Budget::unlimited())
        .expect("the empty board has moves");
    let losing: Vec<String> = analysis
        .moves
        .iter()
        .filter(|m| m.score < 0)
        .map(|m| {
            format!(
                "{} ({})",
                notation::turn_notation(&m.mv),
                m.exact.as_deref().unwrap_or("?")
            )
        })
        .collect();
    println!("5 pieces: first moves that lose: {losing:?}");
}
