//! The `perfect` level's engine: negamax with alpha-beta and principal-variation
//! search, iterative deepening, and a transposition table keyed by a canonical
//! form under the board's 8 symmetries. Scores prefer fast wins and slow losses.
//!
//! Every game ends within the number of markers still in hand, so an iteration
//! that deep reaches no horizon and its values are exact. Shallower iterations
//! use a static evaluation at the horizon; a decided score found by them is
//! already exact (a faster win would have been seen inside the horizon).
//!
//! Why not the generic [`crate::search::alphabeta`]: the table is keyed by
//! the position's canonical form under the 8 symmetries (a move is stored in
//! the canonical frame and mapped back), which divides the 3×3 search by up
//! to eight, and the solver keeps one table per worker across requests. The
//! table type, its replacement policy and the score scale are the shared ones.

use super::canonical::{mix, Canon, Geometry, Next, Node};
use crate::game::{Budget, Side, StopReason};
use crate::games::naughts::state::{largest, sizes_above, Cell, Move, State};
use crate::search::memory;
use crate::search::score::{from_table, is_decisive, to_table};
use crate::search::tt::{Bound, Table, TableEntry};

/// The score of a win on the mover's very next move; a win `k` plies away
/// scores `WIN - k`: the scale every engine shares.
pub use crate::search::WIN;
const INFINITY: i32 = WIN + 1;
/// The static evaluation stays within this, far from any decided score.
const EVAL_LIMIT: i32 = 4_500;
const CHECK_EVERY: u64 = 1024;
/// On small boards, the deepest heuristic iteration before the exact one
/// (measured: 4 halves the nodes of the empty 3×3 solves against 1; 6 is worse).
const SHALLOW_DEPTH: u32 = 4;
/// The longest game: every marker of both hands placed.
const MAX_PLY: usize = 2 * 9 + 2;

/// Whether `score` says the game is decided.
pub fn is_decided(score: i32) -> bool {
    is_decisive(score)
}

/// A proven score in words: `win in 5`, `draw`, `loss in 4` (plies of both sides, this move included).
pub fn describe(score: i32) -> String {
    match score {
        s if is_decisive(s) && s > 0 => format!("win in {}", WIN - s),
        s if is_decisive(s) => format!("loss in {}", WIN + s),
        _ => "draw".to_string(),
    }
}

/// One table entry, unpacked.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// The score, counted from the position itself.
    score: i32,
    bound: Bound,
    /// Searched without reaching the horizon: valid at any depth.
    proven: bool,
    /// The depth searched (for replacement and for use by shallower searches).
    draft: u8,
    /// The best move in the canonical frame: cell, size (size 0 for none).
    best: (u8, u8),
}

/// Marks a used slot, whatever its entry packs to.
const USED: u64 = 1 << 63;

impl Entry {
    fn pack(self) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 0,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        (self.score as u32 as u64)
            | bound << 32
            | (self.proven as u64) << 34
            | (self.draft as u64) << 40
            | (self.best.0 as u64) << 48
            | (self.best.1 as u64) << 56
            | USED
    }

    fn unpack(data: u64) -> Entry {
        Entry {
            score: data as u32 as i32,
            bound: match (data >> 32) & 3 {
                0 => Bound::Exact,
                1 => Bound::Lower,
                _ => Bound::Upper,
            },
            proven: (data >> 34) & 1 == 1,
            draft: (data >> 40) as u8,
            best: ((data >> 48) as u8, (data >> 56) as u8 & 0x7f),
        }
    }
}

/// A slot of the shared transposition table: the canonical key and the
/// packed entry, 16 bytes.
#[derive(Clone, Copy, bytemuck::Zeroable)]
struct Slot {
    key: u64,
    data: u64,
}

impl TableEntry for Slot {
    fn is_used(&self) -> bool {
        self.data & USED != 0
    }

    /// Proven results of big subtrees first.
    fn worth(&self) -> u32 {
        let entry = Entry::unpack(self.data);
        entry.draft as u32 + if entry.proven { 256 } else { 0 }
    }
}

/// The solver's table: the shared table type, keyed by canonical keys
/// spread with [`mix`].
type SolverTable = Table<Slot>;

fn probe(table: &SolverTable, key: u64) -> Option<Entry> {
    table
        .probe(mix(key), |slot| slot.key == key)
        .map(|slot| Entry::unpack(slot.data))
}

fn store(table: &mut SolverTable, key: u64, entry: Entry) {
    let slot = Slot {
        key,
        data: entry.pack(),
    };
    table.store(mix(key), slot, |slot| slot.key == key);
}

/// Searches `state` (not over) under `budget` (see [`Solver::solve`]).
///
/// Boards of up to 3×3 use this thread's table (see [`crate::search::memory`]),
/// kept between searches and sized by the per-worker table budget, when the
/// budget has no node or depth cap (those must give the same answer every
/// time; the move chosen never depends on the table, but what fits under a
/// cap would). Keys there are exact and rank-compressed, so entries never mix
/// games and a position solved once answers at once. Other searches get a
/// fresh table of `2^tt_log2` entries, capped by the same budget.
pub fn solve(state: &State, budget: &Budget, all_exact: bool, tt_log2: u32) -> Solution {
    solve_within(state, budget, all_exact, tt_log2, memory::table_bytes())
}

/// [`solve`] with a table budget of `table_bytes`.
fn solve_within(
    state: &State,
    budget: &Budget,
    all_exact: bool,
    tt_log2: u32,
    table_bytes: usize,
) -> Solution {
    let reusable = state.grid() <= 3 && budget.max_nodes.is_none() && budget.max_depth.is_none();
    if !reusable {
        let log2 = tt_log2.min(SolverTable::log2_within(table_bytes));
        let mut solver = Solver::new(state.grid(), budget, log2);
        return solver.solve(state, all_exact);
    }
    memory::with_thread_table_sized(
        table_bytes,
        SolverTable::within,
        |kept: &mut SolverTable| {
            // The solver owns its table while it runs; a one-bucket table holds the place.
            let table = std::mem::replace(kept, SolverTable::new(1));
            let mut solver = Solver::with_table(state.grid(), budget, table);
            let solution = solver.solve(state, all_exact);
            *kept = solver.table;
            solution
        },
    )
}

/// One root move's result.
#[derive(Clone, Debug)]
pub struct RootResult {
    /// The move.
    pub mv: Move,
    /// Its score for the mover.
    pub score: i32,
    /// Whether the score is the game-theoretic value.
    pub proven: bool,
    /// The line expected to follow, starting with `mv`.
    pub pv: Vec<Move>,
}

/// What a search found: root moves best first (only the first is exact unless
/// every move was asked for), and what the search did.
#[derive(Clone, Debug)]
pub struct Solution {
    /// Root moves, best first.
    pub moves: Vec<RootResult>,
    /// The deepest iteration completed.
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// Why the search stopped.
    pub stopped_by: StopReason,
}

/// The search engine for one request.
pub struct Solver<'a> {
    budget: &'a Budget,
    pub(super) geometry: Geometry,
    table: SolverTable,
    nodes: u64,
    stopped: Option<StopReason>,
    /// Set when a value in the current subtree leaned on the horizon.
    horizon: bool,
    move_lists: Vec<Vec<Move>>,
    order_lists: Vec<Vec<u64>>,
    history: Vec<[u32; 10]>,
}

impl<'a> Solver<'a> {
    /// A solver for boards of `grid` cells a side, with a table of `2^tt_log2` entries.
    pub fn new(grid: usize, budget: &'a Budget, tt_log2: u32) -> Solver<'a> {
        Self::with_table(grid, budget, SolverTable::new(tt_log2.max(4)))
    }

    /// A solver with a table of a few entries, for mapping moves to and from
    /// the canonical frame (the book) rather than searching.
    pub(super) fn for_keys(grid: usize, budget: &'a Budget) -> Solver<'a> {
        Solver::with_table(grid, budget, SolverTable::new(4))
    }

    fn with_table(grid: usize, budget: &'a Budget, table: SolverTable) -> Solver<'a> {
        Solver {
            budget,
            geometry: Geometry::new(grid),
            table,
            nodes: 0,
            stopped: None,
            horizon: false,
            move_lists: vec![Vec::new(); MAX_PLY + 1],
            order_lists: vec![Vec::new(); MAX_PLY + 1],
            history: vec![[0; 10]; grid * grid],
        }
    }

    /// Positions visited so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    fn out_of_budget(&mut self) -> bool {
        if self.stopped.is_some() {
            return true;
        }
        if self.budget.nodes_exhausted(self.nodes) {
            self.stopped = Some(StopReason::Nodes);
        } else if self.nodes % CHECK_EVERY == 0 {
            self.stopped = self.budget.interrupted();
        }
        self.stopped.is_some()
    }

    /// Plays `mv` on a copy of `node` and says who moves next.
    fn play(&self, node: &Node, mv: Move) -> (Node, Next) {
        let mut child = *node;
        let mover = node.state.to_move;
        let at = mv.row as usize * self.geometry.n + mv.col as usize;
        child.state.cells[at] = Cell::marker(mover, mv.size);
        child.owned[mover.index()] |= 1 << at;
        child.owned[mover.other().index()] &= !(1 << at);
        child.state.hands[mover.index()] &= !(1 << mv.size);
        let next = if child.state.can_move(mover.other()) {
            child.state.to_move = mover.other();
            Next::Opponent
        } else if child.state.can_move(mover) {
            Next::Again
        } else {
            child.state.to_move = mover.other();
            Next::Stalemate
        };
        (child, next)
    }

    /// A move that wins at once for the side to move, if there is one.
    fn winning_move(&self, node: &Node) -> Option<Move> {
        let state = &node.state;
        let me = state.to_move;
        let hand = state.hands[me.index()];
        let biggest = largest(hand);
        let mine = node.owned[me.index()];
        let n = self.geometry.n as u8;
        self.geometry.lines.iter().find_map(|&line| {
            let missing = line & !mine;
            if missing.count_ones() != 1 {
                return None;
            }
            let cell = missing.trailing_zeros() as u8;
            let top = state.cells[cell as usize].size();
            (biggest > top).then(|| Move {
                row: cell / n,
                col: cell % n,
                size: sizes_above(hand, top).trailing_zeros() as u8,
            })
        })
    }

    /// Whether `player` could still fill `line`: every cell it does not own
    /// needs a distinct marker from its hand bigger than the cell's top.
    fn line_open(node: &Node, line: u64, player: Side) -> bool {
        let mut hand = node.state.hands[player.index()];
        let mut missing = line & !node.owned[player.index()];
        let count = missing.count_ones() as usize;
        if count > hand.count_ones() as usize {
            return false;
        }
        let mut tops = [0u8; 8];
        let mut highest = 0;
        for top in tops.iter_mut().take(count) {
            *top = node.state.cells[missing.trailing_zeros() as usize].size();
            highest = highest.max(*top);
            missing &= missing - 1;
        }
        if highest >= largest(hand) {
            return false;
        }
        if count <= 1 {
            return true;
        }
        let tops = &mut tops[..count];
        tops.sort_unstable_by(|a, b| b.cmp(a));
        tops.iter().all(|&top| {
            let biggest = largest(hand);
            hand &= !(1 << biggest);
            biggest > top
        })
    }

    /// Whether `player` could still complete some line.
    fn can_still_win(&self, node: &Node, player: Side) -> bool {
        self.geometry
            .lines
            .iter()
            .any(|&line| Self::line_open(node, line, player))
    }

    /// A static score for the side to move, far inside the decided range:
    /// lines still open to one side only, weighted by how full they are.
    fn evaluate(&self, node: &Node) -> i32 {
        let state = &node.state;
        let me = state.to_move;
        let (mine, theirs) = (node.owned[me.index()], node.owned[me.other().index()]);
        let mut score = 0;
        for &line in &self.geometry.lines {
            let (m, t) = ((line & mine).count_ones(), (line & theirs).count_ones());
            match (m, t) {
                (m, 0) if m > 0 => score += 1 << (2 * m).min(20),
                (0, t) if t > 0 => score -= 1 << (2 * t).min(20),
                _ => {}
            }
        }
        let hand_weight = |p: Side| state.hands[p.index()].count_ones() as i32;
        (score + 4 * (hand_weight(me) - hand_weight(me.other()))).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    pub(super) fn map_canonical(&self, mv: Move, canon: &Canon) -> (u8, u8) {
        let cell = mv.row as usize * self.geometry.n + mv.col as usize;
        (
            self.geometry.images[canon.symmetry][cell],
            canon.rank(mv.size),
        )
    }

    pub(super) fn unmap_canonical(&self, best: (u8, u8), canon: &Canon) -> Option<Move> {
        let n = self.geometry.n;
        if best.1 == 0 || best.0 as usize >= n * n {
            return None;
        }
        let cell = self.geometry.preimages[canon.symmetry][best.0 as usize];
        Some(Move {
            row: cell / n as u8,
            col: cell % n as u8,
            size: canon.size_of_rank(best.1)?,
        })
    }

    /// Fills `order` with the indices of `moves`, best first: the table's
    /// move, then by history, ties in generation order.
    fn order(&self, moves: &[Move], tt_move: Option<Move>, order: &mut Vec<u64>) {
        let n = self.geometry.n;
        order.clear();
        order.extend(moves.iter().enumerate().map(|(i, mv)| {
            let merit = if Some(*mv) == tt_move {
                u32::MAX as u64
            } else {
                self.history[mv.row as usize * n + mv.col as usize][mv.size as usize] as u64
            };
            merit << 16 | (u16::MAX - i as u16) as u64
        }));
        order.sort_unstable_by(|a, b| b.cmp(a));
        for key in order.iter_mut() {
            *key = (u16::MAX - *key as u16) as u64;
        }
    }

    /// The value of `child` for the side that moved into it.
    fn child_value(
        &mut self,
        child: &Node,
        next: &Next,
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        match next {
            Next::Stalemate => 0,
            Next::Again => self.negamax(child, depth, ply, alpha, beta),
            Next::Opponent => -self.negamax(child, depth, ply, -beta, -alpha),
        }
    }

    fn negamax(
        &mut self,
        node: &Node,
        depth: u32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        let state = &node.state;
        if self.winning_move(node).is_some() {
            return WIN - (ply as i32 + 1);
        }
        // A side that can complete no line any more can only draw or lose.
        let me = state.to_move;
        match (
            self.can_still_win(node, me),
            self.can_still_win(node, me.other()),
        ) {
            (false, false) => return 0,
            (true, false) if beta <= 0 => return 0,
            (false, true) if alpha >= 0 => return 0,
            (true, false) => alpha = alpha.max(0),
            (false, true) => beta = beta.min(0),
            (true, true) => {}
        }
        // Without an immediate win, the best left is a win on the mover's next turn.
        let best_possible = WIN - (ply as i32 + 2);
        if best_possible <= alpha {
            return best_possible;
        }
        if depth == 0 || ply >= MAX_PLY {
            self.horizon = true;
            return self.evaluate(node);
        }
        let canon = self.geometry.canonical(node);
        let mut tt_move = None;
        if let Some(entry) = probe(&self.table, canon.key) {
            tt_move = self.unmap_canonical(entry.best, &canon);
            if entry.proven || entry.draft as u32 >= depth {
                let score = from_table(entry.score, ply);
                if entry.bound.cuts(score, alpha, beta) {
                    self.horizon |= !entry.proven;
                    return score;
                }
            }
        }
        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        let mut order = std::mem::take(&mut self.order_lists[ply]);
        moves.clear();
        state.placements(&mut moves);
        self.order(&moves, tt_move, &mut order);

        let alpha_start = alpha;
        let horizon_before = std::mem::replace(&mut self.horizon, false);
        let mut best_score = -INFINITY;
        let mut best_move = moves[order[0] as usize];
        for (i, &index) in order.iter().enumerate() {
            let mv = moves[index as usize];
            let (child, next) = self.play(node, mv);
            let score = if i == 0 {
                self.child_value(&child, &next, depth - 1, ply + 1, alpha, beta)
            } else {
                let probe = self.child_value(&child, &next, depth - 1, ply + 1, alpha, alpha + 1);
                if probe > alpha && probe < beta && self.stopped.is_none() {
                    self.child_value(&child, &next, depth - 1, ply + 1, alpha, beta)
                } else {
                    probe
                }
            };
            if self.stopped.is_some() {
                self.move_lists[ply] = moves;
                self.order_lists[ply] = order;
                self.horizon |= horizon_before;
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = mv;
                alpha = alpha.max(score);
            }
            if alpha >= beta {
                let n = self.geometry.n;
                self.history[mv.row as usize * n + mv.col as usize][mv.size as usize] +=
                    depth * depth;
                break;
            }
        }
        self.move_lists[ply] = moves;
        self.order_lists[ply] = order;
        let proven = !self.horizon;
        self.horizon |= horizon_before;
        let bound = Bound::of(best_score, alpha_start, beta);
        let entry = Entry {
            score: to_table(best_score, ply),
            bound,
            proven,
            draft: depth.min(255) as u8,
            best: self.map_canonical(best_move, &canon),
        };
        store(&mut self.table, canon.key, entry);
        best_score
    }

    /// The expected line from `state`, read from the table.
    fn line_from(&self, state: &State, limit: usize) -> Vec<Move> {
        let mut line = Vec::new();
        let mut node = self.geometry.node(state);
        let mut legal = Vec::new();
        while line.len() < limit && node.state.winner().is_none() {
            let mv = match self.winning_move(&node) {
                Some(mv) => mv,
                None => {
                    let canon = self.geometry.canonical(&node);
                    let Some(mv) = probe(&self.table, canon.key)
                        .and_then(|e| self.unmap_canonical(e.best, &canon))
                    else {
                        break;
                    };
                    mv
                }
            };
            legal.clear();
            node.state.legal_moves(&mut legal);
            if !legal.contains(&mv) {
                break;
            }
            line.push(mv);
            let (child, next) = self.play(&node, mv);
            if matches!(next, Next::Stalemate) {
                break;
            }
            node = child;
        }
        line
    }

    /// Searches `state` (not over) by iterative deepening until the value is
    /// proven or the budget runs out. With `all_exact`, every root move gets a
    /// full-window score (for analysis); otherwise only the best is exact.
    pub fn solve(&mut self, state: &State, all_exact: bool) -> Solution {
        let root = self.geometry.node(state);
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        assert!(!moves.is_empty(), "solve called on a finished game");
        let plies_left = state.hands[0].count_ones() + state.hands[1].count_ones();
        let max_depth = self
            .budget
            .max_depth
            .map_or(plies_left, |d| d.clamp(1, plies_left));
        let mut completed: Vec<RootResult> = Vec::new();
        let mut depth_done = 0;
        let mut stopped_by = StopReason::Depth;
        if let Some(mv) = self.winning_move(&root).filter(|_| !all_exact) {
            let (score, proven, pv) = (WIN - 1, true, vec![mv]);
            return Solution {
                moves: vec![RootResult {
                    mv,
                    score,
                    proven,
                    pv,
                }],
                depth: 1,
                nodes: 1,
                stopped_by: StopReason::Proven,
            };
        }
        // Small boards are solved outright: a few shallow iterations for a
        // fallback move, then the full depth at once. Deeper heuristic
        // iterations would only mislead the move ordering of the exact search.
        let direct = self.geometry.n <= 3 && max_depth == plies_left && max_depth > SHALLOW_DEPTH;
        let schedule: Vec<u32> = if direct {
            (1..=SHALLOW_DEPTH).chain([max_depth]).collect()
        } else {
            (1..=max_depth).collect()
        };
        for depth in schedule {
            if direct && depth == max_depth {
                self.history.iter_mut().for_each(|h| *h = [0; 10]);
                moves.sort_by_key(|mv| std::cmp::Reverse(self.root_merit(mv)));
            }
            let (results, clean) = self.root(&root, &moves, &completed, depth, all_exact);
            if let Some(reason) = self.stopped {
                stopped_by = reason;
                completed = Self::merge_partial(results, completed, moves[0]);
                break;
            }
            moves = results.iter().map(|r| r.mv).collect();
            completed = results;
            depth_done = depth;
            let best = &mut completed[0];
            best.proven |= clean;
            let done = if all_exact {
                completed.iter().all(|r| r.proven)
            } else {
                best.proven
            };
            if done {
                stopped_by = StopReason::Proven;
                break;
            }
            if self.budget.nodes_exhausted(self.nodes) {
                stopped_by = StopReason::Nodes;
                break;
            }
        }
        for result in completed.iter_mut() {
            let after = state.apply(&result.mv);
            result.pv = std::iter::once(result.mv)
                .chain(self.line_from(&after, plies_left as usize))
                .collect();
        }
        Solution {
            moves: completed,
            depth: depth_done,
            nodes: self.nodes,
            stopped_by,
        }
    }

    /// A static preference among root moves, so that among equal values the
    /// solver plays where most lines meet, with the biggest marker.
    fn root_merit(&self, mv: &Move) -> u32 {
        let cell = mv.row as usize * self.geometry.n + mv.col as usize;
        let lines = self
            .geometry
            .lines
            .iter()
            .filter(|&&l| l & 1 << cell != 0)
            .count();
        lines as u32 * 16 + mv.size as u32
    }

    /// Combines an interrupted iteration's results with the last completed
    /// one: the partial results lead when they found a proven draw or win, or
    /// a move better than the last best; otherwise the last iteration stands.
    fn merge_partial(
        partial: Vec<RootResult>,
        mut completed: Vec<RootResult>,
        last_best: Move,
    ) -> Vec<RootResult> {
        let leads = partial.first().is_some_and(|r| {
            (r.proven && r.score >= 0) || r.mv != last_best || completed.is_empty()
        });
        if !leads {
            return completed;
        }
        let mut merged = partial;
        completed.retain(|c| merged.iter().all(|r| r.mv != c.mv));
        merged.append(&mut completed);
        merged
    }

    /// The exact value of a root move's child: first a search with a window
    /// around the draw (cheap, and enough when the game is a draw), then, for a
    /// win or a loss, a search for its exact length.
    fn exact_value(&mut self, child: &Node, next: &Next, depth: u32) -> i32 {
        let probe = self.child_value(child, next, depth, 1, -1, 1);
        if self.stopped.is_some() || probe == 0 {
            probe
        } else if probe > 0 {
            self.child_value(child, next, depth, 1, 0, INFINITY)
        } else {
            self.child_value(child, next, depth, 1, -INFINITY, 0)
        }
    }

    /// The score of one root move: from the previous iteration if proven
    /// there, else searched. Returns the score, whether it is exact, and
    /// whether its subtree stayed clear of the horizon.
    fn root_move(
        &mut self,
        root: &Node,
        mv: Move,
        previous: &[RootResult],
        depth: u32,
        window: Option<i32>,
    ) -> (i32, bool, bool) {
        if let Some(known) = previous.iter().find(|r| r.mv == mv && r.proven) {
            return (known.score, true, true);
        }
        self.nodes += 1;
        let (child, next) = self.play(root, mv);
        if child.state.winner().is_some() {
            return (WIN - 1, true, true);
        }
        self.horizon = false;
        let score = match window {
            None => self.exact_value(&child, &next, depth - 1),
            Some(alpha) => {
                let probe = self.child_value(&child, &next, depth - 1, 1, alpha, alpha + 1);
                if probe > alpha && self.stopped.is_none() {
                    self.child_value(&child, &next, depth - 1, 1, alpha, INFINITY)
                } else {
                    return (probe, false, !self.horizon);
                }
            }
        };
        (score, true, !self.horizon)
    }

    /// One iteration over the root moves in order (moves leading to the same
    /// position up to symmetry are searched once). Returns the results best
    /// first, and whether no search in the iteration reached the horizon. A
    /// move's score is proven when it is exact and either decided or clear of
    /// the horizon (see the module doc).
    fn root(
        &mut self,
        root: &Node,
        moves: &[Move],
        previous: &[RootResult],
        depth: u32,
        all_exact: bool,
    ) -> (Vec<RootResult>, bool) {
        let mut results: Vec<RootResult> = Vec::with_capacity(moves.len());
        let mut seen: Vec<(u64, i32, bool)> = Vec::with_capacity(moves.len());
        let mut clean = true;
        let mut alpha = -INFINITY;
        for (i, &mv) in moves.iter().enumerate() {
            let (child, _) = self.play(root, mv);
            let child_key = self.geometry.canonical(&child).key;
            let twin = seen.iter().find(|(k, _, _)| *k == child_key).copied();
            let (score, proven) = match twin {
                Some(_) if !all_exact => continue,
                Some((_, score, proven)) => (score, proven),
                None => {
                    let window = (i > 0 && !all_exact).then_some(alpha);
                    let (score, exact, free) = self.root_move(root, mv, previous, depth, window);
                    clean &= free;
                    (score, exact && (free || is_decided(score)))
                }
            };
            if self.stopped.is_some() && !(depth == 1 && results.is_empty()) {
                break;
            }
            seen.push((child_key, score, proven));
            alpha = alpha.max(score);
            let at = results.partition_point(|r| r.score >= score);
            let pv = Vec::new();
            results.insert(
                at,
                RootResult {
                    mv,
                    score,
                    proven,
                    pv,
                },
            );
            if self.stopped.is_some() {
                break;
            }
        }
        (results, clean && self.stopped.is_none())
    }
}

#[cfg(test)]
#[path = "solver_tests.rs"]
mod table_tests;
