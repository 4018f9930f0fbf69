//! Halma: move generation, perft, strong-search and ladder-level speed.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use gamebot::game::{ladder, perft, AnyLevel, BotParams, Bots, Budget, LevelSpec, Rules, Side};
use gamebot::games::halma::bots::eval::progress;
use gamebot::games::halma::{CampRule, Halma, Move, State};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A midgame position: 50 plies, each a seeded pick among the six most
/// forward moves (greedy play alone jams a piece at home, leaving few moves).
fn midgame() -> State {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut s = State::start(Side::First, CampRule::Referee);
    let mut moves = Vec::new();
    for _ in 0..50 {
        moves.clear();
        Halma::legal_moves(&s, &mut moves);
        let side = s.to_move();
        moves.sort_by_key(|m| (-progress(side, m.from, m.to), m.from, m.to));
        let pick = moves[rng.random_range(0..moves.len().min(6))];
        s = Halma::apply(&s, &pick);
    }
    moves.clear();
    Halma::legal_moves(&s, &mut moves);
    assert!(moves.len() > 50, "a real midgame: {} moves", moves.len());
    s
}

fn movegen(c: &mut Criterion) {
    let start = State::start(Side::First, CampRule::Referee);
    let mid = midgame();
    let mut moves: Vec<Move> = Vec::with_capacity(512);
    c.bench_function("halma legal_moves start", |b| {
        b.iter(|| {
            moves.clear();
            Halma::legal_moves(black_box(&start), &mut moves);
            moves.len()
        })
    });
    c.bench_function("halma legal_moves midgame", |b| {
        b.iter(|| {
            moves.clear();
            Halma::legal_moves(black_box(&mid), &mut moves);
            moves.len()
        })
    });
    assert_eq!(perft::<Halma>(&start, 2), 1600, "perft(2) from the start");
    c.bench_function("halma perft 2 start", |b| {
        b.iter(|| perft::<Halma>(black_box(&start), 2))
    });
}

fn search(c: &mut Criterion) {
    let mid = midgame();
    let level = LevelSpec::parse("strong").unwrap();
    let mut group = c.benchmark_group("halma search");
    group.sample_size(10);
    group.bench_function("strong depth 3 midgame", |b| {
        b.iter(|| {
            Halma::choose_move(
                &mid,
                &level,
                &BotParams::seeded(1),
                &Budget::unlimited().depth(3),
            )
            .unwrap()
        })
    });
    // Level 1 scores every move at 2 plies (the generic analysis), the
    // cost of most of a ladder run's low pairs.
    group.bench_function("ladder level 1 midgame", |b| {
        b.iter(|| {
            ladder::choose::<Halma>(
                &mid,
                &AnyLevel::Numbered(1),
                &BotParams::seeded(1),
                &Budget::unlimited(),
            )
            .unwrap()
        })
    });
    group.finish();
}

criterion_group!(benches, movegen, search);
criterion_main!(benches);
