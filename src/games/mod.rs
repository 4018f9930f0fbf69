//! The registry: every game the service knows, one line each. The HTTP layer,
//! the conformance test, the arena and the benchmarks all find games here.

use crate::game::{Codec, DynGame, Erased, Game};

pub mod advance;
pub mod crush;
pub mod halma;
pub mod naughts;
pub mod reversi;

/// Something done with one game's types: the arena, the ladder and the
/// benchmarks use it to reach a game's typed rules and bots from its id,
/// through [`with_game`], without naming any game.
pub trait GameVisitor {
    /// What the visit returns.
    type Output;
    /// Does the work for game `G`.
    fn visit<G: Game>(self) -> Self::Output;
}

/// The registry: one line a game. It makes [`REGISTRY`], every game's JSON
/// view in the order `GET /v1/games` lists them, and [`with_game`], which
/// hands a game's type to a [`GameVisitor`].
macro_rules! registry {
    ($($game:ty),+ $(,)?) => {
        /// Every game, in the order `GET /v1/games` lists them.
        pub static REGISTRY: &[&dyn DynGame] = &[$(&Erased::<$game>::VIEW),+];

        /// Runs `visitor` with the game whose id is `id`, if there is one.
        pub fn with_game<V: GameVisitor>(id: &str, visitor: V) -> Option<V::Output> {
            $(
                if <$game as Codec>::info().id == id {
                    return Some(visitor.visit::<$game>());
                }
            )+
            None
        }
    };
}

registry![
    advance::Advance,
    halma::Halma,
    reversi::Reversi,
    naughts::Naughts,
    crush::Crush,
];

/// The ids of the registry's games, in registry order.
pub fn ids() -> Vec<&'static str> {
    REGISTRY.iter().map(|game| game.info().id).collect()
}

/// The game with this id, if there is one.
pub fn find(id: &str) -> Option<&'static dyn DynGame> {
    REGISTRY.iter().copied().find(|game| game.info().id == id)
}

/// Loads what the engines load on first use (evaluation weights, opening
/// books, this thread's solver and search tables) by playing each game's
/// default level and a shallow analysis from its start, so that the first
/// clocked move a thread answers does not pay for it.
pub fn warm_up() {
    use crate::game::erased::{BotRequest, StateInput};
    use crate::game::Budget;
    for game in REGISTRY {
        let Ok(new) = game.new_game(&serde_json::Value::Null) else {
            continue;
        };
        let request = BotRequest {
            state: StateInput::Json(new.state),
            level: None,
            seed: Some(1),
            budget_fields: Vec::new(),
            own_fields: serde_json::Map::new(),
            perspective: None,
        };
        // A timed move with no depth cap, as a clocked one is: a capped
        // search would make tables of its own, not the thread's.
        let _ = game.bot_move(&request, &Budget::with_time_ms(30));
        let _ = game.analyze(&request, 1, &Budget::with_time_ms(200).depth(2));
    }
}
