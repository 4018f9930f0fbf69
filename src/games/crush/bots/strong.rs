//! `strong`: Monte-Carlo rollouts with successive halving (the module doc
//! of [`super`] says how it plays). [`StrongConfig`] holds its knobs, the
//! research settings the studies in `research/` set; the level uses its
//! defaults and the one level option, `depth`.

use super::{greedy, greedy_on, swap_matches, visible_gains, Sampled, Streaks, View};
use crate::game::{
    Analysis, BotChoice, BotParams, Budget, Scope, ScoredMove, SearchReport, StopReason,
};
use crate::games::crush::board::Board;
use crate::games::crush::columns::Columns;
use crate::games::crush::notation::{Swap, ALL_SWAPS};
use rand::RngCore;
use serde_json::json;
use std::time::{Duration, Instant};

/// Default number of sampled swaps in a `strong` rollout (the first one included).
pub(crate) const DEFAULT_DEPTH: u32 = 3;
/// Rounds of sampling `strong` runs when neither a deadline nor a node cap bounds it.
pub(crate) const DEFAULT_ROUNDS: u64 = 64;
/// The most rounds `strong` runs at all, whatever the budget.
const MAX_ROUNDS: u64 = 100_000;
/// The round of halving's first cut when the budget allows 24 rounds or more.
const LATEST_FIRST_CUT: u64 = 8;
/// Below this many matching swaps, `strong` also weighs swaps that match nothing now.
const FEW_MATCHES: usize = 6;

/// [`StrongConfig::analyze`], once the search has run.
fn analysis(view: &View, scope: &Scope<Swap>, search: &Strong) -> Analysis<Swap> {
    let mut moves: Vec<ScoredMove<Swap>> = search
        .ranked()
        .into_iter()
        .enumerate()
        .filter(|(rank, c)| scope.keeps(*rank, &c.swap))
        .map(|(_, c)| ScoredMove {
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

/// What a `strong` rollout adds at its end for the board it leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeafKind {
    /// The best visible gain on the sampled board.
    SampledGreedy,
    /// The best immediate points on the sampled board, no cascade.
    Immediate,
    /// The best visible gain on the sampled board plus
    /// [`StrongConfig::second_percent`] percent of the second best: a board
    /// with two good swaps keeps one for later.
    TopTwo,
}

/// The knobs of the `strong` level: the research entry point.
///
/// The service's `strong` runs [`StrongConfig::for_k`], with only the depth
/// open to users (the level option `depth=1..8` or a request's `max_depth`).
/// The other knobs were tuned with the crush benchmark and the studies in
/// `research/` (`docs/crush-strong.md` has the figures) and are not level
/// options; a study that tries another setting builds a config and calls
/// [`StrongConfig::choose`] or [`StrongConfig::analyze`]. The fields are not
/// range-checked here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrongConfig {
    /// Sampled swaps a rollout plays, the candidate first (at least 1); the
    /// `depth - 1` after it are played by the policy.
    pub depth: u32,
    /// The policy of those swaps: the greedy level, else a cheap one (the
    /// swap whose own runs score most, no cascade).
    pub greedy_policy: bool,
    /// Weight, in percent, of the leaf value added at the end of a rollout
    /// (0: none).
    pub leaf_percent: u32,
    /// Which leaf value to use.
    pub leaf_kind: LeafKind,
    /// Successive halving: at the first cut (round 8, earlier on a small
    /// budget) and every time the rounds double after it, drop the worse half
    /// of the candidates (keeping at least 3).
    pub halve: bool,
    /// Weight, in percent, of the second-best gain in the [`LeafKind::TopTwo`] leaf.
    pub second_percent: u32,
    /// A cap on the sampling rounds; by default 64 when neither a deadline
    /// nor a node cap bounds the search, else 100,000.
    pub rounds: Option<u64>,
}

impl StrongConfig {
    /// The defaults for `k`, chosen with the crush benchmark: three swaps a
    /// rollout (the candidate, then two greedy ones), successive halving, then
    /// the next swap's visible gain as the leaf. The leaf was tuned when
    /// rollouts were one swap long: weighted 1.6 for k = 4 (a swap's expected
    /// points there are about 2.2 times its visible gain, but the leaf is
    /// noisy: 1.0, 1.3, 1.6, 2.2 gave +9..+15% and 3.0 +5%) and 1 above (3.0
    /// collapses at k = 5). At k = 4 the leaf also counts half the
    /// second-best gain ([`LeafKind::TopTwo`]): over 50 seeds at 6,000 nodes
    /// a swap it gave +15.4% over greedy where the plain leaf gave +13.8%
    /// (within the noise, but the same way on 20 seeds: +14.2% and +13.0%).
    /// Weighing the second best fully (with the leaf at 1.6) makes the bot put
    /// off its best swap for ever (+6.8%). At depth 3 the leaf hardly matters
    /// any more (`docs/crush-strong.md`).
    pub fn for_k(k: u8) -> StrongConfig {
        StrongConfig {
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
            rounds: None,
        }
    }

    /// The defaults for `k`, with the budget's depth cap if it has one.
    pub(super) fn for_budget(k: u8, budget: &Budget) -> StrongConfig {
        StrongConfig {
            depth: budget.max_depth.map_or(DEFAULT_DEPTH, |d| d.clamp(1, 8)),
            ..StrongConfig::for_k(k)
        }
    }

    /// The swap `strong` with these knobs picks on `view` under `budget`, and
    /// its search report (as the `strong` level gives them).
    pub fn choose(&self, view: &View, params: &BotParams, budget: &Budget) -> BotChoice<Swap> {
        let search = Strong::new(view, params, budget, *self).run();
        let best = search
            .ranked()
            .first()
            .map(|c| c.swap)
            .unwrap_or(search.fallback);
        BotChoice {
            mv: best,
            report: search.report(),
        }
    }

    /// The swaps of `scope` by the estimate of `strong` with these knobs
    /// (as [`super::analyze`] gives them for the defaults).
    pub fn analyze(
        &self,
        view: &View,
        scope: &Scope<Swap>,
        params: &BotParams,
        budget: &Budget,
    ) -> Analysis<Swap> {
        let mut search = Strong::new(view, params, budget, *self);
        if let Some(swap) = scope.include {
            search.keep(swap);
        }
        analysis(view, scope, &search.run())
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
/// fast enough (`docs/crush-strong.md`).
struct Strong<'a> {
    view: &'a View,
    columns: Columns,
    budget: &'a Budget,
    config: StrongConfig,
    max_rounds: u64,
    seeds: rand_chacha::ChaCha8Rng,
    candidates: Vec<Candidate>,
    fallback: Swap,
    /// A swap halving never drops (an analysis's included swap).
    kept: Option<Swap>,
    nodes: u64,
    rounds: u64,
    stopped_by: StopReason,
}

impl<'a> Strong<'a> {
    fn new(view: &'a View, params: &BotParams, budget: &'a Budget, config: StrongConfig) -> Self {
        let unbounded = budget.deadline.is_none() && budget.max_nodes.is_none();
        let max_rounds = config.rounds.unwrap_or(if unbounded {
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
            config,
            max_rounds,
            seeds: params.rng(),
            candidates,
            fallback,
            kept: None,
            nodes: 0,
            rounds: 0,
            stopped_by: StopReason::Depth,
        }
    }

    /// Weighs `swap` to the end beside the best, a candidate even where
    /// it matches nothing.
    fn keep(&mut self, swap: Swap) {
        if !self.candidates.iter().any(|c| c.swap == swap) {
            self.candidates.push(Candidate {
                swap,
                total: 0.0,
                samples: 0,
                active: true,
            });
        }
        self.kept = Some(swap);
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
            if self.config.halve && self.rounds == next_cut {
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
    /// choosing among eight or more candidates sampled a few times each.
    /// What it gained at small budgets, and a fifth tried instead of a
    /// third, is in docs/crush-strong.md.
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
            if Some(self.candidates[i].swap) != self.kept {
                self.candidates[i].active = false;
            }
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
        for _ in 1..self.config.depth {
            let next = if self.config.greedy_policy {
                greedy_policy(&columns, &mut stream)
            } else {
                policy(&columns.to_board(), &mut stream)
            };
            total += columns.swap_and_settle(next.a(), next.b(), &mut stream);
        }
        self.nodes += u64::from(self.config.depth);
        let mut value = f64::from(total);
        if self.config.leaf_percent > 0 {
            let leaf = match self.config.leaf_kind {
                LeafKind::SampledGreedy => f64::from(greedy_on(&columns).1),
                LeafKind::Immediate => f64::from(best_immediate(&columns.to_board())),
                LeafKind::TopTwo => {
                    let (best, second) = top_two_on(&columns);
                    let weight = f64::from(self.config.second_percent) / 100.0;
                    f64::from(best) + weight * f64::from(second)
                }
            };
            // A swap that matches nothing only defers the board's chances: its
            // leaf never counts more than once, or the bot would stop scoring.
            let percent = if swap_matches(&self.view.board, first) {
                self.config.leaf_percent
            } else {
                self.config.leaf_percent.min(100)
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
            depth: Some(self.config.depth),
            nodes: Some(self.nodes),
            score: best.map(|m| m.round() as i64),
            stopped_by: Some(self.stopped_by),
            ..SearchReport::plain()
        };
        report.notes.insert("rounds".into(), json!(self.rounds));
        report
            .notes
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
/// there is no such swap); the tests' handle on the [`LeafKind::TopTwo`] leaf.
#[cfg(test)]
pub(crate) fn top_two_gains(board: &Board) -> (u32, u32) {
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
    use super::super::choose;
    use super::*;
    use crate::game::LevelSpec;
    use crate::games::crush::Crush;

    /// What `read` finds in `strong` on a k = 4 board after one round under `budget`.
    fn after_one_round<T>(budget: &Budget, read: impl FnOnce(&Strong) -> T) -> T {
        let view = View::of(&Crush::new_seeded(4, 3));
        let params = BotParams::seeded(1);
        let mut strong = Strong::new(&view, &params, budget, StrongConfig::for_k(4));
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
    fn the_strong_level_is_the_default_config() {
        let view = View::of(&Crush::new_seeded(4, 3));
        let (params, budget) = (BotParams::seeded(2), Budget::unlimited().nodes(1_500));
        let level = LevelSpec::parse("strong").unwrap();
        let by_level = choose(&view, &level, &params, &budget).unwrap();
        let by_config = StrongConfig::for_k(4).choose(&view, &params, &budget);
        assert_eq!(by_level.mv, by_config.mv);
        assert_eq!(by_level.report.score, by_config.report.score);
    }

    #[test]
    fn a_config_with_the_top_two_leaf_is_deterministic() {
        let view = View::of(&Crush::new_seeded(4, 3));
        let config = StrongConfig {
            leaf_kind: LeafKind::TopTwo,
            second_percent: 70,
            ..StrongConfig::for_k(4)
        };
        let run = || {
            config.choose(
                &view,
                &BotParams::seeded(2),
                &Budget::unlimited().nodes(1_500),
            )
        };
        let (a, b) = (run(), run());
        assert_eq!(a.mv, b.mv);
        assert_eq!(a.report.score, b.report.score);
        assert!(ALL_SWAPS.contains(&a.mv));
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
