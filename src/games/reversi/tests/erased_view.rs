//! The erased view.

use super::*;

#[test]
fn erased_view_plays_and_reports() {
    let view = crate::games::find("reversi").unwrap();
    let info = view.info();
    assert_eq!(info.sides, ["black", "white"]);
    assert_eq!(view.listing().default_level, "strong");
    let start = view.new_game(&Value::Null).unwrap().state;
    let listed = view.legal_moves(&start).unwrap();
    assert_eq!(listed.count, 4);
    assert_eq!(listed.outcome, json!({"status": "ongoing"}));
    let played = view.play(&start, &json!("f5")).unwrap();
    assert_eq!(played.mv, json!({"square": "f5", "notation": "f5"}));
    assert_eq!(played.effects, Some(json!({"flipped": ["e5"]})));
    assert_eq!(played.state["to_move"], "white");
    let err = view.play(&start, &json!("a1")).unwrap_err();
    assert!(matches!(err, GameError::IllegalMove { .. }));
    let over = json!({"board": vec!["BBBBBBBB"; 8], "to_move": "black"});
    assert!(matches!(
        view.play(&over, &json!("pass")).unwrap_err(),
        GameError::GameOver { .. }
    ));
    assert_eq!(view.legal_moves(&over).unwrap().outcome["winner"], "black");

    for level in ["random", "norvig", "norvig:depth=3", "strong"] {
        let request = BotRequest {
            state: StateInput::Json(played.state.clone()),
            level: Some(level.to_string().into()),
            seed: Some(11),
            ..Default::default()
        };
        let reply = view.bot_move(&request, &Budget::with_time_ms(200)).unwrap();
        assert_eq!(reply.search.level, level);
        assert_eq!(reply.state["to_move"], "black", "{level}");
    }
    let asking = |level: &str| BotRequest {
        state: StateInput::Json(played.state.clone()),
        level: Some(level.into()),
        ..Default::default()
    };
    // Both point at the body's level, where the game found the fault: a
    // level's options as the level starts, on the worker ...
    let bad_option = view
        .bot_move(&asking("norvig:depth=11"), &Budget::unlimited())
        .unwrap_err();
    assert!(matches!(bad_option, GameError::InvalidOption { .. }));
    assert_eq!(bad_option.pointer(), Some("/level"));
    // ... and an unknown level before any work is queued.
    let unknown = view.prepare_bot(asking("grandmaster")).err().unwrap();
    assert!(matches!(unknown, GameError::UnknownLevel { .. }));
    assert_eq!(unknown.pointer(), Some("/level"));
    // A level from a text request's query string is no field of a body
    // (the level is read first: the body only on the worker).
    let from_query = BotRequest {
        state: StateInput::Text {
            body: "a text body".into(),
            params: Default::default(),
        },
        level: Some("grandmaster".into()),
        ..Default::default()
    };
    let unknown = view.prepare_bot(from_query).err().unwrap();
    assert!(matches!(unknown, GameError::UnknownLevel { .. }));
    assert_eq!(unknown.pointer(), None);
}

#[test]
fn random_level_is_seeded() {
    let state = State::start();
    let pick = |seed| {
        Reversi::choose_move(
            &state,
            &LevelSpec::parse("random").unwrap(),
            &crate::game::BotParams::seeded(seed),
            &Budget::unlimited(),
        )
        .unwrap()
        .mv
    };
    assert_eq!(pick(1), pick(1));
    let distinct: std::collections::HashSet<_> = (0..40).map(pick).collect();
    assert_eq!(distinct.len(), 4);
}
