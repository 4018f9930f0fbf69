//! The trained pattern evaluation: the usual Othello pattern set (the edge
//! with its X-squares, the 3×3 and 2×5 corners, the second to fourth lines,
//! the diagonals of 4 to 8 squares), each looked at in all 8 orientations of
//! the board so that its weights are shared under the board's symmetries,
//! plus the mobility difference and a bias, with one set of weights per game
//! phase (by the number of empty squares).
//!
//! A pattern's configuration is its index in base 3 (0 empty, 1 the
//! mover's, 2 the opponent's, first square lowest); the weights are in
//! hundredths of a disc of the final difference, from the mover's view. The
//! weights are learned by the research fit (`research/src/reversi_fit.rs`) from self-play positions
//! (`research/src/bin/reversi_train.rs`), written in [`Weights::to_bytes`]'s
//! compact form and shipped inside the binary (`weights.bin`), loaded once.

use crate::games::reversi::board::{moves, Board};
use std::sync::OnceLock;

/// One pattern: its squares in the canonical orientation (square 0 = a1,
/// row-major), first square lowest in the index.
#[derive(Clone, Copy, Debug)]
pub struct Pattern {
    /// Its name, for reports.
    pub name: &'static str,
    /// Its squares.
    pub squares: &'static [u8],
}

/// The pattern set.
pub const PATTERNS: [Pattern; 11] = [
    Pattern {
        name: "edge+2X",
        squares: &[0, 1, 2, 3, 4, 5, 6, 7, 9, 14],
    },
    Pattern {
        name: "corner 3x3",
        squares: &[0, 1, 2, 8, 9, 10, 16, 17, 18],
    },
    Pattern {
        name: "corner 2x5",
        squares: &[0, 1, 2, 3, 4, 8, 9, 10, 11, 12],
    },
    Pattern {
        name: "line 2",
        squares: &[8, 9, 10, 11, 12, 13, 14, 15],
    },
    Pattern {
        name: "line 3",
        squares: &[16, 17, 18, 19, 20, 21, 22, 23],
    },
    Pattern {
        name: "line 4",
        squares: &[24, 25, 26, 27, 28, 29, 30, 31],
    },
    Pattern {
        name: "diagonal 8",
        squares: &[0, 9, 18, 27, 36, 45, 54, 63],
    },
    Pattern {
        name: "diagonal 7",
        squares: &[1, 10, 19, 28, 37, 46, 55],
    },
    Pattern {
        name: "diagonal 6",
        squares: &[2, 11, 20, 29, 38, 47],
    },
    Pattern {
        name: "diagonal 5",
        squares: &[3, 12, 21, 30, 39],
    },
    Pattern {
        name: "diagonal 4",
        squares: &[4, 13, 22, 31],
    },
];

/// Orientations each pattern is looked at in.
pub const ORIENTATIONS: usize = 8;

/// Pattern lookups per position.
pub const LOOKUPS: usize = PATTERNS.len() * ORIENTATIONS;

/// Weights per phase that are not patterns: the bias and the mobility difference.
pub const SCALARS: usize = 2;

/// Game phases: empties 0–4, 5–9, …, 55–60.
pub const PHASES: usize = 12;

/// The phase of a position with `empties` empty squares.
pub fn phase(empties: u32) -> usize {
    (empties as usize / 5).min(PHASES - 1)
}

/// 3 to the power `n`.
const fn pow3(n: usize) -> usize {
    let mut result = 1;
    let mut i = 0;
    while i < n {
        result *= 3;
        i += 1;
    }
    result
}

/// Where each pattern's weights start within a phase, and the phase's size.
const OFFSETS: ([usize; PATTERNS.len()], usize) = {
    let mut offsets = [0; PATTERNS.len()];
    let mut at = 0;
    let mut i = 0;
    while i < PATTERNS.len() {
        offsets[i] = at;
        at += pow3(PATTERNS[i].squares.len());
        i += 1;
    }
    (offsets, at + SCALARS)
};

/// Where pattern `p`'s weights start within a phase.
pub(super) const fn pattern_offset(p: usize) -> usize {
    OFFSETS.0[p]
}

/// Weights in one phase: every pattern's configurations, then the scalars.
pub const PHASE_SIZE: usize = OFFSETS.1;

/// The bit-gathered form of a pattern's squares turned into base 3: bit i
/// of the gathered squares counts 3^i.
static TERNARY: [u16; 1024] = {
    let mut table = [0u16; 1024];
    let mut bits = 0;
    while bits < 1024 {
        let mut value = 0u32;
        let mut power = 1u32;
        let mut i = 0;
        while i < 10 {
            if bits & (1 << i) != 0 {
                value += power;
            }
            power *= 3;
            i += 1;
        }
        table[bits] = value as u16;
        bits += 1;
    }
    table
};

/// The board mirrored top to bottom (rows reversed).
#[inline(always)]
fn flip_vertical(bits: u64) -> u64 {
    bits.swap_bytes()
}

/// The board mirrored left to right (columns reversed).
#[inline(always)]
fn flip_horizontal(bits: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    let mut x = bits;
    x = ((x >> 1) & K1) | ((x & K1) << 1);
    x = ((x >> 2) & K2) | ((x & K2) << 2);
    ((x >> 4) & K4) | ((x & K4) << 4)
}

/// The board mirrored in the a1–h8 diagonal (rows become columns).
#[inline(always)]
fn flip_diagonal(bits: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0f0f_0f0f_0000_0000;
    let mut x = bits;
    let mut t = K4 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    t = K2 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    t = K1 & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    x
}

/// Where orientation `o` takes square `sq` (the square map that
/// [`orientations`] applies to whole bitboards: row and column
/// mirrored by bits 0 and 1 of `o`, then swapped by bit 2): lookup
/// `o * PATTERNS.len() + p` reads pattern `p`'s squares on the board so
/// turned.
pub(super) const fn oriented_square(sq: usize, o: usize) -> usize {
    let (mut row, mut col) = (sq / 8, sq % 8);
    if o & 1 != 0 {
        row = 7 - row;
    }
    if o & 2 != 0 {
        col = 7 - col;
    }
    if o & 4 != 0 {
        (row, col) = (col, row);
    }
    row * 8 + col
}

/// The 8 orientations of a bitboard: the identity, the three mirrors and
/// rotation by 180°, each also mirrored in the diagonal.
#[inline(always)]
fn orientations(bits: u64) -> [u64; ORIENTATIONS] {
    let v = flip_vertical(bits);
    let h = flip_horizontal(bits);
    let vh = flip_horizontal(v);
    [
        bits,
        v,
        h,
        vh,
        flip_diagonal(bits),
        flip_diagonal(v),
        flip_diagonal(h),
        flip_diagonal(vh),
    ]
}

/// The squares of a main diagonal (a1–h8) and the shorter ones above it.
const DIAGONAL: u64 = 0x8040_2010_0804_0201;

/// The bits of `bits` on the diagonal starting at column `shift` of row 1,
/// gathered into the low bits (one per column, in column order).
#[inline(always)]
fn gather_diagonal(bits: u64, shift: u32) -> usize {
    let mask = DIAGONAL >> (8 * shift);
    // Squares in distinct columns: the multiply stacks them into the top byte.
    ((((bits & mask).wrapping_mul(0x0101_0101_0101_0101)) >> 56) >> shift) as usize
}

/// Each pattern's squares of `bits` (in the canonical orientation),
/// gathered into the low bits in the pattern's square order.
#[inline(always)]
fn gather(bits: u64) -> [usize; PATTERNS.len()] {
    let b = bits as usize;
    [
        (b & 0xff) | ((b >> 1) & 0x100) | ((b >> 5) & 0x200),
        (b & 0x7) | ((b >> 5) & 0x38) | ((b >> 10) & 0x1c0),
        (b & 0x1f) | ((b >> 3) & 0x3e0),
        (b >> 8) & 0xff,
        (b >> 16) & 0xff,
        (b >> 24) & 0xff,
        gather_diagonal(bits, 0),
        gather_diagonal(bits, 1),
        gather_diagonal(bits, 2),
        gather_diagonal(bits, 3),
        gather_diagonal(bits, 4),
    ]
}

/// What the evaluation looks at in a position, for evaluating and for
/// training: the weight index of every pattern lookup within a phase, the
/// scalar features, and the phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Features {
    /// The weight index (within a phase) of each of the [`LOOKUPS`].
    pub indices: [u32; LOOKUPS],
    /// The mobility difference: the mover's moves minus the opponent's.
    pub mobility: i32,
    /// The phase.
    pub phase: usize,
}

impl Features {
    /// The features of `board`, from the mover's view.
    pub fn of(board: Board) -> Features {
        let mut indices = [0u32; LOOKUPS];
        for_each_lookup(board, |lookup, index| indices[lookup] = index as u32);
        Features {
            indices,
            mobility: mobility(board, moves),
            phase: phase(board.empties()),
        }
    }
}

/// Calls `visit(lookup, index)` for each of the [`LOOKUPS`] of `board`:
/// the lookup's number and its weight index within a phase. Shared by
/// [`Features::of`], which stores them, and the search's evaluation,
/// which sums their weights as they come.
#[inline(always)]
fn for_each_lookup(board: Board, mut visit: impl FnMut(usize, usize)) {
    let mine = orientations(board.me);
    let theirs = orientations(board.opp);
    for o in 0..ORIENTATIONS {
        let (m, t) = (gather(mine[o]), gather(theirs[o]));
        for p in 0..PATTERNS.len() {
            let config = usize::from(TERNARY[m[p]]) + 2 * usize::from(TERNARY[t[p]]);
            visit(o * PATTERNS.len() + p, OFFSETS.0[p] + config);
        }
    }
}

/// The mobility difference of `board` (the mover's moves minus the
/// opponent's) with the move generator `moves`.
#[inline(always)]
fn mobility(board: Board, moves: impl Fn(u64, u64) -> u64) -> i32 {
    moves(board.me, board.opp).count_ones() as i32 - moves(board.opp, board.me).count_ones() as i32
}

/// Where the bias weight sits in a phase.
pub const BIAS: usize = PHASE_SIZE - 2;
/// Where the mobility weight sits in a phase.
pub const MOBILITY: usize = PHASE_SIZE - 1;

/// The weights of every phase, in hundredths of a disc.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// `PHASES` × `PHASE_SIZE` weights, phase by phase.
    pub values: Vec<i16>,
}

/// The first bytes of the weights file, with its format's version.
const MAGIC: &[u8; 8] = b"GBRVW001";

impl Weights {
    /// All weights zero.
    pub fn zero() -> Weights {
        Weights {
            values: vec![0; PHASES * PHASE_SIZE],
        }
    }

    /// The evaluation of a position with these features, in hundredths of
    /// a disc for the mover.
    pub fn score(&self, features: &Features) -> i32 {
        let phase = &self.values[features.phase * PHASE_SIZE..][..PHASE_SIZE];
        let patterns: i32 = features
            .indices
            .iter()
            .map(|&i| i32::from(phase[i as usize]))
            .sum();
        patterns + i32::from(phase[BIAS]) + i32::from(phase[MOBILITY]) * features.mobility
    }

    /// [`Weights::score`] of [`Features::of`]`(board)`, without building
    /// the features: the search's hot path. On x86-64 CPUs with AVX2 and
    /// the hardware bit count (detected at run time, as Reversi's perft
    /// does) it runs a copy compiled with them; both give the same score.
    pub fn evaluate(&self, board: Board) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if crate::games::reversi::board::x86::supported() {
            // SAFETY: the CPU has the features `evaluate_x86` is compiled for.
            return unsafe { self.evaluate_x86(board) };
        }
        self.evaluate_with(board, moves)
    }

    /// [`Weights::evaluate`] compiled for AVX2 and the hardware bit instructions.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt,lzcnt,bmi1")]
    fn evaluate_x86(&self, board: Board) -> i32 {
        self.evaluate_with(board, |me, opp| {
            crate::games::reversi::board::x86::moves_avx2(me, opp)
        })
    }

    /// The evaluation with a given move generator (for the mobility),
    /// summing each lookup's weight as its index is found.
    #[inline(always)]
    fn evaluate_with(&self, board: Board, moves: impl Fn(u64, u64) -> u64) -> i32 {
        let phase = &self.values[phase(board.empties()) * PHASE_SIZE..][..PHASE_SIZE];
        let mut sum = 0i32;
        for_each_lookup(board, |_, index| sum += i32::from(phase[index]));
        sum + i32::from(phase[BIAS]) + i32::from(phase[MOBILITY]) * mobility(board, moves)
    }

    /// The compact file form: the magic, the phase count and size, then the
    /// weights as little-endian `i16`, runs of zeros written as a zero and
    /// the run's length (most configurations never occur).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend((PHASES as u32).to_le_bytes());
        out.extend((PHASE_SIZE as u32).to_le_bytes());
        let mut i = 0;
        while i < self.values.len() {
            let value = self.values[i];
            out.extend(value.to_le_bytes());
            i += 1;
            if value == 0 {
                let run = self.values[i..]
                    .iter()
                    .take(u16::MAX as usize)
                    .take_while(|&&v| v == 0)
                    .count();
                out.extend((run as u16).to_le_bytes());
                i += run;
            }
        }
        out
    }

    /// Reads [`Weights::to_bytes`]'s form; `Err` says what is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Weights, String> {
        let header = MAGIC.len() + 8;
        if bytes.len() < header || &bytes[..MAGIC.len()] != MAGIC {
            return Err("not a gamebot Reversi weights file (bad magic)".to_string());
        }
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        let (phases, size) = (word(8) as usize, word(12) as usize);
        if (phases, size) != (PHASES, PHASE_SIZE) {
            return Err(format!(
                "weights for {phases} phases of {size}, expected {PHASES} of {PHASE_SIZE}"
            ));
        }
        let mut values = Vec::with_capacity(PHASES * PHASE_SIZE);
        let mut words = bytes[header..]
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]));
        while let Some(value) = words.next() {
            values.push(value);
            if value == 0 {
                let run = words.next().ok_or("a run of zeros without its length")? as u16;
                values.resize(values.len() + usize::from(run), 0);
            }
        }
        if values.len() != PHASES * PHASE_SIZE {
            return Err(format!(
                "{} weights, expected {}",
                values.len(),
                PHASES * PHASE_SIZE
            ));
        }
        Ok(Weights { values })
    }
}

/// The shipped weights, learned by `research/src/bin/reversi_train.rs`.
static SHIPPED: &[u8] = include_bytes!("weights.bin");

/// The shipped weights, read once.
pub fn shipped() -> &'static Weights {
    static WEIGHTS: OnceLock<Weights> = OnceLock::new();
    WEIGHTS.get_or_init(|| Weights::from_bytes(SHIPPED).expect("the shipped weights file is valid"))
}

/// The score of `board` for the mover, in hundredths of a disc.
pub fn evaluate(board: Board) -> i32 {
    shipped().evaluate(board)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A pattern's base-3 index read square by square (the definition).
    fn slow_index(board: Board, pattern: &Pattern) -> usize {
        let mut index = 0;
        for &sq in pattern.squares.iter().rev() {
            let cell = if board.me >> sq & 1 != 0 {
                1
            } else if board.opp >> sq & 1 != 0 {
                2
            } else {
                0
            };
            index = index * 3 + cell;
        }
        index
    }

    fn oriented(bits: u64, o: usize) -> u64 {
        (0..64)
            .filter(|&sq| bits >> sq & 1 != 0)
            .map(|sq| 1u64 << oriented_square(sq, o))
            .fold(0, |a, b| a | b)
    }

    /// Weights with every configuration different, so that a lookup in
    /// the wrong place shows.
    fn random_weights() -> &'static Weights {
        static WEIGHTS: OnceLock<Weights> = OnceLock::new();
        WEIGHTS.get_or_init(|| {
            use rand::{Rng, SeedableRng};
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
            Weights {
                values: (0..PHASES * PHASE_SIZE)
                    .map(|_| rng.random_range(-50..=50))
                    .collect(),
            }
        })
    }

    fn board() -> impl Strategy<Value = Board> {
        (any::<u64>(), any::<u64>()).prop_map(|(a, b)| Board { me: a, opp: b & !a })
    }

    proptest! {
        #[test]
        fn orientations_are_the_eight_symmetries(bits in any::<u64>()) {
            let fast = orientations(bits);
            for (o, &got) in fast.iter().enumerate() {
                prop_assert_eq!(got, oriented(bits, o), "orientation {}", o);
            }
        }

        #[test]
        fn indices_read_every_pattern_square_by_square(board in board()) {
            let features = Features::of(board);
            for o in 0..ORIENTATIONS {
                let turned = Board { me: oriented(board.me, o), opp: oriented(board.opp, o) };
                for (p, pattern) in PATTERNS.iter().enumerate() {
                    let expected = OFFSETS.0[p] + slow_index(turned, pattern);
                    prop_assert_eq!(features.indices[o * PATTERNS.len() + p] as usize, expected);
                }
            }
        }

        #[test]
        fn symmetric_positions_score_the_same(board in board()) {
            let weights = random_weights();
            let score = weights.score(&Features::of(board));
            for o in 1..ORIENTATIONS {
                let turned = Board { me: oriented(board.me, o), opp: oriented(board.opp, o) };
                prop_assert_eq!(weights.score(&Features::of(turned)), score);
                prop_assert_eq!(evaluate(turned), evaluate(board));
            }
        }

        #[test]
        fn the_fused_evaluation_is_the_score_of_the_features(board in board()) {
            for weights in [random_weights(), shipped()] {
                let expected = weights.score(&Features::of(board));
                prop_assert_eq!(weights.evaluate(board), expected);
                prop_assert_eq!(weights.evaluate_with(board, moves), expected);
            }
        }
    }

    #[test]
    fn the_weights_file_reads_back_and_refuses_damage() {
        let mut weights = Weights::zero();
        weights.values[5] = -7;
        weights.values[PHASE_SIZE * 3 + MOBILITY] = 1234;
        let bytes = weights.to_bytes();
        assert!(
            bytes.len() < 200,
            "runs of zeros are compact: {}",
            bytes.len()
        );
        assert_eq!(Weights::from_bytes(&bytes).unwrap(), weights);
        assert!(Weights::from_bytes(&bytes[..bytes.len() - 2]).is_err());
        assert!(Weights::from_bytes(b"not weights at all").is_err());
        assert!(shipped().values.len() == PHASES * PHASE_SIZE);
    }
}
