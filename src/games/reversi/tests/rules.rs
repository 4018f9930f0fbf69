//! Rules.

use super::*;

#[test]
fn bitboard_moves_and_flips_match_a_square_by_square_walk() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for _ in 0..300 {
        let empties = rng.random_range(4..58);
        let Some(board) = random_position(&mut rng, empties) else {
            continue;
        };
        let mut expected_moves = 0;
        for sq in Bits(board.empty()) {
            let slow = slow_flips(board.me, board.opp, sq);
            assert_eq!(
                flips(board.me, board.opp, sq),
                slow,
                "{board:?} square {sq}"
            );
            if slow != 0 {
                expected_moves |= 1 << sq;
            }
        }
        assert_eq!(moves(board.me, board.opp), expected_moves);
    }
}

#[test]
fn start_position_and_first_moves() {
    let state = Reversi::new_game(Default::default()).unwrap();
    assert_eq!(
        state.lines(),
        vec![
            "........", "........", "........", "...WB...", "...BW...", "........", "........",
            "........"
        ]
    );
    let mut moves = Vec::new();
    Reversi::legal_moves(&state, &mut moves);
    let names: Vec<String> = moves.iter().map(|m| m.notation()).collect();
    assert_eq!(names, vec!["d3", "c4", "f5", "e6"]);
    let after = state.apply(Move::Place(19)); // d3
    assert_eq!(after.to_move, Side::Second);
    assert_eq!(after.lines()[2], "...B....");
    assert_eq!(after.lines()[3], "...BB...");
}

#[test]
fn a_pass_is_the_only_move_when_the_mover_is_stuck() {
    // White has no move: black owns everything around the lone white disc's lines.
    let state = state_of(
        &[
            "BBBBBBBB", "BBBBBBBB", "BBBBBBBB", "BBBBBBBB", "BBBBBBBB", "BBBBBBW.", "BBBBBB..",
            "BBBBBBB.",
        ],
        "white",
    );
    let mut moves = Vec::new();
    Reversi::legal_moves(&state, &mut moves);
    assert_eq!(moves, vec![Move::Pass]);
    assert_eq!(Reversi::outcome(&state), Outcome::Ongoing);
    let err = Reversi::parse_move(&state, &json!("h6")).unwrap_err();
    assert!(err.to_string().contains("must pass"), "{err}");
    assert_eq!(
        Reversi::parse_move(&state, &json!({"square": null})).unwrap(),
        Move::Pass
    );
    assert_eq!(
        Reversi::parse_move(&state, &json!("PASS")).unwrap(),
        Move::Pass
    );
    let black = state.apply(Move::Pass);
    let err = Reversi::parse_move(&black, &json!("pass")).unwrap_err();
    assert!(err.to_string().contains("cannot pass"), "{err}");
}

#[test]
fn the_game_ends_when_neither_side_can_move() {
    let full_black = state_of(&["BBBBBBBB"; 8], "white");
    let mut moves = Vec::new();
    Reversi::legal_moves(&full_black, &mut moves);
    assert!(moves.is_empty());
    assert_eq!(
        Reversi::outcome(&full_black),
        Outcome::Win {
            winner: Side::First,
            reason: "neither side can move; black 64, white 0".into(),
            termination: ReversiTermination::NoMoves,
            score: [64, 0],
        }
    );
    let draw = state_of(
        &[
            "BBBBBBBB", "BBBBBBBB", "BBBBBBBB", "BBBBBBBB", "WWWWWWWW", "WWWWWWWW", "WWWWWWWW",
            "WWWWWWWW",
        ],
        "black",
    );
    assert!(matches!(
        Reversi::outcome(&draw),
        Outcome::Draw {
            termination: ReversiTermination::NoMoves,
            score: [32, 32],
            ..
        }
    ));
    // Empty squares left, but nobody can move: over too.
    let stuck = state_of(
        &[
            "B.......", "........", "........", "........", "........", "........", "........",
            ".......W",
        ],
        "black",
    );
    assert!(matches!(
        Reversi::outcome(&stuck),
        Outcome::Draw {
            termination: ReversiTermination::NoMoves,
            score: [1, 1],
            ..
        }
    ));
    assert_eq!(stuck.board().final_score(), 0);
    let lone = state_of(
        &[
            "BB......", "........", "........", "........", "........", "........", "........",
            ".......W",
        ],
        "white",
    );
    assert_eq!(lone.board().final_score(), -(2 - 1 + 61));
}

#[test]
fn a_finished_game_s_json_outcome_names_its_termination_and_counts_discs() {
    let game = crate::games::find("reversi").unwrap();
    let mut rows = ["WWWWWWWW"; 8];
    rows[0] = "BBBBBBBB";
    let state = json!({"board": rows, "to_move": "black"});
    assert_eq!(
        game.legal_moves(&state).unwrap().outcome,
        json!({
            "status": "win",
            "winner": "white",
            "reason": "neither side can move; black 8, white 56",
            "termination": "no_moves",
            "score": {"black": 8, "white": 56},
        })
    );
    assert_eq!(
        game.legal_moves(&json!({"board": ["........", "........", "........", "...WB...", "...BW...", "........", "........", "........"], "to_move": "black"}))
            .unwrap()
            .outcome,
        json!({"status": "ongoing"})
    );
}

#[test]
fn stable_discs_are_never_flipped_in_random_games() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..40 {
        let mut state = State::start();
        let (mut stable_black, mut stable_white) = (0u64, 0u64);
        loop {
            stable_black |= stable_discs(state.black, state.white);
            stable_white |= stable_discs(state.white, state.black);
            assert_eq!(state.black & stable_black, stable_black);
            assert_eq!(state.white & stable_white, stable_white);
            let mut moves = Vec::new();
            state.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            state = state.apply(moves[rng.random_range(0..moves.len())]);
        }
    }
}
