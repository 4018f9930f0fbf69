//! The `strong` level's search: negamax with alpha-beta (principal-variation
//! search), iterative deepening, a transposition table, history ordering and
//! forward pruning to the most promising moves below the root.
//!
//! Why not the generic [`crate::search::alphabeta`]: Halma's moves are
//! ordered and pruned by their progress towards the goal camp before they
//! are made, and a node searches only the best few of often 200 moves; the
//! generic engine orders after generating every move and searches them all.
//! The table and the score scale are the shared ones.

use super::eval::{progress, strong_eval};
use crate::game::{Budget, StopReason};
use crate::games::halma::board::CELLS;
use crate::games::halma::movegen::{generate, generate_ignoring_outcome, Move};
use crate::games::halma::state::State;
use crate::search::score::{from_table, to_table};
use crate::search::tt::{Bound, Table, TableEntry};
pub use crate::search::WIN;

const INFINITY: i32 = WIN + 1;
const MAX_PLY: usize = 64;
const CHECK_EVERY: u64 = 256;

/// A table sized to the time: clearing a big one costs milliseconds that a
/// nearly flagged clock does not have.
fn table_log2(budget: &Budget) -> u32 {
    match budget.remaining_ms() {
        Some(ms) if ms < 100.0 => 14,
        Some(ms) if ms < 1500.0 => 18,
        _ => 20,
    }
}

/// Tuning of the strong search.
#[derive(Clone, Debug)]
pub struct StrongOptions {
    /// How many moves (best ordered first) are searched at interior nodes.
    pub width: usize,
    /// The deepest iteration.
    pub max_depth: u32,
    /// Bonus for having the move, which evens out odd and even depths.
    pub tempo: i32,
    /// Whether late moves are searched one ply shallower first.
    pub reduce: bool,
    /// Whether nodes near the horizon search fewer moves.
    pub taper: bool,
}

impl Default for StrongOptions {
    fn default() -> Self {
        StrongOptions {
            width: 14,
            max_depth: 40,
            tempo: 0,
            reduce: false,
            taper: false,
        }
    }
}

/// What the strong search found.
#[derive(Clone, Debug)]
pub struct StrongResult {
    /// The best move found.
    pub best: Move,
    /// Its score for the side to move.
    pub score: i32,
    /// The deepest completed iteration.
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// The expected line, starting with `best`.
    pub pv: Vec<Move>,
    /// Why the search stopped.
    pub stopped_by: StopReason,
}

/// What the table keeps about a position: its hash, the score (counted
/// from the position), its bound, the depth searched (at least 1) and the
/// best move's cells.
#[derive(Clone, Copy, bytemuck::Zeroable)]
struct TtEntry {
    key: u64,
    score: i32,
    depth: u8,
    bound: Bound,
    from: u8,
    to: u8,
}

impl TableEntry for TtEntry {
    fn is_used(&self) -> bool {
        self.depth > 0
    }

    fn worth(&self) -> u32 {
        self.depth.into()
    }
}

struct Searcher<'a> {
    budget: &'a Budget,
    options: &'a StrongOptions,
    table: Table<TtEntry>,
    history: Vec<i32>,
    lists: Vec<Vec<(i32, Move)>>,
    moves: Vec<Move>,
    nodes: u64,
    stopped: Option<StopReason>,
}

/// Searches `state` (not finished) under `budget`. `roots` are the legal
/// moves in the caller's (seeded, shuffled) order, which breaks ties between
/// equally good moves so that games vary; empty means "generate them". Depth 1
/// always completes, so a move comes back however small the budget.
pub fn search(
    state: &State,
    budget: &Budget,
    options: &StrongOptions,
    mut roots: Vec<Move>,
) -> StrongResult {
    let mut searcher = Searcher {
        budget,
        options,
        table: Table::new(table_log2(budget)),
        history: vec![0; CELLS * CELLS],
        lists: (0..=MAX_PLY).map(|_| Vec::with_capacity(256)).collect(),
        moves: Vec::with_capacity(512),
        nodes: 0,
        stopped: None,
    };
    if roots.is_empty() {
        generate(state, &mut roots);
    }
    let side = state.to_move();
    // Stable sort: equal progress keeps the caller's (shuffled) order.
    roots.sort_by_key(|m| -progress(side, m.from, m.to));
    let max_depth = budget
        .max_depth
        .map_or(options.max_depth, |d| d.min(options.max_depth))
        .clamp(1, MAX_PLY as u32 - 1);
    let mut best = roots[0];
    let mut best_score = 0;
    let mut depth_done = 0;
    let mut stopped_by = StopReason::Depth;
    for depth in 1..=max_depth {
        let (scores, complete) = searcher.root(state, &roots, depth);
        if !complete && depth > 1 {
            // Moves searched before the stop have exact scores or fail low, so
            // the best of them stands if it beats the previous iteration's best.
            let first_best =
                scores
                    .iter()
                    .fold(None, |acc: Option<(usize, i32)>, &(i, s)| match acc {
                        Some((_, b)) if b >= s => acc,
                        _ => Some((i, s)),
                    });
            if let Some((i, s)) = first_best {
                best = roots[i];
                best_score = s;
            }
            stopped_by = searcher.stopped.unwrap_or(StopReason::Time);
            break;
        }
        let mut ranked = scores;
        ranked.sort_by_key(|&(_, s)| -s);
        roots = ranked.iter().map(|&(i, _)| roots[i]).collect();
        best = roots[0];
        best_score = ranked[0].1;
        depth_done = depth;
        // A found win stands; a "loss" may come from moves pruned below the
        // root, so the search goes on looking for a way out.
        if best_score >= WIN - MAX_PLY as i32 {
            stopped_by = StopReason::Proven;
            break;
        }
        if budget.nodes_exhausted(searcher.nodes) {
            stopped_by = StopReason::Nodes;
            break;
        }
        if let Some(reason) = searcher.stopped.or_else(|| budget.interrupted()) {
            stopped_by = reason;
            break;
        }
    }
    let pv = searcher.principal_variation(state, best);
    StrongResult {
        best,
        score: best_score,
        depth: depth_done.max(1),
        nodes: searcher.nodes,
        pv,
        stopped_by,
    }
}

impl Searcher<'_> {
    /// Searches every root move to `depth`; returns (index, score) for those
    /// searched and whether all were. Depth 1 is never interrupted.
    fn root(&mut self, state: &State, roots: &[Move], depth: u32) -> (Vec<(usize, i32)>, bool) {
        let mut scores = Vec::with_capacity(roots.len());
        let mut alpha = -INFINITY;
        let side = state.to_move();
        for (i, mv) in roots.iter().enumerate() {
            let mut child = state.clone();
            child.apply_move(mv.from, mv.to);
            let bias = retreat_bias(progress(side, mv.from, mv.to));
            // The raw score this move needs to beat alpha once biased.
            let target = alpha.saturating_sub(bias).max(-INFINITY);
            let raw = if i == 0 {
                -self.negamax(&child, depth - 1, 1, -INFINITY, INFINITY, depth > 1)
            } else {
                let probe = -self.negamax(&child, depth - 1, 1, -target - 1, -target, depth > 1);
                if probe > target && self.stopped.is_none() {
                    -self.negamax(&child, depth - 1, 1, -INFINITY, -target, depth > 1)
                } else {
                    probe
                }
            };
            let score = raw + bias;
            if self.stopped.is_some() {
                return (scores, false);
            }
            // Root moves after the first only get exact scores when they beat alpha.
            scores.push((
                i,
                if score > alpha || i == 0 {
                    score
                } else {
                    score.min(alpha) - 1
                },
            ));
            alpha = alpha.max(score);
        }
        (scores, true)
    }

    fn check_budget(&mut self, interruptible: bool) -> bool {
        if self.stopped.is_some() {
            return true;
        }
        if !interruptible {
            return false;
        }
        if self.budget.nodes_exhausted(self.nodes) {
            self.stopped = Some(StopReason::Nodes);
        } else if self.nodes % CHECK_EVERY == 0 {
            self.stopped = self.budget.interrupted();
        }
        self.stopped.is_some()
    }

    fn negamax(
        &mut self,
        state: &State,
        depth: u32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        interruptible: bool,
    ) -> i32 {
        self.nodes += 1;
        if self.check_budget(interruptible) {
            return 0;
        }
        if state.has_won(state.to_move().other()) {
            return -(WIN - ply as i32);
        }
        if state.ply_limit_reached() {
            return ply_limit_score(state, ply);
        }
        if depth == 0 || ply >= MAX_PLY {
            return strong_eval(state) + self.options.tempo;
        }
        let key = state.hash();
        let mut tt_move = None;
        if let Some(entry) = self.table.probe(key, |e| e.key == key) {
            tt_move = Some((entry.from, entry.to));
            if entry.depth as u32 >= depth {
                let score = from_table(entry.score, ply);
                if entry.bound.cuts(score, alpha, beta) {
                    return score;
                }
            }
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        self.order_moves(state, tt_move, self.width_at(depth), &mut list);
        if list.is_empty() {
            self.lists[ply] = list;
            return 0;
        }
        let alpha_start = alpha;
        let mut best = -INFINITY;
        let mut best_move = list[0].1;
        for (n, &(_, mv)) in list.iter().enumerate() {
            let mut child = state.clone();
            child.apply_move(mv.from, mv.to);
            let score = if n == 0 {
                -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha, interruptible)
            } else {
                // Late moves are first tried one ply shallower, and searched
                // fully only if they look better than the best so far.
                let reduction = u32::from(self.options.reduce && n >= 3 && depth >= 3);
                let mut probe = -self.negamax(
                    &child,
                    depth - 1 - reduction,
                    ply + 1,
                    -alpha - 1,
                    -alpha,
                    interruptible,
                );
                if reduction > 0 && probe > alpha && self.stopped.is_none() {
                    probe = -self.negamax(
                        &child,
                        depth - 1,
                        ply + 1,
                        -alpha - 1,
                        -alpha,
                        interruptible,
                    );
                }
                if probe > alpha && probe < beta && self.stopped.is_none() {
                    -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha, interruptible)
                } else {
                    probe
                }
            };
            if self.stopped.is_some() {
                self.lists[ply] = list;
                return 0;
            }
            if score > best {
                best = score;
                best_move = mv;
                alpha = alpha.max(score);
                if alpha >= beta {
                    self.history[mv.from as usize * CELLS + mv.to as usize] +=
                        (depth * depth) as i32;
                    break;
                }
            }
        }
        self.lists[ply] = list;
        let entry = TtEntry {
            key,
            score: to_table(best, ply),
            depth: depth.clamp(1, 255) as u8,
            bound: Bound::of(best, alpha_start, beta),
            from: best_move.from,
            to: best_move.to,
        };
        self.table.store(key, entry, |e| e.key == key);
        best
    }

    /// How many moves a node with `depth` plies to go searches. One ply from
    /// the horizon the evaluation after a move is nearly the move's own
    /// progress, so the best few by progress are all that can matter there.
    fn width_at(&self, depth: u32) -> usize {
        if !self.options.taper {
            return self.options.width;
        }
        match depth {
            1 => self.options.width.min(3),
            2 => self.options.width.min(8),
            _ => self.options.width,
        }
    }

    /// Fills `list` with the `keep` best legal moves, best first: the
    /// table's move, then by progress towards the goal and by history. The
    /// key is total (a move is its start and end), so selecting the best
    /// `keep` and sorting only them gives the order a full sort would.
    fn order_moves(
        &mut self,
        state: &State,
        tt_move: Option<(u8, u8)>,
        keep: usize,
        list: &mut Vec<(i32, Move)>,
    ) {
        self.moves.clear();
        generate_ignoring_outcome(state, &mut self.moves);
        let side = state.to_move();
        list.clear();
        for &mv in &self.moves {
            let key = if tt_move == Some((mv.from, mv.to)) {
                i32::MAX
            } else {
                progress(side, mv.from, mv.to) * 64
                    + self.history[mv.from as usize * CELLS + mv.to as usize].min(63)
            };
            list.push((key, mv));
        }
        let key = |&(k, mv): &(i32, Move)| (-k, mv.from, mv.to);
        if keep > 0 && keep < list.len() {
            list.select_nth_unstable_by_key(keep - 1, key);
            list.truncate(keep);
        }
        list.sort_unstable_by_key(key);
    }

    /// The line the table expects after `best`.
    fn principal_variation(&self, state: &State, best: Move) -> Vec<Move> {
        let mut line = vec![best];
        let mut current = state.clone();
        current.apply_move(best.from, best.to);
        let mut legal = Vec::new();
        while line.len() < 12 {
            let key = current.hash();
            let Some(entry) = self.table.probe(key, |e| e.key == key) else {
                break;
            };
            legal.clear();
            generate(&current, &mut legal);
            let Some(&mv) = legal
                .iter()
                .find(|m| (m.from, m.to) == (entry.from, entry.to))
            else {
                break;
            };
            line.push(mv);
            current.apply_move(mv.from, mv.to);
        }
        line
    }
}

/// The score of a game the ply limit has ended, for the side to move, `ply`
/// plies from the root: decided by the pieces inside the opposing camps.
fn ply_limit_score(state: &State, ply: usize) -> i32 {
    match state.goal_leader() {
        Some(leader) if leader == state.to_move() => WIN - ply as i32,
        Some(_) => -(WIN - ply as i32),
        None => 0,
    }
}

/// How much a backward move at the root must beat the others by. The bot
/// sees no game history, so two engines that each hold a blockade can shuffle
/// a piece back and forth for ever; making retreats cost keeps games moving.
fn retreat_bias(progress: i32) -> i32 {
    const RETREAT_FACTOR: i32 = 3;
    progress.min(0) * RETREAT_FACTOR
}
