//! The endgame solver.

use super::*;

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
        let roots = solver.solve_root(board, 64, None, &[]).unwrap();
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
        let one = Solver::new(&budget, 12)
            .solve_root(board, 1, None, &[])
            .unwrap();
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

pub(super) fn ffo_positions(max_empties: u64) -> Vec<(usize, State, i64, Vec<String>)> {
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
        let roots = solver.solve_root(state.board(), 1, None, &[]).unwrap();
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
            .map_or("pass".to_string(), super::super::board::square_name);
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
        let roots = solver.solve_root(board, 1, None, &[]).unwrap();
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

/// The portable and the x86 node searches are one algorithm compiled twice:
/// on a CPU that runs both, they visit the same positions and find the same
/// scores (FFO positions up to 16 empties, and random ones with many passes).
#[test]
fn both_node_copies_visit_the_same_positions() {
    let budget = Budget::unlimited();
    let solve = |board: Board, code: NodeCode| {
        let mut solver = Solver::new(&budget, 16).with_code(code);
        if code.runs_here() {
            assert_eq!(solver.code(), code);
        }
        let roots = solver.solve_root(board, 64, None, &[]).unwrap();
        let scores: Vec<(Option<u32>, i32, bool)> =
            roots.iter().map(|r| (r.square, r.score, r.exact)).collect();
        (scores, solver.nodes)
    };
    let mut boards: Vec<Board> = ffo_positions(16).iter().map(|p| p.1.board()).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    while boards.len() < 40 {
        if let Some(board) = random_position(&mut rng, 14) {
            if !board.is_over() {
                boards.push(board);
            }
        }
    }
    for board in boards {
        let portable = solve(board, NodeCode::Portable);
        let fastest = solve(board, NodeCode::fastest());
        assert_eq!(portable, fastest, "{board:?}");
    }
}

/// The selective passes before the proof of a root of many empties only
/// order it: every root move's score is the one found without them, and
/// the move played is among the best.
#[test]
fn selective_passes_change_no_proven_score() {
    let budget = Budget::unlimited();
    let mut rng = ChaCha8Rng::seed_from_u64(2020);
    let mut solved = 0;
    while solved < 2 {
        let Some(board) = random_position(&mut rng, 20) else {
            continue;
        };
        if board.moves() == 0 {
            continue;
        }
        let all_scores = |passes: bool| {
            let mut solver = Solver::new(&budget, 18).with_selective_passes(passes);
            let mut roots: Vec<(Option<u32>, i32)> = solver
                .solve_root(board, 64, None, &[])
                .unwrap()
                .iter()
                .map(|r| (r.square, r.score))
                .collect();
            roots.sort_unstable();
            roots
        };
        let proven = all_scores(false);
        assert_eq!(all_scores(true), proven, "{board:?}");
        let best = proven.iter().map(|&(_, score)| score).max().unwrap();
        let played = Solver::new(&budget, 18)
            .solve_root(board, 1, None, &[])
            .unwrap()[0]
            .clone();
        assert_eq!(played.score, best, "{board:?}");
        assert!(proven.contains(&(played.square, best)), "{board:?}");
        solved += 1;
    }
}
