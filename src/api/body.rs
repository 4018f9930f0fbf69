//! Reading request bodies: the size limit, the content type, and JSON parsing
//! whose errors say where the problem is.

use super::ApiError;
use axum::body::{to_bytes, Body};
use axum::http::{header, HeaderMap};
use serde::de::DeserializeOwned;
use std::time::Duration;

/// A request body, sorted by its content type.
pub enum Payload {
    /// No body at all.
    Empty,
    /// A JSON body (`application/json`, `application/*+json`, or no content type).
    Json(bytes::Bytes),
    /// A `text/plain` body: a game's own text form.
    Text(String),
}

/// How much of a body a request may send, and how fast.
#[derive(Clone, Copy, Debug)]
pub struct BodyLimits {
    /// The largest body, in bytes.
    pub max_bytes: usize,
    /// The time the whole body may take to arrive, in milliseconds.
    pub timeout_ms: u64,
}

/// Reads a body within `limits` and sorts it by content type.
pub async fn read(
    headers: &HeaderMap,
    body: Body,
    limits: BodyLimits,
) -> Result<Payload, ApiError> {
    let limit = limits.max_bytes;
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|n| n > limit) {
        return Err(ApiError::PayloadTooLarge { limit });
    }
    let arrival = tokio::time::timeout(
        Duration::from_millis(limits.timeout_ms),
        to_bytes(body, limit),
    );
    let received = arrival
        .await
        .map_err(|_| ApiError::RequestTimeout(limits.timeout_ms))?;
    let bytes = received.map_err(|error| {
        if std::error::Error::source(&error)
            .is_some_and(|e| e.is::<http_body_util::LengthLimitError>())
            || error.to_string().contains("length limit")
        {
            ApiError::PayloadTooLarge { limit }
        } else {
            ApiError::MalformedJson {
                pointer: None,
                detail: format!("could not read the request body: {error}"),
            }
        }
    })?;
    if bytes.is_empty() {
        return Ok(Payload::Empty);
    }
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .map(|v| v.to_str().unwrap_or("(not text)").to_ascii_lowercase());
    let essence = content_type
        .as_deref()
        .map(|t| t.split(';').next().unwrap_or("").trim().to_string());
    match essence.as_deref() {
        None | Some("application/json") => Ok(Payload::Json(bytes)),
        Some(t) if t.starts_with("application/") && t.ends_with("+json") => {
            Ok(Payload::Json(bytes))
        }
        Some("text/plain") => String::from_utf8(bytes.to_vec())
            .map(Payload::Text)
            .map_err(|e| {
                ApiError::UnsupportedMediaType(format!("the text/plain body is not UTF-8: {e}"))
            }),
        Some(other) => Err(ApiError::UnsupportedMediaType(format!(
            "content type '{other}' is not accepted; send application/json{}",
            " (or text/plain where a game has a text form)"
        ))),
    }
}

/// Parses a JSON body into `T`, naming the path of the first problem.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    // Every request body is an object; serde would also take an array for a struct.
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(ApiError::MalformedJson {
            pointer: None,
            detail: "the body must be a JSON object ({...})".into(),
        });
    }
    // serde_json's recursion limit (128 levels) caps the nesting depth.
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    match serde_path_to_error::deserialize(&mut deserializer) {
        Ok(value) => deserializer
            .end()
            .map(|()| value)
            .map_err(|e| ApiError::MalformedJson {
                pointer: None,
                detail: format!("the body is not the JSON this endpoint takes: {e}"),
            }),
        Err(error) => {
            let path = error.path().to_string();
            let inner = error.into_inner();
            let pointer = (path != ".").then(|| path_to_pointer(&path));
            let place = if path == "." {
                String::new()
            } else {
                format!(" at {path}")
            };
            Err(ApiError::MalformedJson {
                pointer,
                detail: format!("the body is not the JSON this endpoint takes{place}: {inner}"),
            })
        }
    }
}

/// `state.board[3]` → `/state/board/3`.
fn path_to_pointer(path: &str) -> String {
    let mut pointer = String::new();
    for part in path.split('.') {
        let mut rest = part;
        if let Some(open) = rest.find('[') {
            let (name, indices) = rest.split_at(open);
            if !name.is_empty() {
                pointer.push('/');
                pointer.push_str(name);
            }
            rest = indices;
            for index in rest.split('[').filter(|s| !s.is_empty()) {
                pointer.push('/');
                pointer.push_str(index.trim_end_matches(']'));
            }
        } else if !rest.is_empty() {
            pointer.push('/');
            pointer.push_str(rest);
        }
    }
    pointer
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_become_pointers() {
        assert_eq!(path_to_pointer("state.board[3]"), "/state/board/3");
        assert_eq!(path_to_pointer("top"), "/top");
        assert_eq!(path_to_pointer("a[1][2].b"), "/a/1/2/b");
    }
}
