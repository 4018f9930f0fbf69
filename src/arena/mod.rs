//! The match engine: plays whole games between two players (or a lone
//! player, for a one-player game) over a game's [`Rules`](crate::game::Rules),
//! typed, with no JSON and no game named anywhere in it.
//!
//! - [`player`]: what a player is ([`Player`]) and the one every game has, a
//!   bot level under a budget ([`LevelPlayer`]); outside programs plug in here.
//! - [`clock`]: time controls (a time per move, or a clock for the whole game)
//!   and the bookkeeping that turns a late move into a loss on time.
//! - [`engine`]: one game ([`play_game`]) and a match of many games in
//!   parallel with alternating colours and seeded random openings, each
//!   played twice with the colours swapped ([`Openings`], [`play_games`]).
//! - [`process`]: the referee's process runner for outside programs (a
//!   time limit, a process group killed whole, capped output), with
//!   [`contain`], the keeper that kills a program's whole tree (`setsid`
//!   and double forks included), and the
//!   outside players, one module per contract: [`board_file`]: programs
//!   that play by board file (`cab201:`), [`agent`]: programs that play in
//!   a working folder (`halma-agent:`), [`gtp`]: engines that speak GTP
//!   (`gtp:`), [`line_program`]: programs that play by lines (`exec:`),
//!   and [`service`]: a level of a gamebot service over HTTP (`service:`).
//! - [`solo`]: matches of a one-player game, every contestant on the same
//!   seeded boards, compared by paired differences.
//! - [`stats`]: the match's totals, score with its Elo difference and 95%
//!   interval, think times, and the games log.
//!
//! `gamebot arena`, `gamebot ladder`, the crush benchmark and the strength tests all play
//! through here, so every figure in the README comes from the same loop.

pub mod agent;
pub mod board_file;
pub mod clock;
pub mod contain;
pub mod engine;
pub mod gtp;
pub mod line_program;
pub mod player;
pub mod process;
pub mod service;
pub mod solo;
pub mod stats;

pub use clock::TimeControl;
pub use engine::{
    default_threads, play_game, play_games, run_parallel, GameRecord, MatchSpec, Openings, Resign,
    Seat,
};
pub use player::{Choice, Forfeit, LevelPlayer, Player, Turn};
pub use stats::{MatchSummary, SeatSummary};
