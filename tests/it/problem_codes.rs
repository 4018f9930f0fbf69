//! The problem `code` is a closed list in openapi.yaml: every error path
//! (each game's refusals of states, moves, levels and options, and the
//! API's own problems: routes, bodies, the compute pool, API keys) answers
//! a code the list names, and every code the list names is answered by one
//! of them, so the list is neither short nor padded.

use crate::common::*;
use axum::body::Body;
use axum::http::{Method, Request};
use gamebot::api::keys::ApiKeys;
use gamebot::api::{router, AppState};
use gamebot::compute::{Client, ComputePool, Pending};
use gamebot::config::ServeConfig;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::time::Duration;

/// The key every request but the key checks sends: it may run one search at once.
const KEY: &str = "0123456789abcdef0123";
/// A key allowed one request a second.
const SLOW_KEY: &str = "fedcba9876543210fedc";
/// A key without a limit on searches at once.
const PATIENT_KEY: &str = "00112233445566778899";
/// The one code no request can cause: a bug's.
const NEVER_FROM_INPUT: &str = "internal_error";

/// The codes the contract lists.
fn listed() -> BTreeSet<String> {
    openapi()["components"]["schemas"]["ErrorCode"]["enum"]
        .as_array()
        .expect("the problem code is a closed enum")
        .iter()
        .map(|code| code.as_str().unwrap().to_string())
        .collect()
}

/// A server with keys, one worker a lane, a one-job search queue, small
/// bodies and a short body timeout.
fn state() -> AppState {
    let keys = ApiKeys::parse(&format!(
        "portal {KEY} 1000 1\nslow {SLOW_KEY} 1\npatient {PATIENT_KEY} 1000\n"
    ))
    .unwrap();
    AppState::new(ServeConfig {
        workers: Some(1),
        queue: 1,
        rules_workers: 1,
        rules_queue: 0,
        max_body_bytes: 4096,
        body_timeout_ms: 50,
        cache_mb: 0,
        ..config()
    })
    .with_keys(keys)
}

/// Collects the code of every problem answered.
struct Codes {
    app: axum::Router,
    seen: BTreeSet<String>,
}

impl Codes {
    async fn send(&mut self, method: Method, uri: &str, kind: &str, body: Body, key: Option<&str>) {
        let mut request = Request::builder()
            .method(method)
            .uri(uri)
            .header("content-type", kind);
        if let Some(key) = key {
            request = request.header("authorization", format!("Bearer {key}"));
        }
        let reply = send_request(&self.app, request.body(body).unwrap()).await;
        if reply.status.is_client_error() || reply.status.is_server_error() {
            let code = reply.json["code"].as_str();
            let code =
                code.unwrap_or_else(|| panic!("{uri}: a problem without a code: {}", reply.text));
            self.seen.insert(code.to_string());
        }
    }

    async fn post(&mut self, uri: &str, body: &Value) {
        let body = Body::from(body.to_string());
        self.send(Method::POST, uri, "application/json", body, Some(KEY))
            .await;
    }
}

/// Every game's refusals: a broken state, moves that no game reads or that
/// break a rule (Naughts' table of codes among them), an unknown level,
/// bad options, a finished game and a text body where none is taken.
async fn game_errors(codes: &mut Codes) {
    let bad_moves = [
        json!("x"),
        json!("9 1 1"),
        json!("1 9 1"),
        json!("1 1 9"),
        json!("pass"),
        json!({"nope": 1}),
    ];
    for id in gamebot::games::ids() {
        let game = gamebot::games::find(id).unwrap();
        let start = game.new_game(&Value::Null).unwrap().state;
        let uri = |route: &str| format!("/v1/games/{id}/{route}");
        for mv in &bad_moves {
            codes
                .post(&uri("play"), &json!({"state": start, "move": mv}))
                .await;
        }
        codes
            .post(&uri("legal-moves"), &json!({"state": {"board": []}}))
            .await;
        let over = finished_state(id);
        codes
            .post(&uri("play"), &json!({"state": over, "move": "x"}))
            .await;
        codes
            .post(&uri("bot-move"), &json!({"state": start, "level": "nope"}))
            .await;
        codes
            .post(
                &uri("bot-move"),
                &json!({"state": start, "level": "random:nope=1"}),
            )
            .await;
        codes
            .post(&uri("new"), &json!({"options": {"ply_limit": -1}}))
            .await;
        codes
            .post(&uri("analyze"), &json!({"state": start, "top": 0}))
            .await;
        let text = Body::from("x");
        codes
            .send(Method::POST, &uri("play"), "text/plain", text, Some(KEY))
            .await;
    }
}

/// The API's own problems about a request: routes, methods and bodies.
async fn request_errors(codes: &mut Codes) {
    let legal = "/v1/games/reversi/legal-moves";
    codes.post("/v1/games/nope/legal-moves", &json!({})).await;
    codes
        .send(
            Method::GET,
            "/nope",
            "application/json",
            Body::empty(),
            Some(KEY),
        )
        .await;
    codes
        .send(
            Method::GET,
            legal,
            "application/json",
            Body::empty(),
            Some(KEY),
        )
        .await;
    codes
        .send(
            Method::POST,
            legal,
            "application/json",
            Body::from("{"),
            Some(KEY),
        )
        .await;
    codes
        .send(Method::POST, legal, "image/png", Body::from("x"), Some(KEY))
        .await;
    codes.post(legal, &json!({"pad": "x".repeat(5000)})).await;
    let stalled = Body::new(StalledBody);
    codes
        .send(Method::POST, legal, "application/json", stalled, Some(KEY))
        .await;
}

/// The API keys' problems: none sent, an unknown one, one over its rate.
async fn key_errors(codes: &mut Codes) {
    let uri = "/v1/games/reversi/new";
    let empty = || Body::from("{}");
    codes
        .send(Method::POST, uri, "application/json", empty(), None)
        .await;
    codes
        .send(
            Method::POST,
            uri,
            "application/json",
            empty(),
            Some("0000000000000000000x"),
        )
        .await;
    for _ in 0..2 {
        codes
            .send(
                Method::POST,
                uri,
                "application/json",
                empty(),
                Some(SLOW_KEY),
            )
            .await;
    }
}

/// A job that holds a worker of `pool` (as `client`) until it is dropped.
fn hold(pool: &ComputePool, client: &Client) -> Pending<()> {
    pool.submit(client, |stop| {
        while !stop.is_raised() {
            std::thread::sleep(Duration::from_millis(1));
        }
    })
    .unwrap()
}

/// The compute pool's problems: a full lane, a key's searches at once, a
/// request that waited too long, a server that is stopping.
async fn pool_errors(codes: &mut Codes, state: &AppState) {
    let reversi = gamebot::games::find("reversi").unwrap();
    let start = reversi.new_game(&Value::Null).unwrap().state;
    let rules = hold(&state.rules, &Client::local());
    codes
        .post("/v1/games/reversi/legal-moves", &json!({"state": start}))
        .await;
    drop(rules);
    let search = hold(&state.pool, &Client::keyed("portal", Some(1)));
    let bot = "/v1/games/reversi/bot-move";
    codes
        .post(bot, &json!({"state": start, "level": "random"}))
        .await;
    // The queue's wait is judged when a worker takes the job: the worker
    // is let go once the job has waited past its 20 ms.
    let mut patient = Codes {
        app: codes.app.clone(),
        seen: BTreeSet::new(),
    };
    let body = json!({"state": start, "level": "random", "max_queue_ms": 20}).to_string();
    let waiting = tokio::spawn(async move {
        let body = Body::from(body);
        patient
            .send(
                Method::POST,
                bot,
                "application/json",
                body,
                Some(PATIENT_KEY),
            )
            .await;
        patient.seen
    });
    wait_until("the request queued", Duration::from_secs(5), || {
        state.pool.queued() == 1
    })
    .await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    drop(search);
    codes.seen.extend(waiting.await.unwrap());
    state.rules.close();
    codes
        .post("/v1/games/reversi/legal-moves", &json!({"state": start}))
        .await;
}

#[tokio::test]
async fn every_problem_code_answered_is_listed_and_every_listed_code_is_answered() {
    let state = state();
    let mut codes = Codes {
        app: router(state.clone()),
        seen: BTreeSet::new(),
    };
    game_errors(&mut codes).await;
    request_errors(&mut codes).await;
    key_errors(&mut codes).await;
    pool_errors(&mut codes, &state).await;
    let listed = listed();
    let unlisted: Vec<_> = codes.seen.difference(&listed).collect();
    assert!(
        unlisted.is_empty(),
        "answered but not in the contract: {unlisted:?}"
    );
    let unanswered: Vec<_> = listed
        .difference(&codes.seen)
        .filter(|code| *code != NEVER_FROM_INPUT)
        .collect();
    assert!(
        unanswered.is_empty(),
        "listed but no error path answered it: {unanswered:?}"
    );
}
