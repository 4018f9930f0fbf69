//! What Number Crush's `strong` gains over greedy, and what is left for it to
//! gain. `strong` is one step of policy improvement on greedy: its rollouts
//! value a swap by its points and those of the greedy swaps after it. Here,
//! on boards from greedy games and from `strong` games, every matching swap
//! (a choice) is played on many sampled refills, the same for every choice,
//! and greedy plays on for a few swaps; a choice's value is its mean points
//! up to the last of those swaps. For each source of boards this prints what
//! the best choice is worth over greedy's pick (the most one step of
//! improvement can gain there), what `strong`'s pick gives up against the
//! best, and how often the two agree. The best is chosen on half the samples
//! and every pick valued on the other half, so the noise a choice was picked
//! for does not count in its favour.
//!
//! ```text
//! cargo run --release -p gamebot-research --bin crush_advantage -- [GAMES] [SAMPLES] [LATER] [NODES]
//! ```
//!
//! Defaults: 10 games of each (seeds 100 and up, a board every 10 swaps from
//! swap 5), 1,000 samples a choice, 4 greedy swaps after the choice, `strong`
//! with 5,700 nodes a swap (about 50 ms). The two sources run on two threads.

use gamebot_research::crush as common;

use common::{futures, horizon_value, GameBoard};
use gamebot::games::crush::bots::View;
use gamebot::games::crush::columns::Columns;
use gamebot::games::crush::notation::Swap;
use gamebot::games::crush::State;

/// The digits of the boards studied.
const K: u8 = 4;

/// What is measured on one source of boards, summed over its boards.
#[derive(Default)]
struct Totals {
    boards: u32,
    best_over_greedy: f64,
    best_over_strong: f64,
    agree: u32,
}

fn main() {
    let mut args = common::counts();
    let games = args.next().unwrap_or(10);
    let samples = args.next().unwrap_or(1_000);
    let later = args.next().unwrap_or(4) as usize;
    let nodes = args.next().unwrap_or(5_700);

    let strong = |state: &State, game: u64, swap: u64| strong_pick(state, game, swap, nodes);
    let (greedy_games, strong_games) = std::thread::scope(|scope| {
        let greedy_games = scope.spawn(|| {
            let boards = common::greedy_boards(games, K);
            measure(&boards, samples, later, |b| {
                strong(&b.state, b.game, b.swap)
            })
        });
        let strong_games = scope.spawn(|| {
            let boards = common::game_boards(games, K, strong);
            measure(&boards, samples, later, |b| b.played)
        });
        (
            greedy_games.join().expect("greedy games"),
            strong_games.join().expect("strong games"),
        )
    });
    println!(
        "k = {K}, {samples} samples a choice, the choice and {later} greedy swaps after it, \
         strong at {nodes} nodes a swap"
    );
    println!("boards from    boards   best over greedy's pick   best over strong's pick   agree");
    for (name, totals) in [
        ("greedy games", greedy_games),
        ("strong games", strong_games),
    ] {
        let boards = f64::from(totals.boards);
        println!(
            "{name:<12}   {:>6}   {:>23.2}   {:>23.2}   {:>5}",
            totals.boards,
            totals.best_over_greedy / boards,
            totals.best_over_strong / boards,
            totals.agree
        );
    }
}

/// `strong`'s swap on a board, seeded by where the board comes from.
fn strong_pick(state: &State, game: u64, swap: u64, nodes: u64) -> Swap {
    common::strong_top(&View::of(state), common::board_seed(game, swap), nodes, 1)[0]
}

/// The totals over `boards` (boards with one choice, or where `strong`'s
/// pick matches nothing, are left out).
fn measure(
    boards: &[GameBoard],
    samples: u64,
    later: usize,
    strong: impl Fn(&GameBoard) -> Swap,
) -> Totals {
    let mut totals = Totals::default();
    for board in boards {
        let columns = Columns::of(board.state.board());
        let choices: Vec<Swap> = columns.matches().swaps().collect();
        let Some(strong_pick) = choices.iter().position(|&c| c == strong(board)) else {
            continue;
        };
        if choices.len() < 2 {
            continue;
        }
        let values: Vec<[f64; 2]> = choices
            .iter()
            .map(|&choice| {
                let halves = futures(&columns, choice, K, samples, later);
                [horizon_value(&halves, 0), horizon_value(&halves, 1)]
            })
            .collect();
        let best = (0..choices.len())
            .max_by(|&x, &y| values[x][0].total_cmp(&values[y][0]))
            .expect("at least two choices");
        let greedy_pick = choices
            .iter()
            .position(|&c| c == board.greedy)
            .expect("greedy's swap matches");
        totals.boards += 1;
        totals.best_over_greedy += values[best][1] - values[greedy_pick][1];
        totals.best_over_strong += values[best][1] - values[strong_pick][1];
        totals.agree += u32::from(strong_pick == best);
    }
    totals
}
