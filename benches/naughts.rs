//! Naughts benchmarks: move generation (perft, asserting the counts), the exact
//! solve of the empty 3×3 board with 5 to 9 pieces a side from a cold table
//! (asserting a proven draw; the node counts are printed once), a `perfect`
//! move on the empty classic board with its thread's table warm, and a timed
//! `perfect` move on a 5×5 board.
//!
//! `cargo bench --bench naughts -- empty` for the empty 3×3
//! figures; the 9-piece solve (seconds an iteration) is in a separate group.

use criterion::{criterion_group, criterion_main, Criterion};
use gamebot::game::{perft, BotParams, Bots, Budget, LevelSpec, StopReason};
use gamebot::games::naughts::bots::solver::Solver;
use gamebot::games::naughts::{Naughts, State};
use std::hint::black_box;

fn movegen(c: &mut Criterion) {
    let start = State::new(3, 5);
    assert_eq!(perft::<Naughts>(&start, 3), 59_850);
    c.bench_function("naughts perft 3x3/5 depth 4", |b| {
        b.iter(|| assert_eq!(perft::<Naughts>(black_box(&start), 4), 1_761_885))
    });
}

/// Solves the empty 3×3 board with `pieces` a side with a fresh table of
/// 2^21 slots, asserting a proven draw; returns the nodes searched.
fn solve_empty(pieces: u8) -> u64 {
    let budget = Budget::unlimited();
    let solution = Solver::new(3, &budget, 21).solve(black_box(&State::new(3, pieces)), false);
    assert_eq!(solution.stopped_by, StopReason::Proven);
    assert_eq!(solution.moves[0].score, 0);
    solution.nodes
}

fn bench_solves(c: &mut Criterion, pieces: &[u8]) {
    let mut group = c.benchmark_group("naughts solve empty 3x3");
    group.sample_size(10);
    for &pieces in pieces {
        eprintln!("empty 3x3/{pieces}: a draw, {} nodes", solve_empty(pieces));
        group.bench_function(format!("{pieces} pieces, cold table"), |b| {
            b.iter(|| solve_empty(pieces))
        });
    }
    group.finish();
}

fn solve(c: &mut Criterion) {
    bench_solves(c, &[5, 6, 7, 8]);
}

fn solve_9(c: &mut Criterion) {
    bench_solves(c, &[9]);
}

/// The `perfect` level's move on the empty classic board (5 pieces), as a
/// request makes it: after the first search the thread's table holds the
/// answer, so this is the warm figure (the cold one is the 5-piece solve).
fn perfect_move(c: &mut Criterion) {
    let start = State::new(3, 5);
    let level = LevelSpec::parse("perfect").unwrap();
    let choose = || {
        let budget = Budget::with_time_ms(10_000);
        Naughts::choose_move(black_box(&start), &level, &BotParams::seeded(0), &budget).unwrap()
    };
    assert_eq!(choose().report.proven, Some(true));
    let mut group = c.benchmark_group("naughts perfect 3x3/5");
    group.bench_function("empty board, warm table", |b| b.iter(choose));
    group.finish();
}

fn timed_move(c: &mut Criterion) {
    let state = State::new(5, 7);
    let level = LevelSpec::parse("perfect").unwrap();
    let mut group = c.benchmark_group("naughts perfect 5x5/7");
    group.sample_size(10);
    group.bench_function("100k nodes", |b| {
        b.iter(|| {
            let budget = Budget::unlimited().nodes(100_000);
            Naughts::choose_move(&state, &level, &BotParams::seeded(1), &budget).unwrap()
        })
    });
    group.finish();
}

criterion_group!(benches, movegen, solve, perfect_move, timed_move);
criterion_group!(long, solve_9);
criterion_main!(benches, long);
