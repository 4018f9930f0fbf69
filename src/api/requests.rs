//! The request of every game endpoint as one type, read once: from its JSON
//! body (whose shape the contract publishes, field by field) or, for the
//! endpoints that take a game's text form, from the text and the query.
//! Every error names the field at fault with a pointer that resolves in the
//! body sent, wrong types included.

use super::parts::{whole_number, Parts};
use super::ApiError;
use crate::game::clock::{GameClock, DEFAULT_OVERHEAD_MS, MAX_REMAINING_MS};
use crate::game::erased::{
    self as replay, BotRequest, LevelId, PerspectiveName, StateInput, TextParams,
};
use crate::game::forms::{AnyForms, Forms, WireForms};
use crate::game::record::MAX_REPLAY_MOVES;
use crate::game::review::MAX_REVIEW_MOVES;
use crate::game::GameError;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// The largest `top` an analysis may ask for.
pub const MAX_TOP: u64 = 10;
/// The `top` of an analysis that names none.
pub const DEFAULT_TOP: u64 = 3;

/// `new`'s body.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "{F}NewRequest")]
#[serde(bound(deserialize = "F: WireForms"))]
pub struct NewRequest<F: Forms = AnyForms> {
    /// The game's options for a new game (`GET /v1/games` lists them);
    /// absent or null for the defaults.
    #[serde(default)]
    pub options: Option<F::Options>,
}

/// `legal-moves`' body.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "{F}StateRequest")]
#[serde(bound(deserialize = "F: WireForms"))]
pub struct StateRequest<F: Forms = AnyForms> {
    /// The state, in the game's JSON form.
    pub state: F::State,
}

/// `play`'s body.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "{F}PlayRequest")]
#[serde(bound(deserialize = "F: WireForms"))]
pub struct PlayRequest<F: Forms = AnyForms> {
    /// The state, in the game's JSON form.
    pub state: F::State,
    /// The move: its notation as a person types it (`"d3"`), or the move
    /// object as the service writes it.
    #[serde(rename = "move")]
    pub mv: F::MoveInput,
}

/// A game as `replay` and `review` take it: where it starts, and its
/// moves as a list or as the game's one-line record.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "{F}GameRecord")]
#[serde(bound(deserialize = "F: WireForms"))]
pub struct GameRecord<F: Forms = AnyForms> {
    /// A new game's options to start from (at most one of `options` and
    /// `state`; neither starts the game's default new game).
    #[serde(default)]
    pub options: Option<F::Options>,
    /// A state to start from, in the game's JSON form.
    #[serde(default)]
    pub state: Option<F::State>,
    /// The moves, each a notation string or a move object as `play` takes
    /// them (at most one of `moves` and `record`; at most 10,000 moves for
    /// a replay, 600 for a review).
    #[serde(default)]
    #[schemars(with = "Option<Vec<F::ListedMoveInput>>")]
    pub moves: Option<Vec<F::MoveInput>>,
    /// The game's one-line record (Reversi `f5d6c3...`; the others their
    /// notations joined with spaces, a Halma jump's lines with `;`).
    #[serde(default)]
    pub record: Option<String>,
}

impl GameRecord {
    /// The replay it asks for: one start at most, moves or a record, at
    /// most `max_moves` of them (counted before any is played).
    fn into_replay(
        self,
        max_moves: usize,
        states: bool,
    ) -> Result<replay::ReplayRequest, ApiError> {
        let start = match (self.options, self.state) {
            (Some(_), Some(_)) => return Err(both("options", "state", "one start")),
            (Some(options), None) => replay::ReplayStart::Options(options),
            (None, Some(state)) => replay::ReplayStart::State(state),
            (None, None) => replay::ReplayStart::NewGame,
        };
        let moves = match (self.moves, self.record) {
            (Some(_), Some(_)) => return Err(both("moves", "record", "the moves in one form")),
            (Some(list), None) => replay::ReplayMoves::List(list),
            (None, Some(record)) => replay::ReplayMoves::Record(record),
            (None, None) => replay::ReplayMoves::List(Vec::new()),
        };
        Ok(replay::ReplayRequest {
            start,
            moves,
            max_moves,
            states,
        })
    }
}

/// What `replay` asks for beside the game.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReplayFields {
    /// Whether to answer every state along the way, the start first.
    #[serde(default)]
    pub states: bool,
}

/// `replay`'s body: where the game starts and its moves (a list or the
/// game's one-line record), and whether to answer every state on the way.
#[derive(Debug, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "{F}ReplayRequest")]
pub struct ReplayRequest<F: Forms = AnyForms> {
    /// The game.
    #[serde(flatten)]
    pub game: GameRecord<F>,
    /// The replay's own fields.
    #[serde(flatten)]
    pub replay: ReplayFields,
}

impl ReplayRequest {
    /// The replay a JSON body asks for.
    pub fn from_json(bytes: &[u8]) -> Result<replay::ReplayRequest, ApiError> {
        let mut parts = Parts::of(bytes)?;
        let game: GameRecord = parts.take()?;
        let own: ReplayFields = parts.take()?;
        parts.finish::<Self>()?;
        game.into_replay(MAX_REPLAY_MOVES, own.states)
    }
}

/// The budget of each position's analysis in a review.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReviewBudgetFields {
    /// A time budget for each position's analysis, in milliseconds, cut to
    /// the server's cap; counted from when that position's search starts.
    #[serde(default, deserialize_with = "whole_number")]
    #[schemars(range(min = 1))]
    pub time_ms_per_ply: Option<u64>,
    /// A cap on the positions each analysis visits (default 100,000 when
    /// neither budget is given), cut to the server's cap. A node budget
    /// with a seed gives the same review every time.
    #[serde(default, deserialize_with = "whole_number")]
    #[schemars(range(min = 1))]
    pub max_nodes_per_ply: Option<u64>,
    /// The seed of the searches' random choices (default 1).
    #[serde(default, deserialize_with = "whole_number")]
    #[schemars(range(min = 0))]
    pub seed: Option<u64>,
}

/// `review`'s body: a game as `replay` takes it (a start and its moves or
/// record, at most 600 moves), and the budget of each position's analysis.
#[derive(Debug, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "{F}ReviewRequest")]
pub struct ReviewRequest<F: Forms = AnyForms> {
    /// The game.
    #[serde(flatten)]
    pub game: GameRecord<F>,
    /// Each position's budget.
    #[serde(flatten)]
    pub budget: ReviewBudgetFields,
}

/// The default node budget of a review's analyses.
pub const DEFAULT_REVIEW_NODES: u64 = 100_000;

/// A review request read once.
#[derive(Debug)]
pub struct ReviewCall {
    /// The game to replay.
    pub replay: replay::ReplayRequest,
    /// Each position's time, if timed.
    pub time_ms: Option<u64>,
    /// Each position's node cap, if any.
    pub max_nodes: Option<u64>,
    /// The searches' seed.
    pub seed: u64,
}

impl ReviewRequest {
    /// The review a JSON body asks for.
    pub fn from_json(bytes: &[u8]) -> Result<ReviewCall, ApiError> {
        let mut parts = Parts::of(bytes)?;
        let game: GameRecord = parts.take()?;
        let budget: ReviewBudgetFields = parts.take()?;
        parts.finish::<Self>()?;
        for (field, value) in [
            ("time_ms_per_ply", budget.time_ms_per_ply),
            ("max_nodes_per_ply", budget.max_nodes_per_ply),
        ] {
            if value == Some(0) {
                return Err(ApiError::invalid_option(format!(
                    "{field}=0: expected a whole number from 1 up"
                ))
                .at(&format!("/{field}")));
            }
        }
        let max_nodes = match (budget.time_ms_per_ply, budget.max_nodes_per_ply) {
            (None, None) => Some(DEFAULT_REVIEW_NODES),
            (_, nodes) => nodes,
        };
        Ok(ReviewCall {
            replay: game.into_replay(MAX_REVIEW_MOVES, false)?,
            time_ms: budget.time_ms_per_ply,
            max_nodes,
            seed: budget.seed.unwrap_or(1),
        })
    }
}

/// Two fields of which a request may give only one.
fn both(first: &str, second: &str, what: &str) -> ApiError {
    ApiError::invalid_option(format!(
        "{first} and {second} are both given: a replay takes {what}, so leave out one of them"
    ))
    .at(&format!("/{second}"))
}

/// What every search request names: the position, the search's budget,
/// its seed and whose view its scores take (`bot-move`, `analyze`).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "{F}SearchFields")]
#[serde(bound(deserialize = "F: WireForms"))]
pub struct SearchFields<F: Forms = AnyForms> {
    /// The state, in the game's JSON form.
    pub state: F::State,
    /// The search's time in milliseconds (default: the server's, 1000
    /// unless configured), cut to the server's cap (`search.clamped` then
    /// says so). The deadline counts from the request's arrival.
    #[serde(default, deserialize_with = "whole_number")]
    #[schemars(range(min = 0))]
    pub time_ms: Option<u64>,
    /// A cap on the search's depth in plies, cut to the server's cap.
    #[serde(default, deserialize_with = "whole_number")]
    #[schemars(range(min = 0))]
    pub max_depth: Option<u64>,
    /// A cap on the positions the search visits, cut to the server's cap.
    #[serde(default, deserialize_with = "whole_number")]
    #[schemars(range(min = 0))]
    pub max_nodes: Option<u64>,
    /// The seed of the search's random choices, echoed in `search.seed`;
    /// absent or null for a fresh one. With a seed and a node or depth
    /// budget (or a numbered level) the answer is the same every time.
    #[serde(default, deserialize_with = "whole_number")]
    #[schemars(range(min = 0))]
    pub seed: Option<u64>,
    /// Whose view `score` and `win_probability` take: `"mover"` (the
    /// default, the side to move) or one of the game's `sides` (`"black"`,
    /// `"white"`…), as an evaluation bar that always shows one side needs.
    #[serde(default)]
    pub perspective: Option<PerspectiveName>,
}

impl SearchFields {
    /// The game's request and the budget asked for, with the level (none
    /// for an analysis) and the fields the game reads itself.
    fn into_call(
        self,
        level: Option<LevelId>,
        clock: Option<GameClock>,
        max_queue_ms: Option<u64>,
        own_fields: Map<String, Value>,
    ) -> (BotRequest, Limits) {
        let limits = Limits {
            time_ms: self.time_ms,
            max_depth: self.max_depth,
            max_nodes: self.max_nodes,
            clock,
            max_queue_ms,
        };
        let request = BotRequest {
            state: StateInput::Json(self.state),
            level,
            seed: self.seed,
            budget_fields: limits.given(),
            own_fields,
            perspective: self.perspective,
        };
        (request, limits)
    }
}

/// What `bot-move` asks for beside the search.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "{F}BotFields")]
#[serde(bound(deserialize = "F: WireForms"))]
pub struct BotFields<F: Forms = AnyForms> {
    /// The bot level (default: the game's `default_level`). A numbered
    /// level carries its own budget, so `time_ms`, `max_depth` and
    /// `max_nodes` beside it are refused (422 `invalid_option`); a `clock`
    /// is taken, and the level keeps its budget whenever the clock allows.
    #[serde(default)]
    pub level: Option<F::Level>,
    /// The mover's clock in a timed game: the bot plans this move's time
    /// from it (what is left, the increment, the moves the game probably
    /// has left) and never risks the flag; the time the request waits in
    /// the server's queue counts against it. Takes the place of `time_ms`;
    /// a numbered level keeps its own budget whenever the clock allows it.
    /// Halma's referee clock (`{"mode": "GAME", "time_left_s": 12.5}`) is
    /// the same clock without an increment (`SINGLE`: the time is this
    /// move's alone).
    #[serde(default)]
    pub clock: Option<ClockField>,
    /// Refuse (503 `queued_too_long`, with `Retry-After`) rather than
    /// search when the request has waited in the queue for a worker longer
    /// than this many whole milliseconds: a live game that would rather try another replica
    /// than get a shallow move from what is left of its time. To refuse
    /// past a share of the move's time, give that share of it (half of a
    /// 200 ms `time_ms`: 100).
    #[serde(default, deserialize_with = "whole_number")]
    #[schemars(range(min = 0))]
    pub max_queue_ms: Option<u64>,
}

/// `bot-move`'s body: the search every game shares and the bot's level,
/// clock and queue limit. A game's own bot options sit beside them; any
/// other field is refused.
#[derive(Debug, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "{F}BotMoveRequest")]
pub struct BotMoveRequest<F: Forms = AnyForms> {
    /// The search.
    #[serde(flatten)]
    pub search: SearchFields<F>,
    /// The bot's own fields.
    #[serde(flatten)]
    pub bot: BotFields<F>,
}

/// A bot-move's `clock`: a live game's clock, or the course's Halma referee's.
#[derive(Debug, Clone, Copy, JsonSchema)]
#[serde(untagged)]
pub enum ClockField {
    /// The mover's time left, increment, moves to go and overhead.
    Live(LiveClock),
    /// The Halma course referee's clock: a mode and seconds.
    Referee(RefereeClock),
}

/// A live game's clock, as UCI's `wtime`/`winc`/`movestogo` say it.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LiveClock {
    /// The mover's time left, in milliseconds (at most a day).
    #[schemars(range(min = 0, max = 86_400_000))]
    pub remaining_ms: u64,
    /// Added to the mover's clock after each of its moves, in milliseconds
    /// (default 0; at most an hour).
    #[serde(default)]
    #[schemars(range(min = 0, max = 3_600_000))]
    pub increment_ms: u64,
    /// Moves until the clock is given more time: `remaining_ms` is for this
    /// many moves (absent: sudden death, with the increment if any).
    #[serde(default)]
    #[schemars(range(min = 1, max = 1000))]
    pub moves_to_go: Option<u32>,
    /// What the portal spends a move on its side (network, bookkeeping), in
    /// milliseconds, taken off the time the bot thinks (default 20).
    #[serde(default)]
    #[schemars(range(min = 0, max = 60_000))]
    pub overhead_ms: Option<u64>,
}

/// The Halma course referee's clock.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RefereeClock {
    /// `GAME`: the time left for the whole game; `SINGLE`: for this move.
    pub mode: RefereeMode,
    /// Seconds, above 0 and at most a day.
    #[schemars(range(max = 86_400))]
    pub time_left_s: f64,
}

/// A referee clock's mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
pub enum RefereeMode {
    /// The time left for the whole game.
    #[serde(rename = "GAME")]
    Game,
    /// The time for this move alone.
    #[serde(rename = "SINGLE")]
    Single,
}

impl<'de> Deserialize<'de> for ClockField {
    /// The referee's shape when the object names `mode` or `time_left_s`,
    /// else the live one: each read with its own fields' errors.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let object = Map::<String, Value>::deserialize(deserializer)?;
        let referee = object.contains_key("mode") || object.contains_key("time_left_s");
        let value = Value::Object(object);
        if referee {
            RefereeClock::deserialize(value)
                .map(ClockField::Referee)
                .map_err(D::Error::custom)
        } else {
            LiveClock::deserialize(value)
                .map(ClockField::Live)
                .map_err(D::Error::custom)
        }
    }
}

impl ClockField {
    /// The clock the time manager plans with, its bounds checked; errors
    /// point under `/clock`.
    pub fn into_clock(self) -> Result<GameClock, ApiError> {
        let clock = match self {
            ClockField::Live(live) => GameClock {
                remaining_ms: live.remaining_ms,
                increment_ms: live.increment_ms,
                moves_to_go: live.moves_to_go,
                overhead_ms: live.overhead_ms.unwrap_or(DEFAULT_OVERHEAD_MS),
            },
            ClockField::Referee(referee) => {
                let seconds = referee.time_left_s;
                let max_s = (MAX_REMAINING_MS / 1000) as f64;
                if !(seconds > 0.0 && seconds <= max_s) {
                    return Err(ApiError::from(GameError::invalid_option_at(
                        "/clock/time_left_s",
                        format!("time_left_s={seconds}: expected seconds above 0 and at most {max_s} (a day)"),
                    )));
                }
                let mut clock = GameClock::sudden_death((seconds * 1000.0).round() as u64);
                if referee.mode == RefereeMode::Single {
                    clock.moves_to_go = Some(1);
                }
                clock
            }
        };
        Ok(clock.checked("/clock")?)
    }
}

/// What `analyze` asks for beside the search.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AnalysisFields {
    /// How many of the best moves to give, 1 to 10 (default 3).
    #[serde(default, deserialize_with = "whole_number")]
    #[schemars(range(min = 1, max = 10))]
    pub top: Option<u64>,
}

/// `analyze`'s body: the search every game shares and how many moves to
/// give, beside a game's own bot options; any other field is refused.
#[derive(Debug, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "{F}AnalyzeRequest")]
pub struct AnalyzeRequest<F: Forms = AnyForms> {
    /// The search.
    #[serde(flatten)]
    pub search: SearchFields<F>,
    /// The analysis' own fields.
    #[serde(flatten)]
    pub analysis: AnalysisFields,
}

/// The budget a bot or analysis request asks for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// `time_ms`.
    pub time_ms: Option<u64>,
    /// `max_depth`.
    pub max_depth: Option<u64>,
    /// `max_nodes`.
    pub max_nodes: Option<u64>,
    /// `clock`, checked.
    pub clock: Option<GameClock>,
    /// `max_queue_ms`: the longest the request may wait for a worker.
    pub max_queue_ms: Option<u64>,
}

impl Limits {
    /// The names of the fields the request set.
    pub fn given(&self) -> Vec<&'static str> {
        [
            ("time_ms", self.time_ms),
            ("max_depth", self.max_depth),
            ("max_nodes", self.max_nodes),
        ]
        .into_iter()
        .filter_map(|(name, value)| value.map(|_| name))
        .collect()
    }
}

/// A bot request read once, with the budget it asks for.
#[derive(Debug)]
pub struct BotCall {
    /// What the game reads.
    pub request: BotRequest,
    /// The budget asked for, which the server clamps.
    pub limits: Limits,
}

/// An analysis request read once.
#[derive(Debug)]
pub struct AnalysisCall {
    /// What the game reads (no level).
    pub request: BotRequest,
    /// The budget asked for.
    pub limits: Limits,
    /// How many moves to give.
    pub top: usize,
}

/// The query parameters a text `bot-move` reads itself, beside the text
/// form's own.
const TEXT_SHARED: &[&str] = &[
    "level",
    "seed",
    "time_ms",
    "max_depth",
    "max_nodes",
    "perspective",
    "remaining_ms",
    "increment_ms",
    "moves_to_go",
    "overhead_ms",
    "max_queue_ms",
];

impl BotMoveRequest {
    /// The bot call of a JSON body.
    pub fn from_json(bytes: &[u8]) -> Result<BotCall, ApiError> {
        let mut parts = Parts::of(bytes)?;
        let search: SearchFields = parts.take()?;
        let bot: BotFields = parts.take()?;
        let clock = bot.clock.map(ClockField::into_clock).transpose()?;
        if clock.is_some() && search.time_ms.is_some() {
            return Err(both("time_ms", "clock", "a clock or a time a move"));
        }
        let (request, limits) = search.into_call(bot.level, clock, bot.max_queue_ms, parts.rest());
        Ok(BotCall { request, limits })
    }

    /// The bot call of a text body: the shared fields come from the query
    /// (`level`, `seed`, `time_ms`, `max_depth`, `max_nodes`), the rest of
    /// the query is the text form's own (`to_move`, `camp_rule`).
    pub fn from_text(body: String, query: HashMap<String, String>) -> Result<BotCall, ApiError> {
        let mut query = query;
        let clock = query_clock(&mut query)?;
        let limits = Limits {
            time_ms: query_number(&mut query, "time_ms")?,
            max_depth: query_number(&mut query, "max_depth")?,
            max_nodes: query_number(&mut query, "max_nodes")?,
            clock,
            max_queue_ms: query_number(&mut query, "max_queue_ms")?,
        };
        if limits.clock.is_some() && limits.time_ms.is_some() {
            return Err(ApiError::invalid_option(
                "time_ms and remaining_ms are both given: a move takes a clock or a time a move, so leave out one of them",
            ));
        }
        let seed = query_number(&mut query, "seed")?;
        let level = query.remove("level").map(LevelId::from);
        let perspective = query
            .remove("perspective")
            .map(|name| PerspectiveName::from(name.as_str()));
        Ok(BotCall {
            request: BotRequest {
                state: StateInput::Text {
                    body,
                    params: TextParams::from_pairs(query).with_shared(TEXT_SHARED),
                },
                level,
                seed,
                budget_fields: limits.given(),
                own_fields: Map::new(),
                perspective,
            },
            limits,
        })
    }
}

impl AnalyzeRequest {
    /// The analysis call of a JSON body.
    pub fn from_json(bytes: &[u8]) -> Result<AnalysisCall, ApiError> {
        let mut parts = Parts::of(bytes)?;
        let search: SearchFields = parts.take()?;
        let analysis: AnalysisFields = parts.take()?;
        let top = analysis.top.unwrap_or(DEFAULT_TOP);
        if !(1..=MAX_TOP).contains(&top) {
            return Err(ApiError::invalid_option(format!(
                "top={top}: expected a whole number from 1 to {MAX_TOP}"
            ))
            .at("/top"));
        }
        let (request, limits) = search.into_call(None, None, None, parts.rest());
        Ok(AnalysisCall {
            request,
            limits,
            top: top as usize,
        })
    }
}

/// A text request's clock from its query (`remaining_ms`, `increment_ms`,
/// `moves_to_go`, `overhead_ms`): none without `remaining_ms`, whose
/// companions alone are refused.
fn query_clock(query: &mut HashMap<String, String>) -> Result<Option<GameClock>, ApiError> {
    let remaining = query_number(query, "remaining_ms")?;
    let increment = query_number(query, "increment_ms")?;
    let moves_to_go = query_number(query, "moves_to_go")?;
    let overhead = query_number(query, "overhead_ms")?;
    let Some(remaining_ms) = remaining else {
        if increment.is_some() || moves_to_go.is_some() || overhead.is_some() {
            return Err(ApiError::invalid_option(
                "increment_ms, moves_to_go and overhead_ms belong to a clock: give remaining_ms too",
            ));
        }
        return Ok(None);
    };
    let clock = GameClock {
        remaining_ms,
        increment_ms: increment.unwrap_or(0),
        moves_to_go: moves_to_go.map(|n| u32::try_from(n).unwrap_or(u32::MAX)),
        overhead_ms: overhead.unwrap_or(DEFAULT_OVERHEAD_MS),
    };
    // A query has no pointer: the message names the parameter.
    clock
        .checked("")
        .map(Some)
        .map_err(|error| ApiError::invalid_option(error.to_string()))
}

/// Takes a whole-number query parameter out of the query.
fn query_number(query: &mut HashMap<String, String>, key: &str) -> Result<Option<u64>, ApiError> {
    query
        .remove(key)
        .map(|raw| {
            raw.trim().parse::<u64>().map_err(|_| {
                ApiError::invalid_option(format!("{key}={raw}: expected a whole number ≥ 0"))
            })
        })
        .transpose()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn properties<T: JsonSchema>() -> Vec<String> {
        let schema = schemars::schema_for!(T);
        let mut names: Vec<String> = schema
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default();
        names.sort();
        names
    }

    /// Whether the parts read every field the schema publishes for `T`:
    /// a body of `state` and that field is refused for its value, if at
    /// all, and the field is neither left for the game (`left` says which
    /// fields a call left) nor refused as unknown.
    fn reads_every_published_field<T: JsonSchema, C>(
        read: fn(&[u8]) -> Result<C, ApiError>,
        left: fn(&C) -> Vec<String>,
    ) {
        for name in properties::<T>() {
            let mut body = Map::new();
            body.insert("state".into(), Value::Object(Map::new()));
            body.insert(name.clone(), Value::Null);
            let body = serde_json::to_vec(&Value::Object(body)).unwrap();
            match read(&body) {
                Ok(call) => assert!(!left(&call).contains(&name), "{name} left unread"),
                Err(error) => {
                    let detail = error.problem().detail;
                    assert!(!detail.contains("unknown field"), "{name}: {detail}");
                }
            }
        }
    }

    #[test]
    fn every_published_field_is_read_by_a_part() {
        fn own(request: &BotRequest) -> Vec<String> {
            request.own_fields.keys().cloned().collect()
        }
        reads_every_published_field::<BotMoveRequest, _>(BotMoveRequest::from_json, |call| {
            own(&call.request)
        });
        reads_every_published_field::<AnalyzeRequest, _>(AnalyzeRequest::from_json, |call| {
            own(&call.request)
        });
        reads_every_published_field::<ReplayRequest, _>(ReplayRequest::from_json, |_| vec![]);
        reads_every_published_field::<ReviewRequest, _>(ReviewRequest::from_json, |_| vec![]);
        assert!(properties::<BotMoveRequest>().contains(&"clock".to_string()));
        assert!(properties::<BotMoveRequest>().contains(&"time_ms".to_string()));
        assert!(properties::<AnalyzeRequest>().contains(&"top".to_string()));
        assert!(properties::<ReviewRequest>().contains(&"record".to_string()));
        assert!(properties::<ReviewRequest>().contains(&"seed".to_string()));
    }

    #[test]
    fn a_replay_and_a_review_read_one_game_shape() {
        assert_eq!(
            properties::<GameRecord>(),
            ["moves", "options", "record", "state"]
        );
        for name in properties::<GameRecord>() {
            assert!(properties::<ReplayRequest>().contains(&name), "{name}");
            assert!(properties::<ReviewRequest>().contains(&name), "{name}");
        }
        let review = ReviewRequest::from_json(br#"{"moves": ["d3"], "seed": 4}"#).unwrap();
        assert_eq!(review.replay.max_moves, MAX_REVIEW_MOVES);
        assert_eq!(
            (review.seed, review.max_nodes),
            (4, Some(DEFAULT_REVIEW_NODES))
        );
        let replay = ReplayRequest::from_json(br#"{"record": "d3", "states": true}"#).unwrap();
        assert_eq!((replay.max_moves, replay.states), (MAX_REPLAY_MOVES, true));
        for body in [r#"{"moves": 5}"#, r#"{"moves": [], "seed": "x"}"#] {
            let problem = ReviewRequest::from_json(body.as_bytes())
                .unwrap_err()
                .problem();
            assert!(problem.pointer.is_some(), "{body}: {problem:?}");
        }
        let problem = ReplayRequest::from_json(br#"{"moves": [], "seed": 1}"#)
            .unwrap_err()
            .problem();
        assert_eq!(problem.pointer.as_deref(), Some("/seed"));
    }

    fn pointer_of(body: &str) -> Option<String> {
        match BotMoveRequest::from_json(body.as_bytes()) {
            Err(error) => error.problem().pointer,
            Ok(call) => panic!("{body}: accepted as {call:?}"),
        }
    }

    #[test]
    fn a_wrong_type_points_at_its_field() {
        assert_eq!(
            pointer_of(r#"{"state": {}, "time_ms": "200"}"#).as_deref(),
            Some("/time_ms")
        );
        assert_eq!(
            pointer_of(r#"{"state": {}, "seed": -1}"#).as_deref(),
            Some("/seed")
        );
        assert_eq!(
            pointer_of(r#"{"state": {}, "level": true}"#).as_deref(),
            Some("/level")
        );
    }

    #[test]
    fn a_level_may_be_a_number_or_a_string_and_the_game_keeps_its_own_fields() {
        let call =
            BotMoveRequest::from_json(br#"{"state": {}, "level": 5, "house_rule": {"x": 1}}"#)
                .unwrap();
        assert_eq!(call.request.level, Some(LevelId::Number(5)));
        assert!(call.request.own_fields.contains_key("house_rule"));
        // The clock is every game's, read here.
        let call = BotMoveRequest::from_json(
            br#"{"state": {}, "level": 5, "clock": {"remaining_ms": 1000}}"#,
        )
        .unwrap();
        assert!(!call.request.own_fields.contains_key("clock"));
        assert_eq!(call.limits.clock.map(|c| c.remaining_ms), Some(1000));
        let call =
            BotMoveRequest::from_json(br#"{"state": {}, "level": "5", "time_ms": 9}"#).unwrap();
        assert_eq!(call.request.level, Some(LevelId::from("5")));
        assert_eq!(call.request.budget_fields, vec!["time_ms"]);
    }
}
