//! What the root makes of its iterations: the lines with exact scores, a
//! wipe-out settled, a partial solve's better move adopted, the first
//! order of the moves, and a move when nothing could be searched.

use super::{exact_to_mid, Evaluation, RootLine, Thought};
use crate::game::StopReason;
use crate::games::reversi::board::{Bits, Board};
use crate::games::reversi::bots::endgame::RootScore;

/// The lines of an iteration that have full-window scores: the first `top`
/// and the `include`d square's.
pub(super) fn exact_lines(lines: &[RootLine], top: usize, include: Option<u32>) -> Vec<RootLine> {
    lines
        .iter()
        .enumerate()
        .filter(|(rank, line)| *rank < top.max(1) || include.is_some() && line.square == include)
        .map(|(_, line)| line.clone())
        .collect()
}

/// Makes a complete midgame iteration's best line (an estimate until
/// now) the exact result when its move takes every disc (`true`): no deeper search can find better, so a move
/// choice stops there instead of spending its whole budget (or, node
/// capped, its whole cap) on deeper iterations.
pub(super) fn settle_wipeout(thought: &mut Thought) -> bool {
    let Some(best) = thought.lines.first_mut() else {
        return false;
    };
    if best.score < exact_to_mid(64) {
        return false;
    }
    best.score = 64;
    best.exact = true;
    thought.proven = true;
    true
}

/// After an unfinished exact solve: when a move other than the midgame's
/// choice was proven better than it, play that move instead.
pub(super) fn adopt_partial_solve(
    best: &mut Option<Thought>,
    partial: &[RootScore],
    order: &[u32],
) {
    let (Some(thought), Some(first)) = (best.as_mut(), partial.first()) else {
        return;
    };
    if first.square.is_some() && first.square != order.first().copied() && first.exact {
        let line = RootLine {
            square: first.square,
            score: exact_to_mid(first.score),
            pv: vec![first.square],
            exact: false,
        };
        thought.lines.retain(|l| l.square != first.square);
        thought.lines.insert(0, line);
    }
}

/// A move when nothing at all could be searched: the statically best.
pub(super) fn fallback(board: Board, order: &[u32]) -> Thought {
    let square = order
        .first()
        .copied()
        .or_else(|| Bits(board.moves()).next());
    Thought {
        lines: vec![RootLine {
            square,
            score: 0,
            pv: vec![square],
            exact: false,
        }],
        depth: 0,
        nodes: 0,
        stopped_by: StopReason::Time,
        proven: false,
        previous: Vec::new(),
    }
}

/// The root moves ordered by a static look at each.
pub(super) fn initial_order(board: Board, evaluation: Evaluation) -> Vec<u32> {
    let mut keyed: Vec<(i32, u32)> = Bits(board.moves())
        .map(|sq| (evaluation.score(board.play(sq)), sq))
        .collect();
    keyed.sort_unstable();
    keyed.into_iter().map(|(_, sq)| sq).collect()
}
