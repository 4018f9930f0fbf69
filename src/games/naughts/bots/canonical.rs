//! Canonical keys under the board's symmetries: a position's key is the
//! least over the square's 8 symmetries (and sizes renumbered by their rank
//! among the sizes still in hand), so a position and its twins share one
//! table entry and one book line; moves are mapped to and from the
//! canonical frame.

use crate::game::symmetry::Symmetry;
use crate::game::Side;
use crate::games::naughts::state::{State, MAX_CELLS};

/// A 64-bit finalizer (splitmix64), to spread keys over the table and to make Zobrist numbers.
pub(super) fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A position in the search, with the cells each side has on top as bit sets.
#[derive(Clone, Copy)]
pub(super) struct Node {
    pub(super) state: State,
    pub(super) owned: [u64; 2],
}

/// A position's canonical key, and how to map its moves to and from the canonical frame.
#[derive(Clone, Copy, Debug)]
pub(super) struct Canon {
    pub(super) key: u64,
    /// The symmetry that takes the position to its canonical form.
    pub(super) symmetry: usize,
    /// Every size still in a hand (either side's), as a bit set: sizes are
    /// renumbered by their rank in it.
    pub(super) sizes: u16,
}

impl Canon {
    /// The rank of `size` among the sizes in hand: how many of them are at most `size`.
    pub(super) fn rank(&self, size: u8) -> u8 {
        (self.sizes & ((2u16 << size) - 1)).count_ones() as u8
    }

    /// The size in hand with this rank (1 for the smallest).
    pub(super) fn size_of_rank(&self, rank: u8) -> Option<u8> {
        let mut sizes = self.sizes;
        for _ in 1..rank {
            sizes &= sizes.wrapping_sub(1);
        }
        (rank > 0 && sizes != 0).then(|| sizes.trailing_zeros() as u8)
    }
}

/// What a move led to, from the search's point of view.
pub(super) enum Next {
    /// The opponent is to move.
    Opponent,
    /// The opponent cannot move, so the mover goes again.
    Again,
    /// Nobody can move: a draw.
    Stalemate,
}

/// Cell codes in keys: 0 empty, 1..=10 naughts, 11..=20 crosses, by the top's rank (0..=9).
pub(super) const CODES: usize = 21;

/// The square's symmetries in the order the solver numbers them (a
/// position's canonical frame is the first that gives the least key): the
/// identity, the three rotations a quarter turn at a time, then the four
/// reflections. The book and the seeded games were made in this order.
const SOLVER_ORDER: [Symmetry; 8] = [
    Symmetry::SQUARE[0],
    Symmetry::SQUARE[5],
    Symmetry::SQUARE[3],
    Symmetry::SQUARE[6],
    Symmetry::SQUARE[4],
    Symmetry::SQUARE[7],
    Symmetry::SQUARE[1],
    Symmetry::SQUARE[2],
];

/// The tables that depend only on the grid size: symmetries, lines, key numbers.
pub(super) struct Geometry {
    pub(super) n: usize,
    /// `images[k][cell]`: where symmetry `k` sends `cell`.
    pub(super) images: [[u8; MAX_CELLS]; 8],
    /// `preimages[k][cell]`: the cell symmetry `k` sends to `cell`.
    pub(super) preimages: [[u8; MAX_CELLS]; 8],
    /// Every line as a bit set of cells.
    pub(super) lines: Vec<u64>,
    /// Exact packed keys (5 bits a cell) when the board has at most 9 cells, else Zobrist.
    pub(super) packed: bool,
    pub(super) zobrist: Vec<[u64; CODES]>,
}

impl Geometry {
    pub(super) fn new(n: usize) -> Geometry {
        let mut images = [[0u8; MAX_CELLS]; 8];
        let mut preimages = [[0u8; MAX_CELLS]; 8];
        for (k, symmetry) in SOLVER_ORDER.iter().enumerate() {
            for (cell, image) in images[k].iter_mut().enumerate().take(n * n) {
                let (r, c) = symmetry.square(cell / n, cell % n, n);
                *image = (r * n + c) as u8;
                preimages[k][r * n + c] = cell as u8;
            }
        }
        let state = State::new(n as u8, 5);
        let lines: Vec<u64> = state
            .lines()
            .map(|(start, step)| (0..n).fold(0, |mask, i| mask | 1 << (start + i * step)))
            .collect();
        let zobrist = (0..n * n)
            .map(|cell| {
                let mut codes = [0u64; CODES];
                for (code, z) in codes.iter_mut().enumerate().skip(1) {
                    *z = mix((cell * CODES + code) as u64 ^ 0x5eed);
                }
                codes
            })
            .collect();
        Geometry {
            n,
            images,
            preimages,
            lines,
            packed: n * n <= 9,
            zobrist,
        }
    }

    /// The key contribution of a cell code at (symmetric) position `at`.
    pub(super) fn contribution(&self, at: u8, code: u8) -> u64 {
        if self.packed {
            (code as u64) << (5 * at as u64)
        } else {
            self.zobrist[at as usize][code as usize]
        }
    }

    pub(super) fn node(&self, state: &State) -> Node {
        let mut owned = [0u64; 2];
        for (i, cell) in state.cells[..self.n * self.n].iter().enumerate() {
            if let Some(owner) = cell.owner() {
                owned[owner.index()] |= 1 << i;
            }
        }
        Node {
            state: *state,
            owned,
        }
    }

    /// The canonical key of a position: the least key over the 8 symmetries,
    /// with sizes renumbered so that only what can cover what remains. A hand
    /// marker covers a top exactly when its rank among the sizes in hand
    /// exceeds the top's rank (the number of sizes in hand not above it), so
    /// positions equal up to that renumbering have the same game tree.
    pub(super) fn canonical(&self, node: &Node) -> Canon {
        let state = &node.state;
        let mut canon = Canon {
            key: u64::MAX,
            symmetry: 0,
            sizes: state.hands[0] | state.hands[1],
        };
        let cells = self.n * self.n;
        let mut codes = [0u8; MAX_CELLS];
        for (code, cell) in codes.iter_mut().zip(&state.cells[..cells]) {
            *code = match cell.owner() {
                None => 0,
                Some(Side::First) => 1 + canon.rank(cell.size()),
                Some(Side::Second) => 11 + canon.rank(cell.size()),
            };
        }
        for k in 0..8 {
            let image = &self.images[k];
            let key = (0..cells).fold(0, |key, cell| {
                key ^ self.contribution(image[cell], codes[cell])
            });
            if key < canon.key {
                canon.key = key;
                canon.symmetry = k;
            }
        }
        let ranked = |hand: u16| {
            let mut bits = 0u64;
            let mut rest = hand;
            while rest != 0 {
                let size = rest.trailing_zeros() as u8;
                rest &= rest - 1;
                bits |= 1 << (canon.rank(size) - 1);
            }
            bits
        };
        let hands = ranked(state.hands[0]) | ranked(state.hands[1]) << 9;
        canon.key = if self.packed {
            // 45 bits of cells, 18 of hands, and the top bit for the 2×2 board.
            canon.key | hands << 45 | ((self.n == 2) as u64) << 63
        } else {
            canon.key ^ mix(hands)
        };
        canon
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_solver_numbers_each_of_the_square_s_symmetries_once_rotations_first() {
        for symmetry in Symmetry::SQUARE {
            assert_eq!(SOLVER_ORDER.iter().filter(|&&s| s == symmetry).count(), 1);
        }
        let geometry = Geometry::new(3);
        // A quarter turn sends the top-left corner to the top-right; two
        // make the half turn, three the turn the other way.
        let turn = |k: usize, cell: usize| geometry.images[k][cell] as usize;
        assert_eq!(turn(1, 0), 2);
        for cell in 0..9 {
            assert_eq!(turn(1, turn(1, cell)), turn(2, cell));
            assert_eq!(turn(1, turn(2, cell)), turn(3, cell));
            assert_eq!(geometry.preimages[1][turn(1, cell)] as usize, cell);
        }
    }
}
