//! How strong a one-swap look-ahead is as a Number Crush bot of its own,
//! against greedy on the same seeds: the swap with the most visible gain plus
//! `WEIGHT` times the best visible gain of the board it leaves (refills
//! unseen), weighing only the `TOP` swaps with the best visible gains. A
//! rollout policy for `strong` must play well and cost little; this measures
//! the first of the two (it costs up to `TOP` greedy scans a move).
//!
//! ```text
//! cargo run --release --example crush_lookahead -- [GAMES] [WEIGHT] [TOP] [K]
//! ```
//!
//! Defaults: 300 games (seeds 1000 and up), weight 0.5, every matching swap, k = 4.

use gamebot::game::Game;
use gamebot::games::crush::board::Unseen;
use gamebot::games::crush::bot;
use gamebot::games::crush::columns::Columns;
use gamebot::games::crush::moves::{Swap, ALL_SWAPS};
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

    let greedy = mean_score(games, k, |columns| Some(bot::greedy_on(columns).0));
    let look = mean_score(games, k, |columns| look_ahead(columns, weight, top));
    println!(
        "{games} games, k = {k}: greedy {greedy:.1}, look-ahead (weight {weight}, top {top}) {look:.1}, {:+.2}%",
        100.0 * (look / greedy - 1.0)
    );
}

/// The mean total of `games` games played by `choose` (a fixed swap by the
/// move number where it has none).
fn mean_score(games: u32, k: u8, choose: impl Fn(&Columns) -> Option<Swap>) -> f64 {
    let mut total = 0i64;
    for game in 0..games {
        let mut state = Crush::new_seeded(k, 1000 + game);
        for swap in 0..100usize {
            let mv =
                choose(&Columns::of(&state.board)).unwrap_or(ALL_SWAPS[swap % ALL_SWAPS.len()]);
            state = Crush::apply(&state, &mv);
        }
        total += state.score;
    }
    total as f64 / f64::from(games)
}

/// The look-ahead choice, or `None` when nothing matches.
fn look_ahead(columns: &Columns, weight: f64, top: usize) -> Option<Swap> {
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
    gains.truncate(top);
    let mut best: Option<(Swap, f64)> = None;
    for (swap, gain, after) in gains {
        let value = f64::from(gain) + weight * f64::from(bot::greedy_on(&after).1);
        if best.map_or(true, |(_, b)| value > b) {
            best = Some((swap, value));
        }
    }
    best.map(|(swap, _)| swap)
}
