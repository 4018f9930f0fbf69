//! A cheap estimate of a Number Crush swap's expected points, and how well it
//! plays. Greedy ranks swaps by their visible gain (the cascade among cells
//! already on the board); the refills add points where the cells they fill
//! can complete runs. On boards of greedy games, every matching swap gets
//! three features: its visible gain, the cells it leaves empty, and the run
//! potential of the board it leaves (over every line of three cells holding
//! an empty one, the chance that uniform refills make the three equal).
//! A least-squares fit of the swap's expected points (300 sampled refills)
//! on the gain alone and on all three is printed with its R²; then the
//! fitted estimate plays whole games as a bot, against greedy on the same
//! seeds. A better myopic policy as cheap as greedy is what `strong`'s
//! rollouts could play on with.
//!
//! ```text
//! cargo run --release -p gamebot-research --bin crush_expected -- [GAMES] [PLAYED] [K]
//! ```
//!
//! Defaults: boards of 10 greedy games (seeds 100 and up, a board every 10
//! swaps from swap 5), 200 games played by each bot (seeds 5,000 and up),
//! k = 4.

use gamebot_research::crush as common;

use gamebot::game::Rules;
use gamebot::games::crush::board::{Unseen, SIDE, UNKNOWN};
use gamebot::games::crush::bots::{self, Sampled};
use gamebot::games::crush::columns::Columns;
use gamebot::games::crush::notation::{Swap, ALL_SWAPS};
use gamebot::games::crush::Crush;

/// Refill samples behind a swap's expected points.
const SAMPLES: u64 = 300;

/// A swap's features: visible gain, empty cells, run potential, and 1 (the
/// fit's constant).
type Features = [f64; 4];

fn main() {
    let mut args = common::counts();
    let games = args.next().unwrap_or(10);
    let played = args.next().unwrap_or(200);
    let k = args.next().unwrap_or(4) as u8;

    let mut swaps = Vec::new();
    for board in common::greedy_boards(games, k) {
        let columns = Columns::of(board.state.board());
        for swap in columns.matches().swaps() {
            swaps.push((features(&columns, swap, k), expected(&columns, swap, k)));
        }
    }
    let (gain_only, gain_r2) = fit(&swaps, &[0, 3]);
    let (weights, r2) = fit(&swaps, &[0, 1, 2, 3]);
    println!(
        "{} swaps, k = {k}: expected points = {:.3} × gain {:+.2} (R² {gain_r2:.3}); \
         = {:.3} × gain {:+.3} × empty cells {:+.2} × potential {:+.2} (R² {r2:.3})",
        swaps.len(),
        gain_only[0],
        gain_only[1],
        weights[0],
        weights[1],
        weights[2],
        weights[3]
    );

    let greedy = mean_score(played, k, |columns| bots::greedy_on(columns).0);
    let estimate = mean_score(played, k, |columns| {
        let value = |swap: &Swap| {
            let f = features(columns, *swap, k);
            (0..3).map(|i| weights[i] * f[i]).sum::<f64>()
        };
        // The first in position order among equals, as greedy breaks ties.
        columns
            .matches()
            .swaps()
            .fold((ALL_SWAPS[0], f64::MIN), |best, swap| {
                let v = value(&swap);
                if v > best.1 {
                    (swap, v)
                } else {
                    best
                }
            })
            .0
    });
    println!(
        "{played} games: greedy {greedy:.1}, the estimate {estimate:.1}, {:+.2}%",
        100.0 * (estimate / greedy - 1.0)
    );
}

/// The features of `swap` on `columns`.
fn features(columns: &Columns, swap: Swap, k: u8) -> Features {
    let mut after = *columns;
    let gain = after.swap_and_settle(swap.a(), swap.b(), &mut Unseen);
    let cell = |row: usize, col: usize| after.get(row * SIDE + col);
    let empty = (0..SIDE * SIDE)
        .filter(|&i| after.get(i) == UNKNOWN)
        .count();
    let mut potential = 0.0;
    for line in 0..SIDE {
        for start in 0..SIDE - 2 {
            potential += completion_chance([0, 1, 2].map(|i| cell(line, start + i)), k);
            potential += completion_chance([0, 1, 2].map(|i| cell(start + i, line)), k);
        }
    }
    [f64::from(gain), empty as f64, potential, 1.0]
}

/// The chance that uniform refills of the empty cells among `cells` make all
/// three equal (0 when none is empty: the board has settled).
fn completion_chance(cells: [u8; 3], k: u8) -> f64 {
    let empty = cells.iter().filter(|&&d| d == UNKNOWN).count() as i32;
    let mut known = cells.iter().filter(|&&d| d != UNKNOWN);
    let p = 1.0 / f64::from(k);
    match (empty, known.next()) {
        (0, _) => 0.0,
        (_, None) => p * p,
        (_, Some(&first)) if known.all(|&d| d == first) => p.powi(empty),
        _ => 0.0,
    }
}

/// The mean points of `swap` over sampled refills.
fn expected(columns: &Columns, swap: Swap, k: u8) -> f64 {
    let total: u32 = (0..SAMPLES)
        .map(|sample| {
            let mut stream = Sampled::new(common::draw_seed(77, sample), k);
            let mut after = *columns;
            after.swap_and_settle(swap.a(), swap.b(), &mut stream)
        })
        .sum();
    f64::from(total) / SAMPLES as f64
}

/// Least squares of the points on the features numbered in `used`: the
/// weights (in that order) and R².
fn fit(swaps: &[(Features, f64)], used: &[usize]) -> (Vec<f64>, f64) {
    let n = used.len();
    let mut normal = vec![vec![0.0; n + 1]; n];
    for (f, points) in swaps {
        for i in 0..n {
            for j in 0..n {
                normal[i][j] += f[used[i]] * f[used[j]];
            }
            normal[i][n] += f[used[i]] * points;
        }
    }
    let weights = solve(normal);
    let mean = swaps.iter().map(|s| s.1).sum::<f64>() / swaps.len() as f64;
    let (mut residual, mut total) = (0.0, 0.0);
    for (f, points) in swaps {
        let predicted: f64 = (0..n).map(|i| weights[i] * f[used[i]]).sum();
        residual += (points - predicted).powi(2);
        total += (points - mean).powi(2);
    }
    (weights, 1.0 - residual / total)
}

/// Solves the linear system whose augmented rows are `rows` (Gaussian
/// elimination with partial pivoting).
fn solve(mut rows: Vec<Vec<f64>>) -> Vec<f64> {
    let n = rows.len();
    for i in 0..n {
        let pivot = (i..n)
            .max_by(|&x, &y| rows[x][i].abs().total_cmp(&rows[y][i].abs()))
            .expect("a row");
        rows.swap(i, pivot);
        let (upper, lower) = rows.split_at_mut(i + 1);
        let pivot_row = &upper[i];
        for row in lower {
            let factor = row[i] / pivot_row[i];
            for (x, p) in row.iter_mut().zip(pivot_row).skip(i) {
                *x -= factor * p;
            }
        }
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        x[i] = (rows[i][n] - (i + 1..n).map(|l| rows[i][l] * x[l]).sum::<f64>()) / rows[i][i];
    }
    x
}

/// The mean total of `games` games played by `choose`.
fn mean_score(games: u64, k: u8, choose: impl Fn(&Columns) -> Swap) -> f64 {
    let total: i64 = (0..games)
        .map(|game| {
            let mut state = Crush::new_seeded(k, 5_000 + game as u32);
            for _ in 0..100 {
                state = Crush::apply(&state, &choose(&Columns::of(state.board())));
            }
            state.score()
        })
        .sum();
    total as f64 / games as f64
}
