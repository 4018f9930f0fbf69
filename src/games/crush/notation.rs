//! Swaps: the one kind of move, its notation (`2122`) and its JSON form.

use super::board::SIDE;
use crate::game::GameError;
use serde_json::Value;

/// Every distinct swap: 90 horizontal and 90 vertical neighbour pairs.
pub const SWAP_COUNT: usize = 2 * SIDE * (SIDE - 1);

/// A swap as JSON: what [`Swap::to_json`] writes, and the schema the API's
/// contract publishes as `CrushMove`. A request may send this object or
/// just its notation.
#[derive(serde::Serialize, schemars::JsonSchema)]
#[schemars(
    rename = "CrushMove",
    description = "A swap of two adjacent cells. A request may send this object or just its notation."
)]
pub struct MoveJson {
    /// The first cell as two digits, row then column, 0-based from the top
    /// left (`"21"`: row 2, column 1).
    #[schemars(regex(pattern = r"^[0-9]{2}$"))]
    pub a: String,
    /// The adjacent cell it swaps with, the same way.
    #[schemars(regex(pattern = r"^[0-9]{2}$"))]
    pub b: String,
    /// The swap as a person types it: both cells, `2122`.
    #[schemars(regex(pattern = r"^[0-9]{4}$"))]
    pub notation: String,
}

/// A swap of two adjacent cells, stored with the smaller index first, so
/// `2122` and `2221` are the same move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Swap {
    a: u8,
    b: u8,
}

/// Every swap in position order (by first cell, then second): the order
/// `legal_moves` lists them and the order bots break ties in.
pub static ALL_SWAPS: [Swap; SWAP_COUNT] = all_swaps();

const fn all_swaps() -> [Swap; SWAP_COUNT] {
    let mut out = [Swap { a: 0, b: 0 }; SWAP_COUNT];
    let mut n = 0;
    let mut i = 0;
    while i < SIDE * SIDE {
        if i % SIDE + 1 < SIDE {
            out[n] = Swap {
                a: i as u8,
                b: i as u8 + 1,
            };
            n += 1;
        }
        if i / SIDE + 1 < SIDE {
            out[n] = Swap {
                a: i as u8,
                b: (i + SIDE) as u8,
            };
            n += 1;
        }
        i += 1;
    }
    out
}

impl Swap {
    /// The swap of cells `a` and `b` (indices `row * 10 + col`, either order),
    /// or why it is not a valid swap.
    pub fn new(a: usize, b: usize) -> Result<Swap, GameError> {
        let cells = SIDE * SIDE;
        if a >= cells || b >= cells {
            return Err(GameError::illegal_move(format!(
                "cell {} is off the board: cells are 00 to 99",
                if a >= cells { a } else { b }
            )));
        }
        if a == b {
            return Err(GameError::illegal_move(format!(
                "a swap needs two different cells; both are {a:02}"
            )));
        }
        let (lo, hi) = (a.min(b), a.max(b));
        let beside = hi == lo + 1 && lo % SIDE + 1 < SIDE;
        let below = hi == lo + SIDE;
        if !(beside || below) {
            return Err(GameError::illegal_move(format!(
                "cells {a:02} and {b:02} are not adjacent: a swap takes two neighbours in a row or a column"
            )));
        }
        Ok(Swap {
            a: lo as u8,
            b: hi as u8,
        })
    }

    /// The top or left cell.
    pub fn a(self) -> usize {
        usize::from(self.a)
    }

    /// The bottom or right cell.
    pub fn b(self) -> usize {
        usize::from(self.b)
    }

    /// The four-digit notation, `2122`.
    pub fn notation(self) -> String {
        format!("{:02}{:02}", self.a, self.b)
    }

    /// The JSON object `{"a": "21", "b": "22", "notation": "2122"}`.
    pub fn to_json(self) -> Value {
        let form = MoveJson {
            a: format!("{:02}", self.a),
            b: format!("{:02}", self.b),
            notation: self.notation(),
        };
        serde_json::to_value(form).expect("a swap always serializes")
    }

    /// Reads a swap given as its notation string or JSON object.
    pub fn from_json(value: &Value) -> Result<Swap, GameError> {
        match value {
            Value::String(text) => Swap::parse_notation(text),
            Value::Object(map) if map.contains_key("a") || map.contains_key("b") => {
                let a = cell_field(map.get("a"), "a")?;
                let b = cell_field(map.get("b"), "b")?;
                let swap = Swap::new(a, b)?;
                if let Some(notation) = map.get("notation") {
                    let at_notation = |e: GameError| at_field("notation", e);
                    let named = match notation {
                        Value::String(text) => Swap::parse_notation(text).map_err(at_notation)?,
                        _ => return Err(at_notation(not_a_move("\"notation\" must be a string"))),
                    };
                    if named != swap {
                        return Err(at_notation(GameError::illegal_move(format!(
                            "\"notation\" {notation} names another swap than \"a\" and \"b\" ({})",
                            swap.notation()
                        ))));
                    }
                }
                Ok(swap)
            }
            Value::Object(map) => match map.get("notation") {
                Some(Value::String(text)) => Swap::parse_notation(text),
                _ => Err(not_a_move(
                    "the object has no \"a\" and \"b\" and no \"notation\"",
                )),
            },
            other => Err(not_a_move(&format!("got {other}"))),
        }
    }

    /// Reads the four-digit notation (surrounding spaces allowed).
    pub fn parse_notation(text: &str) -> Result<Swap, GameError> {
        let text = text.trim();
        if text.len() != 4 || !text.bytes().all(|c| c.is_ascii_digit()) {
            return Err(GameError::illegal_move(format!(
                "'{text}' is not four digits: write a swap as two cells RC, e.g. 2122"
            )));
        }
        let number: usize = text.parse().unwrap_or(0);
        Swap::new(number / 100, number % 100)
    }
}

/// The same error, pointing at field `name` of the move object.
fn at_field(name: &str, error: GameError) -> GameError {
    GameError::illegal_move_at(format!("/{name}"), error.to_string())
}

fn not_a_move(why: &str) -> GameError {
    GameError::illegal_move(format!(
        "a move is a four-digit string like \"2122\" or an object {{\"a\": \"21\", \"b\": \"22\"}}: {why}"
    ))
}

/// One cell of the object form: two digits as a string, `"21"` (a number
/// is refused, as the rules page says); an error points at the field.
fn cell_field(value: Option<&Value>, name: &str) -> Result<usize, GameError> {
    read_cell(value, name).map_err(|e| at_field(name, e))
}

fn read_cell(value: Option<&Value>, name: &str) -> Result<usize, GameError> {
    let off_board = |v: &Value| {
        GameError::illegal_move(format!(
            "cell \"{name}\" = {v} is off the board: cells are 00 to 99"
        ))
    };
    match value {
        None => Err(not_a_move(&format!("\"{name}\" is missing"))),
        Some(Value::String(text))
            if text.bytes().all(|c| c.is_ascii_digit()) && !text.is_empty() =>
        {
            if text.len() == 2 {
                Ok(text.parse().unwrap_or(0))
            } else {
                Err(off_board(value.unwrap()))
            }
        }
        Some(other) => Err(not_a_move(&format!(
            "cell \"{name}\" must be a string of two digits RC (row then column) such as \"21\", got {other}"
        ))),
    }
}

/// The swap one input word names, as the course's `scanf("%d")` read it: an
/// integer of at most four digits, optionally with a `+` (scanf accepts one),
/// whose leading zeros may be missing: `102` and `0102` are both the swap of
/// cells 01 and 02, `2122` the swap of cells 21 and 22. The swap itself must
/// still be valid (two distinct neighbouring cells).
///
/// Anything else is not a swap and gets the warning as one word, whatever it
/// holds: letters, a fifth digit (even a leading zero: `00102`), a minus
/// sign, a decimal point. This is where the program departs from what scanf
/// does character by character: scanf would read `12ab` as the number 12 and
/// then fail on `ab`, and read `-102` as a number whose check then fails. The
/// rules say that anything that is not an integer of at most four digits
/// warns and changes nothing, and playing the first half of a garbled word
/// would change the board on a typo, so the whole word is refused with one
/// warning and the prompt comes again.
pub fn swap_from_word(word: &str) -> Result<Swap, GameError> {
    let digits = word.strip_prefix('+').unwrap_or(word);
    let is_number = (1..=4).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit());
    let number: usize = match digits.parse() {
        Ok(number) if is_number => number,
        _ => return Err(not_a_swap(word)),
    };
    Swap::new(number / 100, number % 100)
}

/// The warning for a word that is not an integer of at most four digits.
fn not_a_swap(word: &str) -> GameError {
    GameError::illegal_move(format!(
        "'{word}' is not a swap: type two cells RC as a number of at most four digits, \
         e.g. 2122 (leading zeros may be left out: 102 is 0102)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn reason(value: Value) -> String {
        match Swap::from_json(&value) {
            Err(GameError::IllegalMove { code, detail, .. }) => {
                assert_eq!(code, crate::game::ErrorCode::IllegalMove);
                detail
            }
            other => panic!("expected an illegal move, got {other:?}"),
        }
    }

    #[test]
    fn lists_every_adjacent_pair_once_in_position_order() {
        assert_eq!(ALL_SWAPS.len(), 180);
        assert!(ALL_SWAPS.windows(2).all(|w| w[0] < w[1]));
        for swap in ALL_SWAPS {
            assert_eq!(Swap::new(swap.a(), swap.b()).unwrap(), swap);
        }
        assert_eq!(ALL_SWAPS[0].notation(), "0001");
        assert_eq!(ALL_SWAPS[1].notation(), "0010");
    }

    #[test]
    fn reads_notation_and_objects_in_either_order() {
        let swap = Swap::parse_notation("2122").unwrap();
        assert_eq!(
            swap.to_json(),
            json!({"a": "21", "b": "22", "notation": "2122"})
        );
        assert_eq!(Swap::from_json(&json!("2221")).unwrap(), swap);
        assert_eq!(
            Swap::from_json(&json!({"a": "22", "b": "21"})).unwrap(),
            swap
        );
        assert_eq!(Swap::from_json(&json!({"notation": "2122"})).unwrap(), swap);
        assert_eq!(Swap::from_json(&swap.to_json()).unwrap(), swap);
    }

    #[test]
    fn says_why_a_swap_is_invalid() {
        assert!(reason(json!("2124")).contains("not adjacent"));
        assert!(reason(json!("0910")).contains("not adjacent"));
        assert!(reason(json!("2121")).contains("two different cells"));
        assert!(reason(json!("212")).contains("not four digits"));
        assert!(reason(json!("21a2")).contains("not four digits"));
        assert!(reason(json!({"a": "21", "b": "100"})).contains("off the board"));
        assert!(reason(json!({"a": 21, "b": "22"})).contains("a string of two digits"));
        assert!(reason(json!({"a": "21"})).contains("\"b\" is missing"));
        assert!(reason(json!(2122)).contains("four-digit string"));
        assert!(reason(json!({"a": "21", "b": "22", "notation": "2131"})).contains("another swap"));
    }
}
