//! Tests of the rules, the fixtures (perft, FFO), the levels and the JSON view.

use super::board::{flips, moves, stable_discs, Bits, Board};
use super::bots::endgame::Solver;
use super::bots::norvig::{self, final_value, weighted_squares};
use super::notation::Move;
use super::obf::ObfPosition;
use super::state::State;
use super::{Reversi, ReversiTermination};
use crate::game::erased::{BotRequest, StateInput, TextParams};
use crate::game::{perft, Bots, Budget, Codec, GameError, LevelSpec, Outcome, Rules, Side};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

fn fixture(name: &str) -> Value {
    crate::test_data::json(&format!("reversi/{name}"))
}

fn state_of(lines: &[&str], to_move: &str) -> State {
    Reversi::state_from_json(&json!({"board": lines, "to_move": to_move})).unwrap()
}

/// A position reached by random moves from the start with exactly `empties`
/// empty squares and the game not over, or `None` if the game ended first.
fn random_position(rng: &mut ChaCha8Rng, empties: u32) -> Option<Board> {
    let mut board = Board::start();
    while board.empties() > empties {
        let moves = board.moves();
        if moves == 0 {
            if board.opp_moves() == 0 {
                return None;
            }
            board = board.pass();
            continue;
        }
        let all: Vec<u32> = Bits(moves).collect();
        board = board.play(all[rng.random_range(0..all.len())]);
    }
    (!board.is_over()).then_some(board)
}

/// Reference move generation: walk each direction square by square.
fn slow_flips(me: u64, opp: u64, sq: u32) -> u64 {
    if (me | opp) & (1 << sq) != 0 {
        return 0;
    }
    let mut all = 0;
    for (dc, dr) in [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (-1, -1),
        (1, -1),
        (-1, 1),
    ] {
        let (mut c, mut r) = ((sq % 8) as i32 + dc, (sq / 8) as i32 + dr);
        let mut run = 0u64;
        while (0..8).contains(&c) && (0..8).contains(&r) {
            let bit = 1u64 << (r * 8 + c);
            if opp & bit != 0 {
                run |= bit;
            } else {
                if me & bit != 0 {
                    all |= run;
                }
                break;
            }
            c += dc;
            r += dr;
        }
    }
    all
}

// ---------------------------------------------------------------- rules

#[test]
fn bitboard_moves_and_flips_match_a_square_by_square_walk() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for _ in 0..300 {
        let empties = rng.random_range(4..58);
        let Some(board) = random_position(&mut rng, empties) else {
            continue;
        };
        let mut expected_moves = 0;
        for sq in Bits(board.empty()) {
            let slow = slow_flips(board.me, board.opp, sq);
            assert_eq!(
                flips(board.me, board.opp, sq),
                slow,
                "{board:?} square {sq}"
            );
            if slow != 0 {
                expected_moves |= 1 << sq;
            }
        }
        assert_eq!(moves(board.me, board.opp), expected_moves);
    }
}

#[test]
fn start_position_and_first_moves() {
    let state = Reversi::new_game(Default::default()).unwrap();
    assert_eq!(
        state.lines(),
        vec![
            "........", "........", "........", "...WB...", "...BW...", "........", "........",
            "........"
        ]
    );
    let mut moves = Vec::new();
    Reversi::legal_moves(&state, &mut moves);
    let names: Vec<String> = moves.iter().map(|m| m.notation()).collect();
    assert_eq!(names, vec!["d3", "c4", "f5", "e6"]);
    let after = state.apply(Move::Place(19)); // d3
    assert_eq!(after.to_move, Side::Second);
    assert_eq!(after.lines()[2], "...B....");
    assert_eq!(after.lines()[3], "...BB...");
}

#[test]
fn a_pass_is_the_only_move_when_the_mover_is_stuck() {
    // White has no move: black owns everything around the lone white disc's lines.
    let state = state_of(
        &[
            "BBBBBBBB", "BBBBBBBB", "BBBBBBBB", "BBBBBBBB", "BBBBBBBB", "BBBBBBW.", "BBBBBB..",
            "BBBBBBB.",
        ],
        "white",
    );
    let mut moves = Vec::new();
    Reversi::legal_moves(&state, &mut moves);
    assert_eq!(moves, vec![Move::Pass]);
    assert_eq!(Reversi::outcome(&state), Outcome::Ongoing);
    let err = Reversi::parse_move(&state, &json!("h6")).unwrap_err();
    assert!(err.to_string().contains("must pass"), "{err}");
    assert_eq!(
        Reversi::parse_move(&state, &json!({"square": null})).unwrap(),
        Move::Pass
    );
    assert_eq!(
        Reversi::parse_move(&state, &json!("PASS")).unwrap(),
        Move::Pass
    );
    let black = state.apply(Move::Pass);
    let err = Reversi::parse_move(&black, &json!("pass")).unwrap_err();
    assert!(err.to_string().contains("cannot pass"), "{err}");
}

#[test]
fn the_game_ends_when_neither_side_can_move() {
    let full_black = state_of(&["BBBBBBBB"; 8], "white");
    let mut moves = Vec::new();
    Reversi::legal_moves(&full_black, &mut moves);
    assert!(moves.is_empty());
    assert_eq!(
        Reversi::outcome(&full_black),
        Outcome::Win {
            winner: Side::First,
            reason: "neither side can move; black 64, white 0".into(),
            termination: ReversiTermination::NoMoves,
            score: [64, 0],
        }
    );
    let draw = state_of(
        &[
            "BBBBBBBB", "BBBBBBBB", "BBBBBBBB", "BBBBBBBB", "WWWWWWWW", "WWWWWWWW", "WWWWWWWW",
            "WWWWWWWW",
        ],
        "black",
    );
    assert!(matches!(
        Reversi::outcome(&draw),
        Outcome::Draw {
            termination: ReversiTermination::NoMoves,
            score: [32, 32],
            ..
        }
    ));
    // Empty squares left, but nobody can move: over too.
    let stuck = state_of(
        &[
            "B.......", "........", "........", "........", "........", "........", "........",
            ".......W",
        ],
        "black",
    );
    assert!(matches!(
        Reversi::outcome(&stuck),
        Outcome::Draw {
            termination: ReversiTermination::NoMoves,
            score: [1, 1],
            ..
        }
    ));
    assert_eq!(stuck.board().final_score(), 0);
    let lone = state_of(
        &[
            "BB......", "........", "........", "........", "........", "........", "........",
            ".......W",
        ],
        "white",
    );
    assert_eq!(lone.board().final_score(), -(2 - 1 + 61));
}

#[test]
fn a_finished_game_s_json_outcome_names_its_termination_and_counts_discs() {
    let game = crate::games::find("reversi").unwrap();
    let mut rows = ["WWWWWWWW"; 8];
    rows[0] = "BBBBBBBB";
    let state = json!({"board": rows, "to_move": "black"});
    assert_eq!(
        game.legal_moves(&state).unwrap().outcome,
        json!({
            "status": "win",
            "winner": "white",
            "reason": "neither side can move; black 8, white 56",
            "termination": "no_moves",
            "score": {"black": 8, "white": 56},
        })
    );
    assert_eq!(
        game.legal_moves(&json!({"board": ["........", "........", "........", "...WB...", "...BW...", "........", "........", "........"], "to_move": "black"}))
            .unwrap()
            .outcome,
        json!({"status": "ongoing"})
    );
}

#[test]
fn stable_discs_are_never_flipped_in_random_games() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..40 {
        let mut state = State::start();
        let (mut stable_black, mut stable_white) = (0u64, 0u64);
        loop {
            stable_black |= stable_discs(state.black, state.white);
            stable_white |= stable_discs(state.white, state.black);
            assert_eq!(state.black & stable_black, stable_black);
            assert_eq!(state.white & stable_white, stable_white);
            let mut moves = Vec::new();
            state.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            state = state.apply(moves[rng.random_range(0..moves.len())]);
        }
    }
}

// ---------------------------------------------------------------- perft

#[test]
fn perft_matches_the_fixture_to_depth_9() {
    let fixture = fixture("perft.json");
    for depth in 1..=9u32 {
        let expected = fixture["counts"][depth.to_string()].as_u64().unwrap();
        assert_eq!(
            super::perft::perft(Board::start(), depth),
            expected,
            "depth {depth}"
        );
    }
}

#[test]
fn portable_and_x86_perft_both_match_the_fixture() {
    let fixture = fixture("perft.json");
    for depth in 0..=8u32 {
        let expected = fixture["counts"]
            .get(depth.to_string())
            .map_or(1, |v| v.as_u64().unwrap());
        assert_eq!(
            super::perft::perft_portable(Board::start(), depth),
            expected,
            "portable, depth {depth}"
        );
        #[cfg(target_arch = "x86_64")]
        assert_eq!(
            super::perft::perft_x86(Board::start(), depth),
            expected,
            "x86, depth {depth}"
        );
    }
}

/// perft from the start at `depth` against the fixture (release builds only:
/// the depths below take from seconds to minutes there and far longer in debug).
fn check_perft_fixture_depth(depth: u32) {
    let expected = fixture("perft.json")["counts"][depth.to_string()]
        .as_u64()
        .unwrap();
    let started = std::time::Instant::now();
    let nodes = super::perft::perft(Board::start(), depth);
    eprintln!(
        "perft({depth}) = {nodes} in {:.2} s",
        started.elapsed().as_secs_f64()
    );
    assert_eq!(nodes, expected, "depth {depth}");
}

#[test]
#[ignore = "release only, about 30 s: cargo test --release --lib games::reversi::tests::perft_13 -- --ignored --nocapture"]
fn perft_13_matches_the_fixture() {
    check_perft_fixture_depth(13);
}

#[test]
#[ignore = "release only, about 5 minutes: cargo test --release --lib games::reversi::tests::perft_14 -- --ignored --nocapture"]
fn perft_14_matches_the_fixture() {
    check_perft_fixture_depth(14);
}

#[test]
fn generic_perft_agrees_at_small_depths() {
    let fixture = fixture("perft.json");
    for depth in 1..=5u32 {
        let expected = fixture["counts"][depth.to_string()].as_u64().unwrap();
        assert_eq!(
            perft::<Reversi>(&State::start(), depth),
            expected,
            "depth {depth}"
        );
    }
}

#[test]
fn fast_and_generic_perft_agree_through_passes_and_game_ends() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for empties in [2, 3, 5, 7] {
        for _ in 0..15 {
            if let Some(board) = random_position(&mut rng, empties) {
                let state = State::from_board(board, Side::First);
                for depth in 0..=empties + 1 {
                    let expected = perft::<Reversi>(&state, depth);
                    assert_eq!(super::perft::perft_portable(board, depth), expected);
                    #[cfg(target_arch = "x86_64")]
                    assert_eq!(super::perft::perft_x86(board, depth), expected);
                }
            }
        }
    }
}

// ---------------------------------------------------------------- JSON and text forms

#[test]
fn states_round_trip_and_bad_states_say_where() {
    let state = State::start();
    let json = Reversi::state_to_json(&state);
    assert_eq!(json["to_move"], "black");
    assert_eq!(Reversi::state_from_json(&json).unwrap(), state);

    let bad = |value: Value| Reversi::state_from_json(&value).unwrap_err();
    let pointer = |e: GameError| match e {
        GameError::InvalidState { pointer, detail } => (pointer, detail),
        other => panic!("{other:?}"),
    };
    let (p, d) = pointer(bad(
        json!({"board": vec!["........"; 7], "to_move": "black"}),
    ));
    assert_eq!(p.as_deref(), Some("/board"));
    assert!(d.contains("8 rows"), "{d}");
    let mut rows = vec!["........"; 8];
    rows[3] = "...WX...";
    let (p, d) = pointer(bad(json!({"board": rows, "to_move": "black"})));
    assert_eq!(p.as_deref(), Some("/board/3"));
    assert!(d.contains("board row 3, column 4 (square e4)"), "{d}");
    rows[3] = "...WB..";
    let (p, d) = pointer(bad(json!({"board": rows, "to_move": "black"})));
    assert_eq!(p.as_deref(), Some("/board/3"));
    assert!(d.contains("7 characters"), "{d}");
    let (p, _) = pointer(bad(json!({"board": vec!["........"; 8], "to_move": "red"})));
    assert_eq!(p.as_deref(), Some("/to_move"));
    let (p, _) = pointer(bad(json!({"board": vec!["........"; 8]})));
    assert_eq!(p.as_deref(), Some("/to_move"));
    let (p, _) = pointer(bad(
        json!({"board": [1, 2, 3, 4, 5, 6, 7, 8], "to_move": "black"}),
    ));
    assert_eq!(p.as_deref(), Some("/board/0"));
    assert!(matches!(bad(json!([1, 2])), GameError::InvalidState { .. }));
    assert!(
        crate::game::read_new_options::<Reversi>(&json!({"size": 10}))
            .and_then(Reversi::new_game)
            .is_err()
    );
}

#[test]
fn moves_parse_as_notation_or_object_and_illegal_ones_say_why() {
    let state = State::start();
    let d3 = Move::Place(19);
    assert_eq!(Reversi::parse_move(&state, &json!("d3")).unwrap(), d3);
    assert_eq!(Reversi::parse_move(&state, &json!("D3")).unwrap(), d3);
    assert_eq!(
        Reversi::parse_move(&state, &json!({"square": "d3"})).unwrap(),
        d3
    );
    assert_eq!(
        Reversi::parse_move(&state, &json!({"notation": "d3"})).unwrap(),
        d3
    );
    assert_eq!(
        Reversi::move_to_json(&state, &d3),
        json!({"square": "d3", "notation": "d3"})
    );
    assert_eq!(
        Reversi::move_to_json(&state, &Move::Pass),
        json!({"square": null, "notation": "pass"})
    );
    for (mv, words) in [
        (json!("d4"), "occupied"),
        (json!("a1"), "flips no white"),
        (json!("pass"), "cannot pass"),
        (json!("z9"), "not a square"),
        (json!(""), "not a square"),
        (json!(42), "notation string"),
        (json!({"square": 3}), "square"),
        (json!({}), "needs"),
    ] {
        let err = Reversi::parse_move(&state, &mv).unwrap_err();
        assert!(
            matches!(err, GameError::IllegalMove { .. }),
            "{mv}: {err:?}"
        );
        assert!(err.to_string().contains(words), "{mv}: {err}");
    }
}

#[test]
fn text_form_reads_boards_with_crlf_and_names_bad_cells() {
    let query = |side: &str| TextParams::from_pairs([("to_move", side)]);
    let body = "........\r\n........\r\n........\r\n...WB...\r\n...BW...\r\n........\r\n........\r\n........\r\n";
    let request = Reversi::parse_text(body, &query("black")).unwrap();
    assert_eq!(request.state, State::start());
    let no_final_newline = body.replace("\r\n", "\n");
    let request = Reversi::parse_text(no_final_newline.trim_end(), &query("white")).unwrap();
    assert_eq!(request.state.to_move, Side::Second);

    let err =
        Reversi::parse_text(&body.replace("...BW...", "...BQ..."), &query("black")).unwrap_err();
    assert!(
        err.to_string().contains("line 5") && err.to_string().contains("column 5"),
        "{err}"
    );
    let err = Reversi::parse_text("........\n", &query("black")).unwrap_err();
    assert!(err.to_string().contains("8 lines"), "{err}");
    let err = Reversi::parse_text(body, &TextParams::default()).unwrap_err();
    assert!(err.to_string().contains("to_move"), "{err}");

    let view = crate::games::find("reversi").unwrap();
    let listed = view.text_legal_moves(body, &query("black")).unwrap();
    assert_eq!(listed, "d3\nc4\nf5\ne6\n");
    let request = BotRequest {
        state: StateInput::Text {
            body: body.to_string(),
            params: query("black"),
        },
        level: Some("norvig:depth=2".into()),
        seed: Some(5),
        ..Default::default()
    };
    let answer = view.prepare_bot(request).unwrap()(&Budget::unlimited())
        .unwrap()
        .text
        .unwrap();
    assert_eq!(answer.lines().count(), 8);
    assert_eq!(answer.matches('B').count(), 4);
}

// ---------------------------------------------------------------- the erased view

#[test]
fn erased_view_plays_and_reports() {
    let view = crate::games::find("reversi").unwrap();
    let info = view.info();
    assert_eq!(info.sides, ["black", "white"]);
    assert_eq!(view.listing().default_level, "strong");
    let start = view.new_game(&Value::Null).unwrap().state;
    let listed = view.legal_moves(&start).unwrap();
    assert_eq!(listed.count, 4);
    assert_eq!(listed.outcome, json!({"status": "ongoing"}));
    let played = view.play(&start, &json!("f5")).unwrap();
    assert_eq!(played.mv, json!({"square": "f5", "notation": "f5"}));
    assert_eq!(played.effects, Some(json!({"flipped": ["e5"]})));
    assert_eq!(played.state["to_move"], "white");
    let err = view.play(&start, &json!("a1")).unwrap_err();
    assert!(matches!(err, GameError::IllegalMove { .. }));
    let over = json!({"board": vec!["BBBBBBBB"; 8], "to_move": "black"});
    assert!(matches!(
        view.play(&over, &json!("pass")).unwrap_err(),
        GameError::GameOver { .. }
    ));
    assert_eq!(view.legal_moves(&over).unwrap().outcome["winner"], "black");

    for level in ["random", "norvig", "norvig:depth=3", "strong"] {
        let request = BotRequest {
            state: StateInput::Json(played.state.clone()),
            level: Some(level.to_string()),
            seed: Some(11),
            ..Default::default()
        };
        let reply = view.bot_move(&request, &Budget::with_time_ms(200)).unwrap();
        assert_eq!(reply.search.level, level);
        assert_eq!(reply.state["to_move"], "black", "{level}");
    }
    let asking = |level: &str| BotRequest {
        state: StateInput::Json(played.state.clone()),
        level: Some(level.into()),
        ..Default::default()
    };
    assert!(matches!(
        view.bot_move(&asking("norvig:depth=11"), &Budget::unlimited()),
        Err(GameError::InvalidOption { .. })
    ));
    // An unknown level is refused before any work is queued.
    assert!(matches!(
        view.prepare_bot(asking("grandmaster")),
        Err(GameError::UnknownLevel { .. })
    ));
}

#[test]
fn random_level_is_seeded() {
    let state = State::start();
    let pick = |seed| {
        Reversi::choose_move(
            &state,
            &LevelSpec::parse("random").unwrap(),
            &crate::game::BotParams::seeded(seed),
            &Budget::unlimited(),
        )
        .unwrap()
        .mv
    };
    assert_eq!(pick(1), pick(1));
    let distinct: std::collections::HashSet<_> = (0..40).map(pick).collect();
    assert_eq!(distinct.len(), 4);
}

// ---------------------------------------------------------------- norvig

#[test]
fn norvig_weights_sum_square_by_square() {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    for _ in 0..200 {
        let empties = rng.random_range(0..60);
        let Some(board) = random_position(&mut rng, empties) else {
            continue;
        };
        let slow = |bits: u64| -> i32 { Bits(bits).map(|sq| norvig::WEIGHTS[sq as usize]).sum() };
        assert_eq!(weighted_squares(board), slow(board.me) - slow(board.opp));
    }
}

/// Plain minimax over Norvig's evaluation, no pruning: (best square, value).
fn plain_minimax(board: Board, depth: u32) -> i32 {
    let moves = board.moves();
    if moves == 0 {
        if board.opp_moves() == 0 {
            return final_value(board);
        }
        if depth == 0 {
            return weighted_squares(board);
        }
        return -plain_minimax(board.pass(), depth - 1);
    }
    if depth == 0 {
        return weighted_squares(board);
    }
    Bits(moves)
        .map(|sq| -plain_minimax(board.play(sq), depth - 1))
        .max()
        .unwrap()
}

fn plain_choice(board: Board, depth: u32) -> Option<u32> {
    let mut best: Option<(u32, i32)> = None;
    for sq in Bits(board.moves()) {
        let value = -plain_minimax(board.play(sq), depth - 1);
        if best.is_none_or(|(_, v)| value > v) {
            best = Some((sq, value));
        }
    }
    best.map(|(sq, _)| sq)
}

#[test]
fn norvig_picks_exactly_the_minimax_move() {
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    let mut checked = 0;
    while checked < 300 {
        let empties = rng.random_range(4..56);
        let Some(board) = random_position(&mut rng, empties) else {
            continue;
        };
        if board.moves() == 0 {
            continue;
        }
        let depth = 1 + checked % 4;
        let result = norvig::choose(board, depth, &Budget::unlimited());
        assert_eq!(
            result.square,
            plain_choice(board, depth),
            "depth {depth} board {board:?}"
        );
        assert_eq!(
            result.value,
            -plain_minimax(board.play(result.square.unwrap()), depth - 1)
        );
        checked += 1;
    }
}

#[test]
fn norvig_depth_comes_from_the_level_or_the_budget() {
    let state = State::start();
    let run = |level: &str, budget: Budget| {
        Reversi::choose_move(
            &state,
            &LevelSpec::parse(level).unwrap(),
            &crate::game::BotParams::seeded(0),
            &budget,
        )
        .unwrap()
        .report
        .depth
    };
    assert_eq!(run("norvig", Budget::unlimited()), Some(6));
    assert_eq!(run("norvig", Budget::unlimited().depth(3)), Some(3));
    assert_eq!(run("norvig:depth=2", Budget::unlimited()), Some(2));
    assert_eq!(run("norvig:depth=5", Budget::unlimited().depth(4)), Some(4));
    assert_eq!(run("norvig", Budget::unlimited().depth(40)), Some(10));
}

// ---------------------------------------------------------------- the endgame solver

/// Plain exhaustive minimax of the final disc difference (empties to the winner).
fn plain_exact(board: Board) -> i32 {
    let moves = board.moves();
    if moves == 0 {
        if board.opp_moves() == 0 {
            return board.final_score();
        }
        return -plain_exact(board.pass());
    }
    Bits(moves)
        .map(|sq| -plain_exact(board.play(sq)))
        .max()
        .unwrap()
}

fn check_solver_against_minimax(seed: u64, positions: usize, empties: std::ops::Range<u32>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let budget = Budget::unlimited();
    let mut done = 0;
    while done < positions {
        let target = rng.random_range(empties.clone());
        let Some(board) = random_position(&mut rng, target) else {
            continue;
        };
        if board.moves() == 0 {
            continue;
        }
        let child_scores: Vec<(u32, i32)> = Bits(board.moves())
            .map(|sq| (sq, -plain_exact(board.play(sq))))
            .collect();
        let best = child_scores.iter().map(|&(_, s)| s).max().unwrap();
        let best_set: Vec<u32> = child_scores
            .iter()
            .filter(|&&(_, s)| s == best)
            .map(|&(sq, _)| sq)
            .collect();

        let mut solver = Solver::new(&budget, 12);
        assert_eq!(solver.solve(board, -65, 65), best, "{board:?}");
        let roots = solver.solve_root(board, 64, &[]).unwrap();
        let solved_set: Vec<u32> = {
            let mut set: Vec<u32> = roots
                .iter()
                .filter(|r| r.score == best)
                .map(|r| r.square.unwrap())
                .collect();
            set.sort_unstable();
            set
        };
        assert_eq!(solved_set, best_set, "{board:?}");
        for r in &roots {
            let sq = r.square.unwrap();
            let expected = child_scores.iter().find(|&&(s, _)| s == sq).unwrap().1;
            assert_eq!(r.score, expected, "{board:?} move {sq}");
        }
        let one = Solver::new(&budget, 12).solve_root(board, 1, &[]).unwrap();
        assert_eq!(one[0].score, best);
        assert!(best_set.contains(&one[0].square.unwrap()));
        done += 1;
    }
}

#[test]
fn solver_agrees_with_plain_minimax() {
    check_solver_against_minimax(99, 30, 10..12);
}

#[test]
#[ignore = "slow in debug builds: cargo test --release --lib games::reversi::tests::solver_agrees_with_plain_minimax_on_200_positions -- --ignored"]
fn solver_agrees_with_plain_minimax_on_200_positions() {
    check_solver_against_minimax(100, 200, 10..13);
}

fn ffo_positions(max_empties: u64) -> Vec<(usize, State, i64, Vec<String>)> {
    let fixture = fixture("ffo.json");
    fixture["positions"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .filter(|(_, p)| p["empties"].as_u64().unwrap() <= max_empties)
        .map(|(i, p)| {
            let state =
                Reversi::state_from_json(&json!({"board": p["board"], "to_move": p["to_move"]}))
                    .unwrap();
            let best = p["best_moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap().to_string())
                .collect();
            (i + 1, state, p["best_score"].as_i64().unwrap(), best)
        })
        .collect()
}

fn check_ffo(max_empties: u64) {
    let budget = Budget::unlimited();
    for (number, state, best_score, best_moves) in ffo_positions(max_empties) {
        let started = std::time::Instant::now();
        let mut solver = Solver::new(&budget, 20);
        let roots = solver.solve_root(state.board(), 1, &[]).unwrap();
        let best = &roots[0];
        eprintln!(
            "FFO #{number}: {} empties, score {} in {:.1} ms, {} nodes",
            state.board().empties(),
            best.score,
            started.elapsed().as_secs_f64() * 1000.0,
            solver.nodes
        );
        assert_eq!(i64::from(best.score), best_score, "FFO #{number}");
        let name = best
            .square
            .map_or("pass".to_string(), super::board::square_name);
        assert!(
            best_moves.contains(&name),
            "FFO #{number}: {name} not in {best_moves:?}"
        );
    }
}

#[test]
fn ffo_positions_up_to_16_empties_are_solved() {
    check_ffo(16);
}

/// A whole number from the environment variable `name`, or `default`.
fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
#[ignore = "the whole FFO set takes a while: FFO_MAX_EMPTIES=64 cargo test --release --lib games::reversi::tests::ffo_all -- --ignored --nocapture"]
fn ffo_all_positions_are_solved() {
    let started = std::time::Instant::now();
    check_ffo(env_or("FFO_MAX_EMPTIES", 64));
    eprintln!("FFO total: {:.2} s", started.elapsed().as_secs_f64());
}

/// FFO #40-59 that the test solves by default: the ones the solver finishes
/// in release within about two minutes each on the project's 2-core machine
/// (the times are in the README and docs/BENCHMARKS-HISTORY.md);
/// `FFO_40_59=all` adds #53-58 (28-30 empties), which took 3 to 23 minutes
/// each, and `research/src/bin/reversi_ffo.rs` solves any of them with
/// several processes at once.
const FFO_40_59_ASSERTED: &[usize] = &[40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 59];

#[test]
#[ignore = "release only, minutes (FFO_40_59=all: about an hour): cargo test --release --lib games::reversi::tests::ffo_40_59 -- --ignored --nocapture"]
fn ffo_40_59_positions_are_solved() {
    let everything = std::env::var("FFO_40_59").is_ok_and(|v| v == "all");
    let text = crate::test_data::text("reversi/fforum-40-59.obf");
    let positions = ObfPosition::parse_all(&text).unwrap();
    assert_eq!(positions.len(), 20);
    let budget = Budget::unlimited();
    let started = std::time::Instant::now();
    for (number, position) in (40..).zip(positions) {
        if !everything && !FFO_40_59_ASSERTED.contains(&number) {
            continue;
        }
        let ObfPosition {
            board,
            best_score,
            best_moves,
        } = position;
        let position_started = std::time::Instant::now();
        let mut solver = Solver::new(&budget, 24);
        let roots = solver.solve_root(board, 1, &[]).unwrap();
        eprintln!(
            "FFO #{number}: {} empties, score {} in {:.2} s, {} nodes",
            board.empties(),
            roots[0].score,
            position_started.elapsed().as_secs_f64(),
            solver.nodes
        );
        assert_eq!(roots[0].score, best_score, "FFO #{number}");
        let played = roots[0].square;
        assert!(
            played.is_some_and(|sq| best_moves.contains(&sq)),
            "FFO #{number}: {played:?} not in {best_moves:?}"
        );
    }
    eprintln!("FFO #40-59 total: {:.2} s", started.elapsed().as_secs_f64());
}

// ---------------------------------------------------------------- strong

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

// ---------------------------------------------------------------- property tests

/// Reference move generation: the empty squares where `slow_flips` flips something.
fn slow_moves(me: u64, opp: u64) -> u64 {
    (0..64)
        .filter(|&sq| slow_flips(me, opp, sq) != 0)
        .fold(0, |all, sq| all | 1 << sq)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Arbitrary boards, not only reachable ones: `fill` picks the occupied
    /// squares (sparse, dense or anything between) and `side` who owns them.
    #[test]
    fn flips_and_moves_agree_with_a_square_by_square_walk_on_random_boards(
        a in any::<u64>(),
        b in any::<u64>(),
        side in any::<u64>(),
        density in 0u8..4,
    ) {
        let filled = match density {
            0 => a & b,
            1 => a,
            2 => a | b,
            _ => !(a & b & side.rotate_left(17)),
        };
        let (me, opp) = (filled & side, filled & !side);
        for sq in 0..64 {
            prop_assert_eq!(flips(me, opp, sq), slow_flips(me, opp, sq), "square {}", sq);
        }
        // A full board but for one square, for the last-move count.
        let last = (a ^ b).trailing_zeros() % 64;
        let full_me = side & !(1 << last);
        let full_opp = !full_me & !(1 << last);
        prop_assert_eq!(
            super::board::last_flip_count(full_me, last),
            slow_flips(full_me, full_opp, last).count_ones()
        );
        prop_assert_eq!(
            super::board::last_flip_count(full_opp, last),
            slow_flips(full_opp, full_me, last).count_ones()
        );
        let expected = slow_moves(me, opp);
        prop_assert_eq!(moves(me, opp), expected);
        #[cfg(target_arch = "x86_64")]
        if super::board::x86::supported() {
            // SAFETY: the CPU has AVX2.
            let fast = unsafe { super::board::x86::moves_avx2(me, opp) };
            prop_assert_eq!(fast, expected);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn random_playouts_keep_every_form_consistent(seed in any::<u64>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut state = State::start();
        loop {
            let json = Reversi::state_to_json(&state);
            prop_assert_eq!(Reversi::state_from_json(&json).unwrap(), state);
            let mut moves = Vec::new();
            Reversi::legal_moves(&state, &mut moves);
            if moves.is_empty() {
                prop_assert!(Reversi::outcome(&state).is_over());
                break;
            }
            prop_assert_eq!(Reversi::outcome(&state), Outcome::Ongoing);
            for mv in &moves {
                prop_assert_eq!(Reversi::parse_move(&state, &json!(mv.notation())).unwrap(), *mv);
                prop_assert_eq!(Reversi::parse_move(&state, &mv.to_json()).unwrap(), *mv);
            }
            for sq in 0..64u8 {
                let candidate = Move::Place(sq);
                if !moves.contains(&candidate) {
                    prop_assert!(Reversi::parse_move(&state, &json!(candidate.notation())).is_err());
                }
            }
            if !moves.contains(&Move::Pass) {
                prop_assert!(Reversi::parse_move(&state, &json!("pass")).is_err());
            }
            let discs = (state.black | state.white).count_ones();
            let mv = moves[rng.random_range(0..moves.len())];
            let next = state.apply(mv);
            let added = (next.black | next.white).count_ones() - discs;
            prop_assert_eq!(added, u32::from(mv != Move::Pass));
            state = next;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// The board's eight symmetries are symmetries of the rules: a turned
    /// position has exactly the turned moves, each leads to the turned
    /// position, and the game ends the same way.
    #[test]
    fn every_symmetry_turns_moves_and_results_with_the_board(seed in any::<u64>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut state = State::start();
        loop {
            let mut moves = Vec::new();
            Reversi::legal_moves(&state, &mut moves);
            for &symmetry in Reversi::SYMMETRIES {
                let turned = Reversi::transform_state(&state, symmetry);
                prop_assert_eq!(Reversi::transform_state(&turned, symmetry.inverse()), state);
                let mut turned_moves = Vec::new();
                Reversi::legal_moves(&turned, &mut turned_moves);
                let mut expected: Vec<Move> =
                    moves.iter().map(|mv| Reversi::transform_move(mv, symmetry)).collect();
                expected.sort_by_key(|mv| mv.notation());
                turned_moves.sort_by_key(|mv| mv.notation());
                prop_assert_eq!(&turned_moves, &expected);
                for mv in &moves {
                    prop_assert_eq!(
                        Reversi::apply(&turned, &Reversi::transform_move(mv, symmetry)),
                        Reversi::transform_state(&state.apply(*mv), symmetry)
                    );
                }
                prop_assert_eq!(Reversi::outcome(&turned), Reversi::outcome(&state));
            }
            if moves.is_empty() {
                break;
            }
            state = state.apply(moves[rng.random_range(0..moves.len())]);
        }
    }
}

#[test]
fn twins_share_one_canonical_state_and_their_bot_moves_are_turned() {
    let state = state_of(
        &[
            "........", "........", "..WWW...", "..WBBW..", "..BBWB..", "...B.W..", "........",
            "........",
        ],
        "black",
    );
    let (twin, _) = crate::game::symmetry::canonical::<Reversi>(&state);
    let view = crate::games::find("reversi").unwrap();
    for &symmetry in Reversi::SYMMETRIES {
        let turned = Reversi::transform_state(&state, symmetry);
        assert_eq!(crate::game::symmetry::canonical::<Reversi>(&turned).0, twin);
        for name in ["7", "norvig"] {
            let ask = |state: &State| {
                let request = BotRequest {
                    state: StateInput::Json(Reversi::state_to_json(state)),
                    level: Some(name.to_string()),
                    seed: Some(4),
                    ..BotRequest::default()
                };
                let reply = view
                    .bot_move(&request, &Budget::with_time_ms(10_000))
                    .unwrap();
                Reversi::parse_move(state, &reply.mv).unwrap()
            };
            let mv = ask(&state);
            assert_eq!(
                ask(&turned),
                Reversi::transform_move(&mv, symmetry),
                "{name}"
            );
        }
    }
}

// ---------------------------------------------------------------- levels

#[test]
fn every_level_passes_when_it_must() {
    let state = state_of(
        &[
            "BBBBBBBB", "BBBBBBBB", "BBBBBBBB", "BBBBBBBB", "BBBBBBBB", "BBBBBBW.", "BBBBBB..",
            "BBBBBBB.",
        ],
        "white",
    );
    for level in ["random", "norvig", "strong"] {
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
    for pair in analysis.moves.windows(2) {
        assert!(pair[0].score >= pair[1].score);
    }
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
    // The best move is the one `strong` plays at the same depth.
    let choice = Reversi::choose_move(
        &state,
        &LevelSpec::parse("strong").unwrap(),
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

mod records {
    use super::*;
    use crate::game::record::checks::{fails_at, round_trips};

    fn squares(names: &[&str]) -> Vec<Move> {
        names
            .iter()
            .map(|name| Move::Place(super::super::board::parse_square(name).unwrap() as u8))
            .collect()
    }

    #[test]
    fn a_record_is_the_squares_played_in_either_case_and_any_spacing() {
        let start = State::start();
        let opening = squares(&["f5", "d6", "c3", "d3", "c4"]);
        assert_eq!(Reversi::write_record(&start, &opening), "f5d6c3d3c4");
        for record in ["f5d6c3d3c4", "F5D6C3D3C4", " f5 d6\tC3\nd3 c4 "] {
            assert_eq!(Reversi::read_record(&start, record).unwrap(), opening);
        }
        assert_eq!(Reversi::read_record(&start, "").unwrap(), []);
    }

    #[test]
    fn random_games_read_back_with_their_passes_put_back() {
        let start = State::start();
        let records = round_trips::<Reversi>(&start, 40, 300, 70);
        let with_passes = records
            .iter()
            .filter(|record| {
                let moves = Reversi::read_record(&start, record).unwrap();
                moves.contains(&Move::Pass)
            })
            .count();
        assert!(with_passes > 0, "some random game passes");
        assert!(records.iter().all(|r| !r.contains("pass")));
    }

    #[test]
    fn a_bad_square_is_reported_with_its_index_among_the_squares() {
        let start = State::start();
        fails_at::<Reversi>(&start, "f5d6a1", 2, "a1", "a1 flips no white disc");
        fails_at::<Reversi>(&start, "f5 F5", 1, "F5", "f5 is already occupied");
        fails_at::<Reversi>(&start, "f5d6c", 2, "c", "'c' is not a square");
        fails_at::<Reversi>(&start, "f5z9", 1, "z9", "'z9' is not a square");
    }

    #[test]
    fn a_square_after_the_end_says_how_the_game_ended() {
        let start = State::start();
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let (moves, _) = crate::game::record::checks::random_game::<Reversi>(&start, 200, &mut rng);
        let end = moves.iter().fold(start, |s, mv| s.apply(*mv));
        assert!(Reversi::outcome(&end).is_over());
        let record = Reversi::write_record(&start, &moves);
        let played = record.len() / 2;
        let error = fails_at::<Reversi>(
            &start,
            &format!("{record}a1"),
            played,
            "a1",
            "the game is already over",
        );
        assert!(
            error.to_string().contains("neither side can move"),
            "{error}"
        );
    }
}
