//! Negamax with alpha-beta pruning, principal-variation search, iterative
//! deepening under a [`Budget`], a transposition table, killer moves and an
//! optional quiescence search, for any game that implements [`Evaluate`].

use super::tt::{Bound, Entry, Table, PROVEN_DEPTH};
use super::{is_decisive, Evaluate, MAX_PLY, WIN};
use crate::game::{Budget, StopReason};

const INFINITY: i32 = WIN + 1;
const QUIESCENCE_PLIES: usize = 8;
const CHECK_EVERY: u64 = 1024;

/// Tuning of one search.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// The deepest iteration (also capped by the budget's `max_depth`).
    pub max_depth: u32,
    /// log2 of the transposition table's entry count.
    pub tt_log2: u32,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            max_depth: 64,
            tt_log2: 18,
        }
    }
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// The best move found.
    pub best: M,
    /// Its score for the side to move.
    pub score: i32,
    /// The deepest iteration completed.
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// The expected line, starting with `best`.
    pub pv: Vec<M>,
    /// Why the search stopped.
    pub stopped_by: StopReason,
    /// Whether `score` is the game-theoretic value.
    pub proven: bool,
}

/// One root move with its score from the last completed iteration.
#[derive(Clone, Debug)]
pub struct RootScore<M> {
    /// The move.
    pub mv: M,
    /// Its score for the side to move.
    pub score: i32,
    /// The expected line, starting with `mv`.
    pub pv: Vec<M>,
    /// Whether the score is proven.
    pub proven: bool,
}

struct Searcher<'a, G: Evaluate> {
    budget: &'a Budget,
    table: Table,
    killers: Vec<[Option<G::Move>; 2]>,
    nodes: u64,
    stopped: Option<StopReason>,
    /// Set when a score in the current iteration leaned on the horizon (a static
    /// evaluation or a depth-limited table entry), so it is not proven.
    horizon: bool,
    /// Move lists per ply, reused to avoid allocating in the hot path.
    move_lists: Vec<Vec<G::Move>>,
}

/// Searches `state` under `budget` and returns the best move. The game must not be over.
///
/// The first iteration always completes (unless cancelled), so a move comes back
/// however small the budget.
pub fn search<G: Evaluate>(
    state: &G::State,
    budget: &Budget,
    options: &SearchOptions,
) -> SearchResult<G::Move> {
    let mut roots = Vec::new();
    let (depth, nodes, stopped_by) = iterate::<G>(state, budget, options, 1, &mut roots);
    let best = roots.swap_remove(0);
    SearchResult {
        best: best.mv,
        score: best.score,
        depth,
        nodes,
        pv: best.pv,
        stopped_by,
        proven: best.proven,
    }
}

/// Scores the `top` best root moves exactly (each with a full window), best
/// first, under `budget`; also returns the depth, nodes and stop reason.
pub fn analyze<G: Evaluate>(
    state: &G::State,
    top: usize,
    budget: &Budget,
    options: &SearchOptions,
) -> (Vec<RootScore<G::Move>>, u32, u64, StopReason) {
    let mut roots = Vec::new();
    let (depth, nodes, stopped_by) = iterate::<G>(state, budget, options, top.max(1), &mut roots);
    roots.truncate(top);
    (roots, depth, nodes, stopped_by)
}

/// Iterative deepening. With `exact_top` = k > 1, the first k moves of each
/// iteration get exact scores (a full window each); otherwise only the best.
fn iterate<G: Evaluate>(
    state: &G::State,
    budget: &Budget,
    options: &SearchOptions,
    exact_top: usize,
    roots_out: &mut Vec<RootScore<G::Move>>,
) -> (u32, u64, StopReason) {
    let mut searcher = Searcher::<G> {
        budget,
        table: Table::new(options.tt_log2),
        killers: vec![[None, None]; MAX_PLY + 1],
        nodes: 0,
        stopped: None,
        horizon: false,
        move_lists: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
    };
    let mut moves = Vec::new();
    G::legal_moves(state, &mut moves);
    assert!(!moves.is_empty(), "search called on a finished game");
    let mut order: Vec<usize> = (0..moves.len()).collect();
    order.sort_by_key(|&i| -G::order_hint(state, &moves[i]));

    let max_depth = budget
        .max_depth
        .map_or(options.max_depth, |d| d.min(options.max_depth))
        .clamp(1, MAX_PLY as u32 - QUIESCENCE_PLIES as u32 - 1);
    let mut completed: Vec<RootScore<G::Move>> = Vec::new();
    let mut depth_done = 0;
    let mut stopped_by = StopReason::Depth;
    for depth in 1..=max_depth {
        searcher.horizon = false;
        let scored = searcher.root(state, &moves, &order, depth, exact_top);
        let aborted = searcher.stopped.is_some();
        // A cut-short first iteration still beats having no move at all.
        let partial_first = completed.is_empty() && !scored.is_empty();
        if aborted && !partial_first {
            stopped_by = searcher.stopped.unwrap_or(StopReason::Time);
            break;
        }
        // Next iteration searches this one's best moves first.
        order = scored.iter().map(|(i, _, _)| *i).collect();
        completed = scored
            .into_iter()
            .map(|(i, score, pv)| RootScore {
                mv: moves[i].clone(),
                score,
                pv,
                proven: false,
            })
            .collect();
        depth_done = depth;
        if aborted {
            stopped_by = searcher.stopped.unwrap_or(StopReason::Time);
            break;
        }
        let proven = !searcher.horizon;
        if proven || completed.first().is_some_and(|r| is_decisive(r.score)) && exact_top == 1 {
            for r in completed.iter_mut() {
                r.proven = proven || is_decisive(r.score);
            }
            if proven {
                stopped_by = StopReason::Proven;
                break;
            }
        }
        if budget.nodes_exhausted(searcher.nodes) {
            stopped_by = StopReason::Nodes;
            break;
        }
    }
    if completed.is_empty() {
        completed.push(RootScore {
            mv: moves[order[0]].clone(),
            score: 0,
            pv: vec![moves[order[0]].clone()],
            proven: false,
        });
    }
    *roots_out = completed;
    (depth_done, searcher.nodes, stopped_by)
}

/// Decided scores count plies from the root; the table stores them counted
/// from the position itself, so that they stay right wherever it recurs.
fn score_to_table(score: i32, ply: usize) -> i32 {
    match score {
        s if is_decisive(s) && s > 0 => s + ply as i32,
        s if is_decisive(s) => s - ply as i32,
        s => s,
    }
}

/// The inverse of [`score_to_table`] at this ply.
fn score_from_table(score: i32, ply: usize) -> i32 {
    match score {
        s if is_decisive(s) && s > 0 => s - ply as i32,
        s if is_decisive(s) => s + ply as i32,
        s => s,
    }
}

impl<G: Evaluate> Searcher<'_, G> {
    /// Searches the root moves in `order` to `depth`. Returns (move index,
    /// score, pv) for every move searched, best first; the first `exact_top`
    /// have exact scores, the rest are upper bounds.
    fn root(
        &mut self,
        state: &G::State,
        moves: &[G::Move],
        order: &[usize],
        depth: u32,
        exact_top: usize,
    ) -> Vec<(usize, i32, Vec<G::Move>)> {
        let mut scored: Vec<(usize, i32, Vec<G::Move>)> = Vec::with_capacity(order.len());
        let mover = G::to_move(state);
        for (n, &i) in order.iter().enumerate() {
            let child = G::apply(state, &moves[i]);
            let same_side = G::to_move(&child) == mover;
            // The k-th best exact score so far: anything not above it needs no exact value.
            let alpha = if scored.len() < exact_top {
                -INFINITY
            } else {
                scored[exact_top - 1].1
            };
            let mut line = Vec::new();
            let score = if n == 0 || alpha == -INFINITY {
                self.child_score(
                    &child,
                    same_side,
                    depth - 1,
                    1,
                    -INFINITY,
                    INFINITY,
                    &mut line,
                )
            } else {
                let probe =
                    self.child_score(&child, same_side, depth - 1, 1, alpha, alpha + 1, &mut line);
                if probe > alpha && self.stopped.is_none() {
                    line.clear();
                    self.child_score(&child, same_side, depth - 1, 1, alpha, INFINITY, &mut line)
                } else {
                    probe
                }
            };
            if self.stopped.is_some() && !(depth == 1 && scored.is_empty()) {
                break;
            }
            let mut pv = vec![moves[i].clone()];
            pv.extend(line);
            let at = scored.partition_point(|(_, s, _)| *s >= score);
            scored.insert(at, (i, score, pv));
            if self.stopped.is_some() {
                break;
            }
        }
        scored
    }

    /// The score of `child` for the parent's mover.
    #[allow(clippy::too_many_arguments)]
    fn child_score(
        &mut self,
        child: &G::State,
        same_side: bool,
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
        line: &mut Vec<G::Move>,
    ) -> i32 {
        if same_side {
            self.negamax(child, depth, ply, alpha, beta, line)
        } else {
            -self.negamax(child, depth, ply, -beta, -alpha, line)
        }
    }

    fn out_of_budget(&mut self) -> bool {
        if self.stopped.is_some() {
            return true;
        }
        if self.budget.nodes_exhausted(self.nodes) {
            self.stopped = Some(StopReason::Nodes);
        } else if self.nodes % CHECK_EVERY == 1 {
            // From the first node on, so that a search started late stops at once.
            self.stopped = self.budget.interrupted();
        }
        self.stopped.is_some()
    }

    fn negamax(
        &mut self,
        state: &G::State,
        depth: u32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        line: &mut Vec<G::Move>,
    ) -> i32 {
        self.nodes += 1;
        line.clear();
        if self.out_of_budget() {
            return 0;
        }
        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        moves.clear();
        G::legal_moves(state, &mut moves);
        if moves.is_empty() {
            self.move_lists[ply] = moves;
            return G::terminal_score(state, ply);
        }
        if depth == 0 || ply >= MAX_PLY - QUIESCENCE_PLIES - 1 {
            self.move_lists[ply] = moves;
            self.horizon = true;
            return self.quiescence(state, ply, alpha, beta, 0);
        }

        let key = G::hash(state);
        let mut tt_best = None;
        if let Some(entry) = self.table.probe(key) {
            if (entry.best as usize) < moves.len() {
                tt_best = Some(entry.best as usize);
            }
            if entry.depth as u32 >= depth {
                let usable = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => entry.score >= beta,
                    Bound::Upper => entry.score <= alpha,
                };
                if usable {
                    if entry.depth != PROVEN_DEPTH {
                        self.horizon = true;
                    }
                    if let Some(best) = tt_best {
                        line.push(moves[best].clone());
                    }
                    self.move_lists[ply] = moves;
                    return score_from_table(entry.score, ply);
                }
            }
        }

        let order = self.ordered(state, &moves, tt_best, ply);
        let mover = G::to_move(state);
        let alpha_start = alpha;
        let mut best_score = -INFINITY;
        let mut best_index = order[0];
        let horizon_before = std::mem::replace(&mut self.horizon, false);
        let mut child_line = Vec::new();
        for (n, &i) in order.iter().enumerate() {
            let child = G::apply(state, &moves[i]);
            let same_side = G::to_move(&child) == mover;
            let score = if n == 0 {
                self.child_score(
                    &child,
                    same_side,
                    depth - 1,
                    ply + 1,
                    alpha,
                    beta,
                    &mut child_line,
                )
            } else {
                let probe = self.child_score(
                    &child,
                    same_side,
                    depth - 1,
                    ply + 1,
                    alpha,
                    alpha + 1,
                    &mut child_line,
                );
                if probe > alpha && probe < beta && self.stopped.is_none() {
                    self.child_score(
                        &child,
                        same_side,
                        depth - 1,
                        ply + 1,
                        alpha,
                        beta,
                        &mut child_line,
                    )
                } else {
                    probe
                }
            };
            if self.stopped.is_some() {
                self.move_lists[ply] = moves;
                self.horizon |= horizon_before;
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_index = i;
                if score > alpha {
                    alpha = score;
                    line.clear();
                    line.push(moves[i].clone());
                    line.extend(child_line.iter().cloned());
                }
            }
            if alpha >= beta {
                self.remember_killer(ply, &moves[i]);
                break;
            }
        }
        let proven = !self.horizon;
        self.horizon |= horizon_before;
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > alpha_start {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table.store(Entry {
            key,
            score: score_to_table(best_score, ply),
            depth: if proven {
                PROVEN_DEPTH
            } else {
                depth.min(250) as u8
            },
            bound,
            best: best_index as u16,
        });
        if line.is_empty() {
            line.push(moves[best_index].clone());
        }
        self.move_lists[ply] = moves;
        best_score
    }

    /// Captures-only search past the horizon, so that exchanges are not cut off mid-way.
    fn quiescence(
        &mut self,
        state: &G::State,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        qply: usize,
    ) -> i32 {
        let stand_pat = G::evaluate(state);
        if qply >= QUIESCENCE_PLIES || stand_pat >= beta {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        moves.clear();
        G::legal_moves(state, &mut moves);
        if moves.is_empty() {
            self.move_lists[ply] = moves;
            return G::terminal_score(state, ply);
        }
        let mut noisy: Vec<usize> = (0..moves.len())
            .filter(|&i| G::is_noisy(state, &moves[i]))
            .collect();
        noisy.sort_by_key(|&i| -G::order_hint(state, &moves[i]));
        let mover = G::to_move(state);
        let mut best = stand_pat;
        for i in noisy {
            self.nodes += 1;
            if self.out_of_budget() {
                break;
            }
            let child = G::apply(state, &moves[i]);
            let score = if G::to_move(&child) == mover {
                self.quiescence(&child, ply + 1, alpha, beta, qply + 1)
            } else {
                -self.quiescence(&child, ply + 1, -beta, -alpha, qply + 1)
            };
            if score > best {
                best = score;
                alpha = alpha.max(score);
                if alpha >= beta {
                    break;
                }
            }
        }
        self.move_lists[ply] = moves;
        best
    }

    /// Move indices in search order: the table's move, killers, then by hint.
    fn ordered(
        &self,
        state: &G::State,
        moves: &[G::Move],
        tt_best: Option<usize>,
        ply: usize,
    ) -> Vec<usize> {
        let killers = &self.killers[ply];
        let mut keyed: Vec<(i64, usize)> = moves
            .iter()
            .enumerate()
            .map(|(i, mv)| {
                let key = if Some(i) == tt_best {
                    i64::MAX
                } else if killers.iter().any(|k| k.as_ref() == Some(mv)) {
                    i64::MAX / 2
                } else {
                    G::order_hint(state, mv) as i64
                };
                (-key, i)
            })
            .collect();
        keyed.sort_by_key(|&(k, _)| k);
        keyed.into_iter().map(|(_, i)| i).collect()
    }

    fn remember_killer(&mut self, ply: usize, mv: &G::Move) {
        let slot = &mut self.killers[ply];
        if slot[0].as_ref() != Some(mv) {
            slot[1] = slot[0].take();
            slot[0] = Some(mv.clone());
        }
    }
}
