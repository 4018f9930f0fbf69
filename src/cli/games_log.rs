//! The arena's games log (`--games-log`): one JSON line per finished game,
//! appended as each game ends, rewritten in game order at the end; and its
//! reading back (`--resume`), so that a match longer than one sitting is
//! played in parts and summarised whole.
//!
//! Every line carries the match's [`MatchSetup`] beside the game, so a log
//! is never finished by a different match: a resumed run whose players,
//! seed, opening, time control, adjudication or `new` options differ from
//! the log's is refused, naming the difference. A game's fields added
//! since a log was written (the plans of clocked moves, the clocks left at
//! the end) are absent from its lines, and read back as empty.

use super::CliError;
use crate::arena::{GameRecord, Openings};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// What makes two runs the same match: game `i` of one is game `i` of the
/// other.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchSetup {
    /// Seat A as the command line names it.
    pub a: String,
    /// Seat B as the command line names it.
    pub b: String,
    /// The match seed.
    pub seed: u64,
    /// Random plies at the start of every game.
    pub random_plies: usize,
    /// How the games share their openings; a log written before openings
    /// were paired has no such field, and its games drew one each.
    #[serde(default = "openings_of_an_older_log")]
    pub openings: Openings,
    /// Plies after which a game is a draw.
    pub max_plies: usize,
    /// Each seat's time control, as the summary labels it.
    pub time: [String; 2],
    /// The resign adjudication flags (empty when games are played out).
    pub resign: String,
    /// The options of `new`.
    pub options: Value,
}

impl MatchSetup {
    /// The first field in which `other` (a log's) differs, in words, or `None`.
    pub fn difference(&self, other: &MatchSetup) -> Option<String> {
        let fields = [
            ("a", self.a.clone(), other.a.clone()),
            ("b", self.b.clone(), other.b.clone()),
            ("seed", self.seed.to_string(), other.seed.to_string()),
            (
                "random plies",
                self.random_plies.to_string(),
                other.random_plies.to_string(),
            ),
            (
                "openings",
                self.openings.to_string(),
                other.openings.to_string(),
            ),
            (
                "max plies",
                self.max_plies.to_string(),
                other.max_plies.to_string(),
            ),
            ("time", self.time.join(" / "), other.time.join(" / ")),
            ("resign flags", self.resign.clone(), other.resign.clone()),
            (
                "options",
                self.options.to_string(),
                other.options.to_string(),
            ),
        ];
        fields
            .into_iter()
            .find(|(_, ours, theirs)| ours != theirs)
            .map(|(field, ours, theirs)| format!("{field}: {theirs} in the log, {ours} here"))
    }
}

/// The openings of a log that does not say: one per game, the only way
/// before pairing.
fn openings_of_an_older_log() -> Openings {
    Openings::PerGame
}

/// One line of the log as read: the game, and the match it belongs to.
#[derive(Deserialize)]
struct LogLine {
    #[serde(flatten)]
    game: GameRecord,
    setup: MatchSetup,
}

/// One line of the log as written.
#[derive(Serialize)]
struct LogLineOf<'a> {
    #[serde(flatten)]
    game: &'a GameRecord,
    setup: &'a MatchSetup,
}

/// The games log of a match being played: each game appended as it ends
/// (from whichever thread played it), and at the end the whole match
/// rewritten in game order. A failed write is kept and reported at the end
/// rather than stopping the match's other games.
pub struct GamesLog {
    path: PathBuf,
    setup: MatchSetup,
    file: Mutex<std::fs::File>,
    failure: Mutex<Option<std::io::Error>>,
}

impl GamesLog {
    /// Creates (or empties) the file before any game is played, so that a
    /// path that cannot be written is refused at once.
    pub fn create(path: &Path, setup: MatchSetup) -> Result<GamesLog, CliError> {
        Self::starting_with(path, setup, &[])
    }

    /// Reads the games a stopped run of the same match logged in `path`
    /// (none when there is no file yet) and opens it to go on: the games
    /// come back by index, for the match of `games` games to play only the
    /// others. A last line cut short by the stop is dropped; any other line
    /// that is not a game of this match is refused.
    pub fn resume(
        path: &Path,
        setup: MatchSetup,
        games: usize,
    ) -> Result<(GamesLog, Vec<GameRecord>), CliError> {
        let text = super::limits::read_text_if_any(path, super::limits::RECORD_FILE_CAP)?
            .unwrap_or_default();
        let finished = read_games(path, &text, &setup, games)?;
        let log = Self::starting_with(path, setup, &finished)?;
        Ok((log, finished))
    }

    /// Writes `games` to a new file at `path`, to be appended to.
    fn starting_with(
        path: &Path,
        setup: MatchSetup,
        games: &[GameRecord],
    ) -> Result<GamesLog, CliError> {
        let output = |source| CliError::Output {
            path: path.to_path_buf(),
            source,
        };
        let mut file = std::fs::File::create(path).map_err(output)?;
        let lines = lines(&setup, games).map_err(output)?;
        file.write_all(lines.as_bytes()).map_err(output)?;
        Ok(GamesLog {
            path: path.to_path_buf(),
            setup,
            file: Mutex::new(file),
            failure: Mutex::new(None),
        })
    }

    /// Appends one finished game as a line.
    pub fn append(&self, record: &GameRecord) {
        let written = line(&self.setup, record).and_then(|line| {
            let mut file = self.file.lock().expect("no writer panics holding it");
            file.write_all(line.as_bytes()).and_then(|()| file.flush())
        });
        if let Err(error) = written {
            self.failure
                .lock()
                .expect("no writer panics holding it")
                .get_or_insert(error);
        }
    }

    /// Rewrites the file with every game in game order, or reports the
    /// first write that failed.
    pub fn finish(self, records: &[GameRecord]) -> Result<(), CliError> {
        let output = |source| CliError::Output {
            path: self.path.clone(),
            source,
        };
        if let Some(error) = self.failure.into_inner().expect("games ended") {
            return Err(output(error));
        }
        let lines = lines(&self.setup, records).map_err(output)?;
        std::fs::write(&self.path, lines).map_err(output)
    }
}

/// A whole log read back to be used elsewhere (`gamebot ladder --pool`):
/// its match and every game, in game order. A log whose last line is cut
/// short (a match still being played, or stopped mid-write) is refused.
pub fn read_log(path: &Path) -> Result<(MatchSetup, Vec<GameRecord>), CliError> {
    let refuse = |detail: &str| CliError::Input {
        path: path.to_path_buf(),
        detail: detail.to_string(),
    };
    let text = super::limits::read_text(path, super::limits::RECORD_FILE_CAP)?;
    if text.is_empty() {
        return Err(refuse("no games"));
    }
    if !text.ends_with('\n') {
        return Err(refuse(
            "the last line is cut short (a match still being played?); \
             finish it with the arena's --resume",
        ));
    }
    let first = text.lines().next().unwrap_or_default();
    let setup = serde_json::from_str::<LogLine>(first)
        .map_err(|e| refuse(&format!("line 1: not a game of an arena's log: {e}")))?
        .setup;
    let games = read_games(path, &text, &setup, usize::MAX)?;
    Ok((setup, games))
}

/// The games of `text`, a log of this match, checked: each of `setup`, of an
/// index below `games`, and logged once.
fn read_games(
    path: &Path,
    text: &str,
    setup: &MatchSetup,
    games: usize,
) -> Result<Vec<GameRecord>, CliError> {
    let refuse = |number: usize, detail: String| CliError::Input {
        path: path.to_path_buf(),
        detail: format!("line {number}: {detail}"),
    };
    // A line without its newline is one the stopped run did not finish writing.
    let whole = text.rfind('\n').map_or("", |end| &text[..=end]);
    let mut by_index = BTreeMap::new();
    for (number, text) in (1..).zip(whole.lines()) {
        let line: LogLine = serde_json::from_str(text)
            .map_err(|e| refuse(number, format!("not a game of an arena's log: {e}")))?;
        if let Some(difference) = setup.difference(&line.setup) {
            return Err(refuse(
                number,
                format!("a game of another match ({difference}); --resume goes on with the same command"),
            ));
        }
        let index = line.game.index;
        if index >= games {
            return Err(refuse(
                number,
                format!(
                    "game {index}, but the match has {games} games (game 0 to {})",
                    games.saturating_sub(1)
                ),
            ));
        }
        if by_index.insert(index, line.game).is_some() {
            return Err(refuse(number, format!("game {index} a second time")));
        }
    }
    Ok(by_index.into_values().collect())
}

/// `games` as lines of a log of the match `setup`.
fn lines(setup: &MatchSetup, games: &[GameRecord]) -> std::io::Result<String> {
    games.iter().map(|game| line(setup, game)).collect()
}

/// One game as a line of JSON.
fn line(setup: &MatchSetup, game: &GameRecord) -> std::io::Result<String> {
    Ok(serde_json::to_string(&LogLineOf { game, setup })? + "\n")
}
