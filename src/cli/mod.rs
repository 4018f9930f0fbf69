//! The legacy harness contracts, one module per game.

pub mod crush;
