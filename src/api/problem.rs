//! Errors as RFC 9457 problem details (`application/problem+json`), each with a
//! stable machine `code`.

use crate::compute::ComputeError;
use crate::game::{ErrorCode, Fault, GameError};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// Every way a request can fail that the game cannot know of: the HTTP
/// layer's own (routes, bodies, content types, the compute pool); what the
/// game says about a request is [`GameError`], which knows its own code and
/// whose fault it is.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// No game has this id.
    #[error("no game '{0}'; GET /v1/games lists them")]
    UnknownGame(String),
    /// No such route.
    #[error("no route {0}; GET /openapi.yaml describes the API")]
    NotFound(String),
    /// The route exists but not with this method.
    #[error("method {0} is not allowed here")]
    MethodNotAllowed(String),
    /// The body is over the configured limit.
    #[error("the body is over the limit of {limit} bytes")]
    PayloadTooLarge {
        /// The limit, in bytes.
        limit: usize,
    },
    /// The body did not arrive in time.
    #[error("the request body did not arrive within {0} ms")]
    RequestTimeout(u64),
    /// The body's content type is neither JSON nor a text form the endpoint takes.
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// What the game (or the request's shape) says is wrong.
    #[error(transparent)]
    Game(#[from] GameError),
    /// A game's error whose place in the body only the API knows (the
    /// `level` field for an unknown level).
    #[error("{error}")]
    Placed {
        /// The JSON pointer to the field.
        pointer: String,
        /// The error.
        error: GameError,
    },
    /// The compute pool could not run the job.
    #[error(transparent)]
    Compute(#[from] ComputeError),
    /// The server has API keys and the request carries none.
    #[error("this server needs an API key: send it as Authorization: Bearer <key>")]
    Unauthorized,
    /// The request's key is not one of the server's.
    #[error("the API key sent is not one this server accepts")]
    Forbidden,
    /// The request's key is over its rate limit.
    #[error("the key '{name}' is over its limit of {per_second} requests a second; retry after Retry-After seconds")]
    RateLimited {
        /// The key's name.
        name: String,
        /// Its limit.
        per_second: u32,
    },
}

/// The JSON body of a problem response.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct Problem {
    /// A URI naming the kind of problem.
    #[serde(rename = "type")]
    pub kind: String,
    /// A short, fixed summary of the kind of problem.
    pub title: &'static str,
    /// The HTTP status.
    pub status: u16,
    /// What went wrong in this request, and where.
    pub detail: String,
    /// The stable machine code; the list is closed (a client may match
    /// on it exhaustively).
    pub code: ErrorCode,
    /// A JSON pointer (RFC 6901) into the request body where the problem
    /// is, when it is in one place; it always resolves in the body sent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
    /// For `unknown_level`, the level name nearest to the one asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
    /// For `game_over`, how the game ended (the game's outcome object).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<serde_json::Value>,
}

/// The HTTP status for an error of the game's, by whose fault it is.
fn status_of(fault: Fault) -> StatusCode {
    match fault {
        Fault::Malformed => StatusCode::BAD_REQUEST,
        Fault::Option | Fault::Content => StatusCode::UNPROCESSABLE_ENTITY,
        Fault::Finished => StatusCode::CONFLICT,
        Fault::Unsupported => StatusCode::UNSUPPORTED_MEDIA_TYPE,
        Fault::Bug => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

impl ApiError {
    /// A request body that is not the JSON the endpoint takes.
    pub fn malformed(pointer: Option<String>, detail: impl Into<String>) -> Self {
        ApiError::Game(GameError::MalformedRequest {
            pointer,
            detail: detail.into(),
        })
    }

    /// A request option (of the API's, not of a game) that is out of range.
    pub fn invalid_option(detail: impl Into<String>) -> Self {
        ApiError::Game(GameError::invalid_option(detail))
    }

    /// The same error placed at `pointer` in the body, unless it has a
    /// place of its own already.
    pub fn at(self, pointer: &str) -> Self {
        match self {
            ApiError::Game(error) if error.pointer().is_none() => ApiError::Placed {
                pointer: pointer.to_string(),
                error,
            },
            other => other,
        }
    }

    /// The game's error inside, if this is one.
    fn game_error(&self) -> Option<&GameError> {
        match self {
            ApiError::Game(error) | ApiError::Placed { error, .. } => Some(error),
            _ => None,
        }
    }

    /// The status, machine code and title of this error.
    pub fn classify(&self) -> (StatusCode, ErrorCode, &'static str) {
        use ErrorCode as C;
        use StatusCode as S;
        match self {
            ApiError::UnknownGame(_) => (S::NOT_FOUND, C::UnknownGame, "Unknown game"),
            ApiError::RequestTimeout(_) => {
                (S::REQUEST_TIMEOUT, C::RequestTimeout, "Request timeout")
            }
            ApiError::NotFound(_) => (S::NOT_FOUND, C::NotFound, "No such route"),
            ApiError::MethodNotAllowed(_) => (
                S::METHOD_NOT_ALLOWED,
                C::MethodNotAllowed,
                "Method not allowed",
            ),
            ApiError::PayloadTooLarge { .. } => (
                S::PAYLOAD_TOO_LARGE,
                C::PayloadTooLarge,
                "Payload too large",
            ),
            ApiError::UnsupportedMediaType(_) => (
                S::UNSUPPORTED_MEDIA_TYPE,
                C::UnsupportedMediaType,
                "Unsupported media type",
            ),
            ApiError::Game(error) | ApiError::Placed { error, .. } => {
                (status_of(error.fault()), error.code(), error.title())
            }
            ApiError::Compute(ComputeError::Overloaded { .. }) => {
                (S::SERVICE_UNAVAILABLE, C::Overloaded, "Overloaded")
            }
            ApiError::Compute(ComputeError::ClientLimit { .. }) => (
                S::TOO_MANY_REQUESTS,
                C::ConcurrencyLimited,
                "Too many searches at once",
            ),
            ApiError::Compute(ComputeError::ShuttingDown) => {
                (S::SERVICE_UNAVAILABLE, C::ShuttingDown, "Shutting down")
            }
            ApiError::Compute(ComputeError::QueuedTooLong { .. }) => {
                (S::SERVICE_UNAVAILABLE, C::QueuedTooLong, "Queued too long")
            }
            ApiError::Compute(ComputeError::Panicked(_)) => {
                (S::INTERNAL_SERVER_ERROR, C::InternalError, "Internal error")
            }
            ApiError::Unauthorized => (S::UNAUTHORIZED, C::Unauthorized, "API key needed"),
            ApiError::Forbidden => (S::FORBIDDEN, C::Forbidden, "Unknown API key"),
            ApiError::RateLimited { .. } => {
                (S::TOO_MANY_REQUESTS, C::RateLimited, "Too many requests")
            }
        }
    }

    /// The problem document for this error.
    pub fn problem(&self) -> Problem {
        let (status, code, title) = self.classify();
        let game = self.game_error();
        Problem {
            kind: format!("https://gamebot.dev/problems/{code}"),
            title,
            status: status.as_u16(),
            detail: clip(self.to_string()),
            code,
            pointer: match self {
                ApiError::Placed { pointer, .. } => Some(pointer.clone()),
                _ => game.and_then(GameError::pointer).map(str::to_string),
            },
            suggestion: match game {
                Some(GameError::UnknownLevel { suggestion, .. }) => suggestion.map(str::to_string),
                _ => None,
            },
            outcome: match game {
                Some(GameError::GameOver { outcome }) => outcome.as_deref().cloned(),
                _ => None,
            },
        }
    }
}

/// The longest `detail` a problem carries, in bytes: a detail may quote
/// the request, and an answer never echoes more than this of it.
pub const MAX_DETAIL_BYTES: usize = 600;

/// `text` cut to at most `bytes` bytes, at a character boundary.
pub(super) fn cut_to(text: &str, bytes: usize) -> &str {
    let mut end = text.len().min(bytes);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// `detail`, cut to [`MAX_DETAIL_BYTES`] at a character boundary, saying
/// how much was left out.
fn clip(detail: String) -> String {
    if detail.len() <= MAX_DETAIL_BYTES {
        return detail;
    }
    let kept = cut_to(&detail, MAX_DETAIL_BYTES);
    format!(
        "{kept}… ({} more bytes left out)",
        detail.len() - kept.len()
    )
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let problem = self.problem();
        let status =
            StatusCode::from_u16(problem.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let body = serde_json::to_vec(&problem).unwrap_or_default();
        let mut response = (status, body).into_response();
        // The failure log middleware reads it: failures are logged in one place.
        response.extensions_mut().insert(problem);
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/problem+json"),
        );
        match self {
            ApiError::Compute(ComputeError::Overloaded { retry_after_s, .. }) => {
                headers.insert(header::RETRY_AFTER, HeaderValue::from(retry_after_s));
            }
            ApiError::Compute(
                ComputeError::ClientLimit { .. }
                | ComputeError::ShuttingDown
                | ComputeError::QueuedTooLong { .. },
            ) => {
                headers.insert(header::RETRY_AFTER, HeaderValue::from(1));
            }
            _ => {}
        }
        response
    }
}
