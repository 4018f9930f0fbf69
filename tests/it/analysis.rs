//! What an analysis says besides its moves: win probabilities from the
//! games' calibrations, scores from a fixed side's view (`perspective`),
//! and the deepening results as Server-Sent Events over a real socket,
//! whose client leaving frees the worker. Router answers are checked
//! against openapi.yaml by the helpers.

use crate::common::*;
use axum::http::StatusCode;
use gamebot::config::ServeConfig;
use serde_json::{json, Value};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

fn reversi_start() -> Value {
    json!({"board": ["........", "........", "........", "...WB...", "...BW...", "........", "........", "........"], "to_move": "black"})
}

/// A Reversi position with 10 empty squares, which the solver proves.
fn reversi_endgame() -> Value {
    json!({"board": ["WWWWWWWW", "WBBBBBBW", "WBWWWWBW", "WBWBBWBW", "WBWBWWBW", "WBBBBB..", "WB......", "W......."], "to_move": "black"})
}

#[tokio::test]
async fn every_analysed_move_and_the_report_carry_a_win_probability() {
    let reply = post_json(
        &app(),
        "/v1/games/reversi/analyze",
        &json!({"state": reversi_start(), "top": 4, "max_nodes": 20000, "time_ms": 30000, "seed": 1}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.json);
    let moves = reply.json["moves"].as_array().unwrap();
    for m in moves {
        let p = m["win_probability"].as_f64().unwrap();
        assert!(
            (0.05..=0.95).contains(&p),
            "an even opening is not decided: {m}"
        );
    }
    assert_eq!(
        reply.json["search"]["win_probability"],
        moves[0]["win_probability"]
    );
    let bot = post_json(
        &app(),
        "/v1/games/reversi/bot-move",
        &json!({"state": reversi_start(), "level": "strong", "max_nodes": 20000, "seed": 1}),
    )
    .await;
    assert!(
        bot.json["search"]["win_probability"].as_f64().is_some(),
        "{}",
        bot.json
    );
}

#[tokio::test]
async fn a_proven_result_is_certain() {
    let reply = post_json(
        &app(),
        "/v1/games/reversi/analyze",
        &json!({"state": reversi_endgame(), "top": 10, "max_nodes": 5000000, "time_ms": 30000, "seed": 1}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.json);
    for m in reply.json["moves"].as_array().unwrap() {
        assert!(m["exact"].is_string(), "{m}");
        let expected = match m["score"].as_i64().unwrap() {
            s if s > 0 => 1.0,
            0 => 0.5,
            _ => 0.0,
        };
        assert_eq!(m["win_probability"], expected, "{m}");
    }
}

#[tokio::test]
async fn a_perspective_turns_scores_to_that_side_and_the_mover_s_is_the_default() {
    let app = app();
    let ask = |perspective: Option<&str>| {
        let mut body = json!({"state": reversi_start(), "top": 2, "max_nodes": 20000, "time_ms": 30000, "seed": 1});
        if let Some(side) = perspective {
            body["perspective"] = json!(side);
        }
        body
    };
    let mover = post_json(&app, "/v1/games/reversi/analyze", &ask(None)).await;
    let black = post_json(&app, "/v1/games/reversi/analyze", &ask(Some("black"))).await;
    let white = post_json(&app, "/v1/games/reversi/analyze", &ask(Some("white"))).await;
    assert_eq!(mover.json["moves"], black.json["moves"]);
    assert!(mover.json["search"].get("perspective").is_none());
    assert_eq!(white.json["search"]["perspective"], "white");
    for (m, w) in mover.json["moves"]
        .as_array()
        .unwrap()
        .iter()
        .zip(white.json["moves"].as_array().unwrap())
    {
        assert_eq!(m["move"], w["move"]);
        assert_eq!(m["score"].as_i64().unwrap(), -w["score"].as_i64().unwrap());
        let sum = m["win_probability"].as_f64().unwrap() + w["win_probability"].as_f64().unwrap();
        assert!((sum - 1.0).abs() < 1e-9, "{m} {w}");
    }
    let bad = post_json(
        &app,
        "/v1/games/reversi/analyze",
        &json!({"state": reversi_start(), "perspective": "green"}),
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(bad.json["pointer"], "/perspective");
    assert!(bad.json["detail"]
        .as_str()
        .unwrap()
        .contains("black, white"));
}

/// The events of a Server-Sent Events body: (event, data) pairs.
fn events(text: &str) -> Vec<(String, Value)> {
    text.split("\n\n")
        .filter_map(|block| {
            let mut name = None;
            let mut data = None;
            for line in block.lines() {
                if let Some(rest) = line.strip_prefix("event:") {
                    name = Some(rest.trim().to_string());
                } else if let Some(rest) = line.strip_prefix("data:") {
                    data = serde_json::from_str(rest.trim()).ok();
                }
            }
            Some((name?, data?))
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_event_stream_sends_each_depth_then_the_result() {
    let (addr, _state) = spawn_server(crate::common::config()).await;
    let reply = reqwest::Client::new()
        .post(format!("http://{addr}/v1/games/reversi/analyze"))
        .header("accept", "text/event-stream")
        .json(&json!({"state": reversi_start(), "top": 2, "time_ms": 2000}))
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), 200);
    assert!(reply.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/event-stream"));
    let events = events(&reply.text().await.unwrap());
    let documented = &openapi()["paths"]["/v1/games/reversi/analyze"]["post"]["responses"]["200"]
        ["content"]["text/event-stream"]["schema"];
    for (name, data) in &events {
        let event = json!({"event": name, "data": data});
        validate(documented, &event, "a streamed analysis event");
    }
    let (last, depths) = events.split_last().unwrap();
    assert_eq!(last.0, "result", "{events:?}");
    assert!(depths.len() >= 3, "{} depth events", depths.len());
    let mut previous = 0;
    for (name, data) in depths {
        assert_eq!(name, "depth");
        let depth = data["search"]["depth"].as_u64().unwrap();
        assert!(depth > previous, "depths deepen: {depth} after {previous}");
        previous = depth;
        assert_eq!(data["moves"].as_array().unwrap().len(), 2);
        assert!(data["moves"][0]["win_probability"].is_f64());
        assert!(!data["moves"][0]["pv"].as_array().unwrap().is_empty());
    }
    assert!(last.1["search"]["depth"].as_u64().unwrap() >= previous);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_leaves_an_event_stream_frees_its_worker() {
    let (addr, state) = spawn_server(ServeConfig {
        workers: Some(1),
        queue: 0,
        ..crate::common::config()
    })
    .await;
    let body = json!({"state": reversi_start(), "time_ms": 20000}).to_string();
    let request = format!(
        "POST /v1/games/reversi/analyze HTTP/1.1\r\nhost: test\r\naccept: text/event-stream\r\n\
         content-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut client = TcpStream::connect(addr).await.unwrap();
    client.write_all(request.as_bytes()).await.unwrap();
    let mut first = [0u8; 256];
    let read = tokio::time::timeout(Duration::from_secs(5), client.read(&mut first))
        .await
        .expect("the first event comes")
        .unwrap();
    assert!(String::from_utf8_lossy(&first[..read]).contains("200"));
    wait_until("the search starting", Duration::from_secs(5), || {
        state.pool.running() == 1
    })
    .await;
    drop(client);
    let freed = wait_until("the worker being freed", Duration::from_secs(2), || {
        state.pool.admitted() == 0
    })
    .await;
    eprintln!("worker freed {freed:?} after the client left the stream");
}

/// The state after `square` from the start (f5, e6, d3 and c4 are twins).
async fn reversi_after(square: &str) -> Value {
    let reply = post_json(
        &app(),
        "/v1/games/reversi/play",
        &json!({"state": reversi_start(), "move": square}),
    )
    .await;
    reply.json["state"].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_and_a_plain_analysis_share_one_cached_search() {
    let (addr, _state) = spawn_server(crate::common::config()).await;
    let client = reqwest::Client::new();
    let url = format!("http://{addr}/v1/games/reversi/analyze");
    let asking = |state: Value| json!({"state": state, "top": 2, "max_depth": 5, "seed": 3});
    let stream = |body: Value| {
        let request = client
            .post(&url)
            .header("accept", "text/event-stream")
            .json(&body);
        async move { events(&request.send().await.unwrap().text().await.unwrap()) }
    };
    let after_f5 = reversi_after("f5").await;
    let searched = stream(asking(after_f5.clone())).await;
    let (last, depths) = searched.split_last().unwrap();
    assert_eq!(last.0, "result", "{searched:?}");
    assert!(!depths.is_empty());
    assert_ne!(last.1["search"]["cached"], true);

    // The same request streamed again: the held answer, as its one result.
    let again = stream(asking(after_f5.clone())).await;
    assert_eq!(again.len(), 1, "{again:?}");
    assert_eq!(again[0].0, "result");
    assert_eq!(again[0].1["search"]["cached"], true);
    assert_eq!(again[0].1["moves"], last.1["moves"]);

    // A plain analyze of the same request gets it too ...
    let plain = client
        .post(&url)
        .json(&asking(after_f5))
        .send()
        .await
        .unwrap();
    let plain: Value = plain.json().await.unwrap();
    assert_eq!(plain["search"]["cached"], true);
    assert_eq!(plain["moves"], last.1["moves"]);

    // ... and a stream for a symmetric twin gets it turned to its board.
    let twin = stream(asking(reversi_after("d3").await)).await;
    assert_eq!(twin.len(), 1, "{twin:?}");
    let turned = &twin[0].1;
    assert_eq!(turned["search"]["cached"], true);
    let scores = |reply: &Value| -> Vec<Value> {
        reply["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["score"].clone())
            .collect()
    };
    assert_eq!(scores(turned), scores(&last.1));
    assert_ne!(turned["moves"][0]["move"], last.1["moves"][0]["move"]);
    assert!(turned["moves"][0]["move"].is_object());
    let documented = &openapi()["paths"]["/v1/games/reversi/analyze"]["post"]["responses"]["200"]
        ["content"]["text/event-stream"]["schema"];
    for (name, data) in again.iter().chain(&twin) {
        validate(
            documented,
            &json!({"event": name, "data": data}),
            "a cached event",
        );
    }
}
