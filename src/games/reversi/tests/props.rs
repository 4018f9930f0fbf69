//! Property tests.

use super::*;

/// Reference move generation: the empty squares where `slow_flips` flips something.
fn slow_moves(me: u64, opp: u64) -> u64 {
    (0..64)
        .filter(|&sq| slow_flips(me, opp, sq) != 0)
        .fold(0, |all, sq| all | 1 << sq)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Arbitrary boards, not only reachable ones: `fill` picks the occupied
    /// squares (sparse, dense or anything between) and `side` who owns them.
    #[test]
    fn flips_and_moves_agree_with_a_square_by_square_walk_on_random_boards(
        a in any::<u64>(),
        b in any::<u64>(),
        side in any::<u64>(),
        density in 0u8..4,
    ) {
        let filled = match density {
            0 => a & b,
            1 => a,
            2 => a | b,
            _ => !(a & b & side.rotate_left(17)),
        };
        let (me, opp) = (filled & side, filled & !side);
        for sq in 0..64 {
            prop_assert_eq!(flips(me, opp, sq), slow_flips(me, opp, sq), "square {}", sq);
        }
        // A full board but for one square, for the last-move count.
        let last = (a ^ b).trailing_zeros() % 64;
        let full_me = side & !(1 << last);
        let full_opp = !full_me & !(1 << last);
        prop_assert_eq!(
            super::super::board::last_flip_count(full_me, last),
            slow_flips(full_me, full_opp, last).count_ones()
        );
        prop_assert_eq!(
            super::super::board::last_flip_count(full_opp, last),
            slow_flips(full_opp, full_me, last).count_ones()
        );
        let expected = slow_moves(me, opp);
        prop_assert_eq!(moves(me, opp), expected);
        #[cfg(target_arch = "x86_64")]
        if super::super::board::x86::supported() {
            // SAFETY: the CPU has AVX2.
            let fast = unsafe { super::super::board::x86::moves_avx2(me, opp) };
            prop_assert_eq!(fast, expected);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn random_playouts_keep_every_form_consistent(seed in any::<u64>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut state = State::start();
        loop {
            let json = Reversi::state_to_json(&state);
            prop_assert_eq!(Reversi::state_from_json(&json).unwrap(), state);
            let mut moves = Vec::new();
            Reversi::legal_moves(&state, &mut moves);
            if moves.is_empty() {
                prop_assert!(Reversi::outcome(&state).is_over());
                break;
            }
            prop_assert_eq!(Reversi::outcome(&state), Outcome::Ongoing);
            for mv in &moves {
                prop_assert_eq!(Reversi::parse_move(&state, &json!(mv.notation())).unwrap(), *mv);
                prop_assert_eq!(Reversi::parse_move(&state, &mv.to_json()).unwrap(), *mv);
            }
            for sq in 0..64u8 {
                let candidate = Move::Place(sq);
                if !moves.contains(&candidate) {
                    prop_assert!(Reversi::parse_move(&state, &json!(candidate.notation())).is_err());
                }
            }
            if !moves.contains(&Move::Pass) {
                prop_assert!(Reversi::parse_move(&state, &json!("pass")).is_err());
            }
            let discs = (state.black | state.white).count_ones();
            let mv = moves[rng.random_range(0..moves.len())];
            let next = state.apply(mv);
            let added = (next.black | next.white).count_ones() - discs;
            prop_assert_eq!(added, u32::from(mv != Move::Pass));
            state = next;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// The board's eight symmetries are symmetries of the rules: a turned
    /// position has exactly the turned moves, each leads to the turned
    /// position, and the game ends the same way.
    #[test]
    fn every_symmetry_turns_moves_and_results_with_the_board(seed in any::<u64>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut state = State::start();
        loop {
            let mut moves = Vec::new();
            Reversi::legal_moves(&state, &mut moves);
            for &symmetry in Reversi::SYMMETRIES {
                let turned = Reversi::transform_state(&state, symmetry);
                prop_assert_eq!(Reversi::transform_state(&turned, symmetry.inverse()), state);
                let mut turned_moves = Vec::new();
                Reversi::legal_moves(&turned, &mut turned_moves);
                let mut expected: Vec<Move> =
                    moves.iter().map(|mv| Reversi::transform_move(mv, symmetry)).collect();
                expected.sort_by_key(|mv| mv.notation());
                turned_moves.sort_by_key(|mv| mv.notation());
                prop_assert_eq!(&turned_moves, &expected);
                for mv in &moves {
                    prop_assert_eq!(
                        Reversi::apply(&turned, &Reversi::transform_move(mv, symmetry)),
                        Reversi::transform_state(&state.apply(*mv), symmetry)
                    );
                }
                prop_assert_eq!(Reversi::outcome(&turned), Reversi::outcome(&state));
            }
            if moves.is_empty() {
                break;
            }
            state = state.apply(moves[rng.random_range(0..moves.len())]);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Twins are ordered by their key as they were by their JSON text, so
    /// every position's canonical twin, and every seeded answer searched
    /// on it, is the one it always was.
    #[test]
    fn the_twin_key_orders_twins_as_their_json_text_did(seed in any::<u64>(), plies in 0usize..60) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut state = State::start();
        for _ in 0..plies {
            let mut moves = Vec::new();
            Reversi::legal_moves(&state, &mut moves);
            if moves.is_empty() {
                break;
            }
            state = state.apply(moves[rng.random_range(0..moves.len())]);
        }
        let twins: Vec<State> = Reversi::SYMMETRIES
            .iter()
            .map(|&symmetry| Reversi::transform_state(&state, symmetry))
            .collect();
        for a in &twins {
            for b in &twins {
                let by_text = Reversi::state_to_json(a).to_string().cmp(&Reversi::state_to_json(b).to_string());
                prop_assert_eq!(Reversi::twin_key(a).cmp(&Reversi::twin_key(b)), by_text);
            }
        }
    }
}

/// The levels searched on the canonical twin give every twin the turned
/// move (`7`, `random`); `norvig`, which breaks ties by square order, is
/// searched as given, so each twin gets its own search's move.
#[test]
fn twins_share_one_canonical_state_and_their_bot_moves_are_turned() {
    let state = state_of(
        &[
            "........", "........", "..WWW...", "..WBBW..", "..BBWB..", "...B.W..", "........",
            "........",
        ],
        "black",
    );
    let (twin, _) = crate::game::symmetry::canonical::<Reversi>(&state);
    let view = crate::games::find("reversi").unwrap();
    for &symmetry in Reversi::SYMMETRIES {
        let turned = Reversi::transform_state(&state, symmetry);
        assert_eq!(crate::game::symmetry::canonical::<Reversi>(&turned).0, twin);
        for name in ["7", "random", "norvig"] {
            let ask = |state: &State| {
                let request = BotRequest {
                    state: StateInput::Json(Reversi::state_to_json(state)),
                    level: Some(name.to_string().into()),
                    seed: Some(4),
                    ..BotRequest::default()
                };
                let reply = view
                    .bot_move(&request, &Budget::with_time_ms(10_000))
                    .unwrap();
                Reversi::parse_move(state, &reply.mv).unwrap()
            };
            if name == "norvig" {
                let own =
                    norvig::choose(turned.board(), norvig::DEFAULT_DEPTH, &Budget::unlimited());
                let own = own.square.map_or(Move::Pass, |sq| Move::Place(sq as u8));
                assert_eq!(ask(&turned), own, "{name}");
                continue;
            }
            let mv = ask(&state);
            assert_eq!(
                ask(&turned),
                Reversi::transform_move(&mv, symmetry),
                "{name}"
            );
        }
    }
}
