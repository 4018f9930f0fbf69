//! The integration tests, in one binary: a module for each area (the
//! files beside this one), over the real router, a real socket, the real
//! binary and outside programs. One binary compiles and links the test
//! code once, where a binary a file linked some forty (docs/TESTING.md).
//!
//! Its tests share one process, so none may set or read what the whole
//! process shares and another test changes: the metrics recorder's
//! counts and the engines' table budget are tested in `tests/process_wide`,
//! one at a time. Run one module with its name as the filter:
//! `cargo test --test it seeded_levels::`.

#[path = "../common/mod.rs"]
mod common;

mod analysis;
mod api;
mod arena;
mod arena_clock;
mod cli_errors;
mod conformance;
mod consistency;
mod cors;
mod crush_cli;
mod crush_exec;
mod gtp;
mod halma_agent;
mod hostile;
mod keys;
mod ladder;
mod legacy;
mod live_play;
mod naughts_cli;
mod naughts_pass;
mod openapi;
mod placement;
mod playground;
mod pointers;
mod problem_codes;
mod referee;
mod referee_hostile;
mod referee_signals;
mod registry;
mod replay;
mod review;
mod seeded_levels;
mod server;
mod tie_breaks;
