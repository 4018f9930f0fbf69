//! Fixtures and text forms.

use super::*;

pub(super) fn fixtures() -> Value {
    crate::test_data::json("halma/seed-examples.json")
}

fn input_text(ex: &Value, time: Option<f64>) -> String {
    let mut text = format!(
        "{}\n{}\n{}\n",
        ex["mode"].as_str().unwrap(),
        ex["to_move"].as_str().unwrap(),
        time.unwrap_or(ex["time_left"].as_f64().unwrap())
    );
    for line in ex["board"].as_array().unwrap() {
        text.push_str(line.as_str().unwrap());
        text.push('\n');
    }
    text
}

pub(super) fn state_of(ex: &Value) -> State {
    Halma::state_from_json(&json!({
        "board": ex["board"],
        "to_move": ex["to_move"].as_str().unwrap().to_lowercase(),
    }))
    .unwrap()
}

#[test]
fn seed_examples_outputs_are_legal_and_winning_ones_win() {
    for ex in fixtures()["examples"].as_array().unwrap() {
        let s = state_of(ex);
        let output = ex["output"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_str().unwrap())
            .collect::<Vec<_>>()
            .join("\n");
        let mv = parse_move(&s, &json!(output)).unwrap_or_else(|e| panic!("{}: {e}", ex["name"]));
        let after = Halma::apply(&s, &mv);
        assert_eq!(
            after.has_won(s.to_move()),
            ex["wins"].as_bool().unwrap(),
            "{}",
            ex["name"]
        );
    }
}

#[test]
fn seed_examples_through_the_text_bot_move() {
    let game = crate::games::find("halma").unwrap();
    for ex in fixtures()["examples"].as_array().unwrap() {
        let body = input_text(ex, None);
        let request = crate::game::erased::BotRequest {
            state: crate::game::erased::StateInput::Text {
                body: body.clone(),
                params: Default::default(),
            },
            seed: Some(7),
            ..Default::default()
        };
        let out = game.prepare_bot(request).unwrap()(&Budget::with_time_ms(300))
            .unwrap()
            .text
            .unwrap();
        assert!(out.ends_with('\n'));
        let s = state_of(ex);
        let mv =
            parse_move(&s, &json!(out)).unwrap_or_else(|e| panic!("{}: {out}: {e}", ex["name"]));
        if ex["wins"].as_bool().unwrap() {
            let expected: Vec<&str> = ex["output"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| l.as_str().unwrap())
                .collect();
            assert_eq!(
                out.trim_end().lines().collect::<Vec<_>>(),
                expected,
                "{}",
                ex["name"]
            );
        }
        assert!(
            Halma::outcome(&Halma::apply(&s, &mv)) != Outcome::Ongoing
                || !ex["wins"].as_bool().unwrap()
        );
    }
}

#[test]
fn seed_examples_through_the_cli() {
    use crate::cli::halma::{run, HalmaArgs};
    for (i, ex) in fixtures()["examples"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
    {
        let dir = std::env::temp_dir().join(format!("halma-cli-test-{}-{i}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // A short clock keeps the test quick; the winning moves are found at depth 1.
        std::fs::write(dir.join("input.txt"), input_text(ex, Some(0.3))).unwrap();
        let code = run(HalmaArgs {
            dir: dir.clone(),
            level: "strong".into(),
            camp_rule: "referee".into(),
        });
        assert_eq!(code, std::process::ExitCode::SUCCESS);
        let out = std::fs::read_to_string(dir.join("output.txt")).unwrap();
        let s = state_of(ex);
        assert!(parse_move(&s, &json!(out)).is_ok(), "{out}");
        if ex["wins"].as_bool().unwrap() {
            let expected: Vec<&str> = ex["output"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| l.as_str().unwrap())
                .collect();
            assert_eq!(out.lines().collect::<Vec<_>>(), expected);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn cli_reports_bad_input_and_fails() {
    use crate::cli::halma::{run, HalmaArgs};
    let dir = std::env::temp_dir().join(format!("halma-cli-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("input.txt"), "SINGLE\nPURPLE\n1.0\n").unwrap();
    let args = HalmaArgs {
        dir: dir.clone(),
        level: "strong".into(),
        camp_rule: "referee".into(),
    };
    assert_ne!(run(args.clone()), std::process::ExitCode::SUCCESS);
    assert!(!dir.join("output.txt").exists());
    std::fs::remove_dir_all(&dir).unwrap();
    assert_ne!(
        run(args),
        std::process::ExitCode::SUCCESS,
        "missing input.txt"
    );
}

#[test]
fn legacy_input_errors_name_the_line() {
    let ex = &fixtures()["examples"][0];
    let good = input_text(ex, None);
    let cases = [
        (good.replacen("SINGLE", "ONCE", 1), "line 1"),
        (good.replacen("WHITE", "RED", 1), "line 2"),
        (good.replacen("100", "-3", 1), "line 3"),
        (good.replacen("WWW.W", "WWW.X", 1), "line 7"),
        (
            good.lines().take(10).collect::<Vec<_>>().join("\n"),
            "10 lines",
        ),
        (
            good.replacen("WW..............", "WW...............", 1),
            "17 characters",
        ),
        (good.replacen("WWW.W", "WWW..", 1), "18 white"),
    ];
    for (text, expected) in cases {
        let err = super::super::text::parse_input(&text, CampRule::Referee).unwrap_err();
        assert!(err.to_string().contains(expected), "{expected}: {err}");
    }
    let crlf = good.replace('\n', "\r\n") + "\r\n";
    let parsed = super::super::text::parse_input(&crlf, CampRule::Referee).unwrap();
    assert_eq!(
        parsed.clock,
        Clock {
            mode: ClockMode::Single,
            time_left_s: 100.0
        }
    );
    assert_eq!(parsed.state.to_move(), Side::Second);
}

#[test]
fn the_referee_writes_input_txt_that_the_harness_reads_back() {
    let state = Halma::apply(&State::start(Side::First, CampRule::Basic), &{
        let mut moves = Vec::new();
        Halma::legal_moves(&State::start(Side::First, CampRule::Basic), &mut moves);
        moves[0]
    });
    let in_game = Halma::agent_input(
        &state,
        Duration::from_secs(1),
        Some(Duration::from_millis(12_345)),
    )
    .unwrap();
    assert!(in_game.starts_with("GAME\nWHITE\n12.345\n"), "{in_game}");
    let parsed = super::super::text::parse_input(&in_game, CampRule::Basic).unwrap();
    assert_eq!(parsed.state, state);
    assert_eq!(parsed.clock.mode, ClockMode::Game);
    let single = Halma::agent_input(&state, Duration::from_millis(250), None).unwrap();
    let parsed = super::super::text::parse_input(&single, CampRule::Basic).unwrap();
    assert_eq!(
        parsed.clock,
        Clock {
            mode: ClockMode::Single,
            time_left_s: 0.25
        }
    );
}
