//! One cached search for `bot-move`, `analyze` and the analysis stream:
//! the request is looked up before its search is queued ([`look_up`]),
//! a hit is answered for the state asked (turned to it when the entry
//! answered a symmetric twin), and a miss's answer is kept for the next
//! request ([`Slot::keep`]) when it would come out the same again. A plain
//! `analyze` and a streamed one share their entries.

use super::cache::CachedAnswer;
use super::handlers::with_search_headers;
use super::requests::Limits;
use super::{ApiError, AppState};
use crate::game::erased::{
    AnalysisJob, AnalyzeReply, BotReply, BotRequest, DepthSink, Prepared, StateInput,
};
use crate::game::{Clamped, DynGame, GameError, SearchReport};
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use serde_json::Value;
use std::sync::Arc;

/// A cacheable operation: its name in keys and in the cache's metrics.
#[derive(Clone, Copy, Debug)]
pub(super) enum Operation {
    /// `bot-move`.
    BotMove,
    /// `analyze`, plain or streamed, with how many moves it gives.
    Analyze {
        /// The moves the answer lists.
        top: usize,
    },
}

impl Operation {
    fn name(self) -> &'static str {
        match self {
            Operation::BotMove => "bot-move",
            Operation::Analyze { .. } => "analyze",
        }
    }

    fn top(self) -> Option<usize> {
        match self {
            Operation::BotMove => None,
            Operation::Analyze { top } => Some(top),
        }
    }
}

/// A search looked up in the cache before it is queued.
pub(super) enum Lookup<J> {
    /// The answer the cache holds.
    Hit(Hit),
    /// The search to run; with a slot, its answer is kept.
    Miss {
        /// The game's prepared work.
        job: J,
        /// Where the answer goes, for a request whose answer may be kept.
        slot: Option<Slot>,
    },
}

/// Reads the request's key, prepares its search with `prepare` (told
/// whether the request has a key, so that the game writes the state's part
/// of it only then), and looks the whole key up.
pub(super) fn look_up<J>(
    app: &AppState,
    game: &'static dyn DynGame,
    operation: Operation,
    request: BotRequest,
    limits: &Limits,
    prepare: impl FnOnce(BotRequest, bool) -> Result<Prepared<J>, GameError>,
) -> Result<Lookup<J>, ApiError> {
    let pending = app
        .cache
        .pending_key(game, operation.name(), &request, limits, operation.top());
    let asked = match (&pending, &request.state) {
        (Some(_), StateInput::Json(state)) => Some(state.clone()),
        _ => None,
    };
    let prepared = prepare(request, pending.is_some())?;
    let key = pending.and_then(|pending| pending.with_state(prepared.cache_state));
    let (Some(key), Some(asked)) = (key, asked) else {
        return Ok(Lookup::Miss {
            job: prepared.job,
            slot: None,
        });
    };
    let id = game.info().id;
    if let Some(answer) = app.cache.get(&key) {
        counted(id, operation, true);
        return Ok(Lookup::Hit(Hit {
            game,
            answer,
            asked,
        }));
    }
    counted(id, operation, false);
    Ok(Lookup::Miss {
        job: prepared.job,
        slot: Some(Slot {
            app: app.clone(),
            key,
            asked,
        }),
    })
}

/// [`look_up`] for an analysis of `top` moves, each completed depth sent
/// to `sink` (a stream's) where there is one.
pub(super) fn look_up_analysis(
    app: &AppState,
    game: &'static dyn DynGame,
    request: BotRequest,
    limits: &Limits,
    top: usize,
    sink: Option<DepthSink>,
) -> Result<Lookup<AnalysisJob>, ApiError> {
    look_up(
        app,
        game,
        Operation::Analyze { top },
        request,
        limits,
        |request, keyed| game.prepare_analysis_keyed(request, top, sink, keyed),
    )
}

/// An answer the cache holds, and the state the request asked about.
pub(super) struct Hit {
    game: &'static dyn DynGame,
    answer: Arc<CachedAnswer>,
    asked: Value,
}

impl Hit {
    /// The answer as a response: sent as stored when it answered the same
    /// state, else turned by the game to the state asked.
    pub(super) fn response(&self) -> Result<Response, ApiError> {
        let Some((answer, notation)) = self.turned()? else {
            return Ok(self.answer.response());
        };
        let mut response = Json(&answer).into_response();
        *response.headers_mut() = self.answer.headers().clone();
        Ok(with_search_headers(response, notation.as_deref(), &[]))
    }

    /// The answer's JSON text, for the state asked (one line).
    pub(super) fn json_text(&self) -> Result<String, ApiError> {
        match self.turned()? {
            Some((answer, _)) => Ok(answer.to_string()),
            None => Ok(String::from_utf8_lossy(self.answer.body()).into_owned()),
        }
    }

    /// The answer turned to the state asked, with the turned move's
    /// notation; `None` when it answered that state itself.
    fn turned(&self) -> Result<Option<(Value, Option<String>)>, ApiError> {
        let asked_text = self.asked.to_string();
        if self.answer.answered() == asked_text {
            return Ok(None);
        }
        let unreadable = |error: serde_json::Error| {
            ApiError::from(GameError::Internal(format!(
                "a cached answer could not be read: {error}"
            )))
        };
        let mut answer: Value = serde_json::from_slice(self.answer.body()).map_err(unreadable)?;
        let answered: Value = serde_json::from_str(self.answer.answered()).map_err(unreadable)?;
        let notation = self.game.turn_answer(&mut answer, &answered, &self.asked)?;
        Ok(Some((answer, notation)))
    }
}

/// Where a missed search's answer is kept.
pub(super) struct Slot {
    app: AppState,
    key: String,
    asked: Value,
}

impl Slot {
    /// Keeps `reply` (whose move header says `notation`) if its search
    /// would end the same way again, marked as cached.
    pub(super) fn keep<R: Searched>(self, reply: &R, notation: Option<&str>) {
        let Slot { app, key, asked } = self;
        app.cache.put(key, reply.search(), || {
            let mut reply = reply.clone();
            reply.search_mut().cached = true;
            let clamped = reply.search().clamped.clone();
            stored(&reply, notation, &clamped, &asked)
        });
    }
}

/// An answer that reports its search, as a cached one says it was cached.
pub(super) trait Searched: Serialize + Clone {
    /// The answer's search report.
    fn search(&self) -> &SearchReport;
    /// The same, to mark.
    fn search_mut(&mut self) -> &mut SearchReport;
}

impl Searched for BotReply {
    fn search(&self) -> &SearchReport {
        &self.search
    }
    fn search_mut(&mut self) -> &mut SearchReport {
        &mut self.search
    }
}

impl Searched for AnalyzeReply {
    fn search(&self) -> &SearchReport {
        &self.search
    }
    fn search_mut(&mut self) -> &mut SearchReport {
        &mut self.search
    }
}

/// A JSON answer to the state `answered` as the cache keeps it: its body
/// and the headers [`with_search_headers`] gives it.
fn stored<T: Serialize>(
    reply: &T,
    notation: Option<&str>,
    clamped: &[Clamped],
    answered: &Value,
) -> CachedAnswer {
    let body = serde_json::to_vec(reply).unwrap_or_default();
    let mut response = Response::new(axum::body::Body::empty());
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    let response = with_search_headers(response, notation, clamped);
    CachedAnswer::new(body, response.headers().clone(), answered)
}

/// Counts a cacheable request as a hit or a miss.
fn counted(game: &str, operation: Operation, hit: bool) {
    let result = if hit { "hit" } else { "miss" };
    metrics::counter!(
        "gamebot_cache_requests_total",
        "game" => game.to_string(),
        "operation" => operation.name(),
        "result" => result
    )
    .increment(1);
}
