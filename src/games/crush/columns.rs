//! The board as ten columns of 4-bit cells, for the bots' thousands of
//! settlings a swap. It settles exactly like [`Board`] (the same runs, points,
//! fall and refill order), but finds the runs of every line with a few word
//! operations instead of a scan per line, and lets a column fall by shifting
//! out the removed cells. A column is a `u64`: row 9 (the bottom) is nibble 0
//! and row 0 nibble 9, so falling moves cells towards nibble 0 and the empty
//! cells (nibble value 0, [`UNKNOWN`]) end up in the top nibbles.

use super::board::{Board, Refill, CELLS, MAX_CASCADES, SIDE, UNKNOWN};
use super::notation::{Swap, ALL_SWAPS};

/// Bit 0 of each of the ten nibbles: one bit a cell.
const CELL_BITS: u64 = 0x11_1111_1111;
/// Every column, as a set of columns (bit `c` for column `c`).
const ALL_COLUMNS: u32 = (1 << SIDE) - 1;
/// The cells that have a cell above them (nibbles 0..=8).
const HAS_ABOVE: u64 = CELL_BITS >> 4;

/// A 10×10 board stored by columns, a nibble a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Columns {
    cols: [u64; SIDE],
}

/// The nibble of row `row` in its column.
fn shift_of(row: usize) -> u32 {
    4 * (SIDE - 1 - row) as u32
}

/// One bit (a nibble's lowest) for every nibble of `x` that is not zero.
fn known(x: u64) -> u64 {
    (x | x >> 1 | x >> 2 | x >> 3) & CELL_BITS
}

/// One bit for every nibble where `x` and `y` hold the same value.
fn equal(x: u64, y: u64) -> u64 {
    let d = x ^ y;
    !(d | d >> 1 | d >> 2 | d >> 3) & CELL_BITS
}

/// How many cells a one-bit-a-cell mask holds: the multiplication adds the
/// ten nibbles into the top one (at most 10, so nothing carries). Cheaper
/// than `count_ones` on CPUs the portable build cannot assume `popcnt` on.
fn cells_in(mask: u64) -> u32 {
    ((mask.wrapping_mul(CELL_BITS) >> 36) & 0xf) as u32
}

/// The largest digit a board holds (k is at most 7).
const MAX_DIGIT: u64 = 7;

/// The swaps that make a run, as cells (one bit a nibble, like a column):
/// `right[c]` holds the cells of column `c` whose swap with the right
/// neighbour matches, `down[c]` those whose swap with the cell below does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Matches {
    right: [u64; SIDE],
    down: [u64; SIDE],
}

impl Matches {
    /// Whether `swap` makes a run.
    pub fn contains(&self, swap: Swap) -> bool {
        let (a, b) = (swap.a(), swap.b());
        let cell = 1u64 << shift_of(a / SIDE);
        let cells = if b == a + 1 { &self.right } else { &self.down };
        cells[a % SIDE] & cell != 0
    }

    /// The swaps that make a run, in position order.
    pub fn swaps(self) -> impl Iterator<Item = Swap> {
        ALL_SWAPS.iter().copied().filter(move |&s| self.contains(s))
    }
}

/// The runs of one settling step: which cells they cover, column by column,
/// and what they score.
struct Step {
    removed: [u64; SIDE],
    points: u32,
}

impl Columns {
    /// The columns of `board`.
    pub fn of(board: &Board) -> Columns {
        let mut cols = [0u64; SIDE];
        for (i, &digit) in board.cells().iter().enumerate() {
            cols[i % SIDE] |= u64::from(digit) << shift_of(i / SIDE);
        }
        Columns { cols }
    }

    /// The same board as rows of bytes.
    pub fn to_board(&self) -> Board {
        let mut cells = [UNKNOWN; CELLS];
        for (i, cell) in cells.iter_mut().enumerate() {
            *cell = self.get(i);
        }
        Board::from_cells(cells)
    }

    /// The digit at index `row * 10 + col`.
    pub fn get(&self, i: usize) -> u8 {
        ((self.cols[i % SIDE] >> shift_of(i / SIDE)) & 0xf) as u8
    }

    fn set(&mut self, i: usize, digit: u8) {
        let shift = shift_of(i / SIDE);
        let col = &mut self.cols[i % SIDE];
        *col = (*col & !(0xf << shift)) | (u64::from(digit) << shift);
    }

    /// Exchanges two cells' digits.
    pub fn swap(&mut self, a: usize, b: usize) {
        let (da, db) = (self.get(a), self.get(b));
        self.set(a, db);
        self.set(b, da);
    }

    /// Every swap that makes a run through one of its two cells, found for
    /// all swaps at once digit by digit: a digit moved into a cell makes a
    /// run when two cells in a line beside it (not the one it came from)
    /// hold it too. The same swaps as `immediate_points(…) > 0` in the bot.
    pub fn matches(&self) -> Matches {
        let cols = &self.cols;
        let mut right = [0u64; SIDE];
        let mut down = [0u64; SIDE];
        for digit in 1..=MAX_DIGIT {
            let mut holds = [0u64; SIDE];
            for (plane, &col) in holds.iter_mut().zip(cols) {
                *plane = equal(col, digit * CELL_BITS);
            }
            if holds.iter().all(|&p| p == 0) {
                continue;
            }
            let at = |c: usize, offset: isize| {
                c.checked_add_signed(offset)
                    .and_then(|n| holds.get(n))
                    .copied()
                    .unwrap_or(0)
            };
            for c in 0..SIDE {
                let (left, left2, right1, right2) = (at(c, -1), at(c, -2), at(c, 1), at(c, 2));
                let here = holds[c];
                let (above, above2) = (here >> 4, here >> 8);
                let (below, below2) = ((here << 4) & CELL_BITS, (here << 8) & CELL_BITS);
                let in_row = (left & left2) | (right1 & right2) | (left & right1);
                let in_column = (above & above2) | (below & below2) | (above & below);
                // The digit comes up from the cell below, or down from the
                // cell above (that swap is named by the cell above).
                let from_below = below & (in_row | (above & above2));
                let from_above = above & (in_row | (below & below2));
                down[c] |= from_below | ((from_above << 4) & CELL_BITS);
                // It comes in from the right neighbour, or from the left one
                // (that swap is named by the left cell).
                right[c] |= right1 & (in_column | (left & left2));
                if c > 0 {
                    right[c - 1] |= left & (in_column | (right1 & right2));
                }
            }
        }
        // Two equal digits swapped change nothing.
        for c in 0..SIDE {
            down[c] &= !equal(cols[c], cols[c] << 4);
            if c + 1 < SIDE {
                right[c] &= !equal(cols[c], cols[c + 1]);
            }
        }
        right[SIDE - 1] = 0;
        Matches { right, down }
    }

    /// Swaps cells `a` and `b` of a settled board and settles it (the first
    /// search for runs looks only at the two cells' columns and the rows
    /// through them). Returns the points scored.
    pub fn swap_and_settle<R: Refill>(&mut self, a: usize, b: usize, refill: &mut R) -> u32 {
        self.swap(a, b);
        self.settle_from(1 << (a % SIDE) | 1 << (b % SIDE), refill)
    }

    /// Settles like [`Board::settle`]: find runs, remove, fall, refill, until
    /// no run is left (or [`MAX_CASCADES`] steps). Returns the points scored.
    pub fn settle<R: Refill>(&mut self, refill: &mut R) -> u32 {
        self.settle_from(ALL_COLUMNS, refill)
    }

    /// Settles, looking first for runs that touch the columns of `changed`
    /// (bit `c` for column `c`), then for runs touching the columns that
    /// each step emptied.
    fn settle_from<R: Refill>(&mut self, mut changed: u32, refill: &mut R) -> u32 {
        let mut total = 0u32;
        for _ in 0..MAX_CASCADES {
            let step = self.find_runs(changed);
            if step.points == 0 {
                break;
            }
            total = total.saturating_add(step.points);
            changed = self.remove_and_refill(&step.removed, refill);
        }
        total
    }

    /// Every maximal run of this step that touches a column of `changed`:
    /// the cells to remove and the points. A run of length n scores n²,
    /// counted as n plus twice the number of cells with 1, 2, … n − 1 cells
    /// of the same run after them.
    fn find_runs(&self, changed: u32) -> Step {
        let cols = &self.cols;
        let mut removed = [0u64; SIDE];
        let mut cells = 0u32;
        let mut chained = 0u32;
        for c in 0..SIDE {
            if changed & (1 << c) == 0 {
                continue;
            }
            let col = cols[c];
            let same_above = equal(col, col >> 4) & HAS_ABOVE & known(col);
            let starts = same_above & same_above >> 4;
            let run = starts | starts << 4 | starts << 8;
            removed[c] = run;
            cells += cells_in(run);
            let mut link = run & run >> 4 & same_above;
            while link != 0 {
                chained += cells_in(link);
                link &= link >> 4;
            }
        }
        // Horizontal runs start at a column within two of a changed one.
        let starts_at = (changed | changed >> 1 | changed >> 2) & ((1 << (SIDE - 2)) - 1);
        let compared = starts_at | starts_at << 1;
        let mut same_right = [0u64; SIDE - 1];
        for (c, same) in same_right.iter_mut().enumerate() {
            if compared & (1 << c) != 0 {
                *same = equal(cols[c], cols[c + 1]) & known(cols[c]);
            }
        }
        let mut across = [0u64; SIDE];
        for c in 0..SIDE - 2 {
            let starts = same_right[c] & same_right[c + 1];
            across[c] |= starts;
            across[c + 1] |= starts;
            across[c + 2] |= starts;
        }
        let mut link = [0u64; SIDE - 1];
        for c in 0..SIDE - 1 {
            cells += cells_in(across[c]);
            link[c] = across[c] & across[c + 1] & same_right[c];
            removed[c] |= across[c];
        }
        cells += cells_in(across[SIDE - 1]);
        removed[SIDE - 1] |= across[SIDE - 1];
        let mut width = SIDE - 1;
        while link[..width].iter().any(|&l| l != 0) {
            for &l in &link[..width] {
                chained += cells_in(l);
            }
            width -= 1;
            for c in 0..width {
                link[c] &= link[c + 1];
            }
        }
        Step {
            removed,
            points: cells + 2 * chained,
        }
    }

    /// Drops the removed cells out of each column (the cells above fall) and
    /// fills the empty top cells row by row from the top, left to right.
    /// Returns the columns that changed.
    fn remove_and_refill<R: Refill>(&mut self, removed: &[u64; SIDE], refill: &mut R) -> u32 {
        let mut empty = [0usize; SIDE];
        let mut changed = 0u32;
        for (c, ((col, &gone), empty)) in self
            .cols
            .iter_mut()
            .zip(removed)
            .zip(empty.iter_mut())
            .enumerate()
        {
            if gone != 0 {
                changed |= 1 << c;
            }
            let mut left = gone;
            while left != 0 {
                let top = 63 - left.leading_zeros();
                let below = (1u64 << top) - 1;
                *col = (*col & below) | ((*col >> 4) & !below);
                left &= below;
            }
            *empty = cells_in(gone) as usize;
        }
        if !R::SEES_DIGITS {
            return changed;
        }
        let deepest = empty.iter().copied().max().unwrap_or(0);
        for row in 0..deepest {
            for (col, &empty_here) in empty.iter().enumerate() {
                if row < empty_here {
                    self.cols[col] |= u64::from(refill.digit()) << shift_of(row);
                }
            }
        }
        changed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::crush::board::Unseen;
    use crate::games::crush::bots::Sampled;
    use crate::games::crush::notation::ALL_SWAPS;
    use proptest::prelude::*;

    fn board_of(digits: &[u8]) -> Board {
        let mut cells = [0u8; CELLS];
        cells.copy_from_slice(digits);
        Board::from_cells(cells)
    }

    proptest! {
        #[test]
        fn the_columns_hold_the_board(digits in prop::collection::vec(0u8..=7, CELLS)) {
            let board = board_of(&digits);
            prop_assert_eq!(Columns::of(&board).to_board(), board);
        }

        /// Settling by columns scores the same points and leaves the same
        /// board as settling by rows, on any board, with the same refill
        /// stream (so the refill order is the same too) and with unknown
        /// refills.
        #[test]
        fn settling_by_columns_is_settling_by_rows(
            digits in prop::collection::vec(0u8..=4, CELLS),
            k in 4u8..=7,
            seed in any::<u64>(),
        ) {
            let mut rows = board_of(&digits);
            let mut cols = Columns::of(&rows);
            let points = rows.settle(&mut Sampled::new(seed, k), |_| {});
            prop_assert_eq!(cols.settle(&mut Sampled::new(seed, k)), points);
            prop_assert_eq!(cols.to_board(), rows);

            let mut rows = board_of(&digits);
            let mut cols = Columns::of(&rows);
            let points = rows.settle(&mut Unseen, |_| {});
            prop_assert_eq!(cols.settle(&mut Unseen), points);
            prop_assert_eq!(cols.to_board(), rows);
        }

        /// The same for a swap on a settled board (where only the runs
        /// through the swapped cells are looked for at first).
        #[test]
        fn swapping_by_columns_is_swapping_by_rows(
            digits in prop::collection::vec(1u8..=4, CELLS),
            k in 4u8..=7,
            seed in any::<u64>(),
            pick in 0usize..ALL_SWAPS.len(),
        ) {
            let mut settled = board_of(&digits);
            settled.settle(&mut Sampled::new(!seed, 4), |_| {});
            let swap = ALL_SWAPS[pick];
            let mut rows = settled;
            let mut cols = Columns::of(&settled);
            let points = rows.swap_and_settle(swap.a(), swap.b(), &mut Sampled::new(seed, k), |_| {});
            prop_assert_eq!(cols.swap_and_settle(swap.a(), swap.b(), &mut Sampled::new(seed, k)), points);
            prop_assert_eq!(cols.to_board(), rows);

            let mut rows = settled;
            let mut cols = Columns::of(&settled);
            let points = rows.swap_and_settle(swap.a(), swap.b(), &mut Unseen, |_| {});
            prop_assert_eq!(cols.swap_and_settle(swap.a(), swap.b(), &mut Unseen), points);
            prop_assert_eq!(cols.to_board(), rows);
        }
    }

    proptest! {
        /// The swaps found all at once are those whose own runs score.
        #[test]
        fn the_matches_are_the_swaps_that_score(digits in prop::collection::vec(0u8..=7, CELLS)) {
            let board = board_of(&digits);
            prop_assert_eq!(found_matches(&board), scoring_swaps(&board));
        }

        #[test]
        fn the_matches_on_settled_boards(digits in prop::collection::vec(1u8..=4, CELLS), seed in any::<u64>()) {
            let mut board = board_of(&digits);
            board.settle(&mut Sampled::new(seed, 4), |_| {});
            prop_assert_eq!(found_matches(&board), scoring_swaps(&board));
        }
    }

    /// The matching swaps found all at once on the column board.
    fn found_matches(board: &Board) -> Vec<Swap> {
        Columns::of(board).matches().swaps().collect()
    }

    /// The swaps whose own runs score, one at a time on the row board.
    fn scoring_swaps(board: &Board) -> Vec<Swap> {
        ALL_SWAPS
            .iter()
            .copied()
            .filter(|&s| crate::games::crush::bots::immediate_points(board, s) > 0)
            .collect()
    }

    #[test]
    fn a_full_row_and_a_full_column_score_a_hundred_each() {
        let mut digits = [1u8; CELLS];
        for (i, d) in digits.iter_mut().enumerate() {
            if i / SIDE != 4 && i % SIDE != 6 {
                *d = if (i / SIDE + i % SIDE) % 2 == 0 { 2 } else { 3 };
            }
        }
        let mut cols = Columns::of(&board_of(&digits));
        let mut rows = board_of(&digits);
        assert_eq!(rows.settle(&mut Unseen, |_| {}), 200);
        assert_eq!(cols.settle(&mut Unseen), 200);
        assert_eq!(cols.to_board(), rows);
    }
}
