//! The levels: the seed examples, determinism, analysis, the evaluation.

use super::*;

/// Plays one seed example at `level` through the type-erased view and
/// returns the move object.
fn seed_example_move(example: &Value, level: &str, seed: u64, budget: &Budget) -> Value {
    let game = crate::games::find("advance").expect("advance is registered");
    let request = BotRequest {
        state: StateInput::Json(json!({"board": example["board"], "to_move": example["to_move"]})),
        level: Some(level.to_string().into()),
        seed: Some(seed),
        ..Default::default()
    };
    game.bot_move(&request, budget).expect("bot move").mv
}

fn assert_expected(example: &Value, mv: &Value, level: &str) {
    let expected = &example["expected"];
    let name = example["name"].as_str().unwrap();
    for field in ["kind", "from", "to"] {
        assert_eq!(
            mv[field], expected[field],
            "{name} at level {level}: got {mv}"
        );
    }
}

#[test]
fn seed_examples_pass_at_their_level_and_every_stronger_one() {
    let game = crate::games::find("advance").unwrap();
    for example in fixture("seed-examples.json")["examples"]
        .as_array()
        .unwrap()
    {
        let state = json!({"board": example["board"], "to_move": example["to_move"]});
        if let Some(count) = example.get("legal_move_count") {
            assert_eq!(
                game.legal_moves(&state).unwrap().count as u64,
                count.as_u64().unwrap()
            );
        }
        let first = LEVELS.iter().position(|l| *l == example["level"]).unwrap();
        for level in &LEVELS[first..] {
            for seed in 0..4 {
                let budget = Budget::unlimited().depth(4);
                let mv = seed_example_move(example, level, seed, &budget);
                assert_expected(example, &mv, level);
            }
        }
    }
}

#[test]
fn strong_passes_the_seed_examples_under_a_time_budget() {
    for example in fixture("seed-examples.json")["examples"]
        .as_array()
        .unwrap()
    {
        let mv = seed_example_move(example, "strong", 1, &Budget::with_time_ms(100));
        assert_expected(example, &mv, "strong");
    }
}

#[test]
#[ignore = "slow in debug builds: cargo test --release --lib games::advance::tests::strong_passes_the_seed_examples_at_many_budgets -- --ignored"]
fn strong_passes_the_seed_examples_at_many_budgets() {
    let mut budgets: Vec<(String, Budget)> = (1..=6)
        .map(|d| (format!("depth {d}"), Budget::unlimited().depth(d)))
        .collect();
    for ms in [30, 100, 250, 1000] {
        budgets.push((format!("{ms} ms"), Budget::with_time_ms(ms)));
    }
    for example in fixture("seed-examples.json")["examples"]
        .as_array()
        .unwrap()
    {
        for (name, budget) in &budgets {
            let budget = match budget.time_ms {
                Some(ms) => Budget::with_time_ms(ms),
                None => budget.clone(),
            };
            let mv = seed_example_move(example, "strong", 1, &budget);
            println!("{} at {name}: {}", example["name"], mv["notation"]);
            assert_expected(example, &mv, &format!("strong ({name})"));
        }
    }
}

#[test]
fn levels_are_deterministic_and_respect_tiny_budgets() {
    let examples = fixture("seed-examples.json");
    let state = fixture_state(&examples["examples"][2]);
    let legal_moves = legal(&state);
    for level in LEVELS {
        let spec = crate::game::LevelSpec::parse(level).unwrap();
        let first = Advance::choose_move(
            &state,
            &spec,
            &BotParams::seeded(3),
            &Budget::unlimited().depth(2),
        )
        .unwrap();
        let again = Advance::choose_move(
            &state,
            &spec,
            &BotParams::seeded(3),
            &Budget::unlimited().depth(2),
        )
        .unwrap();
        assert_eq!(first.mv, again.mv, "{level}");
        for budget in [Budget::unlimited().nodes(1), Budget::with_time_ms(0)] {
            let choice =
                Advance::choose_move(&state, &spec, &BotParams::seeded(3), &budget).unwrap();
            assert!(legal_moves.contains(&choice.mv), "{level}");
        }
    }
    let bad = crate::game::LevelSpec::parse("greedy:depth=3").unwrap();
    assert!(
        Advance::choose_move(&state, &bad, &BotParams::seeded(1), &Budget::unlimited()).is_err()
    );
    let pure = crate::game::LevelSpec::parse("strong:margin=0").unwrap();
    let choice = Advance::choose_move(
        &state,
        &pure,
        &BotParams::seeded(1),
        &Budget::unlimited().depth(3),
    )
    .unwrap();
    assert_eq!(super::super::notation::notation(&choice.mv), "a8-d5");
}

#[test]
fn legal_level_spreads_over_the_moves() {
    let state = State::start();
    let spec = crate::game::LevelSpec::parse("legal").unwrap();
    let chosen: std::collections::HashSet<String> = (0..200)
        .map(|seed| {
            let choice = Advance::choose_move(
                &state,
                &spec,
                &BotParams::seeded(seed),
                &Budget::unlimited(),
            )
            .unwrap();
            super::super::notation::notation(&choice.mv)
        })
        .collect();
    assert!(chosen.len() > 30, "{}", chosen.len());
}

#[test]
fn analyze_gives_scored_lines_and_proves_a_win_in_one() {
    let game = crate::games::find("advance").unwrap();
    let examples = fixture("seed-examples.json");
    let example = &examples["examples"][1];
    let request = BotRequest {
        state: StateInput::Json(json!({"board": example["board"], "to_move": example["to_move"]})),
        level: None,
        seed: Some(1),
        ..Default::default()
    };
    let reply = game
        .analyze(&request, 3, &Budget::unlimited().depth(2))
        .unwrap();
    assert_eq!(reply.moves.len(), 3);
    assert_eq!(reply.moves[0].mv["notation"], "e7-d8");
    assert_eq!(reply.moves[0].exact.as_deref(), Some("win in 1 plies"));
    assert!(reply.moves[0].score > reply.moves[1].score);
    assert!(reply.moves.iter().all(|m| !m.pv.is_empty()));
}

/// The position seen from the other side: rows reversed, colours swapped.
fn mirrored(state: &State) -> State {
    let rows: Vec<String> = (0..9)
        .rev()
        .map(|r| {
            state
                .row_text(r)
                .chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        })
        .collect();
    State::from_rows(&rows, state.to_move().other(), state.ply()).unwrap()
}

#[test]
fn evaluation_and_move_counts_are_colour_symmetric() {
    for seed in 0..40 {
        let state = random_board(seed);
        let mirror = mirrored(&state);
        assert_eq!(
            super::super::bots::eval::evaluate(&state),
            super::super::bots::eval::evaluate(&mirror),
            "{state:?}"
        );
        assert_eq!(legal(&state).len(), legal(&mirror).len(), "{state:?}");
    }
}

#[test]
fn near_the_material_rule_the_evaluation_follows_material() {
    for seed in 0..40 {
        let base = random_board(seed);
        let rows: Vec<String> = (0..9).map(|r| base.row_text(r)).collect();
        let at_ply = |ply| State::from_rows(&rows, base.to_move(), ply).unwrap();
        let unknown = super::super::bots::eval::evaluate(&at_ply(None));
        assert_eq!(
            super::super::bots::eval::evaluate(&at_ply(Some(100))),
            unknown
        );
        let me = base.to_move();
        let lead = base.material(me) - base.material(me.other());
        let last = super::super::bots::eval::evaluate(&at_ply(Some(199)));
        if lead != 0 {
            assert_eq!(last.signum(), lead.signum(), "seed {seed}: lead {lead}");
        } else {
            assert!(last.abs() <= unknown.abs() / 10 + 1, "seed {seed}");
        }
    }
}

#[test]
fn an_analysis_past_its_deadline_on_a_board_full_of_captures_ends_soon() {
    // A position where every reply starts a long exchange: the first
    // iteration, which the deadline does not stop, must not follow them all.
    let board = json!({
        "board": ["#scDBcjmc", "Csd#ssgdz", "SzCjsJMzd", "s#jCbbDd#", "#scDBcjmc",
                  "#scDBcjmc", "#sBBBBBBB", "BBBBBBBBB", "BBBBBBBSB"],
        "to_move": "black"
    });
    let game = crate::games::find("advance").unwrap();
    let request = BotRequest {
        state: StateInput::Json(board),
        ..Default::default()
    };
    let mut budget = Budget::with_time_ms(0);
    budget.deadline = Some(std::time::Instant::now());
    let reply = game.prepare_analysis(request, 3, None).unwrap()(&budget).unwrap();
    assert_eq!(reply.search.depth, Some(1));
    assert_eq!(reply.moves.len(), 3);
    let nodes = reply.search.nodes.unwrap();
    assert!(nodes < 20_000, "{nodes} nodes after the deadline");
}
