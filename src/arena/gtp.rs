//! Outside engines that speak GTP, the Go Text Protocol as Othello engines
//! use it (`gtp:COMMAND [ARGS…]` in the arena, for a game whose codec says
//! it speaks GTP, [`Referee::speaks_gtp`](crate::game::Referee::speaks_gtp)): one engine process per game, kept
//! running in a fresh directory and a process group of its own, killed with
//! its group when the player is dropped. At the start `boardsize 8` and
//! `clear_board`; every move the engine did not make itself (the other
//! side's, and the random opening plies of both) goes to it as
//! `play <color> <vertex>` before its next `genmove <color>`, whose answer
//! (`= E6`, `= pass`; `resign` forfeits) must come within the move's time
//! plus grace. Passes follow real engines: a `pass` answer is taken when the
//! mover must pass, and a rejected `play <color> pass` is ignored (some
//! engines pass by themselves). Anything else forfeits: `timeout after N
//! ms`, `illegal: …`, or the engine quitting. `name` and `version` name the
//! engine once for the results table.

use super::player::{Choice, Forfeit, Player, Turn};
use super::process::{LineChild, LineFailure, Program};
use crate::game::Game;
use serde_json::Value;
use std::marker::PhantomData;
use std::time::{Duration, Instant};

/// The prefix of a GTP player on the arena's command line.
pub const PREFIX: &str = "gtp:";

/// How long starting up (`name`, `version`, `boardsize`, `clear_board`,
/// and each `play`) may take.
const SETUP_LIMIT: Duration = Duration::from_secs(10);

/// The most lines one answer may have.
const ANSWER_LINES: usize = 64;

/// Why talking to the engine failed.
#[derive(Debug)]
enum Failure {
    /// No answer within the limit.
    Timeout(Duration),
    /// The engine closed its output (exited or crashed).
    Quit,
    /// Not a GTP answer.
    Garbage(String),
    /// The command could not be written.
    Write(std::io::Error),
}

impl Failure {
    fn forfeit(self, command: &str) -> Forfeit {
        Forfeit(match self {
            Failure::Timeout(limit) => format!("timeout after {} ms", limit.as_millis()),
            Failure::Quit => format!("the engine quit (at `{command}`)"),
            Failure::Garbage(text) => {
                format!("illegal: not a GTP answer to `{command}`: {text:?}")
            }
            Failure::Write(e) => format!("the engine quit (cannot send `{command}`: {e})"),
        })
    }
}

/// A running GTP engine: a [`LineChild`] asked GTP commands.
struct Engine(LineChild);

impl From<LineFailure> for Failure {
    fn from(failure: LineFailure) -> Failure {
        match failure {
            LineFailure::Timeout(limit) => Failure::Timeout(limit),
            LineFailure::Quit => Failure::Quit,
            LineFailure::Write(e) => Failure::Write(e),
        }
    }
}

impl Engine {
    fn spawn(program: &Program) -> std::io::Result<Engine> {
        LineChild::spawn(program).map(Engine)
    }

    /// Sends `command` and reads its answer within `limit`: `Ok(Ok(text))`
    /// for `= text`, `Ok(Err(text))` for `? text`. A failure kills the engine.
    fn ask(&mut self, command: &str, limit: Duration) -> Result<Result<String, String>, Failure> {
        let deadline = Instant::now() + limit;
        self.0.send(command)?;
        let mut answer: Vec<String> = Vec::new();
        loop {
            let line = self.0.next_line(deadline, limit)?;
            let line = line.trim_end().to_string();
            if answer.is_empty() {
                if line.trim().is_empty() {
                    continue;
                }
                if !line.starts_with('=') && !line.starts_with('?') {
                    let text = line.chars().take(40).collect();
                    return Err(self.0.fail(Failure::Garbage(text)));
                }
            } else if line.trim().is_empty() {
                break;
            }
            answer.push(line);
            if answer.len() > ANSWER_LINES {
                let text = "an answer of too many lines".to_string();
                return Err(self.0.fail(Failure::Garbage(text)));
            }
        }
        let text = answer.join("\n");
        // `=` or `?`, an optional id, then the text.
        let ok = text.starts_with('=');
        let rest = text[1..].trim_start_matches(|c: char| c.is_ascii_digit());
        let rest = rest.trim().to_string();
        Ok(if ok { Ok(rest) } else { Err(rest) })
    }
}

/// The engine's name for the results table: `name` and `version` as it
/// answers them (printable, at most 40 characters), or its command.
pub fn engine_name(program: &Program) -> String {
    let given = Engine::spawn(program).ok().and_then(|mut engine| {
        let limit = Duration::from_secs(5);
        let name = engine.ask("name", limit).ok()?.ok()?;
        let version = engine
            .ask("version", limit)
            .ok()
            .and_then(Result::ok)
            .unwrap_or_default();
        let text = format!("{name} {version}").trim().to_string();
        let printable = text.chars().all(|c| (' '..='~').contains(&c));
        (!text.is_empty() && text.len() <= 40 && printable).then_some(text)
    });
    given.unwrap_or_else(|| program.path.clone())
}

/// A GTP engine playing one game.
pub struct GtpPlayer<G: Game> {
    engine: Engine,
    name: String,
    grace: Duration,
    /// Moves the engine has not been told yet: colour and vertex.
    pending: Vec<(String, String)>,
    /// Whether the next observed move is the one the engine just generated.
    generated: bool,
    /// Why the engine cannot play, when setting it up failed.
    broken: Option<Forfeit>,
    _game: PhantomData<fn() -> G>,
}

impl<G: Game> GtpPlayer<G> {
    /// Starts `program` for a game (`boardsize 8`, `clear_board`), shown
    /// as `name`, given `grace` beyond each move's time. `Err` only when
    /// the program cannot be started; an engine that fails its setup
    /// forfeits its first move.
    pub fn new(program: &Program, name: String, grace: Duration) -> Result<Self, String> {
        let mut engine =
            Engine::spawn(program).map_err(|e| format!("cannot run {}: {e}", program.path))?;
        let mut broken = None;
        for command in ["boardsize 8", "clear_board"] {
            match engine.ask(command, SETUP_LIMIT) {
                Ok(Ok(_)) => {}
                Ok(Err(message)) => {
                    broken = Some(Forfeit(format!(
                        "the engine refused `{command}`: {message}"
                    )));
                    break;
                }
                Err(failure) => {
                    broken = Some(failure.forfeit(command));
                    break;
                }
            }
        }
        Ok(GtpPlayer {
            engine,
            name,
            grace,
            pending: Vec::new(),
            generated: false,
            broken,
            _game: PhantomData,
        })
    }

    /// Tells the engine every move it has not seen.
    fn catch_up(&mut self) -> Result<(), Forfeit> {
        for (color, vertex) in std::mem::take(&mut self.pending) {
            let command = format!("play {color} {vertex}");
            match self.engine.ask(&command, SETUP_LIMIT) {
                Ok(Ok(_)) => {}
                // Some engines do not take passes; they pass by themselves.
                Ok(Err(_)) if vertex == "pass" => {}
                Ok(Err(message)) => {
                    return Err(Forfeit(format!(
                        "the engine refused `{command}`: {message}"
                    )))
                }
                Err(failure) => return Err(failure.forfeit(&command)),
            }
        }
        Ok(())
    }
}

/// The colour word of the side to move (GTP's `black`/`white`).
fn color<G: Game>(state: &G::State) -> String {
    G::info().sides[G::to_move(state) as usize].to_ascii_lowercase()
}

impl<G: Game> Player<G> for GtpPlayer<G> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, state: &G::State, turn: &Turn) -> Result<Choice<G::Move>, Forfeit> {
        if let Some(forfeit) = &self.broken {
            return Err(forfeit.clone());
        }
        self.catch_up()?;
        let command = format!("genmove {}", color::<G>(state));
        let limit = turn.budget + self.grace;
        let answer = match self.engine.ask(&command, limit) {
            Ok(Ok(answer)) => answer,
            Ok(Err(message)) => {
                return Err(Forfeit(format!(
                    "illegal: the engine refused `{command}`: {message}"
                )))
            }
            Err(failure) => return Err(failure.forfeit(&command)),
        };
        let vertex = answer.to_ascii_lowercase();
        if vertex == "resign" {
            return Err(Forfeit("resigned".to_string()));
        }
        let mv = G::parse_move(state, &Value::String(vertex))
            .map_err(|e| Forfeit(format!("illegal: {answer:?}: {e}")))?;
        self.generated = true;
        Ok(Choice::of(mv))
    }

    fn observe(&mut self, before: &G::State, mv: &G::Move) {
        if std::mem::take(&mut self.generated) {
            return;
        }
        let vertex = G::notation(before, mv).to_ascii_lowercase();
        self.pending.push((color::<G>(before), vertex));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine(script: &str) -> Engine {
        let program = Program {
            path: "/bin/sh".to_string(),
            args: vec!["-c".to_string(), script.to_string()],
        };
        Engine::spawn(&program).unwrap()
    }

    #[test]
    fn reads_answers_with_ids_errors_and_garbage() {
        let limit = Duration::from_secs(5);
        let mut ok =
            engine("read a; printf '=12 E6\\n\\n'; read b; printf '? illegal move\\n\\n'; sleep 5");
        assert_eq!(
            ok.ask("genmove black", limit).unwrap(),
            Ok("E6".to_string())
        );
        assert_eq!(
            ok.ask("play white pass", limit).unwrap(),
            Err("illegal move".to_string())
        );
        let mut garbage = engine("read a; echo hello; sleep 5");
        assert!(matches!(
            garbage.ask("name", limit),
            Err(Failure::Garbage(text)) if text == "hello"
        ));
        assert!(matches!(garbage.ask("name", limit), Err(Failure::Quit)));
        let mut quiet = engine("sleep 5");
        assert!(matches!(
            quiet.ask("name", Duration::from_millis(50)),
            Err(Failure::Timeout(_))
        ));
        let mut gone = engine("exit 0");
        assert!(matches!(
            gone.ask("name", limit),
            Err(Failure::Quit | Failure::Write(_))
        ));
    }

    #[test]
    fn a_rejected_pass_is_ignored_and_the_engine_plays_on() {
        use crate::game::{Codec, Rules};
        use crate::games::reversi::Reversi;
        let log = std::env::temp_dir().join(format!(
            "gamebot-gtp-pass-{}-{:08x}",
            std::process::id(),
            rand::random::<u32>()
        ));
        // Refuses `play … pass` as some engines do, and logs every command.
        let script = format!(
            "while read c; do echo \"$c\" >> '{}'; case \"$c\" in\n\
             'play white pass') printf '? illegal move\\n\\n' ;;\n\
             genmove*) printf '= C1\\n\\n' ;;\n\
             *) printf '= \\n\\n' ;;\n\
             esac; done",
            log.display()
        );
        let program = Program {
            path: "/bin/sh".to_string(),
            args: vec!["-c".to_string(), script],
        };
        let mut rows = vec!["........".to_string(); 8];
        rows[0] = "BW......".to_string();
        let state = |to_move: &str| {
            Reversi::state_from_json(&serde_json::json!({"board": rows, "to_move": to_move}))
                .unwrap()
        };
        // White has no move: it passes, and black then takes c1.
        let white = state("white");
        let mut legal = Vec::new();
        Reversi::legal_moves(&white, &mut legal);
        assert_eq!(Reversi::notation(&white, &legal[0]), "pass");
        let mut player =
            GtpPlayer::<Reversi>::new(&program, "fake".into(), Duration::from_secs(5)).unwrap();
        player.observe(&white, &legal[0]);
        let turn = Turn {
            ply: 1,
            seed: 0,
            budget: Duration::from_secs(1),
            game_time_left: None,
            clock: None,
        };
        let black = Reversi::apply(&white, &legal[0]);
        let choice = player.choose(&black, &turn).unwrap();
        assert_eq!(Reversi::notation(&black, &choice.mv), "c1");
        let commands = std::fs::read_to_string(&log).unwrap();
        assert_eq!(
            commands,
            "boardsize 8\nclear_board\nplay white pass\ngenmove black\n"
        );
        std::fs::remove_file(log).ok();
    }
}
