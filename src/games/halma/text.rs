//! The course's `input.txt` / `output.txt` text contract.

use super::board::{Bits, CampRule};
use super::bots::{Clock, ClockMode, MAX_TIME_LEFT_S};
use super::movegen::Move;
use super::notation::notation;
use super::state::State;
use super::state::{check_counts, parse_row, unreachable};
use crate::game::{location, GameError, Side};

/// A parsed `input.txt`: the position and the clock of the side to play.
#[derive(Clone, Debug)]
pub struct LegacyInput {
    /// The position, with the colour to play.
    pub state: State,
    /// SINGLE or GAME, and the seconds left.
    pub clock: Clock,
}

fn bad(detail: String) -> GameError {
    GameError::invalid_state(detail)
}

/// Reads `input.txt`: `SINGLE`|`GAME`, `WHITE`|`BLACK`, the seconds left (> 0),
/// then 16 board lines. Trailing spaces, CRLF line ends and blank lines at the
/// end are tolerated; anything else wrong is named with its line number.
pub fn parse_input(text: &str, camp_rule: CampRule) -> Result<LegacyInput, GameError> {
    let mut lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    if lines.len() != 19 {
        return Err(bad(format!(
            "input.txt has {}; expected 19: SINGLE or GAME, WHITE or BLACK, the seconds left, then 16 board lines",
            location::plural(lines.len(), "line")
        )));
    }
    let mode = match lines[0].trim() {
        "SINGLE" => ClockMode::Single,
        "GAME" => ClockMode::Game,
        other => return Err(bad(format!("line 1 is '{other}': expected SINGLE or GAME"))),
    };
    let to_move = match lines[1].trim() {
        "BLACK" => Side::First,
        "WHITE" => Side::Second,
        other => return Err(bad(format!("line 2 is '{other}': expected WHITE or BLACK"))),
    };
    let time_left_s = match lines[2].trim().parse::<f64>() {
        Ok(t) if Clock::check_seconds(t).is_ok() => t,
        _ => {
            return Err(bad(format!(
                "line 3 is '{}': expected the seconds of play time left, a number above 0 and at most {MAX_TIME_LEFT_S} (a day)",
                lines[2].trim()
            )))
        }
    };
    let mut pieces = [Bits::EMPTY; 2];
    for (y, line) in lines[3..].iter().enumerate() {
        parse_row(y, line, &mut pieces).map_err(|e| {
            let line = y + 3;
            let place = match e.col {
                Some(x) => location::text_cell(line, x),
                None => location::text_line(line),
            };
            bad(format!("{place}: {}", e.detail))
        })?;
    }
    check_counts(&pieces).map_err(bad)?;
    let state = State::from_parts(pieces, to_move, camp_rule);
    if let Some((field, detail)) = unreachable(&state) {
        let place = match field {
            "to_move" => "line 2",
            _ => "the board",
        };
        return Err(bad(format!("{place}: {detail}")));
    }
    Ok(LegacyInput {
        state,
        clock: Clock { mode, time_left_s },
    })
}

/// Writes `input.txt` for the side to move with `clock`, as the course's
/// referee did: the mode, the side, the seconds left (in full, never rounded
/// down to 0) and the 16 board lines. [`parse_input`] reads it back.
pub fn input_text(state: &State, clock: &Clock) -> String {
    let mode = match clock.mode {
        ClockMode::Single => "SINGLE",
        ClockMode::Game => "GAME",
    };
    let side = match state.to_move() {
        Side::First => "BLACK",
        Side::Second => "WHITE",
    };
    let mut text = format!("{mode}\n{side}\n{}\n", clock.time_left_s);
    for row in state.rows() {
        text.push_str(&row);
        text.push('\n');
    }
    text
}

/// `output.txt` for a move: one line per step or jump, each ending in a newline.
pub fn output_text(state: &State, mv: &Move) -> String {
    notation(state, mv) + "\n"
}
