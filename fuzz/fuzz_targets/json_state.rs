//! Any bytes as a game's JSON state (the first byte picks the game): parsing
//! and every read-only endpoint must answer, never panic; an accepted state
//! must round-trip through its canonical form.
#![no_main]

use gamebot::games::REGISTRY;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let game = REGISTRY[pick as usize % REGISTRY.len()];
    let Ok(state) = serde_json::from_slice::<serde_json::Value>(rest) else { return };
    if let Ok(canonical) = game.canonical_state(&state) {
        assert_eq!(game.canonical_state(&canonical).ok(), Some(canonical.clone()));
        let legal = game.legal_moves(&canonical).expect("a canonical state is valid");
        assert_eq!(legal.count, legal.moves.len());
    } else {
        assert!(game.legal_moves(&state).is_err());
    }
});
