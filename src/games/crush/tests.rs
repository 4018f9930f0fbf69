//! Tests of the rules, the levels and the JSON view.

use super::board::{Board, GameRefill, Runs, Unseen, CELLS, SIDE, UNKNOWN};
use super::bots::{self, View};
use super::notation::{Swap, ALL_SWAPS};
use super::rng::TinyMt32;
use super::*;
use crate::game::{
    BotParams, Bots, Budget, Codec, GameError, LevelSpec, Outcome, Rules, StopReason,
};
use proptest::prelude::*;
use serde_json::json;

/// A board from 10 rows; `.` is an unknown cell, which never matches.
fn board(rows: [&str; SIDE]) -> Board {
    let mut cells = [UNKNOWN; CELLS];
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            cells[r * SIDE + c] = ch.to_digit(10).map_or(UNKNOWN, |d| d as u8);
        }
    }
    Board::from_cells(cells)
}

fn rows(board: &Board) -> Vec<String> {
    (0..SIDE)
        .map(|r| board.row_text(r).replace('?', "."))
        .collect()
}

/// Settles with unknown refills; returns the points and each step's points.
fn settle(board: &mut Board) -> (u32, Vec<u32>) {
    let mut steps = Vec::new();
    let total = board.settle(&mut Unseen, |runs| steps.push(runs.points()));
    (total, steps)
}

const EMPTY: &str = "..........";

#[test]
fn a_row_of_three_scores_nine_and_the_column_above_falls() {
    let mut b = board([
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        "4.........",
        "23........",
        "111.......",
    ]);
    assert_eq!(settle(&mut b), (9, vec![9]));
    assert_eq!(rows(&b)[8], "4.........");
    assert_eq!(rows(&b)[9], "23........");
}

#[test]
fn a_column_of_three_scores_nine() {
    let mut b = board([
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        ".4........",
        ".2........",
        ".2........",
        ".2........",
    ]);
    assert_eq!(settle(&mut b), (9, vec![9]));
    assert_eq!(rows(&b)[9], ".4........");
}

#[test]
fn runs_of_four_and_five_score_their_square() {
    let mut four = board([
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        "..3333....",
    ]);
    assert_eq!(settle(&mut four).0, 16);
    let mut five = board([
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        "6.........",
        "6.........",
        "6.........",
        "6.........",
        "6.........",
    ]);
    assert_eq!(settle(&mut five).0, 25);
}

#[test]
fn an_l_shape_scores_both_runs_and_removes_five_cells() {
    let mut b = board([
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        "2.........",
        "1.........",
        "1.........",
        "111.......",
    ]);
    let mut runs = Runs::default();
    let mask = b.find_runs(&mut runs);
    assert_eq!(runs.as_slice().len(), 2);
    assert_eq!(mask.count_ones(), 5);
    assert_eq!(settle(&mut b), (18, vec![18]));
    assert_eq!(rows(&b)[9], "2.........");
}

#[test]
fn a_t_shape_scores_both_runs() {
    let mut b = board([
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        ".5........",
        ".5........",
        "555.......",
    ]);
    assert_eq!(settle(&mut b), (18, vec![18]));
    let mut plus = board([
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        ".7........",
        ".7........",
        "7777......",
        ".7........",
        ".7........",
    ]);
    assert_eq!(settle(&mut plus), (16 + 25, vec![41]));
}

#[test]
fn two_separate_runs_score_in_the_same_step() {
    let mut b = board([
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        "......222.",
        "111.......",
    ]);
    assert_eq!(settle(&mut b), (18, vec![18]));
}

#[test]
fn falling_cells_cascade_into_a_new_run() {
    let mut b = board([
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        ".22.......",
        "2111......",
    ]);
    assert_eq!(settle(&mut b), (18, vec![9, 9]));
    assert!(rows(&b).iter().all(|r| r == EMPTY));
}

#[test]
fn every_run_is_found_before_any_cell_is_removed() {
    // Removing the row first would drop the 3 onto the column and make a run of 4.
    let mut b = board([
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        "3.........",
        "3.........",
        "4.........",
        "3.........",
        "3444......",
    ]);
    assert_eq!(settle(&mut b), (9, vec![9]));
    assert_eq!(rows(&b)[9], "3.........");
}

#[test]
fn refills_go_row_by_row_from_the_top_left_to_right() {
    let mut b = board([
        "1212121212",
        "2121212121",
        "1212121212",
        "2121212121",
        "1212121212",
        "2121212121",
        "1212131212",
        "2121232121",
        "1212131212",
        "4442121212",
    ]);
    let mut runs = Runs::default();
    let mask = b.find_runs(&mut runs);
    assert_eq!(runs.points(), 18);
    let mut rng = TinyMt32::for_game(42);
    let mut expected = rng;
    b.remove_and_refill(
        mask,
        &mut GameRefill {
            rng: &mut rng,
            k: 4,
        },
    );
    // Empty after the fall: row 0 cols 0, 1, 2, 5; row 1 col 5; row 2 col 5.
    let order = [0, 1, 2, 5, 15, 25];
    for cell in order {
        assert_eq!(b.get(cell), expected.next_digit(4), "cell {cell:02}");
    }
    assert_eq!(rng, expected);
    assert_eq!(rows(&b)[9][..4], *"1212");
}

#[test]
fn a_new_game_fills_row_by_row_then_settles_without_scoring() {
    for (k, seed) in [(4, 0), (5, 1), (7, 4_294_967_295)] {
        let mut rng = TinyMt32::for_game(seed);
        let mut cells = [0u8; CELLS];
        for cell in cells.iter_mut() {
            *cell = rng.next_digit(k);
        }
        let mut expected = Board::from_cells(cells);
        expected.settle_quiet(&mut GameRefill { rng: &mut rng, k });
        let state = Crush::new_seeded(k, seed);
        assert_eq!(state.board, expected);
        assert_eq!(state.rng, rng);
        assert_eq!((state.score, state.swaps_left, state.k), (0, 100, k));
        assert!(state.board.is_settled());
    }
}

#[test]
fn the_course_preset_is_the_fixture_board() {
    let fixture = crate::test_data::json("crush/course-board.json");
    let state = crate::game::read_new_options::<Crush>(&json!({"preset": "course"}))
        .and_then(Crush::new_game)
        .unwrap();
    assert_eq!(state.to_json()["board"], fixture["board"]);
    assert_eq!(state.k, 4);
    assert_eq!(state.rng, TinyMt32::for_game(0));
}

/// The total of the game recorded once from the course preset in
/// `tests/data/crush/course-game.txt` (the greedy level's swaps): replaying it
/// must always give the same total and final board.
const RECORDED_TOTAL: i64 = 16_478;

#[test]
fn a_recorded_game_replays_to_its_total() {
    let mut state = Crush::new_course();
    let swaps = crate::test_data::text("crush/course-game.txt");
    for line in swaps
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let swap = Crush::parse_move(&state, &json!(line)).unwrap();
        state = Crush::apply(&state, &swap);
    }
    assert_eq!(state.swaps_left, 0);
    assert_eq!(
        Crush::outcome(&state),
        Outcome::Finished {
            termination: CrushTermination::SwapsUsed,
            points: RECORDED_TOTAL
        }
    );
}

#[test]
fn the_game_ends_after_the_last_swap() {
    let mut state = Crush::new_seeded(6, 9);
    state.swaps_left = 1;
    let mut moves = Vec::new();
    Crush::legal_moves(&state, &mut moves);
    assert_eq!(moves.len(), 180);
    let after = Crush::apply(&state, &moves[0]);
    assert_eq!(
        Crush::outcome(&after),
        Outcome::Finished {
            termination: CrushTermination::SwapsUsed,
            points: after.score
        }
    );
    moves.clear();
    Crush::legal_moves(&after, &mut moves);
    assert!(moves.is_empty());
    assert_eq!(
        Crush::parse_move(&after, &json!("0001")),
        Err(GameError::game_over())
    );
}

fn state_error(mutate: impl FnOnce(&mut serde_json::Value)) -> (Option<String>, String) {
    let mut value = Crush::new_seeded(4, 3).to_json();
    mutate(&mut value);
    match State::from_json(&value) {
        Err(GameError::InvalidState { pointer, detail }) => (pointer, detail),
        other => panic!("expected invalid_state, got {other:?}"),
    }
}

#[test]
fn bad_states_say_where_and_why() {
    let (p, d) = state_error(|v| v["k"] = json!(8));
    assert_eq!(
        (p.as_deref(), d.contains("4, 5, 6 or 7")),
        (Some("/k"), true)
    );
    let (p, d) = state_error(|v| v["board"][2] = json!("12341234x1"));
    assert_eq!(p.as_deref(), Some("/board/2"));
    assert!(d.contains("cell 28"), "{d}");
    let (p, _) = state_error(|v| v["board"][3] = json!("1234"));
    assert_eq!(p.as_deref(), Some("/board/3"));
    let (p, d) = state_error(|v| v["board"][0] = json!("5121212121"));
    assert!(
        p.as_deref() == Some("/board/0") && d.contains("1..=4"),
        "{d}"
    );
    let (p, d) = state_error(|v| v["board"][9] = json!("1112121212"));
    assert!(
        p.as_deref() == Some("/board/9") && d.contains("run of 3"),
        "{d}"
    );
    let (p, _) = state_error(|v| {
        v["board"]
            .as_array_mut()
            .unwrap()
            .pop()
            .map(|_| ())
            .unwrap()
    });
    assert_eq!(p.as_deref(), Some("/board"));
    let (p, d) = state_error(|v| v["rng"] = json!([0, 0, 0, 0]));
    assert!(p.as_deref() == Some("/rng") && d.contains("all-zero"));
    let (p, _) = state_error(|v| v["rng"] = json!([1, 2, 3]));
    assert_eq!(p.as_deref(), Some("/rng"));
    let (p, _) = state_error(|v| v["rng"][1] = json!(4_294_967_296u64));
    assert_eq!(p.as_deref(), Some("/rng/1"));
    let (p, _) = state_error(|v| v["swaps_left"] = json!(101));
    assert_eq!(p.as_deref(), Some("/swaps_left"));
    let (p, _) = state_error(|v| v["score"] = json!(-1));
    assert_eq!(p.as_deref(), Some("/score"));
    let (p, _) = state_error(|v| {
        v.as_object_mut().unwrap().remove("score");
    });
    assert_eq!(p.as_deref(), Some("/score"));
    let (p, _) = state_error(|v| v["extra"] = json!(1));
    assert_eq!(p.as_deref(), Some("/extra"));
}

#[test]
fn new_game_options_are_checked() {
    let new =
        |v: serde_json::Value| crate::game::read_new_options::<Crush>(&v).and_then(Crush::new_game);
    assert_eq!(new(json!({})).unwrap(), Crush::new_seeded(4, 0));
    assert_eq!(
        new(json!({"k": 6, "seed": 12})).unwrap(),
        Crush::new_seeded(6, 12)
    );
    for (options, named) in [
        (json!({"k": 3}), "'k'"),
        (json!({"k": "5"}), "'k'"),
        (json!({"seed": 4_294_967_296u64}), "'seed'"),
        (json!({"seed": -1}), "'seed'"),
        (json!({"colour": 1}), "'colour'"),
        (json!({"preset": "mine"}), "'preset'"),
        (json!({"preset": "course", "seed": 1}), "'seed'"),
    ] {
        match new(options.clone()) {
            Err(GameError::InvalidOption { detail, .. }) => {
                assert!(detail.contains(named), "{options}: {detail}")
            }
            other => panic!("{options}: {other:?}"),
        }
    }
}

fn strong_with_nodes(state: &State, nodes: u64) -> Swap {
    let level = LevelSpec::parse("strong").unwrap();
    let budget = Budget::unlimited().nodes(nodes);
    Crush::choose_move(state, &level, &BotParams::seeded(5), &budget)
        .unwrap()
        .mv
}

#[test]
fn bots_never_read_the_generator() {
    for k in [4, 7] {
        let state = Crush::new_seeded(k, 21);
        let mut other = state.clone();
        other.rng = TinyMt32::for_game(999);
        for name in ["random", "greedy"] {
            let level = LevelSpec::parse(name).unwrap();
            let pick = |s: &State| {
                Crush::choose_move(s, &level, &BotParams::seeded(3), &Budget::unlimited())
                    .unwrap()
                    .mv
            };
            assert_eq!(pick(&state), pick(&other), "{name}");
        }
        assert_eq!(
            strong_with_nodes(&state, 3_000),
            strong_with_nodes(&other, 3_000)
        );
    }
}

#[test]
fn strong_is_deterministic_under_a_node_cap() {
    let state = Crush::new_seeded(5, 8);
    let level = LevelSpec::parse("strong").unwrap();
    let run = || {
        let budget = Budget::unlimited().nodes(2_000);
        Crush::choose_move(&state, &level, &BotParams::seeded(1), &budget).unwrap()
    };
    let (a, b) = (run(), run());
    assert_eq!(a.mv, b.mv);
    assert_eq!(a.report.score, b.report.score);
    assert_eq!(a.report.nodes, b.report.nodes);
    assert_eq!(a.report.stopped_by, Some(StopReason::Nodes));
}

#[test]
fn strong_answers_with_no_time_at_all() {
    let state = Crush::new_seeded(4, 2);
    let level = LevelSpec::parse("strong").unwrap();
    let budget = Budget::with_time_ms(0);
    let choice = Crush::choose_move(&state, &level, &BotParams::seeded(1), &budget).unwrap();
    assert!(ALL_SWAPS.contains(&choice.mv));
    assert_eq!(choice.mv, bots::greedy(&state.board).0);
}

#[test]
fn greedy_takes_the_best_visible_swap() {
    let state = Crush::new_seeded(4, 5);
    let (swap, gain) = bots::greedy(&state.board);
    assert!(gain > 0);
    for other in ALL_SWAPS {
        assert!(bots::visible_gain(&state.board, other) <= gain);
    }
    let view = View::of(&state);
    assert_eq!(bots::visible_gain(&view.board, swap), gain);
}

#[test]
fn levels_refuse_unknown_options() {
    let state = Crush::new_seeded(4, 2);
    for level in ["greedy:depth=2", "strong:depth=9", "strong:speed=1"] {
        let level = LevelSpec::parse(level).unwrap();
        let result =
            Crush::choose_move(&state, &level, &BotParams::seeded(1), &Budget::unlimited());
        assert!(
            matches!(result, Err(GameError::InvalidOption { .. })),
            "{level}"
        );
    }
}

#[test]
fn the_json_view_plays_and_reports_effects() {
    let game = crate::games::find("crush").expect("crush is registered");
    assert_eq!(game.info().players, 1);
    let state = game.new_game(&json!({"k": 4, "seed": 7})).unwrap().state;
    let listed = game.legal_moves(&state).unwrap();
    assert_eq!(listed.count, 180);
    assert_eq!(listed.outcome, json!({"status": "ongoing"}));
    let greedy = bots::greedy(&State::from_json(&state).unwrap().board).0;
    let played = game.play(&state, &json!(greedy.notation())).unwrap();
    assert_eq!(played.mv["notation"], json!(greedy.notation()));
    assert_eq!(played.state["swaps_left"], json!(99));
    let effects = played.effects.unwrap();
    let gained = effects["gained"].as_i64().unwrap();
    assert!(gained > 0);
    assert_eq!(played.state["score"], json!(gained));
    let steps = effects["steps"].as_array().unwrap();
    let sum: i64 = steps.iter().map(|s| s["points"].as_i64().unwrap()).sum();
    assert_eq!(sum, gained);
    let run = &steps[0]["runs"][0];
    assert_eq!(
        run["points"].as_i64().unwrap(),
        run["length"].as_i64().unwrap().pow(2)
    );
    assert_eq!(
        run["cells"].as_array().unwrap().len() as i64,
        run["length"].as_i64().unwrap()
    );

    let refused = game.play(&state, &json!("0022")).unwrap_err();
    assert!(matches!(refused, GameError::IllegalMove { .. }));
    let request = crate::game::erased::BotRequest {
        state: crate::game::erased::StateInput::Json(state.clone()),
        level: Some("greedy".into()),
        seed: Some(1),
        ..Default::default()
    };
    let reply = game.bot_move(&request, &Budget::unlimited()).unwrap();
    assert_eq!(reply.mv["notation"], json!(greedy.notation()));
    assert!(reply.effects.is_some());
    let analysis = game
        .analyze(&request, 3, &Budget::unlimited().nodes(3_000))
        .unwrap();
    assert_eq!(analysis.moves.len(), 3);
    assert!(analysis.moves.windows(2).all(|w| w[0].score >= w[1].score));
    let mut finished = state.clone();
    finished["swaps_left"] = json!(0);
    assert!(matches!(
        game.play(&finished, &json!("0001")).unwrap_err(),
        GameError::GameOver { .. }
    ));
    assert_eq!(
        game.legal_moves(&finished).unwrap().outcome,
        json!({"status": "finished", "termination": "swaps_used", "score": {"player": 0}})
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_games_keep_the_invariants(k in 4u8..=7, seed in any::<u32>(), picks in prop::collection::vec(0usize..180, 1..25)) {
        let mut state = Crush::new_seeded(k, seed);
        for pick in picks {
            let swap = ALL_SWAPS[pick];
            let as_text = Crush::parse_move(&state, &json!(swap.notation())).unwrap();
            let as_object = Crush::parse_move(&state, &Crush::move_to_json(&state, &swap)).unwrap();
            prop_assert_eq!(as_text, swap);
            prop_assert_eq!(as_object, swap);
            let after = Crush::apply(&state, &swap);
            prop_assert_eq!(after.swaps_left + 1, state.swaps_left);
            prop_assert!(after.score >= state.score);
            prop_assert!(after.board.cells().iter().all(|&d| (1..=k).contains(&d)));
            prop_assert!(after.board.is_settled());
            prop_assert_eq!(State::from_json(&after.to_json()).unwrap(), after.clone());
            state = after;
        }
    }

    #[test]
    fn settling_only_the_lines_that_changed_finds_every_run(k in 4u8..=7, seed in any::<u32>(), pick in 0usize..180) {
        let state = Crush::new_seeded(k, seed);
        let swap = ALL_SWAPS[pick];
        let (mut fast, mut full) = (state.board, state.board);
        let (mut rng_fast, mut rng_full) = (state.rng, state.rng);
        let mut steps_fast = Vec::new();
        let mut steps_full = Vec::new();
        let points_fast = fast.swap_and_settle(swap.a(), swap.b(), &mut GameRefill { rng: &mut rng_fast, k }, |r| steps_fast.push(r.as_slice().to_vec()));
        full.swap(swap.a(), swap.b());
        let points_full = full.settle(&mut GameRefill { rng: &mut rng_full, k }, |r| steps_full.push(r.as_slice().to_vec()));
        prop_assert_eq!(points_fast, points_full);
        prop_assert_eq!(steps_fast, steps_full);
        prop_assert_eq!(fast, full);
        prop_assert_eq!(rng_fast, rng_full);
    }

    #[test]
    fn streaks_score_every_swap_like_the_direct_count(k in 4u8..=7, seed in any::<u32>(), pick in 0usize..180) {
        let state = Crush::new_seeded(k, seed);
        let mut board = state.board;
        // A board with unknown cells too, as bots see after a swap.
        board.swap_and_settle(ALL_SWAPS[pick].a(), ALL_SWAPS[pick].b(), &mut Unseen, |_| {});
        for b in [state.board, board] {
            let streaks = bots::Streaks::of(&b);
            for swap in ALL_SWAPS {
                prop_assert_eq!(streaks.immediate_points(&b, swap), bots::immediate_points(&b, swap), "{:?}", swap);
            }
        }
    }

    #[test]
    fn swaps_that_are_not_listed_are_refused(a in 0usize..100, b in 0usize..100) {
        let text = format!("{a:02}{b:02}");
        let listed = ALL_SWAPS.iter().any(|s| (s.a(), s.b()) == (a.min(b), a.max(b)));
        prop_assert_eq!(Swap::parse_notation(&text).is_ok(), listed);
    }
}

#[test]
fn the_top_two_leaf_sees_the_two_best_swaps() {
    let b = board([
        "11211.....",
        "..1.......",
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        "3343......",
    ]);
    // 0212 makes a row of five (25); 0203 and 9293 a row of three (9) each.
    assert_eq!(bots::top_two_gains(&b), (25, 9));
    assert_eq!(bots::greedy(&b).1, 25);
    assert_eq!(bots::top_two_gains(&board([EMPTY; SIDE])), (0, 0));
}

#[test]
fn strong_takes_depth_and_refuses_the_research_knobs() {
    let state = Crush::new_seeded(4, 3);
    let run = |name: &str| {
        let level = LevelSpec::parse(name).unwrap();
        let budget = Budget::unlimited().nodes(1_500);
        Crush::choose_move(&state, &level, &BotParams::seeded(2), &budget)
    };
    assert!(ALL_SWAPS.contains(&run("strong:depth=2").unwrap().mv));
    // Research settings go through bots::StrongConfig, not level options.
    for knob in [
        "leaf=100",
        "leafkind=2",
        "second=70",
        "rounds=9",
        "policy=0",
        "halve=0",
    ] {
        assert!(
            matches!(
                run(&format!("strong:{knob}")),
                Err(GameError::InvalidOption { .. })
            ),
            "{knob}"
        );
    }
}

mod records {
    use super::*;
    use crate::game::record::checks::{fails_at, round_trips};

    /// The recorded course game as one record: its swaps joined with spaces.
    fn course_record() -> String {
        let swaps = crate::test_data::text("crush/course-game.txt");
        let words: Vec<&str> = swaps
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(str::trim)
            .collect();
        words.join(" ")
    }

    #[test]
    fn the_course_game_as_a_record_replays_to_its_total() {
        let record = course_record();
        assert!(record.starts_with("3040 6061 4849 5758"), "{record}");
        let replay = crate::game::record::replay_record::<Crush>(
            Crush::new_course(),
            &record,
            crate::game::record::MAX_REPLAY_MOVES,
        )
        .unwrap();
        assert_eq!(replay.moves.len(), 100);
        assert_eq!(
            replay.outcome(),
            Outcome::Finished {
                termination: super::CrushTermination::SwapsUsed,
                points: RECORDED_TOTAL
            }
        );
        assert_eq!(replay.record(), record);
    }

    #[test]
    fn a_swap_is_written_smaller_cell_first() {
        let start = Crush::new_course();
        let moves = Crush::read_record(&start, " 4030\t6160\n").unwrap();
        assert_eq!(Crush::write_record(&start, &moves), "3040 6061");
    }

    #[test]
    fn random_games_read_back() {
        round_trips::<Crush>(&Crush::new_seeded(5, 7), 31, 12, 110);
    }

    #[test]
    fn a_bad_swap_is_reported_with_its_index() {
        let start = Crush::new_course();
        fails_at::<Crush>(
            &start,
            "3040 1111",
            1,
            "1111",
            "a swap needs two different cells",
        );
        fails_at::<Crush>(&start, "3040 6061 12", 2, "12", "'12' is not four digits");
        fails_at::<Crush>(&start, "3040 6062", 1, "6062", "not adjacent");
        let over = format!("{} 3040", course_record());
        fails_at::<Crush>(&start, &over, 100, "3040", "finished with a score of 16478");
    }
}
