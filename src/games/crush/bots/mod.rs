//! The bot levels. Fair play: a level sees a [`View`] — the board and `k`,
//! nothing else — so it cannot read the generator to foresee refills. Where it
//! needs refills it treats them as unknown ([`Unseen`]) or samples them
//! uniformly over `1..=k` from its own seeded stream ([`Sampled`]).
//!
//! - `random`: any of the 180 swaps, from the request's seed.
//! - `greedy`: the swap with the best visible gain (what it scores from the
//!   cells on the board now, refills unseen), the first in position order
//!   among equals.
//! - `strong`: Monte-Carlo rollouts. Each candidate swap is played on sampled
//!   refills, then two greedy swaps; the rollout adds, weighted, the best
//!   visible gain of the board it leaves. Candidates share their refills each
//!   round (common random numbers) and successive halving drops the worse
//!   half as the rounds double, until the deadline or the node cap. Rollouts
//!   settle on [`Columns`], which finds runs with word operations; that is
//!   what made three swaps a rollout affordable at 50 ms. Its gain over
//!   greedy at each k is in the README and docs/crush-strong.md.
//!
//! `strong`'s one level option is `depth=1..8`, the swaps a rollout plays.
//! Its other knobs (the leaf, the rollout policy, halving, a round cap) are
//! research settings, not level options: the studies in `research/` set them
//! through [`StrongConfig`]. How `strong` works, the figures that matter with
//! the commands that produced them, and what was tried and did not help are
//! in `docs/crush-strong.md`.

mod strong;

#[cfg(test)]
pub(crate) use strong::top_two_gains;
pub use strong::{LeafKind, StrongConfig};

use crate::game::{
    Analysis, BotChoice, BotParams, Budget, GameError, LevelSpec, Scope, SearchReport, StopReason,
};
use crate::games::crush::board::{Board, Refill, Unseen, CELLS, SIDE, UNKNOWN};
use crate::games::crush::columns::Columns;
use crate::games::crush::notation::{Swap, ALL_SWAPS};
use crate::games::crush::state::State;
use crate::games::crush::CrushLevel;
use rand::Rng;

/// What a bot may see: the board and `k`, never the generator.
#[derive(Clone, Copy, Debug)]
pub struct View {
    /// The settled board.
    pub board: Board,
    /// Digits run from 1 to `k`.
    pub k: u8,
}

impl View {
    /// The fair view of a state.
    pub fn of(state: &State) -> View {
        View {
            board: state.board,
            k: state.k,
        }
    }
}

/// Refills sampled uniformly over `1..=k` from a small fast stream
/// (SplitMix64), seeded from the level's ChaCha generator.
pub struct Sampled {
    state: u64,
    k: u64,
}

impl Sampled {
    /// A stream for digits `1..=k`.
    pub fn new(seed: u64, k: u8) -> Self {
        Sampled {
            state: seed,
            k: u64::from(k),
        }
    }

    fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    fn below(&mut self, n: u64) -> u64 {
        ((self.next() >> 32) * n) >> 32
    }
}

impl Refill for Sampled {
    fn digit(&mut self) -> u8 {
        self.below(self.k) as u8 + 1
    }
}

/// Whether the swap makes a run through one of its two cells (no copy made).
pub(crate) fn swap_matches(board: &Board, swap: Swap) -> bool {
    immediate_points(board, swap) > 0
}

/// The points of the runs the swap itself makes (the first settling step,
/// before anything falls), computed in place.
pub(crate) fn immediate_points(board: &Board, swap: Swap) -> u32 {
    let (a, b) = (swap.a(), swap.b());
    let (da, db) = (board.get(a), board.get(b));
    if da == db {
        return 0;
    }
    points_through(board, b, da, a) + points_through(board, a, db, b)
}

/// The points of the runs `digit` makes when put at `at`, not counting the
/// direction of `from` (the cell it came from, which now holds another digit).
fn points_through(board: &Board, at: usize, digit: u8, from: usize) -> u32 {
    if digit == UNKNOWN {
        return 0;
    }
    let (row, col) = (at / SIDE, at % SIDE);
    let same = |r: usize, c: usize| r * SIDE + c != from && board.get(r * SIDE + c) == digit;
    let left = (0..col).rev().take_while(|&c| same(row, c)).count();
    let right = (col + 1..SIDE).take_while(|&c| same(row, c)).count();
    let up = (0..row).rev().take_while(|&r| same(r, col)).count();
    let down = (row + 1..SIDE).take_while(|&r| same(r, col)).count();
    let score = |len: usize| if len >= 3 { (len * len) as u32 } else { 0 };
    score(left + right + 1) + score(up + down + 1)
}

/// For every cell, how many cells in a line hold its digit, counting itself,
/// going left, right, up and down: with these, whether a swap matches is a
/// few look-ups (what [`greedy`] does for all 180 swaps of a board).
pub(crate) struct Streaks {
    left: [u8; CELLS],
    right: [u8; CELLS],
    up: [u8; CELLS],
    down: [u8; CELLS],
}

impl Streaks {
    /// The streaks of `board`.
    pub fn of(board: &Board) -> Streaks {
        let cells = board.cells();
        let mut st = Streaks {
            left: [1; CELLS],
            right: [1; CELLS],
            up: [1; CELLS],
            down: [1; CELLS],
        };
        for i in 0..CELLS {
            if i % SIDE > 0 && cells[i] == cells[i - 1] {
                st.left[i] = st.left[i - 1] + 1;
            }
            if i >= SIDE && cells[i] == cells[i - SIDE] {
                st.up[i] = st.up[i - SIDE] + 1;
            }
        }
        for i in (0..CELLS).rev() {
            if i % SIDE < SIDE - 1 && cells[i] == cells[i + 1] {
                st.right[i] = st.right[i + 1] + 1;
            }
            if i + SIDE < CELLS && cells[i] == cells[i + SIDE] {
                st.down[i] = st.down[i + SIDE] + 1;
            }
        }
        st
    }

    /// [`immediate_points`] from the streaks.
    pub fn immediate_points(&self, board: &Board, swap: Swap) -> u32 {
        let (a, b) = (swap.a(), swap.b());
        let (da, db) = (board.get(a), board.get(b));
        if da == db {
            return 0;
        }
        self.points_through(board, b, da, a) + self.points_through(board, a, db, b)
    }

    fn points_through(&self, board: &Board, at: usize, digit: u8, from: usize) -> u32 {
        if digit == UNKNOWN {
            return 0;
        }
        let streak = |neighbour: usize, lengths: &[u8; CELLS]| {
            if neighbour != from && board.get(neighbour) == digit {
                usize::from(lengths[neighbour])
            } else {
                0
            }
        };
        let (row, col) = (at / SIDE, at % SIDE);
        let left = if col > 0 {
            streak(at - 1, &self.left)
        } else {
            0
        };
        let right = if col + 1 < SIDE {
            streak(at + 1, &self.right)
        } else {
            0
        };
        let up = if row > 0 {
            streak(at - SIDE, &self.up)
        } else {
            0
        };
        let down = if row + 1 < SIDE {
            streak(at + SIDE, &self.down)
        } else {
            0
        };
        let score = |len: usize| if len >= 3 { (len * len) as u32 } else { 0 };
        score(left + right + 1) + score(up + down + 1)
    }
}

/// What a swap scores from the cells visible now: its runs and the cascades
/// among cells already on the board (refills unknown). One swap at a time;
/// the levels scan all of a board's swaps at once, and the tests check them
/// against this.
#[cfg(test)]
pub(crate) fn visible_gain(board: &Board, swap: Swap) -> u32 {
    if !swap_matches(board, swap) {
        return 0;
    }
    Columns::of(board).swap_and_settle(swap.a(), swap.b(), &mut Unseen)
}

/// Every swap that matches something now, in position order, with its
/// visible gain (the others are ruled out all at once without settling them).
pub(super) fn visible_gains(columns: &Columns) -> impl Iterator<Item = (Swap, u32)> + '_ {
    columns.matches().swaps().map(move |swap| {
        let mut after = *columns;
        (swap, after.swap_and_settle(swap.a(), swap.b(), &mut Unseen))
    })
}

/// The greedy choice: the highest visible gain, the first in position order
/// among equals. Also returns that gain.
pub fn greedy(board: &Board) -> (Swap, u32) {
    greedy_on(&Columns::of(board))
}

/// [`greedy`] on a board already held as columns (as rollouts hold it),
/// without converting it back and forth.
pub fn greedy_on(columns: &Columns) -> (Swap, u32) {
    let mut best = (ALL_SWAPS[0], 0);
    for (swap, gain) in visible_gains(columns) {
        if gain > best.1 {
            best = (swap, gain);
        }
    }
    best
}

/// Runs the level named in `level`.
pub(crate) fn choose(
    view: &View,
    level: &LevelSpec<CrushLevel>,
    params: &BotParams,
    budget: &Budget,
) -> Result<BotChoice<Swap>, GameError> {
    match level.level {
        CrushLevel::Random => {
            level.only_options(&[])?;
            let mut rng = params.rng();
            let mv = ALL_SWAPS[rng.random_range(0..ALL_SWAPS.len())];
            Ok(BotChoice {
                mv,
                report: SearchReport::plain(),
            })
        }
        CrushLevel::Greedy => {
            level.only_options(&[])?;
            let (mv, gain) = greedy(&view.board);
            let report = SearchReport {
                depth: Some(1),
                nodes: Some(ALL_SWAPS.len() as u64),
                score: Some(i64::from(gain)),
                stopped_by: Some(StopReason::Depth),
                ..SearchReport::plain()
            };
            Ok(BotChoice { mv, report })
        }
        CrushLevel::Strong => {
            // `depth` is the one knob a user needs: how far each sampled
            // future looks (longer sees more, but a 50 ms budget then buys
            // fewer samples; 1 is the fastest useful setting). It is the
            // same knob as a request's `max_depth`, which the CLI and the
            // HTTP API both have, so the level option only spells it where a
            // level string is all there is (`--bot strong:depth=4`). The
            // other knobs are research settings, reached through
            // `StrongConfig` (see the module doc), and refused here.
            level.only_options(&["depth"])?;
            let defaults = StrongConfig::for_budget(view.k, budget);
            let config = StrongConfig {
                depth: level
                    .int_option("depth", 1..=8)?
                    .map_or(defaults.depth, |d| d as u32),
                ..defaults
            };
            Ok(config.choose(view, params, budget))
        }
    }
}

/// The swaps of `scope` by the estimate of `strong` (its defaults, the
/// depth from the budget): its `top` best, then its included swap, sampled
/// to the end on the same refills as the best. A swap's score is its value
/// to `strong`: the mean points of its rollouts (the swap and the policy's
/// swaps after it, on sampled refills) plus their weighted leaf.
pub fn analyze(
    view: &View,
    scope: &Scope<Swap>,
    params: &BotParams,
    budget: &Budget,
) -> Analysis<Swap> {
    StrongConfig::for_budget(view.k, budget).analyze(view, scope, params, budget)
}
