//! Why a move a player asked for is not legal, in the words of the rules:
//! "a Jester cannot capture", "the path from c1 to c5 is blocked at c3", "the
//! white General on e1 would be left under attack by the black Dragon on e7".
//!
//! Only the error path runs this, so it favours plain code over speed. It
//! asks the move generator rather than restating the piece rules wherever it
//! can: whether the mover's piece has a pseudo-legal move between the two
//! squares, and which enemy pieces could capture on the General's square.

use super::board::{
    col_of, kind, owner, row_of, square_name, step, Color, BUILDER, CATAPULT, DRAGON, EMPTY,
    GENERAL, JESTER, MINER, NOBODY, ORTHO, SENTINEL, WALL, ZOMBIE,
};
use super::movegen::{Kind, Move};
use super::notation::notation;
use super::state::State;

/// The reason no legal move of the kinds asked for (any kind when `None`)
/// goes from `from` to `to` in `state`, whose side to move is the mover.
pub(crate) fn why_illegal(state: &State, from: usize, to: usize, kinds: Option<&[Kind]>) -> String {
    let side = state.to_move();
    let piece = state.cells[from];
    if owner(piece) != side as u8 {
        return no_piece_of_mover(state, from, side);
    }
    if from == to {
        return format!(
            "a move needs two different squares; both are {}",
            square_name(from)
        );
    }
    let asked = |k: Kind| kinds.map_or(true, |ks| ks.contains(&k));
    let mut pseudo = Vec::new();
    state.piece_moves(from, kind(piece), side, &mut pseudo);
    if let Some(mv) = pseudo.iter().find(|m| m.to as usize == to && asked(m.kind)) {
        return general_left_in_danger(state, *mv);
    }
    if let Some(reason) = kinds.and_then(|ks| wrong_piece_for_kind(piece, ks)) {
        return reason;
    }
    reach(state, from, to, kind(piece))
        .or_else(|| target_rule(state, from, to, kind(piece), kinds))
        .unwrap_or_else(|| {
            format!(
                "no legal {} from {} to {}",
                wanted(kinds),
                square_name(from),
                square_name(to)
            )
        })
}

/// The move kinds asked for, in words (`capture or leap`).
fn wanted(kinds: Option<&[Kind]>) -> String {
    kinds
        .map(|ks| ks.iter().map(|k| k.name()).collect::<Vec<_>>().join(" or "))
        .unwrap_or_else(|| "move".to_string())
}

/// A piece's name, as the rules write it (`Dragon`).
pub(crate) fn piece_name(piece_kind: u8) -> &'static str {
    match piece_kind {
        ZOMBIE => "Zombie",
        BUILDER => "Builder",
        JESTER => "Jester",
        MINER => "Miner",
        SENTINEL => "Sentinel",
        CATAPULT => "Catapult",
        DRAGON => "Dragon",
        GENERAL => "General",
        _ => "wall",
    }
}

/// `the black Dragon on e7`.
fn describe(state: &State, sq: usize) -> String {
    let cell = state.cells[sq];
    match cell {
        EMPTY => format!("the empty square {}", square_name(sq)),
        WALL => format!("the wall on {}", square_name(sq)),
        _ => format!(
            "the {} {} on {}",
            colour_name(owner(cell)),
            piece_name(kind(cell)),
            square_name(sq)
        ),
    }
}

fn colour_name(owner: u8) -> &'static str {
    if owner == Color::White as u8 {
        "white"
    } else {
        "black"
    }
}

fn no_piece_of_mover(state: &State, from: usize, side: Color) -> String {
    let found = if state.cells[from] == EMPTY {
        "it is empty".to_string()
    } else {
        format!("it holds {}", describe(state, from))
    };
    format!(
        "no legal move from {}: {} is to move and {found}",
        square_name(from),
        side.name()
    )
}

/// The move follows the piece rules but leaves the mover's General capturable.
fn general_left_in_danger(state: &State, mv: Move) -> String {
    let side = state.to_move();
    let general_before = state.generals[side.index()] as usize;
    let mut after = state.clone();
    after.make(mv);
    let general = after.generals[side.index()] as usize;
    let attacker = attackers_of(&after, general, side)
        .first()
        .map(|&sq| describe(&after, sq))
        .unwrap_or_else(|| "an enemy piece".to_string());
    let mover = notation(&mv);
    if general != general_before {
        format!(
            "{mover} would put the {} General on {} under attack by {attacker}",
            side.name(),
            square_name(general)
        )
    } else if state.in_danger(side) {
        format!(
            "the {} General on {} is in danger and after {mover} it would still be under attack by {attacker}",
            side.name(),
            square_name(general)
        )
    } else {
        format!(
            "{mover} would leave the {} General on {} under attack by {attacker}",
            side.name(),
            square_name(general)
        )
    }
}

/// The squares of the enemy pieces that could capture on `general` (the
/// mover's General, known to be in danger so unprotected). The General is
/// swapped for an ordinary friendly piece so the move generator, which never
/// captures Generals, lists the captures on its square.
fn attackers_of(state: &State, general: usize, side: Color) -> Vec<usize> {
    let mut probe = state.clone();
    probe.cells[general] = side.piece(ZOMBIE);
    let mut moves = Vec::new();
    probe.pseudo_moves(side.other(), &mut moves);
    moves
        .iter()
        .filter(|m| m.kind.is_capture() && m.to as usize == general)
        .map(|m| m.from as usize)
        .collect()
}

/// The sign asks for a kind of move only some pieces make.
fn wrong_piece_for_kind(piece: u8, kinds: &[Kind]) -> Option<String> {
    let (needs, what) = match kinds {
        [Kind::Build] => (BUILDER, "builds walls"),
        [Kind::Swap] => (JESTER, "swaps places"),
        [Kind::Convert] => (JESTER, "converts"),
        [Kind::Shoot] => (CATAPULT, "shoots"),
        _ => return None,
    };
    (kind(piece) != needs).then(|| {
        format!(
            "only a {} {what}; this piece is a {}",
            piece_name(needs),
            piece_name(kind(piece))
        )
    })
}

/// Board offsets from `from` to `to`: (rows down, columns right).
fn offset(from: usize, to: usize) -> (isize, isize) {
    (
        row_of(to) as isize - row_of(from) as isize,
        col_of(to) as isize - col_of(from) as isize,
    )
}

/// Why the piece cannot get from `from` to `to` at all, whatever stands
/// there, if that is the reason: its movement pattern or a blocked path.
fn reach(state: &State, from: usize, to: usize, piece: u8) -> Option<String> {
    let (dr, dc) = offset(from, to);
    let adjacent = dr.abs() <= 1 && dc.abs() <= 1;
    match piece {
        ZOMBIE => zombie_reach(state, from, to),
        BUILDER | JESTER | GENERAL => (!adjacent).then(|| {
            format!(
                "a {} moves only to one of the 8 squares next to it",
                piece_name(piece)
            )
        }),
        MINER if dr != 0 && dc != 0 => {
            Some("a Miner moves only along its row or its column".to_string())
        }
        DRAGON if dr != 0 && dc != 0 && dr.abs() != dc.abs() => {
            Some("a Dragon moves only along rows, columns and diagonals".to_string())
        }
        MINER | DRAGON => blocked_path(state, from, to),
        SENTINEL => (!matches!((dr.abs(), dc.abs()), (1, 2) | (2, 1))).then(|| {
            "a Sentinel jumps like a knight: two squares one way and one square the other"
                .to_string()
        }),
        CATAPULT => catapult_reach(dr, dc),
        _ => None,
    }
}

fn zombie_reach(state: &State, from: usize, to: usize) -> Option<String> {
    let forward = if state.to_move() == Color::White {
        -1
    } else {
        1
    };
    let (dr, dc) = offset(from, to);
    let pattern = "a Zombie moves only to the three squares in front of it, or leaps two squares in one of those directions";
    if dr == forward && dc.abs() <= 1 {
        return None;
    }
    if dr != 2 * forward || !matches!(dc, -2 | 0 | 2) {
        return Some(pattern.to_string());
    }
    let between = step(from, (to as isize - from as isize) / 2);
    if state.cells[between] != EMPTY {
        return Some(format!(
            "a Zombie leaps only over an empty square, and {} is not empty",
            square_name(between)
        ));
    }
    (state.cells[to] == EMPTY).then(|| {
        format!(
            "a Zombie's leap must capture: it never lands on an empty square like {}",
            square_name(to)
        )
    })
}

fn catapult_reach(dr: isize, dc: isize) -> Option<String> {
    let steps = dr.abs() + dc.abs() == 1;
    let shot = matches!((dr.abs(), dc.abs()), (3, 0) | (0, 3) | (2, 2));
    (!steps && !shot).then(|| {
        "a Catapult steps one square up, down, left or right, and shoots exactly 3 squares away in a straight line or 2 squares away on both axes".to_string()
    })
}

/// For a slider on a line to `to`: the first occupied square strictly between.
fn blocked_path(state: &State, from: usize, to: usize) -> Option<String> {
    let (dr, dc) = offset(from, to);
    let direction = dr.signum() * super::board::WIDTH as isize + dc.signum();
    let mut at = step(from, direction);
    while at != to {
        if state.cells[at] != EMPTY {
            return Some(format!(
                "the path from {} to {} is blocked at {}",
                square_name(from),
                square_name(to),
                square_name(at)
            ));
        }
        at = step(at, direction);
    }
    None
}

/// The piece can reach `to`; why what stands there (or the kind asked for)
/// rules the move out.
fn target_rule(
    state: &State,
    from: usize,
    to: usize,
    piece: u8,
    kinds: Option<&[Kind]>,
) -> Option<String> {
    let side = state.to_move() as u8;
    let target = state.cells[to];
    let (dr, dc) = offset(from, to);
    let adjacent_step = dr.abs() <= 1 && dc.abs() <= 1;
    let asks_capture = kinds.is_some_and(|ks| ks.iter().any(|k| k.is_capture()));
    if target == EMPTY {
        return Some(if asks_capture {
            format!("there is nothing to capture on {}", square_name(to))
        } else if piece == CATAPULT && dr.abs() + dc.abs() != 1 {
            format!("there is nothing to shoot on {}", square_name(to))
        } else {
            format!(
                "{} is empty, but that move does not suit it",
                square_name(to)
            )
        });
    }
    if target == WALL {
        return Some(if piece == CATAPULT {
            "a Catapult cannot shoot walls".to_string()
        } else {
            format!(
                "{} holds a wall: only a Miner may capture a wall, and nothing else enters one",
                square_name(to)
            )
        });
    }
    if owner(target) == side {
        return Some(if piece == JESTER && kind(target) == JESTER {
            "a Jester cannot swap places with another Jester".to_string()
        } else {
            format!("{} is your own piece", describe(state, to))
        });
    }
    if kinds == Some(&[Kind::Move]) {
        return Some(format!(
            "{} is occupied by {}: a capture is written with x",
            square_name(to),
            describe(state, to)
        ));
    }
    let enemy_rule = match piece {
        JESTER if asks_capture => {
            Some("a Jester cannot capture (it converts adjacent enemy pieces instead)".to_string())
        }
        JESTER if kind(target) == GENERAL => Some("a General is never converted".to_string()),
        JESTER => None,
        CATAPULT if adjacent_step => Some(
            "a Catapult never captures by moving: it steps only to empty squares and shoots from a distance"
                .to_string(),
        ),
        DRAGON if adjacent_step => Some(
            "a Dragon cannot capture an adjacent piece: it captures only at a distance of 2 or more"
                .to_string(),
        ),
        _ => None,
    };
    enemy_rule.or_else(|| capture_rule(state, to, owner(target)))
}

/// Why an enemy piece on `to` cannot be captured: a General, or guarded.
fn capture_rule(state: &State, to: usize, enemy: u8) -> Option<String> {
    if kind(state.cells[to]) == GENERAL {
        return Some("a General is never captured".to_string());
    }
    if enemy == NOBODY {
        return None;
    }
    let sentinel = ORTHO
        .iter()
        .map(|&d| step(to, d))
        .find(|&sq| state.cells[sq] == SENTINEL + enemy * 8)?;
    Some(format!(
        "{} is protected by {}: a piece beside a Sentinel of its own colour cannot be captured",
        describe(state, to),
        describe(state, sentinel)
    ))
}
