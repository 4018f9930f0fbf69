//! One rule for each check, whichever form or endpoint a request takes:
//! a game's text and JSON forms check the same things, every JSON body
//! refuses a repeated key at its place, a text request refuses a query
//! parameter it does not take, values that become times or dates are
//! checked before any work, and each game refuses positions that no game
//! reaches as its rules page says. Every error is a problem document whose
//! pointer, where it has one, resolves in the body sent.

use crate::common::*;
use axum::http::{Method, StatusCode};
use serde_json::{json, Value};

/// The Advance start, as its 9-line text.
const ADVANCE_START: &str = "mjdsgscjm\nbzzzzzzzb\n.........\n.........\n.........\n.........\n.........\nBZZZZZZZB\nMJDSGSCJM\n";

/// The Halma start as 16 rows.
fn halma_start_rows() -> Vec<&'static str> {
    crate::common::HALMA_START_ROWS.to_vec()
}

/// A Halma board on which both camps are filled, each holding one piece of
/// the side heading for it (white on `4,0`, black on `11,15`): both sides
/// would have won.
fn doubly_filled_rows() -> Vec<&'static str> {
    let mut rows = halma_start_rows();
    rows[0] = "BBBBW...........";
    rows[15] = "...........BWWWW";
    rows
}

/// `input.txt` for a Halma position.
fn halma_input(mode: &str, side: &str, seconds: &str, rows: &[&str]) -> String {
    format!("{mode}\n{side}\n{seconds}\n{}\n", rows.join("\n"))
}

async fn post_text(uri: &str, text: &str) -> Reply {
    send(
        &app(),
        Method::POST,
        uri,
        Some("text/plain"),
        text.to_string(),
    )
    .await
}

async fn post_raw(uri: &str, body: &str) -> Reply {
    send(
        &app(),
        Method::POST,
        uri,
        Some("application/json"),
        body.to_string(),
    )
    .await
}

/// The value at `pointer` in the JSON text `body` (the first of repeated keys).
fn resolves(body: &str, pointer: &str) -> bool {
    let value: Value = serde_json::from_str(body).unwrap();
    value.pointer(pointer).is_some()
}

fn assert_problem(reply: &Reply, status: StatusCode, code: &str, pointer: Option<&str>) {
    assert_eq!(
        (reply.status, reply.code()),
        (status, code),
        "{}",
        reply.text
    );
    assert_eq!(reply.json["pointer"].as_str(), pointer, "{}", reply.text);
}

#[tokio::test]
async fn a_repeated_key_is_refused_by_every_json_body_at_the_key() {
    let reversi = r#"{"board": ["........", "........", "........", "...WB...", "...BW...", "........", "........", "........"], "to_move": "black"}"#;
    let twice_inside = r#"{"board": ["........", "........", "........", "...WB...", "...BW...", "........", "........", "........"], "to_move": "black", "to_move": "white"}"#;
    let cases = [
        (
            "legal-moves",
            format!(r#"{{"state": {reversi}, "state": {reversi}}}"#),
            "/state",
        ),
        (
            "legal-moves",
            format!(r#"{{"state": {twice_inside}}}"#),
            "/state/to_move",
        ),
        (
            "play",
            format!(r#"{{"state": {reversi}, "move": "d3", "move": "c4"}}"#),
            "/move",
        ),
        (
            "play",
            format!(r#"{{"state": {twice_inside}, "move": "d3"}}"#),
            "/state/to_move",
        ),
        (
            "bot-move",
            format!(r#"{{"state": {reversi}, "max_depth": 1, "max_depth": 9}}"#),
            "/max_depth",
        ),
        (
            "bot-move",
            format!(r#"{{"state": {twice_inside}, "max_depth": 1}}"#),
            "/state/to_move",
        ),
        (
            "analyze",
            format!(r#"{{"state": {reversi}, "max_depth": 1, "top": 1, "top": 2}}"#),
            "/top",
        ),
        (
            "new",
            r#"{"options": {}, "options": {}}"#.to_string(),
            "/options",
        ),
        (
            "replay",
            r#"{"record": "f5", "record": "d3"}"#.to_string(),
            "/record",
        ),
        (
            "replay",
            r#"{"moves": [{"notation": "f5", "notation": "d3"}]}"#.to_string(),
            "/moves/0/notation",
        ),
        (
            "review",
            r#"{"record": "f5", "seed": 1, "seed": 2}"#.to_string(),
            "/seed",
        ),
        (
            "placement",
            r#"{"results": [], "target": 0.5, "target": 0.6}"#.to_string(),
            "/target",
        ),
        (
            "placement",
            r#"{"results": [{"level": 1, "result": "win", "result": "loss"}]}"#.to_string(),
            "/results/0/result",
        ),
    ];
    for (endpoint, body, pointer) in cases {
        let reply = post_raw(&format!("/v1/games/reversi/{endpoint}"), &body).await;
        assert_problem(
            &reply,
            StatusCode::BAD_REQUEST,
            "malformed_json",
            Some(pointer),
        );
        assert!(resolves(&body, pointer), "{endpoint}: {pointer} in {body}");
        let key = pointer.rsplit('/').next().unwrap();
        let detail = reply.json["detail"].as_str().unwrap();
        assert!(
            detail.contains(&format!("\"{key}\" appears more than once")),
            "{endpoint}: {detail}"
        );
    }
    // A Halma bot option is checked like every other field.
    let halma = json!({"board": halma_start_rows(), "to_move": "black"});
    let body = format!(
        r#"{{"state": {halma}, "level": "random", "clock": {{"mode": "GAME", "mode": "SINGLE", "time_left_s": 1}}}}"#
    );
    let reply = post_raw("/v1/games/halma/bot-move", &body).await;
    assert_problem(
        &reply,
        StatusCode::BAD_REQUEST,
        "malformed_json",
        Some("/clock/mode"),
    );
}

#[tokio::test]
async fn a_halma_clock_a_bot_cannot_plan_with_is_refused_at_its_seconds() {
    let state = json!({"board": halma_start_rows(), "to_move": "black"});
    for seconds in [
        json!(1e308),
        json!(86_401),
        json!(0),
        json!(-1),
        json!(-0.0),
    ] {
        let body = json!({
            "state": state,
            "level": "strong",
            "max_depth": 1,
            "clock": {"mode": "SINGLE", "time_left_s": seconds},
        });
        let reply = post_json(&app(), "/v1/games/halma/bot-move", &body).await;
        assert_problem(
            &reply,
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_option",
            Some("/clock/time_left_s"),
        );
        let detail = reply.json["detail"].as_str().unwrap();
        assert!(detail.contains("above 0 and at most 86400"), "{detail}");
    }
    // A day is the most a clock holds, and it is played with.
    let body = json!({
        "state": state,
        "level": "strong",
        "max_depth": 1,
        "clock": {"mode": "GAME", "time_left_s": 86_400},
    });
    let reply = post_json(&app(), "/v1/games/halma/bot-move", &body).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    // The text form's seconds are checked the same way.
    let text = halma_input("SINGLE", "BLACK", "1e308", &halma_start_rows());
    let reply = post_text("/v1/games/halma/legal-moves", &text).await;
    assert_problem(
        &reply,
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid_state",
        None,
    );
    assert!(reply.text.contains("line 3 is '1e308'"), "{}", reply.text);
}

#[tokio::test]
async fn advance_text_and_json_forms_refuse_the_same_ply_parity() {
    let rows: Vec<&str> = ADVANCE_START.lines().collect();
    let json_form = post_json(
        &app(),
        "/v1/games/advance/legal-moves",
        &json!({"state": {"board": rows, "to_move": "white", "ply": 1}}),
    )
    .await;
    assert_problem(
        &json_form,
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid_state",
        Some("/state/ply"),
    );
    let text_form = post_text(
        "/v1/games/advance/legal-moves?to_move=white&ply=1",
        ADVANCE_START,
    )
    .await;
    assert_eq!(
        (text_form.status, text_form.code()),
        (json_form.status, json_form.code()),
        "{}",
        text_form.text
    );
    assert_eq!(text_form.json["detail"], json_form.json["detail"]);
    let agreeing = post_text(
        "/v1/games/advance/legal-moves?to_move=black&ply=1",
        ADVANCE_START,
    )
    .await;
    assert_eq!(agreeing.status, StatusCode::OK, "{}", agreeing.text);
}

#[tokio::test]
async fn a_text_request_refuses_a_query_parameter_it_does_not_take() {
    let reversi =
        "........\n........\n........\n...WB...\n...BW...\n........\n........\n........\n";
    let halma = halma_input("GAME", "BLACK", "30", &halma_start_rows());
    let cases = [
        (
            "/v1/games/reversi/bot-move?to_move=black&levle=random&seed=1",
            reversi,
            "'levle'",
            "level",
        ),
        (
            "/v1/games/reversi/legal-moves?to_move=black&level=random",
            reversi,
            "'level'",
            "to_move",
        ),
        (
            "/v1/games/advance/bot-move?to_move=white&level=legal&plie=3",
            ADVANCE_START,
            "'plie'",
            "ply",
        ),
        (
            "/v1/games/advance/legal-moves?to_move=white&x=1&y=2",
            ADVANCE_START,
            "'x', 'y'",
            "to_move, ply",
        ),
        (
            "/v1/games/halma/bot-move?level=random&camp_rul=basic",
            &halma,
            "'camp_rul'",
            "camp_rule",
        ),
        (
            "/v1/games/halma/legal-moves?camp_rule=basic&seed=1",
            &halma,
            "'seed'",
            "camp_rule",
        ),
    ];
    for (uri, text, named, listed) in cases {
        let reply = post_text(uri, text).await;
        assert_problem(
            &reply,
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_option",
            None,
        );
        let detail = reply.json["detail"].as_str().unwrap();
        assert!(detail.contains(named), "{uri}: {detail}");
        assert!(detail.contains(listed), "{uri}: {detail}");
    }
    // The parameters each request takes still work.
    for (uri, text) in [
        (
            "/v1/games/reversi/bot-move?to_move=black&level=random&seed=1&perspective=black",
            reversi,
        ),
        (
            "/v1/games/advance/bot-move?to_move=white&ply=0&level=legal&seed=1",
            ADVANCE_START,
        ),
        (
            "/v1/games/halma/bot-move?camp_rule=basic&level=random&seed=1&max_depth=1",
            &halma,
        ),
    ] {
        let reply = post_text(uri, text).await;
        assert_eq!(reply.status, StatusCode::OK, "{uri}: {}", reply.text);
    }
}

#[tokio::test]
async fn halma_refuses_a_position_that_no_game_reaches_under_the_referee_rules() {
    let both = json!({"state": {"board": doubly_filled_rows(), "to_move": "black"}});
    let reply = post_json(&app(), "/v1/games/halma/legal-moves", &both).await;
    assert_problem(
        &reply,
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid_state",
        Some("/state/board"),
    );
    let detail = reply.json["detail"].as_str().unwrap();
    assert!(detail.contains("both camps are filled"), "{detail}");
    assert!(detail.contains("referee's camp rules"), "{detail}");
    // The text form refuses it too.
    for side in ["BLACK", "WHITE"] {
        let text = halma_input("GAME", side, "30", &doubly_filled_rows());
        let reply = post_text("/v1/games/halma/legal-moves", &text).await;
        assert_problem(
            &reply,
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_state",
            None,
        );
        assert!(
            reply.text.contains("both camps are filled"),
            "{}",
            reply.text
        );
    }
    // Under the basic camp rule a side may walk back into its own camp, so
    // the position can be reached: whoever moved last has won.
    let mut basic = both.clone();
    basic["state"]["camp_rule"] = json!("basic");
    let reply = post_json(&app(), "/v1/games/halma/legal-moves", &basic).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.json["outcome"]["winner"], "white", "{}", reply.text);

    // The side to move cannot have filled the camp it is heading for.
    let mut rows = halma_start_rows();
    rows[0] = "BBBB............";
    rows[4] = "BB.......W......";
    rows[15] = "...........BWWWW";
    let won = json!({"state": {"board": rows, "to_move": "black"}});
    let reply = post_json(&app(), "/v1/games/halma/legal-moves", &won).await;
    assert_problem(
        &reply,
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid_state",
        Some("/state/to_move"),
    );
    let mut after_the_win = won.clone();
    after_the_win["state"]["to_move"] = json!("white");
    let reply = post_json(&app(), "/v1/games/halma/legal-moves", &after_the_win).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.json["outcome"]["winner"], "black", "{}", reply.text);
}

#[tokio::test]
async fn a_crush_move_object_takes_cells_as_the_rules_page_says() {
    let rules = get(&app(), "/v1/games/crush/rules").await.text;
    assert!(
        !rules.contains("or as numbers"),
        "the page still says numbers are cells"
    );
    assert!(
        rules.contains("a JSON number (`21`) is refused"),
        "the page does not say how cells are written"
    );
    let state = post_json(&app(), "/v1/games/crush/new", &json!({}))
        .await
        .json["state"]
        .clone();
    let strings = post_json(
        &app(),
        "/v1/games/crush/play",
        &json!({"state": state, "move": {"a": "00", "b": "01"}}),
    )
    .await;
    assert_eq!(strings.status, StatusCode::OK, "{}", strings.text);
    let numbers = post_json(
        &app(),
        "/v1/games/crush/play",
        &json!({"state": state, "move": {"a": 0, "b": 1}}),
    )
    .await;
    assert_problem(
        &numbers,
        StatusCode::UNPROCESSABLE_ENTITY,
        "illegal_move",
        Some("/move/a"),
    );
}

#[tokio::test]
async fn a_placement_result_dated_after_today_is_refused_at_its_date() {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
        / 86_400;
    let date = |day: u64| {
        // Days since 1970-01-01 to a calendar date (H. Hinnant's civil-from-days).
        let z = day as i64 + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let d = doy - (153 * mp + 2) / 5 + 1;
        let m = if mp < 10 { mp + 3 } else { mp - 9 };
        let y = yoe + era * 400 + i64::from(m <= 2);
        format!("{y:04}-{m:02}-{d:02}")
    };
    let body = |last: &str| {
        json!({"results": [
            {"level": 2, "result": "win", "date": date(days - 30)},
            {"level": 3, "result": "loss", "date": last},
        ]})
    };
    for future in ["9999-12-31".to_string(), date(days + 2)] {
        let reply = post_json(&app(), "/v1/games/reversi/placement", &body(&future)).await;
        assert_problem(
            &reply,
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_option",
            Some("/results/1/date"),
        );
        assert!(reply.text.contains("after today"), "{}", reply.text);
    }
    let today = post_json(&app(), "/v1/games/reversi/placement", &body(&date(days))).await;
    assert_eq!(today.status, StatusCode::OK, "{}", today.text);
}
