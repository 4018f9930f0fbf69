//! Moves as text (`E 4,3 3,2`, or `J` lines) and as JSON objects: writing
//! them, and reading them back with a check of the chain and of the rules;
//! and cutting a game's record into moves.

use super::board::{cell, col, home, row, CampRule, Cell, SIZE};
use super::movegen::{camp_allows, generate, move_path, Move};
use super::state::{side_name, State};
use crate::game::GameError;
use serde_json::Value;

/// A cell as `x,y`.
pub fn format_cell(c: Cell) -> String {
    format!("{},{}", col(c), row(c))
}

/// The notation of a path: one `E` line for a step, one `J` line per jump.
pub fn path_notation(path: &[Cell], jump: bool) -> String {
    let kind = if jump { "J" } else { "E" };
    path.windows(2)
        .map(|w| format!("{kind} {} {}", format_cell(w[0]), format_cell(w[1])))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The notation of a move (a shortest chain for jumps), lines joined by `\n`.
pub fn notation(state: &State, mv: &Move) -> String {
    path_notation(&move_path(state, mv), mv.jump)
}

/// The JSON object of a move: path, jump flag and notation.
pub fn move_json(state: &State, mv: &Move) -> Value {
    let path = move_path(state, mv);
    let form = MoveJson {
        path: path.iter().map(|&c| [col(c), row(c)]).collect(),
        jump: mv.jump,
        notation: path_notation(&path, mv.jump),
    };
    serde_json::to_value(form).expect("a move always serializes")
}

/// A Halma move as JSON: what [`move_json`] writes, and the schema the
/// API's contract publishes as `Move`. A request may send this object
/// or just its notation.
#[derive(serde::Serialize, schemars::JsonSchema)]
#[schemars(
    rename = "HalmaMove",
    description = "A Halma move: a step, or a chain of jumps. A request may send this object or just its notation."
)]
pub struct MoveJson {
    /// The cells the piece visits as `[x, y]`, from where it starts to
    /// where it ends: two cells for a step, one more for each hop of a jump.
    #[schemars(length(min = 2), inner(inner(range(min = 0, max = 15))))]
    pub path: Vec<[usize; 2]>,
    /// Whether the move is a chain of jumps (else a single step).
    pub jump: bool,
    /// The move as the course's `output.txt` writes it: `E x,y x,y` for a
    /// step, one `J x,y x,y` line per hop for a jump, joined by newlines.
    pub notation: String,
}

fn bad(detail: impl Into<String>) -> GameError {
    GameError::illegal_move(detail)
}

/// An error about one field of a move object (`/path/2`), pointing at it.
fn bad_at(pointer: impl Into<String>, detail: impl Into<String>) -> GameError {
    GameError::illegal_move_at(pointer, detail)
}

/// Reads `x,y` with both coordinates from 0 to 15.
pub fn parse_cell(text: &str) -> Result<Cell, GameError> {
    let parse = |part: Option<&str>| part.and_then(|p| p.trim().parse::<usize>().ok());
    let mut parts = text.split(',');
    match (parse(parts.next()), parse(parts.next()), parts.next()) {
        (Some(x), Some(y), None) if x < SIZE && y < SIZE => Ok(cell(x, y)),
        _ => Err(bad(format!(
            "'{text}' is not a cell: expected x,y with x and y from 0 to 15"
        ))),
    }
}

/// Reads a move's text: one `E from to` line, or `J` lines that chain (each
/// starting where the last ended; a `J` line may also list several cells).
/// Lines are separated by newlines or `;`. Returns the cells and whether it jumps.
pub fn parse_notation(text: &str) -> Result<(Vec<Cell>, bool), GameError> {
    let lines: Vec<&str> = text
        .split(['\n', ';'])
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    if lines.is_empty() {
        return Err(bad(
            "empty move: expected 'E x,y x,y' or one or more 'J x,y x,y' lines",
        ));
    }
    let mut path: Vec<Cell> = Vec::new();
    let mut jump = None;
    for (n, line) in lines.iter().enumerate() {
        let mut tokens = line.split_whitespace();
        let kind = match tokens.next().map(str::to_ascii_uppercase).as_deref() {
            Some("E") => false,
            Some("J") => true,
            _ => {
                return Err(bad(format!(
                    "line {} '{line}': expected it to start with E (step) or J (jump)",
                    n + 1
                )))
            }
        };
        if jump.is_some_and(|j| j != kind) || (!kind && n > 0) {
            return Err(bad(format!(
                "line {} '{line}': a move is one E line or only J lines; steps and jumps never mix",
                n + 1
            )));
        }
        jump = Some(kind);
        let cells = tokens.map(parse_cell).collect::<Result<Vec<_>, _>>()?;
        if cells.len() < 2 || (!kind && cells.len() != 2) {
            return Err(bad(format!(
                "line {} '{line}': expected {} cells after {}",
                n + 1,
                if kind { "two or more" } else { "exactly two" },
                if kind { "J" } else { "E" }
            )));
        }
        match path.last() {
            Some(&last) if last != cells[0] => {
                return Err(bad(format!(
                    "line {} '{line}' starts at {} but the previous jump ended at {}",
                    n + 1,
                    format_cell(cells[0]),
                    format_cell(last)
                )))
            }
            Some(_) => path.extend_from_slice(&cells[1..]),
            None => path.extend_from_slice(&cells),
        }
    }
    Ok((path, jump.unwrap_or(false)))
}

/// Reads a JSON path `[[x, y], ...]`; an error points at the path, the
/// cell or the coordinate at fault.
fn parse_path(value: &Value) -> Result<Vec<Cell>, GameError> {
    let Some(items) = value.as_array() else {
        return Err(bad_at(
            "/path",
            "move.path must be an array of [x, y] cells",
        ));
    };
    if items.len() < 2 {
        return Err(bad_at(
            "/path",
            "move.path must hold at least two cells: where the piece starts and where it ends",
        ));
    }
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let expected = format!(
                "move.path[{i}] is {item}: expected [x, y] with whole numbers from 0 to 15"
            );
            let pair = match item.as_array() {
                Some(pair) if pair.len() == 2 => pair,
                _ => return Err(bad_at(format!("/path/{i}"), expected)),
            };
            let coord = |j: usize| {
                pair[j]
                    .as_u64()
                    .filter(|&n| n < 16)
                    .map(|n| n as usize)
                    .ok_or_else(|| bad_at(format!("/path/{i}/{j}"), expected.clone()))
            };
            Ok(cell(coord(0)?, coord(1)?))
        })
        .collect()
}

/// Reads a move object: `path` (with optional `jump`), or failing that
/// `notation`. A `jump` or `notation` beside the path must say the same.
fn parse_object(map: &serde_json::Map<String, Value>) -> Result<(Vec<Cell>, bool), GameError> {
    if let Some(key) = map
        .keys()
        .find(|k| !["path", "jump", "notation"].contains(&k.as_str()))
    {
        return Err(bad_at(
            format!("/{}", key.replace('~', "~0").replace('/', "~1")),
            format!("move has an unknown field '{key}'; a move has path, jump and notation"),
        ));
    }
    let jump = match map.get("jump") {
        None => None,
        Some(Value::Bool(b)) => Some(*b),
        Some(other) => {
            return Err(bad_at(
                "/jump",
                format!("move.jump is {other}: expected true or false"),
            ))
        }
    };
    let notation = match map.get("notation") {
        None => None,
        Some(Value::String(text)) => {
            Some(parse_notation(text).map_err(|e| bad_at("/notation", e.to_string()))?)
        }
        Some(other) => {
            return Err(bad_at(
                "/notation",
                format!("move.notation is {other}: expected a string"),
            ))
        }
    };
    let (path, jump) = match (map.get("path"), notation) {
        (Some(path), named) => {
            let path = parse_path(path)?;
            let adjacent = path.len() == 2
                && col(path[0]).abs_diff(col(path[1])) <= 1
                && row(path[0]).abs_diff(row(path[1])) <= 1;
            let jump = jump.unwrap_or(!adjacent);
            if named.is_some_and(|named| named != (path.clone(), jump)) {
                return Err(bad_at(
                    "/notation",
                    "move.notation names another move than move.path and move.jump",
                ));
            }
            (path, jump)
        }
        (None, Some((path, parsed_jump))) => {
            if jump.is_some_and(|j| j != parsed_jump) {
                return Err(bad_at("/jump", "move.jump disagrees with move.notation"));
            }
            (path, parsed_jump)
        }
        (None, None) => return Err(bad("move needs a path (or a notation)")),
    };
    Ok((path, jump))
}

/// Checks that `path` is a step or a chain of jumps the mover can make on
/// this board, and returns the move it makes.
fn check_path(state: &State, path: &[Cell], jump: bool) -> Result<Move, GameError> {
    let side = state.to_move;
    let (from, to) = (path[0], path[path.len() - 1]);
    if !state.side(side).has(from) {
        let what = if state.side(side.other()).has(from) {
            format!("a {} piece", side_name(side.other()))
        } else {
            "no piece".to_string()
        };
        return Err(bad(format!(
            "{} holds {what}; {} is to move",
            format_cell(from),
            side_name(side)
        )));
    }
    let mut others = state.occupied();
    others.clear(from);
    if !jump {
        if path.len() != 2 {
            return Err(bad("a step moves one cell: its path has exactly two cells"));
        }
        let (dx, dy) = (col(from).abs_diff(col(to)), row(from).abs_diff(row(to)));
        if dx > 1 || dy > 1 || (dx, dy) == (0, 0) {
            return Err(bad(format!(
                "E {} {}: a step goes to one of the 8 adjacent cells",
                format_cell(from),
                format_cell(to)
            )));
        }
        if others.has(to) {
            return Err(bad(format!(
                "E {} {}: {} is occupied",
                format_cell(from),
                format_cell(to),
                format_cell(to)
            )));
        }
        return Ok(Move { from, to, jump });
    }
    for (n, w) in path.windows(2).enumerate() {
        let (a, b) = (w[0], w[1]);
        let line = format!("jump {} (J {} {})", n + 1, format_cell(a), format_cell(b));
        let (dx, dy) = (col(b) as i32 - col(a) as i32, row(b) as i32 - row(a) as i32);
        if !matches!(dx, -2 | 0 | 2) || !matches!(dy, -2 | 0 | 2) || (dx, dy) == (0, 0) {
            return Err(bad(format!(
                "{line}: a jump goes two cells in a straight or diagonal line"
            )));
        }
        let over = cell(
            (col(a) as i32 + dx / 2) as usize,
            (row(a) as i32 + dy / 2) as usize,
        );
        if !others.has(over) {
            return Err(bad(format!(
                "{line}: there is no piece on {} to jump over",
                format_cell(over)
            )));
        }
        if others.has(b) {
            return Err(bad(format!("{line}: {} is occupied", format_cell(b))));
        }
    }
    if from == to {
        return Err(bad(
            "the jump chain ends where it started: that is not a move",
        ));
    }
    Ok(Move { from, to, jump })
}

/// Why a rules-possible move is not legal: which camp rule forbids it.
fn camp_refusal(state: &State, mv: &Move, legal: &[Move]) -> String {
    let side = state.to_move;
    let name = side_name(side);
    let text = notation(state, mv).replace('\n', "; ");
    if !camp_allows(CampRule::Basic, side, mv.from, mv.to) {
        return format!("{text}: a piece in the opposing camp may not leave it");
    }
    if !camp_allows(state.camp_rule, side, mv.from, mv.to) {
        return format!(
            "{text}: under the referee's camp rule a piece outside its own camp may not move back into it"
        );
    }
    let own = home(side);
    match legal.first() {
        Some(first) if own.has(first.from) && !own.has(first.to) => format!(
            "{text}: under the referee's camp rule {name} must move a piece out of its own camp while it can (e.g. {})",
            notation(state, first).replace('\n', "; ")
        ),
        Some(first) if own.has(first.from) => format!(
            "{text}: under the referee's camp rule {name} must move a piece in its own camp farther from its corner while it can (e.g. {})",
            notation(state, first).replace('\n', "; ")
        ),
        _ => format!("{text} is not legal here"),
    }
}

/// Reads a move given as notation text or as a JSON object and checks that it
/// is legal: any valid chain between two cells is accepted.
pub fn parse_move(state: &State, value: &Value) -> Result<Move, GameError> {
    let (path, jump) = match value {
        Value::String(text) => parse_notation(text)?,
        Value::Object(map) => parse_object(map)?,
        other => {
            return Err(bad(format!(
                "a move is a notation string or an object with a path, not {other}"
            )))
        }
    };
    let mv = check_path(state, &path, jump)?;
    let mut legal = Vec::new();
    generate(state, &mut legal);
    if legal.contains(&mv) {
        Ok(mv)
    } else {
        Err(bad(camp_refusal(state, &mv, &legal)))
    }
}

/// Cuts a record (the moves' notations joined with spaces, a jump's lines
/// with `;`: `E 4,3 3,2 J 11,12 11,10;J 11,10 9,10`) into moves. An `E` or `J` word starts a
/// move unless a `;` comes just before it, which joins the jump lines of
/// one move; spaces around `;` do not matter. Each move comes back with
/// single spaces and `;` between its lines.
pub fn record_moves(record: &str) -> Vec<String> {
    let mut moves: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut joined = false;
    for word in record.replace(';', " ; ").split_whitespace() {
        if word == ";" {
            current.push(';');
            joined = true;
            continue;
        }
        let starts = word.eq_ignore_ascii_case("E") || word.eq_ignore_ascii_case("J");
        if starts && !joined && !current.is_empty() {
            moves.push(std::mem::take(&mut current));
        }
        if !current.is_empty() && !current.ends_with(';') {
            current.push(' ');
        }
        current.push_str(word);
        joined = false;
    }
    if !current.is_empty() {
        moves.push(current);
    }
    moves
}
