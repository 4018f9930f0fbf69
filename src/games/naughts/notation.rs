//! Reading moves: the typed form `row col size` (1-based, checked in the
//! order of the rules' table, with the table's exact messages) and the JSON
//! object `{"row", "col", "size"}` (0-based).

use super::state::{Move, State};
use crate::game::GameError;
use serde_json::Value;

/// The message for input that is not `r c s`.
pub const FORMAT_MESSAGE: &str = "Invalid move format. Please try again.";
/// The message for a row that is not on the board.
pub const ROW_MESSAGE: &str = "Invalid row. Please try again.";
/// The message for a column that is not on the board.
pub const COLUMN_MESSAGE: &str = "Invalid column. Please try again.";
/// The message for a size outside 1..=pieces.
pub const SIZE_MESSAGE: &str = "Invalid piece size. Please try again.";
/// The message for a marker already played, or a cell whose top is not smaller.
pub const MOVE_MESSAGE: &str = "Invalid move. Ensure you have a piece of the requested size, and that you're not putting it over a bigger piece and try again!";
/// The help line shown for `h` or `H`.
pub const HELP_MESSAGE: &str = "Enter a row, column & piece size in the format: row col size";

fn error(code: &'static str, detail: impl Into<String>) -> GameError {
    GameError::IllegalMove {
        code,
        detail: detail.into(),
    }
}

/// The notation of a move: `row col size`, 1-based.
pub fn notation(mv: &Move) -> String {
    format!("{} {} {}", mv.row + 1, mv.col + 1, mv.size)
}

/// Reads one typed character as a number from 1 to `max`.
fn digit_in(ch: char, max: u8) -> Option<u8> {
    ch.to_digit(10)
        .map(|d| d as u8)
        .filter(|d| (1..=max).contains(d))
}

/// Parses the typed form, checking format, row, column, size, then legality, in that order.
pub fn parse_typed(state: &State, text: &str) -> Result<Move, GameError> {
    let chars: Vec<char> = text.chars().collect();
    let well_formed = chars.len() == 5
        && chars[1] == ' '
        && chars[3] == ' '
        && [chars[0], chars[2], chars[4]]
            .iter()
            .all(|c| !c.is_whitespace());
    if !well_formed {
        return Err(error("invalid_format", FORMAT_MESSAGE));
    }
    let n = state.grid() as u8;
    let row = digit_in(chars[0], n).ok_or_else(|| error("invalid_row", ROW_MESSAGE))?;
    let col = digit_in(chars[2], n).ok_or_else(|| error("invalid_column", COLUMN_MESSAGE))?;
    let size =
        digit_in(chars[4], state.pieces()).ok_or_else(|| error("invalid_size", SIZE_MESSAGE))?;
    let mv = Move {
        row: row - 1,
        col: col - 1,
        size,
    };
    legal(state, mv, MOVE_MESSAGE.to_string())
}

fn legal(state: &State, mv: Move, detail: String) -> Result<Move, GameError> {
    if state.allows(&mv) {
        Ok(mv)
    } else {
        Err(error("invalid_move", detail))
    }
}

/// Reads one integer field of a move object, checked to lie in `0..limit` (or `1..=limit` for sizes).
fn field(
    object: &serde_json::Map<String, Value>,
    name: &str,
    code: &'static str,
    range: std::ops::RangeInclusive<u64>,
    what: &str,
) -> Result<u8, GameError> {
    let value = object.get(name).ok_or_else(|| {
        error(
            "invalid_format",
            format!("the move has no \"{name}\": expected {{\"row\": r, \"col\": c, \"size\": s}}"),
        )
    })?;
    match value.as_u64() {
        Some(v) if range.contains(&v) => Ok(v as u8),
        _ => Err(error(
            code,
            format!(
                "\"{name}\" is {value}: expected {what} from {} to {}",
                range.start(),
                range.end()
            ),
        )),
    }
}

/// Parses the JSON object form (0-based row and column); a `notation` field, if given, must agree.
pub fn parse_object(
    state: &State,
    object: &serde_json::Map<String, Value>,
) -> Result<Move, GameError> {
    if let Some(key) = object
        .keys()
        .find(|k| !["row", "col", "size", "notation"].contains(&k.as_str()))
    {
        return Err(error(
            "invalid_format",
            format!(
                "the move has an unknown field \"{key}\": expected row, col, size (and notation)"
            ),
        ));
    }
    let last = state.grid() as u64 - 1;
    let row = field(object, "row", "invalid_row", 0..=last, "a 0-based row")?;
    let col = field(
        object,
        "col",
        "invalid_column",
        0..=last,
        "a 0-based column",
    )?;
    let size = field(
        object,
        "size",
        "invalid_size",
        1..=state.pieces() as u64,
        "a marker size",
    )?;
    let mv = Move { row, col, size };
    if let Some(given) = object.get("notation") {
        if given.as_str() != Some(notation(&mv).as_str()) {
            return Err(error(
                "invalid_format",
                format!(
                    "\"notation\" is {given} but row, col and size say \"{}\"",
                    notation(&mv)
                ),
            ));
        }
    }
    let top = state.cell(row as usize, col as usize);
    let detail = if state.hands[state.to_move().index()] & (1 << size) == 0 {
        format!("{MOVE_MESSAGE} (size {size} has already been played)")
    } else {
        format!(
            "{MOVE_MESSAGE} (the cell's top marker {} is not smaller than {size})",
            top.text()
        )
    };
    legal(state, mv, detail)
}

/// Parses a move given as typed notation or as a JSON object.
pub fn parse(state: &State, value: &Value) -> Result<Move, GameError> {
    match value {
        Value::String(text) => parse_typed(state, text),
        Value::Object(object) => parse_object(state, object),
        other => Err(error(
            "invalid_format",
            format!("a move is a string like \"2 2 5\" or an object {{\"row\", \"col\", \"size\"}}, not {other}"),
        )),
    }
}
