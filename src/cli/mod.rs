//! Subcommands besides `serve`: the legacy harness contracts of each game and the arena.
//!
//! # Errors and exit codes
//!
//! Every subcommand (and `serve`, when it cannot start) fails the same way:
//! with a [`CliError`], which [`report`] prints as one line on stderr,
//! `gamebot <command>: <message>`, and turns into the exit code below. The
//! codes are the same for every subcommand, and they keep each legacy
//! contract's promises: Advance's harness is promised a non-zero code and an
//! untouched OUT for every error (docs/rules/advance.md); Halma's referee is
//! promised 1 for a bad or missing `input.txt` and 2 for a finished game or a
//! failed write (docs/rules/halma.md).
//!
//! | code | variant | when |
//! |---|---|---|
//! | 0 | — | success (also `naughts` when standard output is closed under it) |
//! | 1 | [`Unreadable`](CliError::Unreadable) | an input file cannot be read (`advance`'s IN, `halma`'s `input.txt`), or is larger than its format allows or never ends (`/dev/zero`): each is read with a bound ([`limits`]) |
//! | 1 | [`Input`](CliError::Input) | an input file is malformed; the message names the file and the line (and column) |
//! | 1 | [`Game`](CliError::Game) | the game refused the position or the bot failed on it |
//! | 1 | [`Io`](CliError::Io) | standard input or output failed (`naughts`, `crush`); `serve` could not start its runtime or listen |
//! | 2 | [`Usage`](CliError::Usage) | bad arguments: wrong words, an unknown game, level or level option, a value out of range, bad `--options`, a bad `serve` address; clap's own refusals (unknown flags, conflicts, and a time or clock flag that is no duration: NaN, infinite, negative, beyond a day, [`limits`]) are 2 too |
//! | 2 | [`NoMove`](CliError::NoMove) | the position has no move to play (`halma`: the game is over; `advance`: the colour is stuck) |
//! | 2 | [`Output`](CliError::Output) | the result could not be written (`advance`'s OUT, `halma`'s `output.txt`, `arena --games-log`); nothing was written |
//!
//! `tests/it/cli_errors.rs` runs the binary into each of these.

pub mod advance;
pub mod arena;
pub mod crush;
pub mod error;
pub mod games_log;
pub mod halma;
pub mod ladder;
pub mod limits;
pub mod naughts;

pub use error::{report, CliError};
