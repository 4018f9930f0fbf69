//! Levels.

use super::*;

#[test]
fn every_level_passes_when_it_must() {
    let state = state_of(
        &[
            "BBBBBBBB", "BBBBBBBB", "BBBBBBBB", "BBBBBBBB", "BBBBBBBB", "BBBBBBW.", "BBBBBB..",
            "BBBBBBB.",
        ],
        "white",
    );
    use crate::game::Level;
    for level in crate::games::reversi::ReversiLevel::ALL
        .iter()
        .map(|def| def.id)
    {
        for budget in [Budget::unlimited(), Budget::with_time_ms(50)] {
            let choice = Reversi::choose_move(
                &state,
                &LevelSpec::parse(level).unwrap(),
                &crate::game::BotParams::seeded(3),
                &budget,
            )
            .unwrap();
            assert_eq!(choice.mv, Move::Pass, "{level}");
        }
    }
    let analysis = Reversi::analyze(
        &state,
        3,
        &crate::game::BotParams::seeded(0),
        &Budget::unlimited(),
    )
    .unwrap();
    assert_eq!(analysis.moves.len(), 1);
    assert_eq!(analysis.moves[0].mv, Move::Pass);
    assert_eq!(analysis.report.proven, Some(true));
}

#[test]
fn midgame_analysis_lists_the_best_moves_with_legal_lines() {
    let state = State::start().apply(Move::Place(19)).apply(Move::Place(18));
    let budget = Budget::unlimited().depth(5);
    let analysis =
        Reversi::analyze(&state, 3, &crate::game::BotParams::seeded(0), &budget).unwrap();
    assert_eq!(analysis.moves.len(), 3);
    assert_eq!(analysis.report.depth, Some(5));
    assert_eq!(analysis.report.proven, Some(false));
    // The list is in the order of the deepest iteration's own scores; the
    // scores reported are two-depth averages (docs/SCORE-STABILITY.md),
    // which may cross by a fraction.
    let plan = crate::games::reversi::bots::strong_plan(&budget, 3, Default::default());
    let thought = crate::games::reversi::bots::engine::think(state.board(), &budget, plan);
    let searched: Vec<Move> = thought.lines[..3]
        .iter()
        .map(|line| line.square.map_or(Move::Pass, |sq| Move::Place(sq as u8)))
        .collect();
    let listed: Vec<Move> = analysis.moves.iter().map(|m| m.mv).collect();
    assert_eq!(listed, searched);
    assert!(thought.lines[..3]
        .windows(2)
        .all(|w| w[0].score >= w[1].score));
    for scored in &analysis.moves {
        assert!(scored.exact.is_none());
        assert!(!scored.pv.is_empty() && scored.pv[0] == scored.mv);
        let mut current = state;
        for mv in &scored.pv {
            let mut legal = Vec::new();
            current.legal_moves(&mut legal);
            assert!(legal.contains(mv), "{mv:?} in {:?}", scored.pv);
            current = current.apply(*mv);
        }
    }
    // The best move is the one `strong` plays at the same depth (searching,
    // not from its book).
    let choice = Reversi::choose_move(
        &state,
        &LevelSpec::parse("strong:book=0").unwrap(),
        &crate::game::BotParams::seeded(0),
        &budget,
    )
    .unwrap();
    assert_eq!(choice.report.score, Some(analysis.moves[0].score));
}

#[test]
fn a_spent_deadline_still_gets_every_move_scored_at_depth_one() {
    // Queueing can use up a request's time before the search starts; the
    // answer then still lists `top` scored moves rather than one guess.
    let state = State::start();
    let budget = Budget::with_time_ms(0);
    let analysis =
        Reversi::analyze(&state, 3, &crate::game::BotParams::seeded(0), &budget).unwrap();
    assert_eq!(analysis.moves.len(), 3);
    assert_eq!(analysis.report.depth, Some(1));
    let again = Reversi::analyze(&state, 3, &crate::game::BotParams::seeded(0), &budget).unwrap();
    let notation =
        |a: &crate::game::Analysis<Move>| a.moves.iter().map(|m| m.mv).collect::<Vec<_>>();
    assert_eq!(notation(&analysis), notation(&again));
}
