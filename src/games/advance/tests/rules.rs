//! The rules piece by piece: steps, captures, protection, danger, the material rule and the reasons a move is illegal.

use super::*;

/// A board with the given (row, text) lines, the rest empty.
pub(super) fn sparse(lines: &[(usize, &str)], to_move: Color) -> State {
    let mut rows = ["........."; 9];
    for &(row, text) in lines {
        rows[row] = text;
    }
    board(rows, to_move)
}

#[test]
fn start_position_has_43_moves() {
    let state = Advance::new_game(Default::default()).unwrap();
    assert_eq!(legal(&state).len(), 43);
    assert_eq!(Advance::outcome(&state), Outcome::Ongoing);
    assert_eq!(state.ply(), Some(0));
}

#[test]
fn zombie_steps_captures_and_leaps_forward() {
    let state = sparse(
        &[(2, "....z.Z.."), (3, "...b....."), (4, "....Z....")],
        Color::White,
    );
    assert_eq!(
        moves_from(&state, 4, 4),
        sorted(&["e5-e6", "e5-f6", "e5xd6", "e5xe7"])
    );
    let leap = legal(&state)
        .into_iter()
        .find(|m| m.kind == Kind::Leap)
        .unwrap();
    assert_eq!(super::super::notation::notation(&leap), "e5xe7");
    let black = sparse(
        &[(2, "....z.Z.."), (3, "...b....."), (4, "....Z....")],
        Color::Black,
    );
    assert_eq!(
        moves_from(&black, 2, 4),
        sorted(&["e7-e6", "e7-f6", "e7xe5"])
    );
}

#[test]
fn zombie_cannot_take_protected_pieces_even_by_leaping() {
    let state = sparse(
        &[(2, "...sz...."), (3, "...b....."), (4, "....Z....")],
        Color::White,
    );
    assert_eq!(moves_from(&state, 4, 4), sorted(&["e5-e6", "e5-f6"]));
}

#[test]
fn zombie_on_its_last_row_has_no_moves_and_its_side_loses() {
    let state = sparse(&[(0, "Z........"), (8, "........z")], Color::White);
    assert!(legal(&state).is_empty());
    assert_eq!(
        Advance::outcome(&state),
        Outcome::Win {
            winner: Side::Second,
            reason: "no legal move".into(),
            termination: AdvanceTermination::NoLegalMove,
            score: [1, 1],
        }
    );
    let black = sparse(&[(0, "Z........"), (8, "........z")], Color::Black);
    assert!(legal(&black).is_empty());
}

#[test]
fn builder_steps_builds_and_captures_but_not_walls() {
    let state = sparse(&[(7, ".z......."), (8, "B#.......")], Color::White);
    assert_eq!(
        moves_from(&state, 8, 0),
        sorted(&["a1-a2", "a1#a2", "a1xb2"])
    );
    let build = legal(&state)
        .into_iter()
        .find(|m| m.kind == Kind::Build)
        .unwrap();
    let after = Advance::apply(&state, &build);
    assert_eq!(after.row_text(7), "#z.......");
    assert_eq!(after.row_text(8), "B#.......");
    assert_eq!(after.to_move(), Color::Black);
}

#[test]
fn jester_moves_swaps_and_converts_but_never_captures() {
    let state = sparse(
        &[(3, "...MJds.."), (4, "...gJ#..."), (5, "...B.s...")],
        Color::White,
    );
    assert_eq!(
        moves_from(&state, 4, 4),
        sorted(&["e5-e4", "e5=f4", "e5=f6", "e5~d4", "e5~d6"])
    );
    let convert = super::super::notation::parse_move(&state, &json!("e5=f6")).unwrap();
    assert_eq!(convert.kind, Kind::Convert);
    let after = Advance::apply(&state, &convert);
    assert_eq!(after.row_text(3), "...MJDs..");
    assert_eq!(
        after.material(Color::White),
        state.material(Color::White) + 7
    );
    assert_eq!(
        after.material(Color::Black),
        state.material(Color::Black) - 7
    );
    let swap = super::super::notation::parse_move(&state, &json!("e5~d6")).unwrap();
    let after = Advance::apply(&state, &swap);
    assert_eq!(after.row_text(3), "...JJds..");
    assert_eq!(after.row_text(4), "...gM#...");
}

#[test]
fn miner_slides_and_takes_enemies_and_walls() {
    let state = sparse(
        &[(2, "...sz...."), (4, "..#.M..s."), (6, "....Z....")],
        Color::White,
    );
    assert_eq!(
        moves_from(&state, 4, 4),
        sorted(&["e5-d5", "e5-e4", "e5-e6", "e5-f5", "e5-g5", "e5xc5", "e5xh5"])
    );
    let wall = super::super::notation::parse_move(&state, &json!("e5xc5")).unwrap();
    let after = Advance::apply(&state, &wall);
    assert_eq!(after.row_text(4), "..M....s.");
}

#[test]
fn sentinel_jumps_over_anything_from_a_corner() {
    let state = sparse(
        &[(6, ".Z......."), (7, "##c......"), (8, "S#.......")],
        Color::White,
    );
    assert_eq!(moves_from(&state, 8, 0), sorted(&["a1xc2"]));
}

#[test]
fn catapult_steps_to_empty_squares_and_shoots_at_its_offsets() {
    let state = board(
        [
            ".........",
            "....j....",
            "..b.#.s..",
            ".........",
            ".g.#C..Z.",
            "....z....",
            "..ms.....",
            "....#....",
            ".........",
        ],
        Color::White,
    );
    assert_eq!(
        moves_from(&state, 4, 4),
        sorted(&["e5-e6", "e5-f5", "e5*e8", "e5*c7", "e5*g7"])
    );
    let shot = super::super::notation::parse_move(&state, &json!("e5*e8")).unwrap();
    let after = Advance::apply(&state, &shot);
    assert_eq!(after.row_text(1), ".........");
    assert_eq!(after.row_text(4), ".g.#C..Z.");
}

#[test]
fn dragon_slides_and_captures_only_from_two_squares_away() {
    let state = sparse(
        &[
            (2, "..m......"),
            (3, "....zj..."),
            (4, ".#..D.b.."),
            (5, ".....Z..."),
        ],
        Color::White,
    );
    assert_eq!(
        moves_from(&state, 4, 4),
        sorted(&[
            "e5-d5", "e5-c5", "e5-f5", "e5xg5", "e5-e4", "e5-e3", "e5-e2", "e5-e1", "e5-d6",
            "e5xc7", "e5-d4", "e5-c3", "e5-b2", "e5-a1",
        ])
    );
}

#[test]
fn general_steps_and_captures_but_not_into_danger() {
    let state = sparse(
        &[(2, "....g...."), (4, "....G...."), (5, ".....z...")],
        Color::White,
    );
    assert_eq!(
        moves_from(&state, 4, 4),
        sorted(&["e5-d4", "e5-d5", "e5-e4", "e5xf4", "e5-f5"])
    );
}

#[test]
fn generals_are_never_captured() {
    let state = sparse(
        &[(3, "....g...."), (4, "....G...."), (5, "....S....")],
        Color::White,
    );
    assert!(!state.in_danger(Color::White));
    assert!(state.in_danger(Color::Black));
    assert!(legal(&state).iter().all(|m| m.to as usize != square(3, 4)));
}

#[test]
fn sentinel_protection_covers_captures_shots_and_leaps() {
    let rows = [
        ".........",
        ".d.......",
        "....z....",
        ".........",
        ".c..B....",
        ".c..S....",
        ".........",
        ".........",
        ".........",
    ];
    let protected = board(rows, Color::Black);
    let targets: Vec<String> = notations(&protected)
        .into_iter()
        .filter(|n| n.ends_with("e5"))
        .collect();
    assert!(targets.is_empty(), "{targets:?}");
    // The Sentinel itself is not protected: the catapult on b4 shoots it.
    assert!(notations(&protected).contains(&"b4*e4".to_string()));
    let mut open_rows = rows;
    open_rows[5] = ".c.......";
    let open = board(open_rows, Color::Black);
    let mut targets: Vec<String> = notations(&open)
        .into_iter()
        .filter(|n| n.ends_with("xe5") || n.ends_with("*e5"))
        .collect();
    targets.sort();
    assert_eq!(targets, sorted(&["b5*e5", "b8xe5", "e7xe5"]));
}

#[test]
fn sentinels_protect_each_other_but_not_themselves() {
    let pair = sparse(&[(2, "....c...."), (5, "....SS...")], Color::Black);
    assert!(!notations(&pair).iter().any(|n| n.contains('*')));
    let single = sparse(&[(2, "....c...."), (5, "....S....")], Color::Black);
    assert!(notations(&single).contains(&"e7*e4".to_string()));
}

#[test]
fn a_pinned_builder_may_only_stay_on_the_line() {
    let state = sparse(
        &[(0, "....d...."), (7, "....B...."), (8, "....G....")],
        Color::White,
    );
    assert_eq!(
        moves_from(&state, 7, 4),
        sorted(&["e2-e3", "e2#d3", "e2#e3", "e2#f3", "e2#d2", "e2#f2", "e2#d1", "e2#f1"])
    );
    assert_eq!(
        moves_from(&state, 8, 4),
        sorted(&["e1-d1", "e1-f1", "e1-d2", "e1-f2"])
    );
    assert_eq!(legal(&state).len(), 12);
}

#[test]
fn stepping_in_front_of_one_dragon_may_uncover_another() {
    // The Builder on e2 shields the General from the Dragon on e9; stepping
    // to d2 blocks the Dragon on a2 instead, and uncovers the first line.
    let state = sparse(
        &[(0, "....d...."), (7, "d...B...."), (8, "....G....")],
        Color::White,
    );
    assert!(!moves_from(&state, 7, 4).contains(&"e2-d2".to_string()));
    assert!(!state.in_danger(Color::White));
}

#[test]
fn a_general_beside_its_sentinel_is_never_in_danger() {
    let state = sparse(&[(0, "....d...."), (8, "...SG....")], Color::White);
    assert!(!state.in_danger(Color::White));
    assert_eq!(moves_from(&state, 8, 3), sorted(&["d1-e3"]));
    assert!(moves_from(&state, 8, 4).contains(&"e1-f1".to_string()));
    assert!(!moves_from(&state, 8, 4).contains(&"e1-e2".to_string()));
}

#[test]
fn jester_swaps_with_the_general_only_out_of_danger() {
    let into = sparse(&[(0, ".d......."), (8, "GJ.......")], Color::White);
    assert!(!into.in_danger(Color::White));
    assert!(!moves_from(&into, 8, 1).contains(&"b1~a1".to_string()));
    let out = sparse(&[(0, "....d...."), (8, "...JG....")], Color::White);
    assert!(out.in_danger(Color::White));
    assert!(moves_from(&out, 8, 3).contains(&"d1~e1".to_string()));
    let after = Advance::apply(
        &out,
        &super::super::notation::parse_move(&out, &json!("d1~e1")).unwrap(),
    );
    assert_eq!(after.row_text(8), "...GJ....");
    assert!(!after.in_danger(Color::White));
}

#[test]
fn danger_from_zombie_leaps_and_catapult_shots() {
    let leap = sparse(&[(6, "....z...."), (8, "....G....")], Color::White);
    assert!(leap.in_danger(Color::White));
    let blocked = sparse(
        &[(6, "....z...."), (7, "....#...."), (8, "....G....")],
        Color::White,
    );
    assert!(!blocked.in_danger(Color::White));
    let shot = sparse(
        &[(5, "....c...."), (6, "....#...."), (8, "....G....")],
        Color::White,
    );
    assert!(shot.in_danger(Color::White));
    let diagonal = sparse(&[(6, "..c......"), (8, "....G....")], Color::White);
    assert!(diagonal.in_danger(Color::White));
    let adjacent_dragon = sparse(&[(7, "....d...."), (8, "....G....")], Color::White);
    assert!(!adjacent_dragon.in_danger(Color::White));
    let far_miner = sparse(&[(0, "....m...."), (8, "....G....")], Color::White);
    assert!(far_miner.in_danger(Color::White));
    let diagonal_miner = sparse(&[(4, "m........"), (8, "....G....")], Color::White);
    assert!(!diagonal_miner.in_danger(Color::White));
}

#[test]
fn a_side_without_a_general_has_no_constraint() {
    let state = sparse(&[(0, "....d...."), (8, "....B....")], Color::White);
    assert_eq!(moves_from(&state, 8, 4).len(), 5 * 2);
}

#[test]
fn two_generals_of_one_colour_are_rejected() {
    let value = json!({"board": ["g.......g", ".........", ".........", ".........", ".........", ".........", ".........", ".........", "....G...."], "to_move": "white"});
    let err = Advance::state_from_json(&value).unwrap_err();
    match err {
        crate::game::GameError::InvalidState { pointer, detail } => {
            assert_eq!(pointer.as_deref(), Some("/board/0"));
            assert!(detail.contains("second black General"), "{detail}");
        }
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn material_rule_after_200_plies() {
    let rows = [
        "....g....",
        "....d....",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        "....M....",
        "....G....",
    ];
    let white_ahead = State::from_rows(&rows, Color::White, Some(200)).unwrap();
    assert!(legal(&white_ahead).is_empty());
    assert_eq!(
        Advance::outcome(&white_ahead),
        Outcome::Win {
            winner: Side::Second,
            reason: "more material after 100 full turns".into(),
            termination: AdvanceTermination::MoveLimit,
            score: [4, 7],
        }
    );
    let earlier = State::from_rows(&rows, Color::White, Some(199)).unwrap();
    assert!(!legal(&earlier).is_empty());
    let unknown = State::from_rows(&rows, Color::White, None).unwrap();
    assert_eq!(Advance::outcome(&unknown), Outcome::Ongoing);
    let even = [
        "....g....",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        "....G....",
    ];
    let drawn = State::from_rows(&even, Color::Black, Some(200)).unwrap();
    assert_eq!(
        Advance::outcome(&drawn),
        Outcome::Draw {
            reason: "equal material after 100 full turns".into(),
            termination: AdvanceTermination::MoveLimit,
            score: [0, 0],
        }
    );
    let after = Advance::apply(&earlier, &legal(&earlier)[0]);
    assert_eq!(after.ply(), Some(200));
    assert!(Advance::outcome(&after).is_over());
}

/// Empty rows around the pieces a test places, `(row, col, char)`.
fn pieces_on(pieces: &[(usize, usize, char)], to_move: Color) -> State {
    let mut rows = [['.'; 9]; 9];
    for &(r, c, ch) in pieces {
        rows[r][c] = ch;
    }
    let rows: Vec<String> = rows.iter().map(|r| r.iter().collect()).collect();
    State::from_rows(&rows, to_move, None).expect("valid test board")
}

fn illegal_reason(state: &State, mv: &str) -> String {
    match super::super::notation::parse_move(state, &json!(mv)) {
        Err(error) => error.to_string(),
        Ok(found) => panic!("{mv} is legal here: {found:?}"),
    }
}

#[test]
fn an_illegal_move_names_the_rule_it_breaks() {
    let white = Color::White;
    let cases: Vec<(State, &str, &str)> = vec![
        (
            pieces_on(&[(4, 4, 'J'), (3, 4, 'z')], white),
            "e5xe6",
            "a Jester cannot capture",
        ),
        (
            pieces_on(&[(8, 2, 'M'), (6, 2, 'Z')], white),
            "c1-c5",
            "the path from c1 to c5 is blocked at c3",
        ),
        (
            pieces_on(&[(8, 4, 'G'), (7, 4, 'B'), (2, 4, 'd')], white),
            "e2-d2",
            "e2-d2 would leave the white General on e1 under attack by the black Dragon on e7",
        ),
        (
            pieces_on(&[(8, 4, 'G'), (5, 2, 'd')], white),
            "e1-e2",
            "e1-e2 would put the white General on e2 under attack by the black Dragon on c4",
        ),
        (
            pieces_on(&[(8, 0, 'C'), (7, 0, 'z')], white),
            "a1xa2",
            "a Catapult never captures by moving",
        ),
        (
            pieces_on(&[(4, 4, 'D'), (3, 4, 'z')], white),
            "e5xe6",
            "a Dragon cannot capture an adjacent piece",
        ),
        (
            pieces_on(&[(4, 4, 'M'), (1, 4, 'z'), (1, 5, 's')], white),
            "e5xe8",
            "the black Zombie on e8 is protected by the black Sentinel on f8",
        ),
        (
            pieces_on(&[(4, 4, 'Z')], white),
            "e5-e4",
            "a Zombie moves only to the three squares in front of it",
        ),
        (
            pieces_on(&[(4, 4, 'Z'), (3, 4, 'Z'), (2, 4, 'z')], white),
            "e5xe7",
            "a Zombie leaps only over an empty square, and e6 is not empty",
        ),
        (
            pieces_on(&[(4, 4, 'S')], white),
            "e5-e7",
            "a Sentinel jumps like a knight",
        ),
        (
            pieces_on(&[(4, 4, 'B'), (3, 4, 'g')], white),
            "e5xe6",
            "a General is never captured",
        ),
        (
            pieces_on(&[(4, 4, 'Z'), (0, 0, 'g')], white),
            "e5#e6",
            "only a Builder builds walls; this piece is a Zombie",
        ),
        (
            pieces_on(&[(4, 4, 'B'), (3, 4, '#')], white),
            "e5xe6",
            "e6 holds a wall: only a Miner may capture a wall",
        ),
        (
            pieces_on(&[(4, 4, 'b')], white),
            "e5-e6",
            "no legal move from e5: white is to move and it holds the black Builder on e5",
        ),
    ];
    for (state, mv, expected) in cases {
        let reason = illegal_reason(&state, mv);
        assert!(reason.contains(expected), "{mv}: {reason}");
    }
}

#[test]
fn a_ply_whose_parity_disagrees_with_the_side_to_move_is_invalid() {
    let start = Advance::state_to_json(&Advance::new_game(Default::default()).unwrap());
    let mut odd = start.clone();
    odd["ply"] = json!(1);
    let error = Advance::state_from_json(&odd).unwrap_err();
    let text = error.to_string();
    assert!(
        text.contains("\"ply\" is 1") && text.contains("\"to_move\" is \"white\""),
        "{text}"
    );
    assert!(matches!(
        error,
        crate::game::GameError::InvalidState { pointer: Some(ref p), .. } if p == "/ply"
    ));
    let mut black_at_odd = start;
    black_at_odd["ply"] = json!(1);
    black_at_odd["to_move"] = json!("black");
    assert!(Advance::state_from_json(&black_at_odd).is_ok());
}
