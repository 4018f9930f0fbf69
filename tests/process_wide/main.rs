//! The integration tests that read or set what the whole test process
//! shares, in a binary of their own: the metrics recorder's counts (the
//! cache's hits and misses, a search's nodes, by game and level, which
//! any other test's requests would add to) and the engines' table budget
//! (`search::memory`, which `serve` sets from `table_mb`, and which every
//! search in the process then uses). In `tests/it` some forty modules'
//! requests and servers would change both under these tests' feet.
//!
//! Here too they share one process, so a test that reads counts it
//! compares or sets the budget holds [`alone`] for as long as it runs,
//! and every other test holds [`shared`]: such a test runs with no other.

#[path = "../common/mod.rs"]
mod common;

mod cache;
mod contract_behaviour;
mod naughts_memory;

use tokio::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

/// Read by the tests that neither compare process-wide counts nor set
/// the table budget, written by one such test alone.
static PROCESS: RwLock<()> = RwLock::const_new(());

/// The process to this test alone. When it ends, the engines' table
/// budget is back at its default, as a test that then runs finds it in a
/// process of its own.
pub async fn alone() -> Alone {
    Alone {
        _write: PROCESS.write().await,
    }
}

/// The process shared with the other tests that only hold this too.
pub async fn shared() -> RwLockReadGuard<'static, ()> {
    PROCESS.read().await
}

/// [`alone`]'s guard.
pub struct Alone {
    _write: RwLockWriteGuard<'static, ()>,
}

impl Drop for Alone {
    fn drop(&mut self) {
        let default = gamebot::search::memory::DEFAULT_TABLE_MB as usize;
        gamebot::search::memory::set_table_bytes(default << 20);
    }
}
