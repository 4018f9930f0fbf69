//! Outside programs that play by lines, the Number Crush course's
//! `ai_player(K, board)` as a process (`exec:PATH [ARGS…]` in the crush
//! benchmark, for a game with a program line, [`Referee::program_line`]):
//! the program runs for the whole game in a fresh directory and its own
//! process group; per move the referee writes one line (`K BOARD` for
//! Number Crush) and reads one line back within the move's time plus
//! grace, the move as [`Referee::read_program_line`] reads it (`0102` or
//! `102`). Anything else forfeits: `timeout after N ms`, `the program quit`,
//! or `illegal: …`; the program is then killed with its group, as it is
//! when the game ends.

use super::player::{Choice, Forfeit, Player, Turn};
use super::process::{LineChild, LineFailure, Program};
use crate::game::{Game, Referee};
use std::marker::PhantomData;
use std::time::{Duration, Instant};

/// The prefix of a line-protocol player on the command line.
pub const PREFIX: &str = "exec:";

/// A program playing by lines for one game.
pub struct LinePlayer<G: Game> {
    child: LineChild,
    name: String,
    grace: Duration,
    /// Extra time for the first move, for starting up (an interpreter loading).
    startup: Duration,
    _game: PhantomData<fn() -> G>,
}

impl<G: Game> LinePlayer<G> {
    /// Starts `program` for a game, shown as `name`, given `grace` beyond
    /// each move's time. `Err` when the program cannot be started.
    pub fn new(program: &Program, name: String, grace: Duration) -> Result<Self, String> {
        let child =
            LineChild::spawn(program).map_err(|e| format!("cannot run {}: {e}", program.path))?;
        Ok(LinePlayer {
            child,
            name,
            grace,
            startup: Duration::ZERO,
            _game: PhantomData,
        })
    }

    /// Gives the first move `startup` more, for the program's start-up
    /// (an interpreter loading), which its later moves do not pay.
    pub fn with_startup(mut self, startup: Duration) -> Self {
        self.startup = startup;
        self
    }
}

/// A failure to talk to `child`, as a forfeit.
fn forfeit(child: &LineChild, failure: LineFailure) -> Forfeit {
    let ended = child
        .ended()
        .map_or(String::new(), |how| format!(" ({how})"));
    Forfeit(match failure {
        LineFailure::Timeout(limit) => format!("timeout after {} ms", limit.as_millis()),
        LineFailure::Quit => format!("the program quit{ended}"),
        LineFailure::Write(e) => format!("the program quit{ended}: cannot write to it: {e}"),
    })
}

impl<G: Game> Player<G> for LinePlayer<G> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, state: &G::State, turn: &Turn) -> Result<Choice<G::Move>, Forfeit> {
        let line = <G as Referee>::program_line(state)
            .ok_or_else(|| Forfeit(format!("{} has no program line", G::info().id)))?;
        let limit = turn.budget + self.grace + std::mem::take(&mut self.startup);
        let deadline = Instant::now() + limit;
        let child = &mut self.child;
        child.send(&line).map_err(|e| forfeit(child, e))?;
        let answer = loop {
            let answer = child
                .next_line(deadline, limit)
                .map_err(|e| forfeit(child, e))?;
            if !answer.trim().is_empty() {
                break answer;
            }
        };
        let mv = G::read_program_line(state, &answer).map_err(|e| {
            let shown: String = answer.chars().take(40).collect();
            self.child.kill();
            Forfeit(format!("illegal: {shown:?}: {e}"))
        })?;
        Ok(Choice::of(mv))
    }
}
