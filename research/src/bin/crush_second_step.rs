//! Whether a second step of policy improvement would lift Number Crush's
//! `strong` at k = 4. `strong` values a swap as if greedy played after it
//! (one step of improvement on greedy). Here its best few candidates, on
//! boards from its own games, are valued with a small `strong` search making
//! the next swap instead, then greedy for a few swaps, over sampled refills
//! shared by the candidates. The best candidate by that value is chosen on
//! one half of the samples and valued against `strong`'s own pick on the other
//! half, and the other way round: the printed gain is what choosing by the
//! second step's values would add a swap, with its 95% margin over boards.
//!
//! It also prints what the small search makes over greedy on the board a
//! candidate leaves, and how much that differs between the candidates (the
//! largest minus the smallest, sampling noise included).
//!
//! ```text
//! cargo run --release -p gamebot-research --bin crush_second_step -- [GAMES] [SAMPLES] [SMALL_NODES] [TOP] [LATER]
//! ```
//!
//! Defaults: 10 games (seeds 100 and up, a board every 10 swaps from swap 5),
//! 400 samples a candidate, the small search at 2,000 nodes, `strong`'s 3 best
//! candidates at 5,700 nodes (about 50 ms), 2 greedy swaps after the small
//! search's. The boards are split over two threads.

use gamebot_research::crush as common;

use common::{board_seed, draw_seed, play_greedy, strong_top, GameBoard};
use gamebot::games::crush::bots::{self, Sampled, View};
use gamebot::games::crush::columns::Columns;
use gamebot::games::crush::notation::Swap;

/// The digits of the boards studied.
const K: u8 = 4;
/// `strong`'s budget for the boards' games and its candidates.
const STRONG_NODES: u64 = 5_700;

/// The study's settings.
#[derive(Clone, Copy)]
struct Settings {
    samples: u64,
    small_nodes: u64,
    top: usize,
    later: usize,
}

/// What one board shows.
struct BoardResult {
    /// What the second step's pick gains over `strong`'s (cross-validated).
    gain: f64,
    /// The small search's mean gain over greedy on the boards the candidates leave.
    small_over_greedy: f64,
    /// The largest minus the smallest of that gain over the candidates.
    spread: f64,
    /// Whether the second step, on all samples, picks what `strong` picks.
    agree: bool,
}

fn main() {
    let mut args = common::counts();
    let games = args.next().unwrap_or(10);
    let settings = Settings {
        samples: args.next().unwrap_or(400),
        small_nodes: args.next().unwrap_or(2_000),
        top: args.next().unwrap_or(3) as usize,
        later: args.next().unwrap_or(2) as usize,
    };

    let boards = common::game_boards(games, K, |state, game, swap| {
        strong_top(&View::of(state), board_seed(game, swap), STRONG_NODES, 1)[0]
    });
    let (left, right) = boards.split_at(boards.len() / 2);
    let study = |part: &[GameBoard]| -> Vec<BoardResult> {
        part.iter().filter_map(|b| measure(b, settings)).collect()
    };
    let results = std::thread::scope(|scope| {
        let right = scope.spawn(|| study(right));
        let mut all = study(left);
        all.extend(right.join().expect("the second thread"));
        all
    });
    report(&results, settings);
}

/// Prints the means over the boards.
fn report(results: &[BoardResult], settings: Settings) {
    let n = results.len() as f64;
    let mean = |f: fn(&BoardResult) -> f64| results.iter().map(f).sum::<f64>() / n;
    let gain = mean(|r| r.gain);
    let variance = results.iter().map(|r| (r.gain - gain).powi(2)).sum::<f64>() / (n - 1.0);
    println!(
        "k = {K}, {} boards of strong games, {} samples a candidate, strong's {} best, \
         the small search at {} nodes, {} greedy swaps after it",
        results.len(),
        settings.samples,
        settings.top,
        settings.small_nodes,
        settings.later
    );
    println!(
        "second step over strong's pick: {gain:+.2} points a swap (± {:.2}); same pick on {}",
        1.96 * (variance / n).sqrt(),
        results.iter().filter(|r| r.agree).count()
    );
    println!(
        "small search over greedy on the board a candidate leaves: {:.2} points, \
         {:.2} between the candidates",
        mean(|r| r.small_over_greedy),
        mean(|r| r.spread)
    );
}

/// One board's result; none where `strong` has a single candidate.
fn measure(board: &GameBoard, settings: Settings) -> Option<BoardResult> {
    let seed = board.seed();
    let candidates = strong_top(&View::of(&board.state), seed, STRONG_NODES, settings.top);
    if candidates.len() < 2 {
        return None;
    }
    let columns = Columns::of(board.state.board());
    // totals[candidate][half]: points with the small search next, and with greedy next.
    let mut totals = vec![[[0.0f64; 2]; 2]; candidates.len()];
    for sample in 0..settings.samples {
        let stream_seed = draw_seed(seed << 32, sample);
        for (candidate, &swap) in candidates.iter().enumerate() {
            let [small, greedy] =
                small_and_greedy_next(&columns, swap, stream_seed, sample, settings);
            totals[candidate][(sample % 2) as usize][0] += small;
            totals[candidate][(sample % 2) as usize][1] += greedy;
        }
    }
    let half_samples = (settings.samples / 2) as f64;
    let value = |c: usize, half: usize| totals[c][half][0] / half_samples;
    let best_on = |half: usize| {
        (0..candidates.len())
            .max_by(|&x, &y| value(x, half).total_cmp(&value(y, half)))
            .expect("two candidates or more")
    };
    // `strong`'s pick is candidate 0.
    let gain = ((value(best_on(0), 1) - value(0, 1)) + (value(best_on(1), 0) - value(0, 0))) / 2.0;
    let small_over_greedy: Vec<f64> = totals
        .iter()
        .map(|t| (t[0][0] + t[1][0] - t[0][1] - t[1][1]) / settings.samples as f64)
        .collect();
    let both = |c: usize| value(c, 0) + value(c, 1);
    let best = (0..candidates.len())
        .max_by(|&x, &y| both(x).total_cmp(&both(y)))
        .expect("two candidates or more");
    Some(BoardResult {
        gain,
        small_over_greedy: small_over_greedy.iter().sum::<f64>() / small_over_greedy.len() as f64,
        spread: small_over_greedy.iter().copied().fold(f64::MIN, f64::max)
            - small_over_greedy.iter().copied().fold(f64::MAX, f64::min),
        agree: best == 0,
    })
}

/// The points of `swap` and of the swaps after it on one sample: with the
/// small search making the next swap, and with greedy making it. Both then let
/// greedy play on, on the same refills.
fn small_and_greedy_next(
    columns: &Columns,
    swap: Swap,
    stream_seed: u64,
    sample: u64,
    settings: Settings,
) -> [f64; 2] {
    let mut after = *columns;
    let points = after.swap_and_settle(swap.a(), swap.b(), &mut Sampled::new(stream_seed, K));
    let view = View {
        board: after.to_board(),
        k: K,
    };
    let small_pick = strong_top(&view, stream_seed ^ 0x5555, settings.small_nodes, 1)[0];
    let greedy_pick = bots::greedy_on(&after).0;
    [small_pick, greedy_pick].map(|next| {
        let mut board = after;
        let mut stream = Sampled::new(stream_seed ^ 0xa5a5_a5a5, K);
        let mut total = points + board.swap_and_settle(next.a(), next.b(), &mut stream);
        for _ in 0..settings.later {
            total += play_greedy(&mut board, &mut stream, sample);
        }
        f64::from(total)
    })
}
