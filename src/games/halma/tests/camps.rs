//! Camp rules.

use super::*;

#[test]
fn basic_rule_keeps_a_piece_in_the_opposing_camp() {
    // Black's goal is white's camp (bottom-right). 11,14 is in it; 10,14 is not.
    let s = place(&[(11, 14), (7, 7)], &[(0, 0)], Side::First, CampRule::Basic);
    let ends = ends_from(&s, 11, 14);
    assert!(!ends.is_empty());
    assert!(ends
        .iter()
        .all(|&(x, y, _)| goal(Side::First).has(cell(x, y))));
    let err = parse_move(&s, &json!("E 11,14 10,14")).unwrap_err();
    assert!(err.to_string().contains("may not leave"), "{err}");
    // A chain may pass outside the camp as long as it ends inside.
    let s2 = place(
        &[(14, 14), (13, 13), (12, 13)],
        &[(0, 0)],
        Side::First,
        CampRule::Basic,
    );
    // 14,14 → 12,12 (over 13,13, outside the camp) → 12,14 (over 12,13, back inside).
    assert!(!goal(Side::First).has(cell(12, 12)) && goal(Side::First).has(cell(12, 14)));
    let mv = parse_move(&s2, &json!("J 14,14 12,12\nJ 12,12 12,14")).unwrap();
    assert_eq!(mv.to, cell(12, 14));
    assert!(parse_move(&s2, &json!("J 14,14 12,12")).is_err());
}

#[test]
fn referee_rule_a_forbids_returning_to_the_own_camp() {
    // Black's piece on 2,4 is just outside its camp; 1,4 is inside.
    let s = place(
        &[(2, 4), (9, 9)],
        &[(15, 0)],
        Side::First,
        CampRule::Referee,
    );
    assert!(home(Side::First).has(cell(1, 4)) && !home(Side::First).has(cell(2, 4)));
    let err = parse_move(&s, &json!("E 2,4 1,4")).unwrap_err();
    assert!(
        err.to_string().contains("may not move back into it"),
        "{err}"
    );
    let basic = place(&[(2, 4), (9, 9)], &[(15, 0)], Side::First, CampRule::Basic);
    assert!(parse_move(&basic, &json!("E 2,4 1,4")).is_ok());
}

#[test]
fn referee_rule_b_forces_pieces_out_of_the_own_camp() {
    // Black has 0,0 and 4,0 at home; 4,0 can step out, so only moves leaving the camp count.
    let s = place(
        &[(0, 0), (4, 0), (9, 9)],
        &[(15, 0)],
        Side::First,
        CampRule::Referee,
    );
    let all = moves(&s);
    assert!(!all.is_empty());
    assert!(all
        .iter()
        .all(|m| home(Side::First).has(m.from) && !home(Side::First).has(m.to)));
    let err = parse_move(&s, &json!("E 9,9 10,10")).unwrap_err();
    assert!(
        err.to_string()
            .contains("must move a piece out of its own camp"),
        "{err}"
    );
    let basic = place(
        &[(0, 0), (4, 0), (9, 9)],
        &[(15, 0)],
        Side::First,
        CampRule::Basic,
    );
    assert!(parse_move(&basic, &json!("E 9,9 10,10")).is_ok());
}

#[test]
fn referee_rule_b_falls_back_to_moving_farther_from_the_corner() {
    // Black's only home piece is on 0,0, boxed in so that nothing leaves the camp:
    // its neighbours 1,0 / 0,1 / 1,1 are black, and every jump lands inside.
    let rows = [
        "BB..W...........",
        "BB.W............",
        "..W.............",
        ".W..............",
        "W...............",
    ];
    let mut s = board(&rows, Side::First, CampRule::Referee);
    // Pieces 1,0 / 0,1 / 1,1 are black but also at home: fill the camp edge with white
    // so none of them can leave either.
    let all = moves(&s);
    assert!(!all.is_empty());
    let own = home(Side::First);
    if all.iter().any(|m| !own.has(m.to)) {
        // Some piece can leave: then only leaving moves are listed.
        assert!(all.iter().all(|m| own.has(m.from) && !own.has(m.to)));
    }
    // Box the camp completely: fill every cell just outside it with white.
    for c in 0..CELLS as u16 {
        let c = c as Cell;
        let (x, y) = (col(c), row(c));
        if !own.has(c) && x + y <= 9 {
            s.pieces[1].set(c);
        }
    }
    s = State::from_parts(s.pieces, Side::First, CampRule::Referee);
    let all = moves(&s);
    assert!(!all.is_empty());
    assert!(all.iter().all(|m| own.has(m.to)), "no move can leave");
    for m in &all {
        assert!(col(m.to) >= col(m.from) && row(m.to) >= row(m.from));
        assert!(col(m.to) > col(m.from) || row(m.to) > row(m.from));
    }
    assert_eq!(
        reference_moves(&s),
        all.iter().map(|m| (m.from, m.to, m.jump)).collect()
    );
}

#[test]
fn referee_rule_b_allows_free_moves_when_nothing_moves_out_or_farther() {
    // Black's home piece sits on 4,0 (x = 4, the camp's far column on row 0) and
    // every cell around it is taken, so it has no move at all.
    let s = place(
        &[(4, 0), (9, 9)],
        &[
            (3, 0),
            (5, 0),
            (3, 1),
            (4, 1),
            (5, 1),
            (2, 0),
            (6, 0),
            (2, 2),
            (4, 2),
            (6, 2),
        ],
        Side::First,
        CampRule::Referee,
    );
    let all = moves(&s);
    assert!(!all.is_empty());
    assert!(all.iter().all(|m| m.from == cell(9, 9)));
}
