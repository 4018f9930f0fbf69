//! Steps and chains.

use super::*;

#[test]
fn a_lone_piece_steps_to_its_eight_neighbours() {
    let s = place(&[(7, 7)], &[(0, 15)], Side::First, CampRule::Basic);
    let ends = ends_from(&s, 7, 7);
    assert_eq!(ends.len(), 8);
    assert!(ends
        .iter()
        .all(|&(x, y, jump)| !jump && x.abs_diff(7) <= 1 && y.abs_diff(7) <= 1));
    let corner = place(&[(15, 0)], &[(0, 15)], Side::First, CampRule::Basic);
    assert_eq!(ends_from(&corner, 15, 0).len(), 3);
}

#[test]
fn jumps_go_over_either_colour_and_chain() {
    // Black on 5,5 jumps the white piece on 6,5 to 7,5, then its own piece on 8,6 to 9,7.
    let s = place(&[(5, 5), (8, 6)], &[(6, 5)], Side::First, CampRule::Basic);
    let ends = ends_from(&s, 5, 5);
    assert!(ends.contains(&(7, 5, true)));
    assert!(ends.contains(&(9, 7, true)));
    assert!(!ends.contains(&(6, 5, false)), "cannot step onto a piece");
    let mv = parse_move(&s, &json!("J 5,5 7,5\nJ 7,5 9,7")).unwrap();
    assert_eq!((mv.from, mv.to, mv.jump), (cell(5, 5), cell(9, 7), true));
}

#[test]
fn every_end_cell_is_listed_once_with_a_shortest_chain() {
    // A ring of pieces makes many chains reach the same cells.
    let s = place(
        &[
            (7, 7),
            (8, 7),
            (6, 7),
            (7, 8),
            (7, 6),
            (9, 9),
            (5, 5),
            (9, 5),
            (5, 9),
        ],
        &[(0, 15)],
        Side::First,
        CampRule::Basic,
    );
    let all = moves(&s);
    let unique: BTreeSet<_> = all.iter().map(|m| (m.from, m.to)).collect();
    assert_eq!(unique.len(), all.len());
    let mv = all
        .iter()
        .find(|m| m.from == cell(6, 7) && m.to == cell(8, 7))
        .copied();
    assert!(mv.is_none(), "8,7 is occupied");
    // 7,7 → 7,9 is one jump over 7,8: the listed path must be that single jump.
    let mv = all
        .iter()
        .find(|m| m.from == cell(7, 7) && m.to == cell(7, 9))
        .unwrap();
    assert_eq!(notation(&s, mv), "J 7,7 7,9");
}

#[test]
fn a_chain_may_revisit_cells_and_jump_the_same_piece_twice() {
    // 5,5 jumps 6,5 to 7,5, back over 6,5 to its start 5,5, then over 5,6 to 5,7.
    let s = place(
        &[(5, 5), (6, 5), (5, 6)],
        &[(0, 15)],
        Side::First,
        CampRule::Basic,
    );
    let long = parse_move(&s, &json!("J 5,5 7,5\nJ 7,5 5,5\nJ 5,5 5,7")).unwrap();
    let short = parse_move(&s, &json!("J 5,5 5,7")).unwrap();
    assert_eq!(long, short);
    let as_path = parse_move(&s, &json!({"path": [[5, 5], [7, 5], [5, 5], [5, 7]]})).unwrap();
    assert_eq!(as_path, short);
    assert_eq!(notation(&s, &short), "J 5,5 5,7");
    // A chain back to its start is no move at all.
    let err = parse_move(&s, &json!("J 5,5 7,5\nJ 7,5 5,5")).unwrap_err();
    assert!(err.to_string().contains("ends where it started"), "{err}");
}

#[test]
fn a_chain_can_pass_over_the_movers_start_cell_only_as_empty() {
    // The mover has left 5,5, so it cannot be jumped over in the same move.
    let s = place(&[(5, 5), (6, 5)], &[(0, 15)], Side::First, CampRule::Basic);
    let err = parse_move(&s, &json!("J 5,5 7,5\nJ 7,5 5,5\nJ 5,5 3,5")).unwrap_err();
    assert!(err.to_string().contains("no piece on 4,5"), "{err}");
}

#[test]
fn bad_chains_are_refused_with_the_reason() {
    let s = place(&[(5, 5), (6, 5)], &[(0, 15)], Side::First, CampRule::Basic);
    let cases = [
        ("J 5,5 8,5", "two cells"),
        ("J 5,5 5,7", "no piece on 5,6"),
        ("E 5,5 7,5", "adjacent"),
        ("E 5,5 6,5", "occupied"),
        ("E 6,6 7,7", "holds no piece"),
        ("E 0,15 1,14", "white piece"),
        ("J 5,5 7,5\nJ 8,5 9,5", "previous jump ended"),
        ("E 5,5 4,4\nE 4,4 3,3", "never mix"),
        ("X 5,5 4,4", "start with E"),
        ("E 5,5 16,4", "not a cell"),
        ("", "empty move"),
    ];
    for (text, expected) in cases {
        let err = parse_move(&s, &json!(text)).unwrap_err();
        assert!(err.to_string().contains(expected), "{text}: {err}");
    }
    let err = parse_move(&s, &json!({"path": [[5, 5]]})).unwrap_err();
    assert!(err.to_string().contains("at least two"), "{err}");
    let err = parse_move(&s, &json!({"path": [[5, 5], [4, "x"]]})).unwrap_err();
    assert!(err.to_string().contains("path[1]"), "{err}");
    let err = parse_move(&s, &json!({"path": [[5, 5], [4, 4]], "jump": true})).unwrap_err();
    assert!(err.to_string().contains("jump 1"), "{err}");
    let err = parse_move(&s, &json!({"path": [[5, 5], [4, 4]], "speed": 3})).unwrap_err();
    assert!(err.to_string().contains("unknown field"), "{err}");
    assert!(parse_move(&s, &json!({"notation": "E 5,5 4,4"})).is_ok());
    assert!(parse_move(&s, &json!(42)).is_err());
}
