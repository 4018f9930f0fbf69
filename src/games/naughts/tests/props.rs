//! Property tests.

use super::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_playouts_respect_the_rules(grid in 2u8..=5, pieces in 5u8..=9, picks in proptest::collection::vec(any::<u16>(), 0..60)) {
        let mut state = State::new(grid, pieces);
        for pick in picks {
            let moves = moves_of(&state);
            prop_assert_eq!(moves.is_empty(), Naughts::outcome(&state).is_over());
            if moves.is_empty() {
                break;
            }
            let json = Naughts::state_to_json(&state);
            prop_assert_eq!(Naughts::state_from_json(&json).unwrap(), state);
            for mv in &moves {
                let turn = Play::Place(*mv);
                let text = Naughts::notation(&state, &turn);
                prop_assert_eq!(&typed(&state, &text).unwrap(), mv);
                let object = Naughts::move_to_json(&state, &turn);
                prop_assert_eq!(Naughts::parse_move(&state, &object).unwrap(), turn);
            }
            let n = grid;
            for row in 0..n {
                for col in 0..n {
                    for size in 1..=pieces {
                        let mv = Move { row, col, size };
                        let object = json!({"row": row, "col": col, "size": size});
                        prop_assert_eq!(moves.contains(&mv), Naughts::parse_move(&state, &object).is_ok());
                    }
                }
            }
            let mover = state.to_move();
            state = state.apply(&moves[pick as usize % moves.len()]);
            if !Naughts::outcome(&state).is_over() {
                prop_assert!(state.can_move(state.to_move()));
                if state.to_move() == mover {
                    prop_assert!(!state.can_move(mover.other()));
                }
            }
        }
        let json = Naughts::state_to_json(&state);
        prop_assert_eq!(Naughts::state_from_json(&json).unwrap(), state);
    }
}
