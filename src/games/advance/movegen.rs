//! Moves, their generation, danger to the General and legality.
//!
//! Generation is in two steps: every pseudo-legal move of the side to move
//! (the piece rules alone), then a legality filter that plays each move on
//! the board in place, asks whether the mover's General is in danger, and
//! takes it back. Nothing is allocated per move.

use super::board::{
    bit, flip, kind, owner, step, value, Color, BUILDER, CATAPULT, DIAG, DRAGON, EMPTY, GENERAL,
    JESTER, KING, KNIGHT, MINER, NOBODY, ORTHO, SENTINEL, SHOTS, SQUARES, WALL, ZOMBIE,
};
use super::state::State;

/// What a move does (in JSON, its lower-case name: `move`, `capture`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
#[schemars(rename = "AdvanceMoveKind")]
pub enum Kind {
    /// A step or slide to an empty square.
    Move,
    /// A capture by moving onto the captured piece (or wall, for a Miner).
    Capture,
    /// A Zombie's jump over an empty square onto an enemy piece two squares away.
    Leap,
    /// A Builder puts a wall on an adjacent empty square.
    Build,
    /// A Jester changes places with an adjacent friendly piece.
    Swap,
    /// A Jester turns an adjacent enemy piece into a friendly one.
    Convert,
    /// A Catapult removes an enemy piece from a distance without moving.
    Shoot,
}

impl Kind {
    /// Every kind, in the order of their JSON names.
    pub const ALL: [Kind; 7] = [
        Kind::Move,
        Kind::Capture,
        Kind::Leap,
        Kind::Build,
        Kind::Swap,
        Kind::Convert,
        Kind::Shoot,
    ];

    /// The JSON name.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Move => "move",
            Kind::Capture => "capture",
            Kind::Leap => "leap",
            Kind::Build => "build",
            Kind::Swap => "swap",
            Kind::Convert => "convert",
            Kind::Shoot => "shoot",
        }
    }

    /// Reads a JSON name.
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Whether the move removes an enemy piece (or a wall).
    pub fn is_capture(self) -> bool {
        matches!(self, Kind::Capture | Kind::Leap | Kind::Shoot)
    }
}

/// A move: its kind, the square of the piece that acts and the square it
/// acts on (padded indices). For a build the wall square, for a swap the
/// partner, for a conversion or a shot the target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// What the move does.
    pub kind: Kind,
    pub(crate) from: u8,
    pub(crate) to: u8,
}

impl Move {
    #[inline]
    fn new(kind: Kind, from: usize, to: usize) -> Move {
        Move {
            kind,
            from: from as u8,
            to: to as u8,
        }
    }

    /// The board `[row, col]` of the acting piece.
    pub fn from_row_col(&self) -> [usize; 2] {
        let sq = self.from as usize;
        [super::board::row_of(sq), super::board::col_of(sq)]
    }

    /// The board `[row, col]` the move acts on.
    pub fn to_row_col(&self) -> [usize; 2] {
        let sq = self.to as usize;
        [super::board::row_of(sq), super::board::col_of(sq)]
    }
}

/// A cheap screen in front of the legality test, exact for a General out
/// of danger. A move by another piece can only put it in danger by taking
/// away its guard or by opening a way to it:
///
/// - Guarded by a Sentinel beside it, the General stays guarded, so out of
///   danger, unless such a Sentinel leaves (or swaps with a Jester).
/// - Unguarded, a way opens only when a square that sees the General (the
///   first piece along a rank, file or diagonal from it) is emptied: that
///   covers a slider's line and a Zombie's leap square (Sentinels and
///   Catapults jump, so nothing in between matters to them). Filling a
///   square, taking a piece by standing on its square, building and
///   converting only block or remove the enemy's reach.
///
/// So with the General out of danger, only moves of the General, moves
/// that empty a watched square and Jester swaps with the General or a
/// Sentinel go through the full test.
pub(crate) struct SafetyScreen {
    general: usize,
    in_danger: bool,
    /// The squares whose emptying can endanger the General.
    watched: u128,
}

impl SafetyScreen {
    /// The screen for the side to move in `state`.
    pub(crate) fn new(state: &State) -> SafetyScreen {
        let side = state.to_move;
        let general = state.generals[side.index()] as usize;
        if general == 0 {
            return SafetyScreen {
                general,
                in_danger: false,
                watched: 0,
            };
        }
        let sentinel = side.piece(SENTINEL);
        let guards = ORTHO
            .iter()
            .map(|&d| step(general, d))
            .filter(|&sq| state.cells[sq] == sentinel)
            .fold(0, |set, sq| set | bit(sq));
        let in_danger = guards == 0 && state.attacked_by(general, side.other());
        // In danger, every move is tested in full and nothing is watched.
        let watched = if guards != 0 || in_danger {
            guards
        } else {
            KING.iter()
                .fold(0, |set, &d| set | bit(first_piece(state, general, d)))
        };
        SafetyScreen {
            general,
            in_danger,
            watched,
        }
    }

    /// Whether `mv` must go through the full legality test.
    #[inline]
    pub(crate) fn needs_check(&self, state: &State, mv: Move) -> bool {
        if self.general == 0 {
            return false;
        }
        if self.in_danger {
            return true;
        }
        let (from, to) = (mv.from as usize, mv.to as usize);
        match mv.kind {
            Kind::Build | Kind::Convert => false,
            Kind::Swap => matches!(kind(state.cells[to]), GENERAL | SENTINEL),
            Kind::Shoot => self.watched & bit(to) != 0,
            Kind::Move | Kind::Capture | Kind::Leap => {
                from == self.general || self.watched & bit(from) != 0
            }
        }
    }
}

/// The first square along direction `d` from `sq` that is not empty (a
/// piece, a wall or the border).
#[inline]
fn first_piece(state: &State, sq: usize, d: isize) -> usize {
    let mut at = step(sq, d);
    while state.cells[at] == EMPTY {
        at = step(at, d);
    }
    at
}

/// What [`State::make`] needs to take a move back.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Undo {
    target: u8,
    generals: [u8; 2],
}

impl State {
    /// Whether the piece on `sq` is guarded by an orthogonally adjacent
    /// Sentinel of its own colour `side`.
    #[inline]
    pub(crate) fn protected(&self, sq: usize, side: u8) -> bool {
        let sentinel = SENTINEL + side * 8;
        ORTHO.iter().any(|&d| self.cells[step(sq, d)] == sentinel)
    }

    /// Whether `side` may capture what stands on `sq`: an enemy piece other
    /// than the General, not protected by a Sentinel.
    #[inline]
    pub(crate) fn capturable(&self, sq: usize, side: Color) -> bool {
        let cell = self.cells[sq];
        let enemy = side.other() as u8;
        owner(cell) == enemy && kind(cell) != GENERAL && !self.protected(sq, enemy)
    }

    /// Appends every pseudo-legal move of `side` (piece rules only).
    pub(crate) fn pseudo_moves(&self, side: Color, out: &mut Vec<Move>) {
        for &sq in SQUARES.iter() {
            let sq = sq as usize;
            let cell = self.cells[sq];
            if owner(cell) == side as u8 {
                self.piece_moves(sq, kind(cell), side, out);
            }
        }
    }

    /// Appends the pseudo-legal moves of the piece of `kind` on `from`.
    #[inline]
    pub(crate) fn piece_moves(&self, from: usize, piece: u8, side: Color, out: &mut Vec<Move>) {
        match piece {
            ZOMBIE => self.zombie_moves(from, side, out),
            BUILDER => self.builder_moves(from, side, out),
            JESTER => self.jester_moves(from, side, out),
            MINER => self.slider_moves(from, side, &ORTHO, 1, true, out),
            SENTINEL => self.jumper_moves(from, side, &KNIGHT, out),
            CATAPULT => self.catapult_moves(from, side, out),
            DRAGON => {
                self.slider_moves(from, side, &ORTHO, 2, false, out);
                self.slider_moves(from, side, &DIAG, 2, false, out);
            }
            _ => self.jumper_moves(from, side, &KING, out),
        }
    }

    fn zombie_moves(&self, from: usize, side: Color, out: &mut Vec<Move>) {
        let forward = side.forward();
        for d in [forward - 1, forward, forward + 1] {
            let to = step(from, d);
            let cell = self.cells[to];
            if cell == EMPTY {
                out.push(Move::new(Kind::Move, from, to));
                let beyond = step(to, d);
                if self.capturable(beyond, side) {
                    out.push(Move::new(Kind::Leap, from, beyond));
                }
            } else if self.capturable(to, side) {
                out.push(Move::new(Kind::Capture, from, to));
            }
        }
    }

    fn builder_moves(&self, from: usize, side: Color, out: &mut Vec<Move>) {
        for d in KING {
            let to = step(from, d);
            if self.cells[to] == EMPTY {
                out.push(Move::new(Kind::Move, from, to));
                out.push(Move::new(Kind::Build, from, to));
            } else if self.capturable(to, side) {
                out.push(Move::new(Kind::Capture, from, to));
            }
        }
    }

    fn jester_moves(&self, from: usize, side: Color, out: &mut Vec<Move>) {
        for d in KING {
            let to = step(from, d);
            let cell = self.cells[to];
            if cell == EMPTY {
                out.push(Move::new(Kind::Move, from, to));
            } else if owner(cell) == side as u8 {
                if kind(cell) != JESTER {
                    out.push(Move::new(Kind::Swap, from, to));
                }
            } else if owner(cell) != NOBODY && kind(cell) != GENERAL {
                out.push(Move::new(Kind::Convert, from, to));
            }
        }
    }

    /// Steps to empty squares or captures on the given offsets (General, Sentinel).
    fn jumper_moves(&self, from: usize, side: Color, offsets: &[isize], out: &mut Vec<Move>) {
        for &d in offsets {
            let to = step(from, d);
            if self.cells[to] == EMPTY {
                out.push(Move::new(Kind::Move, from, to));
            } else if self.capturable(to, side) {
                out.push(Move::new(Kind::Capture, from, to));
            }
        }
    }

    /// Slides along rays; captures the first piece met if at least
    /// `min_capture` squares away (and a wall too when `takes_walls`).
    fn slider_moves(
        &self,
        from: usize,
        side: Color,
        rays: &[isize],
        min_capture: usize,
        takes_walls: bool,
        out: &mut Vec<Move>,
    ) {
        for &d in rays {
            let mut to = step(from, d);
            let mut distance = 1;
            while self.cells[to] == EMPTY {
                out.push(Move::new(Kind::Move, from, to));
                to = step(to, d);
                distance += 1;
            }
            if distance >= min_capture
                && (self.capturable(to, side) || (takes_walls && self.cells[to] == WALL))
            {
                out.push(Move::new(Kind::Capture, from, to));
            }
        }
    }

    fn catapult_moves(&self, from: usize, side: Color, out: &mut Vec<Move>) {
        for d in ORTHO {
            let to = step(from, d);
            if self.cells[to] == EMPTY {
                out.push(Move::new(Kind::Move, from, to));
            }
        }
        for d in SHOTS {
            let to = step(from, d);
            if self.capturable(to, side) {
                out.push(Move::new(Kind::Shoot, from, to));
            }
        }
    }

    /// Whether some piece of `side` could capture on `sq` by the piece rules
    /// (the target's own protection is the caller's business).
    pub(crate) fn attacked_by(&self, sq: usize, side: Color) -> bool {
        let cells = &self.cells;
        let builder = side.piece(BUILDER);
        let general = side.piece(GENERAL);
        let zombie = side.piece(ZOMBIE);
        for d in KING {
            let c = cells[step(sq, d)];
            if c == builder || c == general {
                return true;
            }
        }
        let forward = side.forward();
        for d in [forward - 1, forward, forward + 1] {
            if cells[step(sq, -d)] == zombie {
                return true;
            }
            if cells[step(sq, -d)] == EMPTY && cells[step(sq, -2 * d)] == zombie {
                return true;
            }
        }
        let sentinel = side.piece(SENTINEL);
        if KNIGHT.iter().any(|&d| cells[step(sq, d)] == sentinel) {
            return true;
        }
        let catapult = side.piece(CATAPULT);
        if SHOTS.iter().any(|&d| cells[step(sq, d)] == catapult) {
            return true;
        }
        let dragon = side.piece(DRAGON);
        let miner = side.piece(MINER);
        self.ray_attack(sq, &ORTHO, dragon, miner) || self.ray_attack(sq, &DIAG, dragon, 0)
    }

    /// Whether the first piece on a ray from `sq` is `miner` (any distance)
    /// or `dragon` (distance 2 or more).
    #[inline]
    fn ray_attack(&self, sq: usize, rays: &[isize], dragon: u8, miner: u8) -> bool {
        for &d in rays {
            let mut at = step(sq, d);
            let mut distance = 1;
            while self.cells[at] == EMPTY {
                at = step(at, d);
                distance += 1;
            }
            let c = self.cells[at];
            if c == miner || (c == dragon && distance >= 2) {
                return true;
            }
        }
        false
    }

    /// Whether `side`'s General is in danger: an enemy piece could capture
    /// on its square and no friendly Sentinel stands beside it. A side
    /// without a General is never in danger.
    pub fn in_danger(&self, side: Color) -> bool {
        let sq = self.generals[side.index()] as usize;
        sq != 0 && !self.protected(sq, side as u8) && self.attacked_by(sq, side.other())
    }

    /// Plays `mv` on the board only (cells and General squares; not the
    /// hash, material or turn), for a legality test.
    #[inline]
    pub(crate) fn make(&mut self, mv: Move) -> Undo {
        let (from, to) = (mv.from as usize, mv.to as usize);
        let undo = Undo {
            target: self.cells[to],
            generals: self.generals,
        };
        match mv.kind {
            Kind::Move | Kind::Capture | Kind::Leap => {
                let piece = self.cells[from];
                self.cells[to] = piece;
                self.cells[from] = EMPTY;
                if kind(piece) == GENERAL {
                    self.generals[owner(piece) as usize] = to as u8;
                }
            }
            Kind::Build => self.cells[to] = WALL,
            Kind::Swap => {
                let partner = self.cells[to];
                self.cells.swap(from, to);
                if kind(partner) == GENERAL {
                    self.generals[owner(partner) as usize] = from as u8;
                }
            }
            Kind::Convert => self.cells[to] = flip(undo.target),
            Kind::Shoot => self.cells[to] = EMPTY,
        }
        undo
    }

    /// Takes back a move played with [`State::make`].
    #[inline]
    pub(crate) fn unmake(&mut self, mv: Move, undo: Undo) {
        let (from, to) = (mv.from as usize, mv.to as usize);
        match mv.kind {
            Kind::Move | Kind::Capture | Kind::Leap => {
                self.cells[from] = self.cells[to];
                self.cells[to] = undo.target;
            }
            Kind::Swap => {
                self.cells[from] = self.cells[to];
                self.cells[to] = undo.target;
            }
            Kind::Build | Kind::Convert | Kind::Shoot => self.cells[to] = undo.target,
        }
        self.generals = undo.generals;
    }

    /// Whether a pseudo-legal move of the side to move leaves its General out of danger.
    #[inline]
    pub(crate) fn is_legal(&mut self, mv: Move) -> bool {
        let undo = self.make(mv);
        let legal = !self.in_danger(self.to_move);
        self.unmake(mv, undo);
        legal
    }

    /// Appends every legal move of the side to move, using `self` as scratch
    /// (it is left unchanged). Nothing when the material rule has ended the game.
    pub(crate) fn legal_moves_into(&mut self, out: &mut Vec<Move>) {
        if self.ply_limit_reached() {
            return;
        }
        let start = out.len();
        self.pseudo_moves(self.to_move, out);
        let screen = SafetyScreen::new(self);
        let mut kept = start;
        for i in start..out.len() {
            let mv = out[i];
            if !screen.needs_check(self, mv) || self.is_legal(mv) {
                out[kept] = mv;
                kept += 1;
            }
        }
        out.truncate(kept);
    }

    /// Whether the side to move has a legal move (stops at the first one found).
    pub(crate) fn has_legal_move(&mut self, scratch: &mut Vec<Move>) -> bool {
        if self.ply_limit_reached() {
            return false;
        }
        let side = self.to_move;
        let screen = SafetyScreen::new(self);
        for &sq in SQUARES.iter() {
            let sq = sq as usize;
            let cell = self.cells[sq];
            if owner(cell) != side as u8 {
                continue;
            }
            scratch.clear();
            self.piece_moves(sq, kind(cell), side, scratch);
            let found = (0..scratch.len()).any(|i| {
                let mv = scratch[i];
                !screen.needs_check(self, mv) || self.is_legal(mv)
            });
            if found {
                return true;
            }
        }
        false
    }

    /// The state after a move (legal or at least pseudo-legal), with hash,
    /// material, turn and ply brought up to date.
    pub fn after(&self, mv: Move) -> State {
        let mut next = self.clone();
        let (from, to) = (mv.from as usize, mv.to as usize);
        match mv.kind {
            Kind::Move | Kind::Capture | Kind::Leap => {
                let piece = next.cells[from];
                next.put(to, piece);
                next.put(from, EMPTY);
            }
            Kind::Build => next.put(to, WALL),
            Kind::Swap => {
                let (a, b) = (next.cells[from], next.cells[to]);
                next.put(from, b);
                next.put(to, a);
            }
            Kind::Convert => next.put(to, flip(next.cells[to])),
            Kind::Shoot => next.put(to, EMPTY),
        }
        next.pass_turn();
        next
    }

    /// The immediate material swing of a move for the mover: the value of a
    /// captured piece, twice the value of a converted one, 0 otherwise.
    #[inline]
    pub(crate) fn gain(&self, mv: Move) -> i32 {
        let target = self.cells[mv.to as usize];
        match mv.kind {
            Kind::Capture | Kind::Leap | Kind::Shoot => value(target),
            Kind::Convert => 2 * value(target),
            _ => 0,
        }
    }
}

/// Counts the legal move sequences of `depth` plies from `state` (a side
/// with no legal move ends a line with 0 below it, as in the fixture), by
/// playing moves in place. `state` comes back unchanged. Ignores the ply count.
pub fn perft(state: &mut State, depth: u32) -> u64 {
    let mut lists: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(128)).collect();
    perft_in_place(state, depth, &mut lists)
}

fn perft_in_place(state: &mut State, depth: u32, lists: &mut [Vec<Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let Some((moves, deeper)) = lists.split_first_mut() else {
        return 1;
    };
    moves.clear();
    let side = state.to_move;
    state.pseudo_moves(side, moves);
    let screen = SafetyScreen::new(state);
    let mut count = 0;
    for &mv in moves.iter() {
        if depth == 1 && !screen.needs_check(state, mv) {
            count += 1;
            continue;
        }
        let undo = state.make(mv);
        if !state.in_danger(side) {
            count += if depth == 1 {
                1
            } else {
                state.to_move = side.other();
                let below = perft_in_place(state, depth - 1, deeper);
                state.to_move = side;
                below
            };
        }
        state.unmake(mv, undo);
    }
    count
}
