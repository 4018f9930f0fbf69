//! The JSON and text forms, and play through the erased view.

use super::rules::sparse;
use super::*;

fn start_json() -> Value {
    Advance::state_to_json(&State::start())
}

fn invalid_state(value: &Value) -> (Option<String>, String) {
    match Advance::state_from_json(value) {
        Err(crate::game::GameError::InvalidState { pointer, detail }) => (pointer, detail),
        other => panic!("expected invalid_state, got {other:?}"),
    }
}

#[test]
fn json_state_errors_point_at_the_field() {
    let mut bad_char = start_json();
    bad_char["board"][3] = json!("...x.....");
    let (pointer, detail) = invalid_state(&bad_char);
    assert_eq!(pointer.as_deref(), Some("/board/3"));
    assert!(
        detail.contains("row 3, column 3") && detail.contains("'x'"),
        "{detail}"
    );

    let mut short_row = start_json();
    short_row["board"][8] = json!("MJCSGSDJ");
    let (pointer, detail) = invalid_state(&short_row);
    assert_eq!(pointer.as_deref(), Some("/board/8"));
    assert!(
        detail.contains("expected 9 characters, found 8"),
        "{detail}"
    );

    let mut rows = start_json();
    rows["board"].as_array_mut().unwrap().pop();
    assert_eq!(invalid_state(&rows).0.as_deref(), Some("/board"));

    let mut not_string = start_json();
    not_string["board"][2] = json!(7);
    assert_eq!(invalid_state(&not_string).0.as_deref(), Some("/board/2"));

    let mut side = start_json();
    side["to_move"] = json!("red");
    assert_eq!(invalid_state(&side).0.as_deref(), Some("/to_move"));

    for ply in [json!(-1), json!(201), json!("3"), json!(1.5)] {
        let mut state = start_json();
        state["ply"] = ply;
        assert_eq!(invalid_state(&state).0.as_deref(), Some("/ply"));
    }
    assert!(invalid_state(&json!([1, 2])).1.contains("object"));

    let mut unknown_ply = start_json();
    unknown_ply.as_object_mut().unwrap().remove("ply");
    let state = Advance::state_from_json(&unknown_ply).unwrap();
    assert_eq!(state.ply(), None);
    assert_eq!(Advance::state_to_json(&state), unknown_ply);
}

#[test]
fn move_notation_and_objects_are_read_leniently_but_exactly() {
    let state = sparse(&[(7, ".z......."), (8, "B#......G")], Color::White);
    let step = super::super::notation::parse_move(&state, &json!(" A1-A2 ")).unwrap();
    assert_eq!(step.kind, Kind::Move);
    let build = super::super::notation::parse_move(&state, &json!("a1#a2")).unwrap();
    assert_eq!(build.kind, Kind::Build);
    let capture = super::super::notation::parse_move(&state, &json!("a1b2")).unwrap();
    assert_eq!(capture.kind, Kind::Capture);
    let ambiguous = super::super::notation::parse_move(&state, &json!("a1a2")).unwrap_err();
    assert!(ambiguous.to_string().contains("ambiguous"), "{ambiguous}");
    let object = json!({"from": [8, 0], "to": [7, 0], "kind": "build"});
    assert_eq!(
        super::super::notation::parse_move(&state, &object).unwrap(),
        build
    );
    let without_kind = json!({"from": [8, 0], "to": [7, 1]});
    assert_eq!(
        super::super::notation::parse_move(&state, &without_kind).unwrap(),
        capture
    );
    let only_notation = json!({"notation": "a1-a2"});
    assert_eq!(
        super::super::notation::parse_move(&state, &only_notation).unwrap(),
        step
    );
    for (bad, expected) in [
        (json!("a1-b2"), "the legal move from a1 to b2 is a1xb2"),
        (
            json!("b1-b2"),
            "white is to move and it holds the wall on b1",
        ),
        (json!("z9-a1"), "cannot read"),
        (json!("a1?a2"), "cannot read"),
        (json!({"from": [9, 0], "to": [7, 0]}), "\"from\""),
        (
            json!({"from": [8, 0], "to": [7, 0], "kind": "jump"}),
            "unknown move kind",
        ),
        (json!(42), "notation string"),
    ] {
        let error = super::super::notation::parse_move(&state, &bad).unwrap_err();
        assert!(error.to_string().contains(expected), "{bad}: {error}");
        assert!(matches!(
            error,
            crate::game::GameError::IllegalMove {
                code: crate::game::ErrorCode::IllegalMove,
                ..
            }
        ));
    }
    let json = Advance::move_to_json(&state, &build);
    assert_eq!(
        json,
        json!({"kind": "build", "from": [8, 0], "to": [7, 0], "notation": "a1#a2"})
    );
}

#[test]
fn text_forms_through_the_erased_view() {
    let game = crate::games::find("advance").unwrap();
    let text = State::start().to_text();
    let query = TextParams::from_pairs([("to_move", "white")]);
    let listed = game
        .text_legal_moves(&text.replace('\n', "\r\n"), &query)
        .unwrap();
    assert_eq!(listed.lines().count(), 43);
    assert!(listed.lines().any(|l| l == "b1~a2"));
    let request = BotRequest {
        state: StateInput::Text {
            body: text.trim_end().to_string(),
            params: query.clone(),
        },
        level: Some("greedy".into()),
        seed: Some(5),
        ..Default::default()
    };
    let reply = game.prepare_bot(request).unwrap()(&Budget::unlimited())
        .unwrap()
        .text
        .unwrap();
    assert_eq!(reply.lines().count(), 9);
    assert!(reply.ends_with('\n'));
    let after = super::super::state::parse_board_text(&reply, Color::Black, None).unwrap();
    assert!(legal(&State::start())
        .iter()
        .any(|m| State::start().after(*m).to_text() == after.to_text()));

    let errors = [
        (text.replacen('Z', "Q", 1), "line 8, column 2"),
        (
            text.replacen("BZZZZZZZB", "BZZZZZZZ", 1),
            "line 8: expected 9 characters, found 8",
        ),
        (format!("{text}.........\n"), "line 10"),
        (
            text.lines().take(7).collect::<Vec<_>>().join("\n"),
            "line 8",
        ),
        (String::new(), "line 1"),
    ];
    for (body, expected) in errors {
        let error = game.text_legal_moves(&body, &query).unwrap_err();
        assert!(error.to_string().contains(expected), "{expected}: {error}");
    }
    let no_side = game
        .text_legal_moves(&text, &TextParams::default())
        .unwrap_err();
    assert!(no_side.to_string().contains("to_move"), "{no_side}");
    let with_ply = TextParams::from_pairs([("to_move", "white"), ("ply", "200")]);
    assert_eq!(game.text_legal_moves(&text, &with_ply).unwrap(), "");
}

#[test]
fn play_through_the_erased_view_reports_the_outcome() {
    let game = crate::games::find("advance").unwrap();
    let examples = fixture("seed-examples.json");
    let example = &examples["examples"][1];
    let state = json!({"board": example["board"], "to_move": example["to_move"]});
    let reply = game.play(&state, &json!("e7-d8")).unwrap();
    assert_eq!(reply.outcome["status"], "win");
    assert_eq!(reply.outcome["winner"], "white");
    assert_eq!(reply.outcome["reason"], "no legal move");
    assert_eq!(game.legal_moves(&reply.state).unwrap().count, 0);
    let over = game.play(&reply.state, &json!("a9-a8")).unwrap_err();
    assert!(matches!(over, crate::game::GameError::GameOver { .. }));
    let finished = Advance::state_from_json(&reply.state).unwrap();
    for level in LEVELS {
        let spec = crate::game::LevelSpec::parse(level).unwrap();
        let error = Advance::choose_move(
            &finished,
            &spec,
            &BotParams::seeded(1),
            &Budget::unlimited(),
        );
        assert!(
            matches!(error, Err(crate::game::GameError::GameOver { .. })),
            "{level}"
        );
    }
    let new = game.new_game(&Value::Null).unwrap();
    assert_eq!(new.state, start_json());
    assert!(game.new_game(&json!({"size": 7})).is_err());
}
