//! `analyze` as Server-Sent Events: an event `depth` with the answer so far
//! after each completed depth of the search, then `result` with the final
//! answer (or `error` with a problem document), until the budget ends or
//! the client leaves; a client that leaves cancels the search as for a
//! plain request. `curl -N` follows it. A stream shares the cache with a
//! plain `analyze`: a request whose answer is held gets it as its one
//! `result` event, and a stream's result is kept as a plain answer's is.

use super::cached::{self, Hit, Lookup, Slot};
use super::requests::AnalysisCall;
use super::{ApiError, AppState, Problem};
use crate::compute::{Client, ComputeError, Pending};
use crate::game::erased::AnalyzeReply;
use crate::game::{Clamped, DynGame, GameError};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use schemars::JsonSchema;
use serde::Serialize;
use std::convert::Infallible;
use std::pin::Pin;
use std::time::Instant;
use tokio::sync::mpsc;

/// One event of an analysis stream: the event's name (`event:`) and its
/// JSON data (`data:`, on one line).
#[derive(Serialize, JsonSchema)]
#[serde(tag = "event", content = "data", rename_all = "snake_case")]
pub enum AnalysisEvent {
    /// The answer so far, after a completed depth of the search.
    Depth(AnalyzeReply),
    /// The final answer; the stream ends after it.
    Result(AnalyzeReply),
    /// The problem that ended the analysis; the stream ends after it.
    Error(Problem),
}

impl AnalysisEvent {
    /// The event as Server-Sent Events write it.
    fn to_sse(&self) -> Event {
        let (name, data) = match self {
            AnalysisEvent::Depth(reply) => ("depth", serde_json::to_string(reply)),
            AnalysisEvent::Result(reply) => ("result", serde_json::to_string(reply)),
            AnalysisEvent::Error(problem) => ("error", serde_json::to_string(problem)),
        };
        Event::default().event(name).data(data.unwrap_or_default())
    }
}

type Job = Pin<Box<Pending<Result<AnalyzeReply, GameError>>>>;

/// A running analysis and what it has yet to tell.
struct Analysis {
    job: Option<Job>,
    depths: mpsc::UnboundedReceiver<AnalyzeReply>,
    result: Option<Result<AnalyzeReply, ApiError>>,
    clamped: Vec<Clamped>,
    /// Where the result is kept, for a request whose answer may be.
    slot: Option<Slot>,
}

impl Analysis {
    /// The next event: depths as they come, then the result; `None` after it.
    async fn next(&mut self) -> Option<AnalysisEvent> {
        if let Some(job) = self.job.as_mut() {
            tokio::select! {
                biased;
                Some(reply) = self.depths.recv() => return Some(AnalysisEvent::Depth(reply)),
                done = job => {
                    self.job = None;
                    self.result = Some(flatten(done));
                }
            }
        }
        // Depths the search finished just before its end come first.
        if let Ok(reply) = self.depths.try_recv() {
            return Some(AnalysisEvent::Depth(reply));
        }
        match self.result.take()? {
            Ok(mut reply) => {
                reply.search.clamped = std::mem::take(&mut self.clamped);
                if let Some(slot) = self.slot.take() {
                    slot.keep(&reply, None);
                }
                Some(AnalysisEvent::Result(reply))
            }
            Err(error) => Some(AnalysisEvent::Error(error.problem())),
        }
    }
}

fn flatten(
    done: Result<Result<AnalyzeReply, GameError>, ComputeError>,
) -> Result<AnalyzeReply, ApiError> {
    Ok(done??)
}

/// Starts the analysis now (admitted or refused before any byte is sent)
/// and answers its events as they come.
pub fn analysis(
    app: AppState,
    game: &'static dyn DynGame,
    call: AnalysisCall,
    arrived: Instant,
    client: &Client,
) -> Result<Response, ApiError> {
    let clamped = app.clamped(&call.limits);
    let limits = call.limits;
    let (sender, depths) = mpsc::unbounded_channel::<AnalyzeReply>();
    let sink = Box::new(move |reply: AnalyzeReply| {
        let _ = sender.send(reply);
    });
    let (job, slot) =
        match cached::look_up_analysis(&app, game, call.request, &limits, call.top, Some(sink))? {
            Lookup::Hit(hit) => return cached_result(&hit),
            Lookup::Miss { job, slot } => (job, slot),
        };
    let worker_app = app.clone();
    let pending = app.pool.submit(client, move |stop| {
        job(&worker_app.budget(&limits, arrived, stop))
    })?;
    let analysis = Analysis {
        job: Some(Box::pin(pending)),
        depths,
        result: None,
        clamped,
        slot,
    };
    let events = futures_util::stream::unfold(analysis, |mut analysis| async move {
        let event = analysis.next().await?;
        Some((Ok::<_, Infallible>(event.to_sse()), analysis))
    });
    Ok(Sse::new(events)
        .keep_alive(KeepAlive::default())
        .into_response())
}

/// A held answer as a stream: its one `result` event.
fn cached_result(hit: &Hit) -> Result<Response, ApiError> {
    let result = Event::default().event("result").data(hit.json_text()?);
    let events = futures_util::stream::iter([Ok::<_, Infallible>(result)]);
    Ok(Sse::new(events).into_response())
}
