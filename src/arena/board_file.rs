//! Outside programs that play by board file, the Advance studio's contract
//! (`cab201:PATH [ARGS…]` in the arena): per move the referee writes the
//! board in the game's text form ([`Referee::board_file`]) to `IN` in a fresh
//! directory, runs `PATH ARGS SIDE IN OUT` there under the move's time
//! limit, and reads `OUT`, which must be exactly one legal successor of the
//! board. Anything else forfeits: `timeout after 250 ms`, `exit code 1`,
//! `no output`, `OUT is not a regular file (a FIFO)` (a FIFO, a link or a
//! device is never opened), or `illegal: …` (unchanged, garbage, two
//! moves, a rule broken). `PATH ARGS name` names the program once for the results table.

use super::player::{Choice, Forfeit, Player, Turn};
use super::process::{self, FreshDir, OutputFile, Program};
use crate::game::{Game, Referee};
use std::marker::PhantomData;
use std::time::Duration;

/// The prefix of a board-file player on the arena's command line.
pub const PREFIX: &str = "cab201:";

/// A program playing by board file, for a game with a board-file form.
pub struct BoardFilePlayer<G: Game> {
    program: Program,
    name: String,
    grace: Duration,
    _game: PhantomData<fn() -> G>,
}

impl<G: Game> BoardFilePlayer<G> {
    /// `program`, shown as `name`, killed `grace` after its time per move.
    pub fn new(program: Program, name: String, grace: Duration) -> Self {
        BoardFilePlayer {
            program,
            name,
            grace,
            _game: PhantomData,
        }
    }
}

/// The text with line ends normalised (`\r\n` to `\n`, a final `\n`).
fn normalise(text: &str) -> String {
    let mut lines: String = text.lines().map(|line| format!("{line}\n")).collect();
    if lines.is_empty() {
        lines.push('\n');
    }
    lines
}

/// Whether `text` has the board's shape: as many lines, each as long.
fn same_shape(text: &str, board: &str) -> bool {
    text.lines().count() == board.lines().count()
        && text
            .lines()
            .zip(board.lines())
            .all(|(a, b)| a.chars().count() == b.chars().count())
}

impl<G: Game> Player<G> for BoardFilePlayer<G> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, state: &G::State, turn: &Turn) -> Result<Choice<G::Move>, Forfeit> {
        let board = <G as Referee>::board_file(state)
            .ok_or_else(|| Forfeit(format!("{} has no board file", G::info().id)))?;
        let side = G::info().sides[G::to_move(state) as usize].to_string();
        let dir = FreshDir::new().map_err(|e| Forfeit(format!("referee: {e}")))?;
        let (input, output) = (dir.path().join("IN"), dir.path().join("OUT"));
        std::fs::write(&input, &board).map_err(|e| Forfeit(format!("referee: {e}")))?;
        let mut args = self.program.args.clone();
        args.extend([
            side,
            input.display().to_string(),
            output.display().to_string(),
        ]);
        let limit = turn.budget + self.grace;
        let run = process::run(&self.program.path, &args, dir.path(), limit)
            .map_err(|e| Forfeit(format!("cannot run {}: {e}", self.program.path)))?;
        if let Some(failure) = run.ending.failure() {
            return Err(Forfeit(failure));
        }
        let text = match process::read_output(&output) {
            Ok(text) => text,
            Err(OutputFile::Missing) => Vec::new(),
            Err(refused) => return Err(Forfeit(format!("OUT {refused}"))),
        };
        if text.iter().all(u8::is_ascii_whitespace) {
            return Err(Forfeit("no output".to_string()));
        }
        let text = normalise(&String::from_utf8_lossy(&text));
        if text == board {
            return Err(Forfeit("illegal: the board is unchanged".to_string()));
        }
        if !same_shape(&text, &board) {
            return Err(Forfeit(format!(
                "illegal: not a board: {:?}",
                text.chars().take(40).collect::<String>()
            )));
        }
        let mut legal = Vec::new();
        G::legal_moves(state, &mut legal);
        legal
            .into_iter()
            .find(|mv| <G as Referee>::board_file(&G::apply(state, mv)).as_deref() == Some(&text))
            .map(Choice::of)
            .ok_or_else(|| Forfeit("illegal: no legal move leads to this board".to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_boards_and_compares_their_shapes() {
        assert_eq!(normalise("ab\r\ncd"), "ab\ncd\n");
        assert!(same_shape("ab\ncd\n", "xy\nzw\n"));
        assert!(!same_shape("ab\ncde\n", "xy\nzw\n"));
        assert!(!same_shape("ab\n", "xy\nzw\n"));
    }
}
