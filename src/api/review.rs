//! `POST /v1/games/{game}/review`: a whole game analysed position by
//! position, each position a job of its own in the client's fair queue
//! (several at once on idle workers), the whole review's work within the
//! server's cap, each move judged as soon as the position it was played
//! in is analysed (with the played move scored beside the best). JSON answers once at the
//! end; `Accept: application/x-ndjson` streams one line per move, in
//! order, as each is judged, then a summary line. A client that goes away
//! stops the searches.

use super::handlers::GameRequest;
use super::requests::{ReviewCall, ReviewRequest};
use super::{ApiError, AppState, Problem};
use crate::compute::{Client, ComputeError, ComputePool};
use crate::config::ServeConfig;
use crate::game::forms::{AnyForms, Forms, WireForms};
use crate::game::review::{Judged, PlyReview, Review, ReviewSummary};
use crate::game::{Budget, Clamped, GameError, StopFlag};
use axum::body::Body;
use axum::extract::State;
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use axum::Json;
use schemars::JsonSchema;
use serde::Serialize;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::task::JoinSet;

/// The content type of a streamed review.
const NDJSON: &str = "application/x-ndjson";

/// The answer to `review`: every move judged, in order, and each side's figures.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(rename = "{F}ReviewReply")]
#[serde(bound(serialize = "F: WireForms"))]
pub struct ReviewReply<F: Forms = AnyForms> {
    /// One entry per move of the game, in order.
    pub plies: Vec<PlyReview<F>>,
    /// Each side's accuracy and label counts.
    pub summary: ReviewSummary,
    /// The budget each position's analysis had.
    pub budget: ReviewBudget,
    /// Wall time of the whole review, in milliseconds.
    pub elapsed_ms: f64,
}

/// The budget of each position's analysis, after the server's caps.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct ReviewBudget {
    /// Milliseconds per position (the request's, or the server's longest
    /// search when it asks for none), after the server's caps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_ms_per_ply: Option<u64>,
    /// Positions visited per analysis at most, if capped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_nodes_per_ply: Option<u64>,
    /// Analyses run at once at most: one fewer than the server's workers
    /// (at least one), so that a review never holds every worker; they
    /// queue with everyone else's jobs.
    pub workers: usize,
    /// The fields the server's caps cut: its longest search and node cap
    /// per position, and its cap on a review's whole work (`--max-review-ms`
    /// over the positions); absent when nothing was cut.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clamped: Vec<Clamped>,
}

impl ReviewBudget {
    /// The budget of a review of `positions` positions asking for
    /// `time_ms` and `max_nodes` per position, within the server's caps:
    /// the longest search and node cap of one position, and the whole
    /// review's work of `max_review_ms`.
    fn capped(
        config: &ServeConfig,
        positions: usize,
        time_ms: Option<u64>,
        max_nodes: Option<u64>,
        workers: usize,
    ) -> ReviewBudget {
        let mut clamped = Vec::new();
        // The tighter of the longest search and the review's share of its
        // whole-work cap, reported once against what was asked.
        let share = (config.max_review_ms / (positions.max(1) as u64)).max(1);
        let per_position = Clamped::cap(
            "time_ms_per_ply",
            time_ms.unwrap_or(config.max_time_ms),
            config.max_time_ms.min(share),
            &mut clamped,
        );
        let max_nodes = max_nodes
            .map(|asked| Clamped::cap("max_nodes_per_ply", asked, config.max_nodes, &mut clamped));
        ReviewBudget {
            time_ms_per_ply: Some(per_position),
            max_nodes_per_ply: max_nodes,
            // Never the last worker: another client's search finds one
            // free at once, not after one of this review's positions.
            workers: workers.saturating_sub(1).min(positions).max(1),
            clamped,
        }
    }
}

/// One line of a streamed review (`application/x-ndjson`): a judged move,
/// in order; then the summary, or the problem that cut the review short.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReviewLine<'a> {
    /// A move judged, as in the JSON answer's `plies`.
    Ply(&'a PlyReview),
    /// The last line of a review that ran to its end: each side's figures.
    Summary(&'a ReviewSummary),
    /// The last line of a review cut short: why.
    Error(Problem),
}

/// `POST /v1/games/{game}/review`.
pub async fn review(
    State(app): State<AppState>,
    headers: HeaderMap,
    request: GameRequest,
) -> Result<Response, ApiError> {
    let (game, payload, client) = request.into_parts();
    let ReviewCall {
        replay,
        time_ms,
        max_nodes,
        seed,
    } = ReviewRequest::from_json(&super::handlers::json_body(payload)?)?;
    let review: Arc<dyn Review> = app
        .rules(&client, move |_| game.prepare_review(&replay, seed))
        .await?;
    let budget = ReviewBudget::capped(
        &app.config,
        review.positions(),
        time_ms,
        max_nodes,
        app.pool.workers(),
    );
    let started = Instant::now();
    let mut judge = Judge::new(review, app.pool.clone(), client, &budget);
    // The first position is admitted or refused now, before any byte is
    // sent; the others queue as the ones before them end.
    judge.start()?;
    let streams = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|accept| accept.contains(NDJSON));
    let warning = super::handlers::warning_of(&budget.clamped);
    let mut response = if streams {
        stream(judge)
    } else {
        let (plies, summary) = judge.all().await?;
        Json(ReviewReply {
            plies,
            summary,
            budget,
            elapsed_ms: started.elapsed().as_secs_f64() * 1000.0,
        })
        .into_response()
    };
    if let Some(warning) = warning {
        response.headers_mut().insert(header::WARNING, warning);
    }
    Ok(response)
}

/// A position's judged move as it comes back from its job.
type Analysed = (usize, Result<Result<Judged, GameError>, ComputeError>);

/// The moves of a review judged in order as the analyses come in. Each
/// position is a job of its own in the client's fair queue, at most
/// `slots` queued or running at once, so a review uses idle workers but
/// never holds the pool: another client's job waits for one position at
/// most. Dropped (the client left), it cancels what is queued or running.
struct Judge {
    review: Arc<dyn Review>,
    pool: Arc<ComputePool>,
    client: Client,
    search: Budget,
    slots: usize,
    next_position: usize,
    in_flight: JoinSet<Analysed>,
    ready: Vec<Option<PlyReview>>,
    next_ply: usize,
    judged: Vec<PlyReview>,
    nodes: u64,
}

impl Judge {
    fn new(
        review: Arc<dyn Review>,
        pool: Arc<ComputePool>,
        client: Client,
        budget: &ReviewBudget,
    ) -> Self {
        let positions = review.positions();
        let mut search = Budget::with_time_ms(budget.time_ms_per_ply.unwrap_or(1));
        search.max_nodes = budget.max_nodes_per_ply;
        Judge {
            review,
            pool,
            client,
            search,
            slots: budget.workers,
            next_position: 0,
            in_flight: JoinSet::new(),
            ready: vec![None; positions],
            next_ply: 0,
            judged: Vec::new(),
            nodes: 0,
        }
    }

    /// The job that analyses position `index` and judges its move.
    fn job(&self, index: usize) -> impl FnOnce(&StopFlag) -> Result<Judged, GameError> {
        let review = Arc::clone(&self.review);
        let mut search = self.search.clone();
        move |stop| {
            search.stop = stop.clone();
            search.deadline = search
                .time_ms
                .map(|ms| Instant::now() + Duration::from_millis(ms));
            review.judge(index, &search)
        }
    }

    /// Admits the first position now, or refuses the review as any job is
    /// refused; a game without moves has nothing to admit.
    fn start(&mut self) -> Result<(), ApiError> {
        if self.review.positions() == 0 {
            return Ok(());
        }
        let pending = self.pool.submit(&self.client, self.job(0))?;
        self.in_flight.spawn(async move { (0, pending.await) });
        self.next_position = 1;
        Ok(())
    }

    /// Queues the next positions while fewer than `slots` are in flight,
    /// waiting for a place only when none of this review's is in flight.
    async fn top_up(&mut self) -> Result<(), ApiError> {
        while self.in_flight.len() < self.slots && self.next_position < self.review.positions() {
            let index = self.next_position;
            let pending = if self.in_flight.is_empty() {
                self.pool
                    .submit_waiting(&self.client, self.job(index))
                    .await?
            } else {
                match self.pool.submit(&self.client, self.job(index)) {
                    Ok(pending) => pending,
                    Err(ComputeError::Overloaded { .. } | ComputeError::ClientLimit { .. }) => {
                        return Ok(())
                    }
                    Err(other) => return Err(other.into()),
                }
            };
            self.in_flight.spawn(async move { (index, pending.await) });
            self.next_position += 1;
        }
        Ok(())
    }

    /// The next move judged, `None` once every move is.
    async fn next(&mut self) -> Result<Option<PlyReview>, ApiError> {
        loop {
            let index = self.next_ply;
            if index >= self.review.positions() {
                return Ok(None);
            }
            if let Some(ply) = self.ready[index].take() {
                self.next_ply += 1;
                self.judged.push(ply.clone());
                return Ok(Some(ply));
            }
            self.top_up().await?;
            let Some(joined) = self.in_flight.join_next().await else {
                return Err(ApiError::from(ComputeError::Panicked(
                    "the review's analyses ended early".into(),
                )));
            };
            let (index, result) = joined.map_err(|error| {
                ApiError::from(ComputeError::Panicked(format!(
                    "a review's analysis was lost: {error}"
                )))
            })?;
            let judged = result??;
            self.nodes += judged.nodes;
            self.ready[index] = Some(judged.ply);
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
            Ok(Some(ply)) => to_line(&ReviewLine::Ply(&ply)),
            Ok(None) => {
                let line = to_line(&ReviewLine::Summary(&judge.summary()));
                return Some((Ok::<_, std::convert::Infallible>(line), None));
            }
            Err(error) => {
                return Some((Ok(to_line(&ReviewLine::Error(error.problem()))), None));
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

fn to_line(line: &ReviewLine) -> bytes::Bytes {
    let mut text = serde_json::to_vec(line).unwrap_or_default();
    text.push(b'\n');
    bytes::Bytes::from(text)
}
