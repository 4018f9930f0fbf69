//! Reading moves: the typed form `row col size` (1-based, checked in the
//! order of the rules' table, each failure with the table's code), the JSON
//! object `{"row", "col", "size"}` (0-based), and the forced pass: `pass`, or
//! the object with `row`, `col` and `size` all null. A refusal's detail says
//! what was expected and what was given, and points at the field at fault in
//! a move object; the terminal game shows the course's own sentence for
//! each code instead ([`crate::cli::naughts`]).

use super::state::{side_name, Move, Play, State};
use crate::game::{ErrorCode, GameError};
use serde_json::Value;

fn error(code: ErrorCode, detail: impl Into<String>) -> GameError {
    GameError::IllegalMove {
        code,
        pointer: None,
        detail: detail.into(),
    }
}

/// An error about field `name` of a move object, pointing at it.
fn field_error(name: &str, code: ErrorCode, detail: impl Into<String>) -> GameError {
    GameError::IllegalMove {
        code,
        pointer: Some(format!("/{name}")),
        detail: detail.into(),
    }
}

/// Which form a move was written in, for the words of its errors.
#[derive(Clone, Copy)]
enum Form {
    /// `row col size`, 1-based.
    Notation,
    /// `{"row", "col", "size"}`, 0-based.
    Object,
}

/// A row or column (`what`) off a `grid`-wide board, in `form`'s numbering first.
fn off_board(form: Form, what: &str, grid: usize, got: impl std::fmt::Display) -> String {
    let notation = format!("1-{grid} in notation");
    let object = format!("0-{} in a move object", grid - 1);
    let (first, second) = match form {
        Form::Notation => (notation, object),
        Form::Object => (object, notation),
    };
    format!("{what} must be {first} ({second}), got {got}")
}

/// A size outside the game's markers, `1..=pieces`.
fn no_such_size(pieces: u8, got: impl std::fmt::Display) -> String {
    format!("size must be 1-{pieces} (the sizes of this game's markers), got {got}")
}

/// The notation of a move: `row col size`, 1-based.
pub fn notation(mv: &Move) -> String {
    format!("{} {} {}", mv.row + 1, mv.col + 1, mv.size)
}

/// The notation of a pass.
pub const PASS: &str = "pass";

/// The notation of a turn: a move's `row col size`, or `pass`.
pub fn turn_notation(turn: &Play) -> String {
    match turn {
        Play::Place(mv) => notation(mv),
        Play::Pass => PASS.to_string(),
    }
}

/// A pass, if the rules allow one in `state`: the mover has no legal move and the opponent has.
fn checked_pass(state: &State) -> Result<Play, GameError> {
    if state.must_pass() {
        return Ok(Play::Pass);
    }
    let side = side_name(state.to_move());
    Err(error(
        ErrorCode::InvalidMove,
        format!(
            "{side} cannot pass: a pass is legal only when {side} has no legal move and {} has one",
            side_name(state.to_move().other())
        ),
    ))
}

/// Adds to an illegal placement's detail that the mover has to pass, when it has to.
fn hint_pass(state: &State, failure: GameError) -> GameError {
    match failure {
        GameError::IllegalMove {
            code,
            pointer,
            detail,
        } if state.must_pass() => GameError::IllegalMove {
            code,
            pointer,
            detail: format!(
                "{detail} ({} has no legal move and must pass)",
                side_name(state.to_move())
            ),
        },
        other => other,
    }
}

/// Reads one typed character as a number from 1 to `max`.
fn digit_in(ch: char, max: u8) -> Option<u8> {
    ch.to_digit(10)
        .map(|d| d as u8)
        .filter(|d| (1..=max).contains(d))
}

/// Parses the typed form, checking format, row, column, size, then legality,
/// in that order; each failure has the code of its row in the rules' table.
pub fn parse_typed(state: &State, text: &str) -> Result<Move, GameError> {
    let chars: Vec<char> = text.chars().collect();
    let well_formed = chars.len() == 5
        && chars[1] == ' '
        && chars[3] == ' '
        && [chars[0], chars[2], chars[4]]
            .iter()
            .all(|c| !c.is_whitespace());
    if !well_formed {
        return Err(error(
            ErrorCode::InvalidFormat,
            format!(
                "a move is \"row col size\", one character each with one space between \
                 (\"2 2 5\"), or \"pass\"; got {}",
                Value::from(text)
            ),
        ));
    }
    let grid = state.grid();
    let row = digit_in(chars[0], grid as u8).ok_or_else(|| {
        let detail = off_board(Form::Notation, "row", grid, chars[0]);
        error(ErrorCode::InvalidRow, detail)
    })?;
    let col = digit_in(chars[2], grid as u8).ok_or_else(|| {
        let detail = off_board(Form::Notation, "column", grid, chars[2]);
        error(ErrorCode::InvalidColumn, detail)
    })?;
    let size = digit_in(chars[4], state.pieces()).ok_or_else(|| {
        error(
            ErrorCode::InvalidSize,
            no_such_size(state.pieces(), chars[4]),
        )
    })?;
    let mv = Move {
        row: row - 1,
        col: col - 1,
        size,
    };
    legal(state, mv, Form::Notation)
}

/// `mv` if the move rule allows it in `state`; else `invalid_move` saying
/// which part of the rule it breaks: a size the mover no longer holds
/// (pointing at `size` in a move object), or a cell whose top marker is not
/// smaller.
fn legal(state: &State, mv: Move, form: Form) -> Result<Move, GameError> {
    if state.allows(&mv) {
        return Ok(mv);
    }
    let side = side_name(state.to_move());
    let size = mv.size;
    let held = state.hand(state.to_move());
    if !held.contains(&size) {
        let holds = match held.as_slice() {
            [] => "no marker".to_string(),
            sizes => sizes
                .iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(", "),
        };
        let detail = format!("{side} has already played size {size} (it holds {holds})");
        return Err(match form {
            Form::Notation => error(ErrorCode::InvalidMove, detail),
            Form::Object => field_error("size", ErrorCode::InvalidMove, detail),
        });
    }
    let top = state.cell(mv.row as usize, mv.col as usize).text();
    let cell = match form {
        Form::Notation => format!("cell \"{} {}\"", mv.row + 1, mv.col + 1),
        Form::Object => format!("the cell at row {}, col {}", mv.row, mv.col),
    };
    Err(error(
        ErrorCode::InvalidMove,
        format!(
            "{cell} holds {top}, which is not smaller than {size}: a marker goes on an \
             empty cell or over a smaller marker"
        ),
    ))
}

/// Reads integer field `name` of a move object, checked to lie in `range`;
/// otherwise `code`, with `wrong`'s words for the value found, pointing at
/// the field.
fn field(
    object: &serde_json::Map<String, Value>,
    name: &str,
    code: ErrorCode,
    range: std::ops::RangeInclusive<u64>,
    wrong: impl FnOnce(&Value) -> String,
) -> Result<u8, GameError> {
    let value = object.get(name).ok_or_else(|| {
        field_error(
            name,
            ErrorCode::InvalidFormat,
            format!("the move has no \"{name}\": expected {{\"row\": r, \"col\": c, \"size\": s}}"),
        )
    })?;
    match value.as_u64() {
        Some(v) if range.contains(&v) => Ok(v as u8),
        _ => Err(field_error(name, code, wrong(value))),
    }
}

/// Parses the JSON object form (0-based row and column); a `notation` field, if given, must agree.
pub fn parse_object(
    state: &State,
    object: &serde_json::Map<String, Value>,
) -> Result<Move, GameError> {
    let placement = ["row", "col", "size"];
    if let (Some(Value::String(text)), 1) = (object.get("notation"), object.len()) {
        return parse_typed(state, text)
            .map_err(|e| field_error("notation", e.code(), e.to_string()));
    }
    if let Some(key) = object
        .keys()
        .find(|k| !placement.contains(&k.as_str()) && *k != "notation")
    {
        return Err(error(
            ErrorCode::InvalidFormat,
            format!(
                "the move has an unknown field \"{key}\": expected row, col, size (and notation)"
            ),
        ));
    }
    let grid = state.grid();
    let last = grid as u64 - 1;
    let row = field(object, "row", ErrorCode::InvalidRow, 0..=last, |got| {
        off_board(Form::Object, "row", grid, got)
    })?;
    let col = field(object, "col", ErrorCode::InvalidColumn, 0..=last, |got| {
        off_board(Form::Object, "col", grid, got)
    })?;
    let pieces = state.pieces();
    let size = field(
        object,
        "size",
        ErrorCode::InvalidSize,
        1..=pieces as u64,
        |got| no_such_size(pieces, got),
    )?;
    let mv = Move { row, col, size };
    if let Some(given) = object.get("notation") {
        if given.as_str() != Some(notation(&mv).as_str()) {
            return Err(field_error(
                "notation",
                ErrorCode::InvalidFormat,
                format!(
                    "\"notation\" is {given} but row, col and size say \"{}\"",
                    notation(&mv)
                ),
            ));
        }
    }
    legal(state, mv, Form::Object)
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
            ErrorCode::InvalidFormat,
            format!(
                "\"notation\" is {}, but row, col and size all null make a pass (\"pass\")",
                notation.unwrap_or(&Value::Null)
            ),
        )),
        _ => Err(error(
            ErrorCode::InvalidFormat,
            "a pass has row, col and size all null; a placement has none of them null",
        )),
    }
}

/// Parses a move given as typed notation (or `pass`) or as a JSON object,
/// and checks that it is legal in `state`.
pub fn parse(state: &State, value: &Value) -> Result<Play, GameError> {
    match value {
        Value::String(text) if text.trim().eq_ignore_ascii_case(PASS) => checked_pass(state),
        Value::String(text) => parse_typed(state, text)
            .map(Play::Place)
            .map_err(|e| hint_pass(state, e)),
        Value::Object(object) if is_pass_object(object)? => checked_pass(state),
        Value::Object(object) => parse_object(state, object)
            .map(Play::Place)
            .map_err(|e| hint_pass(state, e)),
        other => Err(error(
            ErrorCode::InvalidFormat,
            format!("a move is a string like \"2 2 5\" or \"pass\", or an object {{\"row\", \"col\", \"size\"}}, not {other}"),
        )),
    }
}

/// A Naughts move as JSON: what the game writes, and the schema the API's
/// contract publishes as `NaughtsMove`. A request may send this object or
/// just its notation.
#[derive(serde::Serialize, schemars::JsonSchema)]
#[schemars(
    rename = "NaughtsMove",
    description = "A Fancy Naughts & Crosses move: a marker placed, or a pass. A request may send this object or just its notation."
)]
pub struct MoveJson {
    /// The row, 0-based from the top (the notation counts from 1); null
    /// for a pass.
    pub row: Option<usize>,
    /// The column, 0-based from the left (the notation counts from 1);
    /// null for a pass.
    pub col: Option<usize>,
    /// The marker's size, 1 to the state's `pieces`; null for a pass.
    pub size: Option<usize>,
    /// The move as a person types it: `row col size`, 1-based (`2 3 5`),
    /// or `pass` when the mover has no legal move and the opponent has one.
    pub notation: String,
}

impl From<&Play> for MoveJson {
    fn from(turn: &Play) -> Self {
        match turn {
            Play::Place(mv) => MoveJson {
                row: Some(mv.row.into()),
                col: Some(mv.col.into()),
                size: Some(mv.size.into()),
                notation: notation(mv),
            },
            Play::Pass => MoveJson {
                row: None,
                col: None,
                size: None,
                notation: PASS.to_string(),
            },
        }
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
