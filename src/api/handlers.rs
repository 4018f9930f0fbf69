//! The game endpoints: read the request once into its typed form, run the
//! game's work on the compute pool under a budget, answer JSON (or the
//! game's text form).

use super::body::{self, Payload};
use super::cached::{self, Lookup, Operation};
use super::requests::{
    AnalyzeRequest, BotMoveRequest, Limits, NewRequest, PlayRequest, ReplayRequest, StateRequest,
};
use super::{stream, ApiError, AppState};
use crate::compute::{Client, ComputePool};
use crate::game::erased::{BotReply, TextParams};
use crate::game::ladder::LadderFile;
use crate::game::placement::scores::ScorePlacementRequest;
use crate::game::placement::{self, PlacementRequest};
use crate::game::{Budget, Clamped, DynGame, StopFlag};
use crate::games;
use axum::extract::{FromRequest, FromRequestParts, Query, Request, State};
use axum::http::{header, HeaderName, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::Value;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// The header that names the move a bot played, in notation (a Halma
/// jump's lines joined by `;`), on every `bot-move` answer: a text answer
/// has no other place to say it.
pub const MOVE_HEADER: HeaderName = HeaderName::from_static("gamebot-move");

/// The header that says where a search's time went (queue, compute).
pub const SERVER_TIMING: HeaderName = HeaderName::from_static("server-timing");

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
    /// Who asked, as the fair queue and the metrics know them.
    client: Client,
}

impl GameRequest {
    /// The game the path names, the body and the client, for handlers that need no more.
    pub(super) fn into_parts(self) -> (&'static dyn DynGame, Payload, Client) {
        (self.game, self.payload, self.client)
    }
}

/// The longest client identity kept from a proxy's header, in bytes.
const MAX_CLIENT_ID_BYTES: usize = 64;

/// Who sent a request: its API key's holder, else the first value of the
/// trusted proxy's header when the server is told of one, else the peer's
/// address, else the server itself (a request that came through no socket).
pub(super) fn client_of(parts: &axum::http::request::Parts, app: &AppState) -> Client {
    if let Some(holder) = parts.extensions.get::<super::keys::KeyHolder>() {
        return Client::keyed(&holder.name, holder.max_searches);
    }
    let proxied = app.config.client_header.as_ref().and_then(|name| {
        let value = parts.headers.get(name)?.to_str().ok()?;
        let first = value.split(',').next()?.trim();
        (!first.is_empty()).then(|| super::problem::cut_to(first, MAX_CLIENT_ID_BYTES))
    });
    if let Some(identity) = proxied {
        return Client::anonymous(identity);
    }
    match parts
        .extensions
        .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
    {
        Some(peer) => Client::anonymous(&peer.0.ip().to_string()),
        None => Client::local(),
    }
}

impl FromRequest<AppState> for GameRequest {
    type Rejection = ApiError;

    async fn from_request(request: Request, app: &AppState) -> Result<Self, ApiError> {
        let arrived = Instant::now();
        let (mut parts, body) = request.into_parts();
        let id = parts
            .uri
            .path()
            .strip_prefix("/v1/games/")
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_default()
            .to_string();
        let game = games::find(&id).ok_or_else(|| ApiError::UnknownGame(id.clone()))?;
        let Query(query) = Query::<HashMap<String, String>>::from_request_parts(&mut parts, app)
            .await
            .map_err(|e| ApiError::invalid_option(e.body_text()))?;
        let payload = body::read(&parts.headers, body, app.body_limits()).await?;
        Ok(GameRequest {
            id,
            game,
            query,
            payload,
            arrived,
            client: client_of(&parts, app),
        })
    }
}

/// A JSON body's bytes, for a request that needs one.
pub(super) fn json_body(payload: Payload) -> Result<bytes::Bytes, ApiError> {
    json_bytes(payload, None)
}

/// The bytes of a JSON body; `empty` answers for a request without one.
fn json_bytes(payload: Payload, empty: Option<&'static [u8]>) -> Result<bytes::Bytes, ApiError> {
    match payload {
        Payload::Json(bytes) => Ok(bytes),
        Payload::Empty => empty.map(bytes::Bytes::from_static).ok_or_else(|| {
            ApiError::malformed(None, "the body is empty; this endpoint takes a JSON object")
        }),
        Payload::Text(_) => Err(ApiError::UnsupportedMediaType(
            "this endpoint takes application/json only".into(),
        )),
    }
}

fn text_response(text: String) -> Response {
    ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response()
}

/// `duration` in milliseconds, to the microsecond.
fn millis(duration: Duration) -> f64 {
    (duration.as_secs_f64() * 1_000_000.0).round() / 1000.0
}

/// The `Server-Timing` of a search's answer: its time in the queue and
/// its computing time (a cached answer says so instead).
fn server_timing(search: &crate::game::SearchReport) -> Option<HeaderValue> {
    let text = if search.cached {
        "cache;desc=\"hit\"".to_string()
    } else {
        format!(
            "queue;dur={:.3}, compute;dur={:.3}",
            search.queued_ms.unwrap_or(0.0),
            search.elapsed_ms
        )
    };
    HeaderValue::from_str(&text).ok()
}

/// Adds the move and any cut budget to a bot's or an analysis' answer.
pub(super) fn with_search_headers(
    mut response: Response,
    notation: Option<&str>,
    clamped: &[Clamped],
) -> Response {
    let headers = response.headers_mut();
    if let Some(value) = notation.and_then(|n| HeaderValue::from_str(&n.replace('\n', ";")).ok()) {
        headers.insert(MOVE_HEADER, value);
    }
    if let Some(value) = warning_of(clamped) {
        headers.insert(header::WARNING, value);
    }
    response
}

/// The `Warning` header that says what the server's caps (or a clock) cut,
/// for a search's or a review's answer; `None` when nothing was cut.
pub(super) fn warning_of(clamped: &[Clamped]) -> Option<HeaderValue> {
    if clamped.is_empty() {
        return None;
    }
    let warning = clamped
            .iter()
            .map(|c| match c.field {
                "clock" => format!(
                    "299 gamebot \"the level's budget of {} positions was cut by the clock's cap after {}\"",
                    c.requested, c.used
                ),
                "max_time_ms" => format!(
                    "299 gamebot \"the level's budget of {} positions was cut by the server's longest search after {}\"",
                    c.requested, c.used
                ),
                _ => format!(
                    "299 gamebot \"{}={} was cut to the server's cap of {}\"",
                    c.field, c.requested, c.used
                ),
            })
            .collect::<Vec<_>>()
            .join(", ");
    HeaderValue::from_str(&warning).ok()
}

/// A request's budget fields held to the server's caps.
struct Capped {
    time_ms: Option<u64>,
    max_depth: Option<u64>,
    max_nodes: Option<u64>,
    /// The fields that were cut.
    clamped: Vec<Clamped>,
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
    pub(super) fn budget(&self, limits: &Limits, arrived: Instant, stop: &StopFlag) -> Budget {
        let config = &self.config;
        let capped = self.capped(limits);
        // The default is no request of the client's: it is never reported cut.
        let time_ms = capped
            .time_ms
            .unwrap_or(config.default_time_ms.min(config.max_time_ms))
            .max(1);
        // `ms` after arrival, less a margin (a twentieth, at most 3 ms) for the response.
        let after =
            |ms: u64| arrived + Duration::from_micros(ms * 1000 - (ms * 1000 / 20).min(3_000));
        Budget {
            deadline: Some(after(time_ms)),
            hard_deadline: Some(after(config.max_time_ms.max(1))),
            time_ms: Some(time_ms),
            max_depth: capped.max_depth.map(|depth| depth as u32),
            max_nodes: capped.max_nodes,
            stop: stop.clone(),
            game_time_left_ms: None,
            observer: None,
            clock: limits
                .clock
                .map(|clock| crate::game::ClockedMove { clock, arrived }),
            arrived: Some(arrived),
            pace: None,
        }
    }

    /// The budget fields of `limits` above the server's caps, as
    /// `search.clamped` reports them.
    pub(super) fn clamped(&self, limits: &Limits) -> Vec<Clamped> {
        self.capped(limits).clamped
    }

    /// `limits`' budget fields held to the server's caps, and the cuts.
    fn capped(&self, limits: &Limits) -> Capped {
        let config = &self.config;
        let mut clamped = Vec::new();
        let mut cap = |field, requested: Option<u64>, most| {
            requested.map(|requested| Clamped::cap(field, requested, most, &mut clamped))
        };
        let time_ms = cap("time_ms", limits.time_ms, config.max_time_ms);
        let max_depth = cap("max_depth", limits.max_depth, u64::from(config.max_depth));
        let max_nodes = cap("max_nodes", limits.max_nodes, config.max_nodes);
        Capped {
            time_ms,
            max_depth,
            max_nodes,
            clamped,
        }
    }

    /// Runs a search `job` for `client` on the search pool; one that waited
    /// for a worker longer than `max_wait` is refused instead.
    pub(super) async fn search<T, F>(
        &self,
        client: &Client,
        max_wait: Option<Duration>,
        job: F,
    ) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&StopFlag) -> Result<T, crate::game::GameError> + Send + 'static,
    {
        search_in(&self.pool, client, max_wait, job).await
    }

    /// The pool a move searched under `limits` runs on: the urgent lane
    /// when its clock leaves it too little to wait behind other searches
    /// (its hard cap, as planned at `arrived`, at most `--urgent-move-ms`),
    /// else the search pool.
    pub(super) fn lane_for(&self, limits: &Limits, arrived: Instant) -> &ComputePool {
        let urgent = limits.clock.is_some_and(|clock| {
            let hard = clock.plan(1.0, arrived.elapsed()).hard;
            hard <= Duration::from_millis(self.config.urgent_move_ms)
        });
        if urgent {
            &self.urgent
        } else {
            &self.pool
        }
    }

    /// Runs a rules `job` (no search) for `client` in the rules lane.
    pub(super) async fn rules<T, F>(&self, client: &Client, job: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&StopFlag) -> Result<T, crate::game::GameError> + Send + 'static,
    {
        Ok(self.rules.run(client, job).await??)
    }
}

/// Runs a search `job` for `client` on `lane`; one that waited for a worker
/// longer than `max_wait` is refused instead.
async fn search_in<T, F>(
    lane: &ComputePool,
    client: &Client,
    max_wait: Option<Duration>,
    job: F,
) -> Result<T, ApiError>
where
    T: Send + 'static,
    F: FnOnce(&StopFlag) -> Result<T, crate::game::GameError> + Send + 'static,
{
    Ok(lane.submit_by(client, max_wait, job)?.await??)
}

fn record_search(game: &str, search: &crate::game::SearchReport, outcome: &Value) {
    let level = super::telemetry::level_label(game, &search.level);
    let labels = [("game", game.to_string()), ("level", level.to_string())];
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
pub async fn rules(request: Request) -> Result<Response, ApiError> {
    let id = request
        .uri()
        .path()
        .strip_prefix("/v1/games/")
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_default()
        .to_string();
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
    let (game, payload, client) = request.into_parts();
    let body: NewRequest = body::parse_json(&json_bytes(payload, Some(b"{}"))?)?;
    let reply = app
        .rules(&client, move |_| {
            game.new_game(body.options.as_ref().unwrap_or(&Value::Null))
        })
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
        client,
        ..
    } = request;
    match payload {
        Payload::Text(text) => {
            let params = TextParams::from_pairs(query);
            let reply = app
                .rules(&client, move |_| game.text_legal_moves(&text, &params))
                .await?;
            Ok(text_response(reply))
        }
        payload => {
            let body: StateRequest = body::parse_json(&json_bytes(payload, None)?)?;
            let reply = app
                .rules(&client, move |_| game.legal_moves(&body.state))
                .await?;
            Ok(Json(reply).into_response())
        }
    }
}

/// `POST /v1/games/{game}/play`.
pub async fn play(State(app): State<AppState>, request: GameRequest) -> Result<Response, ApiError> {
    let (game, payload, client) = request.into_parts();
    let body: PlayRequest = body::parse_json(&json_bytes(payload, None)?)?;
    let reply = app
        .rules(&client, move |_| game.play(&body.state, &body.mv))
        .await?;
    Ok(Json(reply).into_response())
}

/// `POST /v1/games/{game}/bot-move` (JSON, or the game's text form): the
/// same typed request either way, logged and counted the same.
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
        client,
    } = request;
    let call = match payload {
        Payload::Text(text) => BotMoveRequest::from_text(text, query)?,
        payload => {
            if !query.is_empty() {
                check_query_for_json(&query)?;
            }
            BotMoveRequest::from_json(&json_bytes(payload, None)?)?
        }
    };
    let clamped = app.clamped(&call.limits);
    let limits = call.limits;
    let (job, slot) = match cached::look_up(
        &app,
        game,
        Operation::BotMove,
        call.request,
        &limits,
        |request, keyed| game.prepare_bot_keyed(request, keyed),
    )? {
        Lookup::Hit(hit) => return hit.response(),
        Lookup::Miss { job, slot } => (job, slot),
    };
    let worker_app = app.clone();
    let max_wait = limits.max_queue_ms.map(Duration::from_millis);
    let lane = app.lane_for(&limits, arrived);
    let mut answer = search_in(lane, &client, max_wait, move |stop| {
        let queued = arrived.elapsed();
        let mut answer = job(&worker_app.budget(&limits, arrived, stop))?;
        answer.reply.search.queued_ms = Some(millis(queued));
        Ok(answer)
    })
    .await?;
    answer.reply.search.clamped.splice(0..0, clamped);
    if let Some(slot) = slot {
        slot.keep(&answer.reply, Some(&answer.notation));
    }
    let BotReply {
        search, outcome, ..
    } = &answer.reply;
    record_search(&id, search, outcome);
    let timing = server_timing(search);
    let mut response = match answer.text {
        Some(text) => text_response(text),
        None => Json(&answer.reply).into_response(),
    };
    if let Some(timing) = timing {
        response.headers_mut().insert(SERVER_TIMING, timing);
    }
    Ok(with_search_headers(
        response,
        Some(&answer.notation),
        &answer.reply.search.clamped,
    ))
}

/// A JSON bot request takes its fields from the body; a query parameter
/// beside it would be silently ignored, so it is refused.
fn check_query_for_json(query: &HashMap<String, String>) -> Result<(), ApiError> {
    let mut names: Vec<&str> = query.keys().map(String::as_str).collect();
    names.sort_unstable();
    Err(ApiError::invalid_option(format!(
        "query parameters ({}) are for text bodies; a JSON request gives them in the body",
        names.join(", ")
    )))
}

/// Whether the client asked for Server-Sent Events.
fn accepts_event_stream(headers: &axum::http::HeaderMap) -> bool {
    headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|accept| accept.contains("text/event-stream"))
}

/// `POST /v1/games/{game}/analyze` (with `Accept: text/event-stream`, an
/// event per completed depth, then the answer).
pub async fn analyze(
    State(app): State<AppState>,
    headers: axum::http::HeaderMap,
    request: GameRequest,
) -> Result<Response, ApiError> {
    let GameRequest {
        id,
        game,
        payload,
        arrived,
        client,
        ..
    } = request;
    let call = AnalyzeRequest::from_json(&json_bytes(payload, None)?)?;
    if accepts_event_stream(&headers) {
        return stream::analysis(app, game, call, arrived, &client);
    }
    let clamped = app.clamped(&call.limits);
    let limits = call.limits;
    let (job, slot) =
        match cached::look_up_analysis(&app, game, call.request, &limits, call.top, None)? {
            Lookup::Hit(hit) => return hit.response(),
            Lookup::Miss { job, slot } => (job, slot),
        };
    let worker_app = app.clone();
    let mut reply = app
        .search(&client, None, move |stop| {
            let queued = arrived.elapsed();
            let mut reply = job(&worker_app.budget(&limits, arrived, stop))?;
            reply.search.queued_ms = Some(millis(queued));
            Ok(reply)
        })
        .await?;
    reply.search.clamped.splice(0..0, clamped);
    if let Some(slot) = slot {
        slot.keep(&reply, None);
    }
    record_search(&id, &reply.search, &Value::Null);
    let mut response = Json(&reply).into_response();
    if let Some(timing) = server_timing(&reply.search) {
        response.headers_mut().insert(SERVER_TIMING, timing);
    }
    Ok(with_search_headers(response, None, &reply.search.clamped))
}

/// `POST /v1/games/{game}/replay`.
pub async fn replay(
    State(app): State<AppState>,
    request: GameRequest,
) -> Result<Response, ApiError> {
    let (game, payload, client) = request.into_parts();
    let replay = ReplayRequest::from_json(&json_bytes(payload, Some(b"{}"))?)?;
    let reply = app.rules(&client, move |_| game.replay(&replay)).await?;
    Ok(Json(reply).into_response())
}

/// `POST /v1/games/{game}/placement`: a player's rating on the game's
/// ladder from their results against numbered levels, and the level to
/// play next; for a one-player game, their percentiles against its levels
/// from their scores. Cheap (a fit per result), so it runs here, not on
/// the pool.
pub async fn placement(request: GameRequest) -> Result<Response, ApiError> {
    let (game, payload, _) = request.into_parts();
    // The body is required, as the contract says (`{}` for no results).
    let bytes = json_bytes(payload, None)?;
    let listing = game.listing();
    let newcomer = placement::newcomer_level(listing.id);
    if listing.players == 1 {
        let body: ScorePlacementRequest = body::parse_json(&bytes)?;
        let file = games::with_game(listing.id, LadderFileText)
            .flatten()
            .and_then(|text| LadderFile::parse(text).ok());
        let levels = file.map_or_else(Vec::new, |file| file.scores);
        let placed = placement::scores::place_scores(listing.name, &levels, newcomer, &body)?;
        return Ok(Json(placed).into_response());
    }
    let body: PlacementRequest = body::parse_json(&bytes)?;
    let placement = placement::place(listing.name, &listing.numbered_levels, newcomer, &body)?;
    Ok(Json(placement).into_response())
}

/// A game's checked-in ladder file, as the build includes it.
struct LadderFileText;

impl games::GameVisitor for LadderFileText {
    type Output = Option<&'static str>;

    fn visit<G: crate::game::Game>(self) -> Self::Output {
        G::LADDER_RATINGS
    }
}
