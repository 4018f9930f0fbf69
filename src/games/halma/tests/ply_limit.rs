//! The ply limit.

use super::text_forms::{fixtures, state_of};
use super::*;

/// Black's pieces and white's on an otherwise empty board, black to move,
/// under the basic camp rule, `ply` plies played of `ply_limit`.
fn near_the_limit(
    black: &[(usize, usize)],
    white: &[(usize, usize)],
    ply: Option<u32>,
    ply_limit: Option<u32>,
) -> State {
    place(black, white, Side::First, CampRule::Basic).with_plies(ply, ply_limit)
}

#[test]
fn at_the_ply_limit_more_pieces_inside_the_opposing_camp_win() {
    // Black has two pieces in white's camp, white one in black's.
    let s = near_the_limit(
        &[(15, 15), (14, 15), (8, 8)],
        &[(0, 0), (8, 3)],
        Some(9),
        Some(10),
    );
    assert_eq!(Halma::outcome(&s), Outcome::Ongoing);
    let after = Halma::apply(&s, &moves(&s)[0]);
    assert_eq!(after.ply(), Some(10));
    assert_eq!(
        Halma::outcome(&after),
        Outcome::Win {
            winner: Side::First,
            reason: "more pieces inside the opposing camp at the ply limit".into(),
            termination: HalmaTermination::PlyLimit,
            score: [2, 1],
        }
    );
    assert!(
        moves(&after).is_empty(),
        "no move once the limit is reached"
    );
    assert!(!Halma::has_legal_move(&after));
}

#[test]
fn at_the_ply_limit_equal_counts_draw() {
    let s = near_the_limit(&[(15, 15), (8, 8)], &[(0, 0), (8, 3)], Some(9), Some(10));
    let after = Halma::apply(&s, &moves(&s)[0]);
    assert_eq!(
        Halma::outcome(&after),
        Outcome::Draw {
            reason: "as many pieces inside the opposing camp at the ply limit".into(),
            termination: HalmaTermination::PlyLimit,
            score: [1, 1],
        }
    );
}

#[test]
fn without_a_limit_or_a_ply_count_the_game_goes_on() {
    for (ply, limit) in [(None, None), (Some(9), None)] {
        let s = near_the_limit(&[(15, 15), (8, 8)], &[(0, 0), (8, 3)], ply, limit);
        let after = Halma::apply(&s, &moves(&s)[0]);
        assert_eq!(after.ply(), ply.map(|p| p + 1));
        assert_eq!(Halma::outcome(&after), Outcome::Ongoing);
    }
}

#[test]
fn filling_the_camp_on_the_last_ply_wins_by_the_camp_not_the_limit() {
    let s = state_of(&fixtures()["examples"][0]).with_plies(Some(4), Some(5));
    let after = Halma::apply(&s, &parse_move(&s, &json!("E 4,3 3,2")).unwrap());
    assert!(matches!(
        Halma::outcome(&after),
        Outcome::Win {
            winner: Side::Second,
            termination: HalmaTermination::CampFilled,
            ..
        }
    ));
}

#[test]
fn a_new_game_with_a_ply_limit_counts_its_plies_and_ends_there() {
    let game = crate::games::find("halma").unwrap();
    let mut state = game.new_game(&json!({"ply_limit": 6})).unwrap().state;
    assert_eq!(
        (state["ply"].clone(), state["ply_limit"].clone()),
        (json!(0), json!(6))
    );
    let mut outcome = Value::Null;
    for ply in 1..=6 {
        let listed = game.legal_moves(&state).unwrap();
        let played = game.play(&state, &listed.moves[0]).unwrap();
        assert_eq!(played.state["ply"], json!(ply));
        (state, outcome) = (played.state, played.outcome);
    }
    assert_eq!(
        outcome,
        json!({
            "status": "draw",
            "reason": "as many pieces inside the opposing camp at the ply limit",
            "termination": "ply_limit",
            "score": {"black": 0, "white": 0},
        })
    );
    assert_eq!(game.legal_moves(&state).unwrap().count, 0);
    assert_eq!(game.canonical_state(&state).unwrap(), state);
    let plain = game.new_game(&Value::Null).unwrap().state;
    assert_eq!(plain["ply"], json!(0));
    assert!(plain.get("ply_limit").is_none(), "no limit unless asked");
    assert!(matches!(
        game.new_game(&json!({"ply_limit": 0})),
        Err(GameError::InvalidOption { detail: message, .. }) if message.contains("ply_limit")
    ));
}

#[test]
fn ply_counts_that_cannot_be_are_refused_with_a_pointer() {
    let start = Halma::state_to_json(&State::start(Side::First, CampRule::Referee));
    let pointer_of = |fields: Value| {
        let mut state = start.clone();
        for (key, value) in fields.as_object().unwrap() {
            state[key] = value.clone();
        }
        match Halma::state_from_json(&state) {
            Err(GameError::InvalidState { pointer, detail }) => (pointer.unwrap(), detail),
            other => panic!("{fields}: expected invalid state, got {other:?}"),
        }
    };
    assert_eq!(
        pointer_of(json!({"ply": 0, "ply_limit": 0})).0,
        "/ply_limit"
    );
    assert_eq!(pointer_of(json!({"ply": -1})).0, "/ply");
    assert_eq!(pointer_of(json!({"ply": "3"})).0, "/ply");
    assert_eq!(pointer_of(json!({"ply": 5_000_000_000u64})).0, "/ply");
    let (pointer, detail) = pointer_of(json!({"ply_limit": 10}));
    assert_eq!(pointer, "/ply_limit");
    assert!(detail.contains("no ply"), "{detail}");
    let (pointer, detail) = pointer_of(json!({"ply": 11, "ply_limit": 10}));
    assert_eq!(pointer, "/ply");
    assert!(detail.contains("from 0 to 10"), "{detail}");
    let mut ended = start.clone();
    ended["ply"] = json!(10);
    ended["ply_limit"] = json!(10);
    let state = Halma::state_from_json(&ended).unwrap();
    assert!(Halma::outcome(&state).is_over());
    assert_eq!(Halma::state_to_json(&state), ended);
}

#[test]
fn the_bots_see_the_ply_limit() {
    // One ply left, one piece each in the opposing camp: black wins by
    // stepping a second piece in (to 11,14 or 11,15), and only the limit
    // makes that a win.
    let s = near_the_limit(&[(15, 15), (10, 14)], &[(0, 0), (8, 3)], Some(9), Some(10));
    let wins = |mv: &Move| {
        matches!(
            Halma::outcome(&Halma::apply(&s, mv)),
            Outcome::Win {
                winner: Side::First,
                termination: HalmaTermination::PlyLimit,
                ..
            }
        )
    };
    assert_eq!(moves(&s).iter().filter(|m| wins(m)).count(), 2);
    let params = BotParams {
        seed: 1,
        options: HalmaOptions::default(),
    };
    let budget = Budget::unlimited().depth(3);
    for level in ["strong", "minimax"] {
        let level = LevelSpec::parse(level).unwrap();
        let choice = Halma::choose_move(&s, &level, &params, &budget).unwrap();
        assert!(wins(&choice.mv), "{level:?}: {:?}", choice.mv);
        assert!(
            choice.report.score.unwrap() >= i64::from(crate::search::WIN - 1),
            "{level:?}: {:?}",
            choice.report
        );
    }
    let analysis = Halma::analyze(&s, 2, &params, &budget).unwrap();
    for scored in &analysis.moves {
        assert!(wins(&scored.mv), "{scored:?}");
        assert!(scored.exact.is_some(), "{scored:?}");
    }
}

#[test]
fn positions_nearer_the_limit_hash_apart_and_the_clock_plans_for_the_plies_left() {
    let s = near_the_limit(&[(15, 15), (8, 8)], &[(0, 0), (8, 3)], None, None);
    assert_eq!(s.hash(), s.compute_hash());
    let early = s.clone().with_plies(Some(2), Some(10));
    let late = s.clone().with_plies(Some(4), Some(10));
    assert_ne!(early.hash(), late.hash());
    assert_ne!(early.hash(), s.hash());
    let start = State::start(Side::First, CampRule::Referee);
    let unlimited = super::super::bots::expected_moves_left(&start);
    assert!(unlimited >= 10.0);
    let limited = start.with_plies(Some(94), Some(100));
    assert_eq!(super::super::bots::expected_moves_left(&limited), 3.0);
}
