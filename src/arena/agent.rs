//! Outside programs that play in a working folder, the Halma course's
//! referee contract (`halma-agent:PATH [ARGS…]` in the arena, for a game
//! with an agent input, [`Referee::agent_input`]): per move the referee
//! writes `input.txt` (the mode, the side, the mover's time left, the
//! board) to a fresh directory, runs `PATH ARGS` there, and reads
//! `output.txt`, the move's notation (one `E` line, or `J` lines). The wall
//! time of the run is charged to the mover's clock, as the course's referee
//! did, and the program is killed with its group when its time (plus
//! grace) is up. Anything else forfeits: `timeout after N ms`, `exit code
//! 1`, `no output.txt`, `output.txt is not a regular file (a FIFO)` (a
//! FIFO, a link or a device is never opened), or `illegal: …` (garbage, or
//! a move the state's rules refuse, its camp rule included).

use super::player::{Choice, Forfeit, Player, Turn};
use super::process::{self, FreshDir, OutputFile, Program};
use crate::game::{Game, Referee};
use serde_json::Value;
use std::marker::PhantomData;
use std::time::Duration;

/// The prefix of a working-folder player on the arena's command line.
pub const PREFIX: &str = "halma-agent:";

/// The file the program reads.
pub const INPUT: &str = "input.txt";

/// The file the program writes.
pub const OUTPUT: &str = "output.txt";

/// A program playing in a working folder, for a game with an agent input.
pub struct AgentPlayer<G: Game> {
    program: Program,
    name: String,
    grace: Duration,
    _game: PhantomData<fn() -> G>,
}

impl<G: Game> AgentPlayer<G> {
    /// `program`, shown as `name`, killed `grace` after its time is up.
    pub fn new(program: Program, name: String, grace: Duration) -> Self {
        AgentPlayer {
            program,
            name,
            grace,
            _game: PhantomData,
        }
    }
}

/// The start of `text` for a forfeit's reason.
fn excerpt(text: &str) -> String {
    text.chars().take(40).collect()
}

impl<G: Game> Player<G> for AgentPlayer<G> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, state: &G::State, turn: &Turn) -> Result<Choice<G::Move>, Forfeit> {
        let input = <G as Referee>::agent_input(state, turn.budget, turn.game_time_left)
            .ok_or_else(|| Forfeit(format!("{} has no agent input", G::info().id)))?;
        let dir = FreshDir::new().map_err(|e| Forfeit(format!("referee: {e}")))?;
        std::fs::write(dir.path().join(INPUT), input)
            .map_err(|e| Forfeit(format!("referee: {e}")))?;
        let limit = turn.budget + self.grace;
        let run = process::run(&self.program.path, &self.program.args, dir.path(), limit)
            .map_err(|e| Forfeit(format!("cannot run {}: {e}", self.program.path)))?;
        if let Some(failure) = run.ending.failure() {
            return Err(Forfeit(failure));
        }
        let text = match process::read_output(&dir.path().join(OUTPUT)) {
            Ok(text) => text,
            Err(OutputFile::Missing) => return Err(Forfeit(format!("no {OUTPUT}"))),
            Err(refused) => return Err(Forfeit(format!("{OUTPUT} {refused}"))),
        };
        let text = String::from_utf8_lossy(&text);
        if text.trim().is_empty() {
            return Err(Forfeit(format!("no move in {OUTPUT}")));
        }
        let mv = G::parse_move(state, &Value::String(text.trim().to_string()))
            .map_err(|e| Forfeit(format!("illegal: {:?}: {e}", excerpt(text.trim()))))?;
        Ok(Choice::of(mv))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Codec;
    use crate::games::halma::Halma;
    use serde_json::json;

    /// The start, but black's camp piece on 1,4 stands outside on 2,5.
    fn state(camp_rule: &str) -> <Halma as crate::game::Rules>::State {
        let mut board: Vec<String> =
            Halma::state_to_json(&Halma::new_game(Default::default()).unwrap())["board"]
                .as_array()
                .unwrap()
                .iter()
                .map(|row| row.as_str().unwrap().to_string())
                .collect();
        board[4].replace_range(1..2, ".");
        board[5].replace_range(2..3, "B");
        let value = json!({"board": board, "to_move": "black", "camp_rule": camp_rule});
        Halma::state_from_json(&value).unwrap()
    }

    #[test]
    fn the_states_camp_rule_judges_the_programs_move() {
        // Back into its own camp from outside: the basic rule allows it, the
        // referee's rules do not.
        let program = Program {
            path: "/bin/sh".to_string(),
            args: vec![
                "-c".to_string(),
                "echo 'E 2,5 1,4' > output.txt".to_string(),
            ],
        };
        let turn = Turn {
            ply: 0,
            seed: 0,
            budget: Duration::from_secs(5),
            game_time_left: Some(Duration::from_secs(5)),
            clock: None,
        };
        let mut player = AgentPlayer::<Halma>::new(program, "back".into(), Duration::ZERO);
        assert!(player.choose(&state("basic"), &turn).is_ok());
        let refused = player.choose(&state("referee"), &turn).unwrap_err();
        assert!(refused.0.starts_with("illegal: \"E 2,5 1,4\""), "{refused}");
    }
}
