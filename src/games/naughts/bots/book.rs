//! The opening book of the 3×3 board: exact answers for positions that take
//! too long to solve within a request, written by the research command
//! `naughts_opening_book` from [`opening_book_lines`], read once.

use super::solver::Solver;
use crate::game::{Budget, StopReason};
use crate::games::naughts::state::{Move, State};
use std::collections::HashMap;
use std::sync::OnceLock;

/// The opening book: exact answers for 3×3 positions that take too long to
/// solve within a request (the empty board and every reply to a first move,
/// for 6 to 9 pieces), written by the research command `naughts_opening_book`
/// from [`opening_book_lines`].
/// One line per position: canonical key (hex), best cell and size rank in the
/// canonical frame, score.
const BOOK: &str = include_str!("opening_book.txt");

/// Book entries by canonical key: the best move in the canonical frame, and the score.
type Book = HashMap<u64, ((u8, u8), i32)>;

/// The book, parsed once.
fn book() -> &'static Book {
    static BOOK_TABLE: OnceLock<Book> = OnceLock::new();
    BOOK_TABLE.get_or_init(|| {
        BOOK.lines()
            .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
            .filter_map(|line| {
                let fields: Vec<&str> = line.split_whitespace().collect();
                let key = u64::from_str_radix(fields.first()?, 16).ok()?;
                let cell = fields.get(1)?.parse().ok()?;
                let rank = fields.get(2)?.parse().ok()?;
                let score = fields.get(3)?.parse().ok()?;
                Some((key, ((cell, rank), score)))
            })
            .collect()
    })
}

/// The book's answer for `state` (a legal move and its exact score), if it has one.
pub fn book_move(state: &State) -> Option<(Move, i32)> {
    if state.grid() != 3 {
        return None;
    }
    let budget = Budget::unlimited();
    let solver = Solver::for_keys(3, &budget);
    let node = solver.geometry.node(state);
    let canon = solver.geometry.canonical(&node);
    let &(best, score) = book().get(&canon.key)?;
    let mv = solver.unmap_canonical(best, &canon)?;
    state.allows(&mv).then_some((mv, score))
}

/// Solves `state` from scratch and returns its book line, if the value is proven.
pub fn book_line(state: &State, tt_log2: u32) -> Option<String> {
    let budget = Budget::unlimited();
    let mut solver = Solver::new(state.grid(), &budget, tt_log2);
    let solution = solver.solve(state, false);
    if solution.stopped_by != StopReason::Proven {
        return None;
    }
    let node = solver.geometry.node(state);
    let canon = solver.geometry.canonical(&node);
    let best = &solution.moves[0];
    let (cell, rank) = solver.map_canonical(best.mv, &canon);
    Some(format!("{:016x} {cell} {rank} {}", canon.key, best.score))
}

/// The opening book's lines for `pieces` pieces a side, in the order
/// `opening_book.txt` lists them: the empty 3×3 board, then the position after
/// each first move, one line per canonical position (see [`book_line`]), each
/// solved from scratch with a table of 2^22 slots. Lazy: each line is solved
/// when it is asked for. The book (6 to 9 pieces) is written by
/// `cargo run --release -p gamebot-research --bin naughts_opening_book`, and a
/// unit test checks the checked-in book against this for 6 pieces.
pub fn opening_book_lines(pieces: u8) -> impl Iterator<Item = String> {
    let start = State::new(3, pieces);
    let mut firsts = Vec::new();
    start.legal_moves(&mut firsts);
    let mut keys = std::collections::HashSet::new();
    std::iter::once(start)
        .chain(firsts.into_iter().map(move |mv| start.apply(&mv)))
        .map(|state| book_line(&state, 22).expect("an unlimited 3×3 solve is proven"))
        .filter(move |line| keys.insert(line[..16].to_string()))
}
