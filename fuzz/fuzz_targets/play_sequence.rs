//! Random move sequences through `play` (the first byte picks the game, each
//! next byte a listed move), checking invariants at every step: the state
//! round-trips, listed moves are accepted as objects and as notation, a game
//! with no moves is over and refuses moves, and bots return listed moves.
#![no_main]

use gamebot::game::erased::BotRequest;
use gamebot::game::{Budget, GameError};
use gamebot::games::REGISTRY;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, choices)) = data.split_first() else { return };
    let game = REGISTRY[pick as usize % REGISTRY.len()];
    let mut state = game.new_game(&Value::Null).expect("a new game").state;
    for (ply, &choice) in choices.iter().enumerate().take(300) {
        assert_eq!(game.canonical_state(&state).ok().as_ref(), Some(&state));
        let legal = game.legal_moves(&state).expect("a state the service made is valid");
        if legal.count == 0 {
            assert_ne!(legal.outcome["status"], "ongoing");
            let any = Value::String("0".into());
            assert!(matches!(game.play(&state, &any), Err(GameError::GameOver)));
            return;
        }
        let mv = &legal.moves[choice as usize % legal.count];
        let by_notation = game.play(&state, &mv["notation"]).expect("a listed move's notation is accepted");
        let reply = game.play(&state, mv).expect("a listed move is accepted");
        assert_eq!(reply.state, by_notation.state);
        if ply % 50 == 49 {
            let level = game.info().levels[choice as usize % game.info().levels.len()].id.to_string();
            let request = BotRequest { state: state.clone(), level: Some(level), seed: Some(1), extra: Default::default() };
            let bot = game.bot_move(&request, &Budget::with_time_ms(5).nodes(5_000)).expect("a bot move");
            assert!(legal.moves.contains(&bot.mv));
        }
        state = reply.state;
    }
});
