//! Every numbered level is bounded by positions and depth, never by time,
//! so for a seed it plays the same move on any machine under any load:
//! every numbered level of every game plays the same seeded game twice,
//! the second time with every other core kept busy and a budget whose
//! deadline has passed, move for move alike.

use gamebot::game::erased::{BotRequest, StateInput};
use gamebot::game::{Budget, DynGame};
use gamebot::games::REGISTRY;
use serde_json::{json, Map, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Plies of a game played at `level`, from `start`, each move seeded by
/// `seed` and its ply: the moves, as JSON.
fn seeded_game(
    game: &dyn DynGame,
    start: &Value,
    level: u8,
    plies: usize,
    budget: &Budget,
) -> Vec<Value> {
    let mut state = start.clone();
    let mut moves = Vec::new();
    for ply in 0..plies {
        if game.legal_moves(&state).unwrap().moves.is_empty() {
            break;
        }
        let request = BotRequest {
            state: StateInput::Json(state.clone()),
            level: Some(level.to_string()),
            seed: Some(1000 + ply as u64),
            budget_fields: Vec::new(),
            own_fields: Map::new(),
            perspective: None,
        };
        let reply = game
            .bot_move(&request, budget)
            .unwrap_or_else(|e| panic!("{} level {level}: {e}", game.info().id));
        moves.push(reply.mv);
        state = reply.state;
        if reply.outcome["status"] != json!("ongoing") {
            break;
        }
    }
    moves
}

/// Keeps every core but one spinning until the guard is dropped.
struct BusyCores(Arc<AtomicBool>, Vec<std::thread::JoinHandle<()>>);

impl BusyCores {
    fn start() -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let others = std::thread::available_parallelism().map_or(1, |n| n.get().max(2) - 1);
        let threads = (0..others)
            .map(|_| {
                let stop = stop.clone();
                std::thread::spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        std::hint::spin_loop();
                    }
                })
            })
            .collect();
        BusyCores(stop, threads)
    }
}

impl Drop for BusyCores {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
        for thread in self.1.drain(..) {
            thread.join().unwrap();
        }
    }
}

/// Plies enough to pass the opening, fewer for the costly top rungs (a
/// debug build searches a few hundred thousand positions a second).
fn plies_for(max_nodes: u64) -> usize {
    match max_nodes {
        n if n >= 1_000_000 => 1,
        n if n >= 100_000 => 2,
        _ => 6,
    }
}

#[test]
fn every_numbered_level_plays_the_same_seeded_game_under_load() {
    let mut checked = 0;
    for game in REGISTRY {
        let game: &dyn DynGame = *game;
        let start = game.new_game(&json!({})).unwrap().state;
        for level in game.listing().numbered_levels {
            let id = game.info().id;
            assert!(
                level.budget.load_independent && level.budget.time_ms.is_none(),
                "{id} level {}: {:?}",
                level.level,
                level.budget
            );
            assert!(
                level.budget.max_nodes.is_some(),
                "{id} level {}",
                level.level
            );
            let plies = plies_for(level.budget.max_nodes.unwrap_or(u64::MAX));
            let quiet = seeded_game(game, &start, level.level, plies, &Budget::unlimited());
            let busy = {
                let _busy = BusyCores::start();
                // A deadline long past: a level bounded by positions does not heed it.
                seeded_game(game, &start, level.level, plies, &Budget::with_time_ms(1))
            };
            assert!(!quiet.is_empty());
            assert_eq!(
                quiet,
                busy,
                "{} level {}: the moves differ under load",
                game.info().id,
                level.level
            );
            checked += 1;
        }
    }
    // Advance's 8, Halma's 12, Reversi's 12, Naughts' 4, Number Crush's 4.
    assert_eq!(checked, 40);
}
