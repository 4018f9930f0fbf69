//! The one error type of every subcommand, its exit codes, and the helper
//! that reports it. The table of exit codes is in the [module doc of
//! `cli`](super).

use crate::game::{Fault, GameError};
use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

/// Why a subcommand stopped without doing its job. Each variant has one exit
/// code ([`CliError::exit_code`]); [`report`] prints the message and returns it.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Bad arguments: a wrong word or count of words, an unknown level or
    /// level option, an option out of range, an unknown game. Exit code 2,
    /// as clap gives for the arguments it refuses itself.
    #[error("{0}")]
    Usage(String),
    /// An input file (IN, `input.txt`) that cannot be read. Exit code 1.
    #[error("cannot read {}: {source}", path.display())]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why it could not be read.
        source: io::Error,
    },
    /// An input file that is read but malformed; `detail` names the line
    /// (and column) at fault. Exit code 1.
    #[error("{}: {detail}", path.display())]
    Input {
        /// The file.
        path: PathBuf,
        /// What is wrong, and where.
        detail: String,
    },
    /// The position given has no move to play (the game is over, or the side
    /// to move is stuck). Exit code 2.
    #[error("{0}")]
    NoMove(String),
    /// The result could not be written (OUT, `output.txt`, a games log).
    /// Exit code 2; nothing else was written before it.
    #[error("cannot write {}: {source}", path.display())]
    Output {
        /// The file.
        path: PathBuf,
        /// Why it could not be written.
        source: io::Error,
    },
    /// The game refused a position or the bot failed on it (anything a
    /// [`GameError`] says that is not a usage error or a finished game).
    /// Exit code 1.
    #[error(transparent)]
    Game(GameError),
    /// Reading standard input or writing standard output failed, or the
    /// service could not start (its runtime, its listening socket). Exit code 1.
    #[error(transparent)]
    Io(#[from] io::Error),
}

impl CliError {
    /// A usage error with `message`.
    pub fn usage(message: impl Into<String>) -> Self {
        CliError::Usage(message.into())
    }

    /// The process exit code for this error (the table in [`super`]).
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Unreadable { .. }
            | CliError::Input { .. }
            | CliError::Game(_)
            | CliError::Io(_) => 1,
            CliError::Usage(_) | CliError::NoMove(_) | CliError::Output { .. } => 2,
        }
    }
}

/// A game's error, sorted by whose fault it is: a level or option the command
/// line named wrongly is a usage error, a finished game has no move, the
/// rest is the game's.
impl From<GameError> for CliError {
    fn from(error: GameError) -> Self {
        match error.fault() {
            Fault::Malformed | Fault::Option => CliError::Usage(error.to_string()),
            Fault::Finished => CliError::NoMove(error.to_string()),
            Fault::Content | Fault::Unsupported | Fault::Bug => CliError::Game(error),
        }
    }
}

/// Ends subcommand `command`: success is exit code 0; an error prints
/// `gamebot <command>: <message>` as one line on stderr and gives its exit code.
pub fn report(command: &str, result: Result<(), CliError>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("gamebot {command}: {error}");
            ExitCode::from(error.exit_code())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_has_its_documented_code() {
        let io = || io::Error::other("x");
        let path = || PathBuf::from("in.txt");
        let cases = [
            (CliError::usage("u"), 2),
            (
                CliError::Unreadable {
                    path: path(),
                    source: io(),
                },
                1,
            ),
            (
                CliError::Input {
                    path: path(),
                    detail: "line 3".into(),
                },
                1,
            ),
            (CliError::NoMove("over".into()), 2),
            (
                CliError::Output {
                    path: path(),
                    source: io(),
                },
                2,
            ),
            (CliError::Game(GameError::Internal("bug".into())), 1),
            (CliError::Io(io()), 1),
        ];
        for (error, code) in cases {
            assert_eq!(error.exit_code(), code, "{error:?}");
        }
    }

    #[test]
    fn game_errors_are_sorted_by_whose_fault_they_are() {
        let unknown = GameError::UnknownLevel {
            level: "clever".into(),
            known: "random, greedy".into(),
            suggestion: None,
            pointer: None,
        };
        assert!(matches!(CliError::from(unknown), CliError::Usage(m) if m.contains("clever")));
        let option = GameError::invalid_option("depth must be 1..=8");
        assert_eq!(CliError::from(option).exit_code(), 2);
        assert!(matches!(
            CliError::from(GameError::game_over()),
            CliError::NoMove(_)
        ));
        let state = CliError::from(GameError::invalid_state("no"));
        assert!(matches!(state, CliError::Game(_)));
        assert_eq!(state.exit_code(), 1);
    }

    #[test]
    fn messages_name_the_file() {
        let error = CliError::Input {
            path: PathBuf::from("/d/input.txt"),
            detail: "line 2: expected WHITE or BLACK".into(),
        };
        assert_eq!(
            error.to_string(),
            "/d/input.txt: line 2: expected WHITE or BLACK"
        );
        let error = CliError::Unreadable {
            path: PathBuf::from("/d/in.txt"),
            source: io::Error::other("gone"),
        };
        assert_eq!(error.to_string(), "cannot read /d/in.txt: gone");
    }
}
