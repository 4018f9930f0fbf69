//! JSON state and the erased view.

use super::*;

#[test]
fn invalid_states_point_at_the_problem() {
    let start = Halma::state_to_json(&State::start(Side::First, CampRule::Referee));
    let pointer_of = |value: Value| match Halma::state_from_json(&value) {
        Err(GameError::InvalidState { pointer, detail }) => (pointer.unwrap_or_default(), detail),
        other => panic!("expected invalid state, got {other:?}"),
    };
    let mut v = start.clone();
    v["board"][3] = json!("BBB.............x");
    assert_eq!(pointer_of(v).0, "/board/3");
    let mut v = start.clone();
    v["board"][2] = json!("BBBB......Z.....");
    let (p, d) = pointer_of(v);
    assert_eq!(p, "/board/2");
    assert!(d.contains("column 10"), "{d}");
    let mut v = start.clone();
    v["board"][5] = json!(5);
    assert_eq!(pointer_of(v).0, "/board/5");
    let mut v = start.clone();
    v["to_move"] = json!("red");
    assert_eq!(pointer_of(v).0, "/to_move");
    let mut v = start.clone();
    v["camp_rule"] = json!("strict");
    assert_eq!(pointer_of(v).0, "/camp_rule");
    let mut v = start.clone();
    v["clock"] = json!({"mode": "GAME", "time_left_s": 3});
    assert_eq!(pointer_of(v).0, "/clock");
    let mut v = start.clone();
    v["board"][7] = json!(".......B........");
    let (p, d) = pointer_of(v);
    assert_eq!(p, "/board");
    assert!(d.contains("20 black"), "{d}");
    let mut v = start.clone();
    v.as_object_mut().unwrap().remove("camp_rule");
    assert_eq!(
        Halma::state_from_json(&v).unwrap().camp_rule(),
        CampRule::Referee
    );
    assert!(Halma::state_from_json(&json!([1, 2])).is_err());
}

#[test]
fn the_erased_view_lists_plays_and_refuses() {
    let game = crate::games::find("halma").unwrap();
    let info = game.info();
    assert_eq!(info.sides, vec!["black", "white"]);
    let state = game.new_game(&Value::Null).unwrap().state;
    assert_eq!(state["to_move"], "black");
    let listed = game.legal_moves(&state).unwrap();
    assert_eq!(listed.count, listed.moves.len());
    assert!(listed.count > 0);
    let first = &listed.moves[0];
    assert!(first["notation"].is_string());
    let played = game.play(&state, first).unwrap();
    assert_eq!(played.state["to_move"], "white");
    let by_text = game.play(&state, &first["notation"]).unwrap();
    assert_eq!(by_text.state, played.state);
    assert!(game.play(&state, &json!("E 0,0 1,1")).is_err());
    let basic = game
        .new_game(&json!({"camp_rule": "basic", "to_move": "white"}))
        .unwrap()
        .state;
    assert_eq!(basic["camp_rule"], "basic");
    assert_eq!(basic["to_move"], "white");
    assert!(matches!(
        game.new_game(&json!({"speed": 1})),
        Err(GameError::InvalidOption { .. })
    ));
}

#[test]
fn clocks_are_validated() {
    let with = |clock: Value| {
        serde_json::from_value::<HalmaOptions>(json!({ "clock": clock })).map(|o| o.clock)
    };
    assert_eq!(
        with(json!({"mode": "GAME", "time_left_s": 0.01})).unwrap(),
        Some(Clock {
            mode: ClockMode::Game,
            time_left_s: 0.01
        })
    );
    assert_eq!(
        with(json!({"mode": "single", "time_left_s": 3})).unwrap(),
        Some(Clock {
            mode: ClockMode::Single,
            time_left_s: 3.0
        })
    );
    for (bad, says) in [
        (
            json!({"mode": "BLITZ", "time_left_s": 1}),
            "clock.mode is \"BLITZ\"",
        ),
        (json!({"mode": "GAME"}), "missing field `time_left_s`"),
        (
            json!({"mode": "GAME", "time_left_s": 1, "inc": 2}),
            "unknown field `inc`",
        ),
        (json!("GAME"), "invalid type: string \"GAME\""),
    ] {
        let error = with(bad.clone()).unwrap_err().to_string();
        assert!(error.contains(says), "{bad}: {error}");
    }
    // Seconds of the right type but unusable are the game's check, made
    // before any work, pointing at the field.
    for seconds in [0.0, -1.0, 86_400.5, 1e308] {
        let clock = with(json!({"mode": "SINGLE", "time_left_s": seconds}))
            .unwrap()
            .unwrap();
        match clock.check() {
            Err(GameError::InvalidOption {
                pointer: Some(pointer),
                detail,
            }) => {
                assert_eq!(pointer, "/clock/time_left_s");
                assert!(detail.contains("at most 86400"), "{detail}");
            }
            other => panic!("{seconds}: {other:?}"),
        }
    }
    assert!(with(json!({"mode": "GAME", "time_left_s": 86_400}))
        .unwrap()
        .unwrap()
        .check()
        .is_ok());
    // A clock that no check has seen (a game clock carried by a budget) is
    // cut to a day rather than overflowing a Duration.
    let start = State::start(Side::First, CampRule::Referee);
    for mode in [ClockMode::Single, ClockMode::Game] {
        let huge = Clock {
            mode,
            time_left_s: 1e308,
        };
        assert!(time_for_move(&start, huge) <= Duration::from_secs(86_400));
    }
    let unknown = serde_json::from_value::<HalmaOptions>(json!({"clok": {}})).unwrap_err();
    assert!(
        unknown.to_string().contains("unknown field `clok`"),
        "{unknown}"
    );
    let none = BotParams::<HalmaOptions>::seeded(1);
    assert_eq!(read_clock(&none, &Budget::unlimited()), None);
    let mut under_a_game_clock = Budget::unlimited();
    under_a_game_clock.game_time_left_ms = Some(2_500);
    let clock = read_clock(&none, &under_a_game_clock).unwrap();
    assert_eq!((clock.mode, clock.time_left_s), (ClockMode::Game, 2.5));
}
