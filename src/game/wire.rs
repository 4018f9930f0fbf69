//! The JSON shapes of the type-erased view ([`super::erased`]): the
//! requests it takes once the API has read them (a state as JSON or text,
//! a level, a seed, the budget) and the answers it gives, which the API
//! serves as they are and whose schemas its contract publishes. They know
//! no game and no HTTP: `erased` fills them from a game's types, `api`
//! reads and writes them.

pub use super::forms::{AnyForms, Forms, GameForms, WireForms};
use super::{
    Budget, GameError, LadderZeroInfo, LevelInfo, NumberedLevelInfo, OptionInfo, Outcome,
    SearchReport, Side, Termination,
};
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

/// A text form's own query parameters (`to_move`, `camp_rule`, `ply`):
/// what is left of the query once the API has read the fields every
/// request shares (`level`, `seed`, the budget), and the names of those
/// shared fields, for an error that lists all a request takes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TextParams {
    /// The parameters left for the game.
    params: BTreeMap<String, String>,
    /// The names the API has read already.
    shared: &'static [&'static str],
}

impl TextParams {
    /// The parameters from `(name, value)` pairs.
    pub fn from_pairs<K: Into<String>, V: Into<String>>(
        pairs: impl IntoIterator<Item = (K, V)>,
    ) -> Self {
        TextParams {
            params: pairs
                .into_iter()
                .map(|(k, v)| (k.into(), v.into()))
                .collect(),
            shared: &[],
        }
    }

    /// The same parameters, where the API has read the `shared` ones
    /// already (the names an error lists beside the game's own).
    pub fn with_shared(self, shared: &'static [&'static str]) -> Self {
        TextParams { shared, ..self }
    }

    /// The value of parameter `name`, if the query has it.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.params.get(name).map(String::as_str)
    }

    /// Refuses every parameter that is not one of the text form's `own`:
    /// a misspelt one (`levle=random`) would otherwise be ignored without
    /// a word. The error (`invalid_option`) names each such parameter and
    /// every name the request takes.
    pub fn only(&self, own: &[&str]) -> Result<(), GameError> {
        let unknown: Vec<&str> = self
            .params
            .keys()
            .map(String::as_str)
            .filter(|name| !own.contains(name))
            .collect();
        if unknown.is_empty() {
            return Ok(());
        }
        let taken: Vec<&str> = own.iter().chain(self.shared).copied().collect();
        let quoted: Vec<String> = unknown.iter().map(|name| format!("'{name}'")).collect();
        let (noun, verb) = if unknown.len() == 1 {
            ("query parameter", "is")
        } else {
            ("query parameters", "are")
        };
        let takes = if taken.is_empty() {
            "it takes no query parameters".to_string()
        } else {
            format!("it takes {}", taken.join(", "))
        };
        Err(GameError::invalid_option(format!(
            "the {noun} {} {verb} not one this request takes: {takes}",
            quoted.join(", ")
        )))
    }
}

/// Where a request's state comes from: its JSON object, or the game's own
/// text form with its query parameters.
#[derive(Clone, Debug)]
pub enum StateInput {
    /// The JSON state, not yet validated.
    Json(Value),
    /// The game's text form (`text/plain`), not yet parsed.
    Text {
        /// The body.
        body: String,
        /// The text form's own query parameters.
        params: TextParams,
    },
}

impl Default for StateInput {
    fn default() -> Self {
        StateInput::Json(Value::Null)
    }
}

/// A level id: a name from `GET /v1/games` (`"strong"`, with options
/// `"norvig:depth=8"`), or a numbered level of the game's ladder, as a
/// string (`"5"`) or an integer (`5`). The game reads it against its own
/// levels ([`super::ladder::AnyLevel::read`]).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum LevelId {
    /// A level name, or a number written as a string.
    Name(String),
    /// A numbered level.
    Number(u64),
}

impl From<&str> for LevelId {
    fn from(name: &str) -> Self {
        LevelId::Name(name.to_string())
    }
}

impl From<String> for LevelId {
    fn from(name: String) -> Self {
        LevelId::Name(name)
    }
}

impl fmt::Display for LevelId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LevelId::Name(name) => f.write_str(name),
            LevelId::Number(n) => write!(f, "{n}"),
        }
    }
}

/// Whose view a request asks scores in, as it names it: `"mover"`, the
/// side to move, or a side by the game's name for it (`"black"`), which
/// the game checks against its `sides`. Published as a string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PerspectiveName {
    /// `"mover"`: whoever is to move.
    Mover,
    /// A side, by name.
    Side(String),
}

impl From<&str> for PerspectiveName {
    fn from(name: &str) -> Self {
        match name {
            "mover" => PerspectiveName::Mover,
            side => PerspectiveName::Side(side.to_string()),
        }
    }
}

impl fmt::Display for PerspectiveName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PerspectiveName::Mover => f.write_str("mover"),
            PerspectiveName::Side(side) => f.write_str(side),
        }
    }
}

impl<'de> Deserialize<'de> for PerspectiveName {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(PerspectiveName::from(
            String::deserialize(deserializer)?.as_str(),
        ))
    }
}

impl JsonSchema for PerspectiveName {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "PerspectiveName".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        String::json_schema(generator)
    }
}

/// A bot or analysis request as the API read it, once: the fields every
/// game shares are typed; the game's own (such as Halma's `clock`) travel
/// in `own_fields` and are read as the game's typed bot options.
#[derive(Clone, Debug, Default)]
pub struct BotRequest {
    /// The state, as JSON or text.
    pub state: StateInput,
    /// The level asked for (`None`: the one the text names, else the game's default).
    pub level: Option<LevelId>,
    /// The seed asked for (`None`: a fresh random one, echoed in the report).
    pub seed: Option<u64>,
    /// The budget fields the request set (`time_ms`, ...): a numbered
    /// level carries its own budget and refuses them.
    pub budget_fields: Vec<&'static str>,
    /// The request's other fields as they arrived, which the game reads as
    /// its typed [`Bots::BotOptions`](super::Bots::BotOptions); anything
    /// else is refused.
    pub own_fields: Map<String, Value>,
    /// Whose view scores and win probabilities take (`None`: the side to move's).
    pub perspective: Option<PerspectiveName>,
}

/// A bot's move as the answer gives it: the JSON reply, and the text
/// answer when the state came in the game's text form.
#[derive(Clone, Debug)]
pub struct BotAnswer {
    /// The JSON reply (also what a text request's logs and headers report).
    pub reply: BotReply,
    /// The answer in the game's text form, for a text request.
    pub text: Option<String>,
    /// The move's notation, as the answer's move header says it.
    pub notation: String,
}

/// A bot's or an analysis' work, checked, with the state as the position
/// cache keys it where the request asked for a key.
pub struct Prepared<J> {
    /// The work, ready to run on a compute worker under a budget.
    pub job: J,
    /// The state's part of the request's cache key (the JSON form of the
    /// twin its search runs on), or `None` for an answer that is not cached.
    pub cache_state: Option<Value>,
}

/// A bot's work, checked and ready to run on a compute worker under a budget.
pub type BotJob = Box<dyn FnOnce(&Budget) -> Result<BotAnswer, GameError> + Send>;

/// Where a streamed analysis sends each completed depth's answer.
pub type DepthSink = Box<dyn Fn(AnalyzeReply) + Send + Sync>;

/// An analysis, checked and ready to run on a compute worker under a budget.
pub type AnalysisJob = Box<dyn FnOnce(&Budget) -> Result<AnalyzeReply, GameError> + Send>;

/// The schemas of a game's own JSON forms, as references into the
/// generator's definitions (`#/components/schemas/ReversiState`).
#[derive(Clone, Debug)]
pub struct GameSchemas {
    /// The state.
    pub state: Schema,
    /// The move object.
    pub mv: Schema,
    /// `new`'s options.
    pub new_options: Schema,
    /// The bot options a bot or analysis request may carry.
    pub bot_options: Schema,
    /// How a game ends (`ReversiTermination`).
    pub termination: Schema,
}

/// A game as `GET /v1/games` lists it.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct GameListing {
    /// The id used in URLs.
    pub id: &'static str,
    /// The human name.
    pub name: &'static str,
    /// 1 or 2.
    pub players: u8,
    /// The names of the sides, first mover first.
    pub sides: &'static [&'static str],
    /// Every named bot level, from the game's level type.
    pub levels: Vec<LevelInfo>,
    /// The numbered levels `1`…`N`, weakest first, with their measured
    /// ratings; empty for a game without a ladder.
    pub numbered_levels: Vec<NumberedLevelInfo>,
    /// The level the numbered levels' ratings count from (the random
    /// mover, rated 0); null for a game without a rated ladder.
    pub ladder_zero: Option<LadderZeroInfo>,
    /// The level used when a request names none.
    pub default_level: &'static str,
    /// The options `new` accepts.
    pub new_options: &'static [OptionInfo],
    /// What a finished game's `outcome.score` counts for each side.
    pub score_counts: &'static str,
    /// The unit of a search's `score`, from the side to move's view.
    pub score_unit: &'static str,
    /// The content types this game accepts besides JSON.
    pub text_forms: &'static [&'static str],
    /// What this game's reviews judge a move by.
    pub review_judged_by: ReviewBasis,
}

/// What a game's reviews judge a move by, and so which of a ply's figures
/// (`loss`, `points_lost`) a review fills in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReviewBasis {
    /// The chance of winning the move gave away, from the game's measured
    /// win model: every move not forced has a `loss`.
    WinProbability,
    /// The result it gave away where a search proved the positions' values
    /// (the game has no win model): other moves have no `loss`.
    ProvenResults,
    /// The points it lost against the best move (a one-player game):
    /// every move has `points_lost`.
    Points,
}

/// The answer to `new`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(rename = "{F}NewReply")]
#[serde(bound(serialize = "F: WireForms"))]
pub struct NewReply<F: Forms = AnyForms> {
    /// The starting state.
    pub state: F::State,
}

/// The answer to `legal-moves`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(rename = "{F}LegalMovesReply")]
#[serde(bound(serialize = "F: WireForms"))]
pub struct LegalMovesReply<F: Forms = AnyForms> {
    /// Every legal move, as JSON objects.
    pub moves: Vec<F::Move>,
    /// How many there are.
    pub count: usize,
    /// How the game stands.
    pub outcome: F::Outcome,
}

/// The answer to `play`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(rename = "{F}PlayReply")]
#[serde(bound(serialize = "F: WireForms"))]
pub struct PlayReply<F: Forms = AnyForms> {
    /// The move played, as a JSON object.
    #[serde(rename = "move")]
    pub mv: F::Move,
    /// The state after it.
    pub state: F::State,
    /// How the game stands after it.
    pub outcome: F::Outcome,
    /// What the move did beyond the new state, where the game says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effects: Option<Value>,
}

/// The name a move takes in `bot-move`'s and `analyze`'s answers.
pub(super) const BOT_MOVE_FIELD: &str = "move";

/// The answer to `bot-move`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(rename = "{F}BotMoveReply")]
#[serde(bound(serialize = "F: WireForms"))]
pub struct BotReply<F: Forms = AnyForms> {
    /// The move chosen, as a JSON object.
    #[serde(rename = "move")]
    pub mv: F::Move,
    /// The state after it.
    pub state: F::State,
    /// How the game stands after it.
    pub outcome: F::Outcome,
    /// What the move did beyond the new state, where the game says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effects: Option<Value>,
    /// What the search did.
    pub search: SearchReport,
}

/// One move of an analysis.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(rename = "{F}AnalyzedMove")]
#[serde(bound(serialize = "F: WireForms"))]
pub struct AnalyzedMove<F: Forms = AnyForms> {
    /// The move, as a JSON object.
    #[serde(rename = "move")]
    pub mv: F::Move,
    /// Its score in the game's units (`search.score_unit`), from the side
    /// to move's view, or from the request's `perspective`.
    pub score: i64,
    /// The chance of winning with this move (0–1, draws counted half), from
    /// the same view as `score`: certain where proven, else from the game's
    /// win model fitted on self-play (docs/CALIBRATION.md); absent for a
    /// game without one (Number Crush) and for unproven scores of a game
    /// without a model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub win_probability: Option<f64>,
    /// The line expected to follow, in notation, starting with this move.
    pub pv: Vec<String>,
    /// The proven result in words, always from the side to move's view
    /// (`"win in 5 plies"`, `"+12"`, `"draw"`), where there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<String>,
}

/// The answer to `analyze`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(rename = "{F}AnalyzeReply")]
#[serde(bound(serialize = "F: WireForms"))]
pub struct AnalyzeReply<F: Forms = AnyForms> {
    /// The best moves, best first.
    pub moves: Vec<AnalyzedMove<F>>,
    /// What the search did.
    pub search: SearchReport,
}

/// Where a replay starts.
#[derive(Clone, Debug, Default)]
pub enum ReplayStart {
    /// The game's default new game.
    #[default]
    NewGame,
    /// A new game with these options (`new`'s `options` object).
    Options(Value),
    /// This state, as JSON.
    State(Value),
}

/// The moves a replay plays.
#[derive(Clone, Debug)]
pub enum ReplayMoves {
    /// Moves as `play` takes them: notation strings or move objects.
    List(Vec<Value>),
    /// The game's one-line record.
    Record(String),
}

/// A replay request: a start, the moves, and whether to answer every state.
#[derive(Clone, Debug)]
pub struct ReplayRequest {
    /// Where the game starts.
    pub start: ReplayStart,
    /// The moves played from there.
    pub moves: ReplayMoves,
    /// The most moves the endpoint takes, checked before any is played.
    pub max_moves: usize,
    /// Whether the answer lists every state along the way.
    pub states: bool,
}

/// The answer to `replay`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(rename = "{F}ReplayReply")]
#[serde(bound(serialize = "F: WireForms"))]
pub struct ReplayReply<F: Forms = AnyForms> {
    /// The state after the last move.
    pub state: F::State,
    /// How the game stands there.
    pub outcome: F::Outcome,
    /// The game's one-line record of the moves.
    pub record: String,
    /// Every move played, as `play` answers it (from a record, with the
    /// moves it leaves out, such as Reversi's passes).
    pub moves: Vec<F::Move>,
    /// When asked for: the start, then the state after each move.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<Vec<F::ListedState>>")]
    pub states: Option<Vec<F::State>>,
}

/// How a game stands, as JSON: what [`outcome_json`] writes, and the
/// schema the contract publishes (as `Outcome`, and per game with its
/// sides and termination enum, as `ReversiOutcome`).
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(
    rename = "Outcome",
    description = "How a game stands: going on, or how it ended and the final tally."
)]
pub struct OutcomeJson<T> {
    /// `ongoing`; `win` or `draw` when a two-player game is over;
    /// `finished` when a one-player game is.
    pub status: OutcomeStatus,
    /// Who won, by the game's name for the side (`black`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
    /// Why the game ended, in a few words for a person.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// How the game ended, as a code of the game's own (Reversi
    /// `no_moves`, Naughts `line` or `stalemate`, ...); absent while it
    /// goes on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub termination: Option<T>,
    /// The final tally per side, keyed by the game's side names, in the
    /// game's own terms (`score_counts` in `GET /v1/games`: discs,
    /// material, pieces inside the opposing camp, points); absent while
    /// the game goes on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<BTreeMap<String, i64>>,
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum OutcomeStatus {
    /// Somebody still has to move.
    Ongoing,
    /// Over, and `winner` won.
    Win,
    /// Over without a winner.
    Draw,
    /// A one-player game is over.
    Finished,
}

/// The JSON form of an outcome, with the game's names for the sides: the
/// `termination` as the game's enum names it, and `score` keyed by side.
pub fn outcome_json<T: Termination>(outcome: &Outcome<T>, sides: &[&str]) -> Value {
    let side = |player: Side| {
        sides
            .get(player.index())
            .copied()
            .unwrap_or("?")
            .to_string()
    };
    let tally = |score: &[i64]| -> BTreeMap<String, i64> {
        sides
            .iter()
            .zip(score)
            .map(|(name, n)| (name.to_string(), *n))
            .collect()
    };
    let ended = |status, winner, reason: &str, termination: &T, score: &[i64]| OutcomeJson {
        status,
        winner,
        reason: Some(reason.to_string()),
        termination: Some(*termination),
        score: Some(tally(score)),
    };
    let form = match outcome {
        Outcome::Ongoing => OutcomeJson {
            status: OutcomeStatus::Ongoing,
            winner: None,
            reason: None,
            termination: None,
            score: None,
        },
        Outcome::Win {
            winner,
            reason,
            termination,
            score,
        } => ended(
            OutcomeStatus::Win,
            Some(side(*winner)),
            reason,
            termination,
            score,
        ),
        Outcome::Draw {
            reason,
            termination,
            score,
        } => ended(OutcomeStatus::Draw, None, reason, termination, score),
        Outcome::Finished {
            termination,
            points,
        } => OutcomeJson {
            status: OutcomeStatus::Finished,
            winner: None,
            reason: None,
            termination: Some(*termination),
            score: Some(tally(&[*points])),
        },
    };
    serde_json::to_value(form).expect("an outcome always serializes")
}
