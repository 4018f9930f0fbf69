//! The `strong` level's knowledge: a static evaluation, move-ordering hints
//! and the noisy moves that quiescence follows, for the generic alpha-beta
//! search in [`crate::search`].

use crate::games::advance::board::{
    bit, kind, owner, step, value, Color, CATAPULT, CELLS, DIAG, DRAGON, EMPTY, GENERAL, JESTER,
    KING, KNIGHT, MINER, NOBODY, ORTHO, PLY_LIMIT, SENTINEL, SHOTS, SIZE, SQUARES, ZOMBIE,
};
use crate::games::advance::movegen::{Kind, Move};
use crate::games::advance::state::State;
use crate::games::advance::Advance;
use crate::search::{Evaluate, WIN};

/// Centi-units per point of material.
const PAWN: i32 = 100;
/// Bonus per row a Zombie has advanced.
const ZOMBIE_STEP: i32 = 4;
/// Bonus per pseudo-legal step or capture.
const MOBILITY: i32 = 2;
/// Bonus per point of value of a piece a Sentinel protects.
const PROTECTION: i32 = 4;
/// Bonus for a General beside a friendly Sentinel (it can never be in danger).
const GENERAL_GUARDED: i32 = 60;
/// Penalty per square around an unguarded General that the enemy attacks.
const GENERAL_PRESSURE: i32 = 20;
/// Penalty for an unguarded General in danger.
const GENERAL_IN_DANGER: i32 = 60;
/// Share (percent) of a hanging piece's value lost when it cannot be saved.
const HANGING_PERCENT: i32 = 50;
/// Plies before the material rule in which the evaluation turns to material alone.
const FINAL_PLIES: u32 = 20;
/// What a material lead is worth, on top of the material, as the rule comes.
const RULE_BONUS: i32 = 300;

/// The pieces on the board in square order (padded square, cell code),
/// found by one scan and shared by the evaluation's two passes.
struct Pieces {
    list: [(u8, u8); SIZE * SIZE],
    len: usize,
}

impl Pieces {
    fn of(state: &State) -> Pieces {
        let mut pieces = Pieces {
            list: [(0, 0); SIZE * SIZE],
            len: 0,
        };
        for &sq in SQUARES.iter() {
            let cell = state.cells[sq as usize];
            if owner(cell) != NOBODY {
                pieces.list[pieces.len] = (sq, cell);
                pieces.len += 1;
            }
        }
        pieces
    }

    fn iter(&self) -> impl Iterator<Item = (usize, u8)> + '_ {
        self.list[..self.len]
            .iter()
            .map(|&(sq, cell)| (sq as usize, cell))
    }
}

/// What one side's pieces reach.
#[derive(Default)]
struct Survey {
    /// Squares where the side could capture a piece standing there (protection aside).
    captures: u128,
    /// Squares a Jester of the side could convert on.
    converts: u128,
    /// Pseudo-legal steps, slides and captures.
    mobility: i32,
}

impl Survey {
    /// Both sides' surveys, white first, in one pass over the pieces.
    fn both(state: &State, pieces: &Pieces) -> [Survey; 2] {
        let mut surveys = [Survey::default(), Survey::default()];
        for (sq, cell) in pieces.iter() {
            if owner(cell) == 0 {
                surveys[0].add_piece(state, sq, kind(cell), Color::White);
            } else {
                surveys[1].add_piece(state, sq, kind(cell), Color::Black);
            }
        }
        surveys
    }

    fn add_piece(&mut self, state: &State, sq: usize, piece: u8, side: Color) {
        match piece {
            ZOMBIE => self.zombie(state, sq, side),
            JESTER => {
                for d in KING {
                    let to = step(sq, d);
                    self.converts |= bit(to);
                    self.mobility += (state.cells[to] == EMPTY) as i32;
                }
            }
            MINER => self.rays(state, sq, &ORTHO, 1),
            SENTINEL => self.jumps(state, sq, &KNIGHT),
            CATAPULT => {
                for d in ORTHO {
                    self.mobility += (state.cells[step(sq, d)] == EMPTY) as i32;
                }
                for d in SHOTS {
                    self.captures |= bit(step(sq, d));
                }
            }
            DRAGON => {
                self.rays(state, sq, &ORTHO, 2);
                self.rays(state, sq, &DIAG, 2);
            }
            _ => self.jumps(state, sq, &KING),
        }
    }

    fn zombie(&mut self, state: &State, sq: usize, side: Color) {
        let forward = side.forward();
        for d in [forward - 1, forward, forward + 1] {
            let to = step(sq, d);
            self.captures |= bit(to);
            if state.cells[to] == EMPTY {
                self.mobility += 1;
                self.captures |= bit(step(to, d));
            }
        }
    }

    fn jumps(&mut self, state: &State, sq: usize, offsets: &[isize]) {
        for &d in offsets {
            let to = step(sq, d);
            self.captures |= bit(to);
            self.mobility += (state.cells[to] == EMPTY) as i32;
        }
    }

    fn rays(&mut self, state: &State, sq: usize, rays: &[isize], min_capture: i32) {
        for &d in rays {
            let mut to = step(sq, d);
            let mut distance = 1;
            while state.cells[to] == EMPTY {
                self.mobility += 1;
                to = step(to, d);
                distance += 1;
            }
            if distance >= min_capture {
                self.captures |= bit(to);
            }
        }
    }
}

/// What the scan of one side's pieces adds up to.
#[derive(Default)]
struct Tally {
    score: i32,
    hanging_total: i32,
    hanging_max: i32,
}

/// Scores one piece of `side` on `sq` into its side's tally.
fn score_piece(
    state: &State,
    sq: usize,
    cell: u8,
    side: Color,
    surveys: &[Survey; 2],
    tally: &mut Tally,
) {
    let (own, enemy) = (&surveys[side.index()], &surveys[side.other().index()]);
    let piece = kind(cell);
    if piece == GENERAL {
        tally.score += general_safety(state, sq, side, enemy);
        return;
    }
    if piece == ZOMBIE {
        let row = crate::games::advance::board::row_of(sq) as i32;
        let advanced = if side == Color::White {
            7 - row
        } else {
            row - 1
        };
        tally.score += advanced.max(0) * ZOMBIE_STEP;
    }
    let guarded = state.protected(sq, side as u8);
    if guarded && piece != SENTINEL {
        tally.score += value(cell) * PROTECTION;
    }
    let b = bit(sq);
    let threatened = (enemy.captures & b != 0 && !guarded) || enemy.converts & b != 0;
    if threatened && own.captures & b == 0 {
        tally.hanging_total += value(cell);
        tally.hanging_max = tally.hanging_max.max(value(cell));
    }
}

/// Both sides' positional and material scores, white first.
fn side_scores(state: &State, pieces: &Pieces, surveys: &[Survey; 2]) -> [i32; 2] {
    let mut tallies = [Tally::default(), Tally::default()];
    for (sq, cell) in pieces.iter() {
        if owner(cell) == 0 {
            score_piece(state, sq, cell, Color::White, surveys, &mut tallies[0]);
        } else {
            score_piece(state, sq, cell, Color::Black, surveys, &mut tallies[1]);
        }
    }
    let mut scores = [0; 2];
    for side in [Color::White, Color::Black] {
        let tally = &tallies[side.index()];
        let mut score =
            tally.score + state.material(side) * PAWN + surveys[side.index()].mobility * MOBILITY;
        // The side to move saves its most valuable hanging piece; the other
        // side's captures are left to quiescence.
        if side == state.to_move() {
            score -= (tally.hanging_total - tally.hanging_max) * PAWN * HANGING_PERCENT / 100;
        }
        scores[side.index()] = score;
    }
    scores
}

/// The General's safety: guarded by a Sentinel, or how many squares around it the enemy attacks.
fn general_safety(state: &State, sq: usize, side: Color, enemy: &Survey) -> i32 {
    if state.protected(sq, side as u8) {
        return GENERAL_GUARDED;
    }
    let mut score = 0;
    if enemy.captures & bit(sq) != 0 && state.in_danger(side) {
        score -= GENERAL_IN_DANGER;
    }
    for d in KING {
        let to = step(sq, d);
        if owner(state.cells[to]) != side as u8 && enemy.captures & bit(to) != 0 {
            score -= GENERAL_PRESSURE;
        }
    }
    score
}

/// The static evaluation for the side to move.
pub fn evaluate(state: &State) -> i32 {
    let pieces = Pieces::of(state);
    let surveys = Survey::both(state, &pieces);
    let [white, black] = side_scores(state, &pieces, &surveys);
    let me = state.to_move();
    let whole = if me == Color::White {
        white - black
    } else {
        black - white
    };
    match state.ply() {
        Some(ply) => near_the_material_rule(state, whole, PLY_LIMIT.saturating_sub(ply)),
        None => whole,
    }
}

/// In the last [`FINAL_PLIES`] plies before the material rule decides the
/// game, only the material count will matter: positional terms fade out,
/// and a material lead gains a bonus that grows to [`RULE_BONUS`], so that
/// the search plays to keep (or catch up) the lead rather than for position.
fn near_the_material_rule(state: &State, whole: i32, plies_left: u32) -> i32 {
    if plies_left >= FINAL_PLIES {
        return whole;
    }
    let me = state.to_move();
    let material = (state.material(me) - state.material(me.other())) * PAWN;
    let left = plies_left as i32;
    let fading = (whole - material) * left / FINAL_PLIES as i32;
    let lead = material.signum() * RULE_BONUS * (FINAL_PLIES as i32 - left) / FINAL_PLIES as i32;
    material + fading + lead
}

/// Material (in points) the side to move needs before the search may try
/// passing: with less, having to move can be the worse thing (zugzwang:
/// a side without a legal move loses).
const NULL_MOVE_MATERIAL: i32 = 12;

/// The position with the turn passed, when passing is a fair test: the side
/// to move keeps enough material, and the material rule is not about to end
/// the game.
pub fn null_move(state: &State) -> Option<State> {
    let me = state.to_move();
    let safe =
        state.material(me) >= NULL_MOVE_MATERIAL && state.ply().map_or(true, |p| p + 8 < PLY_LIMIT);
    safe.then(|| {
        let mut passed = state.clone();
        passed.pass_turn();
        passed
    })
}

/// Ordering hint: conversions and captures by the value taken, cheap attackers first.
pub fn order_hint(state: &State, mv: &Move) -> i32 {
    let target = state.cells[mv.to as usize];
    let attacker = value(state.cells[mv.from as usize]);
    match mv.kind {
        Kind::Convert => 200 * value(target) - attacker,
        Kind::Capture | Kind::Leap | Kind::Shoot if owner(target) != NOBODY => {
            100 * value(target) - attacker
        }
        Kind::Capture => 1,
        Kind::Build => -1,
        _ => 0,
    }
}

/// Whether quiescence should follow the move: it takes or converts a piece.
pub fn is_noisy(state: &State, mv: &Move) -> bool {
    match mv.kind {
        Kind::Leap | Kind::Shoot | Kind::Convert => true,
        Kind::Capture => owner(state.cells[mv.to as usize]) != NOBODY,
        _ => false,
    }
}

impl Evaluate for Advance {
    fn evaluate(state: &State) -> i32 {
        evaluate(state)
    }

    fn hash(state: &State) -> u64 {
        state.hash
    }

    fn order_hint(state: &State, mv: &Move) -> i32 {
        order_hint(state, mv)
    }

    const HAS_NOISY_MOVES: bool = true;

    fn is_noisy(state: &State, mv: &Move) -> bool {
        is_noisy(state, mv)
    }

    fn history_slot(_state: &State, mv: &Move) -> Option<usize> {
        Some(usize::from(mv.from) * CELLS + usize::from(mv.to))
    }

    fn in_danger(state: &State) -> bool {
        state.in_danger(state.to_move())
    }

    fn null_move(state: &State) -> Option<State> {
        null_move(state)
    }

    fn terminal_score(state: &State, ply: usize) -> i32 {
        let ply = ply as i32;
        if state.ply_limit_reached() {
            let me = state.to_move();
            return match state.material(me) - state.material(me.other()) {
                b if b > 0 => WIN - ply,
                b if b < 0 => -(WIN - ply),
                _ => 0,
            };
        }
        -(WIN - ply)
    }
}
