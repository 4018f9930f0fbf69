//! The evaluations as the midgame search calls them at its leaves: each
//! with what it keeps beside the board from move to move.

use crate::games::reversi::board::Board;
use crate::games::reversi::bots::eval;
use crate::games::reversi::bots::lookups::Lookups;
use crate::games::reversi::bots::patterns;

/// A static evaluation as the midgame search uses it: with something
/// kept beside the board from move to move, so that the trained
/// evaluation need not find its lookups again at every leaf.
pub(super) trait Leaf: Copy {
    /// What is kept beside the board.
    type Kept: Copy;
    /// What is kept for `board`, found from scratch.
    fn start(self, board: Board) -> Self::Kept;
    /// What is kept after the mover plays `sq` flipping `flipped`.
    fn play(self, kept: &Self::Kept, sq: u32, flipped: u64) -> Self::Kept;
    /// What is kept after a pass.
    fn pass(self, kept: &Self::Kept) -> Self::Kept;
    /// The score of `board` for its mover, who may play `moves`: the
    /// same as [`Evaluation::score`](super::Evaluation::score).
    fn score(self, kept: &Self::Kept, board: Board, moves: u64) -> i32;
    /// The score of `child`, the position after the mover plays `sq`
    /// flipping `flipped`, whose mover may play `child_moves`: the same as
    /// [`Leaf::score`] of [`Leaf::play`], for a child that is a leaf.
    fn score_after(
        self,
        kept: &Self::Kept,
        sq: u32,
        flipped: u64,
        child: Board,
        child_moves: u64,
    ) -> i32;
}

/// The pattern evaluation keeps the lookups of [`Lookups`].
impl Leaf for &'static patterns::Weights {
    type Kept = Lookups;

    fn start(self, board: Board) -> Lookups {
        Lookups::of(board)
    }

    #[inline(always)]
    fn play(self, kept: &Lookups, sq: u32, flipped: u64) -> Lookups {
        kept.play(sq, flipped)
    }

    #[inline(always)]
    fn pass(self, kept: &Lookups) -> Lookups {
        kept.pass()
    }

    #[inline(always)]
    fn score(self, kept: &Lookups, board: Board, moves: u64) -> i32 {
        kept.score(self, board, moves)
    }

    #[inline(always)]
    fn score_after(self, kept: &Lookups, sq: u32, flipped: u64, child: Board, moves: u64) -> i32 {
        kept.score_after(self, sq, flipped, child, moves)
    }
}

/// The hand-written evaluation keeps nothing.
#[derive(Clone, Copy)]
pub(super) struct ClassicLeaf;

impl Leaf for ClassicLeaf {
    type Kept = ();

    fn start(self, _: Board) {}

    #[inline(always)]
    fn play(self, _: &(), _: u32, _: u64) {}

    #[inline(always)]
    fn pass(self, _: &()) {}

    #[inline(always)]
    fn score(self, _: &(), board: Board, _: u64) -> i32 {
        eval::evaluate(board)
    }

    #[inline(always)]
    fn score_after(self, _: &(), _: u32, _: u64, child: Board, _: u64) -> i32 {
        eval::evaluate(child)
    }
}
