//! Levels.

use super::text_forms::{fixtures, state_of};
use super::*;

fn bot(state: &State, level: &str, params: &BotParams<HalmaOptions>, budget: &Budget) -> Move {
    let spec = LevelSpec::parse(level).unwrap();
    let choice = Halma::choose_move(state, &spec, params, budget).unwrap();
    assert!(
        moves(state).contains(&choice.mv),
        "{level} chose an illegal move"
    );
    choice.mv
}

#[test]
fn levels_are_deterministic_given_seed_and_depth() {
    let s = State::start(Side::First, CampRule::Referee);
    let p = BotParams::seeded(42);
    assert_eq!(
        bot(&s, "random", &p, &Budget::unlimited()),
        bot(&s, "random", &p, &Budget::unlimited())
    );
    let budget = Budget::unlimited().depth(2);
    assert_eq!(
        bot(&s, "minimax", &p, &budget),
        bot(&s, "minimax", &p, &budget)
    );
    assert_eq!(
        bot(&s, "strong", &p, &budget),
        bot(&s, "strong", &p, &budget)
    );
    let spec = LevelSpec::parse("minimax:depth=9").unwrap();
    assert!(Halma::choose_move(&s, &spec, &p, &budget).is_err());
    let spec = LevelSpec::parse("strong:colour=red").unwrap();
    assert!(Halma::choose_move(&s, &spec, &p, &budget).is_err());
}

#[test]
fn minimax_prefers_progress() {
    let s = place(&[(7, 7)], &[(0, 15)], Side::First, CampRule::Basic);
    let mv = bot(
        &s,
        "minimax:depth=1",
        &BotParams::seeded(3),
        &Budget::unlimited(),
    );
    assert_eq!(mv.to, cell(8, 8));
}

#[test]
fn strong_takes_an_immediate_win() {
    let ex = &fixtures()["examples"][1];
    let s = state_of(ex);
    let mv = bot(
        &s,
        "strong",
        &BotParams::seeded(5),
        &Budget::with_time_ms(200),
    );
    assert!(Halma::apply(&s, &mv).has_won(Side::Second));
}

#[test]
fn strong_answers_in_time_with_a_nearly_flagged_clock() {
    let s = State::start(Side::First, CampRule::Referee);
    let p = BotParams {
        seed: 9,
        options: HalmaOptions {
            clock: Some(Clock {
                mode: ClockMode::Game,
                time_left_s: 0.01,
            }),
        },
    };
    let started = Instant::now();
    bot(&s, "strong", &p, &Budget::unlimited());
    // Debug builds are slow; the release figure is far lower (see the report).
    assert!(
        started.elapsed().as_secs_f64() < 0.1,
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn the_clock_manager_spends_most_of_a_single_move_and_a_share_of_a_game() {
    let s = State::start(Side::First, CampRule::Referee);
    let single = time_for_move(
        &s,
        Clock {
            mode: ClockMode::Single,
            time_left_s: 1.0,
        },
    );
    assert!(single.as_secs_f64() > 0.7 && single.as_secs_f64() < 0.95);
    let game = time_for_move(
        &s,
        Clock {
            mode: ClockMode::Game,
            time_left_s: 300.0,
        },
    );
    assert!(
        game.as_secs_f64() > 0.5 && game.as_secs_f64() < 10.0,
        "{game:?}"
    );
    let tiny = time_for_move(
        &s,
        Clock {
            mode: ClockMode::Game,
            time_left_s: 0.01,
        },
    );
    assert!(tiny.as_secs_f64() < 0.002);
}

#[test]
fn analyze_returns_scored_lines() {
    let game = crate::games::find("halma").unwrap();
    let state = game.new_game(&Value::Null).unwrap().state;
    let request = crate::game::erased::BotRequest {
        state: crate::game::erased::StateInput::Json(state),
        seed: Some(1),
        ..Default::default()
    };
    let reply = game
        .analyze(&request, 3, &Budget::unlimited().depth(2))
        .unwrap();
    assert_eq!(reply.moves.len(), 3);
    assert!(reply.moves[0].score >= reply.moves[1].score);
    assert!(!reply.moves[0].pv.is_empty());
}
