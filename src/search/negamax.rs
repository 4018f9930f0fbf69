//! The node search behind [`super::alphabeta`]: negamax with principal
//! variation, the transposition table's entries, move ordering (the table's
//! move, captures, killers, history), quiescence and the opt-in pruning and
//! extensions, for one searcher per search.

use super::alphabeta::{SearchOptions, CHECK_EVERY, INFINITY, QUIESCENCE_PLIES};
use super::score::{from_table, is_decisive, to_table, MAX_PLY};
use super::tt::{Bound, Table, TableEntry};
use super::{Evaluate, HISTORY_SLOTS};
use crate::game::{Budget, StopReason};

/// Ordering keys: the table's move, then captures by hint, then killers,
/// then quiet moves by history.
const KEY_TT: i64 = i64::MAX;
const KEY_NOISY: i64 = 1 << 40;
const KEY_KILLER: i64 = 1 << 39;
/// History scores are kept below this, so they never reach the killers.
const HISTORY_CAP: i32 = 1 << 24;
/// Plies of extension allowed along one line, so a chain of threats cannot run away.
const MAX_EXTENSION_PLY: usize = 48;

pub(super) struct Searcher<'a, G: Evaluate> {
    pub(super) budget: &'a Budget,
    pub(super) options: &'a SearchOptions,
    /// Cut-off credit per [`Evaluate::history_slot`].
    pub(super) history: Vec<i32>,
    /// Whether the move played at each ply was a null move.
    pub(super) null_played: [bool; MAX_PLY + 1],
    pub(super) table: Table<Entry>,
    pub(super) killers: Vec<[Option<G::Move>; 2]>,
    pub(super) nodes: u64,
    pub(super) stopped: Option<StopReason>,
    /// Whether the first iteration is running: the deadline does not stop it
    /// (only a cancelled request does), so every reply has been looked at and
    /// an immediate win is never missed, however small the budget or loaded
    /// the machine.
    pub(super) first_iteration: bool,
    /// Set when the first iteration runs past the deadline: from then on
    /// quiescence stands pat, so that a position full of captures still
    /// finishes its first iteration soon after the deadline.
    pub(super) overdue: bool,
    /// Set when a score in the current iteration leaned on the horizon (a static
    /// evaluation or a depth-limited table entry), so it is not proven.
    pub(super) horizon: bool,
    /// Move lists per ply, reused to avoid allocating in the hot path.
    pub(super) move_lists: Vec<Vec<G::Move>>,
}

/// What the table keeps about a position: its full hash as the key, the
/// score (counted from the position, see [`to_table`]), how it bounds the
/// value, the depth searched and the index of the best move in the
/// position's move list (`u16::MAX` for none).
#[derive(Clone, Copy, Debug, bytemuck::Zeroable)]
pub(super) struct Entry {
    pub(super) key: u64,
    pub(super) score: i32,
    pub(super) depth: u8,
    pub(super) bound: Bound,
    pub(super) best: u16,
}

/// Depth marker for results proven without reaching the horizon: valid at any depth.
const PROVEN_DEPTH: u8 = u8::MAX;

impl TableEntry for Entry {
    fn is_used(&self) -> bool {
        self.depth > 0
    }

    fn worth(&self) -> u32 {
        self.depth.into()
    }
}

impl<G: Evaluate> Searcher<'_, G> {
    /// Searches the root moves in `order` to `depth`. Returns (move index,
    /// score, pv) for every move searched, best first; the first `exact_top`
    /// and the move at index `included` have exact scores, the rest are
    /// upper bounds.
    pub(super) fn root(
        &mut self,
        state: &G::State,
        moves: &[G::Move],
        order: &[usize],
        depth: u32,
        exact_top: usize,
        included: Option<usize>,
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
            let score = if n == 0 || alpha == -INFINITY || included == Some(i) {
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
    pub(super) fn child_score(
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

    pub(super) fn out_of_budget(&mut self) -> bool {
        if self.stopped.is_some() {
            return true;
        }
        if self.budget.nodes_exhausted(self.nodes) {
            self.stopped = Some(StopReason::Nodes);
        } else if self.nodes % CHECK_EVERY == 1 {
            // From the first node on, so that a search started late stops at
            // once (after the first iteration, which only cancelling stops).
            let interrupted = self.budget.interrupted();
            if self.first_iteration && interrupted.is_some_and(|r| r != StopReason::Cancelled) {
                self.overdue = true;
            } else {
                self.stopped = interrupted;
            }
        }
        self.stopped.is_some()
    }

    pub(super) fn negamax(
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
        if depth == 0 || ply >= MAX_PLY - QUIESCENCE_PLIES - 1 {
            return self.horizon_score(state, ply, alpha, beta);
        }
        let moves = match self.legal_moves_at(state, ply) {
            Ok(moves) => moves,
            Err(terminal) => return terminal,
        };

        let key = G::hash(state);
        let mut tt_best = None;
        if let Some(entry) = self.table.probe(key, |e| e.key == key) {
            if (entry.best as usize) < moves.len() {
                tt_best = Some(entry.best as usize);
            }
            // Decided scores are compared as the root counts them.
            let score = from_table(entry.score, ply);
            if entry.depth as u32 >= depth && entry.bound.cuts(score, alpha, beta) {
                if entry.depth != PROVEN_DEPTH {
                    self.horizon = true;
                }
                if let Some(best) = tt_best {
                    line.push(moves[best].clone());
                }
                self.move_lists[ply] = moves;
                return score;
            }
        }

        let in_danger = self.uses_danger() && G::in_danger(state);
        if let Some(score) = self.try_null_move(state, depth, ply, beta, in_danger) {
            self.move_lists[ply] = moves;
            return score;
        }

        let futile_below = self.futility_bound(state, depth, alpha, in_danger);
        let order = self.ordered(state, &moves, tt_best, ply);
        let mover = G::to_move(state);
        let alpha_start = alpha;
        let mut best_score = -INFINITY;
        let mut best_index = order[0];
        let horizon_before = std::mem::replace(&mut self.horizon, false);
        let mut child_line = Vec::new();
        for (n, &i) in order.iter().enumerate() {
            let quiet = n > 0 && Some(i) != tt_best && self.is_quiet(state, &moves[i], ply);
            if let Some(bound) = futile_below.filter(|&bound| quiet && bound <= alpha) {
                // Searching it could not raise alpha, by the margin's estimate.
                self.horizon = true;
                best_score = best_score.max(bound);
                continue;
            }
            let child = G::apply(state, &moves[i]);
            let same_side = G::to_move(&child) == mover;
            let threat = !same_side && self.uses_danger() && G::in_danger(&child);
            let extension =
                u32::from(threat && self.options.threat_extension && ply < MAX_EXTENSION_PLY);
            let child_depth = depth - 1 + extension;
            let score = if n == 0 {
                self.child_score(
                    &child,
                    same_side,
                    child_depth,
                    ply + 1,
                    alpha,
                    beta,
                    &mut child_line,
                )
            } else {
                let reduction = if quiet && !in_danger && !threat {
                    self.reduction(depth, n)
                } else {
                    0
                };
                let mut probe = self.child_score(
                    &child,
                    same_side,
                    child_depth - reduction,
                    ply + 1,
                    alpha,
                    alpha + 1,
                    &mut child_line,
                );
                if reduction > 0 && probe > alpha && self.stopped.is_none() {
                    probe = self.child_score(
                        &child,
                        same_side,
                        child_depth,
                        ply + 1,
                        alpha,
                        alpha + 1,
                        &mut child_line,
                    );
                }
                if probe > alpha && probe < beta && self.stopped.is_none() {
                    self.child_score(
                        &child,
                        same_side,
                        child_depth,
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
                if !G::is_noisy(state, &moves[i]) {
                    self.remember_killer(ply, &moves[i]);
                    self.reward_history(state, &moves, &order[..=n], depth);
                }
                break;
            }
        }
        let proven = !self.horizon;
        self.horizon |= horizon_before;
        let bound = Bound::of(best_score, alpha_start, beta);
        let entry = Entry {
            key,
            score: to_table(best_score, ply),
            depth: if proven {
                PROVEN_DEPTH
            } else {
                depth.min(250) as u8
            },
            bound,
            best: best_index as u16,
        };
        self.table.store(key, entry, |e| e.key == key);
        if line.is_empty() {
            line.push(moves[best_index].clone());
        }
        self.move_lists[ply] = moves;
        best_score
    }

    /// The legal moves of `state`, in the list kept for `ply` (to be put
    /// back when done with), or the finished game's score when there are none.
    pub(super) fn legal_moves_at(
        &mut self,
        state: &G::State,
        ply: usize,
    ) -> Result<Vec<G::Move>, i32> {
        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        moves.clear();
        G::legal_moves(state, &mut moves);
        if moves.is_empty() {
            self.move_lists[ply] = moves;
            return Err(G::terminal_score(state, ply));
        }
        Ok(moves)
    }

    /// The score of a node at the horizon: a finished game's, else the
    /// quiescence search's (the static evaluation in a game without noisy
    /// moves, which needs no move list, only whether a move exists).
    pub(super) fn horizon_score(
        &mut self,
        state: &G::State,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if !G::HAS_NOISY_MOVES {
            if !G::has_legal_move(state) {
                return G::terminal_score(state, ply);
            }
            self.horizon = true;
            return G::evaluate(state);
        }
        let moves = match self.legal_moves_at(state, ply) {
            Ok(moves) => moves,
            Err(terminal) => return terminal,
        };
        self.horizon = true;
        self.quiescence(state, ply, alpha, beta, 0, Some(moves))
    }

    /// Captures-only search past the horizon, so that exchanges are not cut
    /// off mid-way. `known` is the position's move list when the caller has
    /// it (not empty), so that it is not generated twice.
    pub(super) fn quiescence(
        &mut self,
        state: &G::State,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        qply: usize,
        known: Option<Vec<G::Move>>,
    ) -> i32 {
        let stand_pat = G::evaluate(state);
        if qply >= QUIESCENCE_PLIES || stand_pat >= beta || self.overdue {
            if let Some(moves) = known {
                self.move_lists[ply] = moves;
            }
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let moves = match known.map_or_else(|| self.legal_moves_at(state, ply), Ok) {
            Ok(moves) => moves,
            Err(terminal) => return terminal,
        };
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
                self.quiescence(&child, ply + 1, alpha, beta, qply + 1, None)
            } else {
                -self.quiescence(&child, ply + 1, -beta, -alpha, qply + 1, None)
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

    /// Move indices in search order: the table's move, moves with a positive
    /// hint (captures, by value), killers, then the rest by history and hint.
    pub(super) fn ordered(
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
                let hint = i64::from(G::order_hint(state, mv));
                let key = if Some(i) == tt_best {
                    KEY_TT
                } else if hint > 0 {
                    KEY_NOISY + hint
                } else if killers.iter().any(|k| k.as_ref() == Some(mv)) {
                    KEY_KILLER
                } else {
                    i64::from(self.history_of(state, mv)) * 4 + hint
                };
                (-key, i)
            })
            .collect();
        keyed.sort_by_key(|&(k, _)| k);
        keyed.into_iter().map(|(_, i)| i).collect()
    }

    /// Whether the search needs [`Evaluate::in_danger`] at all.
    pub(super) fn uses_danger(&self) -> bool {
        let o = self.options;
        o.late_move_reductions || o.null_move || o.threat_extension
    }

    /// Whether a move may be reduced: not noisy and not a killer.
    pub(super) fn is_quiet(&self, state: &G::State, mv: &G::Move, ply: usize) -> bool {
        !G::is_noisy(state, mv) && !self.killers[ply].iter().any(|k| k.as_ref() == Some(mv))
    }

    /// How many plies shallower the `n`-th move (0-based) at `depth` is
    /// first searched: growing with the logarithms of both, and always
    /// leaving at least one ply.
    pub(super) fn reduction(&self, depth: u32, n: usize) -> u32 {
        if !self.options.late_move_reductions || depth < 3 || n < 3 {
            return 0;
        }
        let r = 0.75 + f64::from(depth).ln() * (n as f64).ln() / 2.25;
        (r as u32).clamp(1, depth - 2)
    }

    /// The optimistic value of a quiet move at a frontier node (static
    /// evaluation plus the futility margin), when futility pruning applies.
    pub(super) fn futility_bound(
        &self,
        state: &G::State,
        depth: u32,
        alpha: i32,
        in_danger: bool,
    ) -> Option<i32> {
        let margin = self.options.futility_margin?;
        if depth > 2 || in_danger || is_decisive(alpha) || alpha <= -INFINITY + 1 {
            return None;
        }
        Some(G::evaluate(state).saturating_add(margin * depth as i32))
    }

    /// Null-move pruning: the score to return at once if passing still
    /// holds beta (searched `1 + R` plies shallower), else `None`.
    pub(super) fn try_null_move(
        &mut self,
        state: &G::State,
        depth: u32,
        ply: usize,
        beta: i32,
        in_danger: bool,
    ) -> Option<i32> {
        let allowed = self.options.null_move
            && depth >= 3
            && !in_danger
            && !self.null_played[ply - 1]
            && !is_decisive(beta)
            && beta < INFINITY;
        if !allowed {
            return None;
        }
        let passed = G::null_move(state)?;
        if G::evaluate(state) < beta {
            return None;
        }
        let reduced = depth - 1 - if depth >= 6 { 3 } else { 2 };
        self.null_played[ply] = true;
        let mut line = Vec::new();
        let score = -self.negamax(&passed, reduced, ply + 1, -beta, -beta + 1, &mut line);
        self.null_played[ply] = false;
        if self.stopped.is_some() {
            return Some(0);
        }
        // The pass is not a move: what it shows is never a proof.
        self.horizon = true;
        (score >= beta).then(|| if is_decisive(score) { beta } else { score })
    }

    pub(super) fn history_of(&self, state: &G::State, mv: &G::Move) -> i32 {
        G::history_slot(state, mv).map_or(0, |slot| self.history[slot % HISTORY_SLOTS])
    }

    /// Credits the quiet move that cut off (the last of `tried`) and debits
    /// the quiet moves tried before it, by depth squared.
    pub(super) fn reward_history(
        &mut self,
        state: &G::State,
        moves: &[G::Move],
        tried: &[usize],
        depth: u32,
    ) {
        let bonus = (depth * depth).min(400) as i32;
        let last = tried.len() - 1;
        for (n, &i) in tried.iter().enumerate() {
            let mv = &moves[i];
            if n < last && G::is_noisy(state, mv) {
                continue;
            }
            if let Some(slot) = G::history_slot(state, mv) {
                let entry = &mut self.history[slot % HISTORY_SLOTS];
                let change = if n == last { bonus } else { -bonus };
                *entry = (*entry + change).clamp(-HISTORY_CAP, HISTORY_CAP);
            }
        }
    }

    /// Halves the history between iterations, so recent cut-offs weigh most.
    pub(super) fn age_history(&mut self) {
        for entry in &mut self.history {
            *entry /= 2;
        }
    }

    pub(super) fn remember_killer(&mut self, ply: usize, mv: &G::Move) {
        let slot = &mut self.killers[ply];
        if slot[0].as_ref() != Some(mv) {
            slot[1] = slot[0].take();
            slot[0] = Some(mv.clone());
        }
    }
}
