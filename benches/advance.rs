//! Advance: perft from the start position to depths 3, 4 and 5 (asserting the
//! fixture's counts, reported in nodes per second), move generation on a busy
//! midgame position, the time per move of every bot level on the start and a
//! busy midgame position, and search speed in nodes per second.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gamebot::game::{BotParams, Bots, Budget, LevelSpec, Rules};
use gamebot::games::advance::bots::strong;
use gamebot::games::advance::movegen::perft;
use gamebot::games::advance::{Advance, Color, State};
use gamebot::search::{search, SearchOptions};
use std::hint::black_box;
use std::time::Duration;

/// The busy midgame position of the `greedy` seed example.
const MIDGAME: [&str; 9] = [
    "d.bz..cmj",
    "Dj.#...b#",
    "m.z.g.zs.",
    "......#z#",
    ".....Z#.Z",
    ".#..S...#",
    "..Z.zZ...",
    "...BZ..Z.",
    "M.CSMG.J.",
];

fn midgame() -> State {
    State::from_rows(&MIDGAME, Color::White, None).unwrap()
}

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("advance_perft");
    group.sample_size(10);
    for (depth, count) in [(3u32, 80_482u64), (4, 3_502_461), (5, 156_712_230)] {
        group.throughput(Throughput::Elements(count));
        group.bench_function(format!("start_depth_{depth}"), |b| {
            b.iter(|| {
                let mut state = State::start();
                assert_eq!(perft(&mut state, black_box(depth)), count);
            })
        });
    }
    group.finish();
}

fn bench_movegen(c: &mut Criterion) {
    let state = midgame();
    let mut moves = Vec::with_capacity(128);
    c.bench_function("advance_legal_moves_midgame", |b| {
        b.iter(|| {
            moves.clear();
            Advance::legal_moves(black_box(&state), &mut moves);
            moves.len()
        })
    });
}

fn bench_levels(c: &mut Criterion) {
    let mut group = c.benchmark_group("advance_levels");
    group.sample_size(10);
    for (name, state) in [("start", State::start()), ("midgame", midgame())] {
        for level in ["legal", "win", "greedy", "predict", "strong"] {
            let spec = LevelSpec::parse(level).unwrap();
            group.bench_function(format!("{level}_{name}"), |b| {
                b.iter(|| {
                    let budget = Budget::with_time_ms(100);
                    Advance::choose_move(&state, &spec, &BotParams::seeded(7), &budget).unwrap()
                })
            });
        }
    }
    group.finish();
}

/// Midgame positions for the search benchmark: the seed's busy position and
/// positions reached by fixed sequences of legal moves from the start.
fn midgame_positions() -> Vec<(String, State)> {
    let mut positions = vec![("seed-midgame".to_string(), midgame())];
    for (n, stride) in [(16usize, 7usize), (24, 11), (32, 5)] {
        let mut state = State::start();
        let mut moves = Vec::new();
        for ply in 0..n {
            moves.clear();
            Advance::legal_moves(&state, &mut moves);
            if moves.is_empty() {
                break;
            }
            state = Advance::apply(&state, &moves[(ply * stride) % moves.len()]);
        }
        positions.push((format!("ply{n}"), state));
    }
    positions
}

/// Search speed: the generic alpha-beta with Advance's evaluation to a fixed
/// depth, reported in nodes per second (the node count is measured first, so
/// the throughput is exact): plain alpha-beta, and with `strong`'s prunings
/// (which visit fewer nodes per depth, and so reach depth 6 in the time).
fn bench_search(c: &mut Criterion) {
    let mut group = c.benchmark_group("advance_search_nodes");
    group.sample_size(10);
    let setups = [
        ("plain", SearchOptions::default(), 4),
        ("strong", strong::options(), 6),
    ];
    for (name, state) in midgame_positions() {
        for (kind, options, depth) in &setups {
            let budget = Budget::unlimited().depth(*depth);
            let nodes = search::<Advance>(&state, &budget, options).nodes;
            group.throughput(Throughput::Elements(nodes));
            group.bench_function(format!("{name}_{kind}_depth{depth}"), |b| {
                b.iter(|| search::<Advance>(black_box(&state), &budget, options).nodes)
            });
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    targets = bench_perft, bench_movegen, bench_levels, bench_search
}
criterion_main!(benches);
