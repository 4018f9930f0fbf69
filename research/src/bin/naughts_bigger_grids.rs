//! How Naughts' `perfect` level fares under a time budget on grids bigger than
//! 3×3, where it rarely proves a move: whole games against `greedy`, `perfect`
//! taking each side in turn, with the results and how many of `perfect`'s
//! moves were proven.
//!
//! ```text
//! cargo run --release -p gamebot-research --bin naughts_bigger_grids -- [GAMES] [MS]
//! ```
//!
//! Defaults: 10 games per board (4×4 with 5 and 9 pieces, 5×5 with 6, 8×8
//! with 9), 100 ms a `perfect` move; `greedy` moves at once.

use gamebot::game::{BotParams, Bots, Budget, LevelSpec, Outcome, Rules, Side};
use gamebot::games::naughts::{Naughts, State};
use std::collections::BTreeMap;

fn main() {
    let arg = |i: usize, default: u64| {
        std::env::args().nth(i).map_or(default, |a| {
            a.parse().unwrap_or_else(|_| panic!("not a count: {a}"))
        })
    };
    let games = arg(1, 10);
    let ms = arg(2, 100);
    let perfect_level = LevelSpec::parse("perfect").expect("a level");
    let greedy_level = LevelSpec::parse("greedy").expect("a level");
    println!("| board | perfect's results against greedy | perfect's moves proven |");
    println!("|---|---|---|");
    for (grid, pieces) in [(4u8, 5u8), (4, 9), (5, 6), (8, 9)] {
        let mut tally = BTreeMap::new();
        let (mut proven, mut moves) = (0, 0);
        for game in 0..games {
            let perfect = if game % 2 == 0 {
                Side::First
            } else {
                Side::Second
            };
            let mut state = State::new(grid, pieces);
            let mut ply = 0;
            while !Naughts::outcome(&state).is_over() {
                let params = BotParams::seeded(game * 1_000 + ply);
                let choice = if Naughts::to_move(&state) == perfect {
                    let choice = Naughts::choose_move(
                        &state,
                        &perfect_level,
                        &params,
                        &Budget::with_time_ms(ms),
                    )
                    .expect("a move");
                    moves += 1;
                    proven += u32::from(choice.report.proven == Some(true));
                    choice
                } else {
                    Naughts::choose_move(&state, &greedy_level, &params, &Budget::unlimited())
                        .expect("a move")
                };
                state = Naughts::apply(&state, &choice.mv);
                ply += 1;
            }
            let result = match Naughts::outcome(&state) {
                Outcome::Win { winner, .. } if winner == perfect => "win",
                Outcome::Win { .. } => "loss",
                _ => "draw",
            };
            *tally.entry(result).or_insert(0) += 1;
        }
        println!("| {grid}×{grid}/{pieces} | {tally:?} | {proven}/{moves} |");
    }
}
