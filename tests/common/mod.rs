//! Shared helpers for the black-box tests: the real router, requests, and
//! checking every answer against openapi.yaml.
#![allow(dead_code)]

use axum::body::Body;
use axum::http::{HeaderMap, Method, Request, StatusCode};
use gamebot::api::{router, AppState};
use gamebot::config::ServeConfig;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use tower::ServiceExt;

/// Helpers for tests of outside programs.
pub mod outside;

/// The reference data under `tests/data/`.
#[path = "../data/mod.rs"]
pub mod data;

/// An answer, with its body as text and, where it parses, as JSON.
#[derive(Debug)]
pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub text: String,
    pub json: Value,
}

impl Reply {
    /// The problem `code`, for error answers.
    pub fn code(&self) -> &str {
        self.json["code"].as_str().unwrap_or("")
    }

    /// The content type header.
    pub fn content_type(&self) -> &str {
        self.headers
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
    }
}

/// A test server configuration: small and quick.
pub fn config() -> ServeConfig {
    ServeConfig {
        workers: Some(2),
        queue: 16,
        default_time_ms: 100,
        ..ServeConfig::default()
    }
}

/// The application with the given configuration.
pub fn app_with(config: ServeConfig) -> axum::Router {
    router(AppState::new(config))
}

/// A server on a free loopback port with `config`, running until the test
/// ends; its address and state (to watch the compute pool).
pub async fn spawn_server(config: ServeConfig) -> (std::net::SocketAddr, AppState) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let state = AppState::new(config);
    tokio::spawn(gamebot::api::serve(
        listener,
        state.clone(),
        std::future::pending(),
    ));
    (addr, state)
}

/// Waits until `done`, failing the test with `what` after `limit`; returns the time it took.
pub async fn wait_until(
    what: &str,
    limit: std::time::Duration,
    mut done: impl FnMut() -> bool,
) -> std::time::Duration {
    let started = std::time::Instant::now();
    while !done() {
        assert!(
            started.elapsed() < limit,
            "{what} did not happen within {limit:?}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(1)).await;
    }
    started.elapsed()
}

/// The application with the test configuration.
pub fn app() -> axum::Router {
    app_with(config())
}

/// Sends a request to the router and checks the answer against the OpenAPI document.
pub async fn send(
    app: &axum::Router,
    method: Method,
    uri: &str,
    content_type: Option<&str>,
    body: impl Into<Body>,
) -> Reply {
    let mut request = Request::builder().method(method.clone()).uri(uri);
    if let Some(content_type) = content_type {
        request = request.header("content-type", content_type);
    }
    send_request(app, request.body(body.into()).unwrap()).await
}

/// Sends a request built by the caller (with headers of its own) and
/// checks the answer against the OpenAPI document.
pub async fn send_request(app: &axum::Router, request: Request<Body>) -> Reply {
    let method = request.method().clone();
    let uri = request.uri().to_string();
    let uri = uri.as_str();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    let text = String::from_utf8_lossy(&bytes).to_string();
    let json = serde_json::from_str(&text).unwrap_or(Value::Null);
    if !json.is_null() {
        if let Err(error) = serde_json::from_str::<UniqueKeys>(&text) {
            panic!("{method} {uri}: the answer repeats a key ({error}): {text}");
        }
    }
    let reply = Reply {
        status,
        headers,
        text,
        json,
    };
    check_against_openapi(&method, uri, &reply);
    reply
}

/// POSTs a JSON value.
pub async fn post_json(app: &axum::Router, uri: &str, body: &Value) -> Reply {
    send(
        app,
        Method::POST,
        uri,
        Some("application/json"),
        body.to_string(),
    )
    .await
}

/// GETs a path.
pub async fn get(app: &axum::Router, uri: &str) -> Reply {
    send(app, Method::GET, uri, None, Body::empty()).await
}

/// The OpenAPI document, parsed.
pub fn openapi() -> &'static Value {
    static DOC: OnceLock<Value> = OnceLock::new();
    DOC.get_or_init(|| {
        serde_norway::from_str(gamebot::api::openapi_yaml()).expect("openapi.yaml parses")
    })
}

/// The documented path template matching a concrete path (`/v1/games/reversi/new`
/// → `/v1/games/{game}/new`).
pub fn path_template(path: &str) -> Option<String> {
    let path = path.split('?').next().unwrap_or(path);
    let parts: Vec<&str> = path.split('/').collect();
    let paths = openapi()["paths"].as_object()?;
    if paths.contains_key(path) {
        return Some(path.to_string());
    }
    paths.keys().find_map(|template| {
        let t: Vec<&str> = template.split('/').collect();
        let matches = t.len() == parts.len()
            && t.iter()
                .zip(&parts)
                .all(|(a, b)| a == b || (a.starts_with('{') && a.ends_with('}')));
        matches.then(|| template.clone())
    })
}

/// Asserts that a documented operation's answer has a documented status, content
/// type and a body valid against the documented schema. Undocumented routes
/// must answer with a problem document.
pub fn check_against_openapi(method: &Method, uri: &str, reply: &Reply) {
    let Some(template) = path_template(uri) else {
        check_against_operation(method, uri, None, reply);
        return;
    };
    check_against_operation(method, uri, Some(template.clone()), reply);
    // A game's own operation and the generic one describe the same answer.
    let generic = generic_template(&template);
    if generic != template && openapi()["paths"].get(&generic).is_some() {
        check_against_operation(method, uri, Some(generic), reply);
    }
}

/// `/v1/games/reversi/play` → `/v1/games/{game}/play`.
fn generic_template(template: &str) -> String {
    match template
        .strip_prefix("/v1/games/")
        .and_then(|rest| rest.split_once('/'))
    {
        Some((_, operation)) => format!("/v1/games/{{game}}/{operation}"),
        None => template.to_string(),
    }
}

fn check_against_operation(method: &Method, uri: &str, template: Option<String>, reply: &Reply) {
    let doc = openapi();
    let media = reply
        .content_type()
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_string();
    let Some(template) = template else {
        assert_eq!(
            media, "application/problem+json",
            "{uri}: unknown routes answer problem+json"
        );
        return;
    };
    let method_key = method.as_str().to_ascii_lowercase();
    let mut operation = &doc["paths"][&template][&method_key];
    // A game's own operations type its JSON; its text form is described on
    // the generic operation.
    if media == "text/plain" && operation["responses"]["200"]["content"][&media].is_null() {
        let suffix = template.rsplit('/').next().unwrap_or_default();
        operation = &doc["paths"][format!("/v1/games/{{game}}/{suffix}")][&method_key];
    }
    if operation.is_null() {
        assert_eq!(
            reply.status,
            StatusCode::METHOD_NOT_ALLOWED,
            "{method} {uri}"
        );
        assert_eq!(media, "application/problem+json");
        return;
    }
    let status = reply.status.as_str();
    let mut response = &operation["responses"][status];
    if response.is_null() && reply.status.is_server_error() {
        panic!(
            "{method} {uri}: undocumented server error {status}: {}",
            reply.text
        );
    }
    assert!(
        !response.is_null(),
        "{method} {uri}: status {status} is not documented ({})",
        reply.text
    );
    if let Some(reference) = response["$ref"].as_str() {
        response = resolve(reference);
    }
    let content = &response["content"];
    let schema = &content[&media]["schema"];
    assert!(
        !content[&media].is_null(),
        "{method} {uri} {status}: content type {media} is not documented"
    );
    let what = format!("{method} {uri} {status}");
    match media.as_str() {
        "application/x-ndjson" => {
            for line in reply.text.lines() {
                let line =
                    serde_json::from_str(line).unwrap_or_else(|e| panic!("{what}: {e}: {line}"));
                validate(schema, &line, &what);
            }
        }
        "text/event-stream" => {
            for event in server_sent_events(&reply.text) {
                validate(schema, &event, &what);
            }
        }
        media if media.contains("json") => validate(schema, &reply.json, &what),
        _ => {}
    }
    if let Some(headers) = response["headers"].as_object() {
        let required = headers
            .iter()
            .filter(|(_, header)| header["required"] == true)
            .map(|(name, _)| name);
        for name in required {
            assert!(
                reply.headers.contains_key(name.as_str()),
                "{method} {uri}: header {name} missing"
            );
        }
    }
}

/// The named events of a Server-Sent Events text, each as
/// `{"event": name, "data": <the data line's JSON>}` (comments and
/// keep-alives left out).
pub fn server_sent_events(text: &str) -> Vec<Value> {
    text.split("\n\n")
        .filter_map(|block| {
            let field = |name: &str| {
                block
                    .lines()
                    .find_map(|line| line.strip_prefix(name))
                    .map(str::trim_start)
            };
            let data = serde_json::from_str::<Value>(field("data:")?)
                .unwrap_or_else(|e| panic!("an event's data is not JSON ({e}): {block}"));
            Some(json!({"event": field("event:")?, "data": data}))
        })
        .collect()
}

fn resolve(reference: &str) -> &'static Value {
    let pointer = reference.trim_start_matches('#');
    openapi()
        .pointer(pointer)
        .unwrap_or_else(|| panic!("dangling $ref {reference}"))
}

/// Validates `instance` against `schema` (which may `$ref` the document's components).
pub fn validate(schema: &Value, instance: &Value, what: &str) {
    let validator = validator_for(schema, what);
    let errors: Vec<String> = validator
        .iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{what}: body does not match the schema: {errors:?}\n{instance}"
    );
}

/// The validator of `schema` with the document's components beside it,
/// compiled on its first use and kept for the process: compiling one
/// (every component with it) cost more than the request it checked, and
/// the tests check thousands of answers against a few dozen schemas.
fn validator_for(schema: &Value, what: &str) -> Arc<jsonschema::Validator> {
    static VALIDATORS: OnceLock<Mutex<HashMap<String, Arc<jsonschema::Validator>>>> =
        OnceLock::new();
    let validators = VALIDATORS.get_or_init(Default::default);
    let key = schema.to_string();
    if let Some(validator) = validators
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&key)
    {
        return validator.clone();
    }
    let mut root = schema.clone();
    if let Value::Object(map) = &mut root {
        map.insert("components".into(), openapi()["components"].clone());
    }
    let validator = Arc::new(
        jsonschema::validator_for(&root).unwrap_or_else(|e| panic!("schema for {what}: {e}")),
    );
    validators
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(key)
        .or_insert(validator)
        .clone()
}

/// A JSON document read only to check that no object repeats a key: a
/// parser keeps one of the two silently, so a client may read either.
struct UniqueKeys;

impl<'de> serde::Deserialize<'de> for UniqueKeys {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(UniqueKeysVisitor)
    }
}

struct UniqueKeysVisitor;

impl<'de> serde::de::Visitor<'de> for UniqueKeysVisitor {
    type Value = UniqueKeys;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }
    fn visit_i64<E>(self, _: i64) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }
    fn visit_u64<E>(self, _: u64) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }
    fn visit_f64<E>(self, _: f64) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }
    fn visit_str<E>(self, _: &str) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }
    fn visit_unit<E>(self) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<UniqueKeys, A::Error> {
        while seq.next_element::<UniqueKeys>()?.is_some() {}
        Ok(UniqueKeys)
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<UniqueKeys, A::Error> {
        let mut seen = std::collections::HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(serde::de::Error::custom(format!("\"{key}\" twice")));
            }
            map.next_value::<UniqueKeys>()?;
        }
        Ok(UniqueKeys)
    }
}

/// The Halma start as its 16 text rows (black's camp top left, white's
/// bottom right), as `input.txt` writes them.
pub const HALMA_START_ROWS: [&str; 16] = [
    "BBBBB...........",
    "BBBBB...........",
    "BBBB............",
    "BBB.............",
    "BB..............",
    "................",
    "................",
    "................",
    "................",
    "................",
    "................",
    "..............WW",
    ".............WWW",
    "............WWWW",
    "...........WWWWW",
    "...........WWWWW",
];

/// Which legal move a scripted game plays each time.
#[derive(Clone, Copy, Debug)]
pub enum Pick {
    /// The first `legal-moves` lists.
    First,
    /// The last it lists.
    Last,
}

/// A Reversi game of up to `plies` moves from the start, each the `pick`
/// of the legal moves, played through the router: its moves (as notations)
/// and the state it reaches.
pub async fn scripted_reversi(app: &axum::Router, plies: usize, pick: Pick) -> (Vec<Value>, Value) {
    let mut state = serde_json::json!({"board": ["........", "........", "........", "...WB...", "...BW...", "........", "........", "........"], "to_move": "black"});
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = post_json(
            app,
            "/v1/games/reversi/legal-moves",
            &serde_json::json!({"state": state}),
        )
        .await;
        let listed = legal.json["moves"].as_array().cloned().unwrap_or_default();
        let chosen = match pick {
            Pick::First => listed.first(),
            Pick::Last => listed.last(),
        };
        let Some(mv) = chosen.cloned() else { break };
        moves.push(mv["notation"].clone());
        state = post_json(
            app,
            "/v1/games/reversi/play",
            &serde_json::json!({"state": state, "move": mv}),
        )
        .await
        .json["state"]
            .clone();
    }
    (moves, state)
}

/// A finished game of `id`: its moves played from a new game (with a short
/// ply limit where the game has one) until it ends.
pub fn finished_state(id: &str) -> Value {
    let game = gamebot::games::find(id).unwrap();
    let mut state = game
        .new_game(&json!({"ply_limit": 4}))
        .or_else(|_| game.new_game(&Value::Null))
        .unwrap()
        .state;
    for _ in 0..5_000 {
        let legal = game.legal_moves(&state).unwrap();
        if legal.outcome["status"] != "ongoing" {
            return state;
        }
        let pick = legal.moves.len() / 2;
        state = game.play(&state, &legal.moves[pick]).unwrap().state;
    }
    panic!("{id}: no finished game within 5,000 plies")
}

/// A request body that never arrives.
pub struct StalledBody;

impl http_body::Body for StalledBody {
    type Data = bytes::Bytes;
    type Error = std::convert::Infallible;
    fn poll_frame(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        std::task::Poll::Pending
    }
}
