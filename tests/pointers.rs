//! Property: whatever is wrong with a request body, an error's `pointer`
//! names a place that exists in that body (RFC 6901), so a client can
//! highlight the field it sent. States come from random playouts of every
//! game in the registry; one node of the body is then replaced, removed,
//! or given an extra member or element.

mod common;

use axum::http::StatusCode;
use common::*;
use gamebot::games::REGISTRY;
use proptest::prelude::*;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

/// A state after `plies` random moves from the start (fewer if the game ends).
fn played_state(game: &dyn gamebot::game::DynGame, plies: usize, rng: &mut ChaCha8Rng) -> Value {
    let mut state = game.new_game(&Value::Null).unwrap().state;
    for _ in 0..plies {
        let legal = game.legal_moves(&state).unwrap();
        let Some(mv) = legal.moves.choose(rng) else {
            break;
        };
        state = game.play(&state, mv).unwrap().state;
    }
    state
}

/// Every node of `value` as a JSON pointer, the root (`""`) included.
fn pointers(value: &Value, at: String, out: &mut Vec<String>) {
    out.push(at.clone());
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                let token = key.replace('~', "~0").replace('/', "~1");
                pointers(child, format!("{at}/{token}"), out);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                pointers(child, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// Some JSON value of any type, small.
fn junk(rng: &mut ChaCha8Rng) -> Value {
    match rng.random_range(0..9) {
        0 => Value::Null,
        1 => json!(rng.random_range(-3..20)),
        2 => json!(rng.random::<f64>() * 1e6),
        3 => json!(rng.random::<bool>()),
        4 => json!(""),
        5 => json!("XO3.#zB9~/ é"),
        6 => json!([1, "a", null]),
        7 => json!({"x": 1}),
        _ => json!("........."),
    }
}

/// Changes one node of `body`: replace it, remove it, or grow it.
fn mutate(body: &mut Value, rng: &mut ChaCha8Rng) {
    let mut all = Vec::new();
    pointers(body, String::new(), &mut all);
    let target = all[rng.random_range(1..all.len())].clone();
    let (parent_ptr, last) = target.rsplit_once('/').unwrap();
    let replacement = junk(rng);
    let action = rng.random_range(0..4);
    let node = body.pointer_mut(&target).unwrap();
    match (action, node) {
        (1, Value::Object(map)) => {
            map.insert("unexpected/~field".into(), replacement);
        }
        (1, Value::Array(items)) => items.push(replacement),
        (2, _) => match body.pointer_mut(parent_ptr).unwrap() {
            Value::Object(map) => {
                let key = last.replace("~1", "/").replace("~0", "~");
                map.remove(&key);
            }
            Value::Array(items) => {
                items.remove(last.parse::<usize>().unwrap());
            }
            _ => unreachable!("a parent is a container"),
        },
        (_, node) => *node = replacement,
    }
}

fn check_pointer(endpoint: &str, body: &Value, reply: &Reply) {
    assert!(
        reply.status.is_client_error(),
        "{endpoint}: {} for {body}: {}",
        reply.status,
        reply.text
    );
    if let Some(pointer) = reply.json.get("pointer").and_then(Value::as_str) {
        assert!(
            body.pointer(pointer).is_some(),
            "{endpoint}: pointer {pointer:?} is not in the body {body}: {}",
            reply.text
        );
    }
}

fn run_case(seed: u64) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let app = app();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for game in REGISTRY {
        let id = game.info().id;
        let plies = rng.random_range(0..30);
        let state = played_state(*game, plies, &mut rng);
        let legal = game.legal_moves(&state).unwrap();
        let mv = legal.moves.first().map(|m| m["notation"].clone());
        let mut bodies = vec![("legal-moves", json!({"state": state}))];
        if let Some(mv) = mv {
            bodies.push(("play", json!({"state": state, "move": mv})));
            bodies.push(("replay", json!({"state": state, "moves": [mv]})));
        }
        for (endpoint, mut body) in bodies {
            mutate(&mut body, &mut rng);
            let uri = format!("/v1/games/{id}/{endpoint}");
            let reply = runtime.block_on(post_json(&app, &uri, &body));
            if reply.status == StatusCode::OK {
                continue; // the change happened to keep the request valid
            }
            check_pointer(&format!("{id} {endpoint}"), &body, &reply);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn every_error_pointer_resolves_in_the_body_that_caused_it(seed in any::<u64>()) {
        run_case(seed);
    }
}
