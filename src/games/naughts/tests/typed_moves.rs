//! Typed moves: the table, in order.

use super::*;

#[test]
fn every_row_of_the_table_has_its_code_and_says_what_was_expected() {
    let state = play(&play(&State::new(3, 5), "2 2 3"), "1 1 2");
    let format = "a move is \"row col size\", one character each with one space between \
                  (\"2 2 5\"), or \"pass\"; got ";
    let cases = [
        ("22 5", "invalid_format", format!("{format}\"22 5\"")),
        ("2 2 5 ", "invalid_format", format!("{format}\"2 2 5 \"")),
        ("2  2 5", "invalid_format", format!("{format}\"2  2 5\"")),
        ("", "invalid_format", format!("{format}\"\"")),
        (
            "4 2 5",
            "invalid_row",
            "row must be 1-3 in notation (0-2 in a move object), got 4".into(),
        ),
        (
            "0 2 5",
            "invalid_row",
            "row must be 1-3 in notation (0-2 in a move object), got 0".into(),
        ),
        (
            "2 a 5",
            "invalid_column",
            "column must be 1-3 in notation (0-2 in a move object), got a".into(),
        ),
        (
            "2 2 6",
            "invalid_size",
            "size must be 1-5 (the sizes of this game's markers), got 6".into(),
        ),
        (
            "2 2 0",
            "invalid_size",
            "size must be 1-5 (the sizes of this game's markers), got 0".into(),
        ),
        (
            "1 3 3",
            "invalid_move",
            "O has already played size 3 (it holds 1, 2, 4, 5)".into(),
        ),
        (
            "2 2 2",
            "invalid_move",
            "cell \"2 2\" holds O3, which is not smaller than 2: a marker goes on an \
             empty cell or over a smaller marker"
                .into(),
        ),
    ];
    for (input, code, detail) in cases {
        assert_eq!(code_of(typed(&state, input)), (code, detail), "{input:?}");
    }
    assert_eq!(
        typed(&state, "2 2 4").unwrap(),
        Move {
            row: 1,
            col: 1,
            size: 4
        }
    );
}

#[test]
fn a_notation_error_points_at_the_whole_move() {
    let game = crate::games::find("naughts").unwrap();
    let state = game.new_game(&json!({})).unwrap().state;
    for text in ["0 0 5", "1 4 5", "1 1 6", "11 5"] {
        match game.play(&state, &json!(text)).unwrap_err() {
            GameError::IllegalMove { pointer, .. } => {
                assert_eq!(pointer.as_deref(), Some("/move"), "{text}")
            }
            other => panic!("{text}: {other:?}"),
        }
    }
}

#[test]
fn an_object_error_points_at_its_field_and_gives_the_range() {
    let game = crate::games::find("naughts").unwrap();
    let state = game
        .new_game(&json!({"grid_size": 4, "pieces": 6}))
        .unwrap()
        .state;
    let state = game.play(&state, &json!("1 1 6")).unwrap().state;
    let state = game.play(&state, &json!("1 2 2")).unwrap().state;
    let cases = [
        (
            json!({"row": 5, "col": 0, "size": 1}),
            "invalid_row",
            "/move/row",
            "row must be 0-3 in a move object (1-4 in notation), got 5",
        ),
        (
            json!({"row": "1", "col": 0, "size": 1}),
            "invalid_row",
            "/move/row",
            "row must be 0-3 in a move object (1-4 in notation), got \"1\"",
        ),
        (
            json!({"row": 0, "col": -1, "size": 1}),
            "invalid_column",
            "/move/col",
            "col must be 0-3 in a move object (1-4 in notation), got -1",
        ),
        (
            json!({"row": 0, "col": 0, "size": 7}),
            "invalid_size",
            "/move/size",
            "size must be 1-6 (the sizes of this game's markers), got 7",
        ),
        (
            json!({"row": 3, "col": 3, "size": 6}),
            "invalid_move",
            "/move/size",
            "O has already played size 6 (it holds 1, 2, 3, 4, 5)",
        ),
        (
            json!({"row": 0, "col": 1, "size": 2}),
            "invalid_move",
            "/move",
            "the cell at row 0, col 1 holds X2, which is not smaller than 2: a marker goes on \
             an empty cell or over a smaller marker",
        ),
        (
            json!({"row": 0, "col": 0, "size": 1, "notation": "1 1 2"}),
            "invalid_format",
            "/move/notation",
            "\"notation\" is \"1 1 2\" but row, col and size say \"1 1 1\"",
        ),
        (
            json!({"row": 0, "col": 0}),
            "invalid_format",
            "/move",
            "the move has no \"size\": expected {\"row\": r, \"col\": c, \"size\": s}",
        ),
    ];
    for (mv, code, pointer, detail) in cases {
        assert_eq!(
            game.play(&state, &mv).unwrap_err(),
            GameError::IllegalMove {
                code: crate::game::ErrorCode::ALL
                    .into_iter()
                    .find(|known| known.as_str() == code)
                    .unwrap(),
                pointer: Some(pointer.to_string()),
                detail: detail.to_string(),
            },
            "{mv}"
        );
    }
}

#[test]
fn the_first_failing_check_wins() {
    let state = play(&play(&State::new(3, 5), "1 1 5"), "2 2 5");
    let cases = [
        ("9 9 9 ", "invalid_format"),
        ("x y z", "invalid_row"),
        ("9 9 9", "invalid_row"),
        ("1 9 9", "invalid_column"),
        ("1 1 9", "invalid_size"),
        ("1 1 5", "invalid_move"),
    ];
    for (input, code) in cases {
        assert_eq!(code_of(typed(&state, input)).0, code, "{input:?}");
    }
    // Naughts' 5 is already played: size 5 is still a valid size, so the move check fails.
    assert_eq!(code_of(typed(&state, "3 3 5")).0, "invalid_move");
}

#[test]
fn object_moves_are_zero_based() {
    let state = State::new(3, 5);
    let mv = Naughts::parse_move(&state, &json!({"row": 2, "col": 0, "size": 5})).unwrap();
    assert_eq!(Naughts::notation(&state, &mv), "3 1 5");
    assert_eq!(
        Naughts::move_to_json(&state, &mv),
        json!({"row": 2, "col": 0, "size": 5, "notation": "3 1 5"})
    );
    let bad = [
        (json!({"row": 3, "col": 0, "size": 5}), "invalid_row"),
        (json!({"row": 0, "col": -1, "size": 5}), "invalid_column"),
        (json!({"row": 0, "col": 0, "size": 6}), "invalid_size"),
        (json!({"row": 0, "col": 0}), "invalid_format"),
        (
            json!({"row": 0, "col": 0, "size": 1, "notation": "1 1 2"}),
            "invalid_format",
        ),
        (
            json!({"row": 0, "col": 0, "size": 1, "colour": "red"}),
            "invalid_format",
        ),
        (json!(17), "invalid_format"),
    ];
    for (value, code) in bad {
        assert_eq!(
            code_of(Naughts::parse_move(&state, &value)).0,
            code,
            "{value}"
        );
    }
    let after = play(&state, "1 1 4");
    let (code, detail) = code_of(Naughts::parse_move(
        &after,
        &json!({"row": 0, "col": 0, "size": 3}),
    ));
    assert_eq!(code, "invalid_move");
    assert!(
        detail.starts_with("the cell at row 0, col 0 holds O4, which is not smaller than 3"),
        "{detail}"
    );
}
