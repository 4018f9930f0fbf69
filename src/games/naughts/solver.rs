//! The `perfect` level's engine: negamax with alpha-beta and principal-variation
//! search, iterative deepening, and a transposition table keyed by a canonical
//! form under the board's 8 symmetries. Scores prefer fast wins and slow losses.
//!
//! Every game ends within the number of markers still in hand, so an iteration
//! that deep reaches no horizon and its values are exact. Shallower iterations
//! use a static evaluation at the horizon; a decided score found by them is
//! already exact (a faster win would have been seen inside the horizon).

use super::state::{largest, sizes_above, Cell, Move, State, MAX_CELLS};
use crate::game::{Budget, Player, StopReason};

/// The score of a win on the mover's very next move; a win `k` plies away scores `WIN - k`.
pub const WIN: i32 = 10_000;
/// Scores at or beyond this magnitude are decided games.
const DECIDED: i32 = WIN - 1_000;
const INFINITY: i32 = WIN + 1;
const CHECK_EVERY: u64 = 1024;
const MAX_PLY: usize = 8 * 8 * 9 * 2 + 2;

/// Whether `score` says the game is decided.
pub fn is_decided(score: i32) -> bool {
    score.abs() >= DECIDED
}

/// A proven score in words: `win in 5`, `draw`, `loss in 4` (plies of both sides, this move included).
pub fn describe(score: i32) -> String {
    match score {
        s if s >= DECIDED => format!("win in {}", WIN - s),
        s if s <= -DECIDED => format!("loss in {}", WIN + s),
        _ => "draw".to_string(),
    }
}

/// How a stored score bounds the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact = 0,
    Lower = 1,
    Upper = 2,
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

impl Entry {
    fn pack(self) -> u64 {
        (self.score as i16 as u16 as u64)
            | (self.bound as u64) << 16
            | (self.proven as u64) << 18
            | (self.draft as u64) << 24
            | (self.best.0 as u64) << 32
            | (self.best.1 as u64) << 40
    }

    fn unpack(data: u64) -> Entry {
        Entry {
            score: data as u16 as i16 as i32,
            bound: match (data >> 16) & 3 {
                0 => Bound::Exact,
                1 => Bound::Lower,
                _ => Bound::Upper,
            },
            proven: (data >> 18) & 1 == 1,
            draft: (data >> 24) as u8,
            best: ((data >> 32) as u8, (data >> 40) as u8),
        }
    }

    /// Replacement priority: proven results of big subtrees first.
    fn worth(self) -> u32 {
        self.draft as u32 + if self.proven { 256 } else { 0 }
    }
}

/// A transposition table of two-entry buckets: one kept by worth, one always replaced.
struct Table {
    slots: Vec<[u64; 2]>,
    mask: usize,
}

impl Table {
    fn new(log2: u32) -> Table {
        let size = 1usize << log2;
        Table {
            slots: vec![[0, 0]; size],
            mask: size - 2,
        }
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        let at = (mix(key) as usize) & self.mask;
        (at..at + 2)
            .find(|&i| self.slots[i][0] == key && self.slots[i][1] != 0)
            .map(|i| Entry::unpack(self.slots[i][1]))
    }

    fn store(&mut self, key: u64, entry: Entry) {
        let at = (mix(key) as usize) & self.mask;
        let keeper = self.slots[at];
        let slot = if keeper[0] == key
            || keeper[1] == 0
            || entry.worth() >= Entry::unpack(keeper[1]).worth()
        {
            at
        } else {
            at + 1
        };
        self.slots[slot] = [key, entry.pack() | 1 << 63];
    }
}

/// A 64-bit finalizer (splitmix64), to spread keys over the table and to make Zobrist numbers.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A position in the search with its key under each of the 8 symmetries, kept up to date.
#[derive(Clone, Copy)]
struct Node {
    state: State,
    keys: [u64; 8],
}

/// What a move led to, from the search's point of view.
enum Next {
    /// The opponent is to move.
    Opponent,
    /// The opponent cannot move, so the mover goes again.
    Again,
    /// Nobody can move: a draw.
    Stalemate,
}

/// A symmetry of the square: (row, col, n) to (row, col).
type Transform = fn(usize, usize, usize) -> (usize, usize);

/// The tables that depend only on the grid size: symmetries, lines, key numbers.
struct Geometry {
    n: usize,
    /// `images[k][cell]`: where symmetry `k` sends `cell`.
    images: [[u8; MAX_CELLS]; 8],
    /// `preimages[k][cell]`: the cell symmetry `k` sends to `cell`.
    preimages: [[u8; MAX_CELLS]; 8],
    /// Every line as cell indices.
    lines: Vec<Vec<u8>>,
    /// Exact packed keys (5 bits a cell) when the board has at most 9 cells, else Zobrist.
    packed: bool,
    zobrist: Vec<[u64; 19]>,
}

impl Geometry {
    fn new(n: usize) -> Geometry {
        let transforms: [Transform; 8] = [
            |r, c, _| (r, c),
            |r, c, n| (c, n - 1 - r),
            |r, c, n| (n - 1 - r, n - 1 - c),
            |r, c, n| (n - 1 - c, r),
            |r, c, _| (c, r),
            |r, c, n| (n - 1 - c, n - 1 - r),
            |r, c, n| (r, n - 1 - c),
            |r, c, n| (n - 1 - r, c),
        ];
        let mut images = [[0u8; MAX_CELLS]; 8];
        let mut preimages = [[0u8; MAX_CELLS]; 8];
        for (k, transform) in transforms.iter().enumerate() {
            for (cell, image) in images[k].iter_mut().enumerate().take(n * n) {
                let (r, c) = transform(cell / n, cell % n, n);
                *image = (r * n + c) as u8;
                preimages[k][r * n + c] = cell as u8;
            }
        }
        let state = State::new(n as u8, 5);
        let lines: Vec<Vec<u8>> = state
            .lines()
            .map(|(start, step)| (0..n).map(|i| (start + i * step) as u8).collect())
            .collect();
        let zobrist = (0..n * n)
            .map(|cell| {
                let mut codes = [0u64; 19];
                for (code, z) in codes.iter_mut().enumerate().skip(1) {
                    *z = mix((cell * 19 + code) as u64 ^ 0x5eed);
                }
                codes
            })
            .collect();
        Geometry {
            n,
            images,
            preimages,
            lines,
            packed: n * n <= 9,
            zobrist,
        }
    }

    /// The key contribution of a cell code at (symmetric) position `at`.
    fn contribution(&self, at: u8, code: u8) -> u64 {
        if self.packed {
            (code as u64) << (5 * at as u64)
        } else {
            self.zobrist[at as usize][code as usize]
        }
    }

    fn node(&self, state: &State) -> Node {
        let mut keys = [0u64; 8];
        for (k, key) in keys.iter_mut().enumerate() {
            for cell in 0..self.n * self.n {
                *key ^= self.contribution(self.images[k][cell], state.cells[cell].code());
            }
        }
        Node {
            state: *state,
            keys,
        }
    }

    /// The canonical key of a node and the symmetry that gives it.
    fn canonical(&self, node: &Node) -> (u64, usize) {
        let (k, &board) = node
            .keys
            .iter()
            .enumerate()
            .min_by_key(|(_, &key)| key)
            .expect("eight keys");
        let hands = (node.state.hands[0] >> 1) as u64 | ((node.state.hands[1] >> 1) as u64) << 9;
        let key = if self.packed {
            board | hands << 45
        } else {
            board ^ mix(hands)
        };
        (key, k)
    }
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
    geometry: Geometry,
    table: Table,
    nodes: u64,
    stopped: Option<StopReason>,
    /// Set when a value in the current subtree leaned on the horizon.
    horizon: bool,
    move_lists: Vec<Vec<Move>>,
    history: Vec<[u32; 10]>,
}

impl<'a> Solver<'a> {
    /// A solver for boards of `grid` cells a side, with a table of `2^tt_log2` entries.
    pub fn new(grid: usize, budget: &'a Budget, tt_log2: u32) -> Solver<'a> {
        Solver {
            budget,
            geometry: Geometry::new(grid),
            table: Table::new(tt_log2.max(4)),
            nodes: 0,
            stopped: None,
            horizon: false,
            move_lists: vec![Vec::new(); MAX_PLY + 1],
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

    /// Plays `mv` on a copy of `node`, keeping the keys, and says who moves next.
    fn play(&self, node: &Node, mv: Move) -> (Node, Next) {
        let g = &self.geometry;
        let mut child = *node;
        let mover = node.state.to_move;
        let at = mv.row as usize * g.n + mv.col as usize;
        let old = node.state.cells[at].code();
        let new = Cell::marker(mover, mv.size);
        for k in 0..8 {
            let image = g.images[k][at];
            child.keys[k] ^= g.contribution(image, old) ^ g.contribution(image, new.code());
        }
        child.state.cells[at] = new;
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
    fn winning_move(&self, state: &State) -> Option<Move> {
        let g = &self.geometry;
        let me = state.to_move;
        let biggest = largest(state.hands[me.index()]);
        for line in &g.lines {
            let mut gap = None;
            let mut missing = 0;
            for &cell in line {
                if state.cells[cell as usize].owner() != Some(me) {
                    missing += 1;
                    if missing > 1 {
                        break;
                    }
                    gap = Some(cell);
                }
            }
            if missing != 1 {
                continue;
            }
            let Some(cell) = gap else { continue };
            let top = state.cells[cell as usize].size();
            if biggest > top {
                let size = sizes_above(state.hands[me.index()], top).trailing_zeros() as u8;
                return Some(Move {
                    row: cell / g.n as u8,
                    col: cell % g.n as u8,
                    size,
                });
            }
        }
        None
    }

    /// Whether `player` could still fill `line`: every cell it does not own
    /// needs a distinct marker from its hand bigger than the cell's top.
    fn line_open(state: &State, line: &[u8], player: Player) -> bool {
        let mut hand = state.hands[player.index()];
        let mut tops = [0u8; 8];
        let mut count = 0;
        for &cell in line {
            let top = state.cells[cell as usize];
            if top.owner() != Some(player) {
                tops[count] = top.size();
                count += 1;
            }
        }
        if count > hand.count_ones() as usize {
            return false;
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
    fn can_still_win(&self, state: &State, player: Player) -> bool {
        self.geometry
            .lines
            .iter()
            .any(|line| Self::line_open(state, line, player))
    }

    /// Every legal move of the side to move (the game is known not to be won).
    fn generate(state: &State, n: usize, out: &mut Vec<Move>) {
        let hand = state.hands[state.to_move.index()];
        for (i, cell) in state.cells[..n * n].iter().enumerate() {
            let mut sizes = sizes_above(hand, cell.size());
            while sizes != 0 {
                let size = sizes.trailing_zeros() as u8;
                sizes &= sizes - 1;
                out.push(Move {
                    row: (i / n) as u8,
                    col: (i % n) as u8,
                    size,
                });
            }
        }
    }

    /// A static score for the side to move, far inside the decided range:
    /// lines still open to one side only, weighted by how full they are.
    fn evaluate(&self, state: &State) -> i32 {
        let me = state.to_move;
        let mut score = 0;
        for line in &self.geometry.lines {
            let (mut mine, mut theirs) = (0u32, 0u32);
            for &cell in line {
                match state.cells[cell as usize].owner() {
                    Some(p) if p == me => mine += 1,
                    Some(_) => theirs += 1,
                    None => {}
                }
            }
            match (mine, theirs) {
                (m, 0) if m > 0 => score += 1 << (2 * m).min(20),
                (0, t) if t > 0 => score -= 1 << (2 * t).min(20),
                _ => {}
            }
        }
        let hand_weight = |p: Player| state.hands[p.index()].count_ones() as i32;
        (score + 4 * (hand_weight(me) - hand_weight(me.other()))).clamp(-DECIDED / 2, DECIDED / 2)
    }

    fn map_canonical(&self, mv: Move, symmetry: usize) -> (u8, u8) {
        let cell = mv.row as usize * self.geometry.n + mv.col as usize;
        (self.geometry.images[symmetry][cell], mv.size)
    }

    fn unmap_canonical(&self, best: (u8, u8), symmetry: usize) -> Option<Move> {
        let n = self.geometry.n;
        (best.1 != 0 && (best.0 as usize) < n * n).then(|| {
            let cell = self.geometry.preimages[symmetry][best.0 as usize];
            Move {
                row: cell / n as u8,
                col: cell % n as u8,
                size: best.1,
            }
        })
    }

    /// Orders `moves` best first: the table's move, then by history.
    fn order(&self, moves: &mut [Move], tt_move: Option<Move>) {
        let n = self.geometry.n;
        moves.sort_unstable_by_key(|mv| {
            if Some(*mv) == tt_move {
                return std::cmp::Reverse(u32::MAX);
            }
            std::cmp::Reverse(self.history[mv.row as usize * n + mv.col as usize][mv.size as usize])
        });
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
        if self.winning_move(state).is_some() {
            return WIN - (ply as i32 + 1);
        }
        // A side that can complete no line any more can only draw or lose.
        let me = state.to_move;
        match (
            self.can_still_win(state, me),
            self.can_still_win(state, me.other()),
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
            return self.evaluate(state);
        }
        let (key, symmetry) = self.geometry.canonical(node);
        let mut tt_move = None;
        if let Some(entry) = self.table.probe(key) {
            tt_move = self.unmap_canonical(entry.best, symmetry);
            if entry.proven || entry.draft as u32 >= depth {
                let score = from_table(entry.score, ply);
                let usable = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if usable {
                    self.horizon |= !entry.proven;
                    return score;
                }
            }
        }
        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        moves.clear();
        Self::generate(state, self.geometry.n, &mut moves);
        self.order(&mut moves, tt_move);

        let alpha_start = alpha;
        let horizon_before = std::mem::replace(&mut self.horizon, false);
        let mut best_score = -INFINITY;
        let mut best_move = moves[0];
        for (i, &mv) in moves.iter().enumerate() {
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
        let proven = !self.horizon;
        self.horizon |= horizon_before;
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > alpha_start {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let entry = Entry {
            score: to_table(best_score, ply),
            bound,
            proven,
            draft: depth.min(255) as u8,
            best: self.map_canonical(best_move, symmetry),
        };
        self.table.store(key, entry);
        best_score
    }

    /// The expected line from `state`, read from the table.
    fn line_from(&self, state: &State, limit: usize) -> Vec<Move> {
        let mut line = Vec::new();
        let mut node = self.geometry.node(state);
        let mut legal = Vec::new();
        while line.len() < limit && node.state.winner().is_none() {
            let mv = match self.winning_move(&node.state) {
                Some(mv) => mv,
                None => {
                    let (key, symmetry) = self.geometry.canonical(&node);
                    let Some(mv) = self
                        .table
                        .probe(key)
                        .and_then(|e| self.unmap_canonical(e.best, symmetry))
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
        if let Some(mv) = self.winning_move(state).filter(|_| !all_exact) {
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
        for depth in 1..=max_depth {
            let (results, clean) = self.root(&root, &moves, &completed, depth, all_exact);
            if let Some(reason) = self.stopped {
                stopped_by = reason;
                // A partial iteration counts only if it found a move better than the last best.
                let improved = results.first().filter(|r| r.mv != moves[0]);
                if completed.is_empty() || improved.is_some() {
                    let mut partial = results;
                    partial.iter_mut().for_each(|r| r.proven = false);
                    completed.retain(|c| partial.iter().all(|r| r.mv != c.mv));
                    partial.append(&mut completed);
                    completed = partial;
                }
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
            None => self.child_value(&child, &next, depth - 1, 1, -INFINITY, INFINITY),
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
            let (child_key, _) = self.geometry.canonical(&child);
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

/// Decided scores count plies from the root; the table counts them from the position itself.
fn to_table(score: i32, ply: usize) -> i32 {
    match score {
        s if s >= DECIDED => s + ply as i32,
        s if s <= -DECIDED => s - ply as i32,
        s => s,
    }
}

/// The inverse of [`to_table`] at this ply.
fn from_table(score: i32, ply: usize) -> i32 {
    match score {
        s if s >= DECIDED => s - ply as i32,
        s if s <= -DECIDED => s + ply as i32,
        s => s,
    }
}
