//! Strength.

use super::levels::bot;
use super::*;

/// Plays a whole game between two levels and returns the final state.
fn match_game(levels: [&str; 2], seed: u64, grid: u8, pieces: u8) -> State {
    let mut state = State::new(grid, pieces);
    let mut ply = 0;
    while !Naughts::outcome(&state).is_over() {
        let level = levels[state.to_move().index()];
        let mv = bot(&state, level, seed * 1_000 + ply).mv;
        state = state.apply(&mv);
        ply += 1;
    }
    state
}

#[test]
fn perfect_never_loses_to_random_or_greedy() {
    for opponent in ["random", "greedy"] {
        let mut results = [0; 3];
        for game in 0..200u64 {
            let perfect = if game % 2 == 0 { O } else { X };
            let mut levels = [opponent; 2];
            levels[perfect.index()] = "perfect";
            let end = match_game(levels, game, 3, 5);
            match end.winner() {
                Some(w) if w == perfect => results[0] += 1,
                None => results[1] += 1,
                Some(_) => panic!(
                    "perfect lost game {game} to {opponent}: {:?}",
                    Naughts::state_to_json(&end)
                ),
            }
        }
        assert_eq!(results[0] + results[1], 200, "{opponent}: {results:?}");
        assert!(
            results[0] > 100,
            "perfect should beat {opponent} most of the time: {results:?}"
        );
    }
}

#[test]
fn perfect_self_play_draws_on_the_classic_board() {
    let end = match_game(["perfect", "perfect"], 1, 3, 5);
    assert!(end.is_stalemate(), "{:?}", Naughts::state_to_json(&end));
}

/// The exact value of `state` for the side to move by plain memoised negamax
/// (no pruning, no symmetry): the reference the solver is checked against.
fn brute_force(state: &State, memo: &mut std::collections::HashMap<u64, i32>) -> i32 {
    let key = state.cells[..9]
        .iter()
        .enumerate()
        .fold(0u64, |k, (i, c)| k | (c.code() as u64) << (5 * i))
        | (state.hands[0] as u64) << 45
        | (state.hands[1] as u64) << 55;
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let value = moves_of(state)
        .iter()
        .map(|mv| move_value(state, mv, memo))
        .max()
        .expect("not over");
    memo.insert(key, value);
    value
}

/// The exact value of playing `mv` in `state`, for its mover, counted in plies from `state`.
fn move_value(state: &State, mv: &Move, memo: &mut std::collections::HashMap<u64, i32>) -> i32 {
    let child = state.apply(mv);
    let stretch = |v: i32| match v {
        v if v >= solver::WIN - 100 => v - 1,
        v if v <= -(solver::WIN - 100) => v + 1,
        v => v,
    };
    if child.winner().is_some() {
        solver::WIN - 1
    } else if child.is_stalemate() {
        0
    } else if child.to_move() == state.to_move() {
        stretch(brute_force(&child, memo))
    } else {
        stretch(-brute_force(&child, memo))
    }
}

/// Every move's analysed value equals plain minimax, on positions reached by
/// a few random moves (the full 3×3 tree is too big for the memo). Release:
/// `cargo test --release --lib games::naughts::tests::analysis_matches -- --ignored`.
#[test]
#[ignore = "slow in debug builds: cargo test --release --lib games::naughts::tests::analysis_matches -- --ignored"]
fn analysis_matches_brute_force_on_3x3() {
    let mut checked = 0;
    let mut kinds = std::collections::BTreeMap::new();
    for (pieces, plies) in [(5u8, 3u64), (5, 4), (6, 6), (7, 8)] {
        for seed in 0..10 {
            let mut state = State::new(3, pieces);
            for ply in 0..plies {
                if Naughts::outcome(&state).is_over() {
                    break;
                }
                state = state.apply(&bot(&state, "random", seed * 10 + ply).mv);
            }
            if Naughts::outcome(&state).is_over() {
                continue;
            }
            let mut memo = std::collections::HashMap::new();
            let analysis =
                Naughts::analyze(&state, 100, &BotParams::seeded(0), &Budget::unlimited()).unwrap();
            assert_eq!(analysis.moves.len(), moves_of(&state).len());
            for scored in &analysis.moves {
                let expected = move_value(&state, &placed(scored.mv), &mut memo);
                assert_eq!(
                    scored.score as i32, expected,
                    "{pieces} pieces seed {seed} {:?}",
                    scored.mv
                );
                assert_eq!(scored.exact.as_deref(), Some(describe(expected).as_str()));
            }
            let best = bot(&state, "perfect", 0);
            assert_eq!(best.report.score, Some(analysis.moves[0].score));
            checked += analysis.moves.len();
            for scored in &analysis.moves {
                let kind = describe(scored.score as i32);
                *kinds
                    .entry(kind.split(" in ").next().unwrap().to_string())
                    .or_insert(0) += 1;
            }
        }
    }
    println!("{checked} moves agree with brute force: {kinds:?}");
}

/// `perfect` against itself draws on 3×3 with 6 to 9 pieces a side, the value
/// of the empty board (the book's; 5 pieces are checked by
/// `perfect_self_play_draws_on_the_classic_board`). The solve times are
/// criterion's: `cargo bench -p gamebot-benches --bench naughts -- empty`.
#[test]
fn perfect_self_play_draws_with_more_pieces() {
    for pieces in 6..=9 {
        let (_, value) =
            super::super::bots::book::book_move(&State::new(3, pieces)).expect("in the book");
        assert_eq!(value, 0, "{pieces} pieces");
        let end = match_game(["perfect", "perfect"], 7, 3, pieces);
        assert!(
            end.is_stalemate(),
            "{pieces} pieces: {:?}",
            Naughts::state_to_json(&end)
        );
    }
}

#[test]
fn perft_counts() {
    let start = State::new(3, 5);
    // Depth 2 by hand: after O's size s on one of 9 cells, X has 8 × 5 moves
    // elsewhere and 5 - s on top of it: 9 × Σ (45 - s) = 1890.
    let counts: Vec<u64> = (1..=3)
        .map(|d| crate::game::perft::<Naughts>(&start, d))
        .collect();
    assert_eq!(counts, vec![45, 1890, 59_850]);
}

/// The checked-in book is what its generator writes (`cargo run --release -p
/// gamebot-research --bin naughts_opening_book`, through
/// [`super::super::bots::book::opening_book_lines`]): its header names that command, and its
/// lines start with those for 6 pieces, solved again here (the 7 to 9 pieces
/// take too long for a debug build).
#[test]
fn the_opening_book_is_what_its_generator_writes() {
    let book = include_str!("../bots/opening_book.txt");
    assert_eq!(
        book.lines().nth(1),
        Some("# Regenerate: cargo run --release -p gamebot-research --bin naughts_opening_book")
    );
    let lines: Vec<&str> = book.lines().filter(|l| !l.starts_with('#')).collect();
    let six: Vec<String> = super::super::bots::book::opening_book_lines(6).collect();
    assert!(six.len() > 1, "{six:?}");
    assert_eq!(lines[..six.len()], six, "regenerate the book");
    // The rest, for 7 to 9 pieces, hold one line per position.
    let keys: std::collections::HashSet<&str> = lines.iter().map(|l| &l[..16]).collect();
    assert_eq!(keys.len(), lines.len());
}

#[test]
fn the_opening_book_answers_with_legal_proven_moves() {
    for pieces in 6..=9u8 {
        let start = State::new(3, pieces);
        for state in std::iter::once(start).chain(moves_of(&start).iter().map(|mv| start.apply(mv)))
        {
            if let Some((mv, score)) = super::super::bots::book::book_move(&state) {
                assert!(state.allows(&mv));
                assert!(score.abs() < solver::WIN);
                let choice = bot(&state, "perfect", 0);
                assert_eq!(choice.mv, mv);
                assert_eq!(choice.report.notes["book"], json!(true));
            }
        }
    }
}
