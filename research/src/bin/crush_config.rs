//! Number Crush's `strong` with knobs other than the product's, in whole
//! games against greedy on the same game seeds. The `strong` level takes only
//! `depth`; the knobs tuned for `docs/crush-strong.md` (the leaf, the rollout
//! policy, halving, a round cap) are fields of `StrongConfig`, and this is how
//! a setting of them is measured. Each `KEY=VALUE` changes one field of
//! `StrongConfig::for_k(K)`:
//!
//! | key | field | values |
//! |---|---|---|
//! | `depth` | `depth` | sampled swaps a rollout plays, from 1 |
//! | `policy` | `greedy_policy` | 1 greedy, 0 the cheap own-runs policy |
//! | `leaf` | `leaf_percent` | the leaf's weight in percent, 0 for none |
//! | `leafkind` | `leaf_kind` | 0 best visible gain, 1 best immediate points, 2 the top two |
//! | `second` | `second_percent` | the second best's weight in the top-two leaf, in percent |
//! | `halve` | `halve` | 1 successive halving, 0 none |
//! | `rounds` | `rounds` | a cap on the sampling rounds |
//!
//! Every swap is node-capped, so a run is deterministic, and the bot's seeds
//! are those of `gamebot crush --benchmark` (game seed × 1,000 + swaps left):
//! with no key set this prints that benchmark's figures for
//! `--levels greedy,strong --max-nodes NODES` on the same seeds.
//!
//! ```text
//! cargo run --release -p gamebot-research --bin crush_config -- [GAMES] [FIRST_SEED] [K] [NODES] [KEY=VALUE ...]
//! ```
//!
//! Defaults: 50 games from game seed 100 (held out from the benchmark's
//! default seeds 0..49), k = 4, 5,700 nodes a swap (about 50 ms), the
//! product's knobs. The games run on two threads.

use gamebot::game::{BotParams, Budget, Rules};
use gamebot::games::crush::bots::{self, LeafKind, StrongConfig, View};
use gamebot::games::crush::notation::Swap;
use gamebot::games::crush::{Crush, State};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (counts, knobs): (Vec<&String>, Vec<&String>) = args.iter().partition(|a| !a.contains('='));
    let count = |i: usize, default: u64| {
        counts.get(i).map_or(default, |a| {
            a.parse().unwrap_or_else(|_| panic!("not a count: {a}"))
        })
    };
    let games = count(0, 50) as u32;
    let first = count(1, 100) as u32;
    let k = count(2, 4) as u8;
    let nodes = count(3, 5_700);
    let mut config = StrongConfig::for_k(k);
    for knob in &knobs {
        set(&mut config, knob);
    }

    let seeds: Vec<u32> = (first..first + games).collect();
    let (greedy, strong): (Vec<i64>, Vec<i64>) = std::thread::scope(|scope| {
        let halves: Vec<_> = [0, 1]
            .map(|half| {
                let seeds = &seeds;
                scope.spawn(move || {
                    seeds
                        .iter()
                        .skip(half)
                        .step_by(2)
                        .map(|&seed| {
                            let greedy = play(k, seed, |state| bots::greedy(state.board()).0);
                            let strong = play(k, seed, |state| {
                                let params = BotParams::seeded(
                                    u64::from(seed) * 1_000 + u64::from(state.swaps_left()),
                                );
                                let budget = Budget::unlimited().nodes(nodes);
                                config.choose(&View::of(state), &params, &budget).mv
                            });
                            (greedy, strong)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .into_iter()
            .collect();
        halves
            .into_iter()
            .flat_map(|h| h.join().expect("a game thread panicked"))
            .unzip()
    });
    let mean = |v: &[i64]| v.iter().sum::<i64>() as f64 / v.len() as f64;
    let (base, mean_strong) = (mean(&greedy), mean(&strong));
    let diffs: Vec<f64> = strong
        .iter()
        .zip(&greedy)
        .map(|(s, g)| (s - g) as f64)
        .collect();
    let n = diffs.len() as f64;
    let mean_diff = diffs.iter().sum::<f64>() / n;
    let variance = diffs.iter().map(|d| (d - mean_diff).powi(2)).sum::<f64>() / (n - 1.0);
    let knobs: Vec<&str> = knobs.iter().map(|s| s.as_str()).collect();
    println!(
        "k = {k}, game seeds {first}..{}, {nodes} nodes a swap, strong with {}: \
         greedy {base:.1}, strong {mean_strong:.1}, {:+.1}% ± {:.1}%",
        first + games,
        if knobs.is_empty() {
            "the defaults".to_string()
        } else {
            knobs.join(",")
        },
        100.0 * mean_diff / base,
        100.0 * 1.96 * (variance / n).sqrt() / base
    );
}

/// Sets the field `knob` (`KEY=VALUE`) names.
fn set(config: &mut StrongConfig, knob: &str) {
    let (key, value) = knob.split_once('=').expect("KEY=VALUE");
    let value: u64 = value
        .parse()
        .unwrap_or_else(|_| panic!("not a whole number: {knob}"));
    match key {
        "depth" => config.depth = value as u32,
        "policy" => config.greedy_policy = value == 1,
        "leaf" => config.leaf_percent = value as u32,
        "leafkind" => {
            config.leaf_kind = match value {
                0 => LeafKind::SampledGreedy,
                1 => LeafKind::Immediate,
                _ => LeafKind::TopTwo,
            }
        }
        "second" => config.second_percent = value as u32,
        "halve" => config.halve = value == 1,
        "rounds" => config.rounds = Some(value),
        _ => panic!("unknown knob {key}: depth, policy, leaf, leafkind, second, halve or rounds"),
    }
}

/// The total of the game of `k` digits from game seed `seed` played by `choose`.
fn play(k: u8, seed: u32, mut choose: impl FnMut(&State) -> Swap) -> i64 {
    let mut state = Crush::new_seeded(k, seed);
    while state.swaps_left() > 0 {
        let swap = choose(&state);
        state = Crush::apply(&state, &swap);
    }
    state.score()
}
