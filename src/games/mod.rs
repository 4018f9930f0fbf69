//! The registry: every game the service knows, one line each. The HTTP layer,
//! the conformance test, the arena and the benchmarks all find games here.

use crate::game::{DynGame, Erased};

pub mod advance;
pub mod crush;
pub mod halma;
pub mod naughts;
pub mod reversi;

/// Every game, in the order `GET /v1/games` lists them.
pub static REGISTRY: &[&dyn DynGame] = &[
    &Erased::<advance::Advance>::VIEW,
    &Erased::<halma::Halma>::VIEW,
    &Erased::<reversi::Reversi>::VIEW,
    &Erased::<naughts::Naughts>::VIEW,
    &Erased::<crush::Crush>::VIEW,
];

/// The game with this id, if there is one.
pub fn find(id: &str) -> Option<&'static dyn DynGame> {
    REGISTRY.iter().copied().find(|game| game.info().id == id)
}
