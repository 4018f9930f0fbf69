//! Outside programs that play by board file, the Advance studio's contract
//! (`cab201:PATH [ARGS…]` in the arena): per move the referee writes the
//! board in the game's text form ([`Codec::board_file`]) to `IN` in a fresh
//! directory, runs `PATH ARGS SIDE IN OUT` there under the move's time
//! limit, and reads `OUT`, which must be exactly one legal successor of the
//! board. Anything else forfeits: `timeout after 250 ms`, `exit code 1`,
//! `no output`, or `illegal: …` (unchanged, garbage, two moves, a rule
//! broken). `PATH ARGS name` names the program once for the results table.

use super::player::{Choice, Forfeit, Player, Turn};
use super::process;
use crate::game::{Codec, Game};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The prefix of a board-file player on the arena's command line.
pub const PREFIX: &str = "cab201:";

/// How long `name` may take.
const NAME_LIMIT: Duration = Duration::from_secs(2);

/// `path` made absolute when it is relative and names a directory part.
fn from_here(path: String) -> String {
    let relative = Path::new(&path);
    if relative.is_absolute() || !path.contains('/') {
        return path;
    }
    std::env::current_dir()
        .map(|here| here.join(relative).to_string_lossy().into_owned())
        .unwrap_or(path)
}

/// An outside program: its path and the arguments that come before the
/// contract's own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// The program to run.
    pub path: String,
    /// Its leading arguments.
    pub args: Vec<String>,
}

impl Program {
    /// Reads `PATH [ARGS…]` (split at whitespace, no quoting). A relative
    /// path with a `/` is taken from the directory the arena runs in, as a
    /// shell would, since the program itself runs in a fresh directory; a
    /// bare name is looked up on `PATH`.
    pub fn parse(text: &str) -> Result<Program, String> {
        let mut words = text.split_whitespace().map(str::to_string);
        let path = words
            .next()
            .ok_or_else(|| "expected a program after the prefix".to_string())?;
        Ok(Program {
            path: from_here(path),
            args: words.collect(),
        })
    }

    /// The program's name as it gives it (`PATH ARGS name`, the first line
    /// of its output, at most 32 printable characters), or its path when
    /// it gives none.
    pub fn name(&self) -> String {
        let dir = std::env::temp_dir();
        let mut args = self.args.clone();
        args.push("name".to_string());
        let given = process::run(&self.path, &args, &dir, NAME_LIMIT)
            .ok()
            .filter(|run| run.ending.failure().is_none())
            .and_then(|run| {
                let text = String::from_utf8_lossy(&run.stdout).into_owned();
                let line = text.lines().next()?.trim().to_string();
                let printable = line.chars().all(|c| (' '..='~').contains(&c));
                (!line.is_empty() && line.len() <= 32 && printable).then_some(line)
            });
        given.unwrap_or_else(|| self.path.clone())
    }
}

/// A fresh directory under the system's temporary directory, removed on drop.
pub(super) struct FreshDir(PathBuf);

impl FreshDir {
    pub(super) fn new() -> std::io::Result<FreshDir> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let path = std::env::temp_dir().join(format!(
            "gamebot-referee-{}-{}-{:08x}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed),
            rand::random::<u32>()
        ));
        std::fs::create_dir(&path)?;
        Ok(FreshDir(path))
    }

    pub(super) fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for FreshDir {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.0).ok();
    }
}

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
        let board = <G as Codec>::board_file(state)
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
        let mut text = Vec::new();
        if let Ok(file) = std::fs::File::open(&output) {
            use std::io::Read;
            file.take(process::OUTPUT_CAP as u64)
                .read_to_end(&mut text)
                .ok();
        }
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
            .find(|mv| <G as Codec>::board_file(&G::apply(state, mv)).as_deref() == Some(&text))
            .map(|mv| Choice {
                mv,
                nodes: None,
                depth: None,
            })
            .ok_or_else(|| Forfeit("illegal: no legal move leads to this board".to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_programs_and_normalises_boards() {
        let program = Program::parse("  /bin/bot  advance --level greedy ").unwrap();
        assert_eq!(program.path, "/bin/bot");
        assert_eq!(program.args, ["advance", "--level", "greedy"]);
        assert!(Program::parse("  ").is_err());
        // The program runs in a fresh folder, so a relative path is taken
        // from where the arena runs; a bare name is left for PATH.
        let here = std::env::current_dir().unwrap();
        let relative = Program::parse("target/debug/gamebot advance").unwrap();
        assert_eq!(
            relative.path,
            here.join("target/debug/gamebot").to_string_lossy()
        );
        assert_eq!(Program::parse("gamebot").unwrap().path, "gamebot");
        assert_eq!(normalise("ab\r\ncd"), "ab\ncd\n");
        assert!(same_shape("ab\ncd\n", "xy\nzw\n"));
        assert!(!same_shape("ab\ncde\n", "xy\nzw\n"));
        assert!(!same_shape("ab\n", "xy\nzw\n"));
    }

    #[test]
    fn a_program_without_name_is_named_by_its_path() {
        let program = Program::parse("/bin/false").unwrap();
        assert_eq!(program.name(), "/bin/false");
        let program = Program::parse("/bin/echo my-bot").unwrap();
        assert_eq!(program.name(), "my-bot name");
    }
}
