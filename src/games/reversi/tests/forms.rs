//! JSON and text forms.

use super::*;

#[test]
fn states_round_trip_and_bad_states_say_where() {
    let state = State::start();
    let json = Reversi::state_to_json(&state);
    assert_eq!(json["to_move"], "black");
    assert_eq!(Reversi::state_from_json(&json).unwrap(), state);

    let bad = |value: Value| Reversi::state_from_json(&value).unwrap_err();
    let pointer = |e: GameError| match e {
        GameError::InvalidState { pointer, detail } => (pointer, detail),
        other => panic!("{other:?}"),
    };
    let (p, d) = pointer(bad(
        json!({"board": vec!["........"; 7], "to_move": "black"}),
    ));
    assert_eq!(p.as_deref(), Some("/board"));
    assert!(d.contains("8 rows"), "{d}");
    let mut rows = vec!["........"; 8];
    rows[3] = "...WX...";
    let (p, d) = pointer(bad(json!({"board": rows, "to_move": "black"})));
    assert_eq!(p.as_deref(), Some("/board/3"));
    assert!(d.contains("board row 3, column 4 (square e4)"), "{d}");
    rows[3] = "...WB..";
    let (p, d) = pointer(bad(json!({"board": rows, "to_move": "black"})));
    assert_eq!(p.as_deref(), Some("/board/3"));
    assert!(d.contains("7 characters"), "{d}");
    let (p, _) = pointer(bad(json!({"board": vec!["........"; 8], "to_move": "red"})));
    assert_eq!(p.as_deref(), Some("/to_move"));
    let (p, _) = pointer(bad(json!({"board": vec!["........"; 8]})));
    assert_eq!(p.as_deref(), Some("/to_move"));
    let (p, _) = pointer(bad(
        json!({"board": [1, 2, 3, 4, 5, 6, 7, 8], "to_move": "black"}),
    ));
    assert_eq!(p.as_deref(), Some("/board/0"));
    assert!(matches!(bad(json!([1, 2])), GameError::InvalidState { .. }));
    assert!(
        crate::game::read_new_options::<Reversi>(&json!({"size": 10}))
            .and_then(Reversi::new_game)
            .is_err()
    );
}

#[test]
fn moves_parse_as_notation_or_object_and_illegal_ones_say_why() {
    let state = State::start();
    let d3 = Move::Place(19);
    assert_eq!(Reversi::parse_move(&state, &json!("d3")).unwrap(), d3);
    assert_eq!(Reversi::parse_move(&state, &json!("D3")).unwrap(), d3);
    assert_eq!(
        Reversi::parse_move(&state, &json!({"square": "d3"})).unwrap(),
        d3
    );
    assert_eq!(
        Reversi::parse_move(&state, &json!({"notation": "d3"})).unwrap(),
        d3
    );
    assert_eq!(
        Reversi::move_to_json(&state, &d3),
        json!({"square": "d3", "notation": "d3"})
    );
    assert_eq!(
        Reversi::move_to_json(&state, &Move::Pass),
        json!({"square": null, "notation": "pass"})
    );
    for (mv, words) in [
        (json!("d4"), "occupied"),
        (json!("a1"), "flips no white"),
        (json!("pass"), "cannot pass"),
        (json!("z9"), "not a square"),
        (json!(""), "not a square"),
        (json!(42), "notation string"),
        (json!({"square": 3}), "square"),
        (json!({}), "needs"),
    ] {
        let err = Reversi::parse_move(&state, &mv).unwrap_err();
        assert!(
            matches!(err, GameError::IllegalMove { .. }),
            "{mv}: {err:?}"
        );
        assert!(err.to_string().contains(words), "{mv}: {err}");
    }
}

#[test]
fn text_form_reads_boards_with_crlf_and_names_bad_cells() {
    let query = |side: &str| TextParams::from_pairs([("to_move", side)]);
    let body = "........\r\n........\r\n........\r\n...WB...\r\n...BW...\r\n........\r\n........\r\n........\r\n";
    let request = Reversi::parse_text(body, &query("black")).unwrap();
    assert_eq!(request.state, State::start());
    let no_final_newline = body.replace("\r\n", "\n");
    let request = Reversi::parse_text(no_final_newline.trim_end(), &query("white")).unwrap();
    assert_eq!(request.state.to_move, Side::Second);

    let err =
        Reversi::parse_text(&body.replace("...BW...", "...BQ..."), &query("black")).unwrap_err();
    assert!(
        err.to_string().contains("line 5") && err.to_string().contains("column 5"),
        "{err}"
    );
    let err = Reversi::parse_text("........\n", &query("black")).unwrap_err();
    assert!(err.to_string().contains("8 lines"), "{err}");
    let err = Reversi::parse_text(body, &TextParams::default()).unwrap_err();
    assert!(err.to_string().contains("to_move"), "{err}");

    let view = crate::games::find("reversi").unwrap();
    let listed = view.text_legal_moves(body, &query("black")).unwrap();
    assert_eq!(listed, "d3\nc4\nf5\ne6\n");
    let request = BotRequest {
        state: StateInput::Text {
            body: body.to_string(),
            params: query("black"),
        },
        level: Some("norvig:depth=2".into()),
        seed: Some(5),
        ..Default::default()
    };
    let answer = view.prepare_bot(request).unwrap()(&Budget::unlimited())
        .unwrap()
        .text
        .unwrap();
    assert_eq!(answer.lines().count(), 8);
    assert_eq!(answer.matches('B').count(), 4);
}
