//! Property: whatever is wrong with a request body, an error's `pointer`
//! names a place that exists in that body (RFC 6901), so a client can
//! highlight the field it sent. States come from random playouts of every
//! game in the registry; one node of the body is then replaced, removed,
//! or given an extra member or element.

use crate::common::*;
use axum::http::StatusCode;
use gamebot::game::DynGame;
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

/// The operations whose JSON bodies the contract types per game.
const OPERATIONS: [&str; 6] = [
    "new",
    "legal-moves",
    "play",
    "bot-move",
    "analyze",
    "replay",
];

/// `schema` with its `$ref`s followed into the document's components.
fn deref(schema: &'static Value) -> &'static Value {
    match schema["$ref"].as_str() {
        Some(reference) => deref(
            openapi()
                .pointer(reference.trim_start_matches('#'))
                .unwrap_or_else(|| panic!("dangling $ref {reference}")),
        ),
        None => schema,
    }
}

/// The schema of the JSON body of a game's own operation, as the contract
/// publishes it (`ReversiBotMoveRequest`).
fn request_schema(id: &str, operation: &str) -> &'static Value {
    let path = format!("/v1/games/{id}/{operation}");
    let body = &openapi()["paths"][&path]["post"]["requestBody"];
    assert!(
        !body.is_null(),
        "{path} has no request body in the contract"
    );
    deref(&body["content"]["application/json"]["schema"])
}

/// The JSON type of a value, as JSON Schema names it.
fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The JSON types a schema admits; empty when it says nothing (any value).
fn admitted_types(schema: &'static Value) -> Vec<&'static str> {
    let schema = deref(schema);
    let mut types: Vec<&'static str> = match &schema["type"] {
        Value::String(one) => vec![one.as_str()],
        Value::Array(many) => many.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    for key in ["anyOf", "oneOf"] {
        for branch in schema[key].as_array().into_iter().flatten() {
            let branch_types = admitted_types(branch);
            if branch_types.is_empty() {
                return Vec::new();
            }
            types.extend(branch_types);
        }
    }
    if !schema["const"].is_null() {
        types.push(json_type(&schema["const"]));
    }
    for value in schema["enum"].as_array().into_iter().flatten() {
        types.push(json_type(value));
    }
    types
}

/// One value of every JSON type that `schema` does not admit: a string for
/// a number, a fraction for an integer, null where null is not allowed, an
/// object for an array, an array for an object, and so on. The integer is
/// negative: Crush's rules let a cell be the number 21 as well as `"21"`,
/// but no reading takes a negative number.
fn wrong_values(schema: &'static Value) -> Vec<Value> {
    let admitted = admitted_types(schema);
    if admitted.is_empty() {
        return Vec::new();
    }
    let is_admitted = |kind: &str| {
        admitted.contains(&kind) || (kind == "integer" && admitted.contains(&"number"))
    };
    [
        json!(null),
        json!(true),
        json!(-7),
        json!(2.5),
        json!("x"),
        json!([1]),
        json!({"x": 1}),
    ]
    .into_iter()
    .filter(|value| !is_admitted(json_type(value)))
    .collect()
}

/// The branch of `schema` (through `anyOf`/`oneOf`) that describes `value`'s
/// members or elements, if it has any.
fn container_schema(schema: &'static Value, value: &Value) -> Option<&'static Value> {
    let schema = deref(schema);
    let has_parts = |s: &Value| {
        !s["properties"].is_null() || s["additionalProperties"].is_object() || !s["items"].is_null()
    };
    if has_parts(schema) {
        return Some(schema);
    }
    ["anyOf", "oneOf"]
        .iter()
        .flat_map(|key| schema[*key].as_array().into_iter().flatten())
        .map(deref)
        .find(|branch| has_parts(branch) && admitted_types(branch).contains(&json_type(value)))
}

/// A valid sample of each request field of `game`, for the bodies that
/// carry one broken field. A field the contract gains without a sample
/// here fails the test, which names it.
fn sample(game: &dyn DynGame, field: &str) -> Value {
    let state = game.new_game(&Value::Null).unwrap().state;
    let first_move = || game.legal_moves(&state).unwrap().moves[0].clone();
    match field {
        "state" => state.clone(),
        "move" => first_move(),
        "moves" => json!([first_move()]),
        "options" => json!({}),
        "record" => json!(""),
        "states" => json!(true),
        "level" => json!(game.listing().default_level),
        "time_ms" => json!(50),
        "max_depth" => json!(2),
        "max_nodes" => json!(100),
        "seed" => json!(1),
        "top" => json!(1),
        "perspective" => json!("mover"),
        "time_ms_per_ply" => json!(50),
        "max_nodes_per_ply" => json!(100),
        "clock" => json!({"mode": "GAME", "time_left_s": 10}),
        "max_queue_ms" => json!(5000),
        other => panic!("{}: no sample of request field {other:?}", game.info().id),
    }
}

/// The smallest valid body of an operation: the fields it requires.
fn base_body(game: &dyn DynGame, operation: &str) -> Value {
    let schema = request_schema(game.info().id, operation);
    let mut body = json!({});
    for field in schema["required"].as_array().into_iter().flatten() {
        let field = field.as_str().unwrap();
        body[field] = sample(game, field);
    }
    body
}

/// A body sent with one field of the wrong type, and where that field is.
struct Broken {
    body: Value,
    at: String,
}

/// Every body of `carrier` with the node at `at` (whose schema is
/// `schema`) given a wrong type, then the same for its members and
/// elements that `carrier` holds.
fn break_each(carrier: &Value, at: &str, schema: &'static Value, out: &mut Vec<Broken>) {
    for wrong in wrong_values(schema) {
        let mut body = carrier.clone();
        set(&mut body, at, wrong);
        out.push(Broken {
            body,
            at: at.to_string(),
        });
    }
    let Some(node) = carrier.pointer(at) else {
        return;
    };
    let Some(parts) = container_schema(schema, node) else {
        return;
    };
    match node {
        Value::Object(members) => {
            let named = parts["properties"].as_object();
            for (key, member) in named.into_iter().flatten() {
                break_each(carrier, &format!("{at}/{}", token(key)), member, out);
            }
            // Members the schema describes by `additionalProperties` (a
            // map keyed by side), as the sample holds them.
            if parts["additionalProperties"].is_object() {
                for key in members.keys() {
                    if !named.is_some_and(|named| named.contains_key(key)) {
                        let at = format!("{at}/{}", token(key));
                        break_each(carrier, &at, &parts["additionalProperties"], out);
                    }
                }
            }
        }
        Value::Array(items) if !items.is_empty() && parts["items"].is_object() => {
            break_each(carrier, &format!("{at}/0"), &parts["items"], out);
        }
        _ => {}
    }
}

/// A member name as a JSON pointer's reference token.
fn token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// Sets the member or element at `pointer` (whose parent exists).
fn set(body: &mut Value, pointer: &str, value: Value) {
    let (parent, last) = pointer.rsplit_once('/').unwrap();
    let key = last.replace("~1", "/").replace("~0", "~");
    match body.pointer_mut(parent).unwrap() {
        Value::Object(map) => {
            map.insert(key, value);
        }
        Value::Array(items) => items[key.parse::<usize>().unwrap()] = value,
        other => panic!("{parent} is {other}, not a container"),
    }
}

/// Every request of `operation` of `game` with one field, at any depth
/// the contract describes, of a wrong type.
fn broken_requests(game: &dyn DynGame, operation: &str) -> Vec<Broken> {
    let schema = request_schema(game.info().id, operation);
    let base = base_body(game, operation);
    let mut out = Vec::new();
    for (field, field_schema) in schema["properties"].as_object().into_iter().flatten() {
        let mut carrier = base.clone();
        carrier[field] = sample(game, field);
        break_each(&carrier, &format!("/{field}"), field_schema, &mut out);
    }
    out
}

/// What is wrong with the answer to a body with a wrong-typed field, if anything.
fn fault_of(reply: &Reply, broken: &Broken) -> Option<String> {
    let refused = [StatusCode::BAD_REQUEST, StatusCode::UNPROCESSABLE_ENTITY];
    if !refused.contains(&reply.status) {
        return Some(format!("answered {}", reply.status));
    }
    let Some(pointer) = reply.json["pointer"].as_str() else {
        return Some("no pointer".into());
    };
    if broken.body.pointer(pointer).is_none() {
        return Some(format!("pointer {pointer:?} is not in the body"));
    }
    let inside = pointer == broken.at || pointer.starts_with(&format!("{}/", broken.at));
    (!inside).then(|| format!("pointer {pointer:?} is not at {}", broken.at))
}

#[tokio::test]
async fn every_field_of_every_request_of_the_wrong_type_is_refused_at_its_place() {
    let app = app();
    let mut faults = Vec::new();
    let mut cases = 0;
    for game in REGISTRY {
        let id = game.info().id;
        for operation in OPERATIONS {
            let uri = format!("/v1/games/{id}/{operation}");
            for broken in broken_requests(*game, operation) {
                cases += 1;
                let reply = post_json(&app, &uri, &broken.body).await;
                if let Some(fault) = fault_of(&reply, &broken) {
                    faults.push(format!(
                        "{uri} {} = {}: {fault}: {}",
                        broken.at,
                        broken.body.pointer(&broken.at).unwrap(),
                        reply.text
                    ));
                }
            }
        }
    }
    assert!(cases > 500, "only {cases} cases");
    assert!(
        faults.is_empty(),
        "{} of {cases} cases:\n{}",
        faults.len(),
        faults.join("\n")
    );
}
