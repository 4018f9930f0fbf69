//! Writes Naughts' opening book, `src/games/naughts/bots/opening_book.txt`: the
//! exact answer for the empty 3×3 board and for every reply position after a
//! first move, for 6 to 9 pieces a side, each solved from scratch (the 3×3
//! positions that take too long to solve within a request). The lines come
//! from `gamebot::games::naughts::bots::book::opening_book_lines`, and a unit test
//! of the library checks the checked-in book against it for 6 pieces, so a
//! change to the solver's scores or move choice shows there first.
//!
//! ```text
//! cargo run --release -p gamebot-research --bin naughts_opening_book -- [PATH]
//! ```
//!
//! `PATH` defaults to the checked-in book. Each line is printed with the time
//! its cold solve took as it is found (about two minutes in all on a 2-core
//! machine, most of it the 9-piece positions).

use gamebot::games::naughts::bots::book::opening_book_lines;
use std::time::Instant;

/// The book's header; its second line is checked by the library's unit test.
const HEADER: [&str; 2] = [
    "# naughts opening book: canonical key (hex), best cell, best size rank, score.",
    "# Regenerate: cargo run --release -p gamebot-research --bin naughts_opening_book",
];

fn main() {
    let path = std::env::args().nth(1).unwrap_or_else(|| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../src/games/naughts/bots/opening_book.txt"
        )
        .to_string()
    });
    let started = Instant::now();
    let mut lines: Vec<String> = HEADER.iter().map(|h| h.to_string()).collect();
    for pieces in 6..=9u8 {
        let mut book = opening_book_lines(pieces);
        loop {
            let solving = Instant::now();
            let Some(line) = book.next() else { break };
            println!("{pieces} pieces: {line} ({:?})", solving.elapsed());
            lines.push(line);
        }
    }
    std::fs::write(&path, lines.join("\n") + "\n")
        .unwrap_or_else(|e| panic!("cannot write {path}: {e}"));
    println!(
        "{} positions written to {path} in {:.1} s",
        lines.len() - HEADER.len(),
        started.elapsed().as_secs_f64()
    );
}
