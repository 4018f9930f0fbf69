use super::*;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn playouts_from_the_start_agree_with_the_slow_rules(seed in any::<u64>()) {
        random_playout(State::start(), seed, 60, check_position);
    }

    #[test]
    fn random_boards_agree_with_the_slow_rules(seed in any::<u64>()) {
        let state = random_board(seed);
        check_position(&state);
        random_playout(state, seed, 10, check_position);
    }

    #[test]
    fn moves_not_listed_are_refused(seed in any::<u64>(), from in 0usize..81, to in 0usize..81, kind in 0usize..7) {
        let state = random_board(seed);
        let candidate = json!({"from": [from / 9, from % 9], "to": [to / 9, to % 9], "kind": Kind::ALL[kind].name()});
        let listed = legal(&state).iter().any(|m| m.from_row_col() == [from / 9, from % 9] && m.to_row_col() == [to / 9, to % 9] && m.kind == Kind::ALL[kind]);
        prop_assert_eq!(Advance::parse_move(&state, &candidate).is_ok(), listed);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn the_safety_screen_waves_through_only_legal_moves(seed in any::<u64>()) {
        random_playout(random_board(seed), seed, 30, screen_is_sound);
    }
}

/// Every pseudo-legal move that the legality screen does not send to the
/// full test must be legal by that test.
fn screen_is_sound(state: &State) {
    let mut board = state.clone();
    let mut moves = Vec::new();
    board.pseudo_moves(state.to_move(), &mut moves);
    let screen = crate::games::advance::movegen::SafetyScreen::new(state);
    for mv in moves {
        if !screen.needs_check(state, mv) {
            assert!(
                board.is_legal(mv),
                "{mv:?} passed the screen but is illegal in\n{state:?}"
            );
        }
    }
}
