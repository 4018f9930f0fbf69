//! The playground page is served from the binary: the page, and every file it
//! loads, with the right content type.

use crate::common::*;
use axum::http::StatusCode;

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
    for id in gamebot::games::ids() {
        assert!(
            script.contains(&format!("\n    {id}: {{")),
            "no renderer for {id}"
        );
    }
}

#[tokio::test]
async fn the_page_links_each_games_rules_and_loads_nothing_from_elsewhere() {
    let app = app();
    let page = get(&app, "/").await.text;
    assert!(
        page.contains(r#"id="rules""#) && page.contains(r#"target="_blank""#),
        "the page has a Rules link that opens a new tab"
    );
    let script = get(&app, "/playground/app.js").await.text;
    assert!(
        script.contains("`/v1/games/${encodeURIComponent(ui.info.id)}/rules`"),
        "the Rules link is made from the game id"
    );
    let style = get(&app, "/playground/style.css").await.text;
    for (name, text) in [("page", &page), ("script", &script), ("style", &style)] {
        for external in [
            "src=\"http",
            "href=\"http",
            "src=\"//",
            "href=\"//",
            "url(http",
            "url(//",
            "@import",
        ] {
            assert!(!text.contains(external), "the {name} loads {external}…");
        }
    }
}

#[tokio::test]
async fn every_board_has_a_legend_and_is_labelled_in_its_notation() {
    let script = get(&app(), "/playground/app.js").await.text;
    // Advance names the text board's row 0 rank 9 and column 0 file a.
    assert!(script.contains("`${ADVANCE_FILES[c]}${9 - r}`"));
    assert!(script.contains("colLabels: ADVANCE_FILES.split('')"));
    assert_eq!(
        script.matches("\n      legend: ").count(),
        gamebot::games::REGISTRY.len(),
        "a legend for each registered game"
    );
    // The move list shows each move's notation.
    assert!(script.contains("item.textContent = `${who}: ${notationOf(move)}`"));
}
