//! The registry: every game the service knows, one line each. The HTTP layer,
//! the conformance test, the arena and the benchmarks all find games here.

use crate::game::{DynGame, Erased};

pub mod halma;

/// Every game, in the order `GET /v1/games` lists them.
pub static REGISTRY: &[&dyn DynGame] = &[&Erased::<halma::Halma>::VIEW];

/// The game with this id, if there is one.
pub fn find(id: &str) -> Option<&'static dyn DynGame> {
    REGISTRY.iter().copied().find(|game| game.info().id == id)
}

#[allow(unused_imports)]
use Erased as _;
