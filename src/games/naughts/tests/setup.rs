//! Setup and JSON.

use super::*;

#[test]
fn new_game_defaults_and_options() {
    let state = Naughts::new_game(Default::default()).unwrap();
    assert_eq!((state.grid(), state.pieces()), (3, 5));
    assert_eq!(moves_of(&state).len(), 45);
    let options = json!({"grid_size": 8, "pieces": 9});
    let state = crate::game::read_new_options::<Naughts>(&options)
        .and_then(Naughts::new_game)
        .unwrap();
    assert_eq!(moves_of(&state).len(), 64 * 9);
    for bad in [
        json!({"grid_size": 1}),
        json!({"grid_size": 9}),
        json!({"pieces": 4}),
        json!({"pieces": 10}),
        json!({"pieces": "5"}),
        json!({"size": 3}),
    ] {
        assert!(matches!(
            crate::game::read_new_options::<Naughts>(&bad).and_then(Naughts::new_game),
            Err(GameError::InvalidOption { .. })
        ));
    }
}

#[test]
fn state_json_round_trips() {
    let state = play(&play(&State::new(3, 5), "2 2 3"), "2 2 4");
    let value = Naughts::state_to_json(&state);
    assert_eq!(
        value,
        json!({"grid_size": 3, "pieces": 5,
               "board": [["", "", ""], ["", "X4", ""], ["", "", ""]],
               "hands": {"O": [1, 2, 4, 5], "X": [1, 2, 3, 5]}, "to_move": "O"})
    );
    assert_eq!(Naughts::state_from_json(&value).unwrap(), state);
}

#[test]
fn malformed_states_name_the_place() {
    let with = |pointer: &str, v: Value| {
        let mut state = empty_json();
        *state.pointer_mut(pointer).unwrap() = v;
        state
    };
    let cases = [
        (with("/grid_size", json!(1)), "/grid_size"),
        (with("/grid_size", json!(9)), "/grid_size"),
        (with("/pieces", json!(4)), "/pieces"),
        (with("/pieces", json!(10)), "/pieces"),
        (with("/board", json!([["", "", ""]])), "/board"),
        (with("/board/1", json!(["", ""])), "/board/1"),
        (with("/board/2/1", json!("Y3")), "/board/2/1"),
        (with("/board/2/1", json!("O0")), "/board/2/1"),
        (with("/board/2/1", json!("O6")), "/board/2/1"),
        (with("/board/2/1", json!("O33")), "/board/2/1"),
        (with("/hands/O/0", json!(0)), "/hands/O/0"),
        (with("/hands/O/0", json!(6)), "/hands/O/0"),
        (with("/hands/X/1", json!(1)), "/hands/X/1"),
        (with("/hands", json!({"O": [1, 2, 3, 4, 5]})), "/hands"),
        (with("/hands", json!({"O": [], "X": [], "Z": []})), "/hands"),
        (with("/to_move", json!("Z")), "/to_move"),
        (with("/to_move", json!("X")), "/to_move"),
    ];
    for (state, pointer) in cases {
        let (got, detail) = invalid_pointer(state.clone());
        assert_eq!(got.as_deref(), Some(pointer), "{state}: {detail}");
    }
    let shapes = [
        (json!([1, 2]), None),
        (json!({"grid_size": 3}), Some("/pieces")),
        (with("/grid_size", json!(-1)), Some("/grid_size")),
        (with("/pieces", json!("5")), Some("/pieces")),
        (with("/board", json!("...")), Some("/board")),
        (with("/board/1", json!(7)), Some("/board/1")),
        (with("/board/1/2", json!(null)), Some("/board/1/2")),
        (with("/hands", json!([])), Some("/hands")),
        (with("/hands/X", json!({})), Some("/hands/X")),
        (with("/hands/X/2", json!(2.5)), Some("/hands/X/2")),
        (with("/to_move", json!(0)), Some("/to_move")),
    ];
    for (state, pointer) in shapes {
        assert_eq!(
            invalid_pointer(state.clone()).0.as_deref(),
            pointer,
            "{state}"
        );
    }
    let mut extra = empty_json();
    extra["colour"] = json!("red");
    assert_eq!(invalid_pointer(extra).0.as_deref(), Some("/colour"));
}

#[test]
fn visible_markers_must_agree_with_hands() {
    let mut state = empty_json();
    state["board"][0][0] = json!("O3");
    let (pointer, detail) = invalid_pointer(state.clone());
    assert_eq!(pointer.as_deref(), Some("/board/0/0"));
    assert!(detail.contains("hand"), "{detail}");

    state["hands"]["O"] = json!([1, 2, 4, 5]);
    state["board"][1][1] = json!("O3");
    state["to_move"] = json!("X");
    let (pointer, detail) = invalid_pointer(state.clone());
    assert_eq!(pointer.as_deref(), Some("/board/1/1"));
    assert!(detail.contains("twice"), "{detail}");

    // O has played its 1 but nothing on the board is big enough to hide it.
    let mut state = empty_json();
    state["hands"]["O"] = json!([2, 3, 4, 5]);
    state["to_move"] = json!("X");
    let (pointer, detail) = invalid_pointer(state);
    assert_eq!(pointer.as_deref(), Some("/hands"));
    assert!(detail.contains("size 1"), "{detail}");
}

#[test]
fn turn_must_agree_with_markers_played() {
    let mut state = empty_json();
    state["board"][0][0] = json!("O3");
    state["hands"]["O"] = json!([1, 2, 4, 5]);
    assert_eq!(
        invalid_pointer(state.clone()).0.as_deref(),
        Some("/to_move")
    );
    state["to_move"] = json!("X");
    assert!(Naughts::state_from_json(&state).is_ok());
    // Two markers ahead is never possible while both sides can move.
    state["board"][0][1] = json!("O4");
    state["hands"]["O"] = json!([1, 2, 5]);
    assert_eq!(invalid_pointer(state).0.as_deref(), Some("/to_move"));
}

#[test]
fn won_positions_are_checked() {
    let won = json!({"grid_size": 3, "pieces": 5,
        "board": [["O1", "O2", "O3"], ["X1", "X2", ""], ["", "", ""]],
        "hands": {"O": [4, 5], "X": [3, 4, 5]}, "to_move": "X"});
    let state = Naughts::state_from_json(&won).unwrap();
    assert_eq!(
        Naughts::outcome(&state),
        Outcome::Win {
            winner: O,
            reason: "O completed row 1".into(),
            termination: NaughtsTermination::Line,
            score: [3, 2],
        }
    );
    assert!(moves_of(&state).is_empty());
    let mut wrong_turn = won.clone();
    wrong_turn["to_move"] = json!("O");
    assert_eq!(invalid_pointer(wrong_turn).0.as_deref(), Some("/to_move"));
    let both = json!({"grid_size": 3, "pieces": 5,
        "board": [["O1", "O2", "O3"], ["X1", "X2", "X3"], ["", "", ""]],
        "hands": {"O": [4, 5], "X": [4, 5]}, "to_move": "X"});
    assert_eq!(invalid_pointer(both).0.as_deref(), Some("/board"));
}
