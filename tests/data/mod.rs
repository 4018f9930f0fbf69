//! The reference data the tests and benches read: perft tables, endgame
//! positions, seed examples, generator vectors and transcripts, one folder a
//! game (`tests/data/<game>/`), all inside the repository.
//!
//! This one file is the only reader. Unit tests include it with
//! `#[path = "../../tests/data/mod.rs"]`, the integration tests through
//! `tests/common`, the benches with `#[path]` as well, so every test names a
//! file the same way: `data::json("reversi/perft.json")`.
#![allow(dead_code)]

use std::path::PathBuf;

/// Where a data file lives: `name` is relative to `tests/data`, such as
/// `"advance/perft.json"`.
pub fn path(name: &str) -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data")).join(name)
}

/// A data file's text; panics with the path when it cannot be read, since a
/// missing fixture is a broken checkout rather than a test result.
pub fn text(name: &str) -> String {
    let path = path(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A JSON data file, parsed.
pub fn json(name: &str) -> serde_json::Value {
    serde_json::from_str(&text(name)).unwrap_or_else(|e| panic!("tests/data/{name}: {e}"))
}
