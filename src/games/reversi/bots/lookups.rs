//! The [`patterns`] evaluation's lookups kept up to date move by move.
//!
//! [`Weights::evaluate`] finds each of a position's [`LOOKUPS`] from
//! scratch: it turns both sides' discs into the 8 orientations and reads
//! every pattern in each. In a search, a child differs from its parent
//! only on the square played and the discs flipped, so [`Lookups`] keeps
//! every lookup's base-3 configuration and a move adds or takes away the
//! powers of 3 of just those squares. Both players' views are kept, since
//! the mover changes every ply; a pass only swaps them.
//!
//! The configurations are the same numbers [`Features::of`] finds, so
//! [`Lookups::score`] is [`Weights::evaluate`]'s score, to the unit: a
//! search that uses it visits the same positions and plays the same moves,
//! only sooner.
//!
//! [`Features::of`]: patterns::Features::of

use super::patterns::{
    self, oriented_square, Weights, BIAS, LOOKUPS, MOBILITY, ORIENTATIONS, PATTERNS, PHASE_SIZE,
};
use crate::games::reversi::board::{moves, Bits, Board};

/// The most lookups one square is part of.
const MAX_PER_SQUARE: usize = 16;

/// One square's part in one lookup: the lookup's number and the square's
/// power of 3 in its configuration.
#[derive(Clone, Copy)]
struct Part {
    lookup: u8,
    power: u16,
}

/// Every square's parts, and how many each has.
struct SquareParts {
    parts: [[Part; MAX_PER_SQUARE]; 64],
    counts: [u8; 64],
}

/// The table of [`SquareParts`], built at compile time from the pattern set.
const fn square_parts() -> SquareParts {
    let mut table = SquareParts {
        parts: [[Part {
            lookup: 0,
            power: 0,
        }; MAX_PER_SQUARE]; 64],
        counts: [0; 64],
    };
    let mut sq = 0;
    while sq < 64 {
        let mut o = 0;
        while o < ORIENTATIONS {
            let seen_at = oriented_square(sq, o);
            let mut p = 0;
            while p < PATTERNS.len() {
                let squares = PATTERNS[p].squares;
                let mut i = 0;
                let mut power = 1;
                while i < squares.len() {
                    if squares[i] as usize == seen_at {
                        let n = table.counts[sq] as usize;
                        table.parts[sq][n] = Part {
                            lookup: (o * PATTERNS.len() + p) as u8,
                            power,
                        };
                        table.counts[sq] += 1;
                    }
                    power *= 3;
                    i += 1;
                }
                p += 1;
            }
            o += 1;
        }
        sq += 1;
    }
    table
}

static SQUARE_PARTS: SquareParts = square_parts();

/// Where each lookup's weights start within a phase.
static LOOKUP_OFFSETS: [u32; LOOKUPS] = {
    let mut offsets = [0; LOOKUPS];
    let mut l = 0;
    while l < LOOKUPS {
        offsets[l] = patterns::pattern_offset(l % PATTERNS.len()) as u32;
        l += 1;
    }
    offsets
};

/// The configuration of every lookup of a position, from both players'
/// views (the view's own discs count 1, the other side's 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lookups {
    /// The configurations seen by the side to move.
    mover: [u16; LOOKUPS],
    /// The configurations seen by its opponent.
    other: [u16; LOOKUPS],
}

impl Lookups {
    /// The lookups of `board`, disc by disc.
    pub fn of(board: Board) -> Lookups {
        let mut lookups = Lookups {
            mover: [0; LOOKUPS],
            other: [0; LOOKUPS],
        };
        for sq in Bits(board.me) {
            lookups.add(sq, 1, 2);
        }
        for sq in Bits(board.opp) {
            lookups.add(sq, 2, 1);
        }
        lookups
    }

    /// The lookups after the mover plays `sq` flipping `flipped`, seen
    /// from the next mover (as [`Board::play_flips`]).
    #[inline(always)]
    pub fn play(&self, sq: u32, flipped: u64) -> Lookups {
        let mut next = self.pass();
        // The square played: the new mover sees the other side's disc there.
        next.add(sq, 2, 1);
        // A flipped disc turns from the new mover's (1) to the other side's (2).
        for flip in Bits(flipped) {
            for part in Self::parts(flip) {
                next.mover[usize::from(part.lookup)] += part.power;
                next.other[usize::from(part.lookup)] -= part.power;
            }
        }
        next
    }

    /// The lookups after a pass: the views swap.
    #[inline(always)]
    pub fn pass(&self) -> Lookups {
        Lookups {
            mover: self.other,
            other: self.mover,
        }
    }

    /// Puts a disc on the empty square `sq`, counted `mover` times its
    /// power in the mover's view and `other` times in the other's.
    #[inline(always)]
    fn add(&mut self, sq: u32, mover: u16, other: u16) {
        for part in Self::parts(sq) {
            self.mover[usize::from(part.lookup)] += mover * part.power;
            self.other[usize::from(part.lookup)] += other * part.power;
        }
    }

    /// The lookups square `sq` is part of, with its power of 3 in each.
    #[inline(always)]
    fn parts(sq: u32) -> &'static [Part] {
        let sq = sq as usize;
        &SQUARE_PARTS.parts[sq][..usize::from(SQUARE_PARTS.counts[sq])]
    }

    /// The mover's lookups as weight indices within a phase, as
    /// [`patterns::Features`] has them.
    pub fn indices(&self) -> [u32; LOOKUPS] {
        std::array::from_fn(|l| LOOKUP_OFFSETS[l] + u32::from(self.mover[l]))
    }

    /// [`Weights::evaluate`] of `board`, whose lookups these are and whose
    /// mover may play `mover_moves`: the same score without finding the lookups.
    #[inline]
    pub fn score(&self, weights: &Weights, board: Board, mover_moves: u64) -> i32 {
        score_of_view(&self.mover, weights, board, mover_moves)
    }

    /// The score of `child`, the position after the mover plays `sq`
    /// flipping `flipped`, whose mover may play `child_moves`: the
    /// [`Lookups::score`] of [`Lookups::play`], working out only the view
    /// that the score reads (a leaf of the search needs no more).
    #[inline]
    pub fn score_after(
        &self,
        weights: &Weights,
        sq: u32,
        flipped: u64,
        child: Board,
        child_moves: u64,
    ) -> i32 {
        score_of_view(&self.child_view(sq, flipped), weights, child, child_moves)
    }

    /// The next mover's view after the mover plays `sq` flipping
    /// `flipped` (the `mover` of [`Lookups::play`]).
    #[inline(always)]
    fn child_view(&self, sq: u32, flipped: u64) -> [u16; LOOKUPS] {
        let mut view = self.other;
        for part in Self::parts(sq) {
            view[usize::from(part.lookup)] += 2 * part.power;
        }
        for flip in Bits(flipped) {
            for part in Self::parts(flip) {
                view[usize::from(part.lookup)] += part.power;
            }
        }
        view
    }
}

/// The score of `board`, whose mover sees the lookups `view` and may play
/// `mover_moves`: a copy compiled for AVX2 and the hardware bit count
/// where the CPU has them (as [`Weights::evaluate`] does), else
/// [`score_view`].
#[inline(always)]
fn score_of_view(view: &[u16; LOOKUPS], weights: &Weights, board: Board, mover_moves: u64) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if crate::games::reversi::board::x86::supported() {
        // SAFETY: the CPU has the features `x86::score_view` is compiled for.
        return unsafe { x86::score_view(view, weights, board, mover_moves) };
    }
    score_view(view, weights, board, mover_moves)
}

/// The portable score of `board`, whose mover sees the lookups `view` and
/// may play `mover_moves`.
#[inline(always)]
fn score_view(view: &[u16; LOOKUPS], weights: &Weights, board: Board, mover_moves: u64) -> i32 {
    let phase = &weights.values[patterns::phase(board.empties()) * PHASE_SIZE..][..PHASE_SIZE];
    let mut sum = 0i32;
    for l in 0..LOOKUPS {
        sum += i32::from(phase[(LOOKUP_OFFSETS[l] + u32::from(view[l])) as usize]);
    }
    let mobility = mover_moves.count_ones() as i32 - moves(board.opp, board.me).count_ones() as i32;
    sum + i32::from(phase[BIAS]) + i32::from(phase[MOBILITY]) * mobility
}

/// [`score_view`] for x86-64 CPUs with AVX2: the weights are fetched eight
/// lookups at a time by one gather, and the opponent's moves are generated
/// with AVX2.
#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{Board, Weights, BIAS, LOOKUPS, LOOKUP_OFFSETS, MOBILITY, PHASE_SIZE};
    use crate::games::reversi::board::x86::moves_avx2;
    use crate::games::reversi::bots::patterns;
    use std::arch::x86_64::*;

    /// The highest index a gather may read at: every lookup's index is
    /// lower (the phase ends with the scalars), and a 4-byte read from
    /// here still ends inside the phase.
    const HIGHEST_GATHERED: i32 = (PHASE_SIZE - 2) as i32;

    /// See [`super::score_view`].
    #[target_feature(enable = "avx2,popcnt,lzcnt,bmi1")]
    #[inline]
    pub(super) fn score_view(
        view: &[u16; LOOKUPS],
        weights: &Weights,
        board: Board,
        mover_moves: u64,
    ) -> i32 {
        let phase = &weights.values[patterns::phase(board.empties()) * PHASE_SIZE..][..PHASE_SIZE];
        let highest = _mm256_set1_epi32(HIGHEST_GATHERED);
        let mut sums = _mm256_setzero_si256();
        for chunk in 0..LOOKUPS / 8 {
            // SAFETY: both reads are of 8 elements inside arrays of LOOKUPS,
            // a multiple of 8.
            let (configs, offsets) = unsafe {
                (
                    _mm_loadu_si128(view.as_ptr().add(8 * chunk).cast()),
                    _mm256_loadu_si256(LOOKUP_OFFSETS.as_ptr().add(8 * chunk).cast()),
                )
            };
            let indices = _mm256_min_epi32(
                _mm256_add_epi32(_mm256_cvtepu16_epi32(configs), offsets),
                highest,
            );
            // SAFETY: each lane reads the 4 bytes at `phase[index]`, with
            // `index` at most `HIGHEST_GATHERED`: inside the phase.
            let pairs = unsafe { _mm256_i32gather_epi32::<2>(phase.as_ptr().cast(), indices) };
            // The weight is the pair's low half, sign-extended.
            sums = _mm256_add_epi32(
                sums,
                _mm256_srai_epi32::<16>(_mm256_slli_epi32::<16>(pairs)),
            );
        }
        let halves = _mm_add_epi32(
            _mm256_castsi256_si128(sums),
            _mm256_extracti128_si256::<1>(sums),
        );
        let pairs = _mm_add_epi32(halves, _mm_shuffle_epi32::<0b01_00_11_10>(halves));
        let sum = _mm_cvtsi128_si32(_mm_add_epi32(
            pairs,
            _mm_shuffle_epi32::<0b10_11_00_01>(pairs),
        ));
        let mobility =
            mover_moves.count_ones() as i32 - moves_avx2(board.opp, board.me).count_ones() as i32;
        sum + i32::from(phase[BIAS]) + i32::from(phase[MOBILITY]) * mobility
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::reversi::board::flips;
    use patterns::Features;
    use proptest::prelude::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn every_square_is_in_its_share_of_the_lookups() {
        let total: usize = SQUARE_PARTS.counts.iter().map(|&n| usize::from(n)).sum();
        let squares: usize = PATTERNS.iter().map(|p| p.squares.len()).sum();
        assert_eq!(total, ORIENTATIONS * squares);
    }

    proptest! {
        #[test]
        fn lookups_kept_along_a_game_are_those_found_from_scratch(seed in any::<u64>()) {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut board = Board::start();
            let mut lookups = Lookups::of(board);
            while !board.is_over() {
                prop_assert_eq!(lookups, Lookups::of(board));
                prop_assert_eq!(lookups.indices(), Features::of(board).indices);
                let legal: Vec<u32> = Bits(board.moves()).collect();
                prop_assert_eq!(
                    lookups.score(patterns::shipped(), board, board.moves()),
                    patterns::evaluate(board)
                );
                if legal.is_empty() {
                    (board, lookups) = (board.pass(), lookups.pass());
                    continue;
                }
                let sq = legal[rng.random_range(0..legal.len())];
                let flipped = flips(board.me, board.opp, sq);
                let child = board.play_flips(sq, flipped);
                prop_assert_eq!(
                    lookups.score_after(patterns::shipped(), sq, flipped, child, child.moves()),
                    patterns::evaluate(child)
                );
                (board, lookups) = (board.play_flips(sq, flipped), lookups.play(sq, flipped));
            }
        }

        #[test]
        fn any_position_scores_as_the_evaluation(me in any::<u64>(), opp in any::<u64>()) {
            let board = Board { me, opp: opp & !me };
            let lookups = Lookups::of(board);
            prop_assert_eq!(lookups.indices(), Features::of(board).indices);
            let expected = patterns::evaluate(board);
            prop_assert_eq!(lookups.score(patterns::shipped(), board, board.moves()), expected);
            // The portable copy, which x86-64 CPUs with AVX2 never run otherwise.
            prop_assert_eq!(
                score_view(&lookups.mover, patterns::shipped(), board, board.moves()),
                expected
            );
        }
    }
}
