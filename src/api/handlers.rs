//! The game endpoints: parse the request, run the game's work on the compute
//! pool under a budget, answer JSON (or the game's text form).

use super::body::{self, Payload};
use super::{ApiError, AppState};
use crate::game::erased::{BotRequest, ReplayMoves, ReplayRequest, ReplayStart};
use crate::game::{ladder, Budget, DynGame, GameError, StopFlag};
use crate::games;
use axum::extract::{FromRequest, FromRequestParts, Path, Query, Request, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// The largest `top` an analysis may ask for.
pub const MAX_TOP: usize = 10;
/// The `top` of an analysis that names none.
pub const DEFAULT_TOP: usize = 3;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewRequest {
    #[serde(default)]
    options: Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StateRequest {
    state: Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayRequest {
    state: Value,
    #[serde(rename = "move")]
    mv: Value,
}

/// The budget fields shared by `bot-move` and `analyze`.
#[derive(Deserialize, Default)]
struct Limits {
    #[serde(default, deserialize_with = "whole_number")]
    time_ms: Option<u64>,
    #[serde(default, deserialize_with = "whole_number")]
    max_depth: Option<u64>,
    #[serde(default, deserialize_with = "whole_number")]
    max_nodes: Option<u64>,
}

impl Limits {
    /// Refuses a budget beside a numbered level, which carries its own: a
    /// request's time must not turn level 2 into a master.
    fn check_for_level(&self, level: &str) -> Result<(), GameError> {
        let set: Vec<&str> = [
            ("time_ms", self.time_ms),
            ("max_depth", self.max_depth),
            ("max_nodes", self.max_nodes),
        ]
        .into_iter()
        .filter_map(|(name, value)| value.map(|_| name))
        .collect();
        if set.is_empty() || !ladder::is_numbered(level) {
            return Ok(());
        }
        Err(GameError::InvalidOption(format!(
            "{} with level {}: numbered levels carry their own budget (depth and time), \
             so leave out time_ms, max_depth and max_nodes, or name a level such as the default",
            set.join(", "),
            level.trim()
        )))
    }
}

/// A non-negative whole number, written as an integer or as a float with no
/// fraction (`8.0`), as JSON Schema's `integer` allows; values beyond u64
/// saturate, since every such field is clamped to a server cap anyway.
fn whole_number<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<u64>, D::Error> {
    use serde::de::Error;
    let Some(number) = Option::<serde_json::Number>::deserialize(deserializer)? else {
        return Ok(None);
    };
    if let Some(n) = number.as_u64() {
        return Ok(Some(n));
    }
    match number.as_f64() {
        Some(x) if x >= 0.0 && x.fract() == 0.0 => Ok(Some(if x >= u64::MAX as f64 {
            u64::MAX
        } else {
            x as u64
        })),
        _ => Err(D::Error::custom(format!(
            "invalid value {number}, expected a whole number ≥ 0"
        ))),
    }
}

#[derive(Deserialize)]
struct BotMoveRequest {
    state: Value,
    level: Option<String>,
    #[serde(default, deserialize_with = "whole_number")]
    seed: Option<u64>,
    #[serde(flatten)]
    limits: Limits,
    /// Game-specific fields (such as Halma's `clock`).
    #[serde(flatten)]
    own_fields: Map<String, Value>,
}

#[derive(Deserialize)]
struct AnalyzeRequest {
    state: Value,
    #[serde(default, deserialize_with = "whole_number")]
    top: Option<u64>,
    #[serde(default, deserialize_with = "whole_number")]
    seed: Option<u64>,
    #[serde(flatten)]
    limits: Limits,
    #[serde(flatten)]
    own_fields: Map<String, Value>,
}

/// What every game endpoint starts from: the game the path names, the query,
/// the body sorted by content type, and when the request arrived (a search's
/// deadline counts from then). Its rejections are the API's problem documents.
pub struct GameRequest {
    /// The game id from the path.
    id: String,
    /// The game it names.
    game: &'static dyn DynGame,
    /// The query parameters (used with text bodies).
    query: HashMap<String, String>,
    /// The body.
    payload: Payload,
    /// When the request arrived.
    arrived: Instant,
}

impl FromRequest<AppState> for GameRequest {
    type Rejection = ApiError;

    async fn from_request(request: Request, app: &AppState) -> Result<Self, ApiError> {
        let arrived = Instant::now();
        let (mut parts, body) = request.into_parts();
        let Path(id) = Path::<String>::from_request_parts(&mut parts, app)
            .await
            .map_err(|e| ApiError::UnknownGame(e.body_text()))?;
        let game = games::find(&id).ok_or_else(|| ApiError::UnknownGame(id.clone()))?;
        let Query(query) = Query::<HashMap<String, String>>::from_request_parts(&mut parts, app)
            .await
            .map_err(|e| ApiError::InvalidOption(e.body_text()))?;
        let payload = body::read(&parts.headers, body, app.body_limits()).await?;
        Ok(GameRequest {
            id,
            game,
            query,
            payload,
            arrived,
        })
    }
}

fn json_body<T: serde::de::DeserializeOwned>(
    payload: Payload,
    empty: Option<T>,
) -> Result<T, ApiError> {
    match payload {
        Payload::Json(bytes) => body::parse_json(&bytes),
        Payload::Empty => empty.ok_or_else(|| ApiError::MalformedJson {
            pointer: None,
            detail: "the body is empty; this endpoint takes a JSON object".into(),
        }),
        Payload::Text(_) => Err(ApiError::UnsupportedMediaType(
            "this endpoint takes application/json only".into(),
        )),
    }
}

fn text_response(text: String) -> Response {
    ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response()
}

impl AppState {
    /// The limits of request bodies.
    fn body_limits(&self) -> body::BodyLimits {
        body::BodyLimits {
            max_bytes: self.config.max_body_bytes,
            timeout_ms: self.config.body_timeout_ms,
        }
    }

    /// The budget of a search asked for with `limits`, counted from `arrived`:
    /// values are clamped to the server's caps, and the deadline leaves a small
    /// margin for the response.
    fn budget(&self, limits: &Limits, arrived: Instant, stop: &StopFlag) -> Budget {
        let config = &self.config;
        let time_ms = limits
            .time_ms
            .unwrap_or(config.default_time_ms)
            .clamp(1, config.max_time_ms);
        let margin_us = (time_ms * 1000 / 20).min(3_000);
        Budget {
            deadline: Some(arrived + Duration::from_micros(time_ms * 1000 - margin_us)),
            time_ms: Some(time_ms),
            max_depth: limits
                .max_depth
                .map(|d| d.clamp(1, u64::from(config.max_depth)) as u32),
            max_nodes: limits.max_nodes.map(|n| n.clamp(1, config.max_nodes)),
            stop: stop.clone(),
            game_time_left_ms: None,
        }
    }

    /// Runs `job` on the compute pool.
    async fn compute<T, F>(&self, job: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&StopFlag) -> Result<T, crate::game::GameError> + Send + 'static,
    {
        Ok(self.pool.run(job).await??)
    }
}

fn record_search(game: &str, search: &crate::game::SearchReport, outcome: &Value) {
    let labels = [("game", game.to_string()), ("level", search.level.clone())];
    metrics::counter!("gamebot_search_nodes_total", &labels).increment(search.nodes.unwrap_or(0));
    metrics::histogram!("gamebot_search_seconds", &labels).record(search.elapsed_ms / 1000.0);
    tracing::info!(
        game,
        level = %search.level,
        elapsed_ms = search.elapsed_ms,
        depth = search.depth,
        nodes = search.nodes,
        score = search.score,
        stopped_by = ?search.stopped_by,
        outcome = %outcome["status"].as_str().unwrap_or("-"),
        "search finished"
    );
}

/// `GET /v1/games`: every game with its levels and options.
pub async fn list_games() -> Json<Value> {
    let games: Vec<_> = games::REGISTRY.iter().map(|g| g.listing()).collect();
    Json(serde_json::json!({ "games": games }))
}

/// `GET /v1/games/{game}/rules`: the game's rules in the project's own words,
/// as Markdown.
pub async fn rules(Path(id): Path<String>) -> Result<Response, ApiError> {
    let game = games::find(&id).ok_or(ApiError::UnknownGame(id))?;
    Ok((
        [(header::CONTENT_TYPE, "text/markdown; charset=utf-8")],
        game.info().rules,
    )
        .into_response())
}

/// `POST /v1/games/{game}/new`.
pub async fn new_game(
    State(app): State<AppState>,
    request: GameRequest,
) -> Result<Response, ApiError> {
    let GameRequest { game, payload, .. } = request;
    let request: NewRequest = json_body(
        payload,
        Some(NewRequest {
            options: Value::Null,
        }),
    )?;
    let reply = app
        .compute(move |_| game.new_game(&request.options))
        .await?;
    Ok(Json(reply).into_response())
}

/// `POST /v1/games/{game}/legal-moves` (JSON, or the game's text form).
pub async fn legal_moves(
    State(app): State<AppState>,
    request: GameRequest,
) -> Result<Response, ApiError> {
    let GameRequest {
        game,
        query,
        payload,
        ..
    } = request;
    match payload {
        Payload::Text(text) => {
            let query = query_map(query);
            let reply = app
                .compute(move |_| game.text_legal_moves(&text, &query))
                .await?;
            Ok(text_response(reply))
        }
        payload => {
            let request: StateRequest = json_body(payload, None)?;
            let reply = app
                .compute(move |_| game.legal_moves(&request.state))
                .await?;
            Ok(Json(reply).into_response())
        }
    }
}

/// `POST /v1/games/{game}/play`.
pub async fn play(State(app): State<AppState>, request: GameRequest) -> Result<Response, ApiError> {
    let GameRequest { game, payload, .. } = request;
    let request: PlayRequest = json_body(payload, None)?;
    let reply = app
        .compute(move |_| game.play(&request.state, &request.mv))
        .await?;
    Ok(Json(reply).into_response())
}

/// `POST /v1/games/{game}/bot-move` (JSON, or the game's text form).
pub async fn bot_move(
    State(app): State<AppState>,
    request: GameRequest,
) -> Result<Response, ApiError> {
    let GameRequest {
        id,
        game,
        query,
        payload,
        arrived,
    } = request;
    // The query's limits are for text bodies; they are checked whatever the body.
    let limits = Limits {
        time_ms: query_number(&query, "time_ms")?,
        max_depth: query_number(&query, "max_depth")?,
        max_nodes: query_number(&query, "max_nodes")?,
    };
    query_number::<u64>(&query, "seed")?;
    match payload {
        Payload::Text(text) => {
            if let Some(level) = query.get("level") {
                game.check_level(level)?;
                limits.check_for_level(level)?;
            }
            let query = query_map(query);
            let worker_app = app.clone();
            let reply = app
                .compute(move |stop| {
                    let budget = worker_app.budget(&limits, arrived, stop);
                    game.text_bot_move(&text, &query, &budget)
                })
                .await?;
            Ok(text_response(reply))
        }
        payload => {
            let request: BotMoveRequest = json_body(payload, None)?;
            if let Some(level) = &request.level {
                game.check_level(level)?;
                request.limits.check_for_level(level)?;
            }
            let worker_app = app.clone();
            let reply = app
                .compute(move |stop| {
                    let budget = worker_app.budget(&request.limits, arrived, stop);
                    let bot = BotRequest {
                        state: request.state,
                        level: request.level,
                        seed: request.seed,
                        own_fields: request.own_fields,
                    };
                    game.bot_move(&bot, &budget)
                })
                .await?;
            record_search(&id, &reply.search, &reply.outcome);
            Ok(Json(reply).into_response())
        }
    }
}

/// `POST /v1/games/{game}/analyze`.
pub async fn analyze(
    State(app): State<AppState>,
    request: GameRequest,
) -> Result<Response, ApiError> {
    let GameRequest {
        id,
        game,
        payload,
        arrived,
        ..
    } = request;
    let request: AnalyzeRequest = json_body(payload, None)?;
    let top = request.top.unwrap_or(DEFAULT_TOP as u64);
    if !(1..=MAX_TOP as u64).contains(&top) {
        return Err(ApiError::InvalidOption(format!(
            "top={top}: expected a whole number from 1 to {MAX_TOP}"
        )));
    }
    let worker_app = app.clone();
    let reply = app
        .compute(move |stop| {
            let budget = worker_app.budget(&request.limits, arrived, stop);
            let bot = BotRequest {
                state: request.state,
                level: None,
                seed: request.seed,
                own_fields: request.own_fields,
            };
            game.analyze(&bot, top as usize, &budget)
        })
        .await?;
    record_search(&id, &reply.search, &Value::Null);
    Ok(Json(reply).into_response())
}

fn query_map(query: HashMap<String, String>) -> Map<String, Value> {
    query
        .into_iter()
        .map(|(k, v)| (k, Value::String(v)))
        .collect()
}

fn query_number<T: std::str::FromStr>(
    query: &HashMap<String, String>,
    key: &str,
) -> Result<Option<T>, ApiError> {
    query
        .get(key)
        .map(|raw| {
            raw.parse::<T>().map_err(|_| {
                ApiError::InvalidOption(format!("{key}={raw}: expected a whole number"))
            })
        })
        .transpose()
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ReplayBody {
    options: Option<Value>,
    state: Option<Value>,
    moves: Option<Vec<Value>>,
    record: Option<String>,
    #[serde(default)]
    states: bool,
}

impl ReplayBody {
    /// The replay it asks for: one start at most, and moves or a record.
    fn into_request(self) -> Result<ReplayRequest, ApiError> {
        let start = match (self.options, self.state) {
            (Some(_), Some(_)) => return Err(both("options", "state", "one start")),
            (Some(options), None) => ReplayStart::Options(options),
            (None, Some(state)) => ReplayStart::State(state),
            (None, None) => ReplayStart::NewGame,
        };
        let moves = match (self.moves, self.record) {
            (Some(_), Some(_)) => return Err(both("moves", "record", "the moves in one form")),
            (Some(list), None) => ReplayMoves::List(list),
            (None, Some(record)) => ReplayMoves::Record(record),
            (None, None) => ReplayMoves::List(Vec::new()),
        };
        Ok(ReplayRequest {
            start,
            moves,
            states: self.states,
        })
    }
}

/// Two fields of which a request may give only one.
fn both(first: &str, second: &str, what: &str) -> ApiError {
    ApiError::InvalidOption(format!(
        "{first} and {second} are both given: a replay takes {what}, so leave out one of them"
    ))
}

/// `POST /v1/games/{game}/replay`.
pub async fn replay(
    State(app): State<AppState>,
    request: GameRequest,
) -> Result<Response, ApiError> {
    let GameRequest { game, payload, .. } = request;
    let request = json_body(payload, Some(ReplayBody::default()))?.into_request()?;
    let reply = app.compute(move |_| game.replay(&request)).await?;
    Ok(Json(reply).into_response())
}
