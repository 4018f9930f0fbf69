//! Moves: the move's notation (`d3`, `pass`) and JSON object,
//! reading a move back with the reason a move is not legal, and a game's
//! record (`f5d6c3`).

use super::board::{parse_square, square_name, Bits, Move};
use super::state::{side_name, State};
use super::Reversi;
use crate::game::record::{self, BadMove};
use crate::game::GameError;
use serde_json::Value;

/// A Reversi move as JSON: what [`Move::to_json`] writes, and the schema
/// the API's contract publishes as `ReversiMove`. A request may send this
/// object or just its notation.
#[derive(serde::Serialize, schemars::JsonSchema)]
#[schemars(
    rename = "ReversiMove",
    description = "A Reversi move: the square a disc goes on, or a pass. A request may send this object or just its notation."
)]
pub struct MoveJson {
    /// The square the disc goes on (`d3`: column a-h, row 1-8 from the
    /// top), or null for a pass, which is legal only when the mover has no
    /// other move and the opponent has one.
    #[schemars(regex(pattern = r"^[a-h][1-8]$"))]
    pub square: Option<String>,
    /// The move as a person types it: the square, or `pass`.
    pub notation: String,
}

impl Move {
    /// The move's notation: `d3` or `pass`.
    pub fn notation(self) -> String {
        match self {
            Move::Place(sq) => square_name(u32::from(sq)),
            Move::Pass => "pass".to_string(),
        }
    }

    /// The move's JSON object.
    pub fn to_json(self) -> Value {
        let form = MoveJson {
            square: match self {
                Move::Place(sq) => Some(square_name(u32::from(sq))),
                Move::Pass => None,
            },
            notation: self.notation(),
        };
        serde_json::to_value(form).expect("a move always serializes")
    }
}

impl State {
    /// Reads a move (notation string or JSON object) and checks that it is legal.
    pub fn parse_move(&self, value: &Value) -> Result<Move, GameError> {
        let mv = read_move(value)?;
        self.check_legal(mv)?;
        Ok(mv)
    }

    fn check_legal(&self, mv: Move) -> Result<(), GameError> {
        let board = self.board();
        let moves = board.moves();
        let side = side_name(self.to_move);
        match mv {
            Move::Pass if moves == 0 => Ok(()),
            Move::Pass => Err(GameError::illegal_move(format!(
                "{side} cannot pass: a pass is legal only without another move, and {side} has {} ({})",
                moves.count_ones(),
                list_squares(moves)
            ))),
            Move::Place(sq) => {
                let bit = 1u64 << sq;
                let name = square_name(u32::from(sq));
                if moves & bit != 0 {
                    Ok(())
                } else if (board.me | board.opp) & bit != 0 {
                    Err(GameError::illegal_move(format!("{name} is already occupied")))
                } else if moves == 0 {
                    Err(GameError::illegal_move(format!(
                        "{side} has no legal move and must pass"
                    )))
                } else {
                    Err(GameError::illegal_move(format!(
                        "{name} flips no {} disc; {side} may play {}",
                        side_name(self.to_move.other()),
                        list_squares(moves)
                    )))
                }
            }
        }
    }
}

/// The squares of `bits` as notation, comma-separated.
fn list_squares(bits: u64) -> String {
    Bits(bits).map(square_name).collect::<Vec<_>>().join(", ")
}

/// Reads a move's form without checking legality.
fn read_move(value: &Value) -> Result<Move, GameError> {
    match value {
        Value::String(text) => read_notation(text),
        Value::Object(map) => {
            let notation = match map.get("notation") {
                None => None,
                Some(Value::String(text)) => Some(read_notation(text).map_err(|e| at_field("notation", e))?),
                Some(other) => {
                    return Err(GameError::illegal_move_at(
                        "/notation",
                        format!("move field 'notation' must be a square name such as \"d3\" or \"pass\", not {other}"),
                    ))
                }
            };
            let square = match map.get("square") {
                None => None,
                Some(Value::Null) => Some(Move::Pass),
                Some(Value::String(text)) => Some(read_square(text).map_err(|e| at_field("square", e))?),
                Some(other) => {
                    return Err(GameError::illegal_move_at(
                        "/square",
                        format!("move field 'square' must be a square name such as \"d3\" or null for a pass, not {other}"),
                    ))
                }
            };
            match (square, notation) {
                (Some(square), Some(named)) if named != square => Err(GameError::illegal_move_at(
                    "/notation",
                    format!("move field 'notation' names another move than 'square' ({})", square.notation()),
                )),
                (Some(mv), _) | (None, Some(mv)) => Ok(mv),
                (None, None) => Err(GameError::illegal_move(
                    "a move object needs 'square' (\"d3\", or null for a pass) or 'notation'",
                )),
            }
        }
        other => Err(GameError::illegal_move(format!(
            "a move is a notation string (\"d3\", \"pass\") or an object {{\"square\": \"d3\"}}, not {other}"
        ))),
    }
}

/// The same error, pointing at field `name` of the move object.
fn at_field(name: &str, error: GameError) -> GameError {
    GameError::illegal_move_at(format!("/{name}"), error.to_string())
}

fn read_notation(text: &str) -> Result<Move, GameError> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("pass") {
        Ok(Move::Pass)
    } else {
        read_square(text)
    }
}

fn read_square(text: &str) -> Result<Move, GameError> {
    parse_square(text.trim())
        .map(|sq| Move::Place(sq as u8))
        .ok_or_else(|| {
            GameError::illegal_move(format!(
                "'{text}' is not a square: expected a column a-h and a row 1-8, such as \"d3\", or \"pass\""
            ))
        })
}

/// A game's record: the squares played, concatenated (`f5d6c3d3c4`), with
/// the passes left out, since a pass is never a choice.
pub fn write_record(moves: &[Move]) -> String {
    moves
        .iter()
        .filter(|mv| **mv != Move::Pass)
        .map(|mv| mv.notation())
        .collect()
}

/// Reads a record written by [`write_record`] from `start`: squares of two
/// characters each, in either case, whitespace anywhere ignored. Where the
/// side to move has no legal move but the opponent has, the pass is put in
/// before the next square. A bad square's index counts the squares only.
pub fn read_record(start: &State, record: &str) -> Result<Vec<Move>, BadMove> {
    let letters: Vec<char> = record.chars().filter(|c| !c.is_whitespace()).collect();
    let mut state = *start;
    let mut moves = Vec::new();
    for (index, square) in letters.chunks(2).enumerate() {
        let text: String = square.iter().collect();
        let board = state.board();
        if board.moves() == 0 && board.opp_moves() != 0 {
            moves.push(Move::Pass);
            state = state.apply(Move::Pass);
        }
        let mv = record::read_move::<Reversi>(&state, index, &Value::String(text))?;
        state = state.apply(mv);
        moves.push(mv);
    }
    Ok(moves)
}
