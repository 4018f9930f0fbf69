//! One test that walks the registry: for every game, random playouts check that
//! every listed move is accepted by `play` (as object and as notation), that
//! moves not listed are refused, that states round-trip through JSON, that a
//! finished game lists no moves, and that `bot-move` at every level returns a
//! listed move. A new game is covered by adding it to the registry.

use gamebot::game::erased::{BotRequest, StateInput};
use gamebot::game::{Budget, DynGame, GameError};
use gamebot::games::REGISTRY;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

const PLAYOUTS: usize = 3;
const MAX_PLIES: usize = 160;
const MOVES_CHECKED_PER_PLY: usize = 6;

fn notation(mv: &Value) -> Value {
    mv["notation"].clone()
}

fn assert_refused(game: &dyn DynGame, state: &Value, mv: &Value) {
    if let Ok(reply) = game.play(state, mv) {
        panic!(
            "{}: {mv} should be refused in {state}, was played as {}",
            game.info().id,
            reply.mv
        );
    }
    match game.play(state, mv) {
        Err(GameError::IllegalMove { .. }) => {}
        other => panic!(
            "{}: move {mv} should be refused in {state}, got {other:?}",
            game.info().id
        ),
    }
}

fn conform(game: &dyn DynGame) {
    let id = game.info().id;
    let mut rng = ChaCha8Rng::seed_from_u64(0xC0FFEE);
    let mut seen_moves: Vec<Value> = Vec::new();
    let mut sample_states: Vec<Value> = Vec::new();
    for playout in 0..PLAYOUTS {
        let mut state = game.new_game(&Value::Null).unwrap().state;
        for ply in 0..MAX_PLIES {
            assert_eq!(
                game.canonical_state(&state).unwrap(),
                state,
                "{id}: state round-trips"
            );
            let legal = game.legal_moves(&state).unwrap();
            assert_eq!(legal.count, legal.moves.len());
            if legal.count == 0 {
                assert_ne!(
                    legal.outcome["status"], "ongoing",
                    "{id}: no moves means the game is over"
                );
                assert!(matches!(
                    game.play(&state, &seen_moves[0]),
                    Err(GameError::GameOver { .. })
                ));
                break;
            }
            assert_eq!(
                legal.outcome["status"], "ongoing",
                "{id}: moves are listed only in an ongoing game"
            );
            if ply % 7 == 3 {
                sample_states.push(state.clone());
            }
            let mut checked: Vec<&Value> = legal.moves.iter().collect();
            checked.shuffle(&mut rng);
            checked.truncate(MOVES_CHECKED_PER_PLY);
            for mv in checked {
                let by_object = game
                    .play(&state, mv)
                    .unwrap_or_else(|e| panic!("{id}: listed move {mv} refused: {e}"));
                let by_notation = game
                    .play(&state, &notation(mv))
                    .unwrap_or_else(|e| panic!("{id}: notation of {mv} refused: {e}"));
                assert_eq!(by_object.state, by_notation.state, "{id}: {mv}");
                assert_eq!(&by_object.mv, mv, "{id}: play answers the move object");
            }
            // A move seen elsewhere is either refused or, where the game has
            // several ways to write one move (Halma's jump chains), accepted as
            // one of the listed moves.
            for other in seen_moves.choose_multiple(&mut rng, 4) {
                match game.play(&state, other) {
                    Ok(reply) => assert!(
                        legal.moves.contains(&reply.mv),
                        "{id}: {other} was accepted as {}, which is not listed",
                        reply.mv
                    ),
                    Err(GameError::IllegalMove { .. }) => {}
                    Err(e) => panic!("{id}: {other} refused with the wrong error: {e:?}"),
                }
            }
            for garbage in [
                json!("???"),
                json!(12345),
                Value::Null,
                json!({"notation": "zz"}),
                json!([1, 2]),
            ] {
                assert_refused(game, &state, &garbage);
            }
            let chosen = legal.moves.choose(&mut rng).unwrap().clone();
            seen_moves.push(chosen.clone());
            state = game.play(&state, &chosen).unwrap().state;
        }
        let _ = playout;
    }
    bots_return_listed_moves(game, &sample_states);
}

fn bots_return_listed_moves(game: &dyn DynGame, states: &[Value]) {
    let info = game.info();
    for level in &game.listing().levels {
        for (i, state) in states.iter().take(3).enumerate() {
            let request = BotRequest {
                state: StateInput::Json(state.clone()),
                level: Some(level.id.to_string()),
                seed: Some(i as u64),
                ..Default::default()
            };
            let reply = game
                .bot_move(&request, &Budget::with_time_ms(40))
                .unwrap_or_else(|e| panic!("{} {}: {e}", info.id, level.id));
            let legal = game.legal_moves(state).unwrap();
            assert!(
                legal.moves.contains(&reply.mv),
                "{} {}: {} is not listed",
                info.id,
                level.id,
                reply.mv
            );
            assert_eq!(reply.search.level, level.id);
            let played = game.play(state, &reply.mv).unwrap();
            assert_eq!(
                played.state, reply.state,
                "{} {}: bot-move's state is play's",
                info.id, level.id
            );
        }
    }
}

#[test]
fn every_game_in_the_registry_conforms() {
    assert!(!REGISTRY.is_empty());
    for game in REGISTRY {
        conform(*game);
    }
}
