//! `analyze` as Server-Sent Events: an event `depth` with the answer so far
//! after each completed depth of the search, then `result` with the final
//! answer (or `error` with a problem document), until the budget ends or
//! the client leaves; a client that leaves cancels the search as for a
//! plain request. `curl -N` follows it.

use super::requests::AnalysisCall;
use super::{ApiError, AppState};
use crate::compute::{Client, ComputeError, Pending};
use crate::game::erased::AnalyzeReply;
use crate::game::{Clamped, DynGame, GameError};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use std::convert::Infallible;
use std::pin::Pin;
use std::time::Instant;
use tokio::sync::mpsc;

type Job = Pin<Box<Pending<Result<AnalyzeReply, GameError>>>>;

/// A running analysis and what it has yet to tell.
struct Analysis {
    job: Option<Job>,
    depths: mpsc::UnboundedReceiver<AnalyzeReply>,
    result: Option<Result<AnalyzeReply, ApiError>>,
    clamped: Vec<Clamped>,
}

impl Analysis {
    /// The next event: depths as they come, then the result; `None` after it.
    async fn next(&mut self) -> Option<Event> {
        if let Some(job) = self.job.as_mut() {
            tokio::select! {
                biased;
                Some(reply) = self.depths.recv() => return Some(event("depth", &reply)),
                done = job => {
                    self.job = None;
                    self.result = Some(flatten(done));
                }
            }
        }
        // Depths the search finished just before its end come first.
        if let Ok(reply) = self.depths.try_recv() {
            return Some(event("depth", &reply));
        }
        match self.result.take()? {
            Ok(mut reply) => {
                reply.search.clamped = std::mem::take(&mut self.clamped);
                Some(event("result", &reply))
            }
            Err(error) => Some(event("error", &error.problem())),
        }
    }
}

fn flatten(
    done: Result<Result<AnalyzeReply, GameError>, ComputeError>,
) -> Result<AnalyzeReply, ApiError> {
    Ok(done??)
}

fn event(name: &str, data: &impl Serialize) -> Event {
    Event::default()
        .event(name)
        .data(serde_json::to_string(data).unwrap_or_default())
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
    let job = game.prepare_analysis(call.request, call.top, Some(sink))?;
    let worker_app = app.clone();
    let pending = app.pool.submit(client, move |stop| {
        job(&worker_app.budget(&limits, arrived, stop))
    })?;
    let analysis = Analysis {
        job: Some(Box::pin(pending)),
        depths,
        result: None,
        clamped,
    };
    let events = futures_util::stream::unfold(analysis, |mut analysis| async move {
        let event = analysis.next().await?;
        Some((Ok::<_, Infallible>(event), analysis))
    });
    Ok(Sse::new(events)
        .keep_alive(KeepAlive::default())
        .into_response())
}
