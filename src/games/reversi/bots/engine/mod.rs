//! The `strong` level's engine: principal-variation search with iterative
//! deepening, a transposition table and evaluation-ordered moves in the
//! midgame, handing over to the exact [`Solver`] once the end is in reach.
//!
//! Midgame scores are in the evaluation's units (about hundredths of a disc);
//! a finished game inside the tree is worth ±([`WIN`] + discs), so that a
//! forced win outranks any estimate. Exact scores are disc differences.
//!
//! Why not the generic [`crate::search::alphabeta`]: the search works on
//! bitboards with flips computed once per move and reused for ordering, and
//! hands windows to the exact solver mid-tree (in discs, not in the
//! evaluation's units); the generic engine clones game states per move. The
//! table and the score scale are the shared ones.

mod leaf;
mod root;
mod time;

use self::leaf::{ClassicLeaf, Leaf};
use self::root::{adopt_partial_solve, exact_lines, fallback, initial_order, settle_wipeout};
use self::time::{falling, out_of_time_for_next, should_try_solve, table_size_log2};
use super::endgame::Solver;
use super::probcut::{self, Cuts};
use super::{eval, patterns};
use crate::game::{Budget, Progress, StopReason};
use crate::games::reversi::board::{flips, Bits, Board};
use crate::search::tt::{Bound, Table, TableEntry};
use std::time::Instant;

/// The score of a won game inside the midgame search, before adding the
/// margin: the scale every engine shares.
pub use crate::search::WIN;
const INFINITY: i32 = 2 * WIN;
const CHECK_EVERY: u64 = 512;
/// ProbCut tests only windows inside this many hundredths of a disc: a
/// bound beyond a 64-disc margin is about forced ends, which only a full
/// search may claim.
const PROBCUT_SCORE_LIMIT: i32 = 6_400;
/// The deepest midgame iteration.
const MAX_MID_DEPTH: u32 = 60;

/// One analysed root move.
#[derive(Clone, Debug)]
pub struct RootLine {
    /// The square played, or `None` for a pass.
    pub square: Option<u32>,
    /// Its score for the mover: discs when `exact`, else evaluation units.
    pub score: i32,
    /// The line expected to follow, starting with this move.
    pub pv: Vec<Option<u32>>,
    /// Whether `score` is the exact final disc difference.
    pub exact: bool,
}

/// What the engine found.
#[derive(Clone, Debug)]
pub struct Thought {
    /// The analysed root moves, best first.
    pub lines: Vec<RootLine>,
    /// The deepest completed midgame iteration (the number of empties when solved).
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// Why the search stopped.
    pub stopped_by: StopReason,
    /// Whether the best line's score is exact.
    pub proven: bool,
    /// The lines of the completed iteration one ply shallower than
    /// `lines`, with full-window scores (the first `top` of them), for
    /// reports that average the last two depths; empty when there was none.
    pub previous: Vec<RootLine>,
}

/// How the engine spends its budget.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// The deepest midgame iteration allowed.
    pub max_depth: u32,
    /// Try the exact solver at or below this many empties (when time allows).
    pub solve_empties: u32,
    /// Positions the exact solve may visit besides the midgame's node cap;
    /// `None` counts it against the budget's cap like the midgame.
    pub solve_nodes: Option<u64>,
    /// How many root moves need exact scores (1 to play, k to analyse).
    pub top: usize,
    /// A root square that needs an exact score too, wherever it ranks (a
    /// review's played move), so that it compares with the best's.
    pub include: Option<u32>,
    /// The midgame table's size as log2 of its entries (the solver's is
    /// twice as big); `None` sizes it from the budget. Small fixed sizes
    /// suit many short untimed searches, such as self-play.
    pub table_log2: Option<u32>,
    /// The static evaluation at the leaves and for ordering moves.
    pub evaluation: Evaluation,
    /// Multi-ProbCut's confidence `t` in the midgame's null-window nodes
    /// ([`probcut`]): a node is cut when a shallow search predicts the
    /// deep one beyond the window by `t` standard deviations; `None`
    /// searches every node in full (the engine before selective search).
    pub probcut: Option<f64>,
}

impl Plan {
    /// A full-width search to `depth` with a table of `2^table_log2`
    /// entries, the pattern evaluation and no exact solve: the fixed
    /// searches that studies compare other searches with.
    pub fn full_width(depth: u32, table_log2: u32) -> Plan {
        Plan {
            max_depth: depth,
            solve_empties: 0,
            solve_nodes: None,
            top: 1,
            include: None,
            table_log2: Some(table_log2),
            evaluation: Evaluation::Patterns,
            probcut: None,
        }
    }
}

/// Which static evaluation the midgame search uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Evaluation {
    /// The trained pattern evaluation with the shipped weights
    /// ([`patterns`]), the default.
    #[default]
    Patterns,
    /// The pattern evaluation with other weights (a training run's, to
    /// compare them with the shipped ones).
    Weights(&'static patterns::Weights),
    /// The hand-written evaluation of earlier builds ([`eval`]), kept as a
    /// baseline for the arena (`strong:patterns=0`).
    Classic,
}

impl Evaluation {
    /// The score of `board` for the mover, in hundredths of a disc.
    pub fn score(self, board: Board) -> i32 {
        match self {
            Evaluation::Patterns => patterns::evaluate(board),
            Evaluation::Weights(weights) => weights.evaluate(board),
            Evaluation::Classic => eval::evaluate(board),
        }
    }
}

/// A midgame table entry: the whole position as its key (no hash
/// collision can pass for it), the score, its bound, the depth (at least 1)
/// and the best square.
#[derive(Clone, Copy, bytemuck::Zeroable)]
struct Entry {
    me: u64,
    opp: u64,
    score: i32,
    depth: u8,
    bound: Bound,
    best: u8,
}

impl TableEntry for Entry {
    fn is_used(&self) -> bool {
        self.depth > 0
    }

    fn worth(&self) -> u32 {
        self.depth.into()
    }
}

/// A move searched from a position: the board after it, the square
/// played and the discs it flipped.
#[derive(Clone, Copy)]
struct Child {
    board: Board,
    sq: u32,
    flipped: u64,
}

/// What a node's first steps found ([`Midgame::enter`]).
enum Arrival {
    /// The mover's moves: the node is to be searched.
    Moves(u64),
    /// The node's score: the budget is spent (0) or the game is over.
    Settled(i32),
    /// The mover must pass.
    Pass,
}

/// The midgame search state.
struct Midgame<'a, L: Leaf> {
    budget: &'a Budget,
    leaf: L,
    /// The confidence and the cut tests, when the search is selective.
    probcut: Option<(f64, &'static Cuts)>,
    table: Table<Entry>,
    solver: Solver<'a>,
    next_check: u64,
    stopped: Option<StopReason>,
    /// Whether the depth-1 iteration is running: it takes microseconds, and
    /// every answer needs its scores, so only cancellation may cut it short.
    first_iteration: bool,
}

/// The midgame score of an exact final disc difference.
pub fn exact_to_mid(discs: i32) -> i32 {
    match discs {
        d if d > 0 => WIN + d,
        d if d < 0 => -WIN + d,
        _ => 0,
    }
}

/// The disc window that answers a midgame window (alpha, beta) exactly.
fn disc_window(alpha: i32, beta: i32) -> (i32, i32) {
    let low = if alpha >= 0 {
        (alpha - WIN).clamp(0, 64)
    } else {
        (alpha + WIN).clamp(-65, -1)
    };
    let high = if beta > 0 {
        (beta - WIN).clamp(1, 65)
    } else {
        (beta + WIN).clamp(-64, 0)
    };
    (low, high)
}

/// Thinks about `board` (the game not over) under `budget` following `plan`.
pub fn think(board: Board, budget: &Budget, plan: Plan) -> Thought {
    match plan.evaluation {
        Evaluation::Patterns => think_with(board, budget, plan, patterns::shipped()),
        Evaluation::Weights(weights) => think_with(board, budget, plan, weights),
        Evaluation::Classic => think_with(board, budget, plan, ClassicLeaf),
    }
}

/// [`think`] with the plan's evaluation as a [`Leaf`].
fn think_with<L: Leaf>(board: Board, budget: &Budget, plan: Plan, leaf: L) -> Thought {
    let started = Instant::now();
    // Under a clock the time manager stops between iterations; the
    // deadline is only the most an unsettled move may take (an exact
    // solve included: a perfect endgame is worth the stretch, so whether
    // to start it is decided on the stretched time too).
    let stretched = budget.stretched();
    let budget = &stretched;
    let table_log2 = plan.table_log2.unwrap_or_else(|| table_size_log2(budget));
    let mut mid = Midgame {
        budget,
        leaf,
        probcut: plan.probcut.map(|t| (t, probcut::shipped())),
        table: Table::new(table_log2),
        solver: Solver::new(budget, table_log2 + 1),
        next_check: 0,
        stopped: None,
        first_iteration: true,
    };
    let empties = board.empties();
    let mut order = initial_order(board, plan.evaluation);
    let mut best: Option<Thought> = None;
    let mut last_complete: Vec<RootLine> = Vec::new();
    let mut stopped_by = StopReason::Depth;
    let max_depth = plan.max_depth.clamp(1, MAX_MID_DEPTH);
    // Completed iterations in a row whose best move was the same, and how
    // the clock's time manager sees them.
    let mut stable = 0;
    let mut progress = Progress::default();

    let mut depth = 1;
    loop {
        let exact_now = empties <= plan.solve_empties
            && (depth > max_depth.min(empties.saturating_sub(1))
                || empties <= 12
                || depth > 4 && should_try_solve(budget, empties));
        if exact_now {
            if let Some(nodes) = plan.solve_nodes {
                mid.solver.allow_nodes(nodes);
            }
            if let Some(solved) = mid.solve(board, plan.top, plan.include, &order) {
                best = Some(Thought {
                    depth: empties,
                    nodes: mid.solver.nodes,
                    stopped_by: StopReason::Proven,
                    proven: true,
                    lines: solved,
                    previous: Vec::new(),
                });
                stopped_by = StopReason::Proven;
            } else {
                stopped_by = mid.stopped.unwrap_or(StopReason::Time);
                adopt_partial_solve(&mut best, &mid.solver.partial, &order);
            }
            break;
        }
        if depth > max_depth {
            break;
        }
        mid.first_iteration = depth == 1;
        let (lines, complete) = mid.root(board, depth, (plan.top, plan.include), &order);
        let improved = lines
            .first()
            .is_some_and(|l| l.square != order.first().copied());
        if (complete || best.is_none() || improved) && !lines.is_empty() {
            order = lines.iter().filter_map(|l| l.square).collect();
            let exact_top = exact_lines(&lines, plan.top, plan.include);
            best = Some(Thought {
                lines,
                depth: if complete { depth } else { depth - 1 },
                nodes: 0,
                stopped_by: StopReason::Depth,
                proven: false,
                previous: last_complete.clone(),
            });
            if complete {
                let same_best =
                    exact_top.first().map(|l| l.square) == last_complete.first().map(|l| l.square);
                stable = if same_best { stable + 1 } else { 1 };
                // Its iterations grow finely and it foresees the next one
                // itself (`out_of_time_for_next`): no times given.
                progress = Progress {
                    iterations: progress.iterations + 1,
                    stable,
                    falling: falling(&exact_top, &last_complete),
                    ..Progress::default()
                };
                last_complete = exact_top;
                if let Some(thought) = &best {
                    budget.observe(|| {
                        super::analysis_of(thought, mid.solver.nodes, plan.top, plan.include)
                    });
                }
            }
        }
        if complete && plan.top <= 1 && best.as_mut().is_some_and(settle_wipeout) {
            stopped_by = StopReason::Proven;
            break;
        }
        if let Some(reason) = mid.stopped {
            stopped_by = reason;
            break;
        }
        if out_of_time_for_next(budget, started) || budget.enough(progress) {
            stopped_by = StopReason::Time;
            break;
        }
        if budget.nodes_exhausted(mid.solver.nodes) {
            stopped_by = StopReason::Nodes;
            break;
        }
        depth += 1;
    }
    let mut thought = best.unwrap_or_else(|| fallback(board, &order));
    thought.nodes = mid.solver.nodes;
    thought.stopped_by = stopped_by;
    thought
}

impl<L: Leaf> Midgame<'_, L> {
    /// Solves the root exactly; `None` when the budget ran out.
    fn solve(
        &mut self,
        board: Board,
        top: usize,
        include: Option<u32>,
        order: &[u32],
    ) -> Option<Vec<RootLine>> {
        let scores = self.solver.solve_root(board, top, include, order);
        if scores.is_none() {
            self.stopped = self.solver.stopped;
        }
        let scores = scores?;
        let mut lines = Vec::with_capacity(scores.len());
        for (i, s) in scores.into_iter().enumerate() {
            let after = match s.square {
                Some(sq) => board.play(sq),
                None => board.pass(),
            };
            let mut pv = vec![s.square];
            if (i < top || s.square == include && include.is_some()) && s.exact {
                pv.extend(self.solver.principal_line(after, -s.score, 64));
            }
            if self.solver.stopped.is_some() {
                // The line is a courtesy: keep the proven scores even if it was cut.
                self.solver.stopped = None;
            }
            lines.push(RootLine {
                square: s.square,
                score: s.score,
                pv,
                exact: s.exact,
            });
        }
        Some(lines)
    }

    /// One iteration at the root: the first `top` moves and the `include`d
    /// square get exact scores, the rest are tested against the `top`-th.
    /// Returns the scored moves best first and whether the iteration
    /// finished.
    fn root(
        &mut self,
        board: Board,
        depth: u32,
        (top, include): (usize, Option<u32>),
        order: &[u32],
    ) -> (Vec<RootLine>, bool) {
        let top = top.max(1);
        let moves = board.moves();
        let kept = self.leaf.start(board);
        if moves == 0 {
            let passed = self.leaf.pass(&kept);
            let score = -self.negamax(board.pass(), &passed, depth, -INFINITY, INFINITY);
            if self.stopped.is_some() {
                return (Vec::new(), false);
            }
            let line = self.root_line(board, None, score, depth);
            return (vec![line], true);
        }
        let mut scored: Vec<RootLine> = Vec::with_capacity(order.len());
        for &sq in order {
            let flipped = flips(board.me, board.opp, sq);
            let child = board.play_flips(sq, flipped);
            let kept = self.leaf.play(&kept, sq, flipped);
            let score = if scored.len() < top || include == Some(sq) {
                -self.negamax(child, &kept, depth - 1, -INFINITY, INFINITY)
            } else {
                let alpha = scored[top - 1].score;
                let probe = -self.negamax(child, &kept, depth - 1, -alpha - 1, -alpha);
                if probe > alpha && self.stopped.is_none() {
                    -self.negamax(child, &kept, depth - 1, -INFINITY, -alpha)
                } else {
                    probe
                }
            };
            if self.stopped.is_some() {
                return (scored, false);
            }
            let line = self.root_line(board, Some(sq), score, depth);
            let at = scored.partition_point(|l| l.score >= score);
            scored.insert(at, line);
        }
        (scored, true)
    }

    /// The root line for a searched move, its score made exact when proven.
    fn root_line(&mut self, board: Board, square: Option<u32>, score: i32, depth: u32) -> RootLine {
        let after = match square {
            Some(sq) => board.play(sq),
            None => board.pass(),
        };
        let mut pv = vec![square];
        pv.extend(self.table_line(after, depth as usize + 4));
        RootLine {
            square,
            score,
            pv,
            exact: false,
        }
    }

    /// The best moves the table remembers from `board`.
    fn table_line(&self, board: Board, max_len: usize) -> Vec<Option<u32>> {
        let mut line = Vec::new();
        let mut board = board;
        while line.len() < max_len {
            let moves = board.moves();
            if moves == 0 {
                if board.opp_moves() == 0 {
                    break;
                }
                line.push(None);
                board = board.pass();
                continue;
            }
            let Some(entry) = self.probe(board) else {
                break;
            };
            let sq = u32::from(entry.best);
            if moves & (1 << sq) == 0 {
                break;
            }
            line.push(Some(sq));
            board = board.play(sq);
        }
        line
    }

    fn probe(&self, board: Board) -> Option<Entry> {
        self.table
            .probe(board.hash(), |e| e.me == board.me && e.opp == board.opp)
    }

    fn store(&mut self, board: Board, entry: Entry) {
        self.table.store(board.hash(), entry, |e| {
            e.me == board.me && e.opp == board.opp
        });
    }

    /// Stores what a search of `board` to `depth` found: `best`, by
    /// `best_sq`, within the window `(alpha, beta)` it was searched with.
    fn store_search(
        &mut self,
        board: Board,
        depth: u32,
        best: i32,
        best_sq: u32,
        window: (i32, i32),
    ) {
        self.store(
            board,
            Entry {
                me: board.me,
                opp: board.opp,
                score: best,
                depth: depth.clamp(1, 255) as u8,
                bound: Bound::of(best, window.0, window.1),
                best: best_sq as u8,
            },
        );
    }

    fn out_of_budget(&mut self) -> bool {
        let nodes = self.solver.nodes;
        if self.stopped.is_none() && nodes >= self.next_check {
            self.next_check = nodes + CHECK_EVERY;
            if self.first_iteration {
                self.stopped = self
                    .budget
                    .stop
                    .is_raised()
                    .then_some(StopReason::Cancelled);
            } else if self.budget.nodes_exhausted(nodes) {
                self.stopped = Some(StopReason::Nodes);
            } else {
                self.stopped = self.budget.interrupted();
            }
        }
        self.stopped.is_some()
    }

    /// Multi-ProbCut at a null-window node: `beta` (or `alpha`) when a
    /// shallow search predicts, with the plan's confidence, that the full
    /// search would fail high (or low); `None` when the node must be
    /// searched. Scores near a forced end are never cut.
    fn probcut(
        &mut self,
        board: Board,
        kept: &L::Kept,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let (t, cuts) = self.probcut?;
        if beta - alpha != 1 || depth < probcut::MIN_DEPTH {
            return None;
        }
        let cut = cuts.at(depth, board.empties())?;
        let high = cut.high_bound(beta, t);
        if high < PROBCUT_SCORE_LIMIT {
            let probe = self.negamax(board, kept, cut.shallow, high - 1, high);
            if self.stopped.is_some() {
                return Some(0);
            }
            if probe >= high {
                return Some(beta);
            }
        }
        let low = cut.low_bound(alpha, t);
        if low > -PROBCUT_SCORE_LIMIT {
            let probe = self.negamax(board, kept, cut.shallow, low, low + 1);
            if self.stopped.is_some() {
                return Some(0);
            }
            if probe <= low {
                return Some(alpha);
            }
        }
        None
    }

    /// [`Midgame::negamax`] of `child`, a move from a position whose
    /// evaluation keeps `kept`: at depth 0 the same steps without working
    /// out what the child's evaluation would keep, which a leaf only needs
    /// when its mover must pass.
    fn child(&mut self, kept: &L::Kept, child: Child, depth: u32, alpha: i32, beta: i32) -> i32 {
        let Child { board, sq, flipped } = child;
        if depth > 0 {
            return self.negamax(
                board,
                &self.leaf.play(kept, sq, flipped),
                depth,
                alpha,
                beta,
            );
        }
        match self.enter(board) {
            Arrival::Moves(moves) => self.leaf.score_after(kept, sq, flipped, board, moves),
            Arrival::Settled(score) => score,
            Arrival::Pass => {
                let passed = self.leaf.pass(&self.leaf.play(kept, sq, flipped));
                -self.negamax(board.pass(), &passed, depth, -beta, -alpha)
            }
        }
    }

    /// The first steps of every node: count it, stop when the budget is
    /// spent, end a finished game, and find the mover's moves.
    #[inline(always)]
    fn enter(&mut self, board: Board) -> Arrival {
        self.solver.nodes += 1;
        if self.out_of_budget() {
            return Arrival::Settled(0);
        }
        let moves = board.moves();
        if moves != 0 {
            Arrival::Moves(moves)
        } else if board.opp_moves() == 0 {
            Arrival::Settled(exact_to_mid(board.final_score()))
        } else {
            Arrival::Pass
        }
    }

    /// A node one ply above the leaves: the table's move first, then every
    /// other move in turn, until one reaches `beta`. A leaf's score does not
    /// depend on the window, so each child is scored once (a null-window
    /// probe and its re-search would score it twice), and a move's flips are
    /// found only when it is reached. The scores, the table and the tree are
    /// those of [`Midgame::negamax`]'s general loop; only the leaves scored
    /// twice are gone.
    fn last_ply(&mut self, board: Board, kept: &L::Kept, moves: u64, alpha: i32, beta: i32) -> i32 {
        let mut first = None;
        if let Some(entry) = self.probe(board) {
            if entry.depth >= 1 && entry.bound.cuts(entry.score, alpha, beta) {
                return entry.score;
            }
            first = Some(u32::from(entry.best)).filter(|&sq| moves & (1 << sq) != 0);
        }
        let rest = moves & !first.map_or(0, |sq| 1u64 << sq);
        let mut best = -INFINITY;
        let mut best_sq = 0;
        for sq in first.into_iter().chain(Bits(rest)) {
            let flipped = flips(board.me, board.opp, sq);
            let child = Child {
                board: board.play_flips(sq, flipped),
                sq,
                flipped,
            };
            let score = -self.child(kept, child, 0, -beta, -alpha.max(best));
            if self.stopped.is_some() {
                return 0;
            }
            if score > best {
                best = score;
                best_sq = sq;
                if best >= beta {
                    break;
                }
            }
        }
        self.store_search(board, 1, best, best_sq, (alpha, beta));
        best
    }

    /// Principal-variation negamax over `board`, whose evaluation keeps
    /// `kept`; passes do not use up depth.
    fn negamax(
        &mut self,
        board: Board,
        kept: &L::Kept,
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let moves = match self.enter(board) {
            Arrival::Moves(moves) => moves,
            Arrival::Settled(score) => return score,
            Arrival::Pass => {
                return -self.negamax(board.pass(), &self.leaf.pass(kept), depth, -beta, -alpha)
            }
        };
        if depth == 0 {
            return self.leaf.score(kept, board, moves);
        }
        if board.empties() <= depth {
            let (low, high) = disc_window(alpha, beta);
            let discs = self.solver.solve(board, low, high);
            if self.solver.stopped.is_some() {
                self.stopped = self.solver.stopped;
                return 0;
            }
            return exact_to_mid(discs);
        }
        if depth == 1 {
            return self.last_ply(board, kept, moves, alpha, beta);
        }

        let mut table_move = None;
        if let Some(entry) = self.probe(board) {
            table_move = Some(u32::from(entry.best));
            if u32::from(entry.depth) >= depth && entry.bound.cuts(entry.score, alpha, beta) {
                return entry.score;
            }
        }
        if let Some(score) = self.probcut(board, kept, depth, alpha, beta) {
            return score;
        }

        // Depth 2 or more here (the leaf parents have their own loop): the
        // table's move first, then the others by their children's scores.
        let mut list = [(0i32, 0u32, 0u64); 32];
        let mut count = 0;
        for sq in Bits(moves) {
            let flipped = flips(board.me, board.opp, sq);
            let key = if Some(sq) == table_move {
                i32::MIN
            } else {
                let child = board.play_flips(sq, flipped);
                self.leaf
                    .score_after(kept, sq, flipped, child, child.moves())
            };
            list[count] = (key, sq, flipped);
            count += 1;
        }
        let list = &mut list[..count];
        list.sort_unstable_by_key(|&(key, _, _)| key);

        let alpha_start = alpha;
        let mut best = -INFINITY;
        let mut best_sq = list[0].1;
        for (n, &(_, sq, flipped)) in list.iter().enumerate() {
            let child = Child {
                board: board.play_flips(sq, flipped),
                sq,
                flipped,
            };
            let score = if n == 0 {
                -self.child(kept, child, depth - 1, -beta, -alpha)
            } else {
                let probe = -self.child(kept, child, depth - 1, -alpha - 1, -alpha);
                if probe > alpha && probe < beta {
                    -self.child(kept, child, depth - 1, -beta, -alpha)
                } else {
                    probe
                }
            };
            if self.stopped.is_some() {
                return 0;
            }
            if score > best {
                best = score;
                best_sq = sq;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.store_search(board, depth, best, best_sq, (alpha_start, beta));
        best
    }
}
