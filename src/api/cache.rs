//! The position cache: answers a repeated deterministic `bot-move` or
//! `analyze` without searching again.
//!
//! A request is looked up by everything that decides its answer: the game,
//! the operation, the state as the game writes it back after reading it
//! (so spacing, field order and defaulted fields do not matter; for a game
//! with board symmetries, the state's canonical twin, so that a turned or mirrored
//! position shares its twin's entry and gets its answer turned, as its own
//! search would give it; but the state as given for a level that breaks
//! ties by the order of the position as given, such as Reversi's `norvig`,
//! whose twins may answer other moves), the level, the seed, the budget fields as
//! sent, `top`, and the game's own options. Only requests that name their
//! seed are cached, and only answers whose search ended on its depth or node
//! cap or on a proof: such an answer is what the same request gives again on
//! any machine, while one cut by the clock depends on the load. A hit is
//! marked `"cached": true` in `search` and sent as stored. The cache is
//! bounded by the bytes of the answers it holds (`--cache-mb`; 0 turns it
//! off) and evicts the least useful entries first (moka's TinyLFU).

use super::requests::Limits;
use crate::game::erased::{BotRequest, StateInput};
use crate::game::{DynGame, SearchReport, StopReason};
use axum::body::{Body, Bytes};
use axum::http::HeaderMap;
use axum::response::Response;
use moka::sync::Cache;
use serde_json::{json, Value};
use std::sync::Arc;

/// An answer the cache holds: its JSON body, already marked `cached`, its
/// headers, so that a hit on the same state is sent as it is, and the state
/// it answered, so that a hit on a symmetric twin can be turned.
#[derive(Debug)]
pub struct CachedAnswer {
    body: Bytes,
    headers: HeaderMap,
    answered: Box<str>,
}

impl CachedAnswer {
    /// The answer to the state `answered`, from its body and headers.
    pub fn new(mut body: Vec<u8>, headers: HeaderMap, answered: &Value) -> Self {
        body.shrink_to_fit();
        CachedAnswer {
            body: Bytes::from(body),
            headers,
            answered: answered.to_string().into_boxed_str(),
        }
    }

    /// The state as the request that searched it sent it, as JSON text.
    pub fn answered(&self) -> &str {
        &self.answered
    }

    /// The answer's headers.
    pub fn headers(&self) -> &HeaderMap {
        &self.headers
    }

    /// The answer's JSON body.
    pub fn body(&self) -> &[u8] {
        &self.body
    }

    /// The answer as a response.
    pub fn response(&self) -> Response {
        let mut response = Response::new(Body::from(self.body.clone()));
        *response.headers_mut() = self.headers.clone();
        response
    }
}

/// The unit entries are weighed in: moka sizes its frequency sketch by the
/// capacity, so the capacity counts kibibytes rather than bytes.
const WEIGHT_UNIT: usize = 1024;

/// What an entry costs beyond its key and body: its headers, the `Arc`,
/// and moka's node and index entry (an estimate, checked by
/// `bench/cache.sh` against the server's resident memory).
const ENTRY_OVERHEAD: usize = 1536;

/// The bounded cache of deterministic answers, shared by every request.
#[derive(Clone)]
pub struct ReplyCache {
    entries: Option<Cache<String, Arc<CachedAnswer>>>,
}

impl ReplyCache {
    /// A cache holding at most `megabytes` MiB of answers (0: none at all).
    pub fn new(megabytes: u64) -> Self {
        let entries = (megabytes > 0).then(|| {
            Cache::builder()
                .max_capacity(megabytes.saturating_mul(1024))
                .weigher(|key: &String, answer: &Arc<CachedAnswer>| {
                    let bytes =
                        key.capacity() + answer.body.len() + answer.answered.len() + ENTRY_OVERHEAD;
                    u32::try_from(bytes.div_ceil(WEIGHT_UNIT)).unwrap_or(u32::MAX)
                })
                .build()
        });
        ReplyCache { entries }
    }

    /// The key of a request, less its state, if its answer may be cached:
    /// a JSON request that names its seed and has no clock, on a server
    /// with a cache. The game adds the state as it reads it
    /// ([`PendingKey::with_state`]); a request that gets no key has its
    /// state neither turned to its twin nor written for one.
    pub fn pending_key(
        &self,
        game: &dyn DynGame,
        operation: &str,
        request: &BotRequest,
        limits: &Limits,
        top: Option<usize>,
    ) -> Option<PendingKey> {
        self.entries.as_ref()?;
        // A clocked answer reports its own clock: it is never another's.
        if limits.clock.is_some() || !matches!(request.state, StateInput::Json(_)) {
            return None;
        }
        let seed = request.seed?;
        let fields = json!({
            "game": game.info().id,
            "operation": operation,
            // `5` and `"5"` are one level.
            "level": request.level.as_ref().map(ToString::to_string),
            "seed": seed,
            "top": top,
            "time_ms": limits.time_ms,
            "max_depth": limits.max_depth,
            "max_nodes": limits.max_nodes,
            "options": Value::Object(request.own_fields.clone()),
            "perspective": request.perspective.as_ref().map(ToString::to_string),
        });
        Some(PendingKey(fields))
    }

    /// The answer held for `key`.
    pub fn get(&self, key: &str) -> Option<Arc<CachedAnswer>> {
        self.entries.as_ref()?.get(key)
    }

    /// Keeps the answer `make` gives under `key` if `search` would end the
    /// same way again: on its depth or node cap, or on a proof.
    pub fn put(&self, key: String, search: &SearchReport, make: impl FnOnce() -> CachedAnswer) {
        let Some(entries) = &self.entries else {
            return;
        };
        if reproducible(search) {
            entries.insert(key, Arc::new(make()));
        }
    }

    /// The bytes the cache holds now, to the kibibyte (moka's weighted
    /// size, after its pending work), for the metrics.
    pub fn bytes(&self) -> u64 {
        self.entries.as_ref().map_or(0, |entries| {
            entries.run_pending_tasks();
            entries.weighted_size() * WEIGHT_UNIT as u64
        })
    }
}

/// A cache key waiting for its state: everything else that decides the
/// answer.
#[derive(Debug)]
pub struct PendingKey(Value);

impl PendingKey {
    /// The whole key, with the state as the game keys it
    /// ([`Prepared::cache_state`](crate::game::erased::Prepared::cache_state));
    /// `None` if the game gave none.
    pub fn with_state(self, state: Option<Value>) -> Option<String> {
        let PendingKey(mut fields) = self;
        fields["state"] = state?;
        let mut key = fields.to_string();
        key.shrink_to_fit();
        Some(key)
    }
}

/// Whether a search's answer is what the same request gives on any
/// machine under any load.
fn reproducible(search: &SearchReport) -> bool {
    matches!(
        search.stopped_by,
        Some(StopReason::Depth | StopReason::Nodes | StopReason::Proven)
    )
}
