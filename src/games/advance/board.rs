//! The board: piece codes, a padded mailbox with precomputed offsets, the
//! Zobrist keys; the validated state is [`super::state::State`].
//!
//! The 9×9 board sits inside a 15×15 array with a border of three `OFF`
//! cells, so every piece's reach (at most three squares: the Catapult's
//! shot) stays inside the array and no move generator needs bounds checks.

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

/// The square's name in notation (`e1`): its file letter and its rank
/// counted from white's side (see [`notation`](super::notation)).
pub fn square_name(sq: usize) -> String {
    let file = (b'a' + col_of(sq) as u8) as char;
    format!("{file}{}", SIZE - row_of(sq))
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

/// Each padded cell's bit in a set of squares (bit `row * 9 + col`; none
/// for the border).
static BITS: [u128; CELLS] = {
    let mut table = [0u128; CELLS];
    let mut i = 0;
    while i < SIZE * SIZE {
        table[SQUARES[i] as usize] = 1u128 << i;
        i += 1;
    }
    table
};

/// The bit of a padded square in a set of squares (0 for the border).
#[inline]
pub(crate) fn bit(sq: usize) -> u128 {
    BITS[sq]
}

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
pub(super) static ZOBRIST: [[u64; 19]; CELLS] = {
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
pub(super) const BLACK_TO_MOVE_KEY: u64 = 0x5DEE_CE66_D1CE_4E5B;

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
