//! Number Crush speed: settling throughput (whole swaps simulated per
//! second, cascades and refills included) and the cost of the bot levels.
//!
//! `cargo bench --bench crush -- --warm-up-time 1 --measurement-time 3`

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use gamebot::game::{BotParams, Bots, Budget, LevelSpec, Rules};
use gamebot::games::crush::board::Board;
use gamebot::games::crush::bots::{self, Sampled};
use gamebot::games::crush::columns::Columns;
use gamebot::games::crush::notation::ALL_SWAPS;
use gamebot::games::crush::Crush;

const SWAPS: u64 = 1_000;

/// Plays `SWAPS` swaps of the greedy choice's neighbours through the game's
/// own `apply` (TinyMT32 refills), restarting at the end of each game.
fn game_swaps(c: &mut Criterion) {
    let mut group = c.benchmark_group("crush/settle");
    group.throughput(Throughput::Elements(SWAPS));
    for k in [4u8, 7] {
        let start = Crush::new_seeded(k, 1);
        group.bench_function(format!("apply k={k}"), |b| {
            b.iter(|| {
                let mut state = start.clone();
                let mut total = 0i64;
                for i in 0..SWAPS as usize {
                    if state.swaps_left() == 0 {
                        total += state.score();
                        state = start.clone();
                    }
                    state = Crush::apply(&state, &ALL_SWAPS[(i * 37) % ALL_SWAPS.len()]);
                }
                black_box(total + state.score())
            })
        });
        group.bench_function(format!("sampled settle k={k}"), |b| {
            let mut board: Board = *start.board();
            let mut stream = Sampled::new(7, k);
            b.iter(|| {
                let mut points = 0u32;
                for i in 0..SWAPS as usize {
                    let swap = ALL_SWAPS[(i * 37) % ALL_SWAPS.len()];
                    points += board.swap_and_settle(swap.a(), swap.b(), &mut stream, |_| {});
                }
                black_box(points)
            })
        });
        group.bench_function(format!("sampled settle by columns k={k}"), |b| {
            let mut columns = Columns::of(start.board());
            let mut stream = Sampled::new(7, k);
            b.iter(|| {
                let mut points = 0u32;
                for i in 0..SWAPS as usize {
                    let swap = ALL_SWAPS[(i * 37) % ALL_SWAPS.len()];
                    points += columns.swap_and_settle(swap.a(), swap.b(), &mut stream);
                }
                black_box(points)
            })
        });
    }
    group.finish();
}

/// One bot decision per level on a fresh k = 4 board (strong under a node cap).
fn levels(c: &mut Criterion) {
    let mut group = c.benchmark_group("crush/levels");
    let state = Crush::new_seeded(4, 3);
    group.bench_function("greedy", |b| {
        b.iter(|| black_box(bots::greedy(state.board())))
    });
    let strong = LevelSpec::parse("strong").unwrap();
    group.sample_size(20);
    group.bench_function("strong 20k nodes", |b| {
        b.iter(|| {
            let budget = Budget::unlimited().nodes(20_000);
            Crush::choose_move(&state, &strong, &BotParams::seeded(1), &budget).unwrap()
        })
    });
    group.finish();
}

criterion_group!(benches, game_swaps, levels);
criterion_main!(benches);
