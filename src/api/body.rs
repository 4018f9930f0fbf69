//! Reading request bodies: the size limit, the content type, and JSON parsing
//! whose errors say where the problem is.

use super::ApiError;
use crate::game::location;
use axum::body::{to_bytes, Body};
use axum::http::{header, HeaderMap};
use serde::de::{DeserializeOwned, MapAccess, SeqAccess, Visitor};
use std::cell::RefCell;
use std::collections::HashSet;
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
            ApiError::malformed(None, format!("could not read the request body: {error}"))
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
        return Err(ApiError::malformed(
            None,
            "the body must be a JSON object ({...})",
        ));
    }
    if let Some(pointer) = duplicate_key(bytes) {
        let key = pointer.rsplit('/').next().unwrap_or_default();
        let key = key.replace("~1", "/").replace("~0", "~");
        return Err(ApiError::malformed(
            Some(pointer.clone()),
            format!(
                "the key \"{key}\" appears more than once in one object (at {pointer}): \
                 a request names each field once, so send it once"
            ),
        ));
    }
    // serde_json's recursion limit (128 levels) caps the nesting depth.
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    match serde_path_to_error::deserialize(&mut deserializer) {
        Ok(value) => deserializer.end().map(|()| value).map_err(|e| {
            ApiError::malformed(
                None,
                format!("the body is not the JSON this endpoint takes: {e}"),
            )
        }),
        Err(error) => Err(not_what_it_takes(error)),
    }
}

/// A body (or a part of one) serde could not read, as problem+json with
/// the pointer of the first problem.
pub fn not_what_it_takes<E: std::fmt::Display>(error: serde_path_to_error::Error<E>) -> ApiError {
    let pointer = location::pointer_of(error.path());
    let place = match &pointer {
        Some(pointer) => format!(" at {pointer}"),
        None => String::new(),
    };
    let inner = error.into_inner();
    ApiError::malformed(
        pointer,
        format!("the body is not the JSON this endpoint takes{place}: {inner}"),
    )
}

/// The pointer to the first key that appears twice in one object of the
/// JSON document `bytes`, at any depth; `None` when every object's keys are
/// distinct, or when the document is not JSON (the parse then says why).
/// serde keeps the last of two equal keys in a map and refuses them only in
/// a struct it derives, so every body is checked here, once, the same way.
fn duplicate_key(bytes: &[u8]) -> Option<String> {
    let found = RefCell::new(None);
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let check = KeyCheck {
        at: String::new(),
        found: &found,
    };
    // A syntax error ends the walk; the parse that follows reports it.
    let _ = serde::de::DeserializeSeed::deserialize(check, &mut deserializer);
    found.into_inner()
}

/// A walk over one JSON value that records the first repeated key.
struct KeyCheck<'a> {
    /// The pointer to the value walked.
    at: String,
    /// Where the first repeated key is, once one is found.
    found: &'a RefCell<Option<String>>,
}

impl KeyCheck<'_> {
    fn child(&self, token: &str) -> Self {
        KeyCheck {
            at: format!("{}/{token}", self.at),
            found: self.found,
        }
    }
}

impl<'de> serde::de::DeserializeSeed<'de> for KeyCheck<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for KeyCheck<'_> {
    type Value = ();

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut index = 0usize;
        while seq
            .next_element_seed(self.child(&index.to_string()))?
            .is_some()
        {
            index += 1;
        }
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            let token = location::pointer_token(&key);
            if !seen.insert(key) {
                *self.found.borrow_mut() = Some(format!("{}/{token}", self.at));
                return Err(serde::de::Error::custom("a repeated key"));
            }
            map.next_value_seed(self.child(&token))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pointer_for(body: &str) -> Option<String> {
        #[derive(serde::Deserialize, Debug)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct Body {
            state: serde_json::Value,
            top: Option<u32>,
        }
        match parse_json::<Body>(body.as_bytes()) {
            Err(ApiError::Game(crate::game::GameError::MalformedRequest { pointer, .. })) => {
                pointer
            }
            other => panic!("{body}: expected malformed_json, got {other:?}"),
        }
    }

    #[test]
    fn errors_point_at_the_deepest_known_place() {
        assert_eq!(
            pointer_for(r#"{"state": {}, "top": "x"}"#),
            Some("/top".into())
        );
        assert_eq!(
            pointer_for(r#"{"state": {}, "levle": 1}"#),
            Some("/levle".into())
        );
        assert_eq!(
            pointer_for(r#"{"state": {}, "a/b~c": 1}"#),
            Some("/a~1b~0c".into())
        );
        // A trailing comma: serde cannot name the place, so nothing past it.
        assert_eq!(
            pointer_for(r#"{"state": {"board": [1,]}}"#),
            Some("/state/board".into())
        );
        assert_eq!(pointer_for(r#"{"state": {},}"#), None);
    }

    #[test]
    fn a_repeated_key_is_refused_at_any_depth() {
        assert_eq!(
            pointer_for(r#"{"state": {}, "state": {}}"#),
            Some("/state".into())
        );
        assert_eq!(
            pointer_for(r#"{"state": {"a": [{"b": 1, "c": 2, "b": 3}]}}"#),
            Some("/state/a/0/b".into())
        );
        assert_eq!(
            pointer_for(r#"{"state": {"x/y": 1, "x/y": 2}}"#),
            Some("/state/x~1y".into())
        );
        // Equal keys in different objects are not repeats.
        assert!(parse_json::<serde_json::Value>(br#"{"a": {"k": 1}, "b": {"k": 2}}"#).is_ok());
    }
}
