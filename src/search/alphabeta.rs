//! Negamax with alpha-beta pruning, principal-variation search, iterative
//! deepening under a [`Budget`], a transposition table, killer moves, a
//! history table and an optional quiescence search, for any game that
//! implements [`Evaluate`]. Late-move reductions, null-move pruning, threat
//! extensions and futility pruning are opt-in through [`SearchOptions`]:
//! they trade the exactness of plain alpha-beta for depth, which pays in
//! large games.

use super::negamax::Searcher;
use super::score::{describe_decisive, is_decisive, settled, MAX_PLY, WIN};
use super::tt::Table;
use super::{Evaluate, HISTORY_SLOTS};
use crate::game::{Analysis, Budget, Progress, Scope, ScoredMove, SearchReport, StopReason};

pub(super) const INFINITY: i32 = WIN + 1;
pub(super) const QUIESCENCE_PLIES: usize = 8;
pub(super) const CHECK_EVERY: u64 = 1024;

/// Tuning of one search.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// The deepest iteration (also capped by the budget's `max_depth`).
    pub max_depth: u32,
    /// log2 of the transposition table's entry count.
    pub tt_log2: u32,
    /// Late-move reductions: a quiet move late in the order, at depth 3 or
    /// more, is first searched shallower (more so the later and deeper it
    /// is) and only searched fully if it then beats alpha.
    pub late_move_reductions: bool,
    /// Null-move pruning, where [`Evaluate::null_move`] offers a pass: if
    /// the side to move stays at or above beta even after passing, searched
    /// shallower, the node is cut off.
    pub null_move: bool,
    /// A move that puts the opponent in danger ([`Evaluate::in_danger`]) is
    /// searched a ply deeper.
    pub threat_extension: bool,
    /// Futility pruning: one or two plies from the horizon, a quiet move is
    /// skipped when the static evaluation plus this margin per remaining ply
    /// still cannot reach alpha (in evaluation units).
    pub futility_margin: Option<i32>,
}

impl Default for SearchOptions {
    /// Plain alpha-beta: exact to its depth, with every pruning that could
    /// change the result turned off.
    fn default() -> Self {
        SearchOptions {
            max_depth: 64,
            tt_log2: 18,
            late_move_reductions: false,
            null_move: false,
            threat_extension: false,
            futility_margin: None,
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
    let (depth, nodes, stopped_by) = iterate::<G>(
        state,
        budget,
        options,
        &Scope::top(1),
        &mut roots,
        &mut Vec::new(),
    );
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

/// The root moves of a search ranked by its last completed iteration,
/// with what the iteration before found, for reports that average the two.
#[derive(Clone, Debug)]
pub struct Ranking<M> {
    /// The `top` best root moves, best first, each with a full-window score.
    pub roots: Vec<RootScore<M>>,
    /// The full-window moves of the completed iteration one ply shallower
    /// (empty when there was none).
    pub shallower: Vec<RootScore<M>>,
    /// The deepest iteration completed.
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// Why the search stopped.
    pub stopped_by: StopReason,
}

/// Scores the moves of `scope` exactly (each with a full window): its
/// `top` best, best first, then its included move where that is not among
/// them, under `budget`, with the shallower iteration's scores beside them.
pub fn rank<G: Evaluate>(
    state: &G::State,
    scope: &Scope<G::Move>,
    budget: &Budget,
    options: &SearchOptions,
) -> Ranking<G::Move> {
    let mut roots = Vec::new();
    let mut shallower = Vec::new();
    let (depth, nodes, stopped_by) =
        iterate::<G>(state, budget, options, scope, &mut roots, &mut shallower);
    Ranking {
        roots: in_scope(&roots, scope),
        shallower,
        depth,
        nodes,
        stopped_by,
    }
}

/// The root moves `scope` asks for, in rank order: the first `top`, then
/// the included move wherever it ranked.
fn in_scope<M: PartialEq + Clone>(roots: &[RootScore<M>], scope: &Scope<M>) -> Vec<RootScore<M>> {
    roots
        .iter()
        .enumerate()
        .filter(|(rank, r)| scope.keeps(*rank, &r.mv))
        .map(|(_, r)| r.clone())
        .collect()
}

/// The moves of `scope` as an analysis answers them: its `top` best first,
/// then its included move, each score the settled value of its last two
/// depths ([`settled`]), exact where proven or decided, and the report of
/// what the search did.
pub fn analyze<G: Evaluate>(
    state: &G::State,
    scope: &Scope<G::Move>,
    budget: &Budget,
    options: &SearchOptions,
) -> Analysis<G::Move> {
    let ranking = rank::<G>(state, scope, budget, options);
    let mut analysis = analysis_of(
        &ranking.roots,
        &ranking.shallower,
        ranking.depth,
        ranking.nodes,
    );
    analysis.report.stopped_by = Some(ranking.stopped_by);
    analysis
}

/// The analysis of ranked root moves: settled scores, exact words where
/// proven or decided, and the report (without its stop reason).
fn analysis_of<M: Clone + PartialEq>(
    roots: &[RootScore<M>],
    shallower: &[RootScore<M>],
    depth: u32,
    nodes: u64,
) -> Analysis<M> {
    let shallower_of = |rank: usize, mv: &M| {
        let found = if rank == 0 {
            shallower.first()
        } else {
            shallower.iter().find(|r| &r.mv == mv)
        };
        found.map(|r| r.score)
    };
    let moves: Vec<ScoredMove<M>> = roots
        .iter()
        .enumerate()
        .map(|(rank, r)| ScoredMove {
            exact: if r.proven || is_decisive(r.score) {
                describe_decisive(r.score)
            } else {
                None
            },
            score: settled(r.score, shallower_of(rank, &r.mv)).into(),
            mv: r.mv.clone(),
            pv: r.pv.clone(),
        })
        .collect();
    let report = SearchReport {
        depth: Some(depth),
        nodes: Some(nodes),
        score: moves.first().map(|m| m.score),
        proven: roots.first().map(|r| r.proven),
        ..SearchReport::plain()
    };
    Analysis { moves, report }
}

/// Iterative deepening. With `scope.top` = k > 1, the first k moves of each
/// iteration get exact scores (a full window each); otherwise only the
/// best; the scope's included move gets one too, wherever it ranks.
fn iterate<G: Evaluate>(
    state: &G::State,
    budget: &Budget,
    options: &SearchOptions,
    scope: &Scope<G::Move>,
    roots_out: &mut Vec<RootScore<G::Move>>,
    shallower_out: &mut Vec<RootScore<G::Move>>,
) -> (u32, u64, StopReason) {
    // Under a clock the time manager stops between iterations; the
    // deadline is only the most an unsettled move may take.
    let stretched = budget.stretched();
    let budget = &stretched;
    let mut searcher = Searcher::<G> {
        budget,
        options,
        history: vec![0; HISTORY_SLOTS],
        null_played: [false; MAX_PLY + 1],
        table: Table::new(options.tt_log2),
        killers: vec![[None, None]; MAX_PLY + 1],
        nodes: 0,
        stopped: None,
        first_iteration: true,
        overdue: false,
        horizon: false,
        move_lists: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
    };
    let mut moves = Vec::new();
    G::legal_moves(state, &mut moves);
    assert!(!moves.is_empty(), "search called on a finished game");
    let exact_top = scope.top.max(1);
    let included = moves.iter().position(|mv| scope.includes(mv));
    let mut order: Vec<usize> = (0..moves.len()).collect();
    order.sort_by_key(|&i| -G::order_hint(state, &moves[i]));

    let max_depth = budget
        .max_depth
        .map_or(options.max_depth, |d| d.min(options.max_depth))
        .clamp(1, MAX_PLY as u32 - QUIESCENCE_PLIES as u32 - 1);
    let mut completed: Vec<RootScore<G::Move>> = Vec::new();
    let mut depth_done = 0;
    let mut stopped_by = StopReason::Depth;
    // Completed iterations in a row whose best move was the same.
    let mut stable = 0;
    let mut iteration_times = [std::time::Duration::ZERO; 2];
    for depth in 1..=max_depth {
        searcher.horizon = false;
        searcher.first_iteration = depth == 1;
        searcher.age_history();
        let iteration_started = std::time::Instant::now();
        let scored = searcher.root(state, &moves, &order, depth, exact_top, included);
        iteration_times = [iteration_started.elapsed(), iteration_times[0]];
        let aborted = searcher.stopped.is_some();
        // A cut-short first iteration still beats having no move at all.
        let partial_first = completed.is_empty() && !scored.is_empty();
        if aborted && !partial_first {
            stopped_by = searcher.stopped.unwrap_or(StopReason::Time);
            break;
        }
        // Next iteration searches this one's best moves first.
        order = scored.iter().map(|(i, _, _)| *i).collect();
        *shallower_out = in_scope(&completed, scope);
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
        budget.observe(|| {
            analysis_of(
                &in_scope(&completed, scope),
                shallower_out,
                depth_done,
                searcher.nodes,
            )
        });
        let same_best = completed.first().map(|r| &r.mv) == shallower_out.first().map(|r| &r.mv);
        stable = if same_best { stable + 1 } else { 1 };
        let falling = match (completed.first(), shallower_out.first()) {
            (Some(now), Some(before)) => now.score < before.score - G::SIGNIFICANT_DROP,
            _ => false,
        };
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
        let progress = Progress {
            iterations: depth,
            stable,
            falling,
            iteration_times,
        };
        if budget.enough(progress) {
            stopped_by = StopReason::Time;
            break;
        }
        // Between iterations the clock is read every time (inside one, only
        // every CHECK_EVERY nodes), so a finished first iteration past the
        // deadline is where the search ends.
        if let Some(reason) = budget.interrupted() {
            stopped_by = reason;
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
