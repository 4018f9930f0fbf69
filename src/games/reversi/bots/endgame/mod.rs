//! The exact endgame solver: the final disc difference under perfect play
//! (empty squares going to the winner, the usual Othello count).
//!
//! Fail-soft alpha-beta with principal-variation null windows; near the
//! root, moves are tried "fastest first" (fewest replies, helped by the
//! trained pattern evaluation and, with many empties, by a shallow midgame
//! search over it)
//! with a transposition table, enhanced transposition cut-offs and a
//! stability cut-off; the last plies run without any of these, visiting
//! empties in odd regions first (parity), and the very last empty is scored
//! by table look-ups.
//!
//! Why not the generic [`crate::search::alphabeta`]: an exact solve visits
//! hundreds of millions of positions, and its speed comes from what only a
//! bitboard endgame solver does (parity regions, stability bounds, the last
//! empties without a table); its table entries keep a lower and an upper
//! bound at once. The table type and its replacement policy are the shared
//! ones.

mod nodes;

use super::probcut::{self, Cuts};
use crate::game::{Budget, StopReason};
use crate::games::reversi::board::{
    flips, last_flip_count, neighbours, stable_discs, Bits, Board, CORNERS,
};
use crate::search::tt::{Table, TableEntry};

/// Below this many empties, no table, no sorting: the plain parity search.
const SHALLOW_EMPTIES: u32 = 7;
/// From this many empties, the transposition table is used.
const TABLE_EMPTIES: u32 = 8;
/// From this many empties, moves are also ordered by the trained pattern
/// evaluation (ordering by it rather than the hand-written one visits 1.5–6
/// times fewer positions on FFO #40–52).
const EVAL_ORDER_EMPTIES: u32 = 14;
/// The evaluation (hundredths of a disc) counts this many times less than
/// the fastest-first key's units (a reply counts 32).
const EVAL_ORDER_DIVISOR: i32 = 4;
/// From this many empties, the evaluation used for ordering is that of a
/// shallow midgame search (one more ply of it every `SEARCH_ORDER_STEP`
/// empties): near the root a wrong first move costs the most.
const SEARCH_ORDER_EMPTIES: u32 = 16;
const SEARCH_ORDER_STEP: u32 = 3;
/// The root's moves are ordered by a search this many plies deeper than the
/// inner nodes' (chosen on FFO positions: docs/reversi-engine.md).
const ROOT_ORDER_EXTRA: u32 = 2;
/// ... but never deeper than this: a search without a table of its own
/// grows too fast past it.
const ROOT_ORDER_MAX_DEPTH: u32 = 7;
/// A root move whose ordering search already wins by this much (hundredths
/// of a disc) is not preferred for winning by more: among such moves the
/// one fastest to prove goes first.
const ROOT_ORDER_WON: i32 = 3200;
/// From this many empties, each child is looked up in the table before the
/// search (enhanced transposition cut-off).
const ETC_EMPTIES: u32 = 10;
/// The confidences (in sigmas of the endgame's ProbCut lines) of the
/// selective passes that precede an exact solve of many empties, least sure
/// first: each is far cheaper than the next, and leaves the table its best
/// moves, so that the proof that follows finds its refutations first
/// (Edax's iterative selectivity).
const SELECTIVE_PASSES: [f64; 2] = [1.0, 2.0];
/// The level of the exact pass: a table entry holds at its own pass's
/// level and below.
const EXACT_LEVEL: u8 = SELECTIVE_PASSES.len() as u8;
/// From this many empties at the root, an exact solve is preceded by the
/// selective passes.
const SELECTIVE_ROOT_EMPTIES: u32 = 20;
/// How often (in nodes) the budget is checked.
const CHECK_EVERY: u64 = 4096;
/// How often (in positions of the ordering searches) the deadline and the
/// stop flag are checked.
const ORDER_CHECK_EVERY: u64 = 1024;

/// Classes of squares in the order the shallow search tries them: corners
/// first, then the rest, the X-squares (diagonally next to a corner) last.
const SQUARE_CLASSES: [u64; 3] = [CORNERS, !(CORNERS | X_SQUARES), X_SQUARES];
/// b2, g2, b7, g7.
const X_SQUARES: u64 = 0x0042_0000_0000_4200;

/// A stored bound on the exact score of a position, keyed by the whole
/// position. This is not the midgame's score-and-bound entry: an exact
/// solver narrows a lower and an upper bound at once, and the entry stays
/// 24 bytes, which matters at millions of probes a second.
#[derive(Clone, Copy, bytemuck::Zeroable)]
struct Entry {
    me: u64,
    opp: u64,
    lower: i8,
    upper: i8,
    best: u8,
    /// The pass whose search set the bounds: they hold for it and for the
    /// less sure passes before it ([`EXACT_LEVEL`]: proven).
    level: u8,
}

impl Entry {
    /// The entry's bounds, when they hold at pass `level`.
    #[inline]
    fn bounds_at(&self, level: u8) -> Option<(i32, i32)> {
        (self.level >= level).then(|| (i32::from(self.lower), i32::from(self.upper)))
    }
}

impl TableEntry for Entry {
    fn is_used(&self) -> bool {
        (self.me | self.opp) != 0
    }

    /// The empties left: the solve below a position with more of them cost more.
    fn worth(&self) -> u32 {
        (self.me | self.opp).count_zeros()
    }
}

/// One root move with its exact score (or an upper bound when `exact` is false).
#[derive(Clone, Debug)]
pub struct RootScore {
    /// The square, or `None` for a pass.
    pub square: Option<u32>,
    /// The score for the mover.
    pub score: i32,
    /// Whether `score` is exact (otherwise it is an upper bound: the move is not among the best).
    pub exact: bool,
}

/// The solver: its table, its node count and the budget it obeys.
pub struct Solver<'a> {
    budget: &'a Budget,
    table: Table<Entry>,
    /// Positions visited so far.
    pub nodes: u64,
    /// Set when the budget ran out; every result after that is meaningless.
    pub stopped: Option<StopReason>,
    /// When `solve_root` ran out of budget: the moves it finished, best first.
    pub partial: Vec<RootScore>,
    next_check: u64,
    /// Positions of the ordering searches so far (apart from `nodes`).
    order_nodes: u64,
    next_order_check: u64,
    /// The node count at which the solver stops, when it has a cap of its
    /// own instead of the budget's (see [`Solver::allow_nodes`]).
    own_cap: Option<u64>,
    /// The copy of the node searches it runs.
    code: NodeCode,
    /// The pass being searched: [`EXACT_LEVEL`], or a selective pass's index.
    level: u8,
    /// The selective pass's confidence, in sigmas of `end_cuts`' lines.
    confidence: f64,
    /// The endgame's ProbCut lines the selective passes cut by.
    end_cuts: &'static Cuts,
    /// Whether a root of many empties gets the selective passes first.
    selective_passes: bool,
}

impl<'a> Solver<'a> {
    /// A solver with a table of `2^table_log2` entries, running the
    /// fastest node searches this CPU supports.
    pub fn new(budget: &'a Budget, table_log2: u32) -> Self {
        Solver {
            budget,
            table: Table::new(table_log2),
            nodes: 0,
            stopped: None,
            partial: Vec::new(),
            next_check: 0,
            order_nodes: 0,
            next_order_check: 0,
            own_cap: None,
            code: NodeCode::fastest(),
            level: EXACT_LEVEL,
            confidence: 0.0,
            end_cuts: probcut::shipped(),
            selective_passes: true,
        }
    }

    /// The same solver with or without the selective passes before the
    /// proof of a root of many empties (for measuring one against the
    /// other; the scores are the same).
    pub fn with_selective_passes(mut self, on: bool) -> Self {
        self.selective_passes = on;
        self
    }

    /// The same solver running `code`'s node searches (for measuring one
    /// copy against the other); a copy this CPU cannot run is ignored.
    pub fn with_code(mut self, code: NodeCode) -> Self {
        if code.runs_here() {
            self.code = code;
        }
        self
    }

    /// Positions the move-ordering searches visited (apart from [`Solver::nodes`]).
    pub fn ordering_nodes(&self) -> u64 {
        self.order_nodes
    }

    /// The copy of the node searches this solver runs.
    pub fn code(&self) -> NodeCode {
        self.code
    }

    /// From now on, the solver may visit `nodes` more positions, counted
    /// apart from the budget's node cap (deadline and stop flag still
    /// hold): an exact solve that a level allows on top of its midgame
    /// search, so that its cost is part of the level, not of the midgame's
    /// positions.
    pub fn allow_nodes(&mut self, nodes: u64) {
        self.own_cap = Some(self.nodes.saturating_add(nodes));
        self.next_check = self.nodes;
    }

    /// Scores the root moves of `board` (the game not over), best first: the
    /// first `top` exactly, the others as upper bounds at most the `top`-th
    /// score. `order` lists squares to try first. `None` if the budget ran out.
    pub fn solve_root(
        &mut self,
        board: Board,
        top: usize,
        include: Option<u32>,
        order: &[u32],
    ) -> Option<Vec<RootScore>> {
        let moves = board.moves();
        if moves == 0 {
            let score = -self.solve(board.pass(), -65, 65);
            return self.stopped.is_none().then(|| {
                vec![RootScore {
                    square: None,
                    score,
                    exact: true,
                }]
            });
        }
        let mut squares: Vec<u32> = order
            .iter()
            .copied()
            .filter(|&sq| moves & (1 << sq) != 0)
            .collect();
        let mut rest: Vec<(i32, u32)> = Bits(moves)
            .filter(|sq| !squares.contains(sq))
            .map(|sq| (self.root_key(board, sq), sq))
            .collect();
        if self.stopped.is_some() {
            return None;
        }
        rest.sort_unstable();
        squares.extend(rest.into_iter().map(|(_, sq)| sq));
        let mut guess = None;
        if self.selective_passes && board.empties() >= SELECTIVE_ROOT_EMPTIES {
            guess = self.order_by_selective_passes(board, &mut squares);
            if self.stopped.is_some() {
                return None;
            }
        }

        let top = top.max(1);
        let mut scored: Vec<RootScore> = Vec::with_capacity(squares.len());
        for sq in squares {
            let child = board.play(sq);
            let included = include == Some(sq);
            let score = if let (true, Some(guess)) = (scored.is_empty(), guess) {
                self.prove_around(child, guess)
            } else if scored.len() < top || included {
                -self.solve(child, -65, 65)
            } else {
                let alpha = scored[top - 1].score;
                let probe = -self.solve(child, -alpha - 1, -alpha);
                if probe > alpha && self.stopped.is_none() {
                    -self.solve(child, -65, -alpha)
                } else {
                    probe
                }
            };
            if self.stopped.is_some() {
                self.partial = scored;
                return None;
            }
            let exact = scored.len() < top || included || score > scored[top - 1].score;
            let at = scored.partition_point(|r| r.score >= score);
            scored.insert(
                at,
                RootScore {
                    square: Some(sq),
                    score,
                    exact,
                },
            );
            for (i, r) in scored.iter_mut().enumerate() {
                if i >= top && r.square != include {
                    r.exact = false;
                }
            }
        }
        Some(scored)
    }

    /// Runs the selective passes over the root's moves, least sure first,
    /// each bringing its best move to the front of `squares` (the others
    /// keep their order), and leaves the solver at the exact level.
    fn order_by_selective_passes(&mut self, board: Board, squares: &mut [u32]) -> Option<i32> {
        let mut guess = None;
        for (level, &confidence) in SELECTIVE_PASSES.iter().enumerate() {
            self.level = level as u8;
            self.confidence = confidence;
            let mut best = -65;
            let mut best_at = 0;
            for (i, &sq) in squares.iter().enumerate() {
                let child = board.play(sq);
                let score = if i == 0 {
                    -self.solve(child, -65, 65)
                } else {
                    let probe = -self.solve(child, -best - 1, -best);
                    if probe > best && self.stopped.is_none() {
                        -self.solve(child, -65, -probe)
                    } else {
                        probe
                    }
                };
                if self.stopped.is_some() {
                    break;
                }
                if score > best {
                    best = score;
                    best_at = i;
                }
            }
            squares[..=best_at].rotate_right(1);
            guess = Some(best);
            if self.stopped.is_some() {
                break;
            }
        }
        self.level = EXACT_LEVEL;
        guess
    }

    /// The exact score of the root move that leads to `child`, searched
    /// first in a narrow window around `guess` (the selective passes'
    /// score), then, if it falls outside, in the window on that side.
    fn prove_around(&mut self, child: Board, guess: i32) -> i32 {
        let (low, high) = (guess - 1, guess + 1);
        let score = -self.solve(child, -high, -low);
        if self.stopped.is_some() || (low < score && score < high) {
            score
        } else if score <= low {
            -self.solve(child, -(score + 1), 65)
        } else {
            -self.solve(child, -65, -(score - 1))
        }
    }

    /// In a selective pass, the bound a null-window node with `empties`
    /// empties is taken to fail at when a shallow search predicts its
    /// exact score clear of the window by the pass's confidence; `None`
    /// when it must be searched (always in the exact pass).
    #[inline]
    fn selective_cut(&mut self, board: Board, alpha: i32, beta: i32, empties: u32) -> Option<i32> {
        if self.level == EXACT_LEVEL || beta - alpha != 1 {
            return None;
        }
        let cut = self.end_cuts.at_end(empties)?;
        let t = self.confidence;
        if beta < 64 {
            let bound = cut.high_bound(100 * beta, t);
            if bound < 6400 && self.order_search(board, cut.shallow, bound - 1, bound) >= bound {
                return Some(beta);
            }
        }
        if alpha > -64 {
            let bound = cut.low_bound(100 * alpha, t);
            if bound > -6400 && self.order_search(board, cut.shallow, bound, bound + 1) <= bound {
                return Some(alpha);
            }
        }
        None
    }

    /// The exact score of `board` for its mover if it lies in (alpha, beta);
    /// otherwise a bound on the same side of the window (fail-soft).
    pub fn solve(&mut self, board: Board, alpha: i32, beta: i32) -> i32 {
        match self.code {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `code` is `X86` only on a CPU that has its features
            // (`NodeCode::fastest` and `Solver::with_code` check).
            NodeCode::X86 => unsafe { nodes::x86_nodes::solve(self, board, alpha, beta) },
            NodeCode::Portable => nodes::portable_nodes::solve(self, board, alpha, beta),
        }
    }

    /// The best line from `board` given that its exact score is `score`,
    /// read from the table and completed by small searches.
    pub fn principal_line(&mut self, board: Board, score: i32, max_len: usize) -> Vec<Option<u32>> {
        let mut line = Vec::new();
        let mut board = board;
        let mut score = score;
        while line.len() < max_len && !board.is_over() {
            let moves = board.moves();
            if moves == 0 {
                line.push(None);
                board = board.pass();
                score = -score;
                continue;
            }
            let Some(sq) = self.move_keeping(board, score) else {
                break;
            };
            line.push(Some(sq));
            board = board.play(sq);
            score = -score;
        }
        line
    }

    /// A move of `board` whose exact score is `score`, if one is found cheaply.
    fn move_keeping(&mut self, board: Board, score: i32) -> Option<u32> {
        let moves = board.moves();
        if let Some(entry) = self.probe(board) {
            let sq = u32::from(entry.best);
            if moves & (1 << sq) != 0 && self.child_scores(board, sq, score) {
                return Some(sq);
            }
        }
        if board.empties() > 14 {
            return None;
        }
        Bits(moves).find(|&sq| self.child_scores(board, sq, score))
    }

    /// Whether playing `sq` keeps the exact score `score`.
    fn child_scores(&mut self, board: Board, sq: u32, score: i32) -> bool {
        let value = -self.solve(board.play(sq), -score - 1, -score + 1);
        self.stopped.is_none() && value == score
    }

    fn probe(&self, board: Board) -> Option<Entry> {
        self.table
            .probe(board.hash(), |e| e.me == board.me && e.opp == board.opp)
    }

    fn prefetch(&self, board: Board) {
        self.table.prefetch(board.hash());
    }

    fn store(&mut self, board: Board, lower: i32, upper: i32, best: u32) {
        let entry = Entry {
            me: board.me,
            opp: board.opp,
            lower: lower as i8,
            upper: upper as i8,
            best: best as u8,
            level: self.level,
        };
        self.table.store(board.hash(), entry, |e| {
            e.me == board.me && e.opp == board.opp
        });
    }

    /// Whether `count` positions reach the solver's node cap: its own when
    /// a level gave it one, else the budget's.
    fn over_cap(&self, count: u64) -> bool {
        match self.own_cap {
            Some(cap) => count >= cap,
            None => self.budget.nodes_exhausted(count),
        }
    }

    fn out_of_budget(&mut self) -> bool {
        if self.stopped.is_none() && self.nodes >= self.next_check {
            self.next_check = self.nodes + CHECK_EVERY;
            if self.over_cap(self.nodes) {
                self.stopped = Some(StopReason::Nodes);
            } else {
                self.stopped = self.budget.interrupted();
            }
        }
        self.stopped.is_some()
    }

    /// A small fail-soft alpha-beta over the midgame evaluation, for move
    /// ordering only: the score of `board` for its mover, `depth` plies deep.
    /// Its positions are counted apart from the solver's, but it stops with
    /// the solver on the deadline or a cancellation (with many empties one
    /// ordering search alone can outlast a short deadline), and when its
    /// own positions reach the solver's node cap: a search bounded by
    /// positions alone has no deadline to stop an ordering search that
    /// would never end.
    fn order_search(&mut self, board: Board, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        self.order_nodes += 1;
        if self.order_nodes >= self.next_order_check {
            self.next_order_check = self.order_nodes + ORDER_CHECK_EVERY;
            if self.stopped.is_none() {
                self.stopped = if self.over_cap(self.order_nodes) {
                    Some(StopReason::Nodes)
                } else {
                    self.budget.interrupted()
                };
            }
        }
        if self.stopped.is_some() {
            return 0;
        }
        if depth == 0 {
            return super::patterns::evaluate(board);
        }
        let moves = board.moves();
        if moves == 0 {
            if board.opp_moves() == 0 {
                return 100 * board.final_score();
            }
            return -self.order_search(board.pass(), depth - 1, -beta, -alpha);
        }
        let mut best = -i32::MAX;
        for sq in Bits(moves) {
            let score = -self.order_search(board.play(sq), depth - 1, -beta, -alpha);
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Ordering key of a root move (smaller first): the inner nodes' key,
    /// its search `ROOT_ORDER_EXTRA` plies deeper. A wrong first move costs
    /// the most at the root, and the root is searched once.
    fn root_key(&mut self, board: Board, sq: u32) -> i32 {
        let flipped = flips(board.me, board.opp, sq);
        let depth = (order_depth(board.empties()) + ROOT_ORDER_EXTRA).min(ROOT_ORDER_MAX_DEPTH);
        let reply = self.order_search(board.play_flips(sq, flipped), depth, -i32::MAX, i32::MAX);
        nodes::portable_nodes::order_key(board, sq, flipped)
            + reply.max(-ROOT_ORDER_WON) / EVAL_ORDER_DIVISOR
    }
}

/// Plies of the midgame search that orders the moves of a node with
/// `empties` empties (0, the static evaluation, below `SEARCH_ORDER_EMPTIES`).
fn order_depth(empties: u32) -> u32 {
    if empties >= SEARCH_ORDER_EMPTIES {
        1 + (empties - SEARCH_ORDER_EMPTIES) / SEARCH_ORDER_STEP
    } else {
        0
    }
}

/// Which compiled copy of the node searches a [`Solver`] runs. Both visit
/// the same positions in the same order and return the same scores; the
/// x86 copy is compiled with AVX2 move generation and the hardware bit
/// count and bit scans, and is chosen at run time on CPUs that have them,
/// so the build stays portable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeCode {
    /// Portable code, for any CPU.
    Portable,
    /// AVX2, POPCNT, LZCNT and BMI1 (x86-64 CPUs that have them).
    #[cfg(target_arch = "x86_64")]
    X86,
}

impl NodeCode {
    /// The fastest copy this CPU can run.
    pub fn fastest() -> Self {
        #[cfg(target_arch = "x86_64")]
        if crate::games::reversi::board::x86::supported() {
            return NodeCode::X86;
        }
        NodeCode::Portable
    }

    /// Whether this CPU can run this copy.
    pub fn runs_here(self) -> bool {
        match self {
            NodeCode::Portable => true,
            #[cfg(target_arch = "x86_64")]
            NodeCode::X86 => crate::games::reversi::board::x86::supported(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_raised_stop_ends_the_ordering_searches_at_their_first_check() {
        // From the start, each root move's ordering search alone would
        // visit millions of positions.
        let budget = Budget::unlimited();
        budget.stop.raise();
        let mut solver = Solver::new(&budget, 10);
        assert!(solver.solve_root(Board::start(), 1, None, &[]).is_none());
        assert_eq!(solver.stopped, Some(StopReason::Cancelled));
        assert!(
            solver.order_nodes <= ORDER_CHECK_EVERY,
            "{}",
            solver.order_nodes
        );
    }

    #[test]
    fn a_node_cap_ends_the_ordering_searches_too() {
        // From the start every node's ordering search is 15 plies deep, so
        // without a bound of their own they would outlast any cap on the
        // solver's positions.
        let budget = Budget::unlimited().nodes(100_000);
        let mut solver = Solver::new(&budget, 10);
        solver.solve(Board::start(), -1, 1);
        assert_eq!(solver.stopped, Some(StopReason::Nodes));
        assert!(
            solver.order_nodes <= 100_000 + ORDER_CHECK_EVERY,
            "{}",
            solver.order_nodes
        );
    }
}
