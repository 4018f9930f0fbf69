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
    // Without the book, which answers this opening without a search.
    let level = LevelSpec::parse("strong:book=0").unwrap();
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

/// `strong` at a fixed depth, with its ProbCut confidence (`0`: none).
fn strong_at_depth(state: &State, probcut: u32, depth: u32) -> crate::game::BotChoice<Move> {
    let level = LevelSpec::parse(&format!("strong:probcut={probcut}")).unwrap();
    let params = crate::game::BotParams::seeded(1);
    Reversi::choose_move(state, &level, &params, &Budget::unlimited().depth(depth)).unwrap()
}

#[test]
fn probcut_searches_the_same_depth_in_fewer_positions() {
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    let (mut full, mut selective, mut same_move) = (0, 0, 0);
    let mut positions = 0;
    while positions < 12 {
        let Some(board) = random_position(&mut rng, 30 + positions) else {
            continue;
        };
        positions += 1;
        let state = State::from_board(board, Side::First);
        let plain = strong_at_depth(&state, 0, 7);
        let cut = strong_at_depth(&state, 15, 7);
        assert_eq!(plain.report.depth, Some(7));
        assert_eq!(cut.report.depth, Some(7));
        full += plain.report.nodes.unwrap();
        selective += cut.report.nodes.unwrap();
        same_move += u32::from(plain.mv == cut.mv);
    }
    assert!(
        selective * 10 < full * 8,
        "selective {selective} vs full {full}"
    );
    // Cuts are taken where a shallow search is confident, so the move
    // mostly stays the full search's.
    assert!(same_move >= 8, "{same_move} of 12 moves the same");
}

#[test]
fn probcut_never_changes_a_proven_answer() {
    for (_, state, best_score, _) in ffo_positions(16).into_iter().take(3) {
        for probcut in [0, 10, 40] {
            let level = LevelSpec::parse(&format!("strong:probcut={probcut}")).unwrap();
            let params = crate::game::BotParams::seeded(0);
            let choice =
                Reversi::choose_move(&state, &level, &params, &Budget::unlimited()).unwrap();
            assert_eq!(choice.report.proven, Some(true));
            assert_eq!(choice.report.score, Some(best_score), "probcut={probcut}");
        }
    }
}

#[test]
fn the_probcut_option_is_a_confidence_in_tenths() {
    let state = State::start();
    let params = crate::game::BotParams::seeded(0);
    let budget = Budget::unlimited().depth(3);
    for ok in ["strong:probcut=0", "strong:probcut=25", "strong:probcut=40"] {
        let level = LevelSpec::parse(ok).unwrap();
        assert!(
            Reversi::choose_move(&state, &level, &params, &budget).is_ok(),
            "{ok}"
        );
    }
    for bad in [
        "strong:probcut=41",
        "strong:probcut=1.5",
        "strong:probcut=-1",
    ] {
        let level = LevelSpec::parse(bad).unwrap();
        let error = Reversi::choose_move(&state, &level, &params, &budget).unwrap_err();
        assert!(error.to_string().contains("probcut"), "{bad}: {error}");
        assert!(error.to_string().contains("0 to 40"), "{bad}: {error}");
    }
}

#[test]
fn strong_plays_the_opening_from_its_book_drawn_by_the_seed() {
    let state = State::start();
    let level = LevelSpec::parse("strong").unwrap();
    let budget = Budget::with_time_ms(50);
    let mut first_moves = std::collections::BTreeSet::new();
    for seed in 0..24 {
        let params = crate::game::BotParams::seeded(seed);
        let choice = Reversi::choose_move(&state, &level, &params, &budget).unwrap();
        assert_eq!(choice.report.stopped_by, Some(StopReason::Book));
        assert_eq!(choice.report.nodes, Some(0));
        let again = Reversi::choose_move(&state, &level, &params, &budget).unwrap();
        assert_eq!(
            again.mv, choice.mv,
            "the same seed plays the same book move"
        );
        first_moves.insert(format!("{:?}", choice.mv));
    }
    // The four first moves are one move turned four ways: the seed draws among them.
    assert!(first_moves.len() >= 2, "{first_moves:?}");
    let searched = LevelSpec::parse("strong:book=0").unwrap();
    let params = crate::game::BotParams::seeded(0);
    let choice = Reversi::choose_move(&state, &searched, &params, &budget).unwrap();
    assert_ne!(choice.report.stopped_by, Some(StopReason::Book));
    assert!(choice.report.nodes.unwrap() > 0);
}

#[test]
fn book_moves_follow_the_books_scores_and_only_the_top_numbered_level_uses_it() {
    let book = super::super::bots::book::shipped();
    let mut state = State::start();
    let params = crate::game::BotParams::seeded(3);
    let level = LevelSpec::parse("strong").unwrap();
    let budget = Budget::unlimited().depth(2);
    let mut book_plies = 0;
    while let Some(moves) = book.moves(state.board()) {
        let choice = Reversi::choose_move(&state, &level, &params, &budget).unwrap();
        assert_eq!(choice.report.stopped_by, Some(StopReason::Book));
        let Move::Place(sq) = choice.mv else {
            panic!("a book move is a placement");
        };
        let value = moves
            .iter()
            .find(|m| m.square == u32::from(sq))
            .unwrap()
            .value;
        assert!(
            value >= moves[0].value - 100,
            "{value} vs best {}",
            moves[0].value
        );
        assert_eq!(choice.report.score, Some(i64::from(value)));
        state = state.apply(choice.mv);
        book_plies += 1;
    }
    assert!(
        book_plies >= 4,
        "the book's main line is {book_plies} plies"
    );
    let top = <Reversi as crate::game::Ladder>::LADDER.len() as u8;
    for rung in [7, 9, 10, 11, top] {
        let level = crate::game::ladder::AnyLevel::Numbered(rung);
        let choice = crate::game::ladder::choose::<Reversi>(
            &State::start(),
            &level,
            &params,
            &Budget::unlimited(),
        )
        .unwrap();
        assert_eq!(
            choice.report.stopped_by == Some(StopReason::Book),
            rung == top,
            "level {rung}: {:?}",
            choice.report.stopped_by
        );
    }
}

/// A position where black's d1 takes white's last discs.
fn wipeout_position() -> State {
    let start = State::start();
    let opening = Reversi::read_record(&start, "d3e3f6c4b3c2e2d2").unwrap();
    opening.into_iter().fold(start, |state, mv| state.apply(mv))
}

#[test]
fn a_node_capped_strong_ends_where_one_move_wipes_the_opponent_out() {
    // Every other root move fails low at once and selective search cuts
    // the rest, so the iterations used to deepen until exact solves of
    // 40-odd empties started inside the tree, whose ordering searches ran
    // for minutes under a cap with no deadline (the ladder's top). The
    // wipeout now settles the search; `a_node_cap_ends_the_ordering_searches_too`
    // keeps the cap's own check.
    let state = wipeout_position();
    let level = LevelSpec::parse("strong:solve=20,solve_nodes=60000000").unwrap();
    let params = crate::game::BotParams::seeded(0);
    let budget = Budget::unlimited().nodes(2_500_000);
    let choice = Reversi::choose_move(&state, &level, &params, &budget).unwrap();
    let d1 = crate::games::reversi::board::parse_square("d1").unwrap();
    assert_eq!(choice.mv, Move::Place(d1 as u8));
}

#[test]
fn a_timed_strong_plays_a_wipeout_at_once_as_a_proven_result() {
    let state = wipeout_position();
    let level = LevelSpec::parse("strong").unwrap();
    let params = crate::game::BotParams::seeded(0);
    let choice =
        Reversi::choose_move(&state, &level, &params, &Budget::with_time_ms(60_000)).unwrap();
    let d1 = crate::games::reversi::board::parse_square("d1").unwrap();
    assert_eq!(choice.mv, Move::Place(d1 as u8));
    let report = choice.report;
    assert_eq!(report.stopped_by, Some(StopReason::Proven));
    assert_eq!(report.proven, Some(true));
    assert_eq!(report.score, Some(64));
    // Settled by the first iterations, not by a minute of deeper ones.
    assert!(report.depth.unwrap() <= 4, "{report:?}");
}

#[test]
fn an_analysis_of_a_wipeout_still_searches_every_move_deeper() {
    // Only a move choice stops at the wipeout: an analysis goes on to
    // score the other moves.
    let state = wipeout_position();
    let analysis = Reversi::analyze(
        &state,
        3,
        &crate::game::BotParams::seeded(0),
        &Budget::unlimited().depth(6),
    )
    .unwrap();
    assert_eq!(analysis.report.depth, Some(6));
    assert_eq!(analysis.moves.len(), 3);
}
