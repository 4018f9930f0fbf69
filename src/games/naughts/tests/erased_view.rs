//! Through the type-erased view.

use super::*;

#[test]
fn the_registry_serves_naughts() {
    let game = crate::games::find("naughts").unwrap();
    let listing = game.listing();
    assert_eq!((listing.id, listing.default_level), ("naughts", "perfect"));
    let state = game.new_game(&json!({"grid_size": 4})).unwrap().state;
    let moves = game.legal_moves(&state).unwrap();
    assert_eq!(moves.count, 16 * 5);
    assert_eq!(
        moves.moves[0],
        json!({"row": 0, "col": 0, "size": 1, "notation": "1 1 1"})
    );
    let played = game.play(&state, &json!("2 3 5")).unwrap();
    assert_eq!(played.state["board"][1][2], json!("O5"));
    assert_eq!(played.outcome, json!({"status": "ongoing"}));
    let err = game.play(&state, &json!("2 3 6")).unwrap_err();
    assert_eq!(
        err,
        GameError::IllegalMove {
            code: crate::game::ErrorCode::InvalidSize,
            pointer: Some("/move".to_string()),
            detail: "size must be 1-5 (the sizes of this game's markers), got 6".to_string()
        }
    );
    let mut bad = state.clone();
    bad["board"][3][3] = json!("Q");
    match game.legal_moves(&bad) {
        Err(GameError::InvalidState { pointer, .. }) => {
            assert_eq!(pointer.as_deref(), Some("/state/board/3/3"))
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_registry_bot_answers_small_boards_proven() {
    let game = crate::games::find("naughts").unwrap();
    let state = game.new_game(&json!({})).unwrap().state;
    let request = crate::game::erased::BotRequest {
        state: crate::game::erased::StateInput::Json(state),
        seed: Some(3),
        ..Default::default()
    };
    let reply = game
        .bot_move(&request, &Budget::with_time_ms(5_000))
        .unwrap();
    assert_eq!(reply.search.proven, Some(true));
    assert_eq!(reply.search.level, "perfect");
}
