//! The state's outside forms: the JSON object and the legacy 9-line text.

use super::board::{square, BoardError, Color, State, PLY_LIMIT, SIZE};
use super::notation::square_name;
use crate::game::{location, GameError, TextParams};
use serde_json::Value;

/// The JSON state as read, before validation.
#[derive(Clone, Debug)]
pub struct RawState {
    /// The 9 rows.
    pub board: Vec<String>,
    /// `white` or `black`.
    pub to_move: String,
    /// Plies played, when known.
    pub ply: Option<u64>,
}

impl RawState {
    /// Reads the fields of a JSON state, naming the field at fault.
    pub fn from_json(value: &Value) -> Result<RawState, GameError> {
        let object = value.as_object().ok_or_else(|| {
            GameError::invalid_state(
                "the state must be an object {\"board\": [9 strings], \"to_move\": \"white\"|\"black\", \"ply\": n}",
            )
        })?;
        let rows = object
            .get("board")
            .and_then(Value::as_array)
            .ok_or_else(|| {
                GameError::invalid_state_at("/board", "\"board\" must be an array of 9 strings")
            })?;
        let mut board = Vec::with_capacity(rows.len());
        for (i, row) in rows.iter().enumerate() {
            let text = row.as_str().ok_or_else(|| {
                GameError::invalid_state_at(
                    format!("/board/{i}"),
                    format!("row {i} must be a string of 9 characters"),
                )
            })?;
            board.push(text.to_string());
        }
        let to_move = object
            .get("to_move")
            .and_then(Value::as_str)
            .ok_or_else(|| {
                GameError::invalid_state_at(
                    "/to_move",
                    "\"to_move\" must be \"white\" or \"black\"",
                )
            })?
            .to_string();
        let ply = match object.get("ply") {
            None | Some(Value::Null) => None,
            Some(v) => Some(v.as_u64().ok_or_else(|| {
                GameError::invalid_state_at(
                    "/ply",
                    format!("\"ply\" must be a whole number from 0 to {PLY_LIMIT}"),
                )
            })?),
        };
        Ok(RawState {
            board,
            to_move,
            ply,
        })
    }
}

impl TryFrom<RawState> for State {
    type Error = GameError;

    fn try_from(raw: RawState) -> Result<State, GameError> {
        let to_move = Color::from_name(&raw.to_move).ok_or_else(|| {
            GameError::invalid_state_at(
                "/to_move",
                format!(
                    "\"to_move\" is {:?}; expected \"white\" or \"black\"",
                    raw.to_move
                ),
            )
        })?;
        let ply = match raw.ply {
            None => None,
            Some(p) if p <= PLY_LIMIT as u64 => Some(p as u32),
            Some(p) => {
                return Err(GameError::invalid_state_at(
                    "/ply",
                    format!("\"ply\" is {p}; the game ends at ply {PLY_LIMIT}, so it must be from 0 to {PLY_LIMIT}"),
                ))
            }
        };
        if let Some(ply) = ply {
            check_ply_parity(ply, to_move)?;
        }
        State::from_rows(&raw.board, to_move, ply).map_err(json_board_error)
    }
}

/// White moves at even plies and black at odd ones, so a `ply` whose parity
/// disagrees with `to_move` describes no reachable game.
fn check_ply_parity(ply: u32, to_move: Color) -> Result<(), GameError> {
    let expected = if ply % 2 == 0 {
        Color::White
    } else {
        Color::Black
    };
    if to_move == expected {
        return Ok(());
    }
    Err(GameError::invalid_state_at(
        "/ply",
        format!(
            "\"ply\" is {ply} but \"to_move\" is \"{}\": white moves at even plies and black at odd ones, so at ply {ply} it is {}'s turn",
            to_move.name(),
            expected.name()
        ),
    ))
}

/// A board error in JSON terms: a pointer to the row, 0-based row and column.
fn json_board_error(error: BoardError) -> GameError {
    match (error.row, error.col) {
        (Some(row), Some(col)) => GameError::invalid_state_at(
            format!("/board/{row}"),
            format!(
                "{}: {}",
                location::json_cell(
                    row,
                    col,
                    &format!("square {}", square_name(square(row, col)))
                ),
                error.detail
            ),
        ),
        (Some(row), None) => GameError::invalid_state_at(
            format!("/board/{row}"),
            format!("{}: {}", location::json_row(row), error.detail),
        ),
        _ => GameError::invalid_state_at("/board", format!("board: {}", error.detail)),
    }
}

/// Reads and validates a JSON state.
pub fn state_from_json(value: &Value) -> Result<State, GameError> {
    State::try_from(RawState::from_json(value)?)
}

/// The JSON form of a state (`ply` only when known).
pub fn state_to_json(state: &State) -> Value {
    let form = StateJson {
        board: (0..SIZE).map(|row| state.row_text(row)).collect(),
        to_move: match state.to_move() {
            Color::White => SideJson::White,
            Color::Black => SideJson::Black,
        },
        ply: state.ply(),
    };
    serde_json::to_value(form).expect("a state always serializes")
}

/// An Advance state as JSON: what [`state_to_json`] writes, and the schema
/// the API's contract publishes as `AdvanceState`.
#[derive(serde::Serialize, schemars::JsonSchema)]
#[schemars(
    rename = "AdvanceState",
    description = "An Advance position: the board, the side to move and the plies played."
)]
pub struct StateJson {
    /// The 9 rows of the text board, row 0 (black's side) first, each 9
    /// characters: white's pieces in capitals (`Z` zombie, `B` builder,
    /// `J` jester, `M` miner, `S` sentinel, `C` catapult, `D` dragon, `G`
    /// general), black's in lower case, `#` a wall, `.` an empty square.
    #[schemars(
        length(min = 9, max = 9),
        inner(regex(pattern = r"^[ZBJMSCDGzbjmscdg.#]{9}$"))
    )]
    pub board: Vec<String>,
    /// The side to move.
    pub to_move: SideJson,
    /// Plies played so far (0 at the start); absent when unknown, and then
    /// the 200-ply limit is not applied.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ply: Option<u32>,
}

/// A side as Advance's JSON names it.
#[derive(Clone, Copy, Debug, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
#[schemars(rename = "AdvanceSide")]
pub enum SideJson {
    /// White, who moves first, from the bottom of the text board.
    White,
    /// Black.
    Black,
}

/// Splits the text form into its lines: one final newline is allowed, and
/// CRLF endings. Errors name the (1-based) line.
fn text_lines(text: &str) -> Result<Vec<&str>, String> {
    let body = text
        .strip_suffix("\r\n")
        .or_else(|| text.strip_suffix('\n'))
        .unwrap_or(text);
    let lines: Vec<&str> = body
        .split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .collect();
    if text.is_empty() {
        return Err(format!(
            "line 1: the board is empty; expected {SIZE} lines of {SIZE} characters"
        ));
    }
    if lines.len() < SIZE {
        return Err(format!(
            "line {}: the board ends after {}; expected {SIZE} lines of {SIZE} characters",
            lines.len() + 1,
            location::plural(lines.len(), "line")
        ));
    }
    if lines.len() > SIZE {
        return Err(format!(
            "line {}: too many lines ({}); a board has exactly {SIZE} lines",
            SIZE + 1,
            lines.len()
        ));
    }
    Ok(lines)
}

/// Reads the 9-line text board. Errors name the 1-based line and column.
pub fn parse_board_text(text: &str, to_move: Color, ply: Option<u32>) -> Result<State, String> {
    let lines = text_lines(text)?;
    State::from_rows(&lines, to_move, ply).map_err(|error| match (error.row, error.col) {
        (Some(row), Some(col)) => format!("line {}, column {}: {}", row + 1, col + 1, error.detail),
        (Some(row), None) => format!("line {}: {}", row + 1, error.detail),
        _ => error.detail,
    })
}

/// Reads a text request: the board in the body, `to_move` (required) and
/// `ply` (optional) from the query.
pub fn parse_text_request(body: &str, query: &TextParams) -> Result<State, GameError> {
    let to_move = match query.get("to_move") {
        Some(name) => Color::from_name(name).ok_or_else(|| {
            GameError::invalid_state_at(
                "/to_move",
                format!("to_move={name}: expected white or black"),
            )
        })?,
        _ => {
            return Err(GameError::invalid_state_at(
                "/to_move",
                "the text form needs the query parameter to_move=white or to_move=black",
            ))
        }
    };
    let ply = match query.get("ply") {
        None => None,
        Some(text) => match text.parse::<u32>() {
            Ok(p) if p <= PLY_LIMIT => Some(p),
            _ => {
                return Err(GameError::invalid_state_at(
                    "/ply",
                    format!("ply={text}: expected a whole number from 0 to {PLY_LIMIT}"),
                ))
            }
        },
    };
    parse_board_text(body, to_move, ply)
        .map_err(|detail| GameError::invalid_state_at("/board", detail))
}
