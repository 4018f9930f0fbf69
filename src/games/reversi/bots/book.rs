//! The opening book: positions of the first plies with the engine's score
//! of each, from deep searches made offline by the research command
//! `reversi_book` (`research/src/bin/reversi_book.rs`) and shipped inside
//! the binary (`book.bin`).
//!
//! Positions are stored once per class of the board's 8 symmetries (their
//! [`canonical`] form), so a book position is found whichever way the
//! game turned. A position is *in book* when every move it has leads to a
//! stored position: then each move's value is minus its child's score, and
//! [`Book::choose`] picks among the moves within a margin of the best, by
//! the request's seed, so that games vary.

use crate::game::Symmetry;
use crate::games::reversi::board::{transform_bits, Bits, Board};
use rand::Rng;
use std::sync::OnceLock;

/// The first bytes of a book file, with its format's version.
const MAGIC: &[u8; 8] = b"GBRVB001";
/// Bytes per stored position: the two bitboards and the score.
const ENTRY_BYTES: usize = 8 + 8 + 2;

/// A position in the form shared by its 8 symmetric images: the smallest
/// `(me, opp)` among them.
pub fn canonical(board: Board) -> (u64, u64) {
    Symmetry::SQUARE
        .iter()
        .map(|&s| (transform_bits(board.me, s), transform_bits(board.opp, s)))
        .min()
        .expect("eight symmetries")
}

/// One stored position and the engine's score of it for its mover, in
/// hundredths of a disc.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// The position's [`canonical`] form: the mover's discs.
    pub me: u64,
    /// The opponent's discs.
    pub opp: u64,
    /// The score for the mover.
    pub score: i16,
}

/// A move out of a book position with its value for the mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The square played.
    pub square: u32,
    /// Minus the stored score of the position it leads to.
    pub value: i32,
}

/// The book: its entries sorted by position, looked up by binary search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    entries: Vec<BookEntry>,
}

impl Book {
    /// A book of `entries` (any order; a position given twice keeps its first score).
    pub fn new(mut entries: Vec<BookEntry>) -> Book {
        entries.sort_by_key(|e| (e.me, e.opp));
        entries.dedup_by_key(|e| (e.me, e.opp));
        Book { entries }
    }

    /// How many positions it holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The stored score of `board` for its mover, if it is stored.
    pub fn score(&self, board: Board) -> Option<i32> {
        let key = canonical(board);
        self.entries
            .binary_search_by_key(&key, |e| (e.me, e.opp))
            .ok()
            .map(|i| i32::from(self.entries[i].score))
    }

    /// Every move of `board` with its value, best first, when `board` is in
    /// book (it has moves and each leads to a stored position).
    pub fn moves(&self, board: Board) -> Option<Vec<BookMove>> {
        let moves = board.moves();
        if moves == 0 {
            return None;
        }
        let mut scored = Bits(moves)
            .map(|square| {
                let value = -self.score(board.play(square))?;
                Some(BookMove { square, value })
            })
            .collect::<Option<Vec<BookMove>>>()?;
        scored.sort_by_key(|m| (-m.value, m.square));
        Some(scored)
    }

    /// A move of `board` from the book: one of those within `margin`
    /// (hundredths of a disc) of the best, drawn by `rng`; `None` when the
    /// position is not in book.
    pub fn choose(&self, board: Board, margin: i32, rng: &mut impl Rng) -> Option<BookMove> {
        let moves = self.moves(board)?;
        let best = moves[0].value;
        let near: Vec<BookMove> = moves
            .into_iter()
            .take_while(|m| m.value >= best - margin)
            .collect();
        Some(near[rng.random_range(0..near.len())])
    }

    /// The file form: the magic, the entry count (little-endian `u32`),
    /// then each entry's `me`, `opp` (little-endian `u64`) and score
    /// (little-endian `i16`), in position order.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend((self.entries.len() as u32).to_le_bytes());
        for e in &self.entries {
            out.extend(e.me.to_le_bytes());
            out.extend(e.opp.to_le_bytes());
            out.extend(e.score.to_le_bytes());
        }
        out
    }

    /// Reads [`Book::to_bytes`]'s form; `Err` says what is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, String> {
        let header = MAGIC.len() + 4;
        if bytes.len() < header || &bytes[..MAGIC.len()] != MAGIC {
            return Err("not a gamebot Reversi book (bad magic)".to_string());
        }
        let count = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes")) as usize;
        let body = &bytes[header..];
        if body.len() != count * ENTRY_BYTES {
            return Err(format!(
                "{} bytes of entries, expected {count} of {ENTRY_BYTES}",
                body.len()
            ));
        }
        let entries: Vec<BookEntry> = body
            .chunks_exact(ENTRY_BYTES)
            .map(|c| BookEntry {
                me: u64::from_le_bytes(c[0..8].try_into().expect("8 bytes")),
                opp: u64::from_le_bytes(c[8..16].try_into().expect("8 bytes")),
                score: i16::from_le_bytes(c[16..18].try_into().expect("2 bytes")),
            })
            .collect();
        for (i, e) in entries.iter().enumerate() {
            if e.me & e.opp != 0 || canonical(Board::new(e.me, e.opp)) != (e.me, e.opp) {
                return Err(format!("entry {i} is not a canonical position"));
            }
            if i > 0 && (entries[i - 1].me, entries[i - 1].opp) >= (e.me, e.opp) {
                return Err(format!("entry {i} is out of order"));
            }
        }
        Ok(Book { entries })
    }
}

/// The shipped book, built by `research/src/bin/reversi_book.rs`.
static SHIPPED: &[u8] = include_bytes!("book.bin");

/// The shipped book, read once.
pub fn shipped() -> &'static Book {
    static BOOK: OnceLock<Book> = OnceLock::new();
    BOOK.get_or_init(|| Book::from_bytes(SHIPPED).expect("the shipped book is valid"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// A book holding every position one move from the start.
    fn small_book() -> Book {
        let start = Board::start();
        let entries = Bits(start.moves())
            .map(|sq| {
                let (me, opp) = canonical(start.play(sq));
                BookEntry {
                    me,
                    opp,
                    score: -30,
                }
            })
            .collect();
        Book::new(entries)
    }

    #[test]
    fn symmetric_images_share_one_canonical_form() {
        let board = Board::start().play(19).play(18);
        for s in Symmetry::SQUARE {
            let turned = Board::new(transform_bits(board.me, s), transform_bits(board.opp, s));
            assert_eq!(canonical(turned), canonical(board));
        }
    }

    #[test]
    fn the_first_moves_are_all_the_same_and_a_book_of_them_is_in_book() {
        let book = small_book();
        // The four first moves are symmetric images of one another.
        assert_eq!(book.len(), 1);
        let moves = book.moves(Board::start()).unwrap();
        assert_eq!(moves.len(), 4);
        assert!(moves.iter().all(|m| m.value == 30));
        assert_eq!(book.moves(Board::start().play(19)), None);
    }

    #[test]
    fn choose_draws_among_the_moves_within_the_margin_by_the_seed() {
        let start = Board::start().play(19);
        let replies: Vec<u32> = Bits(start.moves()).collect();
        let entries = replies
            .iter()
            .zip([-120, -100, 300])
            .map(|(&sq, score)| {
                let (me, opp) = canonical(start.play(sq));
                BookEntry { me, opp, score }
            })
            .collect();
        let book = Book::new(entries);
        let moves = book.moves(start).unwrap();
        assert_eq!(moves.len(), 3);
        assert_eq!(moves[0].value, 120);
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..40 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let chosen = book.choose(start, 50, &mut rng).unwrap();
            assert!(chosen.value >= 70, "{chosen:?}");
            seen.insert(chosen.square);
            let mut again = ChaCha8Rng::seed_from_u64(seed);
            assert_eq!(book.choose(start, 50, &mut again), Some(chosen));
        }
        assert_eq!(seen.len(), 2, "both near-best moves are drawn");
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        assert_eq!(book.choose(start, 0, &mut rng).unwrap().value, 120);
    }

    #[test]
    fn the_file_form_reads_back_and_refuses_damage() {
        let book = small_book();
        let bytes = book.to_bytes();
        assert_eq!(Book::from_bytes(&bytes).unwrap(), book);
        assert!(Book::from_bytes(b"GBRVW001....")
            .unwrap_err()
            .contains("magic"));
        let mut short = bytes.clone();
        short.pop();
        assert!(Book::from_bytes(&short).unwrap_err().contains("expected"));
        let mut turned = bytes.clone();
        // A non-canonical image of the stored position.
        let (me, opp) = (book.entries[0].me, book.entries[0].opp);
        let image = Symmetry::SQUARE
            .iter()
            .map(|&s| (transform_bits(me, s), transform_bits(opp, s)))
            .find(|&p| p != (me, opp))
            .unwrap();
        turned[12..20].copy_from_slice(&image.0.to_le_bytes());
        turned[20..28].copy_from_slice(&image.1.to_le_bytes());
        assert!(Book::from_bytes(&turned).unwrap_err().contains("canonical"));
    }

    #[test]
    fn the_shipped_book_reads_and_the_start_is_in_it() {
        let book = shipped();
        assert!(!book.is_empty());
        assert!(book.moves(Board::start()).is_some());
    }
}
