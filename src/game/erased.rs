//! The type-erased JSON view of a game: every [`Game`] gets a [`DynGame`] for
//! free through [`Erased`], so the registry and the HTTP layer can handle any
//! game as JSON in, JSON out.

use super::ladder::{self, AnyLevel};
use super::{
    Analysis, BotChoice, BotParams, Budget, Game, GameError, GameInfo, Level, LevelInfo,
    NumberedLevelInfo, OptionInfo, Outcome, Player, SearchReport, Termination,
};
use serde::Serialize;
use serde_json::{json, Map, Value};
use std::marker::PhantomData;
use std::time::Instant;

/// A bot request, with the fields every game shares; the rest travels in
/// `own_fields` and must be the game's own bot options.
#[derive(Clone, Debug, Default)]
pub struct BotRequest {
    /// The state, as JSON.
    pub state: Value,
    /// The level asked for (`None`: the game's default).
    pub level: Option<String>,
    /// The seed asked for (`None`: a fresh random one, echoed in the report).
    pub seed: Option<u64>,
    /// The request's other fields as they arrived, which the game reads as
    /// its typed [`Bots::BotOptions`](super::Bots::BotOptions) (such as
    /// Halma's `clock`); anything else is refused.
    pub own_fields: Map<String, Value>,
}

/// A game as `GET /v1/games` lists it.
#[derive(Clone, Debug, Serialize)]
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
    /// The level used when a request names none.
    pub default_level: &'static str,
    /// The options `new` accepts.
    pub new_options: &'static [OptionInfo],
    /// The content types this game accepts besides JSON.
    pub text_forms: &'static [&'static str],
}

/// The answer to `new`.
#[derive(Clone, Debug, Serialize)]
pub struct NewReply {
    /// The starting state.
    pub state: Value,
}

/// The answer to `legal-moves`.
#[derive(Clone, Debug, Serialize)]
pub struct LegalMovesReply {
    /// Every legal move, as JSON objects.
    pub moves: Vec<Value>,
    /// How many there are.
    pub count: usize,
    /// How the game stands.
    pub outcome: Value,
}

/// The answer to `play`.
#[derive(Clone, Debug, Serialize)]
pub struct PlayReply {
    /// The move played, as a JSON object.
    #[serde(rename = "move")]
    pub mv: Value,
    /// The state after it.
    pub state: Value,
    /// How the game stands after it.
    pub outcome: Value,
    /// What the move did beyond the new state, where the game says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effects: Option<Value>,
}

/// The answer to `bot-move`.
#[derive(Clone, Debug, Serialize)]
pub struct BotReply {
    /// The move chosen, as a JSON object.
    #[serde(rename = "move")]
    pub mv: Value,
    /// The state after it.
    pub state: Value,
    /// How the game stands after it.
    pub outcome: Value,
    /// What the move did beyond the new state, where the game says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effects: Option<Value>,
    /// What the search did.
    pub search: SearchReport,
}

/// One move of an analysis.
#[derive(Clone, Debug, Serialize)]
pub struct AnalyzedMove {
    /// The move, as a JSON object.
    #[serde(rename = "move")]
    pub mv: Value,
    /// Its score from the mover's point of view.
    pub score: i64,
    /// The line expected to follow, in notation, starting with this move.
    pub pv: Vec<String>,
    /// The proven result, where there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<String>,
}

/// The answer to `analyze`.
#[derive(Clone, Debug, Serialize)]
pub struct AnalyzeReply {
    /// The best moves, best first.
    pub moves: Vec<AnalyzedMove>,
    /// What the search did.
    pub search: SearchReport,
}

/// Any game, seen as JSON in and JSON out.
pub trait DynGame: Send + Sync {
    /// The game's static description.
    fn info(&self) -> GameInfo;
    /// The game as `GET /v1/games` lists it, levels included.
    fn listing(&self) -> GameListing;
    /// `new`: a starting state from options (a JSON object, or null for the defaults).
    fn new_game(&self, options: &Value) -> Result<NewReply, GameError>;
    /// `legal-moves`.
    fn legal_moves(&self, state: &Value) -> Result<LegalMovesReply, GameError>;
    /// `play`.
    fn play(&self, state: &Value, mv: &Value) -> Result<PlayReply, GameError>;
    /// `bot-move`.
    fn bot_move(&self, request: &BotRequest, budget: &Budget) -> Result<BotReply, GameError>;
    /// `analyze`: the `top` best moves.
    fn analyze(
        &self,
        request: &BotRequest,
        top: usize,
        budget: &Budget,
    ) -> Result<AnalyzeReply, GameError>;
    /// The canonical JSON form of a state: parsed, validated and written back.
    fn canonical_state(&self, state: &Value) -> Result<Value, GameError>;
    /// The JSON schema of the game's [`Termination`] enum: every value an
    /// outcome's `termination` may take, each with its description.
    fn termination_schema(&self) -> Value;
    /// Checks a level (`name[:key=value,...]`) before any work is queued, so
    /// a typo fails fast.
    fn check_level(&self, level: &str) -> Result<(), GameError>;
    /// `legal-moves` in the game's own text form.
    fn text_legal_moves(&self, body: &str, query: &Map<String, Value>)
        -> Result<String, GameError>;
    /// `bot-move` in the game's own text form.
    fn text_bot_move(
        &self,
        body: &str,
        query: &Map<String, Value>,
        budget: &Budget,
    ) -> Result<String, GameError>;
}

/// The adapter that gives a [`Game`] its [`DynGame`] view.
pub struct Erased<G>(PhantomData<G>);

impl<G> Erased<G> {
    /// The view of game `G` (a constant, so the registry can be a static table).
    pub const VIEW: Erased<G> = Erased(PhantomData);
}

/// A random seed for a request that names none. It stays below 2^53 so that
/// JavaScript clients, whose numbers are doubles, can echo it back exactly.
fn fresh_seed() -> u64 {
    rand::random::<u64>() >> 11
}

/// The JSON form of an outcome, with the game's names for the sides: the
/// `termination` as the game's enum names it, and `score` keyed by side.
pub fn outcome_json<T: Termination>(outcome: &Outcome<T>, sides: &[&str]) -> Value {
    let side = |player: Player| sides.get(player.index()).copied().unwrap_or("?");
    let tally = |score: &[i64; 2]| -> Map<String, Value> {
        sides
            .iter()
            .zip(score)
            .map(|(name, n)| (name.to_string(), json!(n)))
            .collect()
    };
    match outcome {
        Outcome::Ongoing => json!({"status": "ongoing"}),
        Outcome::Win {
            winner,
            reason,
            termination,
            score,
        } => json!({
            "status": "win",
            "winner": side(*winner),
            "reason": reason,
            "termination": termination,
            "score": tally(score),
        }),
        Outcome::Draw {
            reason,
            termination,
            score,
        } => json!({
            "status": "draw",
            "reason": reason,
            "termination": termination,
            "score": tally(score),
        }),
        Outcome::Finished {
            termination,
            points,
        } => json!({
            "status": "finished",
            "termination": termination,
            "score": {side(Player::First): points},
        }),
    }
}

impl<G: Game> Erased<G> {
    fn state(value: &Value) -> Result<G::State, GameError> {
        G::state_from_json(value).map_err(|e| e.under("/state", value))
    }

    fn outcome(state: &G::State) -> (Outcome<G::Termination>, Value) {
        let outcome = G::outcome(state);
        let json = outcome_json(&outcome, G::info().sides);
        (outcome, json)
    }

    fn ongoing(state: &G::State) -> Result<(), GameError> {
        if G::outcome(state).is_over() {
            Err(GameError::GameOver)
        } else {
            Ok(())
        }
    }

    /// The level a request names, or the game's default.
    fn level(request_level: Option<&str>) -> Result<AnyLevel<G::Level>, GameError> {
        match request_level {
            None => Ok(AnyLevel::default_of::<G>()),
            Some(text) => AnyLevel::parse::<G>(text),
        }
    }

    /// The request's seed (a fresh one if it names none, so the report can
    /// give it back) and its game-specific fields as the game's options.
    fn params(request: &BotRequest) -> Result<BotParams<G::BotOptions>, GameError> {
        Ok(BotParams {
            seed: request.seed.unwrap_or_else(fresh_seed),
            options: bot_options(&request.own_fields)?,
        })
    }

    /// Fills in what every search report says, once, for `bot-move` and
    /// `analyze` alike: who searched, for how long, under what budget, with
    /// which seed.
    fn stamp(
        report: &mut SearchReport,
        label: String,
        started: Instant,
        budget: &Budget,
        seed: u64,
    ) {
        report.level = label;
        report.elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
        report.time_ms = budget.time_ms;
        report.max_depth = report.max_depth.or(budget.max_depth);
        report.max_nodes = report.max_nodes.or(budget.max_nodes);
        report.seed = Some(seed);
    }

    /// Runs the level and checks that what it chose is legal: a bot must never
    /// hand an illegal move to a client, whatever bug it may have.
    fn choose(
        state: &G::State,
        level: &AnyLevel<G::Level>,
        params: &BotParams<G::BotOptions>,
        budget: &Budget,
    ) -> Result<BotChoice<G::Move>, GameError> {
        let started = Instant::now();
        let mut choice = ladder::choose::<G>(state, level, params, budget)?;
        let mut legal = Vec::new();
        G::legal_moves(state, &mut legal);
        if !legal.contains(&choice.mv) {
            return Err(GameError::Internal(format!(
                "level {level} chose a move that is not legal: {:?}",
                choice.mv
            )));
        }
        Self::stamp(
            &mut choice.report,
            level.to_string(),
            started,
            budget,
            params.seed,
        );
        if let AnyLevel::Numbered(n) = level {
            choice.report.time_ms = ladder::rung_time_ms::<G>(*n, budget);
        }
        Ok(choice)
    }

    fn pv_notation(state: &G::State, pv: &[G::Move]) -> Vec<String> {
        let mut current = state.clone();
        let mut line = Vec::with_capacity(pv.len());
        let mut legal = Vec::new();
        for mv in pv {
            legal.clear();
            G::legal_moves(&current, &mut legal);
            if !legal.contains(mv) {
                break;
            }
            line.push(G::notation(&current, mv));
            current = G::apply(&current, mv);
        }
        line
    }

    fn analysis_reply(state: &G::State, analysis: Analysis<G::Move>) -> AnalyzeReply {
        let moves = analysis
            .moves
            .into_iter()
            .map(|m| AnalyzedMove {
                mv: G::move_to_json(state, &m.mv),
                score: m.score,
                pv: Self::pv_notation(state, &m.pv),
                exact: m.exact,
            })
            .collect();
        AnalyzeReply {
            moves,
            search: analysis.report,
        }
    }
}

impl<G: Game> DynGame for Erased<G> {
    fn info(&self) -> GameInfo {
        G::info()
    }

    fn listing(&self) -> GameListing {
        let info = G::info();
        GameListing {
            id: info.id,
            name: info.name,
            players: info.players,
            sides: info.sides,
            levels: G::Level::ALL
                .iter()
                .map(|def| LevelInfo {
                    id: def.id,
                    description: def.description,
                })
                .collect(),
            numbered_levels: ladder::listing(G::LADDER, G::LADDER_RATINGS),
            default_level: G::DEFAULT_LEVEL.id(),
            new_options: info.new_options,
            text_forms: info.text_forms,
        }
    }

    fn new_game(&self, options: &Value) -> Result<NewReply, GameError> {
        let state = G::new_game(super::read_new_options::<G>(options)?)?;
        Ok(NewReply {
            state: G::state_to_json(&state),
        })
    }

    fn legal_moves(&self, state: &Value) -> Result<LegalMovesReply, GameError> {
        let state = Self::state(state)?;
        let mut moves = Vec::new();
        G::legal_moves(&state, &mut moves);
        let (_, outcome) = Self::outcome(&state);
        Ok(LegalMovesReply {
            count: moves.len(),
            moves: moves.iter().map(|m| G::move_to_json(&state, m)).collect(),
            outcome,
        })
    }

    fn play(&self, state: &Value, mv: &Value) -> Result<PlayReply, GameError> {
        let state = Self::state(state)?;
        Self::ongoing(&state)?;
        let mv = G::parse_move(&state, mv).map_err(|e| e.under("/move", mv))?;
        let after = G::apply(&state, &mv);
        let (_, outcome) = Self::outcome(&after);
        Ok(PlayReply {
            mv: G::move_to_json(&state, &mv),
            effects: G::describe_move(&state, &mv),
            state: G::state_to_json(&after),
            outcome,
        })
    }

    fn bot_move(&self, request: &BotRequest, budget: &Budget) -> Result<BotReply, GameError> {
        let level = Self::level(request.level.as_deref())?;
        let params = Self::params(request)?;
        let state = Self::state(&request.state)?;
        Self::ongoing(&state)?;
        let choice = Self::choose(&state, &level, &params, budget)?;
        let after = G::apply(&state, &choice.mv);
        let (_, outcome) = Self::outcome(&after);
        Ok(BotReply {
            mv: G::move_to_json(&state, &choice.mv),
            effects: G::describe_move(&state, &choice.mv),
            state: G::state_to_json(&after),
            outcome,
            search: choice.report,
        })
    }

    fn analyze(
        &self,
        request: &BotRequest,
        top: usize,
        budget: &Budget,
    ) -> Result<AnalyzeReply, GameError> {
        let params = Self::params(request)?;
        let state = Self::state(&request.state)?;
        Self::ongoing(&state)?;
        let started = Instant::now();
        let mut analysis = G::analyze(&state, top, &params, budget)?;
        analysis.moves.truncate(top);
        Self::stamp(
            &mut analysis.report,
            "analyze".to_string(),
            started,
            budget,
            params.seed,
        );
        Ok(Self::analysis_reply(&state, analysis))
    }

    fn canonical_state(&self, state: &Value) -> Result<Value, GameError> {
        Ok(G::state_to_json(&Self::state(state)?))
    }

    fn termination_schema(&self) -> Value {
        json!(schemars::schema_for!(G::Termination))
    }

    fn check_level(&self, level: &str) -> Result<(), GameError> {
        Self::level(Some(level)).map(|_| ())
    }

    fn text_legal_moves(
        &self,
        body: &str,
        query: &Map<String, Value>,
    ) -> Result<String, GameError> {
        let request = G::parse_text(body, query)?;
        let mut moves = Vec::new();
        G::legal_moves(&request.state, &mut moves);
        Ok(G::text_legal_moves(&request.state, &moves))
    }

    fn text_bot_move(
        &self,
        body: &str,
        query: &Map<String, Value>,
        budget: &Budget,
    ) -> Result<String, GameError> {
        let request = G::parse_text(body, query)?;
        let level_name = query
            .get("level")
            .and_then(Value::as_str)
            .or(request.level.as_deref());
        let level = Self::level(level_name)?;
        Self::ongoing(&request.state)?;
        let seed = query
            .get("seed")
            .and_then(Value::as_str)
            .map(|s| {
                s.parse::<u64>().map_err(|_| {
                    GameError::InvalidOption(format!("seed={s}: expected a whole number"))
                })
            })
            .transpose()?;
        let params = BotParams {
            seed: seed.unwrap_or_else(fresh_seed),
            options: request.options.clone(),
        };
        let choice = Self::choose(&request.state, &level, &params, budget)?;
        let after = G::apply(&request.state, &choice.mv);
        Ok(G::text_bot_move(&request.state, &choice.mv, &after))
    }
}

/// The request fields the shared API does not know, read as a game's bot
/// options; a field the game does not take is `malformed_json` pointing at it.
fn bot_options<O: serde::de::DeserializeOwned>(
    own_fields: &Map<String, Value>,
) -> Result<O, GameError> {
    let value = Value::Object(own_fields.clone());
    serde_path_to_error::deserialize(value).map_err(|error| {
        let pointer = error
            .path()
            .iter()
            .map(|segment| match segment {
                serde_path_to_error::Segment::Seq { index } => index.to_string(),
                serde_path_to_error::Segment::Map { key } => escape_token(key),
                serde_path_to_error::Segment::Enum { variant } => escape_token(variant),
                serde_path_to_error::Segment::Unknown => String::new(),
            })
            .fold(String::new(), |pointer, token| format!("{pointer}/{token}"));
        let inner = error.into_inner().to_string();
        let unknown = inner.strip_prefix("unknown field ").map(|rest| {
            let field = rest.split(',').next().unwrap_or(rest);
            let own = rest
                .split_once("expected ")
                .map(|(_, names)| format!("; this game's own fields are {names}"))
                .unwrap_or_default();
            format!("{field} is not a field of this request{own}")
        });
        GameError::MalformedRequest {
            detail: format!(
                "the body is not the JSON this endpoint takes at {pointer}: {}",
                unknown.unwrap_or(inner)
            ),
            pointer: Some(pointer),
        }
    })
}

/// A reference token of a JSON pointer: `~` is written `~0` and `/` `~1`.
fn escape_token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}
