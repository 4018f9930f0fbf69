//! One test that walks the registry: for every game, random playouts check that
//! every listed move is accepted by `play` (as object and as notation), that
//! moves not listed are refused, that states round-trip through JSON, that a
//! finished game lists no moves and says how it ended as data (a
//! `termination` the game's schema lists, a `score` for each side), that
//! `bot-move` at every level returns a listed move, and that a random game
//! ends. A new game is covered by adding it to the registry.

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
/// The ply limit of the game played to its end, for a game that takes one.
const SHORT_PLY_LIMIT: u32 = 40;
/// How long a random game may last at most.
const MAX_GAME_PLIES: usize = 1_000;

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

/// The values the game's termination schema allows: a string enum, or a
/// `oneOf` of string constants (schemars' form when variants have docs).
fn termination_values(game: &dyn DynGame) -> Vec<String> {
    let schema = game.termination_schema();
    let strings = |values: &Value| -> Vec<String> {
        values
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect()
    };
    let mut values = strings(&schema["enum"]);
    for branch in schema["oneOf"].as_array().into_iter().flatten() {
        values.extend(strings(&branch["enum"]));
        values.extend(branch["const"].as_str().map(str::to_string));
    }
    values
}

/// A finished game's outcome says how it ended with one of the game's
/// termination values, and scores each of the game's sides with an integer.
fn assert_ended_as_data(game: &dyn DynGame, outcome: &Value) {
    let info = game.info();
    let terminations = termination_values(game);
    assert!(
        !terminations.is_empty(),
        "{}: its termination schema lists no values: {}",
        info.id,
        game.termination_schema()
    );
    let termination = outcome["termination"].as_str().unwrap_or_else(|| {
        panic!(
            "{}: a finished game's outcome has a termination: {outcome}",
            info.id
        )
    });
    assert!(
        terminations.iter().any(|t| t == termination),
        "{}: termination {termination} is not one of {terminations:?}",
        info.id
    );
    let score = outcome["score"]
        .as_object()
        .unwrap_or_else(|| panic!("{}: score is an object: {outcome}", info.id));
    let mut keys: Vec<&str> = score.keys().map(String::as_str).collect();
    let mut sides = info.sides.to_vec();
    keys.sort_unstable();
    sides.sort_unstable();
    assert_eq!(keys, sides, "{}: score has one entry a side", info.id);
    assert!(
        score.values().all(|n| n.is_i64()),
        "{}: scores are integers: {outcome}",
        info.id
    );
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
                assert_ended_as_data(game, &legal.outcome);
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
    plays_to_the_end(game);
}

/// A random game played to its end (under a short ply limit where the game
/// offers one, since a portal's games must end) finishes within
/// [`MAX_GAME_PLIES`] and says how, as data.
fn plays_to_the_end(game: &dyn DynGame) {
    let info = game.info();
    let options = match info.new_options.iter().any(|o| o.name == "ply_limit") {
        true => json!({ "ply_limit": SHORT_PLY_LIMIT }),
        false => Value::Null,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(0xE2D);
    let mut state = game.new_game(&options).unwrap().state;
    for _ in 0..MAX_GAME_PLIES {
        let legal = game.legal_moves(&state).unwrap();
        let Some(mv) = legal.moves.choose(&mut rng) else {
            assert_ended_as_data(game, &legal.outcome);
            return;
        };
        state = game.play(&state, mv).unwrap().state;
    }
    panic!(
        "{}: a random game did not end within {MAX_GAME_PLIES} plies",
        info.id
    );
}

fn bots_return_listed_moves(game: &dyn DynGame, states: &[Value]) {
    let info = game.info();
    for level in &game.listing().levels {
        for (i, state) in states.iter().take(3).enumerate() {
            let request = BotRequest {
                state: StateInput::Json(state.clone()),
                level: Some(level.id.to_string().into()),
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
