//! Errors as RFC 9457 problem details (`application/problem+json`), each with a
//! stable machine `code`.

use crate::compute::ComputeError;
use crate::game::GameError;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// Every way a request can fail, mapped to one status and code of the API's error table.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The body is not the JSON the endpoint takes.
    #[error("{detail}")]
    MalformedJson {
        /// Where in the body, as a JSON pointer, when known.
        pointer: Option<String>,
        /// What is wrong and where.
        detail: String,
    },
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
    /// An option of the request itself (not of a game) is out of range.
    #[error("{0}")]
    InvalidOption(String),
    /// What the game said about the request.
    #[error(transparent)]
    Game(#[from] GameError),
    /// The compute pool could not run the job.
    #[error(transparent)]
    Compute(#[from] ComputeError),
}

/// The JSON body of a problem response.
#[derive(Debug, Serialize)]
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
    /// The stable machine code (`invalid_state`, `overloaded`, ...).
    pub code: &'static str,
    /// A JSON pointer into the request body where the problem is, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
}

impl ApiError {
    /// The status, machine code and title of this error.
    pub fn classify(&self) -> (StatusCode, &'static str, &'static str) {
        use StatusCode as S;
        match self {
            ApiError::MalformedJson { .. } => {
                (S::BAD_REQUEST, "malformed_json", "Malformed JSON body")
            }
            ApiError::UnknownGame(_) => (S::NOT_FOUND, "unknown_game", "Unknown game"),
            ApiError::RequestTimeout(_) => {
                (S::REQUEST_TIMEOUT, "request_timeout", "Request timeout")
            }
            ApiError::NotFound(_) => (S::NOT_FOUND, "not_found", "No such route"),
            ApiError::MethodNotAllowed(_) => (
                S::METHOD_NOT_ALLOWED,
                "method_not_allowed",
                "Method not allowed",
            ),
            ApiError::PayloadTooLarge { .. } => (
                S::PAYLOAD_TOO_LARGE,
                "payload_too_large",
                "Payload too large",
            ),
            ApiError::UnsupportedMediaType(_) => (
                S::UNSUPPORTED_MEDIA_TYPE,
                "unsupported_media_type",
                "Unsupported media type",
            ),
            ApiError::InvalidOption(_) => {
                (S::UNPROCESSABLE_ENTITY, "invalid_option", "Invalid option")
            }
            ApiError::Game(error) => match error {
                GameError::InvalidState { .. } => {
                    (S::UNPROCESSABLE_ENTITY, "invalid_state", "Invalid state")
                }
                GameError::IllegalMove { code, .. } => {
                    (S::UNPROCESSABLE_ENTITY, code, "Illegal move")
                }
                GameError::MalformedRequest { .. } => {
                    (S::BAD_REQUEST, "malformed_json", "Malformed JSON body")
                }
                GameError::UnknownLevel { .. } => {
                    (S::UNPROCESSABLE_ENTITY, "unknown_level", "Unknown level")
                }
                GameError::InvalidOption(_) => {
                    (S::UNPROCESSABLE_ENTITY, "invalid_option", "Invalid option")
                }
                GameError::GameOver => (S::CONFLICT, "game_over", "Game over"),
                GameError::NoTextForm => (
                    S::UNSUPPORTED_MEDIA_TYPE,
                    "unsupported_media_type",
                    "Unsupported media type",
                ),
                GameError::Internal(_) => {
                    (S::INTERNAL_SERVER_ERROR, "internal_error", "Internal error")
                }
            },
            ApiError::Compute(ComputeError::Overloaded { .. }) => {
                (S::SERVICE_UNAVAILABLE, "overloaded", "Overloaded")
            }
            ApiError::Compute(ComputeError::Panicked(_)) => {
                (S::INTERNAL_SERVER_ERROR, "internal_error", "Internal error")
            }
        }
    }

    fn pointer(&self) -> Option<String> {
        match self {
            ApiError::MalformedJson { pointer, .. } => pointer.clone(),
            ApiError::Game(GameError::InvalidState { pointer, .. })
            | ApiError::Game(GameError::MalformedRequest { pointer, .. })
            | ApiError::Game(GameError::IllegalMove { pointer, .. }) => pointer.clone(),
            _ => None,
        }
    }

    /// The problem document for this error.
    pub fn problem(&self) -> Problem {
        let (status, code, title) = self.classify();
        Problem {
            kind: format!("https://gamebot.dev/problems/{code}"),
            title,
            status: status.as_u16(),
            detail: self.to_string(),
            code,
            pointer: self.pointer(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let problem = self.problem();
        let status =
            StatusCode::from_u16(problem.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        if status == StatusCode::INTERNAL_SERVER_ERROR {
            tracing::error!(code = problem.code, detail = %problem.detail, "request failed");
        } else {
            tracing::debug!(code = problem.code, detail = %problem.detail, "request refused");
        }
        let body = serde_json::to_vec(&problem).unwrap_or_default();
        let mut response = (status, body).into_response();
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/problem+json"),
        );
        if let ApiError::Compute(ComputeError::Overloaded { retry_after_s, .. }) = self {
            headers.insert(header::RETRY_AFTER, HeaderValue::from(retry_after_s));
        }
        response
    }
}
