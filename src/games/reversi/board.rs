//! Bitboard rules: one `u64` per side, bit `8 * row + col` for a square
//! (a1 = bit 0 is the top-left corner, h1 = bit 7, a2 = bit 8, h8 = bit 63),
//! so ascending bit order is the row-major order a1, b1, … h1, a2, …
//!
//! Everything here works on a [`Board`] seen from the side to move (`me`)
//! against its opponent (`opp`); nothing allocates.

use crate::game::Symmetry;

/// A move: a disc placed on a square (0 = a1 … 63 = h8), or a forced pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Place a disc on this square.
    Place(u8),
    /// Pass: legal only when the mover has no other move.
    Pass,
}

/// Every square of column a.
pub const COL_A: u64 = 0x0101_0101_0101_0101;
/// Every square of column h.
pub const COL_H: u64 = 0x8080_8080_8080_8080;
/// Every square of row 1.
pub const ROW_1: u64 = 0x0000_0000_0000_00FF;
/// Every square of row 8.
pub const ROW_8: u64 = 0xFF00_0000_0000_0000;
/// The four corners.
pub const CORNERS: u64 = 0x8100_0000_0000_0081;
/// The outer ring of squares.
pub const EDGES: u64 = COL_A | COL_H | ROW_1 | ROW_8;
/// Everything but columns a and h: keeps horizontal and diagonal shifts from wrapping.
const INNER_COLS: u64 = !(COL_A | COL_H);

/// The position from the mover's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// The discs of the side to move.
    pub me: u64,
    /// The discs of the other side.
    pub opp: u64,
}

/// The eight directions as (column step, row step): the four that run
/// towards higher bit indices first, then their opposites in the same order.
const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (0, 1),
    (1, 1),
    (-1, 1),
    (-1, 0),
    (0, -1),
    (-1, -1),
    (1, -1),
];

/// The ray table, aligned so that one square's eight rays share a cache line.
#[repr(align(64))]
struct Rays([[u64; 8]; 64]);

/// `RAYS.0[sq][d]`: the squares from `sq` (excluded) to the board's edge in
/// direction `d` of [`DIRECTIONS`]: `d < 4` ascending, `d ≥ 4` descending.
static RAYS: Rays = Rays(build_rays());

const fn build_rays() -> [[u64; 8]; 64] {
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dc, dr) = DIRECTIONS[d];
            let mut c = (sq % 8) as i32 + dc;
            let mut r = (sq / 8) as i32 + dr;
            let mut ray = 0u64;
            while c >= 0 && c < 8 && r >= 0 && r < 8 {
                ray |= 1u64 << (r * 8 + c);
                c += dc;
                r += dr;
            }
            rays[sq][d] = ray;
            d += 1;
        }
        sq += 1;
    }
    rays
}

/// Moves in one direction pair (`dir` and `-dir`), Kogge-Stone style.
#[inline(always)]
fn moves_along(me: u64, mask: u64, dir: u32) -> u64 {
    let dir2 = dir * 2;
    let mut left = mask & (me << dir);
    let mut right = mask & (me >> dir);
    left |= mask & (left << dir);
    right |= mask & (right >> dir);
    // `mask & (mask >> dir)` is the left mask shifted back: one shift saved.
    let mask_left = mask & (mask << dir);
    let mask_right = mask_left >> dir;
    left |= mask_left & (left << dir2);
    right |= mask_right & (right >> dir2);
    left |= mask_left & (left << dir2);
    right |= mask_right & (right >> dir2);
    (left << dir) | (right >> dir)
}

/// The squares where `me` may play against `opp` (portable; see also
/// [`x86::moves_avx2`], the same sets four directions at a time).
#[inline(always)]
pub fn moves(me: u64, opp: u64) -> u64 {
    let inner = opp & INNER_COLS;
    (moves_along(me, inner, 1)
        | moves_along(me, opp, 8)
        | moves_along(me, inner, 7)
        | moves_along(me, inner, 9))
        & !(me | opp)
}

/// Move generation for x86-64 CPUs with AVX2, chosen at run time by the
/// callers that are hot enough to carry two copies (perft): the build stays
/// portable and [`moves`] is the fallback.
#[cfg(target_arch = "x86_64")]
pub mod x86 {
    use super::INNER_COLS;
    use std::arch::x86_64::*;

    /// Whether this CPU has what the functions here need (AVX2, and the bit
    /// instructions that the callers compiled alongside use), detected
    /// once: the evaluation asks at every call.
    pub fn supported() -> bool {
        static SUPPORTED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *SUPPORTED.get_or_init(|| {
            is_x86_feature_detected!("avx2")
                && is_x86_feature_detected!("popcnt")
                && is_x86_feature_detected!("lzcnt")
                && is_x86_feature_detected!("bmi1")
        })
    }

    /// [`super::moves`] with the four direction pairs in the four lanes of
    /// one AVX2 register (shifts by 1, 8, 9 and 7).
    ///
    /// # Safety
    /// Callers compiled without AVX2 must check [`supported`] first.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub fn moves_avx2(me: u64, opp: u64) -> u64 {
        let shift = _mm256_set_epi64x(7, 9, 8, 1);
        let shift2 = _mm256_add_epi64(shift, shift);
        let inner = INNER_COLS as i64;
        let masks = _mm256_set_epi64x(inner, inner, -1, inner);
        let me4 = _mm256_set1_epi64x(me as i64);
        let mask = _mm256_and_si256(_mm256_set1_epi64x(opp as i64), masks);
        let mut left = _mm256_and_si256(mask, _mm256_sllv_epi64(me4, shift));
        let mut right = _mm256_and_si256(mask, _mm256_srlv_epi64(me4, shift));
        left = _mm256_or_si256(left, _mm256_and_si256(mask, _mm256_sllv_epi64(left, shift)));
        right = _mm256_or_si256(
            right,
            _mm256_and_si256(mask, _mm256_srlv_epi64(right, shift)),
        );
        let mask_left = _mm256_and_si256(mask, _mm256_sllv_epi64(mask, shift));
        let mask_right = _mm256_srlv_epi64(mask_left, shift);
        left = _mm256_or_si256(
            left,
            _mm256_and_si256(mask_left, _mm256_sllv_epi64(left, shift2)),
        );
        right = _mm256_or_si256(
            right,
            _mm256_and_si256(mask_right, _mm256_srlv_epi64(right, shift2)),
        );
        left = _mm256_or_si256(
            left,
            _mm256_and_si256(mask_left, _mm256_sllv_epi64(left, shift2)),
        );
        right = _mm256_or_si256(
            right,
            _mm256_and_si256(mask_right, _mm256_srlv_epi64(right, shift2)),
        );
        let all = _mm256_or_si256(
            _mm256_sllv_epi64(left, shift),
            _mm256_srlv_epi64(right, shift),
        );
        let half = _mm_or_si128(
            _mm256_castsi256_si128(all),
            _mm256_extracti128_si256::<1>(all),
        );
        let one = _mm_or_si128(half, _mm_unpackhi_epi64(half, half));
        (_mm_cvtsi128_si64(one) as u64) & !(me | opp)
    }
}

/// The discs flipped along one ascending `ray` (towards higher bits).
///
/// Adding one to `opp | !ray` carries through every square below the ray
/// and through the run of opponent discs on it, and stops on the first ray
/// square that is not the opponent's: the outflanking square, if it is ours.
/// No branch, no bit scan.
#[inline(always)]
fn flips_up(me: u64, opp: u64, ray: u64) -> u64 {
    let outflank = (opp | !ray).wrapping_add(1) & ray & me;
    outflank.wrapping_sub(u64::from(outflank != 0)) & ray
}

/// The discs flipped along one descending `ray` (towards lower bits): the
/// highest ray square that is not the opponent's outflanks if it is ours,
/// and everything on the ray above it flips. The `| 1` keeps the bit scan
/// defined; bit 0 only counts when it is on the ray and ours.
#[inline(always)]
fn flips_down(me: u64, opp: u64, ray: u64) -> u64 {
    let open = (!opp & ray) | 1;
    let outflank = (1u64 << (63 - open.leading_zeros())) & ray & me;
    (outflank.wrapping_neg() << 1) & ray
}

/// The discs a move by `me` on `sq` flips (0 when the move is illegal or the square is taken).
///
/// Branch-free: each of the eight directions is one carry or one bit scan
/// over a precomputed ray (see `flips_up` and `flips_down`).
#[inline(always)]
pub fn flips(me: u64, opp: u64, sq: u32) -> u64 {
    let rays = &RAYS.0[sq as usize];
    let flipped = flips_up(me, opp, rays[0])
        | flips_up(me, opp, rays[1])
        | flips_up(me, opp, rays[2])
        | flips_up(me, opp, rays[3])
        | flips_down(me, opp, rays[4])
        | flips_down(me, opp, rays[5])
        | flips_down(me, opp, rays[6])
        | flips_down(me, opp, rays[7]);
    // Nothing flips on a taken square.
    let empty = (((me | opp) >> sq) & 1).wrapping_sub(1);
    flipped & empty
}

/// `LINE_FLIPS[p][line]`: how many discs a move at position `p` of a full
/// line flips on that line, bit `i` of `line` set where position `i` is the
/// mover's and clear where it is the opponent's (bit `p` ignored). A run of
/// clear bits that reaches the end of the byte flips nothing, which is also
/// what a short diagonal's missing squares (read as clear) need.
static LINE_FLIPS: [[u8; 256]; 8] = build_line_flips();

const fn build_line_flips() -> [[u8; 256]; 8] {
    let mut table = [[0u8; 256]; 8];
    let mut p = 0;
    while p < 8 {
        let mut line = 0;
        while line < 256 {
            let mut count = 0;
            // Towards lower positions, then towards higher ones.
            let mut i = p as i32 - 1;
            while i >= 0 && line & (1 << i) == 0 {
                i -= 1;
            }
            if i >= 0 {
                count += p as i32 - 1 - i;
            }
            let mut i = p + 1;
            while i < 8 && line & (1 << i) == 0 {
                i += 1;
            }
            if i < 8 {
                count += (i - p - 1) as i32;
            }
            table[p][line] = count as u8;
            line += 1;
        }
        p += 1;
    }
    table
}

/// `DIAGONAL_LINES[sq]`: the diagonal and the anti-diagonal through `sq`.
static DIAGONAL_LINES: [(u64, u64); 64] = build_diagonal_lines();

const fn build_diagonal_lines() -> [(u64, u64); 64] {
    let mut lines = [(0u64, 0u64); 64];
    let mut sq = 0;
    while sq < 64 {
        let bit = 1u64 << sq;
        let rays = &RAYS.0[sq];
        lines[sq] = (bit | rays[2] | rays[6], bit | rays[3] | rays[7]);
        sq += 1;
    }
    lines
}

/// How many discs `me` flips by playing on `sq` when `sq` is the only empty
/// square and every other square not in `me` is the opponent's: the exact
/// solver's last move. Four table look-ups, one per line through `sq`, each
/// line gathered into a byte by a multiplication (no carries: the bits land
/// on distinct positions).
#[inline(always)]
pub fn last_flip_count(me: u64, sq: u32) -> u32 {
    let (col, row) = ((sq & 7) as usize, (sq >> 3) as usize);
    let (diagonal, anti) = DIAGONAL_LINES[sq as usize];
    // Row: already a byte; column: bit r of the byte is row r; diagonals: bit c is column c.
    let row_bits = (me >> (8 * row)) as u8 as usize;
    let col_bits = (((me >> col) & COL_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize;
    let diagonal_bits = ((me & diagonal).wrapping_mul(COL_A) >> 56) as usize;
    let anti_bits = ((me & anti).wrapping_mul(COL_A) >> 56) as usize;
    u32::from(LINE_FLIPS[col][row_bits])
        + u32::from(LINE_FLIPS[row][col_bits])
        + u32::from(LINE_FLIPS[col][diagonal_bits])
        + u32::from(LINE_FLIPS[col][anti_bits])
}

/// The squares next to any square of `bits` (in all 8 directions).
#[inline]
pub const fn neighbours(bits: u64) -> u64 {
    let horizontal = ((bits << 1) & !COL_A) | ((bits >> 1) & !COL_H);
    let row = bits | horizontal;
    horizontal | (row << 8) | (row >> 8)
}

impl Board {
    /// The board with `me` to move.
    pub const fn new(me: u64, opp: u64) -> Self {
        Board { me, opp }
    }

    /// The standard starting position, black (to move) on d5 and e4.
    pub const fn start() -> Self {
        let d4 = 1 << 27;
        let e4 = 1 << 28;
        let d5 = 1 << 35;
        let e5 = 1 << 36;
        Board {
            me: d5 | e4,
            opp: d4 | e5,
        }
    }

    /// The empty squares.
    #[inline]
    pub fn empty(&self) -> u64 {
        !(self.me | self.opp)
    }

    /// How many squares are empty.
    #[inline]
    pub fn empties(&self) -> u32 {
        64 - (self.me | self.opp).count_ones()
    }

    /// The squares the side to move may play.
    #[inline]
    pub fn moves(&self) -> u64 {
        moves(self.me, self.opp)
    }

    /// The squares the opponent could play if it were its turn.
    #[inline]
    pub fn opp_moves(&self) -> u64 {
        moves(self.opp, self.me)
    }

    /// The board after the mover plays on `sq` flipping `flipped`, seen from the next mover.
    #[inline]
    pub fn play_flips(&self, sq: u32, flipped: u64) -> Board {
        Board {
            me: self.opp ^ flipped,
            opp: self.me ^ flipped ^ (1u64 << sq),
        }
    }

    /// The board after the mover plays on `sq` (which must be legal).
    #[inline]
    pub fn play(&self, sq: u32) -> Board {
        self.play_flips(sq, flips(self.me, self.opp, sq))
    }

    /// The board after a pass.
    #[inline]
    pub fn pass(&self) -> Board {
        Board {
            me: self.opp,
            opp: self.me,
        }
    }

    /// Whether neither side can move.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.moves() == 0 && self.opp_moves() == 0
    }

    /// The final disc difference for the mover, empty squares going to the
    /// winner (the usual Othello scoring, as in the FFO benchmark).
    #[inline]
    pub fn final_score(&self) -> i32 {
        let mine = self.me.count_ones() as i32;
        let theirs = self.opp.count_ones() as i32;
        let empty = 64 - mine - theirs;
        match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => mine - theirs + empty,
            std::cmp::Ordering::Less => mine - theirs - empty,
            std::cmp::Ordering::Equal => 0,
        }
    }

    /// A well-mixed 64-bit hash of the position (for table indexing).
    #[inline]
    pub fn hash(&self) -> u64 {
        let a = self.me.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let b = self.opp.rotate_left(29).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        let h = a ^ b;
        (h ^ (h >> 32)).wrapping_mul(0x1656_67B1_9E37_79F9) ^ (h >> 29)
    }
}

/// The discs of `me` that can never be flipped, found conservatively: a disc is
/// stable when, along each of the four lines through it, the line is full, it
/// sits on the edge, or its neighbour on that line is a stable disc of its own.
pub fn stable_discs(me: u64, opp: u64) -> u64 {
    let filled = me | opp;
    let (full_h, full_v) = full_rows_and_columns(filled);
    if me & CORNERS == 0 && full_h | full_v == 0 {
        // Every chain of stable discs starts from a corner or a full row or column.
        return 0;
    }
    let (full_d7, full_d9) = full_diagonals(filled);
    let anchored_h = full_h | COL_A | COL_H;
    let anchored_v = full_v | ROW_1 | ROW_8;
    let anchored_d7 = full_d7 | EDGES;
    let anchored_d9 = full_d9 | EDGES;
    let mut stable = 0u64;
    loop {
        let h = anchored_h | ((stable << 1) & !COL_A) | ((stable >> 1) & !COL_H);
        let v = anchored_v | (stable << 8) | (stable >> 8);
        let d7 = anchored_d7 | ((stable << 7) & !COL_H) | ((stable >> 7) & !COL_A);
        let d9 = anchored_d9 | ((stable << 9) & !COL_A) | ((stable >> 9) & !COL_H);
        let next = me & h & v & d7 & d9;
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

/// The squares lying on a full row, and those lying on a full column, of `filled`.
#[inline]
fn full_rows_and_columns(filled: u64) -> (u64, u64) {
    let mut rows = filled;
    rows &= rows >> 1;
    rows &= rows >> 2;
    rows &= rows >> 4;
    let full_h = (rows & COL_A).wrapping_mul(0xFF);
    let mut cols = filled;
    cols &= cols >> 8;
    cols &= cols >> 16;
    cols &= cols >> 32;
    let full_v = (cols & ROW_1).wrapping_mul(COL_A);
    (full_h, full_v)
}

/// The squares lying on a full anti-diagonal, and those on a full diagonal, of `filled`.
fn full_diagonals(filled: u64) -> (u64, u64) {
    let mut full_d7 = 0;
    let mut full_d9 = 0;
    for (&anti, &diag) in DIAGONALS_7.iter().zip(DIAGONALS_9.iter()) {
        if filled & anti == anti {
            full_d7 |= anti;
        }
        if filled & diag == diag {
            full_d9 |= diag;
        }
    }
    (full_d7, full_d9)
}

/// The 15 anti-diagonals (runs of step 7) of the board, including the corners' single squares.
static DIAGONALS_7: [u64; 15] = build_diagonals(true);
/// The 15 diagonals (runs of step 9).
static DIAGONALS_9: [u64; 15] = build_diagonals(false);

const fn build_diagonals(anti: bool) -> [u64; 15] {
    let mut lines = [0u64; 15];
    let mut sq = 0;
    while sq < 64 {
        let (c, r) = (sq % 8, sq / 8);
        let index = if anti { c + r } else { c + 7 - r };
        lines[index] |= 1u64 << sq;
        sq += 1;
    }
    lines
}

/// Where square `sq` (0 = a1, row-major) goes under a symmetry of the board.
pub fn transform_square(sq: u32, symmetry: Symmetry) -> u32 {
    let (row, col) = symmetry.square(sq as usize / 8, sq as usize % 8, 8);
    (row * 8 + col) as u32
}

/// A set of squares turned by a symmetry of the board.
pub fn transform_bits(bits: u64, symmetry: Symmetry) -> u64 {
    Bits(bits).fold(0, |turned, sq| {
        turned | 1u64 << transform_square(sq, symmetry)
    })
}

/// The name of square `sq` (`a1` … `h8`).
pub fn square_name(sq: u32) -> String {
    let col = (b'a' + (sq % 8) as u8) as char;
    let row = (b'1' + (sq / 8) as u8) as char;
    format!("{col}{row}")
}

/// The square named `name` (`d3`, case-insensitive), if it is one.
pub fn parse_square(name: &str) -> Option<u32> {
    let bytes = name.as_bytes();
    if bytes.len() != 2 {
        return None;
    }
    let col = bytes[0].to_ascii_lowercase().wrapping_sub(b'a');
    let row = bytes[1].wrapping_sub(b'1');
    (col < 8 && row < 8).then(|| u32::from(row) * 8 + u32::from(col))
}

/// Iterates over the set bits of a bitboard, lowest first.
#[derive(Clone, Copy)]
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            return None;
        }
        let sq = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(sq)
    }
}
