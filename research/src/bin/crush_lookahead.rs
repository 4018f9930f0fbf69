//! How strong a one-swap look-ahead is as a Number Crush bot of its own,
//! against greedy on the same seeds: the swap with the most visible gain plus
//! `WEIGHT` times the best visible gain of the board it leaves (refills
//! unseen), weighing only the `TOP` swaps with the best visible gains. A
//! rollout policy for `strong` must play well and cost little; this measures
//! the first of the two (it costs up to `TOP` greedy scans a move).
//!
//! With `SAMPLES` above 0 the board a swap leaves is not taken with its
//! refills unseen (which counts every emptied cell as dead): each of the
//! `TOP` swaps is played on `SAMPLES` refills drawn from the bot's own
//! stream (the same draws for every swap weighed) and valued at its points
//! plus `WEIGHT` times the best visible gain of the sampled board, summed
//! over the draws. It costs up to `TOP × (SAMPLES + 1)` greedy scans a move.
//!
//! ```text
//! cargo run --release -p gamebot-research --bin crush_lookahead -- [GAMES] [WEIGHT] [TOP] [K] [SAMPLES]
//! ```
//!
//! Defaults: 300 games (seeds 1000 and up), weight 0.5, every matching swap,
//! k = 4, refills unseen (0 samples).

use gamebot_research::crush as common;

use gamebot::game::Rules;
use gamebot::games::crush::board::Unseen;
use gamebot::games::crush::bots::{self, Sampled};
use gamebot::games::crush::columns::Columns;
use gamebot::games::crush::notation::{Swap, ALL_SWAPS};
use gamebot::games::crush::Crush;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: f64| {
        args.get(i).map_or(default, |a| {
            a.parse().unwrap_or_else(|_| panic!("not a number: {a}"))
        })
    };
    let games = arg(0, 300.0) as u32;
    let weight = arg(1, 0.5);
    let top = arg(2, ALL_SWAPS.len() as f64) as usize;
    let k = arg(3, 4.0) as u8;
    let samples = arg(4, 0.0) as u64;

    let greedy = mean_score(games, k, |columns, _| Some(bots::greedy_on(columns).0));
    let weighed = Weighed { weight, top, k };
    let look = mean_score(games, k, |columns, seed| {
        if samples == 0 {
            weighed.unseen(columns)
        } else {
            weighed.sampled(columns, samples, seed)
        }
    });
    println!(
        "{games} games, k = {k}: greedy {greedy:.1}, look-ahead (weight {weight}, top {top}, {samples} samples) {look:.1}, {:+.2}%",
        100.0 * (look / greedy - 1.0)
    );
}

/// The mean total of `games` games played by `choose`, given the board and a
/// seed for its own draws (a fixed swap by the move number where it has none).
fn mean_score(games: u32, k: u8, choose: impl Fn(&Columns, u64) -> Option<Swap>) -> f64 {
    let mut total = 0i64;
    for game in 0..games {
        let mut state = Crush::new_seeded(k, 1000 + game);
        for swap in 0..100usize {
            let seed = u64::from(game) << 32 | swap as u64;
            let mv = choose(&Columns::of(state.board()), seed)
                .unwrap_or(ALL_SWAPS[swap % ALL_SWAPS.len()]);
            state = Crush::apply(&state, &mv);
        }
        total += state.score();
    }
    total as f64 / f64::from(games)
}

/// How the look-ahead weighs a swap: `weight` times the best visible gain of
/// the board it leaves, over the `top` swaps with the best visible gains, on
/// boards of digits `1..=k`.
struct Weighed {
    weight: f64,
    top: usize,
    k: u8,
}

impl Weighed {
    /// The matching swaps with the `top` best visible gains, best first, each
    /// with its gain and the board it leaves with its refills unseen.
    fn best_swaps(&self, columns: &Columns) -> Vec<(Swap, u32, Columns)> {
        let mut gains: Vec<(Swap, u32, Columns)> = columns
            .matches()
            .swaps()
            .map(|swap| {
                let mut after = *columns;
                let gain = after.swap_and_settle(swap.a(), swap.b(), &mut Unseen);
                (swap, gain, after)
            })
            .collect();
        gains.sort_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
        gains.truncate(self.top);
        gains
    }

    /// The look-ahead choice with refills unseen, or `None` when nothing matches.
    fn unseen(&self, columns: &Columns) -> Option<Swap> {
        let values = self
            .best_swaps(columns)
            .into_iter()
            .map(|(swap, gain, after)| {
                let value = f64::from(gain) + self.weight * f64::from(bots::greedy_on(&after).1);
                (swap, value)
            });
        first_best(values)
    }

    /// The look-ahead choice over `samples` sampled refills, drawn from
    /// `seed` the same way for every swap, or `None` when nothing matches.
    fn sampled(&self, columns: &Columns, samples: u64, seed: u64) -> Option<Swap> {
        let values = self.best_swaps(columns).into_iter().map(|(swap, _, _)| {
            let value: f64 = (0..samples)
                .map(|draw| {
                    let mut stream = Sampled::new(common::draw_seed(seed, draw), self.k);
                    let mut after = *columns;
                    let points = after.swap_and_settle(swap.a(), swap.b(), &mut stream);
                    f64::from(points) + self.weight * f64::from(bots::greedy_on(&after).1)
                })
                .sum();
            (swap, value)
        });
        first_best(values)
    }
}

/// The swap with the highest value, the first among equals.
fn first_best(values: impl Iterator<Item = (Swap, f64)>) -> Option<Swap> {
    let mut best: Option<(Swap, f64)> = None;
    for (swap, value) in values {
        if best.map_or(true, |(_, b)| value > b) {
            best = Some((swap, value));
        }
    }
    best.map(|(swap, _)| swap)
}
