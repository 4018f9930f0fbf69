//! Any text as a game's own text form (the first byte picks the game, the
//! second the side to move): parsing must answer, never panic.
#![no_main]

use gamebot::game::Budget;
use gamebot::games::REGISTRY;
use libfuzzer_sys::fuzz_target;
use serde_json::{Map, Value};

fuzz_target!(|data: &[u8]| {
    let [pick, side, rest @ ..] = data else { return };
    let game = REGISTRY[*pick as usize % REGISTRY.len()];
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let sides = game.info().sides;
    let mut query = Map::new();
    query.insert("to_move".into(), Value::String(sides[*side as usize % sides.len()].to_string()));
    let _ = game.text_legal_moves(text, &query);
    query.insert("level".into(), Value::String(game.info().levels[0].id.to_string()));
    let _ = game.text_bot_move(text, &query, &Budget::with_time_ms(5).nodes(2_000));
});
