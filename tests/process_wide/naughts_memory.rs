//! Memory follows the configuration, not the traffic: a burst of concurrent
//! naughts `perfect` searches on 3×3 at a server with 2 compute workers is
//! answered right, every time, by workers that each keep one table, sized by
//! `table_mb` (see `search::memory`). The figures of the real binary are in
//! docs/RELIABILITY.md.

use crate::common::*;
use axum::http::StatusCode;
use gamebot::api::{router, serve, AppState};
use gamebot::config::ServeConfig;
use gamebot::search::memory;
use serde_json::{json, Value};
use tokio::net::TcpListener;

/// The openings the burst starts from: a first move and a reply, in notation
/// (row, column, size). None is in the opening book, so each is searched.
const OPENINGS: [[&str; 2]; 8] = [
    ["2 2 5", "1 1 5"],
    ["2 2 5", "1 2 4"],
    ["2 2 4", "1 1 5"],
    ["1 1 5", "2 2 5"],
    ["1 1 5", "3 3 4"],
    ["1 2 5", "2 2 5"],
    ["2 2 3", "2 2 5"],
    ["1 1 4", "1 3 5"],
];

/// The state after `moves` from a new 3×3 game with 5 markers a side.
async fn position(app: &axum::Router, moves: &[&str]) -> Value {
    let new = post_json(app, "/v1/games/naughts/new", &json!({})).await;
    assert_eq!(new.status, StatusCode::OK, "{}", new.text);
    let mut state = new.json["state"].clone();
    for mv in moves {
        let request = json!({"state": state, "move": mv});
        let played = post_json(app, "/v1/games/naughts/play", &request).await;
        assert_eq!(played.status, StatusCode::OK, "{mv}: {}", played.text);
        state = played.json["state"].clone();
    }
    state
}

/// The proven best score of `state` and its value in words, from a server of its own.
async fn reference(app: &axum::Router, state: &Value) -> (i64, String) {
    let request = json!({"state": state, "top": 1, "time_ms": 30_000});
    let reply = post_json(app, "/v1/games/naughts/analyze", &request).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.json["search"]["proven"], true, "{}", reply.text);
    let best = &reply.json["moves"][0];
    let exact = best["exact"].as_str().expect("a proven value").to_string();
    (best["score"].as_i64().unwrap(), exact)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_of_perfect_searches_is_answered_right_by_two_workers_with_one_table_each() {
    let _process = crate::alone().await;
    let served = ServeConfig {
        workers: Some(2),
        queue: 32,
        table_mb: 8,
        ..config()
    };
    // The server proper: `serve` hands the table budget to the engines.
    let state = AppState::new(served);
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(serve(listener, state.clone(), async {
        let _ = stopped.await;
    }));
    let health = reqwest::get(format!("http://{addr}/healthz"))
        .await
        .unwrap();
    assert!(health.status().is_success());
    assert_eq!(memory::table_bytes(), 8 << 20);
    let app = router(state.clone());

    // What each opening is worth, from a separate server (its own workers and tables).
    let solo = app_with(ServeConfig {
        workers: Some(1),
        ..config()
    });
    let mut cases = Vec::new();
    for opening in OPENINGS {
        let position = position(&solo, &opening).await;
        let value = reference(&solo, &position).await;
        cases.push((opening, position, value));
    }

    // 32 requests at once: 4 per opening, over the real router.
    let burst: Vec<_> = (0..32)
        .map(|i| {
            let app = app.clone();
            let (opening, position, _) = cases[i % cases.len()].clone();
            tokio::spawn(async move {
                let request = json!({"state": position, "level": "perfect", "time_ms": 30_000});
                let reply = post_json(&app, "/v1/games/naughts/bot-move", &request).await;
                (opening, reply)
            })
        })
        .collect();
    let mut answered = 0;
    for (i, task) in burst.into_iter().enumerate() {
        let (opening, reply) = task.await.unwrap();
        assert_eq!(reply.status, StatusCode::OK, "{opening:?}: {}", reply.text);
        let (_, position, (score, exact)) = &cases[i % cases.len()];
        let search = &reply.json["search"];
        assert_eq!(search["proven"], true, "{opening:?}: {}", reply.text);
        assert!(search.get("book").is_none(), "{opening:?}: {}", reply.text);
        assert!(
            search["nodes"].as_u64() > Some(0),
            "{opening:?}: {}",
            reply.text
        );
        assert_eq!(search["score"], *score, "{opening:?}: {}", reply.text);
        assert_eq!(
            search["value"],
            exact.as_str(),
            "{opening:?}: {}",
            reply.text
        );
        // The move played is worth that much: the opponent's best reply
        // after it gets the mirror value, one ply closer.
        let mv = reply.json["move"]["notation"].as_str().unwrap();
        let after = post_json(
            &solo,
            "/v1/games/naughts/play",
            &json!({"state": position, "move": mv}),
        )
        .await;
        assert_eq!(after.json["state"], reply.json["state"], "{opening:?} {mv}");
        if after.json["outcome"]["status"] == "ongoing" {
            let (reply_score, _) = reference(&solo, &after.json["state"]).await;
            assert_eq!(mirror(reply_score), *score, "{opening:?} {mv}");
        }
        answered += 1;
    }
    assert_eq!(answered, 32);
    assert_eq!(state.pool.admitted(), 0);

    let _ = stop.send(());
    server.await.unwrap();
}

/// The mover's score of a move, from the opponent's best score after it: an
/// opponent's win (loss) `k` plies away is the mover's loss (win) in `k + 1`.
fn mirror(opponent: i64) -> i64 {
    const WIN: i64 = 10_000;
    match opponent {
        s if s >= WIN - 1_000 => 1 - s,
        s if s <= -(WIN - 1_000) => -s - 1,
        s => -s,
    }
}
