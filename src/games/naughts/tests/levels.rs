//! Levels.

use super::*;

pub(super) fn bot(state: &State, level: &str, seed: u64) -> BotChoice<Move> {
    let spec = LevelSpec::parse(level).unwrap();
    let choice =
        Naughts::choose_move(state, &spec, &BotParams::seeded(seed), &Budget::unlimited()).unwrap();
    BotChoice {
        mv: placed(choice.mv),
        report: choice.report,
    }
}

#[test]
fn random_is_seeded() {
    let state = State::new(4, 7);
    let a = bot(&state, "random", 7).mv;
    assert_eq!(a, bot(&state, "random", 7).mv);
    let distinct: std::collections::HashSet<_> =
        (0..20).map(|s| bot(&state, "random", s).mv).collect();
    assert!(distinct.len() > 5);
}

#[test]
fn greedy_wins_then_blocks() {
    // O to move can win on the top row.
    let state = ["1 1 1", "3 1 1", "1 2 2", "3 2 2"]
        .iter()
        .fold(State::new(3, 5), |s, m| play(&s, m));
    for seed in 0..10 {
        let mv = bot(&state, "greedy", seed).mv;
        assert!(state.apply(&mv).winner() == Some(O), "seed {seed}: {mv:?}");
    }
    // X to move must stop O's top row (O1 O2 .), by the empty cell or by covering.
    let state = ["1 1 1", "3 1 1", "1 2 2"]
        .iter()
        .fold(State::new(3, 5), |s, m| play(&s, m));
    for seed in 0..20 {
        let mv = bot(&state, "greedy", seed).mv;
        let after = state.apply(&mv);
        assert!(
            moves_of(&after)
                .iter()
                .all(|m| after.apply(m).winner().is_none()),
            "seed {seed}: {mv:?}"
        );
    }
}

#[test]
fn perfect_takes_an_immediate_win_and_reports_it() {
    let state = ["1 1 1", "3 1 1", "1 2 2", "3 2 2"]
        .iter()
        .fold(State::new(3, 5), |s, m| play(&s, m));
    let choice = bot(&state, "perfect", 0);
    assert_eq!(state.apply(&choice.mv).winner(), Some(O));
    assert_eq!(choice.report.proven, Some(true));
    assert_eq!(choice.report.stopped_by, Some(StopReason::Proven));
    assert_eq!(choice.report.notes["value"], json!("win in 1"));
}

#[test]
fn perfect_respects_tiny_budgets_on_big_grids() {
    let state = State::new(8, 9);
    let spec = LevelSpec::parse("perfect").unwrap();
    let budget = Budget::unlimited().nodes(2_000);
    let choice = Naughts::choose_move(&state, &spec, &BotParams::seeded(1), &budget).unwrap();
    assert!(state.allows(&placed(choice.mv)));
    assert_eq!(choice.report.proven, Some(false));
    let again = Naughts::choose_move(&state, &spec, &BotParams::seeded(1), &budget).unwrap();
    assert_eq!(again.mv, choice.mv, "node budgets are deterministic");
    let timed = Budget::with_time_ms(30);
    let choice = Naughts::choose_move(&state, &spec, &BotParams::seeded(1), &timed).unwrap();
    assert!(state.allows(&placed(choice.mv)));
    let deep = Budget::unlimited().depth(1);
    let choice = Naughts::choose_move(&state, &spec, &BotParams::seeded(1), &deep).unwrap();
    assert_eq!(choice.report.depth, Some(1));
    // 3×3 with 9 pieces can take seconds to solve (past the opening book): a
    // short budget still gives a move, and says whether it got to proving it
    // (how far it gets depends on the machine and on what the shared table
    // already holds, so either answer is right as long as it is honest).
    let state = play(&play(&State::new(3, 9), "1 2 8"), "2 2 9");
    assert!(super::super::bots::book::book_move(&state).is_none());
    let short = Budget::with_time_ms(200);
    let choice = Naughts::choose_move(&state, &spec, &BotParams::seeded(1), &short).unwrap();
    assert!(state.allows(&placed(choice.mv)));
    match choice.report.stopped_by {
        Some(StopReason::Time) => assert_eq!(choice.report.proven, Some(false)),
        Some(StopReason::Proven) => assert_eq!(choice.report.proven, Some(true)),
        other => panic!("a timed solve stops for time or proof, not {other:?}"),
    }
}

#[test]
fn levels_reject_options_and_unknown_names() {
    let state = State::new(3, 5);
    let params = BotParams::seeded(0);
    let spec = LevelSpec::parse("perfect:depth=3").unwrap();
    assert!(Naughts::choose_move(&state, &spec, &params, &Budget::unlimited()).is_err());
    assert!(LevelSpec::<super::super::NaughtsLevel>::parse("oracle").is_err());
}

#[test]
fn analyze_gives_exact_values() {
    // X to move must block O's top row; every other move loses at once.
    let state = ["1 1 1", "3 1 1", "1 2 2"]
        .iter()
        .fold(State::new(3, 5), |s, m| play(&s, m));
    let analysis =
        Naughts::analyze(&state, 100, &BotParams::seeded(0), &Budget::unlimited()).unwrap();
    assert_eq!(analysis.report.proven, Some(true));
    assert_eq!(analysis.moves.len(), moves_of(&state).len());
    for scored in &analysis.moves {
        let exact = scored.exact.as_deref().expect("proven");
        assert_eq!(exact, describe(scored.score as i32));
        assert_eq!(scored.pv[0], scored.mv);
        let after = state.play(&scored.mv);
        if moves_of(&after)
            .iter()
            .any(|m| after.apply(m).winner().is_some())
        {
            assert_eq!(exact, "loss in 2", "{:?}", scored.mv);
        }
    }
    let best = &analysis.moves[0];
    assert!(analysis.moves.windows(2).all(|w| w[0].score >= w[1].score));
    assert_ne!(best.exact.as_deref(), Some("loss in 2"));
}

#[test]
fn solver_values_agree_with_a_plain_minimax_on_small_games() {
    // 2×2 with 5 pieces: every position two plies in, solver vs brute force.
    fn minimax(state: &State) -> i32 {
        if state.winner().is_some() {
            return -(solver::WIN);
        }
        let moves = moves_of(state);
        if moves.is_empty() {
            return 0;
        }
        moves
            .iter()
            .map(|mv| {
                let child = state.apply(mv);
                let v = if child.winner().is_some() {
                    -(solver::WIN)
                } else if child.to_move() == state.to_move() {
                    -minimax(&child)
                } else {
                    minimax(&child)
                };
                let v = -v;
                v - v.signum()
            })
            .max()
            .unwrap()
    }
    let start = State::new(2, 5);
    for first in moves_of(&start) {
        let state = start.apply(&first);
        let budget = Budget::unlimited();
        let solution = Solver::new(2, &budget, 12).solve(&state, true);
        let expected = minimax(&state);
        assert_eq!(solution.moves[0].score, expected, "after {first:?}");
        assert!(solution.moves.iter().all(|r| r.proven));
    }
}
