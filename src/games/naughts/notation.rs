//! Reading moves: the typed form `row col size` (1-based, checked in the
//! order of the rules' table, with the table's exact messages), the JSON
//! object `{"row", "col", "size"}` (0-based), and the forced pass: `pass`, or
//! the object with `row`, `col` and `size` all null.

use super::state::{side_name, Move, State, Turn};
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
        pointer: None,
        detail: detail.into(),
    }
}

/// The notation of a move: `row col size`, 1-based.
pub fn notation(mv: &Move) -> String {
    format!("{} {} {}", mv.row + 1, mv.col + 1, mv.size)
}

/// The notation of a pass.
pub const PASS: &str = "pass";

/// The notation of a turn: a move's `row col size`, or `pass`.
pub fn turn_notation(turn: &Turn) -> String {
    match turn {
        Turn::Place(mv) => notation(mv),
        Turn::Pass => PASS.to_string(),
    }
}

/// A pass, if the rules allow one in `state`: the mover has no legal move and the opponent has.
fn checked_pass(state: &State) -> Result<Turn, GameError> {
    if state.must_pass() {
        return Ok(Turn::Pass);
    }
    let side = side_name(state.to_move());
    Err(error(
        "invalid_move",
        format!(
            "{side} cannot pass: a pass is legal only when {side} has no legal move and {} has one",
            side_name(state.to_move().other())
        ),
    ))
}

/// Adds to an illegal placement's detail that the mover has to pass, when it has to.
fn hint_pass(state: &State, failure: GameError) -> GameError {
    match failure {
        GameError::IllegalMove { code, detail, .. } if state.must_pass() => error(
            code,
            format!(
                "{detail} ({} has no legal move and must pass)",
                side_name(state.to_move())
            ),
        ),
        other => other,
    }
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

/// Whether a move object is the pass: `row`, `col` and `size` all null (a
/// `notation` beside them must say `pass`), or only `{"notation": "pass"}`.
/// An object with some of the three null and some not is an error; one with
/// an unknown field is left to [`parse_object`], which names the field.
fn is_pass_object(object: &serde_json::Map<String, Value>) -> Result<bool, GameError> {
    let fields = ["row", "col", "size"];
    let known = |key: &String| fields.contains(&key.as_str()) || key == "notation";
    if !object.keys().all(known) {
        return Ok(false);
    }
    let nulls = fields
        .iter()
        .filter(|f| object.get(**f).is_some_and(Value::is_null))
        .count();
    let notation = object.get("notation");
    let says_pass = notation.and_then(Value::as_str) == Some(PASS);
    let only_notation = object.len() == 1 && notation.is_some();
    match nulls {
        0 => Ok(only_notation && says_pass),
        3 if notation.is_none() || says_pass => Ok(true),
        3 => Err(error(
            "invalid_format",
            format!(
                "\"notation\" is {}, but row, col and size all null make a pass (\"pass\")",
                notation.unwrap_or(&Value::Null)
            ),
        )),
        _ => Err(error(
            "invalid_format",
            "a pass has row, col and size all null; a placement has none of them null",
        )),
    }
}

/// Parses a move given as typed notation (or `pass`) or as a JSON object,
/// and checks that it is legal in `state`.
pub fn parse(state: &State, value: &Value) -> Result<Turn, GameError> {
    match value {
        Value::String(text) if text.trim().eq_ignore_ascii_case(PASS) => checked_pass(state),
        Value::String(text) => parse_typed(state, text)
            .map(Turn::Place)
            .map_err(|e| hint_pass(state, e)),
        Value::Object(object) if is_pass_object(object)? => checked_pass(state),
        Value::Object(object) => parse_object(state, object)
            .map(Turn::Place)
            .map_err(|e| hint_pass(state, e)),
        other => Err(error(
            "invalid_format",
            format!("a move is a string like \"2 2 5\" or \"pass\", or an object {{\"row\", \"col\", \"size\"}}, not {other}"),
        )),
    }
}

/// Cuts a record (the moves' notations joined with spaces, `2 2 5 1 1 4
/// pass 3 1 5`) into moves: `pass` is one move, anything else is the next
/// three words (`row col size`), or fewer before a `pass` or at the end,
/// which then cannot be read as a move.
pub fn record_moves(record: &str) -> Vec<String> {
    let mut moves = Vec::new();
    let mut words: Vec<&str> = Vec::new();
    for word in record.split_whitespace() {
        let is_pass = word.eq_ignore_ascii_case(PASS);
        if is_pass && !words.is_empty() {
            moves.push(words.join(" "));
            words.clear();
        }
        words.push(word);
        if is_pass || words.len() == 3 {
            moves.push(words.join(" "));
            words.clear();
        }
    }
    if !words.is_empty() {
        moves.push(words.join(" "));
    }
    moves
}
