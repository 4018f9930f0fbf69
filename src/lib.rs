//! gamebot: a stateless HTTP service that knows the rules of several games and plays them.
//!
//! # Layout
//!
//! Dependencies point one way, from top to bottom:
//!
//! - [`api`] — the only module that knows HTTP (axum): routes, handlers, the
//!   JSON extractor whose rejections are problem+json, error mapping, health,
//!   metrics. It sees games only through [`game::DynGame`].
//! - [`cli`] — the legacy harness contracts and the arena, as subcommands.
//! - [`compute`] — the bounded compute pool that runs every rules check and
//!   search: admission, queue, deadlines, cancellation.
//! - [`config`] — settings from flags and environment, with embedded defaults.
//! - [`games`] — one folder per game and the registry (one line per game).
//! - [`search`] — search algorithms generic over [`game::Game`].
//! - [`game`] — the abstraction every game implements and the type-erased JSON
//!   view of it; it imports nothing else from the crate.

#![warn(missing_docs)]

pub mod api;
pub mod arena;
pub mod cli;
pub mod compute;
pub mod config;
pub mod game;
pub mod games;
pub mod search;

/// The reference data under `tests/data/`, for the unit tests.
#[cfg(test)]
#[path = "../tests/data/mod.rs"]
pub(crate) mod test_data;
