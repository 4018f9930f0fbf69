//! The bot levels. Fair play: a level sees a [`View`] — the board and `k`,
//! nothing else — so it cannot read the generator to foresee refills. Where it
//! needs refills it treats them as unknown ([`Unseen`]) or samples them
//! uniformly over `1..=k` from its own seeded stream ([`Sampled`]).
//!
//! `strong` takes these options (each checked, out of range refused):
//! `depth=1..8` (sampled swaps a rollout plays, the candidate first; default
//! 3), `rounds=N` (a cap on the sampling rounds), `policy=0|1` (the rollout
//! policy after the first swap: cheap, or greedy, the default), `leaf=0..1000`
//! (the leaf's weight in percent), `leafkind=0|1|2` (the leaf: best visible
//! gain, best immediate points, or best plus `second` percent of the
//! second-best visible gain; 2 is the default at k = 4, 0 above),
//! `second=0..100` and `halve=0|1` (successive halving of the candidates, on
//! by default).
//!
//! Rollouts settle on [`Columns`], which finds runs with word operations and
//! all matching swaps of a board at once: a depth-3 rollout costs a third of
//! what it did on the row board, and that is what made depth 3 the default.
//! At 50 ms a swap over 30 seeds (single thread, ±3 points of noise), k = 4:
//! depth 1 +15.0%, depth 2 +17.2% (the same +17.2% with 100,000 nodes a swap,
//! about 2.5 s: depth 2 has converged), depth 3 +16.9% to +18.0%, depth 4
//! +16.3%. Over 50 seeds depth 3 gave +17.3% ± 2.1, and +16.2% ± 2.1 with
//! common random numbers that follow the cells (a refill stream per column,
//! so rollouts that empty the same cells see the same new ones; dropped).
//! Over 20 seeds at k = 5, 6, 7
//! depth 3 gave +34.8%, +60.5%, +64.3% where depth 1 gave +29.3%, +45.9%,
//! +54.6%. The README's 50-seed run of the defaults (both cores, one game
//! each): +16.9%, +34.9%, +58.5%, +69.6% for k = 4 to 7 (+17.3%, +34.3%,
//! +59.0%, +68.2% with the budget-aware first cut); over 100 seeds at
//! k = 4, +14.8% ± 1.6. Weighing the second-best gain of the board the
//! candidate leaves as well (its next swap's options) lost: +13.3% at half
//! weight and +8.7% at full weight on the same 100 seeds. A rollout policy
//! closer to `strong` (greedy plus the best visible gain of the board each
//! swap leaves, refills unseen) costs ten times a greedy step: at equal nodes
//! it looked no worse (+12.6% where the defaults gave +9.2%, 3,000 nodes, 4
//! seeds), but at 50 ms it starves the sampling and lost badly (−32%, 100
//! seeds): with a few samples a swap the choice is all but random.
//! Weighing only the three best visible gains that way (1.7 times the cost
//! of a default rollout) lost even at equal rollouts: 50 seeds at 10,000
//! nodes a swap gave +15.4% (the board it leaves weighed fully) and +16.2%
//! (weighed 0.4), where the defaults at 5,700 nodes gave +17.8% ± 2.4 on the
//! same seeds.
//!
//! Time does not close the k = 4 gap: at 40,000 nodes a swap (about 7 times
//! what 50 ms buys; 20 seeds, node-capped so the load cannot change it)
//! depth 3 gave +16.6% ± 4.4 and depth 5 +13.6% ± 3.0; over 100 seeds the
//! defaults gave +16.1% ± 1.7 at 40,000 nodes and +16.3% ± 1.8 at 5,700.
//! The rollout values have all but converged; what is left is in the model
//! of the future, not in sampling it.
//! `examples/crush_regret.rs` measures it on 100 k = 4 boards: against a
//! 200,000-node search, the 5,700-node pick (about 50 ms) agrees on 81 and
//! gives up 3.5 points of the search's own value a swap, where a second
//! 200,000-node search gives up 1.5 (the reference's noise) and greedy 38.
//! So perfect estimates would add about 2 points a swap, about 1% at k = 4.
//!
//! What measurements at k = 4 showed (issue #8; the notes on `Strong` and
//! `Tuning::for_k` have the rest): a swap's expected points over sampled
//! refills are close to 2.23 times its visible gain, minus 3 (a least-squares
//! fit over 4,376 swaps of 100 greedy-game boards, 200 samples each, R² 0.905;
//! how many cells fall, how low and how many columns add almost nothing:
//! R² 0.912), so the points `strong` wins over greedy come from the board a
//! swap leaves. Every leaf tried lands between +10% and +15% over greedy at
//! 6,000 nodes a swap (about 50 ms), 4 times the nodes adds under 2
//! percentage points, and a leaf weighed too much makes the bot put off its
//! best swap.
//!
//! Why k = 4 is hard (measured on 8,000 greedy swaps and 6,400 `strong`
//! swaps, 80 games each): a swap there removes 48 cells on average in 6.6
//! cascade steps, so about half the board is new after every swap. The
//! points of the swaps after the next one are all but independent of the
//! board now (R² 0.02 to 0.05 for the best gains, the number of matching
//! swaps, digit balance, pairs, the best two-swap plan and the row of the
//! best swap; on `strong`'s own games R² 0.001 to 0.004), which made the
//! next board look like the only lever: `strong`'s boards offer a best
//! visible gain of 88 on average where greedy's offer 74. A least-squares
//! value of a board over the next three swaps is about 1.7 times its best
//! visible gain plus 0.4 times its second best, which is what the top-two
//! leaf already counts.
//! But R² over boards is small even where the choice on one board matters:
//! `examples/crush_horizon.rs` (`-- 10 2000 4 5`: 100 boards of greedy
//! games, 2,000 refill samples shared by the choices, greedy playing on for
//! five swaps; 12 minutes) finds that a board's choices move the mean
//! points of the next swap by 34 (the standard deviation over its matching
//! swaps, sampling noise taken out), of the one after by 16, then 7.5, 4.4
//! and 2.8: about half as much each swap further.
//! Choosing by the points up to two swaps after the choice, which is what a
//! depth-3 rollout sees, gives up 0.9 points of the six-swap value against
//! choosing by all six; up to one swap after gives up 4.5, the swap's own
//! points 26.9 and greedy's pick 38.3. So with greedy playing on, depth 3
//! already sees what a choice is worth; what the rollouts cannot see is
//! `strong` playing on instead. The rollout policy matters — the cheap one
//! (own runs only) gave +2.2% where greedy gave +17.8% (5,700 nodes, 50
//! seeds) — but a slightly better one as cheap did not help: a linear policy
//! (visible gain, plus 6.5 a cell emptied, 2 a row down and 2 a matching
//! swap left; +2.25% over greedy as a bot of its own over 1,000 games, the
//! weights found by coordinate search) gave +15.9%. Nor did a better one
//! that costs more: as a bot of its own the one-swap look-ahead (visible
//! gain plus half the best visible gain of the board it leaves) is +7.3%
//! over greedy, +4.7% weighing only the three best swaps
//! (`examples/crush_lookahead.rs`, 300 games); the three-swap one, used for
//! the first policy swap of each rollout, lost at equal rollouts (above).
//!
//! Where `strong`'s gain comes from: `examples/crush_advantage.rs` (its
//! defaults: 100 boards each of greedy and of `strong` games, every matching
//! swap valued by its points and greedy's four swaps after it over 1,000
//! shared refill samples; 9 minutes on two cores). On greedy's boards the
//! best choice is worth 35.9 points over greedy's pick, and `strong`'s pick
//! gives up 0.3 of that (it is the best on 80 of 100 boards); on `strong`'s
//! own boards the best is worth 25.1 over greedy's pick and `strong` gives
//! up 0.4 (82 of 100). Its gain in whole games, about 26 points a swap, is
//! that 25: `strong` is, all but exactly, the best one-step improvement on
//! greedy, and the boards it plays on leave less to improve than greedy's.
//! Going further at k = 4 needs rollouts that play on better than greedy,
//! and a better myopic policy as cheap did not do it: a swap's expected
//! points estimated from its visible gain, the cells it leaves empty and
//! the chance that refills complete a line of three
//! (`examples/crush_expected.rs`: R² 0.961 where the gain alone gives
//! 0.918; +2.4% over greedy as a bot of its own over 1,000 games) made
//! `strong` +16.6% as its rollout policy, where greedy made it +17.8%
//! (5,700 nodes, 50 seeds).
//! Two more things that did not help at k = 4. First, the one-swap
//! look-ahead with the board it leaves sampled instead of unseen
//! (`crush_lookahead -- 300 WEIGHT TOP 4 SAMPLES`): unseen refills count
//! every emptied cell as dead, which should favour swaps that clear little,
//! but sampling them is no better: +4.1% (the three best swaps, 4 draws,
//! weight 1), +4.7% (the five best, 4 draws, weight 1.6), −1.7% on one
//! draw, where unseen on every swap gives +7.3%; every swap on 16 draws at
//! weight 1.6 gives +11.7% but costs about 340 greedy scans a move. Second,
//! a premium for what `strong` adds on the board a candidate leaves: the
//! rollouts value that board as greedy would play it, and `strong`'s gain
//! there is what its pick is worth over greedy's. Estimated from the
//! visible gains the rollout's greedy scan already has (a swap worth 2.23
//! times its visible gain plus an independent normal term of spread σ; the
//! premium adds up every swap's expected excess over the best) and added to
//! the rollout's value, it lost: +15.8% ± 2.0 at σ = 15 and +14.6% ± 2.3 at
//! σ = 30, where the defaults gave +17.8% ± 2.4 (50 seeds, 5,700 nodes a
//! swap); taking the premium off instead (favouring a board with one clearly
//! best swap) changed nothing: +17.5% ± 2.4 at σ = 15. Crediting the
//! options of the board a candidate leaves, this way or by its second-best
//! gain (above), moves `strong` the wrong way. The premium's code was
//! removed again.
//! Measured on game seeds 100..149 (`--first-seed 100`, held out from the
//! bar's seeds 0..49; greedy 16,247.4, the defaults at 5,700 nodes 18,728.4,
//! +15.3% ± 2.4; the runs are node-capped, so deterministic):
//! - The leaf does not matter at depth 3 (it was tuned for one-swap
//!   rollouts): `leaf=0` +14.2%, `leaf=100` +14.9%, `leaf=250` +14.1%,
//!   `second=0` +16.4%, `depth=2,leaf=250` +14.7%, all within the noise.
//! - A better rollout policy buys about a point: the one-swap look-ahead
//!   (+7.3% over greedy as a bot of its own, above) playing both policy
//!   swaps of every rollout, at equal rollouts, gave 18,909.8 (+16.4%), at
//!   19 times the cost (93 s a game where the defaults take 5). So a second
//!   round of policy improvement on a base as good as that would not reach
//!   +20% even if it were free.
//! - Sampling is not what holds it: at 20,000 nodes the defaults gave +15.1%
//!   and no halving (every candidate sampled about 167 times, none dropped
//!   after 8 rounds) +13.8%; taking the pick only from the candidates
//!   halving kept (an eliminated one's frozen mean can outrank them) gave
//!   +14.8%.
//! - With the first cut fixed at round 8, the gain fell fast below 50 ms:
//!   +11.6% at 3,500 nodes and +2.6% at 2,000, where halving had not yet
//!   narrowed the candidates. The first cut now comes earlier when the
//!   budget is small (`Strong::first_cut`): +14.8% and +11.8%, and +15.7%
//!   at 5,700 nodes (the figures above are from before that change).
//! - A second step of policy improvement does not reach it either.
//!   `examples/crush_second_step.rs` (its defaults: 100 boards of `strong`
//!   games, `strong`'s three best candidates each played on 400 refill
//!   samples shared by them, a 2,000-node `strong` search making the next
//!   swap and greedy the two after; 15 minutes on two cores) chooses by
//!   those values on half the samples and values the choice on the other
//!   half: +0.54 ± 1.69 points a swap over `strong`'s own pick (the same
//!   pick on 86 boards), where +20% needs about 4.4 more on the bar's seeds.
//!   The small search makes 11 points over greedy on the board a candidate
//!   leaves, but not differently enough between the candidates to change
//!   the pick. Choosing on 200 samples a half is itself noisy, so exact
//!   values could gain a little more, but the margin's top, 2.2, is half of
//!   what is missing, and the search costs over 400 times `strong`'s budget.
//!
//! Before the column board, single-thread runs over 30 seeds (±2 points of
//! noise) all landed from +9% to +18%. At 50 ms: one-swap rollouts (then
//! the default) +15.1%, successive halving +15.4%,
//! two sampled swaps with a greedy second +12.9%, a leaf valuing the best
//! two-swap plan among the 3 to 8 best swaps +9% to +14%, a leaf that counts
//! a swap already on the board at a lower weight than a new one +9.6% to
//! +15.7%, and the top-two leaf at 2.2 collapsed (−1.2%: the bot kept its
//! best swap for later for ever). At 200 ms: one-swap rollouts +15.7%, two
//! sampled swaps with a greedy second +16.4% (+17.7% with successive
//! halving): deeper rollouts needed a faster visible-gain scan to pay at
//! 50 ms, which is what [`Columns`] gave.

use super::board::{Board, Refill, Unseen, CELLS, SIDE, UNKNOWN};
use super::columns::Columns;
use super::moves::{Swap, ALL_SWAPS};
use super::state::State;
use crate::game::{
    Analysis, BotChoice, BotParams, Budget, GameError, LevelSpec, ScoredMove, SearchReport,
    StopReason,
};
use rand::{Rng, RngCore};
use serde_json::json;
use std::time::{Duration, Instant};

/// Default number of sampled swaps in a `strong` rollout (the first one included).
pub const DEFAULT_DEPTH: u32 = 3;
/// Rounds of sampling `strong` runs when neither a deadline nor a node cap bounds it.
pub const DEFAULT_ROUNDS: u64 = 64;
/// The most rounds `strong` runs at all, whatever the budget.
const MAX_ROUNDS: u64 = 100_000;
/// The round of halving's first cut when the budget allows 24 rounds or more.
const LATEST_FIRST_CUT: u64 = 8;
/// Below this many matching swaps, `strong` also weighs swaps that match nothing now.
const FEW_MATCHES: usize = 6;

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
pub fn swap_matches(board: &Board, swap: Swap) -> bool {
    immediate_points(board, swap) > 0
}

/// The points of the runs the swap itself makes (the first settling step,
/// before anything falls), computed in place.
pub fn immediate_points(board: &Board, swap: Swap) -> u32 {
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
pub struct Streaks {
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
/// among cells already on the board (refills unknown).
pub fn visible_gain(board: &Board, swap: Swap) -> u32 {
    if !swap_matches(board, swap) {
        return 0;
    }
    settle_visible(board, swap)
}

fn settle_visible(board: &Board, swap: Swap) -> u32 {
    Columns::of(board).swap_and_settle(swap.a(), swap.b(), &mut Unseen)
}

/// Every swap that matches something now, in position order, with its
/// visible gain (the others are ruled out all at once without settling them).
fn visible_gains(columns: &Columns) -> impl Iterator<Item = (Swap, u32)> + '_ {
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
pub fn choose(
    view: &View,
    level: &LevelSpec,
    params: &BotParams,
    budget: &Budget,
) -> Result<BotChoice<Swap>, GameError> {
    match level.name.as_str() {
        "random" => {
            level.only_options(&[])?;
            let mut rng = params.rng();
            let mv = ALL_SWAPS[rng.random_range(0..ALL_SWAPS.len())];
            Ok(BotChoice {
                mv,
                report: SearchReport::plain(),
            })
        }
        "greedy" => {
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
        "strong" => {
            level.only_options(&[
                "depth", "rounds", "policy", "leaf", "leafkind", "halve", "second",
            ])?;
            let rounds = level.int_option("rounds", 1..=MAX_ROUNDS)?;
            let tuning = Tuning::from_level(level, view.k, budget)?;
            let search = Strong::new(view, params, budget, rounds, tuning).run();
            let best = search
                .ranked()
                .first()
                .map(|c| c.swap)
                .unwrap_or(search.fallback);
            let report = search.report();
            Ok(BotChoice { mv: best, report })
        }
        other => Err(GameError::UnknownLevel {
            level: other.to_string(),
            known: "random, greedy, strong".to_string(),
        }),
    }
}

/// The `top` swaps by `strong`'s estimate. A swap's score is its value to
/// `strong`: its expected points over sampled refills plus the weighted
/// visible gain of the best swap on the board it leaves.
pub fn analyze(view: &View, top: usize, params: &BotParams, budget: &Budget) -> Analysis<Swap> {
    let tuning = Tuning::for_budget(view.k, budget);
    let search = Strong::new(view, params, budget, None, tuning).run();
    let mut moves: Vec<ScoredMove<Swap>> = search
        .ranked()
        .into_iter()
        .take(top)
        .map(|c| ScoredMove {
            mv: c.swap,
            score: c.mean().round() as i64,
            pv: vec![c.swap],
            exact: None,
        })
        .collect();
    if moves.is_empty() {
        let (swap, gain) = greedy(&view.board);
        moves.push(ScoredMove {
            mv: swap,
            score: i64::from(gain),
            pv: vec![swap],
            exact: None,
        });
    }
    Analysis {
        moves,
        report: search.report(),
    }
}

/// What a rollout adds at its end for the board it leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LeafKind {
    /// The best visible gain on the sampled board (`leafkind=0`).
    SampledGreedy,
    /// The best immediate points on the sampled board, no cascade (`leafkind=1`).
    Immediate,
    /// The best visible gain on the sampled board plus `second` percent of
    /// the second best (`leafkind=2`): a board with two good swaps keeps one
    /// for later.
    TopTwo,
}

/// Knobs of `strong`; each can be set as a level option.
#[derive(Clone, Copy, Debug)]
struct Tuning {
    /// Swaps after the first in a rollout, played by a policy (`depth` − 1).
    depth: u32,
    /// The policy of those swaps: the greedy level (else the cheap [`policy`]).
    greedy_policy: bool,
    /// Weight, in percent, of the leaf value: the best visible gain left on
    /// the board the rollout ends on (0: none).
    leaf_percent: u32,
    /// Which leaf value to use.
    leaf_kind: LeafKind,
    /// Successive halving: at the first cut (round 8, earlier on a small
    /// budget) and every time the rounds double after it, drop the
    /// worse half of the candidates.
    halve: bool,
    /// Weight, in percent, of the second-best gain in the [`LeafKind::TopTwo`] leaf.
    second_percent: u32,
}

impl Tuning {
    /// The defaults, chosen with the crush benchmark: three swaps a rollout
    /// (the candidate, then two greedy ones; see the module doc), successive
    /// halving, then the next swap's visible gain as the leaf. The leaf was
    /// tuned when rollouts were one swap long: weighted 1.6 for k = 4 (a
    /// swap's expected points there are about 2.2 times its visible gain, but
    /// the leaf is noisy: 1.0, 1.3, 1.6, 2.2 gave +9..+15% and 3.0 +5%) and
    /// 1 above (3.0 collapses at k = 5). At k = 4 the leaf also counts half
    /// the second-best gain ([`LeafKind::TopTwo`]): over 50 seeds at 6,000
    /// nodes a swap it gave +15.4% over greedy where the plain leaf gave
    /// +13.8% (within the noise, but the same way on 20 seeds: +14.2% and
    /// +13.0%). Weighing the second best fully (with the leaf at 1.6) makes
    /// the bot put off its best swap for ever (+6.8%).
    fn for_k(k: u8) -> Tuning {
        Tuning {
            depth: DEFAULT_DEPTH,
            greedy_policy: true,
            leaf_percent: if k == 4 { 160 } else { 100 },
            leaf_kind: if k == 4 {
                LeafKind::TopTwo
            } else {
                LeafKind::SampledGreedy
            },
            halve: true,
            second_percent: 50,
        }
    }

    /// The defaults for `k`, with the budget's depth cap if it has one.
    fn for_budget(k: u8, budget: &Budget) -> Tuning {
        Tuning {
            depth: budget.max_depth.map_or(DEFAULT_DEPTH, |d| d.clamp(1, 8)),
            ..Tuning::for_k(k)
        }
    }

    /// The defaults for `k` with the level's options applied.
    fn from_level(level: &LevelSpec, k: u8, budget: &Budget) -> Result<Tuning, GameError> {
        let defaults = Tuning::for_budget(k, budget);
        Ok(Tuning {
            depth: level
                .int_option("depth", 1..=8)?
                .map_or(defaults.depth, |d| d as u32),
            greedy_policy: level.switch_option("policy", defaults.greedy_policy)?,
            leaf_percent: level
                .int_option("leaf", 0..=1000)?
                .map_or(defaults.leaf_percent, |v| v as u32),
            leaf_kind: match level.int_option("leafkind", 0..=2)? {
                None => defaults.leaf_kind,
                Some(0) => LeafKind::SampledGreedy,
                Some(1) => LeafKind::Immediate,
                Some(_) => LeafKind::TopTwo,
            },
            halve: level.switch_option("halve", defaults.halve)?,
            second_percent: level
                .int_option("second", 0..=100)?
                .map_or(defaults.second_percent, |v| v as u32),
        })
    }
}

/// One swap `strong` weighs, with the sum of its sampled values.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    swap: Swap,
    total: f64,
    samples: u32,
    active: bool,
}

impl Candidate {
    fn mean(&self) -> f64 {
        if self.samples == 0 {
            f64::NEG_INFINITY
        } else {
            self.total / f64::from(self.samples)
        }
    }
}

/// The `strong` level: Monte-Carlo rollouts. Each candidate swap is played on
/// sampled refills, then `depth - 1` swaps of a policy (two greedy swaps by
/// default), and the rollout adds, weighted, the best visible gain of the
/// board it leaves (at k = 4 plus half the second best); a candidate's value
/// is its mean over the rounds, and with halving the worse half of the
/// candidates stops being sampled each time the rounds double. All
/// candidates of a round share their refills (common random numbers), so
/// their differences are measured with less noise. Rounds go on until the
/// deadline, the node cap (a node is one sampled swap or one leaf
/// evaluation) or the round cap.
///
/// Measured with the crush benchmark: greedy already takes the swap with the
/// best expected points on most boards (34 of 40 sampled k = 4 boards), so
/// the gain comes from the boards left for later; a cheap rollout policy
/// (own runs only) only added noise, the greedy one pays once rollouts are
/// fast enough (see the module doc).
struct Strong<'a> {
    view: &'a View,
    columns: Columns,
    budget: &'a Budget,
    tuning: Tuning,
    max_rounds: u64,
    seeds: rand_chacha::ChaCha8Rng,
    candidates: Vec<Candidate>,
    fallback: Swap,
    nodes: u64,
    rounds: u64,
    stopped_by: StopReason,
}

impl<'a> Strong<'a> {
    fn new(
        view: &'a View,
        params: &BotParams,
        budget: &'a Budget,
        rounds: Option<u64>,
        tuning: Tuning,
    ) -> Self {
        let unbounded = budget.deadline.is_none() && budget.max_nodes.is_none();
        let max_rounds = rounds.unwrap_or(if unbounded {
            DEFAULT_ROUNDS
        } else {
            MAX_ROUNDS
        });
        let (fallback, _) = greedy(&view.board);
        let candidates = candidates(&view.board);
        Strong {
            view,
            columns: Columns::of(&view.board),
            budget,
            tuning,
            max_rounds,
            seeds: params.rng(),
            candidates,
            fallback,
            nodes: 0,
            rounds: 0,
            stopped_by: StopReason::Depth,
        }
    }

    fn run(mut self) -> Self {
        if self.candidates.len() <= 1 {
            self.stopped_by = StopReason::Proven;
            return self;
        }
        let started = Instant::now();
        let mut next_cut = LATEST_FIRST_CUT;
        while self.rounds < self.max_rounds {
            if self.rounds == 1 {
                next_cut = self.first_cut(started.elapsed());
            }
            if self.tuning.halve && self.rounds == next_cut {
                self.halve();
                next_cut *= 2;
            }
            if let Some(reason) = self.sample_round() {
                self.stopped_by = reason;
                return self;
            }
        }
        self
    }

    /// Samples every active candidate once more, all on the same refills;
    /// why it stopped if the budget ran out first.
    fn sample_round(&mut self) -> Option<StopReason> {
        let seed = self.seeds.next_u64();
        for i in 0..self.candidates.len() {
            if !self.candidates[i].active {
                continue;
            }
            if let Some(reason) = self.must_stop() {
                return Some(reason);
            }
            let value = self.rollout(self.candidates[i].swap, seed);
            let candidate = &mut self.candidates[i];
            candidate.total += value;
            candidate.samples += 1;
        }
        self.rounds += 1;
        None
    }

    /// The round of the first cut, once the first round has shown what a
    /// round costs: a third of the rounds the budget would allow if no
    /// candidate were dropped, from 2 to [`LATEST_FIRST_CUT`]. Halving then
    /// still reaches the last few candidates, where a fixed cut at round 8
    /// leaves a small budget (or a board where all 180 swaps are candidates)
    /// choosing among eight or more candidates sampled a few times each. At
    /// k = 4 on seeds 100..149 (greedy 16,247.4) it lifted `strong` from
    /// +2.6% to +11.8% at 2,000 nodes a swap and from +11.6% to +14.8% at
    /// 3,500; at 5,700 (about 50 ms), +15.7% where the fixed cut gave +15.3%.
    /// A fifth instead of a third gave +11.1%, +13.4% and +14.2%.
    fn first_cut(&self, first_round: Duration) -> u64 {
        let mut rounds = self.max_rounds;
        if let Some(cap) = self.budget.max_nodes {
            rounds = rounds.min(cap / self.nodes.max(1));
        }
        let round_ms = first_round.as_secs_f64() * 1000.0;
        if let Some(left_ms) = self.budget.remaining_ms().filter(|_| round_ms > 0.0) {
            rounds = rounds.min(1 + (left_ms / round_ms) as u64);
        }
        (rounds / 3).clamp(2, LATEST_FIRST_CUT)
    }

    /// Keeps the better half of the active candidates (at least 3).
    fn halve(&mut self) {
        let mut active: Vec<(f64, usize)> = self
            .candidates
            .iter()
            .enumerate()
            .filter(|(_, c)| c.active)
            .map(|(i, c)| (c.mean(), i))
            .collect();
        if active.len() <= 3 {
            return;
        }
        active.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
        let keep = active.len().div_ceil(2).max(3);
        for &(_, i) in &active[keep..] {
            self.candidates[i].active = false;
        }
    }

    fn must_stop(&self) -> Option<StopReason> {
        if self.budget.nodes_exhausted(self.nodes) {
            return Some(StopReason::Nodes);
        }
        self.budget.interrupted()
    }

    /// One sampled future of `first`: its settling, then greedy swaps.
    fn rollout(&mut self, first: Swap, seed: u64) -> f64 {
        let mut stream = Sampled::new(seed, self.view.k);
        let mut columns = self.columns;
        let mut total = columns.swap_and_settle(first.a(), first.b(), &mut stream);
        for _ in 1..self.tuning.depth {
            let next = if self.tuning.greedy_policy {
                greedy_policy(&columns, &mut stream)
            } else {
                policy(&columns.to_board(), &mut stream)
            };
            total += columns.swap_and_settle(next.a(), next.b(), &mut stream);
        }
        self.nodes += u64::from(self.tuning.depth);
        let mut value = f64::from(total);
        if self.tuning.leaf_percent > 0 {
            let leaf = match self.tuning.leaf_kind {
                LeafKind::SampledGreedy => f64::from(greedy_on(&columns).1),
                LeafKind::Immediate => f64::from(best_immediate(&columns.to_board())),
                LeafKind::TopTwo => {
                    let (best, second) = top_two_on(&columns);
                    let weight = f64::from(self.tuning.second_percent) / 100.0;
                    f64::from(best) + weight * f64::from(second)
                }
            };
            // A swap that matches nothing only defers the board's chances: its
            // leaf never counts more than once, or the bot would stop scoring.
            let percent = if swap_matches(&self.view.board, first) {
                self.tuning.leaf_percent
            } else {
                self.tuning.leaf_percent.min(100)
            };
            value += leaf * f64::from(percent) / 100.0;
            self.nodes += 1;
        }
        value
    }

    /// Candidates best first (by mean value, then position order).
    fn ranked(&self) -> Vec<Candidate> {
        let mut ranked: Vec<Candidate> = self
            .candidates
            .iter()
            .copied()
            .filter(|c| c.samples > 0)
            .collect();
        ranked.sort_by(|x, y| y.mean().total_cmp(&x.mean()).then(x.swap.cmp(&y.swap)));
        if ranked.is_empty() && self.candidates.len() == 1 {
            ranked.push(self.candidates[0]);
        }
        ranked
    }

    fn report(&self) -> SearchReport {
        let best = self
            .ranked()
            .first()
            .map(Candidate::mean)
            .filter(|m| m.is_finite());
        let mut report = SearchReport {
            depth: Some(self.tuning.depth),
            nodes: Some(self.nodes),
            score: best.map(|m| m.round() as i64),
            stopped_by: Some(self.stopped_by),
            ..SearchReport::plain()
        };
        report.extra.insert("rounds".into(), json!(self.rounds));
        report
            .extra
            .insert("candidates".into(), json!(self.candidates.len()));
        report
    }
}

/// The swaps `strong` weighs: every swap that matches now, and when there are
/// few of those, every other swap too (a set-up can be worth more).
fn candidates(board: &Board) -> Vec<Candidate> {
    let matching: Vec<Swap> = ALL_SWAPS
        .iter()
        .copied()
        .filter(|&s| swap_matches(board, s))
        .collect();
    let chosen: Vec<Swap> = if matching.len() < FEW_MATCHES {
        ALL_SWAPS.to_vec()
    } else {
        matching
    };
    chosen
        .into_iter()
        .map(|swap| Candidate {
            swap,
            total: 0.0,
            samples: 0,
            active: true,
        })
        .collect()
}

/// The rollout policy, cheap enough to run thousands of times a swap: the
/// swap whose own runs score most, the lowest on the board among equals
/// (more cells fall, more cascades); when nothing matches, a swap drawn from
/// the stream.
fn policy(board: &Board, stream: &mut Sampled) -> Swap {
    let streaks = Streaks::of(board);
    let mut best = (ALL_SWAPS[0], 0);
    for &swap in ALL_SWAPS.iter().rev() {
        let points = streaks.immediate_points(board, swap);
        if points > best.1 {
            best = (swap, points);
        }
    }
    if best.1 > 0 {
        best.0
    } else {
        ALL_SWAPS[stream.below(ALL_SWAPS.len() as u64) as usize]
    }
}

/// The greedy level as a rollout policy: the best visible gain; when nothing
/// matches, a swap drawn from the stream.
fn greedy_policy(columns: &Columns, stream: &mut Sampled) -> Swap {
    let (swap, gain) = greedy_on(columns);
    if gain > 0 {
        swap
    } else {
        ALL_SWAPS[stream.below(ALL_SWAPS.len() as u64) as usize]
    }
}

/// The most points any swap's own runs make on `board` (no cascade).
fn best_immediate(board: &Board) -> u32 {
    let streaks = Streaks::of(board);
    ALL_SWAPS
        .iter()
        .map(|&swap| streaks.immediate_points(board, swap))
        .max()
        .unwrap_or(0)
}

/// The two highest visible gains of two different swaps on `board` (0 where
/// there is no such swap).
pub fn top_two_gains(board: &Board) -> (u32, u32) {
    top_two_on(&Columns::of(board))
}

fn top_two_on(columns: &Columns) -> (u32, u32) {
    let (mut best, mut second) = (0, 0);
    for (_, gain) in visible_gains(columns) {
        if gain > best {
            second = best;
            best = gain;
        } else if gain > second {
            second = gain;
        }
    }
    (best, second)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::crush::Crush;

    /// What `read` finds in `strong` on a k = 4 board after one round under `budget`.
    fn after_one_round<T>(budget: &Budget, read: impl FnOnce(&Strong) -> T) -> T {
        let view = View::of(&Crush::new_seeded(4, 3));
        let params = BotParams::seeded(1);
        let mut strong = Strong::new(&view, &params, budget, None, Tuning::for_k(4));
        assert_eq!(strong.sample_round(), None);
        read(&strong)
    }

    /// The first cut planned after one round under `budget`, as if that round took `first_round`.
    fn first_cut_after_one_round(budget: &Budget, first_round: Duration) -> u64 {
        after_one_round(budget, |strong| strong.first_cut(first_round))
    }

    fn nodes_of_one_round() -> u64 {
        after_one_round(&Budget::unlimited(), |strong| strong.nodes)
    }

    #[test]
    fn the_first_cut_comes_at_round_8_when_the_budget_is_large() {
        let round = nodes_of_one_round();
        assert!(round > 0);
        for budget in [
            Budget::unlimited(),
            Budget::unlimited().nodes(24 * round),
            Budget::with_time_ms(60_000),
        ] {
            assert_eq!(
                first_cut_after_one_round(&budget, Duration::from_millis(1)),
                8
            );
        }
    }

    #[test]
    fn a_small_budget_cuts_at_a_third_of_its_rounds_and_round_2_at_the_earliest() {
        let round = nodes_of_one_round();
        let cut = |rounds: u64| {
            first_cut_after_one_round(&Budget::unlimited().nodes(rounds * round), Duration::ZERO)
        };
        assert_eq!(cut(24), 8);
        assert_eq!(cut(23), 7);
        assert_eq!(cut(15), 5);
        assert_eq!(cut(8), 2);
        assert_eq!(cut(3), 2);
        let timed = Budget::with_time_ms(1_000);
        assert_eq!(
            first_cut_after_one_round(&timed, Duration::from_millis(500)),
            2
        );
    }
}
