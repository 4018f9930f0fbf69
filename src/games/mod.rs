//! The registry: every game the service knows, one line each. The HTTP layer,
//! the conformance test, the arena and the benchmarks all find games here.

use crate::game::{DynGame, Erased};
use std::sync::OnceLock;

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

/// The ids of the registry's games, in registry order, read once (a game's
/// `info()` builds its whole description, too much for every request).
pub fn ids() -> &'static [&'static str] {
    static IDS: OnceLock<Vec<&'static str>> = OnceLock::new();
    IDS.get_or_init(|| REGISTRY.iter().map(|game| game.info().id).collect())
}

/// The game with this id, if there is one.
pub fn find(id: &str) -> Option<&'static dyn DynGame> {
    let index = ids().iter().position(|known| *known == id)?;
    Some(REGISTRY[index])
}
