//! The bot levels (`random`, `minimax`, `strong`) and the clock manager.

pub mod eval;
pub mod search;

use self::eval::{distance_eval, distance_sum};
use self::search::{search, StrongOptions, WIN};
use crate::game::{
    Analysis, BotChoice, BotParams, Budget, GameError, LevelSpec, Scope, SearchReport, Side,
    StopReason,
};
use crate::games::halma::movegen::{generate, Move};
use crate::games::halma::state::State;
use crate::games::halma::{Halma, HalmaLevel};
use crate::search::SearchOptions;
use rand::seq::SliceRandom;
use rand::Rng;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// How the clock of a bot request counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockMode {
    /// One move: the bot may spend most of the time left.
    Single,
    /// A whole game: the time left must last for the rest of it.
    Game,
}

/// The most seconds a clock may hold: a day, far beyond any game's clock
/// (the course's gives 300 s in all), and far inside what a
/// [`Duration`] holds.
pub const MAX_TIME_LEFT_S: f64 = 86_400.0;

/// The `clock` field of a bot request, as the course's referee gave it in
/// `input.txt`: `{"mode": "SINGLE"|"GAME", "time_left_s": seconds > 0}`.
#[derive(Clone, Copy, Debug, PartialEq, serde::Deserialize, schemars::JsonSchema)]
#[serde(try_from = "RawClock")]
#[schemars(rename = "HalmaClock", with = "RawClock")]
pub struct Clock {
    /// Single move or whole game.
    pub mode: ClockMode,
    /// Seconds of play time left.
    pub time_left_s: f64,
}

/// A clock as it arrives, before its values are checked.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct RawClock {
    /// `SINGLE` (the time is for this move) or `GAME` (for the rest of
    /// the game), in any case.
    #[schemars(regex(pattern = r"^([Ss][Ii][Nn][Gg][Ll][Ee]|[Gg][Aa][Mm][Ee])$"))]
    mode: String,
    /// Seconds of play time left: more than 0, at most 86,400 (a day).
    #[schemars(range(min = 0.001, max = 86_400.0))]
    time_left_s: f64,
}

impl TryFrom<RawClock> for Clock {
    type Error = String;

    fn try_from(raw: RawClock) -> Result<Clock, String> {
        let mode = match raw.mode.to_ascii_uppercase().as_str() {
            "SINGLE" => ClockMode::Single,
            "GAME" => ClockMode::Game,
            _ => {
                return Err(format!(
                    "clock.mode is \"{}\": expected \"SINGLE\" or \"GAME\"",
                    raw.mode
                ))
            }
        };
        Ok(Clock {
            mode,
            time_left_s: raw.time_left_s,
        })
    }
}

impl Clock {
    /// Whether the seconds are a time a bot can plan with: above 0 and at
    /// most [`MAX_TIME_LEFT_S`]; the reason, in the request's terms, if not.
    pub fn check_seconds(seconds: f64) -> Result<(), String> {
        if seconds.is_finite() && seconds > 0.0 && seconds <= MAX_TIME_LEFT_S {
            return Ok(());
        }
        Err(format!(
            "clock.time_left_s is {seconds}: expected the seconds of play time left, above 0 and at most {MAX_TIME_LEFT_S} (a day)"
        ))
    }

    /// [`Clock::check_seconds`] of a request's clock, as the API answers
    /// it: `invalid_option` at `/clock/time_left_s`.
    pub fn check(&self) -> Result<(), GameError> {
        Clock::check_seconds(self.time_left_s)
            .map_err(|detail| GameError::invalid_option_at("/clock/time_left_s", detail))
    }

    /// The same clock as the time manager of every game reads it: GAME is
    /// the time left with no increment, SINGLE the time for this move alone
    /// (one move to go).
    pub fn to_game_clock(self) -> crate::game::clock::GameClock {
        let ms = (self.time_left_s.clamp(0.0, MAX_TIME_LEFT_S) * 1000.0).round() as u64;
        let mut clock = crate::game::clock::GameClock::sudden_death(ms);
        if self.mode == ClockMode::Single {
            clock.moves_to_go = Some(1);
        }
        clock
    }

    /// The clock of Halma's own manager from the time manager's clock:
    /// one move to go is SINGLE, anything else GAME, with the time left.
    pub fn from_game_clock(clock: &crate::game::clock::GameClock) -> Clock {
        Clock {
            mode: if clock.moves_to_go == Some(1) {
                ClockMode::Single
            } else {
                ClockMode::Game
            },
            time_left_s: (clock.remaining_ms.saturating_sub(clock.overhead_ms).max(1) as f64)
                / 1000.0,
        }
    }

    /// The JSON form, as requests carry it.
    pub fn to_json(self) -> Value {
        let mode = match self.mode {
            ClockMode::Single => "SINGLE",
            ClockMode::Game => "GAME",
        };
        json!({"mode": mode, "time_left_s": self.time_left_s})
    }
}

/// Halma's own bot options: the mover's clock, which the `strong` level's
/// clock manager plans its time from.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "HalmaBotOptions")]
pub struct HalmaOptions {
    /// The mover's clock as the course's referee gave it, if the request
    /// gives one: the `strong` level plans its time from it.
    #[serde(default)]
    pub clock: Option<Clock>,
}

/// The mover's clock: the request's `clock` if it has one, else the game
/// clock the budget carries (a match played under a clock), as a GAME clock.
pub fn read_clock(params: &BotParams<HalmaOptions>, budget: &Budget) -> Option<Clock> {
    params
        .options
        .clock
        .or_else(|| {
            budget
                .clock
                .map(|clocked| Clock::from_game_clock(&clocked.clock))
        })
        .or_else(|| {
            budget.game_time_left_ms.map(|ms| Clock {
                mode: ClockMode::Game,
                time_left_s: (ms.max(1) as f64) / 1000.0,
            })
        })
}

/// The moves the mover probably still needs: its pieces' remaining distance
/// over the typical progress of a move, with a floor for the endgame shuffle,
/// and no more than the ply limit leaves it.
pub fn expected_moves_left(state: &State) -> f64 {
    let side = state.to_move();
    // A full goal camp sums to 60 (Manhattan distances to the corner). Strong
    // play gains about 6 units a move over a game (jumps early, single steps
    // while filling the camp), so 5 a move errs on the long side.
    let remaining = (distance_sum(state, side) - 60).max(0) as f64;
    let estimate = (remaining / 5.0 + 10.0).clamp(10.0, 150.0);
    // Under a ply limit the mover has only its share of the plies left.
    match state.plies_left() {
        Some(plies) => estimate.min(f64::from(plies.div_ceil(2).max(1))),
        None => estimate,
    }
}

/// How long the strong level may think for this move under `clock`.
pub fn time_for_move(state: &State, clock: Clock) -> Duration {
    let left = clock.time_left_s;
    let seconds = match clock.mode {
        // Most of the time given, minus a margin for starting up and answering.
        ClockMode::Single => (left * 0.85 - 0.05).max(left * 0.4),
        ClockMode::Game => {
            let share = left / expected_moves_left(state);
            // Never a big slice of what is left, whatever the estimate says.
            share.min(left * 0.15)
        }
    };
    // A checked clock holds at most a day; any other is cut to that.
    Duration::from_secs_f64(seconds.clamp(0.0, MAX_TIME_LEFT_S))
}

/// The legal moves in a seeded random order.
fn shuffled_moves(state: &State, params: &BotParams<HalmaOptions>) -> Vec<Move> {
    let mut moves = Vec::new();
    generate(state, &mut moves);
    moves.shuffle(&mut params.rng());
    moves
}

/// `random`: any legal move, seeded.
pub fn random(
    state: &State,
    level: &LevelSpec<HalmaLevel>,
    params: &BotParams<HalmaOptions>,
) -> Result<BotChoice<Move>, GameError> {
    level.only_options(&[])?;
    let mut moves = Vec::new();
    generate(state, &mut moves);
    let mv = moves[params.rng().random_range(0..moves.len())];
    Ok(BotChoice {
        mv,
        report: SearchReport::plain(),
    })
}

struct Minimax<'a> {
    root_side: Side,
    budget: &'a Budget,
    nodes: u64,
    stopped: Option<StopReason>,
}

impl Minimax<'_> {
    /// Plain minimax (no pruning) over the distance evaluation, from the root side's view.
    fn value(&mut self, state: &State, depth: u32) -> i32 {
        self.nodes += 1;
        if self.stopped.is_none() && self.nodes % 1024 == 0 {
            self.stopped = self.budget.interrupted();
        }
        if self.stopped.is_none() && self.budget.nodes_exhausted(self.nodes) {
            self.stopped = Some(StopReason::Nodes);
        }
        if self.stopped.is_some() {
            return 0;
        }
        let mover = state.to_move();
        if state.has_won(mover.other()) {
            return if mover.other() == self.root_side {
                WIN
            } else {
                -WIN
            };
        }
        if state.ply_limit_reached() {
            return match state.goal_leader() {
                Some(leader) if leader == self.root_side => WIN,
                Some(_) => -WIN,
                None => 0,
            };
        }
        if depth == 0 {
            return distance_eval(state, self.root_side);
        }
        let mut moves = Vec::new();
        generate(state, &mut moves);
        if moves.is_empty() {
            return 0;
        }
        let maximizing = mover == self.root_side;
        let mut best = if maximizing { i32::MIN } else { i32::MAX };
        for mv in moves {
            let mut child = state.clone();
            child.apply_move(mv.from, mv.to);
            let v = self.value(&child, depth - 1);
            best = if maximizing { best.max(v) } else { best.min(v) };
        }
        best
    }
}

/// `minimax`: the course's reference opponent, plain minimax at a fixed depth
/// (default 2; `minimax:depth=N` or the request's `max_depth`) over the sum of
/// distances to the goal corners. Ties go to the first of a seeded shuffle.
pub fn minimax(
    state: &State,
    level: &LevelSpec<HalmaLevel>,
    params: &BotParams<HalmaOptions>,
    budget: &Budget,
) -> Result<BotChoice<Move>, GameError> {
    level.only_options(&["depth"])?;
    let asked = level.int_option("depth", 1..=6)?.map(|d| d as u32);
    let depth = match (asked, budget.max_depth) {
        (Some(a), Some(cap)) => a.min(cap),
        (a, cap) => a.or(cap).unwrap_or(2),
    }
    .max(1);
    let moves = shuffled_moves(state, params);
    let mut search = Minimax {
        root_side: state.to_move(),
        budget,
        nodes: 0,
        stopped: None,
    };
    let mut best = (moves[0], i32::MIN);
    for &mv in &moves {
        let mut child = state.clone();
        child.apply_move(mv.from, mv.to);
        let v = search.value(&child, depth - 1);
        if search.stopped.is_some() {
            break;
        }
        if v > best.1 {
            best = (mv, v);
        }
    }
    let report = SearchReport {
        depth: Some(depth),
        max_depth: Some(depth),
        nodes: Some(search.nodes),
        score: Some(if best.1 == i32::MIN { 0 } else { best.1 as i64 }),
        stopped_by: Some(search.stopped.unwrap_or(StopReason::Depth)),
        ..SearchReport::plain()
    };
    Ok(BotChoice { mv: best.0, report })
}

/// The budget of a strong search: the request's own limits, tightened by
/// what the clock manager allows for this move. Without clock and limits,
/// two seconds.
pub fn strong_budget(state: &State, clock: Option<Clock>, budget: &Budget) -> Budget {
    let now = Instant::now();
    match clock {
        Some(clock) => budget.tightened(now + time_for_move(state, clock)),
        None if budget.deadline.is_none()
            && budget.max_depth.is_none()
            && budget.max_nodes.is_none() =>
        {
            budget.tightened(now + Duration::from_secs(2))
        }
        None => budget.clone(),
    }
}

/// `strong`: alpha-beta with iterative deepening, a transposition table and a
/// clock manager. Tuning options: `width=N` (moves searched at interior
/// nodes), `depth=N` (deepest iteration), `tempo=N` (bonus for the side to
/// move), `reduce=0|1` (late-move reductions), `taper=0|1` (fewer moves
/// near the horizon).
pub fn strong(
    state: &State,
    level: &LevelSpec<HalmaLevel>,
    params: &BotParams<HalmaOptions>,
    budget: &Budget,
) -> Result<BotChoice<Move>, GameError> {
    level.only_options(&["width", "depth", "tempo", "reduce", "taper"])?;
    let clock = read_clock(params, budget);
    let mut options = StrongOptions::default();
    if let Some(width) = level.int_option("width", 1..=500)? {
        options.width = width as usize;
    }
    if let Some(depth) = level.int_option("depth", 1..=40)? {
        options.max_depth = depth as u32;
    }
    if let Some(tempo) = level.int_option("tempo", 0..=200)? {
        options.tempo = tempo as i32;
    }
    options.reduce = level.switch_option("reduce", options.reduce)?;
    options.taper = level.switch_option("taper", options.taper)?;
    let budget = strong_budget(state, clock, budget);
    let result = search(state, &budget, &options, shuffled_moves(state, params));
    let report = SearchReport {
        depth: Some(result.depth),
        nodes: Some(result.nodes),
        score: Some(result.score as i64),
        stopped_by: Some(result.stopped_by),
        // Below the root only the most promising moves are searched, so only
        // a win on this very move is certain.
        proven: Some(result.score >= WIN - 1),
        ..SearchReport::plain()
    };
    Ok(BotChoice {
        mv: result.best,
        report,
    })
}

/// Runs the level named in `level`.
pub(crate) fn choose(
    state: &State,
    level: &LevelSpec<HalmaLevel>,
    params: &BotParams<HalmaOptions>,
    budget: &Budget,
) -> Result<BotChoice<Move>, GameError> {
    match level.level {
        HalmaLevel::Random => random(state, level, params),
        HalmaLevel::Minimax => minimax(state, level, params, budget),
        HalmaLevel::Strong => strong(state, level, params, budget),
    }
}

/// The moves of `scope` by the search `strong` uses, within the clock's
/// plan when the request has a clock, else within `budget` (two seconds
/// when it has no deadline at all).
pub(crate) fn analyze(
    state: &State,
    scope: &Scope<Move>,
    params: &BotParams<HalmaOptions>,
    budget: &Budget,
) -> Analysis<Move> {
    let clock = read_clock(params, budget);
    let budget = match clock {
        Some(_) => strong_budget(state, clock, budget),
        None if budget.deadline.is_none() => {
            budget.tightened(Instant::now() + Duration::from_secs(2))
        }
        None => budget.clone(),
    };
    let options = SearchOptions {
        max_depth: 12,
        tt_log2: 18,
        ..SearchOptions::default()
    };
    crate::search::analyze::<Halma>(state, scope, &budget, &options)
}
