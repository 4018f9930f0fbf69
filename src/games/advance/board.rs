//! The board: piece codes, a padded mailbox with precomputed offsets, the
//! Zobrist keys, and the validated [`State`].
//!
//! The 9×9 board sits inside a 15×15 array with a border of three `OFF`
//! cells, so every piece's reach (at most three squares: the Catapult's
//! shot) stays inside the array and no move generator needs bounds checks.

use std::fmt;

/// Rows (and columns) of the board.
pub const SIZE: usize = 9;
/// Width of the border around the board in the padded array.
pub(crate) const PAD: usize = 3;
/// Row length of the padded array.
pub(crate) const WIDTH: usize = SIZE + 2 * PAD;
/// Cells of the padded array.
pub(crate) const CELLS: usize = WIDTH * WIDTH;
/// The number of plies after which the material rule ends the game (100 full turns).
pub const PLY_LIMIT: u32 = 200;

/// An empty square.
pub(crate) const EMPTY: u8 = 0;
/// Piece kinds; a white piece's code is its kind, a black piece's is kind + [`BLACK_BIT`].
pub(crate) const ZOMBIE: u8 = 1;
pub(crate) const BUILDER: u8 = 2;
pub(crate) const JESTER: u8 = 3;
pub(crate) const MINER: u8 = 4;
pub(crate) const SENTINEL: u8 = 5;
pub(crate) const CATAPULT: u8 = 6;
pub(crate) const DRAGON: u8 = 7;
pub(crate) const GENERAL: u8 = 8;
/// Added to a kind to make the black piece's code.
pub(crate) const BLACK_BIT: u8 = 8;
/// A wall, which belongs to nobody.
pub(crate) const WALL: u8 = 17;
/// A cell of the border, outside the board.
pub(crate) const OFF: u8 = 18;
/// "Nobody", as returned by [`owner`] for empty cells, walls and the border.
pub(crate) const NOBODY: u8 = 2;

/// Who owns each cell code: 0 white, 1 black, [`NOBODY`].
const OWNER: [u8; 19] = [2, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2];
/// Material value of each kind (the General has none).
const KIND_VALUE: [i32; 9] = [0, 1, 2, 3, 4, 5, 6, 7, 0];

/// Offsets to the 8 neighbours.
pub(crate) const KING: [isize; 8] = [-16, -15, -14, -1, 1, 14, 15, 16];
/// Offsets to the 4 cardinal neighbours (up, right, down, left).
pub(crate) const ORTHO: [isize; 4] = [-15, 1, 15, -1];
/// Offsets of the 4 diagonal directions.
pub(crate) const DIAG: [isize; 4] = [-16, -14, 14, 16];
/// Offsets of the Sentinel's knight jumps.
pub(crate) const KNIGHT: [isize; 8] = [-31, -29, -17, -13, 13, 17, 29, 31];
/// Offsets of the Catapult's shots: (±3,0), (0,±3), (±2,±2).
pub(crate) const SHOTS: [isize; 8] = [-45, 45, -3, 3, -32, -28, 28, 32];

/// A side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// Uppercase pieces, moving up (towards row 0); moves first.
    White = 0,
    /// Lowercase pieces, moving down.
    Black = 1,
}

impl Color {
    /// The opponent.
    #[inline]
    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for white, 1 for black.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The name used in JSON and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    /// Reads `white` or `black`.
    pub fn from_name(name: &str) -> Option<Color> {
        match name {
            "white" => Some(Color::White),
            "black" => Some(Color::Black),
            _ => None,
        }
    }

    /// The padded offset of one step forward.
    #[inline]
    pub(crate) fn forward(self) -> isize {
        match self {
            Color::White => -(WIDTH as isize),
            Color::Black => WIDTH as isize,
        }
    }

    /// The code of this side's piece of `kind`.
    #[inline]
    pub(crate) fn piece(self, kind: u8) -> u8 {
        kind + BLACK_BIT * self as u8
    }
}

/// Who owns a cell code (0 white, 1 black, [`NOBODY`]).
#[inline]
pub(crate) fn owner(cell: u8) -> u8 {
    OWNER[cell as usize]
}

/// The kind of a piece code (meaningless for empty, wall and border).
#[inline]
pub(crate) fn kind(cell: u8) -> u8 {
    if cell > BLACK_BIT {
        cell - BLACK_BIT
    } else {
        cell
    }
}

/// The material value of the piece on a cell (0 for empty, walls, Generals).
#[inline]
pub(crate) fn value(cell: u8) -> i32 {
    if owner(cell) == NOBODY {
        0
    } else {
        KIND_VALUE[kind(cell) as usize]
    }
}

/// The same piece of the other colour.
#[inline]
pub(crate) fn flip(cell: u8) -> u8 {
    if cell > BLACK_BIT {
        cell - BLACK_BIT
    } else {
        cell + BLACK_BIT
    }
}

/// The padded index of a board square.
#[inline]
pub(crate) const fn square(row: usize, col: usize) -> usize {
    (row + PAD) * WIDTH + col + PAD
}

/// The board row of a padded index.
#[inline]
pub(crate) fn row_of(sq: usize) -> usize {
    sq / WIDTH - PAD
}

/// The board column of a padded index.
#[inline]
pub(crate) fn col_of(sq: usize) -> usize {
    sq % WIDTH - PAD
}

/// A padded index moved by an offset.
#[inline]
pub(crate) fn step(sq: usize, offset: isize) -> usize {
    sq.wrapping_add_signed(offset)
}

/// The 81 playable squares as padded indices, row 0 first.
pub(crate) const SQUARES: [u8; SIZE * SIZE] = {
    let mut out = [0u8; SIZE * SIZE];
    let mut i = 0;
    while i < SIZE * SIZE {
        out[i] = square(i / SIZE, i % SIZE) as u8;
        i += 1;
    }
    out
};

/// The text character of a cell code.
pub(crate) fn to_char(cell: u8) -> char {
    b".ZBJMSCDGzbjmscdg#?"[cell as usize] as char
}

/// The cell code of a text character, if it is one of `ZBJMSCDGzbjmscdg.#`.
pub(crate) fn from_char(ch: char) -> Option<u8> {
    let code = match ch {
        '.' => EMPTY,
        '#' => WALL,
        'Z' => ZOMBIE,
        'B' => BUILDER,
        'J' => JESTER,
        'M' => MINER,
        'S' => SENTINEL,
        'C' => CATAPULT,
        'D' => DRAGON,
        'G' => GENERAL,
        'z' | 'b' | 'j' | 'm' | 's' | 'c' | 'd' | 'g' => {
            from_char(ch.to_ascii_uppercase())? + BLACK_BIT
        }
        _ => return None,
    };
    Some(code)
}

/// The characters a board may contain, for error messages.
pub const BOARD_CHARS: &str = "ZBJMSCDGzbjmscdg.#";

const fn splitmix(state: u64) -> (u64, u64) {
    let next = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = next;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (next, z ^ (z >> 31))
}

/// Zobrist keys per padded cell and cell code (empty and border keys unused).
static ZOBRIST: [[u64; 19]; CELLS] = {
    let mut table = [[0u64; 19]; CELLS];
    let mut seed = 0x00AD_7A4C_E5EE_D001u64;
    let mut cell = 0;
    while cell < CELLS {
        let mut code = 1;
        while code < 18 {
            let (next, key) = splitmix(seed);
            seed = next;
            table[cell][code] = key;
            code += 1;
        }
        cell += 1;
    }
    table
};

/// The key XORed in when black is to move.
const BLACK_TO_MOVE_KEY: u64 = 0x5DEE_CE66_D1CE_4E5B;

/// Why a board cannot be read: the 0-based row and column (column `None`
/// when the whole row is at fault) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardError {
    /// The row at fault (0-based), or `None` for the whole board.
    pub row: Option<usize>,
    /// The column at fault (0-based), if one.
    pub col: Option<usize>,
    /// What is wrong and what was expected.
    pub detail: String,
}

/// A validated Advance position: the board, the side to move, and the ply
/// count when known. At most one General per colour.
#[derive(Clone)]
pub struct State {
    pub(crate) cells: [u8; CELLS],
    pub(crate) to_move: Color,
    pub(crate) ply: Option<u32>,
    /// Padded square of each side's General, 0 when it has none.
    pub(crate) generals: [u8; 2],
    /// Material of each side.
    pub(crate) material: [i32; 2],
    /// Zobrist hash of the board and side to move.
    pub(crate) hash: u64,
}

impl PartialEq for State {
    fn eq(&self, other: &State) -> bool {
        self.cells == other.cells && self.to_move == other.to_move && self.ply == other.ply
    }
}

impl Eq for State {}

impl fmt::Debug for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} to move, ply {:?}", self.to_move.name(), self.ply)?;
        f.write_str(&self.to_text())
    }
}

/// The starting position.
pub const START: [&str; SIZE] = [
    "mjdsgscjm",
    "bzzzzzzzb",
    ".........",
    ".........",
    ".........",
    ".........",
    ".........",
    "BZZZZZZZB",
    "MJCSGSDJM",
];

impl State {
    /// The starting position, white to move at ply 0.
    pub fn start() -> State {
        State::from_rows(&START, Color::White, Some(0)).expect("the start position is valid")
    }

    /// Builds a state from 9 rows of 9 characters, checking every cell and
    /// that no colour has two Generals.
    pub fn from_rows<R: AsRef<str>>(
        rows: &[R],
        to_move: Color,
        ply: Option<u32>,
    ) -> Result<State, BoardError> {
        if rows.len() != SIZE {
            return Err(BoardError {
                row: None,
                col: None,
                detail: format!("a board has {SIZE} rows, found {}", rows.len()),
            });
        }
        let mut state = State {
            cells: [OFF; CELLS],
            to_move,
            ply,
            generals: [0, 0],
            material: [0, 0],
            hash: 0,
        };
        for (row, text) in rows.iter().enumerate() {
            state.read_row(row, text.as_ref())?;
        }
        state.hash = state.full_hash();
        Ok(state)
    }

    fn read_row(&mut self, row: usize, text: &str) -> Result<(), BoardError> {
        let count = text.chars().count();
        if count != SIZE {
            return Err(BoardError {
                row: Some(row),
                col: None,
                detail: format!("expected {SIZE} characters, found {count}"),
            });
        }
        for (col, ch) in text.chars().enumerate() {
            let Some(cell) = from_char(ch) else {
                return Err(BoardError {
                    row: Some(row),
                    col: Some(col),
                    detail: format!("unexpected character {ch:?}; expected one of {BOARD_CHARS}"),
                });
            };
            let sq = square(row, col);
            self.cells[sq] = cell;
            if owner(cell) != NOBODY {
                let side = owner(cell) as usize;
                self.material[side] += value(cell);
                if kind(cell) == GENERAL {
                    self.add_general(side, sq, row, col)?;
                }
            }
        }
        Ok(())
    }

    fn add_general(
        &mut self,
        side: usize,
        sq: usize,
        row: usize,
        col: usize,
    ) -> Result<(), BoardError> {
        let first = self.generals[side] as usize;
        if first != 0 {
            let name = if side == 0 { "white" } else { "black" };
            return Err(BoardError {
                row: Some(row),
                col: Some(col),
                detail: format!(
                    "a second {name} General (the first is on {}); a board has at most one General per colour",
                    super::notation::square_name(first)
                ),
            });
        }
        self.generals[side] = sq as u8;
        Ok(())
    }

    /// The hash computed from scratch.
    pub(crate) fn full_hash(&self) -> u64 {
        let mut hash = if self.to_move == Color::Black {
            BLACK_TO_MOVE_KEY
        } else {
            0
        };
        for &sq in SQUARES.iter() {
            let cell = self.cells[sq as usize];
            if cell != EMPTY {
                hash ^= ZOBRIST[sq as usize][cell as usize];
            }
        }
        hash
    }

    /// Puts `cell` on `sq`, keeping hash, material and General squares in step.
    #[inline]
    pub(crate) fn put(&mut self, sq: usize, cell: u8) {
        let old = self.cells[sq];
        if old != EMPTY {
            self.hash ^= ZOBRIST[sq][old as usize];
            if owner(old) != NOBODY {
                self.material[owner(old) as usize] -= value(old);
            }
        }
        if cell != EMPTY {
            self.hash ^= ZOBRIST[sq][cell as usize];
            if owner(cell) != NOBODY {
                self.material[owner(cell) as usize] += value(cell);
                if kind(cell) == GENERAL {
                    self.generals[owner(cell) as usize] = sq as u8;
                }
            }
        }
        self.cells[sq] = cell;
    }

    /// Passes the turn to the other side (and counts the ply when known).
    pub(crate) fn pass_turn(&mut self) {
        self.to_move = self.to_move.other();
        self.hash ^= BLACK_TO_MOVE_KEY;
        self.ply = self.ply.map(|p| p.saturating_add(1));
    }

    /// The side to move.
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// The number of plies played, when known.
    pub fn ply(&self) -> Option<u32> {
        self.ply
    }

    /// The cell code at a board row and column.
    pub(crate) fn at(&self, row: usize, col: usize) -> u8 {
        self.cells[square(row, col)]
    }

    /// The character at a board row and column.
    pub fn char_at(&self, row: usize, col: usize) -> char {
        to_char(self.at(row, col))
    }

    /// A side's material (the sum of its piece values).
    pub fn material(&self, side: Color) -> i32 {
        self.material[side.index()]
    }

    /// Whether the material rule has ended the game (ply known and 200 reached).
    pub fn ply_limit_reached(&self) -> bool {
        self.ply.is_some_and(|p| p >= PLY_LIMIT)
    }

    /// One row of the board as text.
    pub fn row_text(&self, row: usize) -> String {
        (0..SIZE).map(|col| self.char_at(row, col)).collect()
    }

    /// The 9-line text form, each line ending with `\n`.
    pub fn to_text(&self) -> String {
        let mut text = String::with_capacity(SIZE * (SIZE + 1));
        for row in 0..SIZE {
            text.push_str(&self.row_text(row));
            text.push('\n');
        }
        text
    }
}
