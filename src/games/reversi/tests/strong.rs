//! Strong.

use super::endgame_solver::ffo_positions;
use super::*;

#[test]
fn strong_solves_the_endgame_and_analyze_gives_exact_lines() {
    let (_, state, best_score, _) = ffo_positions(14).into_iter().next().unwrap();
    let analysis = Reversi::analyze(
        &state,
        3,
        &crate::game::BotParams::seeded(0),
        &Budget::unlimited(),
    )
    .unwrap();
    assert_eq!(analysis.report.proven, Some(true));
    assert_eq!(analysis.moves.len(), 3);
    assert_eq!(analysis.moves[0].score, best_score);
    assert!(analysis.moves[0].exact.is_some());
    assert!(analysis.moves[0].score >= analysis.moves[1].score);
    assert!(analysis.moves[1].score >= analysis.moves[2].score);
    // The line is legal and plays out to the promised score.
    let mut current = state;
    for mv in &analysis.moves[0].pv {
        let mut legal = Vec::new();
        current.legal_moves(&mut legal);
        assert!(legal.contains(mv), "{mv:?}");
        current = current.apply(*mv);
    }
    let mover_final = State::from_board(current.board(), current.to_move);
    let board = mover_final.board();
    let score = if current.to_move == state.to_move {
        board.final_score()
    } else {
        -board.final_score()
    };
    assert!(board.is_over());
    assert_eq!(i64::from(score), best_score);
}

#[test]
fn strong_answers_under_tiny_budgets_and_node_caps_deterministically() {
    let state = State::start().apply(Move::Place(19));
    let level = LevelSpec::parse("strong").unwrap();
    let params = crate::game::BotParams::seeded(1);
    let choice = Reversi::choose_move(&state, &level, &params, &Budget::with_time_ms(0)).unwrap();
    let mut legal = Vec::new();
    state.legal_moves(&mut legal);
    assert!(legal.contains(&choice.mv));
    let capped = |nodes| {
        Reversi::choose_move(&state, &level, &params, &Budget::unlimited().nodes(nodes)).unwrap()
    };
    let a = capped(5000);
    let b = capped(5000);
    assert_eq!(a.mv, b.mv);
    assert_eq!(a.report.nodes, b.report.nodes);
    let deep =
        Reversi::choose_move(&state, &level, &params, &Budget::unlimited().depth(4)).unwrap();
    assert_eq!(deep.report.depth, Some(4));
}
