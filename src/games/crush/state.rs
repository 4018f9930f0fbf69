//! The game state and its JSON form. The raw form is read field by field so
//! that every error names its place; `TryFrom<RawState>` checks the rules, so
//! a [`State`] in hand is always a position the game can reach.

use super::board::{Board, Runs, CELLS, SIDE};
use super::rng::TinyMt32;
use crate::game::{location, GameError};
use serde_json::{Map, Value};

/// Swaps in a whole game.
pub const SWAPS_PER_GAME: u8 = 100;
/// The smallest and largest number of digits.
pub const K_RANGE: std::ops::RangeInclusive<u8> = 4..=7;
/// The largest score a state may carry (far above any real game, and exact in a JSON double).
pub const MAX_SCORE: i64 = 1 << 50;

/// A validated position: a settled board of digits `1..=k`, the generator
/// that will refill it, the swaps still to play and the score so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// Digits run from 1 to `k` (4..=7).
    pub(super) k: u8,
    /// The board, with no run on it.
    pub(super) board: Board,
    /// The refill generator (never in its degenerate all-zero state).
    pub(super) rng: TinyMt32,
    /// Swaps still to play (0..=100); the game is over at 0.
    pub(super) swaps_left: u8,
    /// Points scored so far.
    pub(super) score: i64,
}

/// A Number Crush state as JSON: what [`State::to_json`] writes, and the
/// schema the API's contract publishes as `CrushState`.
#[derive(serde::Serialize, schemars::JsonSchema)]
#[schemars(
    rename = "CrushState",
    description = "A Number Crush position: the settled board, the refill generator, the swaps left and the score so far."
)]
pub struct StateJson {
    /// The digits in play run from 1 to `k` (4 to 7).
    #[schemars(range(min = 4, max = 7))]
    pub k: u8,
    /// The 10 rows, row 0 (the top) first, each 10 digits from 1 to `k`,
    /// settled: no run of three or more.
    #[schemars(length(min = 10, max = 10), inner(regex(pattern = r"^[1-9]{10}$")))]
    pub board: Vec<String>,
    /// The refill generator's four TinyMT32 state words (never all zero).
    pub rng: [u32; 4],
    /// Swaps still to play, 0 to 100; the game is over at 0.
    #[schemars(range(max = 100))]
    pub swaps_left: u8,
    /// Points scored so far.
    pub score: i64,
}

/// The state as read from JSON, before the rules are checked.
#[derive(Clone, Debug)]
pub struct RawState {
    /// `k` as given.
    pub k: u64,
    /// The rows as given.
    pub board: Vec<String>,
    /// The generator words as given.
    pub rng: Vec<u64>,
    /// `swaps_left` as given.
    pub swaps_left: u64,
    /// `score` as given.
    pub score: i64,
}

impl State {
    /// Digits run from 1 to `k` (4..=7).
    pub fn k(&self) -> u8 {
        self.k
    }

    /// The settled board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Swaps still to play (0..=100); the game is over at 0.
    pub fn swaps_left(&self) -> u8 {
        self.swaps_left
    }

    /// Points scored so far.
    pub fn score(&self) -> i64 {
        self.score
    }

    /// The JSON form: `{"k", "board", "rng", "swaps_left", "score"}`.
    pub fn to_json(&self) -> Value {
        let form = StateJson {
            k: self.k,
            board: (0..SIDE).map(|r| self.board.row_text(r)).collect(),
            rng: self.rng.status(),
            swaps_left: self.swaps_left,
            score: self.score,
        };
        serde_json::to_value(form).expect("a state always serializes")
    }

    /// Reads and validates a JSON state.
    pub fn from_json(value: &Value) -> Result<State, GameError> {
        State::try_from(RawState::from_json(value)?)
    }
}

impl RawState {
    /// Reads the fields and their JSON types; the rules are checked later.
    pub fn from_json(value: &Value) -> Result<RawState, GameError> {
        let Value::Object(map) = value else {
            return Err(GameError::invalid_state(
                "the state must be an object {\"k\", \"board\", \"rng\", \"swaps_left\", \"score\"}",
            ));
        };
        if let Some(key) = map
            .keys()
            .find(|k| !["k", "board", "rng", "swaps_left", "score"].contains(&k.as_str()))
        {
            return Err(GameError::invalid_state_at(
                format!("/{key}"),
                format!("unknown field '{key}': a state has k, board, rng, swaps_left and score"),
            ));
        }
        Ok(RawState {
            k: uint_field(map, "k")?,
            board: board_field(map)?,
            rng: rng_field(map)?,
            swaps_left: uint_field(map, "swaps_left")?,
            score: int_field(map, "score")?,
        })
    }
}

fn field<'a>(map: &'a Map<String, Value>, key: &str) -> Result<&'a Value, GameError> {
    map.get(key).ok_or_else(|| {
        GameError::invalid_state_at(format!("/{key}"), format!("'{key}' is missing"))
    })
}

fn uint_field(map: &Map<String, Value>, key: &str) -> Result<u64, GameError> {
    let value = field(map, key)?;
    value.as_u64().ok_or_else(|| {
        GameError::invalid_state_at(
            format!("/{key}"),
            format!("'{key}' must be a whole number ≥ 0, got {value}"),
        )
    })
}

fn int_field(map: &Map<String, Value>, key: &str) -> Result<i64, GameError> {
    let value = field(map, key)?;
    value.as_i64().ok_or_else(|| {
        GameError::invalid_state_at(
            format!("/{key}"),
            format!("'{key}' must be a whole number, got {value}"),
        )
    })
}

fn board_field(map: &Map<String, Value>) -> Result<Vec<String>, GameError> {
    let value = field(map, "board")?;
    let rows = value.as_array().ok_or_else(|| {
        GameError::invalid_state_at(
            "/board",
            format!("'board' must be an array of 10 strings, got {value}"),
        )
    })?;
    rows.iter()
        .enumerate()
        .map(|(r, row)| {
            row.as_str().map(str::to_string).ok_or_else(|| {
                GameError::invalid_state_at(
                    format!("/board/{r}"),
                    format!(
                        "{} must be a string of 10 digits, got {row}",
                        location::json_row(r)
                    ),
                )
            })
        })
        .collect()
}

fn rng_field(map: &Map<String, Value>) -> Result<Vec<u64>, GameError> {
    let value = field(map, "rng")?;
    let words = value.as_array().ok_or_else(|| {
        GameError::invalid_state_at(
            "/rng",
            format!("'rng' must be an array of 4 whole numbers, got {value}"),
        )
    })?;
    words
        .iter()
        .enumerate()
        .map(|(i, w)| {
            w.as_u64().ok_or_else(|| {
                GameError::invalid_state_at(
                    format!("/rng/{i}"),
                    format!("rng word {i} must be a whole number 0..=4294967295, got {w}"),
                )
            })
        })
        .collect()
}

impl TryFrom<RawState> for State {
    type Error = GameError;

    fn try_from(raw: RawState) -> Result<State, GameError> {
        let k = u8::try_from(raw.k)
            .ok()
            .filter(|k| K_RANGE.contains(k))
            .ok_or_else(|| {
                GameError::invalid_state_at("/k", format!("k must be 4, 5, 6 or 7, got {}", raw.k))
            })?;
        let board = parse_board(&raw.board, k)?;
        let rng = parse_rng(&raw.rng)?;
        let swaps_left = u8::try_from(raw.swaps_left)
            .ok()
            .filter(|&s| s <= SWAPS_PER_GAME)
            .ok_or_else(|| {
                GameError::invalid_state_at(
                    "/swaps_left",
                    format!("swaps_left must be 0..=100, got {}", raw.swaps_left),
                )
            })?;
        if !(0..=MAX_SCORE).contains(&raw.score) {
            return Err(GameError::invalid_state_at(
                "/score",
                format!("score must be 0..={MAX_SCORE}, got {}", raw.score),
            ));
        }
        Ok(State {
            k,
            board,
            rng,
            swaps_left,
            score: raw.score,
        })
    }
}

/// Reads 10 rows of 10 digits `1..=k` and checks that no run is left.
pub fn parse_board(rows: &[String], k: u8) -> Result<Board, GameError> {
    if rows.len() != SIDE {
        return Err(GameError::invalid_state_at(
            "/board",
            format!("the board must have 10 rows, got {}", rows.len()),
        ));
    }
    let mut cells = [0u8; CELLS];
    for (r, row) in rows.iter().enumerate() {
        let pointer = format!("/board/{r}");
        let chars: Vec<char> = row.chars().collect();
        if chars.len() != SIDE {
            return Err(GameError::invalid_state_at(
                pointer,
                format!(
                    "{} must have 10 digits, got {}: '{row}'",
                    location::json_row(r),
                    location::plural(chars.len(), "character")
                ),
            ));
        }
        for (c, ch) in chars.into_iter().enumerate() {
            let digit = ch
                .to_digit(10)
                .filter(|d| (1..=u32::from(k)).contains(d))
                .ok_or_else(|| {
                    GameError::invalid_state_at(
                        pointer.clone(),
                        format!(
                            "{} is '{ch}': every cell must be a digit 1..={k}",
                            location::json_cell(r, c, &format!("cell {r}{c}"))
                        ),
                    )
                })?;
            cells[r * SIDE + c] = digit as u8;
        }
    }
    let board = Board::from_cells(cells);
    check_settled(&board)?;
    Ok(board)
}

pub(crate) fn check_settled(board: &Board) -> Result<(), GameError> {
    let mut runs = Runs::default();
    board.find_runs(&mut runs);
    match runs.as_slice().first() {
        None => Ok(()),
        Some(run) => {
            let start = usize::from(run.start);
            let way = if run.horizontal { "row" } else { "column" };
            Err(GameError::invalid_state_at(
                format!("/board/{}", start / SIDE),
                format!(
                    "the board has a run of {} '{}'s along a {way} from cell {start:02}: a settled board has no run of 3 or more",
                    run.len,
                    board.get(start)
                ),
            ))
        }
    }
}

fn parse_rng(words: &[u64]) -> Result<TinyMt32, GameError> {
    if words.len() != 4 {
        return Err(GameError::invalid_state_at(
            "/rng",
            format!(
                "rng must hold the 4 state words of TinyMT32, got {}",
                words.len()
            ),
        ));
    }
    let mut status = [0u32; 4];
    for (i, &w) in words.iter().enumerate() {
        status[i] = u32::try_from(w).map_err(|_| {
            GameError::invalid_state_at(
                format!("/rng/{i}"),
                format!("rng word {i} must be at most 4294967295, got {w}"),
            )
        })?;
    }
    if TinyMt32::is_degenerate(status) {
        return Err(GameError::invalid_state_at(
            "/rng",
            "rng is TinyMT32's all-zero state, which only ever yields zeros; no seed leads to it",
        ));
    }
    Ok(TinyMt32::from_status(status))
}
