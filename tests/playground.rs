//! The playground page is served from the binary: the page, and every file it
//! loads, with the right content type.

mod common;

use axum::http::StatusCode;
use common::*;

#[tokio::test]
async fn the_page_and_everything_it_loads_are_served() {
    let app = app();
    let page = get(&app, "/").await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.content_type().starts_with("text/html"));
    let loaded: Vec<&str> = page
        .text
        .split(['"', '\''])
        .filter(|part| part.starts_with("/playground/"))
        .collect();
    assert_eq!(loaded.len(), 2, "the page loads its script and style sheet");
    for path in loaded {
        let reply = get(&app, path).await;
        assert_eq!(reply.status, StatusCode::OK, "{path}");
        let expected = if path.ends_with(".js") {
            "text/javascript"
        } else {
            "text/css"
        };
        assert!(reply.content_type().starts_with(expected), "{path}");
        assert!(!reply.text.is_empty());
    }
}

#[tokio::test]
async fn the_script_draws_every_game_of_the_design() {
    let script = get(&app(), "/playground/app.js").await.text;
    for id in ["advance", "halma", "reversi", "naughts", "crush"] {
        assert!(
            script.contains(&format!("\n    {id}: {{")),
            "no renderer for {id}"
        );
    }
}
