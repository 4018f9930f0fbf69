//! How far ahead a Number Crush choice still matters. On boards from greedy
//! games, every matching swap (a choice) is played on many sampled refills,
//! the same for every choice (common random numbers), then greedy plays on
//! for a few swaps; for each choice this gives the mean points of the swap
//! itself and of each swap after it.
//!
//! Two tables: per swap after the choice, how much the choices move its mean
//! points (the standard deviation over a board's choices, with the sampling
//! noise taken out, beside that noise); and what choosing by the points up to
//! swap H gives up, in points up to the last swap, against choosing by all of
//! them (chosen on half the samples and valued on the other half, so the
//! noise a choice was picked for does not count in its favour). Where the
//! later swaps barely move, no model of the far future can choose better, as
//! long as greedy is what plays on.
//!
//! ```text
//! cargo run --release -p gamebot-research --bin crush_horizon -- [GAMES] [SAMPLES] [K] [LATER]
//! ```
//!
//! Defaults: 10 games (seeds 100 and up, a board every 10 swaps from swap 5),
//! 1,000 samples a choice, k = 4, 3 greedy swaps after the choice.

use gamebot_research::crush as common;

use common::{futures, horizon_sum, horizon_value, Halves};
use gamebot::games::crush::columns::Columns;
use gamebot::games::crush::notation::Swap;

/// What is measured, summed over the boards.
struct Totals {
    boards: u32,
    /// Per swap after the choice: the spread over choices and the noise.
    spread: Vec<(f64, f64)>,
    /// Per rule (H = 0..=later, then greedy's pick): what it gives up.
    given_up: Vec<f64>,
}

fn main() {
    let mut args = common::counts();
    let games = args.next().unwrap_or(10);
    let samples = args.next().unwrap_or(1_000);
    let k = args.next().unwrap_or(4) as u8;
    let later = args.next().unwrap_or(3) as usize;

    let mut totals = Totals {
        boards: 0,
        spread: vec![(0.0, 0.0); later + 1],
        given_up: vec![0.0; later + 2],
    };
    for board in common::greedy_boards(games, k) {
        let columns = Columns::of(board.state.board());
        measure(&columns, board.greedy, k, samples, &mut totals);
    }
    print(&totals, k, samples);
}

/// Adds one board's figures to the totals (boards with one choice teach nothing).
fn measure(board: &Columns, greedy: Swap, k: u8, samples: u64, totals: &mut Totals) {
    let later = totals.spread.len() - 1;
    let choices: Vec<Swap> = board.matches().swaps().collect();
    if choices.len() < 2 {
        return;
    }
    let stats: Vec<Vec<Halves>> = choices
        .iter()
        .map(|&choice| futures(board, choice, k, samples, later))
        .collect();
    for (step, total) in totals.spread.iter_mut().enumerate() {
        let (spread, noise) = spread_over_choices(stats.iter().map(|m| &m[step]));
        total.0 += spread;
        total.1 += noise;
    }
    let greedy_pick = choices
        .iter()
        .position(|&c| c == greedy)
        .expect("greedy's swap matches");
    let reference = horizon_value(&stats[best_over(&stats, later)], 1);
    for (rule, total) in totals.given_up.iter_mut().enumerate() {
        let pick = if rule <= later {
            best_over(&stats, rule)
        } else {
            greedy_pick
        };
        *total += reference - horizon_value(&stats[pick], 1);
    }
    totals.boards += 1;
}

fn print(totals: &Totals, k: u8, samples: u64) {
    let boards = f64::from(totals.boards);
    let later = totals.spread.len() - 1;
    println!(
        "{} boards, k = {k}, {samples} samples a choice",
        totals.boards
    );
    println!("swap after the choice   spread over choices   noise of one mean");
    for (step, (spread, noise)) in totals.spread.iter().enumerate() {
        println!(
            "{step:>21}   {:>19.2}   {:>17.2}",
            spread / boards,
            noise / boards
        );
    }
    println!("choosing by the points up to swap H gives up, of the points up to swap {later}:");
    for (rule, given_up) in totals.given_up.iter().enumerate() {
        let name = if rule <= later {
            format!("H = {rule}")
        } else {
            "greedy's pick".to_string()
        };
        println!("{name:>21}   {:>8.2}", given_up / boards);
    }
}

/// The choice with the most points up to swap `horizon` on the first half.
fn best_over(stats: &[Vec<Halves>], horizon: usize) -> usize {
    (0..stats.len())
        .max_by(|&x, &y| {
            horizon_sum(&stats[x], horizon, 0).total_cmp(&horizon_sum(&stats[y], horizon, 0))
        })
        .expect("at least two choices")
}

/// The standard deviation over the choices of their true means, and the
/// noise of one choice's mean over both halves. The spread is the covariance
/// over the choices of the two halves' means: the shared refills make the
/// noise of one half alike across choices, but the halves' noises are
/// independent, so only the true differences between choices are left in it
/// (0 where the estimate comes out negative).
fn spread_over_choices<'a>(halves: impl Iterator<Item = &'a Halves>) -> (f64, f64) {
    let halves: Vec<&Halves> = halves.collect();
    let n = halves.len() as f64;
    let centre = |h: usize| halves.iter().map(|m| m.0[h].mean()).sum::<f64>() / n;
    let (ca, cb) = (centre(0), centre(1));
    let covariance = halves
        .iter()
        .map(|m| (m.0[0].mean() - ca) * (m.0[1].mean() - cb))
        .sum::<f64>()
        / (n - 1.0);
    let noise = halves
        .iter()
        .map(|m| (m.0[0].mean_variance() + m.0[1].mean_variance()) / 4.0)
        .sum::<f64>()
        / n;
    (covariance.max(0.0).sqrt(), noise.sqrt())
}
