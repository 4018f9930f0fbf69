//! Subcommands besides `serve`: the legacy harness contracts of each game and the arena.

pub mod advance;
pub mod arena;
pub mod crush;
pub mod halma;
pub mod naughts;
