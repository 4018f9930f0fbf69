//! Winning.

use super::text_forms::{fixtures, state_of};
use super::*;

#[test]
fn filling_the_opposing_camp_wins() {
    let fixture = fixtures();
    let ex = &fixture["examples"][0];
    let s = state_of(ex);
    assert_eq!(Halma::outcome(&s), Outcome::Ongoing);
    let mv = parse_move(&s, &json!("E 4,3 3,2")).unwrap();
    let after = Halma::apply(&s, &mv);
    assert!(matches!(
        Halma::outcome(&after),
        Outcome::Win {
            winner: Side::Second,
            ..
        }
    ));
    assert!(
        moves(&after).is_empty(),
        "no legal move once the game is over"
    );
}

#[test]
fn a_piece_hemmed_in_moves_only_by_jumps_and_not_at_all_once_they_are_blocked() {
    let ring = [(1, 0), (0, 1), (1, 1)];
    let s = place(&[(0, 0)], &ring, Side::First, CampRule::Basic);
    let legal = moves(&s);
    assert_eq!(legal.len(), 3);
    assert!(legal.iter().all(|m| m.jump));
    assert!(has_any_move(&s));
    assert_eq!(Halma::outcome(&s), Outcome::Ongoing);

    let walled: Vec<_> = ring
        .iter()
        .chain(&[(2, 0), (0, 2), (2, 2)])
        .copied()
        .collect();
    let s = place(&[(0, 0)], &walled, Side::First, CampRule::Basic);
    assert!(moves(&s).is_empty());
    assert!(!has_any_move(&s));
    assert!(matches!(Halma::outcome(&s), Outcome::Draw { .. }));
}

#[test]
fn an_opponent_that_never_left_its_camp_cannot_block_the_win() {
    // Black kept 3 pieces at home (0,0 1,0 0,1); white holds the other 16 camp cells
    // but one, and fills it now.
    let mut black = vec![(0, 0), (1, 0), (0, 1)];
    let mut white = Vec::new();
    for c in home(Side::First).cells() {
        let xy = (col(c), row(c));
        if !black.contains(&xy) && xy != (4, 1) {
            white.push(xy);
        }
    }
    white.push((5, 2));
    // Pad both sides to 19 elsewhere (white in mid-board, black near its goal).
    while white.len() < 19 {
        white.push((8 + white.len() % 4, 8));
    }
    let mut extra = 0;
    while black.len() < 19 {
        black.push((10 + extra % 5, 12 + extra / 5));
        extra += 1;
    }
    let s = place(&black, &white, Side::Second, CampRule::Basic);
    assert_eq!(s.side(Side::First).count(), 19);
    assert_eq!(s.side(Side::Second).count(), 19);
    assert!(!s.has_won(Side::Second));
    let mv = parse_move(&s, &json!("E 5,2 4,1")).unwrap();
    let after = Halma::apply(&s, &mv);
    assert!(after.has_won(Side::Second));
    assert!(matches!(
        Halma::outcome(&after),
        Outcome::Win {
            winner: Side::Second,
            ..
        }
    ));
    // Black's camp full of black alone is no win for white.
    let start = State::start(Side::First, CampRule::Referee);
    assert!(!start.has_won(Side::Second) && !start.has_won(Side::First));
}

#[test]
fn only_the_player_who_just_moved_wins() {
    // White's condition holds, but white is to move, so black moved last: no win.
    // Black filled its own camp by walking back into it, which only the
    // basic camp rule allows.
    let fixture = fixtures();
    let s = state_of(&fixture["examples"][0]);
    let after = Halma::apply(&s, &parse_move(&s, &json!("E 4,3 3,2")).unwrap());
    let mut json = Halma::state_to_json(&after);
    json["to_move"] = json!("white");
    json["camp_rule"] = json!("basic");
    let flipped = Halma::state_from_json(&json).unwrap();
    assert!(!matches!(Halma::outcome(&flipped), Outcome::Win { .. }));
    // Under the referee's rules no game reaches it: white would have won
    // by its own move, and black moved after the game had ended.
    json["camp_rule"] = json!("referee");
    match Halma::state_from_json(&json) {
        Err(GameError::InvalidState {
            pointer: Some(pointer),
            detail,
        }) => {
            assert_eq!(pointer, "/to_move");
            assert!(detail.contains("white has filled black's camp"), "{detail}");
        }
        other => panic!("accepted: {other:?}"),
    }
}
