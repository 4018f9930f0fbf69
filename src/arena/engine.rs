//! One game between two players, and a match of many games in parallel.

use super::clock::{SideClock, TimeControl};
use super::player::{Choice, Forfeit, MovePlan, Player, Turn};
use crate::game::{Game, Outcome, Side};
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// A seat at a match: the command line's `--a` and `--b`. Seats swap sides
/// from game to game; results are counted by seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Seat {
    /// Plays the first side in even-numbered games.
    A,
    /// Plays the first side in odd-numbered games.
    B,
}

impl Seat {
    /// Both seats, A first.
    pub const BOTH: [Seat; 2] = [Seat::A, Seat::B];

    /// 0 for A, 1 for B.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The other seat.
    pub fn other(self) -> Seat {
        match self {
            Seat::A => Seat::B,
            Seat::B => Seat::A,
        }
    }
}

/// How a match is played.
#[derive(Clone, Debug)]
pub struct MatchSpec {
    /// Games to play.
    pub games: usize,
    /// Seed of the openings and of the players' random choices: the same
    /// seed gives the same games where the players are deterministic.
    pub seed: u64,
    /// Random plies at the start of every game, so that games differ.
    pub random_plies: usize,
    /// Whether consecutive games share their random opening.
    pub openings: Openings,
    /// Plies after which a game is stopped and counted as a draw.
    pub max_plies: usize,
    /// Games played at once.
    pub threads: usize,
    /// Each seat's time control, A first.
    pub time: [TimeControl; 2],
    /// When a game is given to the side both players agree is winning,
    /// before it ends on the board; `None` plays every game out.
    pub resign: Option<Resign>,
}

/// How a match's random openings are shared between its games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Openings {
    /// Games 2k and 2k+1 play the same random opening with the seats on
    /// opposite sides (cutechess-cli's `-repeat`), so that an opening that
    /// favours one colour favours each seat once and the seats' difference
    /// is the players', not the openings' luck.
    Paired,
    /// Every game draws its own opening (the arena's only way before
    /// paired openings, which the games logs of that time recorded).
    PerGame,
}

impl std::fmt::Display for Openings {
    /// The name `--openings` takes.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Openings::Paired => "paired",
            Openings::PerGame => "per-game",
        })
    }
}

impl Openings {
    /// The opening game `index` plays: its own, or its pair's.
    pub fn of_game<G: Game>(self, index: usize) -> usize {
        match self {
            Openings::Paired if G::info().players == 2 => index / 2,
            _ => index,
        }
    }
}

/// Resign adjudication, as cutechess-cli's two-sided `-resign`: a game is
/// won by a seat once both players' own scores have agreed on it for
/// `moves` moves each in a row, the leader's at least `margin` and the
/// other's at most `−margin` (scores in the game's units, each from its
/// mover's view). It spares the long tail of games decided early; a
/// player that reports no score (an outside program, or a sampled ladder
/// rung, which plays worse moves on purpose) is never resigned for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resign {
    /// How far ahead both scores must put the leader.
    pub margin: i64,
    /// For how many moves of each side in a row.
    pub moves: usize,
}

/// Follows the players' scores through a game for [`Resign`].
#[derive(Debug)]
struct ResignWatch {
    rule: Option<Resign>,
    last_score: [Option<i64>; 2],
    leader: Option<Seat>,
    agreed_plies: usize,
}

impl ResignWatch {
    fn new(rule: Option<Resign>) -> Self {
        ResignWatch {
            rule,
            last_score: [None, None],
            leader: None,
            agreed_plies: 0,
        }
    }

    /// Takes `seat`'s score of the move it just chose; returns the winner
    /// once the players have agreed long enough.
    fn observe(&mut self, seat: Seat, score: Option<i64>) -> Option<Seat> {
        let rule = self.rule?;
        self.last_score[seat.index()] = score;
        let leader = self.agreed_leader(rule.margin);
        self.agreed_plies = match leader {
            Some(_) if leader == self.leader => self.agreed_plies + 1,
            Some(_) => 1,
            None => 0,
        };
        self.leader = leader;
        if self.agreed_plies >= 2 * rule.moves.max(1) {
            leader
        } else {
            None
        }
    }

    /// The seat both latest scores put at least `margin` ahead.
    fn agreed_leader(&self, margin: i64) -> Option<Seat> {
        let [a, b] = self.last_score;
        let (a, b) = (a?, b?);
        if a >= margin && b <= -margin {
            Some(Seat::A)
        } else if b >= margin && a <= -margin {
            Some(Seat::B)
        } else {
            None
        }
    }
}

/// How one game ended, by seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameResult {
    /// This seat won.
    Win(Seat),
    /// Nobody won (including games stopped at the ply cap).
    Draw,
    /// A one-player game's final score.
    Score(i64),
}

/// Everything about one game of a match.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's number in the match, from 0.
    pub index: usize,
    /// Whether seat A played the first side.
    pub a_first: bool,
    /// The result.
    pub result: GameResult,
    /// Why the game ended, in words: the rules' reason, or a forfeit's
    /// (`timeout after 260 ms …`, `illegal: …`, `exit code 1`).
    pub reason: String,
    /// The seat that forfeited (on time, by an illegal move, by failing).
    pub forfeit: Option<Seat>,
    /// Whether the forfeit was on time.
    pub on_time: bool,
    /// Whether the game was stopped at the ply cap.
    pub capped: bool,
    /// Whether the game was given to a side by resign adjudication.
    pub adjudicated: bool,
    /// Every move in notation, random opening plies included.
    pub moves: Vec<String>,
    /// Each seat's think time per move, in milliseconds.
    pub think_ms: [Vec<f64>; 2],
    /// Under a game clock, what the time manager planned for each of a
    /// seat's moves, beside `think_ms` move for move (`null` for a move it
    /// did not plan); empty for a seat none of whose moves was planned (a
    /// time per move, a numbered level, an outside program). Absent from
    /// logs written before clocks were planned.
    #[serde(default, skip_serializing_if = "no_plans")]
    pub plans: [Vec<Option<MovePlan>>; 2],
    /// Each seat's game clock when the game ended, in milliseconds (0 for
    /// a side that lost on time); `None` for a seat without a game clock,
    /// or one whose clock is not run (a numbered level).
    #[serde(default, skip_serializing_if = "no_clock_left")]
    pub clock_left_ms: [Option<f64>; 2],
    /// Each seat's positions searched, where its player counts them.
    pub nodes: [u64; 2],
    /// The final position's margin from seat A's view (Reversi's disc
    /// difference), for a game that has one and a game that ended on the
    /// board ([`Referee::margin`](crate::game::Referee::margin)).
    pub margin_a: Option<i64>,
}

/// Whether no seat has a planned move (what logs without clocks hold).
fn no_plans(plans: &[Vec<Option<MovePlan>>; 2]) -> bool {
    plans.iter().all(Vec::is_empty)
}

/// Whether no seat played under a clock that was run.
fn no_clock_left(left: &[Option<f64>; 2]) -> bool {
    left.iter().all(Option::is_none)
}

/// A seed for game `index`, ply `ply`: the same match seed gives the same games.
pub fn derive_seed(seed: u64, index: usize, ply: usize) -> u64 {
    let mut x = seed
        ^ (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ (ply as u64).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 31;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 29)
}

/// Which seat moves for `side` in game `index`: A plays the first side in
/// even games (and every move of a one-player game).
fn seat_of<G: Game>(side: Side, index: usize) -> Seat {
    let a_first = G::info().players == 1 || index % 2 == 0;
    if (side == Side::First) == a_first {
        Seat::A
    } else {
        Seat::B
    }
}

/// Plays game `index` of a match from `start`: the random opening, then the
/// players in turn under their clocks, until the rules end the game, the
/// ply cap stops it, or a player forfeits.
pub fn play_game<G: Game>(
    spec: &MatchSpec,
    index: usize,
    start: &G::State,
    players: &mut [Box<dyn Player<G>>; 2],
) -> GameRecord {
    let mut clocks = spec.time.map(SideClock::new);
    let mut record = play_out(spec, index, start, players, &mut clocks);
    for seat in Seat::BOTH {
        let i = seat.index();
        let run = !players[i].keeps_its_own_budget();
        record.clock_left_ms[i] = clocks[i]
            .game_time_left()
            .filter(|_| run)
            .map(|left| round_ms(left.as_secs_f64() * 1000.0));
        // A seat none of whose moves was planned keeps no list of plans.
        if record.plans[i].iter().all(Option::is_none) {
            record.plans[i].clear();
        }
    }
    record
}

/// Milliseconds to the hundredth.
fn round_ms(ms: f64) -> f64 {
    (ms * 100.0).round() / 100.0
}

/// [`play_game`]'s moves, with each seat's clock run in `clocks`.
fn play_out<G: Game>(
    spec: &MatchSpec,
    index: usize,
    start: &G::State,
    players: &mut [Box<dyn Player<G>>; 2],
    clocks: &mut [SideClock; 2],
) -> GameRecord {
    let mut state = start.clone();
    let opening = spec.openings.of_game::<G>(index);
    let mut rng = ChaCha8Rng::seed_from_u64(derive_seed(spec.seed, opening, usize::MAX));
    let mut record = GameRecord {
        index,
        a_first: seat_of::<G>(Side::First, index) == Seat::A,
        result: GameResult::Draw,
        reason: String::new(),
        forfeit: None,
        on_time: false,
        capped: false,
        adjudicated: false,
        moves: Vec::new(),
        think_ms: [Vec::new(), Vec::new()],
        plans: [Vec::new(), Vec::new()],
        clock_left_ms: [None, None],
        nodes: [0, 0],
        margin_a: None,
    };
    let mut legal = Vec::new();
    let mut resign = ResignWatch::new(spec.resign);
    for ply in 0..spec.max_plies {
        if G::outcome(&state).is_over() {
            break;
        }
        legal.clear();
        G::legal_moves(&state, &mut legal);
        let seat = seat_of::<G>(G::to_move(&state), index);
        let mv = if ply < spec.random_plies {
            match legal.choose(&mut rng) {
                Some(mv) => mv.clone(),
                None => break,
            }
        } else {
            let turn = Turn {
                ply,
                seed: derive_seed(spec.seed, index, ply),
                budget: clocks[seat.index()].move_budget(),
                game_time_left: clocks[seat.index()].game_time_left(),
                clock: clocks[seat.index()].game_clock(),
            };
            match timed_move(&state, &legal, &turn, seat, players, clocks, &mut record) {
                Ok(choice) => {
                    if let Some(winner) = resign.observe(seat, choice.score) {
                        adjudicate::<G>(&state, &choice.mv, winner, &mut record);
                        return record;
                    }
                    choice.mv
                }
                Err((forfeit, on_time)) => {
                    record.result = GameResult::Win(seat.other());
                    record.reason = forfeit.0;
                    record.forfeit = Some(seat);
                    record.on_time = on_time;
                    return record;
                }
            }
        };
        record.moves.push(G::notation(&state, &mv));
        for player in players.iter_mut() {
            player.observe(&state, &mv);
        }
        state = G::apply(&state, &mv);
    }
    finish::<G>(&state, index, &mut record);
    record
}

/// Ends a game by resign adjudication: `mv`, the move that made the players
/// agree, is played and the game goes to `winner`.
fn adjudicate<G: Game>(state: &G::State, mv: &G::Move, winner: Seat, record: &mut GameRecord) {
    record.moves.push(G::notation(state, mv));
    record.result = GameResult::Win(winner);
    record.adjudicated = true;
    record.reason = format!(
        "adjudicated: both players scored the game won for {winner:?} after {} plies",
        record.moves.len()
    );
}

/// Asks `seat`'s player for a move, times it, charges its clock and checks
/// the move is legal. `Err` is the forfeit, and whether it was on time.
fn timed_move<G: Game>(
    state: &G::State,
    legal: &[G::Move],
    turn: &Turn,
    seat: Seat,
    players: &mut [Box<dyn Player<G>>; 2],
    clocks: &mut [SideClock; 2],
    record: &mut GameRecord,
) -> Result<Choice<G::Move>, (Forfeit, bool)> {
    let player = &mut players[seat.index()];
    let started = Instant::now();
    let choice = player.choose(state, turn);
    let spent = started.elapsed();
    record.think_ms[seat.index()].push(spent.as_secs_f64() * 1000.0);
    record.plans[seat.index()].push(choice.as_ref().ok().and_then(|choice| choice.plan));
    let clock = &mut clocks[seat.index()];
    let mut charge = || match player.keeps_its_own_budget() {
        true => Ok(()),
        false => clock.charge(spent),
    };
    // A player that failed after its time ran out (an outside program
    // killed at its limit) lost on time, for the reason it gives.
    let choice = choice.map_err(|forfeit| (forfeit, charge().is_err()))?;
    record.nodes[seat.index()] += choice.nodes.unwrap_or(0);
    charge().map_err(|reason| (Forfeit(reason), true))?;
    if !legal.contains(&choice.mv) {
        return Err((Forfeit(format!("illegal: {:?}", choice.mv)), false));
    }
    Ok(choice)
}

/// Fills in the result of a game that ended on the board or at the cap.
fn finish<G: Game>(state: &G::State, index: usize, record: &mut GameRecord) {
    record.margin_a = G::margin(state).map(|first| if record.a_first { first } else { -first });
    match G::outcome(state) {
        Outcome::Win { winner, reason, .. } => {
            record.result = GameResult::Win(seat_of::<G>(winner, index));
            record.reason = reason;
        }
        Outcome::Draw { reason, .. } => record.reason = reason,
        Outcome::Finished { points, .. } => {
            record.result = GameResult::Score(points);
            record.reason = "finished".to_string();
        }
        Outcome::Ongoing => {
            record.capped = true;
            record.reason = "stopped at the ply cap".to_string();
        }
    }
}

/// Plays the games numbered `indices` (all of `0..spec.games`, or those a
/// stopped match lacks: game `i` is the same game whichever others are
/// played) from `start` on `spec.threads` threads, each with fresh players
/// from `make_player` (called with the seat), colours alternating.
/// `on_game` sees each record as its game ends (in the order they end), so
/// that a long match can be followed and a stopped one keeps its games; the
/// records come back in the order of `indices`.
pub fn play_games<G: Game>(
    spec: &MatchSpec,
    indices: &[usize],
    start: &G::State,
    make_player: &(dyn Fn(Seat) -> Result<Box<dyn Player<G>>, String> + Sync),
    on_game: &(dyn Fn(&GameRecord) + Sync),
) -> Result<Vec<GameRecord>, String> {
    run_parallel(indices.len(), spec.threads, |nth| {
        let mut players = [make_player(Seat::A)?, make_player(Seat::B)?];
        let record = play_game(spec, indices[nth], start, &mut players);
        on_game(&record);
        Ok(record)
    })
}

/// Games played at once when a command line gives no `--threads`: the
/// machine's cores (1 where they cannot be read).
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Runs `job(0..count)` on up to `threads` threads, each job on one thread,
/// and returns the results in index order; the first error stops the rest.
pub fn run_parallel<T: Send>(
    count: usize,
    threads: usize,
    job: impl Fn(usize) -> Result<T, String> + Sync,
) -> Result<Vec<T>, String> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<T>>> = Mutex::new((0..count).map(|_| None).collect());
    let failure = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, count.max(1)) {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= count {
                    break;
                }
                match job(index) {
                    Ok(result) => {
                        results.lock().expect("no job panics holding it")[index] = Some(result)
                    }
                    Err(message) => {
                        *failure.lock().expect("no job panics holding it") = Some(message);
                        next.store(count, Ordering::Relaxed);
                        break;
                    }
                }
            });
        }
    });
    if let Some(message) = failure.into_inner().expect("threads ended") {
        return Err(message);
    }
    Ok(results
        .into_inner()
        .expect("threads ended")
        .into_iter()
        .flatten()
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULE: Resign = Resign {
        margin: 100,
        moves: 2,
    };

    /// Feeds alternating scores, A first, and returns the ply (from 1) at
    /// which the watch adjudicated, with the winner.
    fn adjudicated_at(scores: &[i64]) -> Option<(usize, Seat)> {
        let mut watch = ResignWatch::new(Some(RULE));
        scores.iter().enumerate().find_map(|(ply, &score)| {
            let seat = if ply % 2 == 0 { Seat::A } else { Seat::B };
            watch
                .observe(seat, Some(score))
                .map(|winner| (ply + 1, winner))
        })
    }

    #[test]
    fn both_players_must_agree_for_the_moves_of_each_side() {
        // A says it is winning; B agrees from its second move on.
        assert_eq!(
            adjudicated_at(&[150, -50, 150, -150, 150, -150, 150, -150]),
            Some((7, Seat::A))
        );
        assert_eq!(
            adjudicated_at(&[-300, 300, -300, 300, -300]),
            Some((5, Seat::B))
        );
    }

    #[test]
    fn a_score_inside_the_margin_starts_the_count_again() {
        assert_eq!(adjudicated_at(&[150, -150, 150, -99, 150, -150, 150]), None);
        assert_eq!(
            adjudicated_at(&[150, -150, 150, -99, 150, -150, 150, -150, 150]),
            Some((9, Seat::A))
        );
    }

    #[test]
    fn one_sided_confidence_is_not_enough() {
        assert_eq!(adjudicated_at(&[500, 500, 500, 500, 500, 500, 500]), None);
    }

    #[test]
    fn without_a_rule_or_a_score_nothing_is_adjudicated() {
        let mut watch = ResignWatch::new(None);
        assert!((0..10).all(|_| watch.observe(Seat::A, Some(1_000)).is_none()));
        let mut watch = ResignWatch::new(Some(RULE));
        for _ in 0..10 {
            assert_eq!(watch.observe(Seat::A, Some(1_000)), None);
            assert_eq!(watch.observe(Seat::B, None), None);
        }
    }
}
