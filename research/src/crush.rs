//! What the Number Crush diagnostics share: their count arguments, the boards
//! they study (taken from whole games), and the sampled futures of a choice
//! with greedy playing on.

use gamebot::game::{BotParams, Budget, Rules};
use gamebot::games::crush::bots::{self, Sampled, View};
use gamebot::games::crush::columns::Columns;
use gamebot::games::crush::notation::{Swap, ALL_SWAPS};
use gamebot::games::crush::{Crush, State};

/// Boards taken per game: every 10th swap, from swap 5.
const EVERY: u64 = 10;

/// The command line's arguments as counts, in order.
pub fn counts() -> impl Iterator<Item = u64> {
    std::env::args().skip(1).map(|a| {
        a.parse::<u64>()
            .unwrap_or_else(|_| panic!("not a count: {a}"))
    })
}

/// A board from a game, with where it comes from, greedy's swap there and the
/// swap the game's player made.
pub struct GameBoard {
    /// The game: its seed is 100 plus this.
    pub game: u64,
    /// The swap number in that game.
    pub swap: u64,
    /// The state before the swap.
    pub state: State,
    /// Greedy's swap there.
    pub greedy: Swap,
    /// The swap the player made there.
    pub played: Swap,
}

impl GameBoard {
    /// The seed of `strong`'s search on this board: see [`board_seed`].
    pub fn seed(&self) -> u64 {
        board_seed(self.game, self.swap)
    }
}

/// The seed of a `strong` search on a board of a studied game, from where the
/// board comes from, so every study searches a board the same way.
pub fn board_seed(game: u64, swap: u64) -> u64 {
    game * 1_000 + swap
}

/// `strong`'s best `top` swaps on `view` at `nodes` nodes a search, best first.
pub fn strong_top(view: &View, seed: u64, nodes: u64, top: usize) -> Vec<Swap> {
    bots::analyze(
        view,
        &gamebot::game::Scope::top(top),
        &BotParams::seeded(seed),
        &Budget::unlimited().nodes(nodes),
    )
    .moves
    .iter()
    .map(|m| m.mv)
    .collect()
}

/// The seed of the refill stream of draw number `draw` from a study's `base`:
/// draws far apart in the stream generator's sequence.
pub fn draw_seed(base: u64, draw: u64) -> u64 {
    base ^ draw.wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// Boards of `games` greedy games (seeds 100 and up) with digits `1..=k`,
/// every 10th swap from swap 5.
pub fn greedy_boards(games: u64, k: u8) -> Vec<GameBoard> {
    game_boards(games, k, |state, _, _| bots::greedy(state.board()).0)
}

/// Boards of `games` games (seeds 100 and up) with digits `1..=k`, every 10th
/// swap from swap 5, played by `player` (given the state, the game and the
/// swap number).
pub fn game_boards(
    games: u64,
    k: u8,
    mut player: impl FnMut(&State, u64, u64) -> Swap,
) -> Vec<GameBoard> {
    let mut boards = Vec::new();
    for game in 0..games {
        let mut state = Crush::new_seeded(k, 100 + game as u32);
        for swap in 0..100u64 {
            let played = player(&state, game, swap);
            if swap % EVERY == EVERY / 2 {
                boards.push(GameBoard {
                    game,
                    swap,
                    state: state.clone(),
                    greedy: bots::greedy(state.board()).0,
                    played,
                });
            }
            state = Crush::apply(&state, &played);
        }
    }
    boards
}

/// Running sums of one quantity's samples.
#[derive(Clone, Copy, Default)]
pub struct Moments {
    n: f64,
    sum: f64,
    squares: f64,
}

impl Moments {
    fn add(&mut self, x: f64) {
        self.n += 1.0;
        self.sum += x;
        self.squares += x * x;
    }

    /// The mean of the samples.
    pub fn mean(&self) -> f64 {
        self.sum / self.n
    }

    /// The variance of the mean.
    pub fn mean_variance(&self) -> f64 {
        let mean = self.mean();
        (self.squares / self.n - mean * mean) / (self.n - 1.0)
    }
}

/// One quantity's samples split in two halves (even and odd samples), whose
/// noises are independent.
#[derive(Clone, Copy, Default)]
pub struct Halves(pub [Moments; 2]);

/// The points of `choice` and of the `later` greedy swaps after it, one
/// [`Halves`] a swap, over `samples` sampled refill streams (the same streams
/// for every choice: common random numbers).
pub fn futures(board: &Columns, choice: Swap, k: u8, samples: u64, later: usize) -> Vec<Halves> {
    let mut moments = vec![Halves::default(); later + 1];
    for sample in 0..samples {
        let half = (sample % 2) as usize;
        let mut stream = Sampled::new(draw_seed(0, sample), k);
        let mut columns = *board;
        moments[0].0[half].add(f64::from(columns.swap_and_settle(
            choice.a(),
            choice.b(),
            &mut stream,
        )));
        for step in moments.iter_mut().skip(1) {
            step.0[half].add(f64::from(play_greedy(&mut columns, &mut stream, sample)));
        }
    }
    moments
}

/// Plays greedy's swap on `columns` with refills from `stream` and returns its
/// points. Where nothing matches (rare) it plays a swap fixed by `sample`, the
/// same for every choice studied on that sample.
pub fn play_greedy(columns: &mut Columns, stream: &mut Sampled, sample: u64) -> u32 {
    let (mut next, gain) = bots::greedy_on(columns);
    if gain == 0 {
        next = ALL_SWAPS[(sample as usize * 7 + 3) % ALL_SWAPS.len()];
    }
    columns.swap_and_settle(next.a(), next.b(), stream)
}

/// The mean points up to swap `horizon` on the given half of the samples.
pub fn horizon_sum(halves: &[Halves], horizon: usize, half: usize) -> f64 {
    halves[..=horizon].iter().map(|m| m.0[half].mean()).sum()
}

/// The mean points up to the last swap on the given half.
pub fn horizon_value(halves: &[Halves], half: usize) -> f64 {
    horizon_sum(halves, halves.len() - 1, half)
}
