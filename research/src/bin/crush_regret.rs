//! How much Number Crush's `strong` loses to its own sampling noise: on k = 4
//! boards from greedy games, the swap `strong` picks with a small node budget
//! is valued by a `strong` search with a large one (the reference), and the
//! regret is the reference value of its best swap minus that of the pick
//! (0 when they agree). The same is shown for `greedy`'s pick.
//!
//! A small mean regret says more time or less noisy sampling cannot buy much:
//! what is left is in `strong`'s model of the future, not in its estimates.
//!
//! ```text
//! cargo run --release -p gamebot-research --bin crush_regret -- [GAMES] [SMALL_NODES] [REFERENCE_NODES]
//! ```
//!
//! Defaults: 10 games (seeds 100 and up, a board every 10 swaps from swap 5),
//! 5,700 nodes (about what 50 ms buys) and a 200,000-node reference.

use gamebot_research::crush as common;

use gamebot::game::{BotParams, Budget};
use gamebot::games::crush::bots::{self, View};
use gamebot::games::crush::notation::Swap;
/// Candidates the reference values; a pick outside them counts as the last one.
const REFERENCE_TOP: usize = 10;

fn main() {
    let mut args = common::counts();
    let games = args.next().unwrap_or(10);
    let small = args.next().unwrap_or(5_700);
    let reference = args.next().unwrap_or(200_000);

    let (mut strong_regret, mut greedy_regret, mut boards, mut agree) = (0i64, 0i64, 0i64, 0);
    for board in common::greedy_boards(games, 4) {
        let view = View::of(&board.state);
        let values = reference_values(&view, reference);
        let pick = common::strong_top(&view, board.seed(), small, 1)[0];
        let best = values[0].1;
        strong_regret += best - value_of(&values, pick);
        greedy_regret += best - value_of(&values, board.greedy);
        agree += usize::from(pick == values[0].0);
        boards += 1;
    }
    let mean = |total: i64| total as f64 / boards as f64;
    println!(
        "{boards} boards, {small} vs {reference} nodes: strong picks the reference's best on {agree}, \
         mean regret {:.2} (greedy's pick: {:.2})",
        mean(strong_regret),
        mean(greedy_regret)
    );
}

/// The reference's top candidates with their values, best first.
fn reference_values(view: &View, nodes: u64) -> Vec<(Swap, i64)> {
    bots::analyze(
        view,
        &gamebot::game::Scope::top(REFERENCE_TOP),
        &BotParams::seeded(999),
        &Budget::unlimited().nodes(nodes),
    )
    .moves
    .into_iter()
    .map(|m| (m.mv, m.score))
    .collect()
}

/// The reference value of `swap`, or the lowest listed if it is not listed.
fn value_of(values: &[(Swap, i64)], swap: Swap) -> i64 {
    values
        .iter()
        .find(|(s, _)| *s == swap)
        .or(values.last())
        .map_or(0, |(_, v)| *v)
}
