//! `POST /v1/games/{game}/review`: a whole game analysed position by
//! position on the compute pool's workers at once, admitted or refused as
//! one job of as many places as it uses, each move judged as soon as the
//! positions on both sides of it are analysed. JSON answers once at the
//! end; `Accept: application/x-ndjson` streams one line per move, in
//! order, as each is judged, then a summary line. A client that goes away
//! stops the searches.

use super::body;
use super::handlers::GameRequest;
use super::requests::{ReviewCall, ReviewRequest};
use super::{ApiError, AppState};
use crate::compute::Batch;
use crate::game::review::{PlyReview, PositionEval, Review, ReviewSummary};
use crate::game::{Budget, GameError};
use axum::body::Body;
use axum::extract::State;
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use axum::Json;
use schemars::JsonSchema;
use serde::Serialize;
use std::sync::Arc;
use std::time::Instant;

/// The content type of a streamed review.
const NDJSON: &str = "application/x-ndjson";

/// The answer to `review`: every move judged, in order, and each side's figures.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct ReviewReply {
    /// One entry per move of the game, in order.
    pub plies: Vec<PlyReview>,
    /// Each side's accuracy and label counts.
    pub summary: ReviewSummary,
    /// The budget each position's analysis had.
    pub budget: ReviewBudget,
    /// Wall time of the whole review, in milliseconds.
    pub elapsed_ms: f64,
}

/// The budget of each position's analysis, after the server's caps.
#[derive(Clone, Copy, Debug, Serialize, JsonSchema)]
pub struct ReviewBudget {
    /// Milliseconds per position, if timed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_ms_per_ply: Option<u64>,
    /// Positions visited per analysis at most, if capped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_nodes_per_ply: Option<u64>,
    /// Analyses run at once.
    pub workers: usize,
}

/// One line of a streamed review: a judged move, the summary at the end,
/// or the problem that cut it short.
#[derive(Serialize)]
#[serde(rename_all = "snake_case")]
enum Line<'a> {
    Ply(&'a PlyReview),
    Summary(&'a ReviewSummary),
    Error(serde_json::Value),
}

/// `POST /v1/games/{game}/review`.
pub async fn review(
    State(app): State<AppState>,
    headers: HeaderMap,
    request: GameRequest,
) -> Result<Response, ApiError> {
    let (game, payload) = request.into_game_and_payload();
    let body: ReviewRequest = body::parse_json(&super::handlers::json_body(payload)?)?;
    let ReviewCall {
        replay,
        time_ms,
        max_nodes,
        seed,
    } = body.into_call()?;
    let review: Arc<dyn Review> = app
        .compute(move |_| game.prepare_review(&replay, seed))
        .await?;
    let config = &app.config;
    let budget = ReviewBudget {
        time_ms_per_ply: time_ms.map(|t| t.clamp(1, config.max_time_ms)),
        max_nodes_per_ply: max_nodes.map(|n| n.clamp(1, config.max_nodes)),
        workers: app.pool.workers().min(review.positions()),
    };
    let started = Instant::now();
    let analyses = Arc::clone(&review);
    // Without a time per position, each has the server's longest, so that a
    // position is analysed exactly as an `analyze` with the same node cap
    // and that time would be.
    let time_ms = budget.time_ms_per_ply.unwrap_or(config.max_time_ms);
    let batch = app
        .pool
        .run_each(budget.workers, review.positions(), move |index, stop| {
            let mut search = Budget::with_time_ms(time_ms);
            search.max_nodes = budget.max_nodes_per_ply;
            search.stop = stop.clone();
            analyses.analyse(index, &search)
        })
        .map_err(ApiError::from)?;
    let judge = Judge::new(review, batch);
    let streams = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|accept| accept.contains(NDJSON));
    if streams {
        return Ok(stream(judge));
    }
    let (plies, summary) = judge.all().await?;
    Ok(Json(ReviewReply {
        plies,
        summary,
        budget,
        elapsed_ms: started.elapsed().as_secs_f64() * 1000.0,
    })
    .into_response())
}

/// The moves of a review judged in order as the analyses come in.
struct Judge {
    review: Arc<dyn Review>,
    batch: Batch<Result<PositionEval, GameError>>,
    evals: Vec<Option<PositionEval>>,
    next_ply: usize,
    judged: Vec<PlyReview>,
    nodes: u64,
}

impl Judge {
    fn new(review: Arc<dyn Review>, batch: Batch<Result<PositionEval, GameError>>) -> Self {
        let positions = review.positions();
        Judge {
            review,
            batch,
            evals: vec![None; positions],
            next_ply: 0,
            judged: Vec::new(),
            nodes: 0,
        }
    }

    /// The next move judged, `None` once every move is.
    async fn next(&mut self) -> Result<Option<PlyReview>, ApiError> {
        loop {
            let ready = self.next_ply < self.review.moves()
                && self.evals[self.next_ply].is_some()
                && self.evals[self.next_ply + 1].is_some();
            if ready {
                let index = self.next_ply;
                let (Some(before), Some(after)) = (&self.evals[index], &self.evals[index + 1])
                else {
                    unreachable!("both were just checked")
                };
                let ply = self.review.ply(index, before, after);
                self.next_ply += 1;
                self.judged.push(ply.clone());
                return Ok(Some(ply));
            }
            if self.next_ply >= self.review.moves() {
                return Ok(None);
            }
            let Some((index, result)) = self.batch.results.recv().await else {
                return Err(ApiError::from(crate::compute::ComputeError::Panicked(
                    "the review's analyses ended early".into(),
                )));
            };
            let eval = result
                .map_err(|message| ApiError::from(crate::compute::ComputeError::Panicked(message)))?
                .map_err(ApiError::from)?;
            self.nodes += eval.nodes();
            self.evals[index] = Some(eval);
        }
    }

    fn summary(&self) -> ReviewSummary {
        self.review.summary(&self.judged, self.nodes)
    }

    /// Every move judged, and the summary.
    async fn all(mut self) -> Result<(Vec<PlyReview>, ReviewSummary), ApiError> {
        while self.next().await?.is_some() {}
        let summary = self.summary();
        Ok((self.judged, summary))
    }
}

/// The review as NDJSON: a line per judged move, then the summary (or a
/// problem line where an analysis failed).
fn stream(judge: Judge) -> Response {
    let lines = futures_util::stream::unfold(Some(judge), |state| async move {
        let mut judge = state?;
        let line = match judge.next().await {
            Ok(Some(ply)) => to_line(&Line::Ply(&ply)),
            Ok(None) => {
                let line = to_line(&Line::Summary(&judge.summary()));
                return Some((Ok::<_, std::convert::Infallible>(line), None));
            }
            Err(error) => {
                let problem = serde_json::to_value(error.problem()).unwrap_or_default();
                return Some((Ok(to_line(&Line::Error(problem))), None));
            }
        };
        Some((Ok(line), Some(judge)))
    });
    (
        [
            (header::CONTENT_TYPE, NDJSON),
            (header::CACHE_CONTROL, "no-store"),
        ],
        Body::from_stream(lines),
    )
        .into_response()
}

fn to_line(line: &Line) -> bytes::Bytes {
    let mut text = serde_json::to_vec(line).unwrap_or_default();
    text.push(b'\n');
    bytes::Bytes::from(text)
}
