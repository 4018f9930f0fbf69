//! Reversi speed: bitboard perft (asserting the published counts, reported as
//! leaf nodes per second), the exact endgame solver on FFO positions, and the
//! `strong` midgame search.
//!
//! `cargo bench --bench reversi -- perft_11` for the headline figure;
//! `perft_11_portable` times the fallback without the run-time detected
//! AVX2 path; `perft_12` is a separate, longer function (about ten times the work).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gamebot::game::Budget;
use gamebot::game::Codec;
use gamebot::games::reversi::board::Board;
use gamebot::games::reversi::bots::endgame::Solver;
use gamebot::games::reversi::bots::engine::{think, Plan};
use gamebot::games::reversi::perft::{perft, perft_portable};
use gamebot::games::reversi::{Reversi, State};
use std::hint::black_box;
use std::time::Duration;

#[path = "../tests/data/mod.rs"]
mod data;

fn perft_count(depth: u32) -> u64 {
    let fixture = data::json("reversi/perft.json");
    fixture["counts"][depth.to_string()]
        .as_u64()
        .expect("count")
}

fn bench_perft_depth(c: &mut Criterion, depth: u32, expected: u64) {
    assert_eq!(perft_count(depth), expected, "fixture and bench disagree");
    assert_eq!(perft(Board::start(), depth), expected, "perft({depth})");
    let mut group = c.benchmark_group("reversi_perft");
    group.sample_size(10);
    group.throughput(Throughput::Elements(expected));
    group.bench_function(format!("perft_{depth}"), |b| {
        b.iter(|| {
            let nodes = perft(black_box(Board::start()), depth);
            assert_eq!(nodes, expected);
            nodes
        })
    });
    group.finish();
}

fn perft_11(c: &mut Criterion) {
    bench_perft_depth(c, 11, 212_258_800);
}

/// perft(11) without the run-time detected AVX2 path: the portable fallback's speed.
fn perft_11_portable(c: &mut Criterion) {
    let expected = 212_258_800;
    let mut group = c.benchmark_group("reversi_perft");
    group.sample_size(10);
    group.throughput(Throughput::Elements(expected));
    group.bench_function("perft_11_portable", |b| {
        b.iter(|| {
            let nodes = perft_portable(black_box(Board::start()), 11);
            assert_eq!(nodes, expected);
            nodes
        })
    });
    group.finish();
}

fn perft_12(c: &mut Criterion) {
    bench_perft_depth(c, 12, 1_939_886_636);
}

/// FFO positions with at most `max_empties` empties: (number, board, best score).
fn ffo(max_empties: u64) -> Vec<(usize, Board, i32)> {
    let fixture = data::json("reversi/ffo.json");
    fixture["positions"]
        .as_array()
        .expect("positions")
        .iter()
        .enumerate()
        .filter(|(_, p)| p["empties"].as_u64().unwrap_or(99) <= max_empties)
        .map(|(i, p)| {
            let state: State = Reversi::state_from_json(&serde_json::json!({
                "board": p["board"], "to_move": p["to_move"]
            }))
            .expect("valid FFO state");
            let score = p["best_score"].as_i64().expect("best_score") as i32;
            (i + 1, state.board(), score)
        })
        .collect()
}

fn endgame(c: &mut Criterion) {
    let positions = ffo(18);
    let budget = Budget::unlimited();
    let mut group = c.benchmark_group("reversi_endgame");
    group.sample_size(10);
    group.bench_function("ffo_up_to_18_empties", |b| {
        b.iter(|| {
            for &(number, board, score) in &positions {
                let mut solver = Solver::new(&budget, 20);
                let roots = solver.solve_root(board, 1, None, &[]).expect("unlimited");
                assert_eq!(roots[0].score, score, "FFO #{number}");
            }
        })
    });
    group.finish();
}

fn midgame(c: &mut Criterion) {
    let state = State::start()
        .apply(gamebot::games::reversi::Move::Place(19))
        .apply(gamebot::games::reversi::Move::Place(18));
    let budget = Budget::unlimited();
    let plan = Plan {
        max_depth: 9,
        solve_empties: 0,
        solve_nodes: None,
        top: 1,
        include: None,
        table_log2: None,
        evaluation: Default::default(),
        probcut: None,
    };
    let mut group = c.benchmark_group("reversi_search");
    group.sample_size(10);
    group.bench_function("strong_depth_9_opening", |b| {
        b.iter(|| think(black_box(state.board()), &budget, plan).nodes)
    });
    group.finish();
}

criterion_group! {
    name = headline;
    config = Criterion::default().warm_up_time(Duration::from_secs(1));
    targets = perft_11, perft_11_portable, endgame, midgame
}
criterion_group! {
    name = long;
    config = Criterion::default().warm_up_time(Duration::from_secs(1));
    targets = perft_12
}
criterion_main!(headline, long);
