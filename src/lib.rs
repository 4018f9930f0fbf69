//! gamebot: a stateless HTTP service that knows the rules of several games and plays them.
//!
//! # Layout
//!
//! Dependencies point one way, from top to bottom:
//!
//! - [`api`] — the only module that knows HTTP (axum): routes, handlers, one
//!   typed request per endpoint whose rejections are problem+json, error
//!   mapping, health, metrics, and the OpenAPI document generated from the
//!   request, reply and game types. It sees games only through
//!   [`game::DynGame`].
//! - [`cli`] — the legacy harness contracts, the arena and the ladder, as
//!   subcommands, with one error type and one table of exit codes: a file
//!   per game's harness, and a folder for a subcommand of several files
//!   (`cli/arena/`: two-player matches and `solo.rs` for one-player games;
//!   `cli/ladder/`: the run, its `journal.rs`, the pooled earlier games of
//!   `pool.rs`, and `solo.rs`).
//! - [`arena`] — the match engine: players, clocks, openings, parallel games
//!   and statistics, generic over a game's rules and bots.
//! - [`compute`] — the bounded compute pool that runs every rules check and
//!   search: admission, queue, deadlines, cancellation.
//! - [`config`] — settings from flags and environment, with embedded defaults.
//! - [`games`] — one folder per game and the registry (one line per game).
//! - [`search`] — what every engine shares: the score scale, the
//!   transposition table, per-worker table memory, and alpha-beta generic
//!   over [`game::Rules`].
//! - [`game`] — the abstraction every game implements ([`game::Rules`],
//!   [`game::Bots`], [`game::Codec`], [`game::Referee`]), games as one-line records and their
//!   replay ([`game::record`]), board symmetries ([`game::symmetry`]), the
//!   type-erased JSON view of a game ([`game::erased`]), what every
//!   analysis shares ([`game::analysis`]: the search on the canonical twin,
//!   the typed answer put in words), the review ([`game::review`], judged
//!   in each position's job with the game's own types) and the JSON
//!   shapes that view takes and answers ([`game::wire`], which the API
//!   serves as they are and knows no HTTP); it
//!   imports nothing else from the crate, and `erased` → `review` →
//!   `analysis` one way.
//!
//! Every game folder `src/games/<id>/` has the same shape, and its modules
//! depend one way, `board` ← `state` ← `notation` ← `bots`: a state never
//! imports notation, and what both need (a square's name, the move type)
//! lives in `board.rs`, `movegen.rs` or `state.rs`. The position type is
//! `State` and the move type `Move` (or a word of the game's own: Naughts'
//! `Play`, Number Crush's `Swap`):
//!
//! - `mod.rs` — the registry face: the game type with its `Rules`, `Bots`,
//!   `Codec` and `Referee` impls, its level enum (`declare_levels!`), its typed options, and
//!   a doc that lists the folder's modules. `Bots::choose_move` hands the
//!   level to `bots::choose`.
//! - `state.rs` — the validated `State`: its invariants and its JSON (and text)
//!   form, with errors that say where and why.
//! - `notation.rs` — moves as notation strings and JSON objects, read back
//!   with the reason a move is not legal (and, where a game's record is not
//!   simply one word a move, how the record is written or cut into moves).
//! - `bots/` — `mod.rs` chooses the level (`choose`) and runs the small
//!   ones; one file per engine, or a folder where an engine is split by job
//!   (Reversi's `engine/`: the search, with `leaf.rs`, `root.rs` and
//!   `time.rs`; `endgame/`: the solver, with its node searches in
//!   `nodes.rs`); `eval.rs` for the evaluation a search uses (and, where
//!   the generic search plays the game, its `search::Evaluate` impl).
//! - `tests/` — the game's unit and property tests, one file a subject
//!   (rules, forms, levels, properties, records, …) and reference
//!   implementations in files of their own (Advance's `reference.rs`);
//!   a game with few tests keeps them in one `tests.rs` (Number Crush).
//! - where the game needs them: `board.rs` (a fast position representation
//!   apart from the state; Reversi's `Move` too), `movegen.rs` (move
//!   generation and the `Move` type, apart from the board), `text.rs` (a legacy text contract of its own), and the extras
//!   its `mod.rs` names (Advance's `explain.rs`, Reversi's `perft.rs`,
//!   Crush's `rng.rs` and `columns.rs`).
//!
//! A game's JSON forms are types (`StateJson` in `state.rs`, `MoveJson` in
//! `notation.rs`) deriving `schemars::JsonSchema`: the game writes through
//! them, and the API's contract publishes their schemas, so the document
//! describes what is sent.

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
