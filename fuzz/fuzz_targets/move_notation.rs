//! Any text or JSON as a move in a game's starting state (the first byte picks
//! the game): `play` must accept exactly the listed moves and refuse the rest
//! with an error, never panic.
#![no_main]

use gamebot::game::GameError;
use gamebot::games::REGISTRY;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let game = REGISTRY[pick as usize % REGISTRY.len()];
    let state = game.new_game(&Value::Null).expect("a new game").state;
    let legal = game.legal_moves(&state).expect("a valid state");
    let text = String::from_utf8_lossy(rest).to_string();
    let as_json = serde_json::from_slice::<Value>(rest).ok();
    for mv in [Some(Value::String(text)), as_json].into_iter().flatten() {
        match game.play(&state, &mv) {
            Ok(reply) => assert!(legal.moves.contains(&reply.mv), "accepted an unlisted move {mv}"),
            Err(GameError::IllegalMove { .. }) => {}
            Err(other) => panic!("a move is refused as illegal, not {other:?}"),
        }
    }
});
