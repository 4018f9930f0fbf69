//! Naughts benchmarks: move generation (perft, asserting the counts), the exact
//! solve of the empty 3×3 board with 5 and 6 pieces from a cold table, and a
//! timed `perfect` move on a 5×5 board.

use criterion::{criterion_group, criterion_main, Criterion};
use gamebot::game::{perft, BotParams, Budget, Game, LevelSpec};
use gamebot::games::naughts::solver::Solver;
use gamebot::games::naughts::{Naughts, State};
use std::hint::black_box;

fn movegen(c: &mut Criterion) {
    let start = State::new(3, 5);
    assert_eq!(perft::<Naughts>(&start, 3), 59_850);
    c.bench_function("naughts perft 3x3/5 depth 4", |b| {
        b.iter(|| assert_eq!(perft::<Naughts>(black_box(&start), 4), 1_761_885))
    });
}

fn solve(c: &mut Criterion) {
    let mut group = c.benchmark_group("naughts solve empty 3x3");
    group.sample_size(10);
    for pieces in [5u8, 6] {
        let state = State::new(3, pieces);
        group.bench_function(format!("{pieces} pieces, cold table"), |b| {
            b.iter(|| {
                let budget = Budget::unlimited();
                let solution = Solver::new(3, &budget, 21).solve(black_box(&state), false);
                assert_eq!(solution.moves[0].score, 0);
            })
        });
    }
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

criterion_group!(benches, movegen, solve, timed_move);
criterion_main!(benches);
