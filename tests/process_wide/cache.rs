//! The position cache over the real router: a repeated deterministic
//! request (a seed, and a search that ends on its depth or node cap or on a
//! proof) is answered from the cache, marked `cached`, with the same move;
//! anything else searches again.

use crate::common::*;
use axum::http::StatusCode;
use gamebot::config::ServeConfig;
use serde_json::{json, Value};

const ANALYZE: &str = "/v1/games/reversi/analyze";
const BOT: &str = "/v1/games/reversi/bot-move";

/// A Reversi midgame position, black to move.
fn midgame() -> Value {
    json!({
        "board": ["........", "........", "..WWW...", "..WBBW..", "..BBWB..", "...B.W..", "........", "........"],
        "to_move": "black"
    })
}

fn cached(reply: &Reply) -> bool {
    reply.json["search"]["cached"] == json!(true)
}

#[tokio::test]
async fn a_repeated_seeded_node_capped_analysis_comes_from_the_cache() {
    let _process = crate::shared().await;
    let app = app();
    let body =
        json!({"state": midgame(), "seed": 3, "max_nodes": 20_000, "top": 2, "time_ms": 30_000});
    let first = post_json(&app, ANALYZE, &body).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    assert!(!cached(&first), "{}", first.text);
    assert_eq!(
        first.json["search"]["stopped_by"], "nodes",
        "{}",
        first.text
    );
    let again = post_json(&app, ANALYZE, &body).await;
    assert!(cached(&again), "{}", again.text);
    assert_eq!(again.json["moves"], first.json["moves"]);
    assert_eq!(again.json["search"]["nodes"], first.json["search"]["nodes"]);

    // The same position written otherwise (field order, spacing) is the same entry.
    let reordered = format!(
        r#"{{"top": 2, "time_ms": 30000, "max_nodes": 20000, "seed": 3, "state": {{ "to_move": "black", "board": {} }}}}"#,
        midgame()["board"]
    );
    let reply = send(
        &app,
        axum::http::Method::POST,
        ANALYZE,
        Some("application/json"),
        reordered,
    )
    .await;
    assert!(cached(&reply), "{}", reply.text);

    // Anything that decides the answer makes another entry.
    for changed in [
        json!({"state": midgame(), "seed": 4, "max_nodes": 20_000, "top": 2, "time_ms": 30_000}),
        json!({"state": midgame(), "seed": 3, "max_nodes": 20_001, "top": 2, "time_ms": 30_000}),
        json!({"state": midgame(), "seed": 3, "max_nodes": 20_000, "top": 3, "time_ms": 30_000}),
    ] {
        let reply = post_json(&app, ANALYZE, &changed).await;
        assert!(!cached(&reply), "{changed}: {}", reply.text);
    }
}

#[tokio::test]
async fn a_seeded_numbered_level_plays_its_cached_move_again() {
    let _process = crate::shared().await;
    let app = app();
    let body = json!({"state": midgame(), "seed": 9, "level": 6});
    let first = post_json(&app, BOT, &body).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    let again = post_json(&app, BOT, &body).await;
    assert!(cached(&again), "{}", again.text);
    assert_eq!(again.json["move"], first.json["move"]);
    assert_eq!(again.json["state"], first.json["state"]);
    assert_eq!(
        again.headers.get("gamebot-move"),
        first.headers.get("gamebot-move")
    );
}

#[tokio::test]
async fn unseeded_timed_or_uncached_requests_search_again() {
    let _process = crate::shared().await;
    let app = app();
    // No seed: every request draws its own.
    let unseeded = json!({"state": midgame(), "max_nodes": 5_000});
    for _ in 0..2 {
        let reply = post_json(&app, ANALYZE, &unseeded).await;
        assert!(!cached(&reply), "{}", reply.text);
    }
    // A search cut by the clock depends on the load: never kept.
    let timed = json!({"state": midgame(), "seed": 1, "time_ms": 30});
    for _ in 0..2 {
        let reply = post_json(&app, ANALYZE, &timed).await;
        assert_eq!(reply.json["search"]["stopped_by"], "time", "{}", reply.text);
        assert!(!cached(&reply), "{}", reply.text);
    }
    // --cache-mb 0 turns the cache off.
    let off = app_with(ServeConfig {
        cache_mb: 0,
        ..config()
    });
    let body = json!({"state": midgame(), "seed": 3, "max_nodes": 5_000});
    for _ in 0..2 {
        let reply = post_json(&off, ANALYZE, &body).await;
        assert!(!cached(&reply), "{}", reply.text);
    }
}

#[tokio::test]
async fn hits_and_misses_are_counted() {
    let _process = crate::alone().await;
    let app = app();
    let sample = |text: &str, result: &str| {
        let wanted = format!(
            "gamebot_cache_requests_total{{game=\"naughts\",operation=\"analyze\",result=\"{result}\"}} "
        );
        text.lines()
            .find_map(|line| line.strip_prefix(&wanted))
            .map_or(0.0, |value| value.trim().parse::<f64>().unwrap())
    };
    let start = post_json(&app, "/v1/games/naughts/new", &json!({}))
        .await
        .json["state"]
        .clone();
    let body = json!({"state": start, "seed": 1, "max_depth": 2});
    for _ in 0..3 {
        let reply = post_json(&app, "/v1/games/naughts/analyze", &body).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    }
    let metrics = get(&app, "/metrics").await.text;
    assert_eq!(sample(&metrics, "miss"), 1.0, "{metrics}");
    assert_eq!(sample(&metrics, "hit"), 2.0, "{metrics}");
    let bytes = metrics
        .lines()
        .find_map(|line| line.strip_prefix("gamebot_cache_bytes "))
        .map(|value| value.trim().parse::<f64>().unwrap())
        .unwrap();
    assert!(bytes > 0.0, "{metrics}");
}

/// The eight symmetric twins of a Reversi state (rows and columns swapped,
/// then rows and columns mirrored), the state itself first.
fn twins(state: &Value) -> Vec<Value> {
    let rows: Vec<Vec<char>> = state["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row.as_str().unwrap().chars().collect())
        .collect();
    let mut twins = Vec::new();
    for transpose in [false, true] {
        for flip_rows in [false, true] {
            for flip_cols in [false, true] {
                let board: Vec<String> = (0..8)
                    .map(|r| {
                        (0..8)
                            .map(|c| {
                                let (r, c) = (
                                    if flip_rows { 7 - r } else { r },
                                    if flip_cols { 7 - c } else { c },
                                );
                                if transpose {
                                    rows[c][r]
                                } else {
                                    rows[r][c]
                                }
                            })
                            .collect()
                    })
                    .collect();
                twins.push(json!({"board": board, "to_move": state["to_move"]}));
            }
        }
    }
    twins
}

#[tokio::test]
async fn every_twin_of_a_position_shares_its_entry_and_gets_the_answer_its_own_search_gives() {
    let _process = crate::shared().await;
    let app = app();
    let off = app_with(ServeConfig {
        cache_mb: 0,
        ..config()
    });
    let twins = twins(&midgame());
    let distinct: std::collections::HashSet<String> = twins.iter().map(Value::to_string).collect();
    assert_eq!(distinct.len(), 8, "the position has no symmetry of its own");
    let analysis = |state: &Value| json!({"state": state, "seed": 5, "max_nodes": 20_000, "top": 3, "time_ms": 30_000});
    let first = post_json(&app, ANALYZE, &analysis(&twins[0])).await;
    assert!(!cached(&first), "{}", first.text);
    for twin in &twins {
        let hit = post_json(&app, ANALYZE, &analysis(twin)).await;
        assert_eq!(hit.status, StatusCode::OK, "{}", hit.text);
        assert!(cached(&hit), "{twin}: {}", hit.text);
        let searched = post_json(&off, ANALYZE, &analysis(twin)).await;
        assert!(!cached(&searched), "{}", searched.text);
        assert_eq!(hit.json["moves"], searched.json["moves"], "{twin}");
        assert_eq!(
            hit.json["search"]["nodes"],
            searched.json["search"]["nodes"]
        );
    }

    let bot = |state: &Value| json!({"state": state, "seed": 8, "level": 7});
    let first = post_json(&app, BOT, &bot(&twins[5])).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    assert!(!cached(&first), "{}", first.text);
    for twin in &twins {
        let hit = post_json(&app, BOT, &bot(twin)).await;
        assert!(cached(&hit), "{twin}: {}", hit.text);
        let searched = post_json(&off, BOT, &bot(twin)).await;
        for field in ["move", "state", "outcome"] {
            assert_eq!(hit.json[field], searched.json[field], "{twin}: {field}");
        }
        assert_eq!(
            hit.headers.get("gamebot-move"),
            searched.headers.get("gamebot-move")
        );
    }
}
