//! The validated [`State`] and its outside forms: the JSON object and the
//! legacy 9-line text.

use super::board::{
    from_char, kind, owner, square, square_name, to_char, value, BoardError, Color,
    BLACK_TO_MOVE_KEY, BOARD_CHARS, CELLS, EMPTY, GENERAL, NOBODY, OFF, PLY_LIMIT, SIZE, SQUARES,
    ZOBRIST,
};
use crate::game::{location, GameError, TextParams};
use serde_json::Value;
use std::fmt;

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
    query.only(&["to_move", "ply"])?;
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
    if let Some(ply) = ply {
        check_ply_parity(ply, to_move)?;
    }
    parse_board_text(body, to_move, ply)
        .map_err(|detail| GameError::invalid_state_at("/board", detail))
}

/// A validated Advance position: the board, the side to move, and the ply
/// count when known. At most one General per colour.
#[derive(Clone)]
pub struct State {
    pub(crate) cells: [u8; CELLS],
    pub(crate) to_move: Color,
    pub(crate) ply: Option<u32>,
    /// Padded square of each side's General, 0 when it has none.
    pub(crate) generals: [u8; 2],
    /// Material of each side.
    pub(crate) material: [i32; 2],
    /// Zobrist hash of the board and side to move.
    pub(crate) hash: u64,
}

impl PartialEq for State {
    fn eq(&self, other: &State) -> bool {
        self.cells == other.cells && self.to_move == other.to_move && self.ply == other.ply
    }
}

impl Eq for State {}

impl fmt::Debug for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} to move, ply {:?}", self.to_move.name(), self.ply)?;
        f.write_str(&self.to_text())
    }
}

/// The starting position.
pub const START: [&str; SIZE] = [
    "mjdsgscjm",
    "bzzzzzzzb",
    ".........",
    ".........",
    ".........",
    ".........",
    ".........",
    "BZZZZZZZB",
    "MJCSGSDJM",
];

impl State {
    /// The starting position, white to move at ply 0.
    pub fn start() -> State {
        State::from_rows(&START, Color::White, Some(0)).expect("the start position is valid")
    }

    /// Builds a state from 9 rows of 9 characters, checking every cell and
    /// that no colour has two Generals.
    pub fn from_rows<R: AsRef<str>>(
        rows: &[R],
        to_move: Color,
        ply: Option<u32>,
    ) -> Result<State, BoardError> {
        if rows.len() != SIZE {
            return Err(BoardError {
                row: None,
                col: None,
                detail: format!("a board has {SIZE} rows, found {}", rows.len()),
            });
        }
        let mut state = State {
            cells: [OFF; CELLS],
            to_move,
            ply,
            generals: [0, 0],
            material: [0, 0],
            hash: 0,
        };
        for (row, text) in rows.iter().enumerate() {
            state.read_row(row, text.as_ref())?;
        }
        state.hash = state.full_hash();
        Ok(state)
    }

    fn read_row(&mut self, row: usize, text: &str) -> Result<(), BoardError> {
        let count = text.chars().count();
        if count != SIZE {
            return Err(BoardError {
                row: Some(row),
                col: None,
                detail: format!("expected {SIZE} characters, found {count}"),
            });
        }
        for (col, ch) in text.chars().enumerate() {
            let Some(cell) = from_char(ch) else {
                return Err(BoardError {
                    row: Some(row),
                    col: Some(col),
                    detail: format!("unexpected character {ch:?}; expected one of {BOARD_CHARS}"),
                });
            };
            let sq = square(row, col);
            self.cells[sq] = cell;
            if owner(cell) != NOBODY {
                let side = owner(cell) as usize;
                self.material[side] += value(cell);
                if kind(cell) == GENERAL {
                    self.add_general(side, sq, row, col)?;
                }
            }
        }
        Ok(())
    }

    fn add_general(
        &mut self,
        side: usize,
        sq: usize,
        row: usize,
        col: usize,
    ) -> Result<(), BoardError> {
        let first = self.generals[side] as usize;
        if first != 0 {
            let name = if side == 0 { "white" } else { "black" };
            return Err(BoardError {
                row: Some(row),
                col: Some(col),
                detail: format!(
                    "a second {name} General (the first is on {}); a board has at most one General per colour",
                    square_name(first)
                ),
            });
        }
        self.generals[side] = sq as u8;
        Ok(())
    }

    /// The hash computed from scratch.
    pub(crate) fn full_hash(&self) -> u64 {
        let mut hash = if self.to_move == Color::Black {
            BLACK_TO_MOVE_KEY
        } else {
            0
        };
        for &sq in SQUARES.iter() {
            let cell = self.cells[sq as usize];
            if cell != EMPTY {
                hash ^= ZOBRIST[sq as usize][cell as usize];
            }
        }
        hash
    }

    /// Puts `cell` on `sq`, keeping hash, material and General squares in step.
    #[inline]
    pub(crate) fn put(&mut self, sq: usize, cell: u8) {
        let old = self.cells[sq];
        if old != EMPTY {
            self.hash ^= ZOBRIST[sq][old as usize];
            if owner(old) != NOBODY {
                self.material[owner(old) as usize] -= value(old);
            }
        }
        if cell != EMPTY {
            self.hash ^= ZOBRIST[sq][cell as usize];
            if owner(cell) != NOBODY {
                self.material[owner(cell) as usize] += value(cell);
                if kind(cell) == GENERAL {
                    self.generals[owner(cell) as usize] = sq as u8;
                }
            }
        }
        self.cells[sq] = cell;
    }

    /// Passes the turn to the other side (and counts the ply when known).
    pub(crate) fn pass_turn(&mut self) {
        self.to_move = self.to_move.other();
        self.hash ^= BLACK_TO_MOVE_KEY;
        self.ply = self.ply.map(|p| p.saturating_add(1));
    }

    /// The side to move.
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// The number of plies played, when known.
    pub fn ply(&self) -> Option<u32> {
        self.ply
    }

    /// The cell code at a board row and column.
    pub(crate) fn at(&self, row: usize, col: usize) -> u8 {
        self.cells[square(row, col)]
    }

    /// The character at a board row and column.
    pub fn char_at(&self, row: usize, col: usize) -> char {
        to_char(self.at(row, col))
    }

    /// A side's material (the sum of its piece values).
    pub fn material(&self, side: Color) -> i32 {
        self.material[side.index()]
    }

    /// Whether the material rule has ended the game (ply known and 200 reached).
    pub fn ply_limit_reached(&self) -> bool {
        self.ply.is_some_and(|p| p >= PLY_LIMIT)
    }

    /// One row of the board as text.
    pub fn row_text(&self, row: usize) -> String {
        (0..SIZE).map(|col| self.char_at(row, col)).collect()
    }

    /// The 9-line text form, each line ending with `\n`.
    pub fn to_text(&self) -> String {
        let mut text = String::with_capacity(SIZE * (SIZE + 1));
        for row in 0..SIZE {
            text.push_str(&self.row_text(row));
            text.push('\n');
        }
        text
    }
}
