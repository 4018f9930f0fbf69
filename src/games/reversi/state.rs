//! The validated state and its JSON and text forms.

use super::board::{square_name, transform_bits, Board, Move};
use crate::game::{location, GameError, Side, Symmetry, TextParams};
use serde::Deserialize;
use serde_json::Value;

/// A Reversi state as JSON: what [`State::to_json`] writes, and the
/// schema the API's contract publishes as `ReversiState`.
#[derive(serde::Serialize, schemars::JsonSchema)]
#[schemars(
    rename = "ReversiState",
    description = "A Reversi position: the board and the side to move."
)]
pub struct StateJson {
    /// The 8 rows, row 1 first, each 8 characters from column a to h:
    /// `B` a black disc, `W` a white disc, `.` an empty square.
    #[schemars(length(min = 8, max = 8), inner(regex(pattern = r"^[BW.]{8}$")))]
    pub board: Vec<String>,
    /// The side to move.
    pub to_move: SideJson,
}

/// A side as Reversi's JSON names it.
#[derive(Clone, Copy, Debug, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
#[schemars(rename = "ReversiSide")]
pub enum SideJson {
    /// Black, who moves first.
    Black,
    /// White.
    White,
}

/// A Reversi position: the discs of each colour and whose turn it is. Any
/// arrangement of discs is a valid position (the rules are defined on all of them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Black's discs (bit 0 = a1, row-major).
    pub(super) black: u64,
    /// White's discs.
    pub(super) white: u64,
    /// Whose turn it is (`First` = black).
    pub(super) to_move: Side,
}

impl State {
    /// The standard starting position, black to move.
    pub fn start() -> Self {
        State::from_board(Board::start(), Side::First)
    }

    /// The state with `board` seen from `to_move`.
    pub fn from_board(board: Board, to_move: Side) -> Self {
        match to_move {
            Side::First => State {
                black: board.me,
                white: board.opp,
                to_move,
            },
            Side::Second => State {
                black: board.opp,
                white: board.me,
                to_move,
            },
        }
    }

    /// The position seen from the side to move.
    pub fn board(&self) -> Board {
        match self.to_move {
            Side::First => Board::new(self.black, self.white),
            Side::Second => Board::new(self.white, self.black),
        }
    }

    /// The 8 board lines, row 1 first.
    pub fn lines(&self) -> Vec<String> {
        (0..8)
            .map(|row| {
                (0..8)
                    .map(|col| {
                        let bit = 1u64 << (row * 8 + col);
                        if self.black & bit != 0 {
                            'B'
                        } else if self.white & bit != 0 {
                            'W'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// The key its symmetric twins are ordered by: a byte a square, row
    /// by row from a1, an empty square before a black disc before a white
    /// one, so that twins sort as their JSON forms do (the canonical twin
    /// of a position is the one it always was); the side to move last,
    /// which twins share.
    pub fn twin_key(&self) -> Vec<u8> {
        let squares = (0..64).map(|square| {
            let bit = 1u64 << square;
            u8::from(self.black & bit != 0) + 2 * u8::from(self.white & bit != 0)
        });
        squares.chain([self.to_move.index() as u8]).collect()
    }

    /// The state's JSON form.
    pub fn to_json(&self) -> Value {
        let form = StateJson {
            board: self.lines(),
            to_move: match self.to_move {
                Side::First => SideJson::Black,
                Side::Second => SideJson::White,
            },
        };
        serde_json::to_value(form).expect("a state always serializes")
    }

    /// The state turned by a symmetry of the board: the same position for
    /// the rules, its discs on the turned squares.
    pub fn transformed(&self, symmetry: Symmetry) -> State {
        State {
            black: transform_bits(self.black, symmetry),
            white: transform_bits(self.white, symmetry),
            to_move: self.to_move,
        }
    }

    /// The state after a legal move.
    pub fn apply(&self, mv: Move) -> State {
        let board = self.board();
        let next = match mv {
            Move::Place(sq) => board.play(u32::from(sq)),
            Move::Pass => board.pass(),
        };
        State::from_board(next, self.to_move.other())
    }

    /// Every legal move: the squares in row-major order, or a lone pass, or
    /// nothing when the game is over.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        let board = self.board();
        let moves = board.moves();
        if moves != 0 {
            out.extend(super::board::Bits(moves).map(|sq| Move::Place(sq as u8)));
        } else if board.opp_moves() != 0 {
            out.push(Move::Pass);
        }
    }
}

/// The name of a side in states and outcomes.
pub fn side_name(player: Side) -> &'static str {
    match player {
        Side::First => "black",
        Side::Second => "white",
    }
}

/// Reads `black` / `white`.
fn parse_side(text: &str) -> Option<Side> {
    match text {
        "black" => Some(Side::First),
        "white" => Some(Side::Second),
        _ => None,
    }
}

/// The state's JSON form as read, before validation: its two fields, each
/// any JSON value, which [`State::try_from`] checks with errors that point
/// at the field, row and square at fault.
#[derive(Clone, Debug, Deserialize)]
pub struct RawState {
    /// The 8 rows, to be 8 strings of `B`, `W` and `.`.
    pub board: Value,
    /// The side to move, to be `"black"` or `"white"`.
    pub to_move: Value,
}

impl RawState {
    /// Reads the fields of a JSON state, naming the one missing.
    pub fn from_json(value: &Value) -> Result<RawState, GameError> {
        if !value.is_object() {
            return Err(GameError::invalid_state(format!(
                "a reversi state is an object {{\"board\": [8 strings], \"to_move\": \"black\"|\"white\"}}, not {value}"
            )));
        }
        RawState::deserialize(value).map_err(|e| {
            let missing = if value.get("board").is_none() {
                "board"
            } else {
                "to_move"
            };
            GameError::invalid_state_at(format!("/{missing}"), format!("{e}"))
        })
    }
}

impl TryFrom<&Value> for State {
    type Error = GameError;

    fn try_from(value: &Value) -> Result<State, GameError> {
        State::try_from(RawState::from_json(value)?)
    }
}

impl TryFrom<RawState> for State {
    type Error = GameError;

    fn try_from(raw: RawState) -> Result<State, GameError> {
        let to_move = raw.to_move.as_str().and_then(parse_side).ok_or_else(|| {
            GameError::invalid_state_at(
                "/to_move",
                format!(
                    "to_move must be \"black\" or \"white\", not {}",
                    raw.to_move
                ),
            )
        })?;
        let Value::Array(rows) = &raw.board else {
            return Err(GameError::invalid_state_at(
                "/board",
                format!("board must be an array of 8 strings, not {}", raw.board),
            ));
        };
        if rows.len() != 8 {
            return Err(GameError::invalid_state_at(
                "/board",
                format!("board must have 8 rows, not {}", rows.len()),
            ));
        }
        let mut lines = Vec::with_capacity(8);
        for (i, row) in rows.iter().enumerate() {
            let text = row.as_str().ok_or_else(|| {
                GameError::invalid_state_at(
                    format!("/board/{i}"),
                    format!(
                        "{} must be a string of 8 characters B, W or ., not {row}",
                        location::json_row(i)
                    ),
                )
            })?;
            lines.push(text);
        }
        let (black, white) = discs_from_lines(&lines).map_err(|e| {
            let place = match e.col {
                Some(col) => location::json_cell(
                    e.row,
                    col,
                    &format!("square {}", square_name((e.row * 8 + col) as u32)),
                ),
                None => location::json_row(e.row),
            };
            GameError::invalid_state_at(
                format!("/board/{}", e.row),
                format!("{place}: {}", e.detail),
            )
        })?;
        Ok(State {
            black,
            white,
            to_move,
        })
    }
}

/// A fault in a board line: which row and column (0-based; no column when
/// the whole line is at fault) and what is wrong. The JSON and text readers
/// add the place in their own numbering.
struct LineError {
    row: usize,
    col: Option<usize>,
    detail: String,
}

/// Reads 8 lines of `B`, `W` and `.` into black's and white's discs.
fn discs_from_lines(lines: &[&str]) -> Result<(u64, u64), LineError> {
    let (mut black, mut white) = (0u64, 0u64);
    for (row, line) in lines.iter().enumerate() {
        let count = line.chars().count();
        if count != 8 {
            return Err(LineError {
                row,
                col: None,
                detail: format!(
                    "the row has {}, expected 8 (B, W or .)",
                    location::plural(count, "character")
                ),
            });
        }
        for (col, ch) in line.chars().enumerate() {
            let bit = 1u64 << (row * 8 + col);
            match ch {
                'B' => black |= bit,
                'W' => white |= bit,
                '.' => {}
                other => {
                    return Err(LineError {
                        row,
                        col: Some(col),
                        detail: format!("'{other}' is not B, W or ."),
                    })
                }
            }
        }
    }
    Ok((black, white))
}

/// Parses the text form: 8 lines of `B`/`W`/`.` (CRLF and final newlines
/// allowed) with `to_move` taken from the query (`?to_move=black`).
pub fn parse_text(body: &str, query: &TextParams) -> Result<State, GameError> {
    query.only(&["to_move"])?;
    let to_move = match query.get("to_move") {
        None => return Err(GameError::invalid_state(
            "the text form needs the side to move in the query: ?to_move=black or ?to_move=white",
        )),
        Some(value) => parse_side(value).ok_or_else(|| {
            GameError::invalid_state(format!("to_move must be black or white, not {value}"))
        })?,
    };
    let body = body.trim_end_matches(['\r', '\n']);
    let lines: Vec<&str> = body
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    if lines.len() != 8 {
        return Err(GameError::invalid_state(format!(
            "the board must have 8 lines of 8 characters (B, W or .), found {}",
            location::plural(lines.len(), "line")
        )));
    }
    let (black, white) = discs_from_lines(&lines).map_err(|e| {
        let place = match e.col {
            Some(col) => location::text_cell(e.row, col),
            None => location::text_line(e.row),
        };
        GameError::invalid_state(format!("{place}: {}", e.detail))
    })?;
    Ok(State {
        black,
        white,
        to_move,
    })
}

/// The board as 8 lines of text, each ending with a newline.
pub fn to_text(state: &State) -> String {
    state.lines().into_iter().map(|l| l + "\n").collect()
}
