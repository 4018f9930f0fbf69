//! The validated position ([`State`]), its JSON form and the board
//! text, read with a precise error for every malformed field, row or cell.

use super::board::{
    cell, goal, splitmix, Bits, CampRule, Cell, CAMPS, PIECES, PLIES_LEFT, SIZE, WHITE_TO_MOVE,
    ZOBRIST,
};
use crate::game::{location, GameError, Side};
use serde_json::{Map, Value};

/// The side's name as in states: `black` or `white`.
pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "black",
        Side::Second => "white",
    }
}

/// A fault in one board row: the column it is at (0-based), if one, and
/// what is wrong. The JSON and text readers each add the place in their
/// own numbering.
#[derive(Debug)]
pub struct RowError {
    /// The 0-based column (x) of the faulty character, if the fault is one.
    pub col: Option<usize>,
    /// What is wrong and what was expected.
    pub detail: String,
}

/// Reads one board row `y` of 16 `B`/`W`/`.` characters into the piece sets.
pub fn parse_row(y: usize, text: &str, pieces: &mut [Bits; 2]) -> Result<(), RowError> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != SIZE {
        return Err(RowError {
            col: None,
            detail: format!(
                "the row has {}; expected 16 of B, W or .",
                location::plural(chars.len(), "character")
            ),
        });
    }
    for (x, ch) in chars.into_iter().enumerate() {
        match ch {
            'B' => pieces[0].set(cell(x, y)),
            'W' => pieces[1].set(cell(x, y)),
            '.' => {}
            other => {
                return Err(RowError {
                    col: Some(x),
                    detail: format!("'{other}' is not B (black), W (white) or . (empty)"),
                })
            }
        }
    }
    Ok(())
}

/// A row error of the JSON `board`, named by 0-based row and column and cell.
fn json_row_error(y: usize, error: RowError) -> GameError {
    let place = match error.col {
        Some(x) => location::json_cell(y, x, &format!("cell {x},{y}")),
        None => location::json_row(y),
    };
    GameError::invalid_state_at(format!("/board/{y}"), format!("{place}: {}", error.detail))
}

/// Checks that each side has exactly 19 pieces.
pub fn check_counts(pieces: &[Bits; 2]) -> Result<(), String> {
    for (side, bits) in [Side::First, Side::Second].into_iter().zip(pieces) {
        if bits.count() != PIECES {
            return Err(format!(
                "the board has {}; each side has exactly 19",
                location::plural(bits.count() as usize, &format!("{} piece", side_name(side)))
            ));
        }
    }
    Ok(())
}

/// A position that no game reaches, as the field at fault (`"board"` or
/// `"to_move"`) and why; `None` for one that some game reaches. Under the
/// referee's camp rules a move that starts outside the mover's own camp
/// may not end inside it, so only the moves of the side heading for a camp
/// can fill it: the side that fills one has just moved and won, and the
/// game ends there. So the side to move has never filled the camp it is
/// heading for, and the two camps are never both filled. Under the basic
/// camp rule a side may walk back into its own camp, the opponent's win
/// may be completed for it, and both positions can be reached.
pub fn unreachable(state: &State) -> Option<(&'static str, String)> {
    if state.camp_rule() != CampRule::Referee {
        return None;
    }
    let mover = state.to_move();
    let other = mover.other();
    let (mover_name, other_name) = (side_name(mover), side_name(other));
    if state.has_won(mover) && state.has_won(other) {
        return Some((
            "board",
            "both camps are filled, each with at least one piece of the side heading for it, so both sides have won: under the referee's camp rules only the side heading for a camp can fill it, by the move that wins the game, and the game ends at the first one".to_string(),
        ));
    }
    if state.has_won(mover) {
        return Some((
            "to_move",
            format!(
                "{mover_name} has filled {other_name}'s camp, so it made the last move and won, and {other_name} must be to move: under the referee's camp rules {other_name}'s own moves cannot fill its camp"
            ),
        ));
    }
    None
}

/// Reads `"black"` or `"white"` (any case).
pub fn parse_side(text: &str) -> Option<Side> {
    match text.to_ascii_lowercase().as_str() {
        "black" => Some(Side::First),
        "white" => Some(Side::Second),
        _ => None,
    }
}

/// Reads `"referee"` or `"basic"`.
pub fn parse_camp_rule(text: &str) -> Option<CampRule> {
    match text {
        "referee" => Some(CampRule::Referee),
        "basic" => Some(CampRule::Basic),
        _ => None,
    }
}

fn board_from_json(value: Option<&Value>) -> Result<[Bits; 2], GameError> {
    let Some(rows) = value.and_then(Value::as_array) else {
        return Err(GameError::invalid_state_at(
            "/board",
            "board must be an array of 16 strings of B, W and .",
        ));
    };
    if rows.len() != SIZE {
        return Err(GameError::invalid_state_at(
            "/board",
            format!(
                "board has {}; expected 16",
                location::plural(rows.len(), "row")
            ),
        ));
    }
    let mut pieces = [Bits::EMPTY; 2];
    for (y, row) in rows.iter().enumerate() {
        let pointer = format!("/board/{y}");
        let Some(text) = row.as_str() else {
            return Err(GameError::invalid_state_at(
                pointer,
                format!(
                    "{} is {row}: expected a string of 16 B, W or .",
                    location::json_row(y)
                ),
            ));
        };
        parse_row(y, text, &mut pieces).map_err(|e| json_row_error(y, e))?;
    }
    check_counts(&pieces).map_err(|e| GameError::invalid_state_at("/board", e))?;
    Ok(pieces)
}

/// The state's JSON form as read, before validation: its fields, each any
/// JSON value (`None` when absent), which [`State::try_from`] checks
/// with errors that point at the field, row and cell at fault.
#[derive(Clone, Debug, Default)]
pub struct RawState {
    /// The 16 rows, to be strings of 16 `B`, `W` and `.`.
    pub board: Option<Value>,
    /// The side to move, to be `"black"` or `"white"`.
    pub to_move: Option<Value>,
    /// `"referee"` (the default) or `"basic"`.
    pub camp_rule: Option<Value>,
    /// Plies played, when known.
    pub ply: Option<Value>,
    /// The ply at which the game ends if nobody has won, when there is one.
    pub ply_limit: Option<Value>,
}

impl RawState {
    /// Reads the fields of a JSON state, refusing one a state does not have.
    pub fn from_json(value: &Value) -> Result<RawState, GameError> {
        let Some(map) = value.as_object() else {
            return Err(GameError::invalid_state(
                "the state must be an object with board, to_move and (optionally) camp_rule, ply and ply_limit",
            ));
        };
        check_keys(map)?;
        let field = |key: &str| map.get(key).cloned();
        Ok(RawState {
            board: field("board"),
            to_move: field("to_move"),
            camp_rule: field("camp_rule"),
            ply: field("ply"),
            ply_limit: field("ply_limit"),
        })
    }
}

impl TryFrom<RawState> for State {
    type Error = GameError;

    fn try_from(raw: RawState) -> Result<State, GameError> {
        let pieces = board_from_json(raw.board.as_ref())?;
        let to_move = match &raw.to_move {
            Some(Value::String(s)) => parse_side(s),
            _ => None,
        }
        .ok_or_else(|| {
            GameError::invalid_state_at("/to_move", "to_move must be \"black\" or \"white\"")
        })?;
        let camp_rule = match &raw.camp_rule {
            None => Some(CampRule::Referee),
            Some(Value::String(s)) => parse_camp_rule(s),
            Some(_) => None,
        }
        .ok_or_else(|| {
            GameError::invalid_state_at(
                "/camp_rule",
                "camp_rule must be \"referee\" (the default) or \"basic\"",
            )
        })?;
        let (ply, ply_limit) = plies_from_json(raw.ply.as_ref(), raw.ply_limit.as_ref())?;
        let state = State::from_parts(pieces, to_move, camp_rule);
        if let Some((field, detail)) = unreachable(&state) {
            return Err(GameError::invalid_state_at(format!("/{field}"), detail));
        }
        Ok(state.with_plies(ply, ply_limit))
    }
}

/// Parses and validates a JSON state.
pub fn state_from_json(value: &Value) -> Result<State, GameError> {
    State::try_from(RawState::from_json(value)?)
}

/// Reads an optional whole-number field that fits a `u32`.
fn optional_count(value: Option<&Value>, key: &str, least: u32) -> Result<Option<u32>, GameError> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(value) => value
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .filter(|&n| n >= least)
            .map(Some)
            .ok_or_else(|| {
                GameError::invalid_state_at(
                    format!("/{key}"),
                    format!(
                        "{key} is {value}: expected a whole number from {least} to {}",
                        u32::MAX
                    ),
                )
            }),
    }
}

/// Reads `ply` (plies played, absent = unknown) and `ply_limit` (the ply
/// at which the game ends if nobody has won, absent = none): a limit needs
/// a known count that has not passed it.
fn plies_from_json(
    ply: Option<&Value>,
    ply_limit: Option<&Value>,
) -> Result<(Option<u32>, Option<u32>), GameError> {
    let ply = optional_count(ply, "ply", 0)?;
    let ply_limit = optional_count(ply_limit, "ply_limit", 1)?;
    match (ply, ply_limit) {
        (None, Some(limit)) => Err(GameError::invalid_state_at(
            "/ply_limit",
            format!(
                "ply_limit is {limit} but the state has no ply: a limit needs the plies played so far (\"ply\": 0 at the start)"
            ),
        )),
        (Some(ply), Some(limit)) if ply > limit => Err(GameError::invalid_state_at(
            "/ply",
            format!(
                "ply is {ply} but ply_limit is {limit}: the game ends when ply reaches ply_limit, so ply must be from 0 to {limit}"
            ),
        )),
        _ => Ok((ply, ply_limit)),
    }
}

fn check_keys(map: &Map<String, Value>) -> Result<(), GameError> {
    for key in map.keys() {
        match key.as_str() {
            "board" | "to_move" | "camp_rule" | "ply" | "ply_limit" => {}
            "clock" => {
                return Err(GameError::invalid_state_at(
                    "/clock",
                    "clock belongs in the bot-move request beside state, not inside the state",
                ))
            }
            other => {
                return Err(GameError::invalid_state_at(
                    format!("/{other}"),
                    format!("unknown field '{other}': a state has board, to_move, camp_rule, ply and ply_limit"),
                ))
            }
        }
    }
    Ok(())
}

/// The JSON form of a state (`ply` and `ply_limit` only when known).
pub fn state_to_json(state: &State) -> Value {
    let form = StateJson {
        board: state.rows(),
        to_move: match state.to_move {
            Side::First => SideJson::Black,
            Side::Second => SideJson::White,
        },
        camp_rule: state.camp_rule,
        ply: state.ply(),
        ply_limit: state.ply_limit(),
    };
    serde_json::to_value(form).expect("a state always serializes")
}

/// A Halma state as JSON: what [`state_to_json`] writes, and the schema
/// the API's contract publishes as `State`.
#[derive(serde::Serialize, schemars::JsonSchema)]
#[schemars(
    rename = "HalmaState",
    description = "A Halma position: the board, the side to move, the camp rules, and the plies played and allowed."
)]
pub struct StateJson {
    /// The 16 rows, y = 0 first, each 16 characters for x = 0 to 15: `B`
    /// a black piece, `W` a white piece, `.` an empty cell. Black's camp
    /// is the top-left corner, white's the bottom-right.
    #[schemars(length(min = 16, max = 16), inner(regex(pattern = r"^[BW.]{16}$")))]
    pub board: Vec<String>,
    /// The side to move.
    pub to_move: SideJson,
    /// Which camp rules apply (absent: `referee`).
    #[serde(default)]
    pub camp_rule: CampRule,
    /// Plies played so far (0 at the start); absent when unknown, and
    /// then `ply_limit` cannot be given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ply: Option<u32>,
    /// The ply at which the game ends if nobody has won: the side with
    /// more pieces inside the opposing camp wins (`termination`
    /// `ply_limit`), equal counts draw. Absent: no limit.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub ply_limit: Option<u32>,
}

/// A side as Halma's JSON names it.
#[derive(Clone, Copy, Debug, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
#[schemars(rename = "HalmaSide")]
pub enum SideJson {
    /// Black.
    Black,
    /// White.
    White,
}

/// A validated Halma position: 19 pieces a side, whose turn, which camp
/// rules, and where known the plies played and the ply limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub(crate) pieces: [Bits; 2],
    pub(crate) to_move: Side,
    pub(crate) camp_rule: CampRule,
    /// Zobrist hash of the pieces and the side to move.
    pub(crate) hash: u64,
    /// Plies played since the start, when known.
    pub(crate) ply: Option<u32>,
    /// The ply at which the game ends if nobody has won, if any.
    pub(crate) ply_limit: Option<u32>,
}

impl State {
    /// Builds a state from piece sets (checked by the caller).
    pub(crate) fn from_parts(pieces: [Bits; 2], to_move: Side, camp_rule: CampRule) -> Self {
        let mut state = State {
            pieces,
            to_move,
            camp_rule,
            hash: 0,
            ply: None,
            ply_limit: None,
        };
        state.hash = state.compute_hash();
        state
    }

    /// The starting position: each camp full of its owner's pieces.
    pub fn start(to_move: Side, camp_rule: CampRule) -> Self {
        Self::from_parts(CAMPS, to_move, camp_rule)
    }

    /// The same position with the ply count and the ply limit (checked by
    /// the caller: a limit comes with a count that has not passed it).
    pub(crate) fn with_plies(mut self, ply: Option<u32>, ply_limit: Option<u32>) -> Self {
        self.ply = ply;
        self.ply_limit = ply_limit;
        self
    }

    /// The Zobrist hash from scratch.
    pub(crate) fn compute_hash(&self) -> u64 {
        let mut h = if self.to_move == Side::Second {
            WHITE_TO_MOVE
        } else {
            0
        };
        for (keys, pieces) in ZOBRIST.iter().zip(&self.pieces) {
            for c in pieces.cells() {
                h ^= keys[c as usize];
            }
        }
        h
    }

    /// Every occupied cell.
    #[inline]
    pub fn occupied(&self) -> Bits {
        self.pieces[0].or(self.pieces[1])
    }

    /// The pieces of `side`.
    #[inline]
    pub fn side(&self, side: Side) -> Bits {
        self.pieces[side.index()]
    }

    /// The side to move.
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// The camp rules in force.
    pub fn camp_rule(&self) -> CampRule {
        self.camp_rule
    }

    /// The hash of the position and side to move and, under a ply limit,
    /// of the plies left (the same board nearer the limit is another position).
    #[inline]
    pub fn hash(&self) -> u64 {
        match self.plies_left() {
            Some(left) => self.hash ^ splitmix(PLIES_LEFT ^ u64::from(left)),
            None => self.hash,
        }
    }

    /// Plies played since the start, when known.
    pub fn ply(&self) -> Option<u32> {
        self.ply
    }

    /// The ply at which the game ends if nobody has won, if any.
    pub fn ply_limit(&self) -> Option<u32> {
        self.ply_limit
    }

    /// Plies left before the ply limit ends the game, when both are known.
    #[inline]
    pub fn plies_left(&self) -> Option<u32> {
        match (self.ply, self.ply_limit) {
            (Some(ply), Some(limit)) => Some(limit.saturating_sub(ply)),
            _ => None,
        }
    }

    /// Whether the ply limit has ended the game (reached with the ply known).
    #[inline]
    pub fn ply_limit_reached(&self) -> bool {
        self.plies_left() == Some(0)
    }

    /// Whether the game is over by a rule other than "no legal move": the
    /// last mover has won, or the ply limit is reached.
    #[inline]
    pub fn is_decided(&self) -> bool {
        self.has_won(self.to_move.other()) || self.ply_limit_reached()
    }

    /// Each side's pieces inside the camp it plays towards, indexed by side:
    /// what the ply limit compares.
    pub fn pieces_in_goal(&self) -> [u32; 2] {
        [Side::First, Side::Second].map(|side| self.side(side).and(goal(side)).count())
    }

    /// The side with more pieces inside the opposing camp, `None` when equal:
    /// the winner when the ply limit ends the game.
    pub fn goal_leader(&self) -> Option<Side> {
        let [first, second] = self.pieces_in_goal();
        match first.cmp(&second) {
            std::cmp::Ordering::Greater => Some(Side::First),
            std::cmp::Ordering::Less => Some(Side::Second),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// Moves the mover's piece from `from` to `to`, passes the turn and
    /// counts the ply when the count is known.
    #[inline]
    pub(crate) fn apply_move(&mut self, from: Cell, to: Cell) {
        let s = self.to_move.index();
        self.pieces[s].clear(from);
        self.pieces[s].set(to);
        self.hash ^= ZOBRIST[s][from as usize] ^ ZOBRIST[s][to as usize] ^ WHITE_TO_MOVE;
        self.to_move = self.to_move.other();
        self.ply = self.ply.map(|p| p.saturating_add(1));
    }

    /// Whether `side` has won: its goal camp is full and holds at least one of its pieces.
    #[inline]
    pub fn has_won(&self, side: Side) -> bool {
        let target = goal(side);
        let mine = self.side(side).and(target);
        !mine.is_empty() && self.occupied().and(target) == target
    }

    /// The board as 16 text rows of `B`, `W` and `.`.
    pub fn rows(&self) -> Vec<String> {
        (0..SIZE)
            .map(|y| {
                (0..SIZE)
                    .map(|x| {
                        let c = cell(x, y);
                        if self.pieces[0].has(c) {
                            'B'
                        } else if self.pieces[1].has(c) {
                            'W'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect()
    }
}
