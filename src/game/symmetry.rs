//! Board symmetries: the turns and mirrors under which a game's rules treat
//! positions alike, so that one search answers a position and all its
//! symmetric twins.
//!
//! A game names its symmetries in [`Rules::SYMMETRIES`] and says how each
//! one moves a state and a move. [`canonical`] picks, among a state's
//! twins, the one a search is run on; the answer is turned back to the
//! position asked about. Searching the canonical twin makes every answer
//! equivariant: a turned position gets the turned answer, whatever the
//! search's tie-breaks by square order, so twins can share a cache entry.
//!
//! A level whose docs promise a tie-break by the order of the position as
//! given keeps that promise instead (Reversi's `norvig` takes the first
//! best square in row-major order; a game says which of its levels do in
//! [`Bots::breaks_ties_in_given_order`](super::Bots::breaks_ties_in_given_order)):
//! [`search_frame`] leaves its position as it is, and [`searched_as_given`]
//! tells the position cache not to share its answers between twins.

use super::ladder::{AnyLevel, Ladder, Rung};
use super::{Codec, Rules};

/// One of the eight symmetries of a square board (the dihedral group of
/// the square): an optional transposition (row and column swapped),
/// followed by optional mirrors of the rows and of the columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Symmetry {
    transpose: bool,
    flip_rows: bool,
    flip_cols: bool,
}

impl Symmetry {
    /// The symmetry that leaves the board as it is.
    pub const IDENTITY: Symmetry = Symmetry::new(false, false, false);

    /// All eight, the identity first.
    pub const SQUARE: [Symmetry; 8] = [
        Symmetry::IDENTITY,
        Symmetry::new(false, false, true),
        Symmetry::new(false, true, false),
        Symmetry::new(false, true, true),
        Symmetry::new(true, false, false),
        Symmetry::new(true, false, true),
        Symmetry::new(true, true, false),
        Symmetry::new(true, true, true),
    ];

    const fn new(transpose: bool, flip_rows: bool, flip_cols: bool) -> Self {
        Symmetry {
            transpose,
            flip_rows,
            flip_cols,
        }
    }

    /// Where the square at (`row`, `col`) of a `size` × `size` board goes.
    pub fn square(self, row: usize, col: usize, size: usize) -> (usize, usize) {
        let (row, col) = if self.transpose {
            (col, row)
        } else {
            (row, col)
        };
        let row = if self.flip_rows { size - 1 - row } else { row };
        let col = if self.flip_cols { size - 1 - col } else { col };
        (row, col)
    }

    /// The symmetry that undoes this one.
    pub fn inverse(self) -> Symmetry {
        if self.transpose {
            // Undoing "transpose, then mirror" mirrors first; a mirror of
            // the rows before a transposition is one of the columns after.
            Symmetry::new(true, self.flip_cols, self.flip_rows)
        } else {
            self
        }
    }
}

/// The twin of `state` that searches run on, and the symmetry that turns
/// `state` into it: of the game's symmetries, the one whose image has the
/// smallest [`Rules::twin_key`] (the identity for a game without
/// symmetries). Twins get the same canonical state.
pub fn canonical<G: Rules>(state: &G::State) -> (G::State, Symmetry) {
    let mut best = (state.clone(), Symmetry::IDENTITY);
    if G::SYMMETRIES.is_empty() {
        return best;
    }
    let mut best_key = G::twin_key(state);
    for &symmetry in G::SYMMETRIES {
        let image = G::transform_state(state, symmetry);
        let key = G::twin_key(&image);
        if key < best_key {
            best = (image, symmetry);
            best_key = key;
        }
    }
    best
}

/// Whether two states are the same position up to the game's symmetries:
/// the same canonical twin, or for a game without symmetries, the same
/// state.
pub fn are_twins<G: Rules + Codec>(one: &G::State, other: &G::State) -> bool {
    same_canonical::<G>(&canonical::<G>(one).0, &canonical::<G>(other).0)
}

/// Whether two canonical twins ([`canonical`]) are the same state: their
/// keys compared, or for a game without symmetries (which has no key),
/// their JSON forms.
pub fn same_canonical<G: Rules + Codec>(one: &G::State, other: &G::State) -> bool {
    if G::SYMMETRIES.is_empty() {
        G::state_to_json(one) == G::state_to_json(other)
    } else {
        G::twin_key(one) == G::twin_key(other)
    }
}

/// Whether a bot at `level` searches the position as given rather than
/// its canonical twin: a named level that breaks ties by the order of the
/// position as given, or a rung of the ladder that plays such a level
/// (its [`Rung::Capped`] rungs play the default level; a
/// [`Rung::Sampled`] rung draws from an analysis, which runs on the twin).
pub fn searched_as_given<G: Ladder>(level: &AnyLevel<G::Level>) -> bool {
    match level {
        AnyLevel::Named(spec) => G::breaks_ties_in_given_order(spec.level),
        AnyLevel::Numbered(n) => match G::LADDER.get(usize::from(*n).wrapping_sub(1)) {
            Some(Rung::Capped { .. }) => G::breaks_ties_in_given_order(G::DEFAULT_LEVEL),
            Some(Rung::Sampled { .. }) | None => false,
        },
    }
}

/// The state a bot at `level` searches and the symmetry that turns `state`
/// into it: `state` itself where the level breaks ties by the order of the
/// position as given ([`searched_as_given`]), else its [`canonical`] twin.
pub fn search_frame<G: Ladder>(
    state: &G::State,
    level: &AnyLevel<G::Level>,
) -> (G::State, Symmetry) {
    if searched_as_given::<G>(level) {
        (state.clone(), Symmetry::IDENTITY)
    } else {
        canonical::<G>(state)
    }
}

/// A move found in the canonical twin (turned by `symmetry` from the state
/// asked about), turned back to that state.
pub fn turn_back<G: Rules>(mv: &G::Move, symmetry: Symmetry) -> G::Move {
    G::transform_move(mv, symmetry.inverse())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_symmetry_is_undone_by_its_inverse_and_is_a_bijection() {
        for symmetry in Symmetry::SQUARE {
            let mut seen = std::collections::HashSet::new();
            for row in 0..5 {
                for col in 0..5 {
                    let (r, c) = symmetry.square(row, col, 5);
                    assert!(seen.insert((r, c)));
                    assert_eq!(symmetry.inverse().square(r, c, 5), (row, col));
                }
            }
        }
    }

    #[test]
    fn the_eight_symmetries_are_distinct() {
        let images: std::collections::HashSet<Vec<(usize, usize)>> = Symmetry::SQUARE
            .iter()
            .map(|s| vec![s.square(0, 1, 4), s.square(2, 3, 4)])
            .collect();
        assert_eq!(images.len(), 8);
    }
}
