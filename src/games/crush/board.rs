//! The 10×10 board of digits, its runs, and settling (remove, fall, refill,
//! repeat). The value 0 stands for a cell whose digit is not known (a bot's
//! view of a refill): it never belongs to a run.

use super::rng::TinyMt32;

/// Cells per row and per column.
pub const SIDE: usize = 10;
/// Cells on the board.
pub const CELLS: usize = SIDE * SIDE;
/// The digit of a cell nobody can see yet (never part of a run).
pub const UNKNOWN: u8 = 0;
/// The most runs one settling step can find (3 per line, 20 lines).
const MAX_RUNS: usize = 3 * 2 * SIDE;
/// Safety cap on cascade steps of one settling. A fair generator never comes
/// near it; it only stops a hand-crafted generator state from looping forever.
pub const MAX_CASCADES: usize = 10_000;

/// A maximal horizontal or vertical line of 3 or more equal digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Run {
    /// The top or left cell, as an index `row * 10 + col`.
    pub start: u8,
    /// How many cells it covers (3..=10).
    pub len: u8,
    /// Whether it runs along a row (else along a column).
    pub horizontal: bool,
}

impl Run {
    /// What it scores: its length squared.
    pub fn points(&self) -> u32 {
        u32::from(self.len) * u32::from(self.len)
    }

    /// The cells it covers, as indices, top/left first.
    pub fn cells(&self) -> impl Iterator<Item = usize> {
        let step = if self.horizontal { 1 } else { SIDE };
        let start = usize::from(self.start);
        (0..usize::from(self.len)).map(move |i| start + i * step)
    }
}

/// The runs found in one settling step, on the stack.
#[derive(Clone, Copy, Debug)]
pub struct Runs {
    items: [Run; MAX_RUNS],
    len: usize,
}

impl Default for Runs {
    fn default() -> Self {
        Runs {
            items: [Run::default(); MAX_RUNS],
            len: 0,
        }
    }
}

impl Runs {
    /// The runs, horizontal ones first (row by row), then vertical ones.
    pub fn as_slice(&self) -> &[Run] {
        &self.items[..self.len]
    }

    /// The points of all the runs together.
    pub fn points(&self) -> u32 {
        self.as_slice().iter().map(Run::points).sum()
    }

    fn push(&mut self, run: Run) {
        self.items[self.len] = run;
        self.len += 1;
    }
}

/// Where the digits of refilled cells come from.
pub trait Refill {
    /// Whether the digits it gives are known (false: every digit is
    /// [`UNKNOWN`], so a refill may skip asking).
    const SEES_DIGITS: bool = true;

    /// The digit of the next empty cell, in the refill order.
    fn digit(&mut self) -> u8;
}

/// The game's own refill: `next_u32() % k + 1` from TinyMT32.
pub struct GameRefill<'a> {
    /// The game's generator, advanced by every draw.
    pub rng: &'a mut TinyMt32,
    /// Digits are `1..=k`.
    pub k: u8,
}

impl Refill for GameRefill<'_> {
    fn digit(&mut self) -> u8 {
        self.rng.next_digit(self.k)
    }
}

/// A bot's refill: the new cells are unknown and never match.
pub struct Unseen;

impl Refill for Unseen {
    const SEES_DIGITS: bool = false;

    fn digit(&mut self) -> u8 {
        UNKNOWN
    }
}

/// Whether a line of cells holds three equal known digits in a row (the
/// quick test before the runs are measured; most lines have none).
fn line_has_run(line: &[u8; SIDE]) -> bool {
    let mut found = false;
    for i in 0..SIDE - 2 {
        found |= line[i] != UNKNOWN && line[i] == line[i + 1] && line[i + 1] == line[i + 2];
    }
    found
}

/// [`line_has_run`] for the row starting at cell `first`, on all ten bytes at
/// once: byte `i` of `x ^ (x >> 8)` is zero where cell `i` equals cell `i + 1`.
fn row_has_run(cells: &[u8; CELLS], first: usize) -> bool {
    const LOW7: u128 = 0x7f7f_7f7f_7f7f_7f7f_7f7f_7f7f_7f7f_7f7f;
    const HIGH: u128 = 0x8080_8080_8080_8080_8080_8080_8080_8080;
    const STARTS: u128 = 0x8080_8080_8080_8080;
    let mut bytes = [0u8; 16];
    bytes[..SIDE].copy_from_slice(&cells[first..first + SIDE]);
    let x = u128::from_le_bytes(bytes);
    let diff = x ^ (x >> 8);
    let equal_next = !(((diff & LOW7) + LOW7) | diff) & HIGH;
    let known = (((x & LOW7) + LOW7) | x) & HIGH;
    equal_next & (equal_next >> 8) & known & STARTS != 0
}

/// The cells of each column, as bit masks over cell indices.
const COLUMN: [u128; SIDE] = column_masks();

const fn column_masks() -> [u128; SIDE] {
    let mut masks = [0u128; SIDE];
    let mut i = 0;
    while i < CELLS {
        masks[i % SIDE] |= 1 << i;
        i += 1;
    }
    masks
}

/// A set of rows and a set of columns (bit `n` for row or column `n`): the
/// lines where a run may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lines {
    /// Rows to look along.
    pub rows: u16,
    /// Columns to look along.
    pub cols: u16,
}

impl Lines {
    /// Every row and every column.
    pub const ALL: Lines = Lines {
        rows: (1 << SIDE) - 1,
        cols: (1 << SIDE) - 1,
    };

    /// The rows and columns through cells `a` and `b`.
    pub fn through(a: usize, b: usize) -> Lines {
        Lines {
            rows: (1 << (a / SIDE)) | (1 << (b / SIDE)),
            cols: (1 << (a % SIDE)) | (1 << (b % SIDE)),
        }
    }
}

/// A 10×10 board; cell `row * 10 + col` holds a digit (or [`UNKNOWN`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    cells: [u8; CELLS],
}

impl Board {
    /// A board from its cells, row by row. The caller checks the digits.
    pub fn from_cells(cells: [u8; CELLS]) -> Self {
        Board { cells }
    }

    /// A board filled row by row, left to right, from `refill`.
    pub fn filled(refill: &mut impl Refill) -> Self {
        let mut cells = [0; CELLS];
        for cell in &mut cells {
            *cell = refill.digit();
        }
        Board { cells }
    }

    /// The cells, row by row.
    pub fn cells(&self) -> &[u8; CELLS] {
        &self.cells
    }

    /// The digit at index `i`.
    pub fn get(&self, i: usize) -> u8 {
        self.cells[i]
    }

    /// Row `row` as text, one character per cell (`?` for unknown).
    pub fn row_text(&self, row: usize) -> String {
        self.cells[row * SIDE..(row + 1) * SIDE]
            .iter()
            .map(|&d| {
                if d == UNKNOWN {
                    '?'
                } else {
                    char::from(b'0' + d)
                }
            })
            .collect()
    }

    /// Exchanges two cells' digits.
    pub fn swap(&mut self, a: usize, b: usize) {
        self.cells.swap(a, b);
    }

    /// Whether swapping `a` and `b` makes a run through either of them.
    pub fn swap_matches(&self, a: usize, b: usize) -> bool {
        let mut after = *self;
        after.swap(a, b);
        after.has_run_through(a) || after.has_run_through(b)
    }

    /// Whether the cell at `i` belongs to a run.
    pub fn has_run_through(&self, i: usize) -> bool {
        let digit = self.cells[i];
        if digit == UNKNOWN {
            return false;
        }
        let (row, col) = (i / SIDE, i % SIDE);
        let same = |r: usize, c: usize| self.cells[r * SIDE + c] == digit;
        let left = (0..col).rev().take_while(|&c| same(row, c)).count();
        let right = (col + 1..SIDE).take_while(|&c| same(row, c)).count();
        if left + right >= 2 {
            return true;
        }
        let up = (0..row).rev().take_while(|&r| same(r, col)).count();
        let down = (row + 1..SIDE).take_while(|&r| same(r, col)).count();
        up + down >= 2
    }

    /// Finds every maximal run into `runs` and returns the set of their cells
    /// as a bit mask (bit `i` for cell `i`).
    pub fn find_runs(&self, runs: &mut Runs) -> u128 {
        self.find_runs_in(Lines::ALL, runs)
    }

    /// Like [`Board::find_runs`], looking only along `lines` (the caller
    /// knows that no other line can hold a run).
    pub fn find_runs_in(&self, lines: Lines, runs: &mut Runs) -> u128 {
        runs.len = 0;
        let mut mask = 0u128;
        for row in (0..SIDE).filter(|r| lines.rows & (1 << r) != 0) {
            mask |= self.scan_line(row * SIDE, 1, true, runs);
        }
        for col in (0..SIDE).filter(|c| lines.cols & (1 << c) != 0) {
            mask |= self.scan_line(col, SIDE, false, runs);
        }
        mask
    }

    fn scan_line(&self, first: usize, step: usize, horizontal: bool, runs: &mut Runs) -> u128 {
        if horizontal && !row_has_run(&self.cells, first) {
            return 0;
        }
        let mut line = [0u8; SIDE];
        for (n, cell) in line.iter_mut().enumerate() {
            *cell = self.cells[first + n * step];
        }
        if !line_has_run(&line) {
            return 0;
        }
        let mut mask = 0u128;
        let mut start = 0;
        while start < SIDE {
            let digit = line[start];
            let mut end = start + 1;
            while end < SIDE && line[end] == digit {
                end += 1;
            }
            if digit != UNKNOWN && end - start >= 3 {
                let run = Run {
                    start: (first + start * step) as u8,
                    len: (end - start) as u8,
                    horizontal,
                };
                runs.push(run);
                for cell in run.cells() {
                    mask |= 1 << cell;
                }
            }
            start = end;
        }
        mask
    }

    /// Whether the board has no run at all.
    pub fn is_settled(&self) -> bool {
        self.find_runs(&mut Runs::default()) == 0
    }

    /// Removes the cells of `mask`, lets each column fall, and refills the
    /// empty cells row by row from the top, left to right, from `refill`.
    /// Returns the lines where a new run may have formed.
    pub fn remove_and_refill(&mut self, mask: u128, refill: &mut impl Refill) -> Lines {
        let mut empty = [0usize; SIDE];
        let mut lines = Lines { rows: 0, cols: 0 };
        let mut lowest = 0;
        for (col, empty_in_col) in empty.iter_mut().enumerate() {
            if mask & COLUMN[col] == 0 {
                continue;
            }
            lines.cols |= 1 << col;
            let mut write = SIDE;
            let mut lowest_here = None;
            for row in (0..SIDE).rev() {
                let i = row * SIDE + col;
                if mask & (1 << i) == 0 {
                    write -= 1;
                    self.cells[write * SIDE + col] = self.cells[i];
                } else if lowest_here.is_none() {
                    lowest_here = Some(row);
                }
            }
            lowest = lowest.max(lowest_here.unwrap_or(0));
            *empty_in_col = write;
        }
        lines.rows = (1u16 << (lowest + 1)) - 1;
        let deepest = empty.iter().copied().max().unwrap_or(0);
        for row in 0..deepest {
            for (col, &empty_in_col) in empty.iter().enumerate() {
                if row < empty_in_col {
                    self.cells[row * SIDE + col] = refill.digit();
                }
            }
        }
        lines
    }

    /// Settles the board: repeats find runs / remove / fall / refill until no
    /// run is left (or [`MAX_CASCADES`] steps), calling `on_step` with each
    /// step's runs. Returns the points scored.
    pub fn settle(&mut self, refill: &mut impl Refill, on_step: impl FnMut(&Runs)) -> u32 {
        self.settle_from(Lines::ALL, refill, on_step)
    }

    /// Swaps cells `a` and `b` of a settled board and settles it (the first
    /// search for runs looks only along the two cells' rows and columns).
    pub fn swap_and_settle(
        &mut self,
        a: usize,
        b: usize,
        refill: &mut impl Refill,
        on_step: impl FnMut(&Runs),
    ) -> u32 {
        self.swap(a, b);
        self.settle_from(Lines::through(a, b), refill, on_step)
    }

    fn settle_from(
        &mut self,
        mut lines: Lines,
        refill: &mut impl Refill,
        mut on_step: impl FnMut(&Runs),
    ) -> u32 {
        let mut runs = Runs::default();
        let mut total = 0u32;
        for _ in 0..MAX_CASCADES {
            let mask = self.find_runs_in(lines, &mut runs);
            if mask == 0 {
                break;
            }
            total = total.saturating_add(runs.points());
            on_step(&runs);
            lines = self.remove_and_refill(mask, refill);
        }
        total
    }

    /// Settles without watching the steps; returns the points scored.
    pub fn settle_quiet(&mut self, refill: &mut impl Refill) -> u32 {
        self.settle(refill, |_| {})
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn the_row_test_on_all_bytes_agrees_with_the_plain_one(row in 0usize..SIDE, digits in prop::collection::vec(0u8..=3, CELLS)) {
            let mut cells = [0u8; CELLS];
            cells.copy_from_slice(&digits);
            let mut line = [0u8; SIDE];
            line.copy_from_slice(&cells[row * SIDE..(row + 1) * SIDE]);
            prop_assert_eq!(row_has_run(&cells, row * SIDE), line_has_run(&line));
        }
    }
}
