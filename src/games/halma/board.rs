//! Board geometry (cells, camps, neighbour tables) and 256-bit cell sets;
//! the validated position is [`super::state::State`].

use crate::game::Side;

/// Cells per side of the board.
pub const SIZE: usize = 16;
/// Cells on the board.
pub const CELLS: usize = SIZE * SIZE;
/// Pieces each side has.
pub const PIECES: u32 = 19;
/// Marks "no cell" in the neighbour tables (every `u8` is a cell, so the tables hold `u16`).
pub const NONE: u16 = CELLS as u16;

/// A cell index: `y * 16 + x`.
pub type Cell = u8;

/// The cell at column `x`, row `y` (both below 16).
pub const fn cell(x: usize, y: usize) -> Cell {
    (y * SIZE + x) as Cell
}

/// The column of a cell.
pub const fn col(c: Cell) -> usize {
    c as usize % SIZE
}

/// The row of a cell.
pub const fn row(c: Cell) -> usize {
    c as usize / SIZE
}

/// The eight directions as (dx, dy).
const DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

const fn offset(c: usize, dx: i32, dy: i32, times: i32) -> u16 {
    let x = (c % SIZE) as i32 + dx * times;
    let y = (c / SIZE) as i32 + dy * times;
    if x < 0 || y < 0 || x >= SIZE as i32 || y >= SIZE as i32 {
        NONE
    } else {
        (y as usize * SIZE + x as usize) as u16
    }
}

const fn build_table(times: i32) -> [[u16; 8]; CELLS] {
    let mut table = [[NONE; 8]; CELLS];
    let mut c = 0;
    while c < CELLS {
        let mut d = 0;
        while d < 8 {
            table[c][d] = offset(c, DIRECTIONS[d].0, DIRECTIONS[d].1, times);
            d += 1;
        }
        c += 1;
    }
    table
}

/// For each cell, its neighbour in each direction (or [`NONE`]).
pub static NEIGHBOURS: [[u16; 8]; CELLS] = build_table(1);
/// For each cell, the cell two away in each direction (or [`NONE`]): where a jump lands.
pub static LANDINGS: [[u16; 8]; CELLS] = build_table(2);

/// A set of cells as 256 bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bits(pub [u64; 4]);

impl Bits {
    /// The empty set.
    pub const EMPTY: Bits = Bits([0; 4]);

    /// Whether `c` is in the set.
    #[inline]
    pub fn has(self, c: Cell) -> bool {
        (self.0[(c >> 6) as usize] >> (c & 63)) & 1 != 0
    }

    /// Adds `c`.
    #[inline]
    pub fn set(&mut self, c: Cell) {
        self.0[(c >> 6) as usize] |= 1 << (c & 63);
    }

    /// Removes `c`.
    #[inline]
    pub fn clear(&mut self, c: Cell) {
        self.0[(c >> 6) as usize] &= !(1 << (c & 63));
    }

    /// The union.
    #[inline]
    pub fn or(self, other: Bits) -> Bits {
        let mut out = self;
        for i in 0..4 {
            out.0[i] |= other.0[i];
        }
        out
    }

    /// The intersection.
    #[inline]
    pub fn and(self, other: Bits) -> Bits {
        let mut out = self;
        for i in 0..4 {
            out.0[i] &= other.0[i];
        }
        out
    }

    /// The cells of `self` not in `other`.
    #[inline]
    pub fn minus(self, other: Bits) -> Bits {
        let mut out = self;
        for i in 0..4 {
            out.0[i] &= !other.0[i];
        }
        out
    }

    /// How many cells.
    #[inline]
    pub fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == [0; 4]
    }

    /// The cells, lowest index first.
    #[inline]
    pub fn cells(self) -> CellIter {
        CellIter {
            bits: self.0,
            word: 0,
        }
    }
}

/// Iterator over the cells of a [`Bits`].
pub struct CellIter {
    bits: [u64; 4],
    word: usize,
}

impl Iterator for CellIter {
    type Item = Cell;

    #[inline]
    fn next(&mut self) -> Option<Cell> {
        while self.word < 4 {
            let w = self.bits[self.word];
            if w != 0 {
                self.bits[self.word] = w & (w - 1);
                return Some((self.word * 64 + w.trailing_zeros() as usize) as Cell);
            }
            self.word += 1;
        }
        None
    }
}

/// Whether (x, y) is in black's camp (the top-left corner).
const fn in_black_camp(x: usize, y: usize) -> bool {
    x + y <= 5 && x <= 4 && y <= 4
}

const fn build_camp(black: bool) -> Bits {
    let mut words = [0u64; 4];
    let mut c = 0;
    while c < CELLS {
        let (x, y) = (c % SIZE, c / SIZE);
        let inside = if black {
            in_black_camp(x, y)
        } else {
            in_black_camp(SIZE - 1 - x, SIZE - 1 - y)
        };
        if inside {
            words[c >> 6] |= 1 << (c & 63);
        }
        c += 1;
    }
    Bits(words)
}

/// The camps, indexed by side: black's (top-left) then white's (bottom-right).
pub static CAMPS: [Bits; 2] = [build_camp(true), build_camp(false)];

/// The side's own camp, where it starts.
#[inline]
pub fn home(side: Side) -> Bits {
    CAMPS[side.index()]
}

/// The camp the side plays towards (the opponent's home).
#[inline]
pub fn goal(side: Side) -> Bits {
    CAMPS[side.other().index()]
}

/// The side's own corner: black 0,0, white 15,15.
#[inline]
pub fn corner(side: Side) -> (usize, usize) {
    match side {
        Side::First => (0, 0),
        Side::Second => (SIZE - 1, SIZE - 1),
    }
}

/// Manhattan distance from `c` to the side's goal corner.
#[inline]
pub fn goal_distance(side: Side, c: Cell) -> u32 {
    let (gx, gy) = corner(side.other());
    (col(c).abs_diff(gx) + row(c).abs_diff(gy)) as u32
}

/// Which camp rules apply.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    serde::Deserialize,
    serde::Serialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
#[schemars(rename = "HalmaCampRule")]
pub enum CampRule {
    /// The course referee's rules: the basic rule plus (a) and (b).
    #[default]
    Referee,
    /// Only "a piece in the opposing camp stays there".
    Basic,
}

impl CampRule {
    /// The name used in states.
    pub fn name(self) -> &'static str {
        match self {
            CampRule::Referee => "referee",
            CampRule::Basic => "basic",
        }
    }
}

pub(super) const fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const fn build_zobrist() -> [[u64; CELLS]; 2] {
    let mut keys = [[0u64; CELLS]; 2];
    let mut s = 0;
    while s < 2 {
        let mut c = 0;
        while c < CELLS {
            keys[s][c] = splitmix((s * CELLS + c) as u64 + 0x4A11A);
            c += 1;
        }
        s += 1;
    }
    keys
}

/// Zobrist keys per side and cell.
pub(super) static ZOBRIST: [[u64; CELLS]; 2] = build_zobrist();
/// Zobrist key of "white to move".
pub(super) const WHITE_TO_MOVE: u64 = splitmix(0xC0FFEE);
/// Seed of the keys of "this many plies left before the ply limit".
pub(super) const PLIES_LEFT: u64 = 0x9_11E5_1EF7;

#[cfg(test)]
mod tests {
    use super::super::state::State;
    use super::*;

    #[test]
    fn camps_have_nineteen_cells_and_mirror_each_other() {
        assert_eq!(CAMPS[0].count(), 19);
        assert_eq!(CAMPS[1].count(), 19);
        for c in CAMPS[0].cells() {
            assert!(CAMPS[1].has(255 - c));
        }
        assert!(CAMPS[0].has(cell(4, 1)) && CAMPS[0].has(cell(1, 4)));
        assert!(!CAMPS[0].has(cell(5, 0)) && !CAMPS[0].has(cell(4, 2)));
        assert!(CAMPS[1].has(cell(11, 15)) && CAMPS[1].has(cell(14, 11)));
    }

    #[test]
    fn neighbour_tables_stop_at_edges() {
        assert_eq!(NEIGHBOURS[0].iter().filter(|&&n| n != NONE).count(), 3);
        assert_eq!(
            LANDINGS[cell(1, 1) as usize]
                .iter()
                .filter(|&&n| n != NONE)
                .count(),
            3
        );
        assert_eq!(NEIGHBOURS[cell(15, 0) as usize][3], cell(14, 0) as u16);
        assert_eq!(
            NEIGHBOURS[cell(14, 14) as usize][7],
            255,
            "the last cell is a real cell"
        );
    }

    #[test]
    fn incremental_hash_matches_recomputed() {
        let mut s = State::start(Side::First, CampRule::Referee);
        s.apply_move(cell(4, 0), cell(5, 0));
        assert_eq!(s.hash, s.compute_hash());
    }
}
