//! Move notation and the move's JSON object, both ways.
//!
//! A square is written as a file letter `a`–`i` (column 0–8, left to right)
//! and a rank `1`–`9` counted from white's side (rank 1 is row 8, the bottom
//! line of the text board; rank 9 is row 0). A move is the acting piece's
//! square, a sign for the kind, and the square it acts on:
//!
//! | kind | sign | example |
//! |---|---|---|
//! | move | `-` | `e2-e3` |
//! | capture, leap | `x` | `e2xe3`, `e2xe4` (a Zombie's leap) |
//! | build | `#` | `a2#b3` (the Builder on a2 puts a wall on b3) |
//! | swap | `~` | `b1~a1` |
//! | convert | `=` | `b1=b2` |
//! | shoot | `*` | `c1*c4` |
//!
//! Reading is lenient: case and surrounding spaces do not matter, and the
//! sign may be left out when the two squares name one legal move only.

use super::board::{square, square_name, SIZE};
use super::movegen::{Kind, Move};
use super::state::State;
use crate::game::GameError;
use serde_json::Value;

/// The sign written between the two squares for a kind.
fn sign(kind: Kind) -> char {
    match kind {
        Kind::Move => '-',
        Kind::Capture | Kind::Leap => 'x',
        Kind::Build => '#',
        Kind::Swap => '~',
        Kind::Convert => '=',
        Kind::Shoot => '*',
    }
}

/// A move's notation (`e2-e3`).
pub fn notation(mv: &Move) -> String {
    format!(
        "{}{}{}",
        square_name(mv.from as usize),
        sign(mv.kind),
        square_name(mv.to as usize)
    )
}

/// A move's JSON object.
pub fn move_json(mv: &Move) -> Value {
    let form = MoveJson {
        kind: mv.kind,
        from: mv.from_row_col(),
        to: mv.to_row_col(),
        notation: notation(mv),
    };
    serde_json::to_value(form).expect("a move always serializes")
}

/// An Advance move as JSON: what [`move_json`] writes, and the schema the
/// API's contract publishes as `AdvanceMove`. A request may send this
/// object or just its notation.
#[derive(serde::Serialize, schemars::JsonSchema)]
#[schemars(
    rename = "AdvanceMove",
    description = "An Advance move. A request may send this object or just its notation."
)]
pub struct MoveJson {
    /// What the move does.
    pub kind: Kind,
    /// The acting piece's square as `[row, col]` of the text board (row 0
    /// is the top line, black's side; col 0 the left column).
    #[schemars(inner(range(min = 0, max = 8)))]
    pub from: [usize; 2],
    /// The square it acts on (moves to, captures, builds on, shoots at), as `[row, col]`.
    #[schemars(inner(range(min = 0, max = 8)))]
    pub to: [usize; 2],
    /// The move as a person types it: `e2-e3`, `e2xe4`, `a2#b3`, `b1~a1`, `b1=b2`, `c1*c4`.
    pub notation: String,
}

/// Reads a square name (`e1`) into a padded index.
fn parse_square(text: &str) -> Option<usize> {
    let mut chars = text.chars();
    let file = chars.next()?;
    let rank = chars.next()?;
    if chars.next().is_some() || !('a'..='i').contains(&file) || !('1'..='9').contains(&rank) {
        return None;
    }
    let col = file as usize - 'a' as usize;
    let row = SIZE - (rank as usize - '0' as usize);
    Some(square(row, col))
}

/// The kinds a sign stands for.
fn kinds_of_sign(sign: char) -> Option<&'static [Kind]> {
    Some(match sign {
        '-' => &[Kind::Move],
        'x' => &[Kind::Capture, Kind::Leap],
        '#' => &[Kind::Build],
        '~' => &[Kind::Swap],
        '=' => &[Kind::Convert],
        '*' => &[Kind::Shoot],
        _ => return None,
    })
}

fn bad_notation(text: &str) -> GameError {
    GameError::illegal_move(format!(
        "cannot read move notation {text:?}: expected two squares a1..i9 with a sign between \
         (- move, x capture or leap, # build, ~ swap, = convert, * shoot), e.g. \"e2-e3\""
    ))
}

/// Reads a notation string into (from, to, allowed kinds or `None` for any).
fn parse_notation(text: &str) -> Result<(usize, usize, Option<&'static [Kind]>), GameError> {
    let clean: String = text
        .trim()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_lowercase();
    let chars: Vec<char> = clean.chars().collect();
    let (from_text, sign, to_text): (String, Option<char>, String) = match chars.len() {
        4 => (
            chars[..2].iter().collect(),
            None,
            chars[2..].iter().collect(),
        ),
        5 => (
            chars[..2].iter().collect(),
            Some(chars[2]),
            chars[3..].iter().collect(),
        ),
        _ => return Err(bad_notation(text)),
    };
    let from = parse_square(&from_text).ok_or_else(|| bad_notation(text))?;
    let to = parse_square(&to_text).ok_or_else(|| bad_notation(text))?;
    let kinds = match sign {
        None => None,
        Some(c) => Some(kinds_of_sign(c).ok_or_else(|| bad_notation(text))?),
    };
    Ok((from, to, kinds))
}

/// Reads `[row, col]` from a move object's field; an error points at the
/// field, or at the coordinate at fault.
fn parse_coords(object: &serde_json::Map<String, Value>, field: &str) -> Result<usize, GameError> {
    let expected =
        format!("move field \"{field}\" must be [row, col] with row and col from 0 to 8");
    let pair = match object.get(field).and_then(Value::as_array) {
        Some(pair) if pair.len() == 2 => pair,
        _ => return Err(GameError::illegal_move_at(format!("/{field}"), expected)),
    };
    let coord = |i: usize| {
        pair[i]
            .as_u64()
            .filter(|&n| n < SIZE as u64)
            .map(|n| n as usize)
            .ok_or_else(|| {
                GameError::illegal_move_at(
                    format!("/{field}/{i}"),
                    format!("{expected}, not {}", pair[i]),
                )
            })
    };
    Ok(square(coord(0)?, coord(1)?))
}

/// Reads a move object: `from` and `to`, `kind` optional; or only
/// `notation`. A `notation` beside `from` and `to` must name the same move.
fn parse_object(
    object: &serde_json::Map<String, Value>,
) -> Result<(usize, usize, Option<&'static [Kind]>), GameError> {
    let notation = match object.get("notation") {
        None => None,
        Some(Value::String(text)) => Some(
            parse_notation(text)
                .map_err(|e| GameError::illegal_move_at("/notation", e.to_string()))?,
        ),
        Some(other) => {
            return Err(GameError::illegal_move_at(
                "/notation",
                format!("move field \"notation\" must be a string such as \"e2-e3\", not {other}"),
            ))
        }
    };
    if !object.contains_key("from") && !object.contains_key("to") {
        return notation.ok_or_else(|| {
            GameError::illegal_move(
                "a move object needs \"from\" and \"to\" ([row, col] each) or a \"notation\" string",
            )
        });
    }
    let from = parse_coords(object, "from")?;
    let to = parse_coords(object, "to")?;
    let kinds = match object.get("kind") {
        None => None,
        Some(Value::String(name)) => {
            let kind = Kind::from_name(name).ok_or_else(|| {
                GameError::illegal_move_at("/kind", format!(
                    "unknown move kind {name:?}; expected move, capture, leap, build, swap, convert or shoot"
                ))
            })?;
            Some(kind_slice(kind))
        }
        Some(other) => {
            return Err(GameError::illegal_move_at(
                "/kind",
                format!("move field \"kind\" must be a string, not {other}"),
            ))
        }
    };
    if let Some((named_from, named_to, named_kinds)) = notation {
        let same_kind = match (kinds, named_kinds) {
            (Some(kinds), Some(named)) => kinds.iter().any(|k| named.contains(k)),
            _ => true,
        };
        if (named_from, named_to) != (from, to) || !same_kind {
            return Err(GameError::illegal_move_at(
                "/notation",
                format!(
                    "move field \"notation\" names another move than \"from\", \"to\" and \"kind\" ({} to {})",
                    square_name(from),
                    square_name(to)
                ),
            ));
        }
    }
    Ok((from, to, kinds))
}

/// A one-kind slice with static lifetime.
fn kind_slice(kind: Kind) -> &'static [Kind] {
    const SLICES: [[Kind; 1]; 7] = [
        [Kind::Move],
        [Kind::Capture],
        [Kind::Leap],
        [Kind::Build],
        [Kind::Swap],
        [Kind::Convert],
        [Kind::Shoot],
    ];
    let index = Kind::ALL.iter().position(|&k| k == kind).unwrap_or(0);
    &SLICES[index]
}

/// Reads a move given as notation or JSON object and checks it is legal.
pub fn parse_move(state: &State, value: &Value) -> Result<Move, GameError> {
    let (from, to, kinds) = match value {
        Value::String(text) => parse_notation(text)?,
        Value::Object(object) => parse_object(object)?,
        other => {
            return Err(GameError::illegal_move(format!(
            "a move is a notation string such as \"e2-e3\" or an object with from/to, not {other}"
        )))
        }
    };
    let mut legal = Vec::new();
    state.clone().legal_moves_into(&mut legal);
    let between: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| m.from as usize == from && m.to as usize == to)
        .collect();
    let matching: Vec<Move> = between
        .iter()
        .copied()
        .filter(|m| kinds.map_or(true, |ks| ks.contains(&m.kind)))
        .collect();
    match matching.as_slice() {
        [one] => Ok(*one),
        [] => Err(not_legal(state, from, to, kinds, &between)),
        _ => Err(GameError::illegal_move(format!(
            "{} to {} is ambiguous: say which, {}",
            square_name(from),
            square_name(to),
            matching
                .iter()
                .map(notation)
                .collect::<Vec<_>>()
                .join(" or ")
        ))),
    }
}

/// Why no legal move matches: the rule the asked move breaks, and the legal
/// move between the two squares if there is one of another kind.
fn not_legal(
    state: &State,
    from: usize,
    to: usize,
    kinds: Option<&[Kind]>,
    between: &[Move],
) -> GameError {
    let why = super::explain::why_illegal(state, from, to, kinds);
    let detail = match between.first() {
        Some(other) => format!(
            "{why}; the legal move from {} to {} is {} ({})",
            square_name(from),
            square_name(to),
            notation(other),
            other.kind.name()
        ),
        None => why,
    };
    GameError::illegal_move(detail)
}
