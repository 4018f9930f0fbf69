//! A JSON body read part by part. A request that shares a set of fields
//! with others of its family is one type with each shared set flattened
//! into it (the contract publishes the merged object); serde's own flatten
//! would lose the path of a bad value inside a part, so each part takes its
//! own fields out of the body and is read on its own, every error keeping
//! the pointer of its field.

use super::body;
use super::ApiError;
use crate::game::fields;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{Map, Value};

/// A body's fields not yet taken by a part.
#[derive(Debug)]
pub struct Parts {
    object: Map<String, Value>,
}

impl Parts {
    /// The body's fields, once the body is known to be one JSON object
    /// with each key once.
    pub fn of(bytes: &[u8]) -> Result<Self, ApiError> {
        Ok(Parts {
            object: body::parse_json(bytes)?,
        })
    }

    /// Takes the fields `T`'s schema names out of the body and reads them
    /// as a `T`; an error points at its field (`/time_ms`).
    pub fn take<T: DeserializeOwned + JsonSchema>(&mut self) -> Result<T, ApiError> {
        let names = fields::field_names::<T>();
        let (part, rest): (Map<String, Value>, Map<String, Value>) =
            std::mem::take(&mut self.object)
                .into_iter()
                .partition(|(key, _)| names.contains(key));
        self.object = rest;
        read_part(Value::Object(part))
    }

    /// The fields no part took: a game's own, for the requests that take them.
    pub fn rest(self) -> Map<String, Value> {
        self.object
    }

    /// Refuses a field no part took, naming the fields `Whole` (the
    /// request every part makes up) publishes.
    pub fn finish<Whole: JsonSchema>(self) -> Result<(), ApiError> {
        match fields::unknown_field::<Whole>(&Value::Object(self.object)) {
            None => Ok(()),
            Some(stray) => Err(ApiError::malformed(
                Some(stray.pointer.clone()),
                format!(
                    "the body is not the JSON this endpoint takes at {}: {}",
                    stray.pointer, stray.detail
                ),
            )),
        }
    }
}

/// Reads one part, naming the path of the first problem.
fn read_part<T: DeserializeOwned>(part: Value) -> Result<T, ApiError> {
    serde_path_to_error::deserialize(part).map_err(body::not_what_it_takes)
}

/// A non-negative whole number, written as an integer or as a float with no
/// fraction (`8.0`), as JSON Schema's `integer` allows; values beyond u64
/// saturate, since every such field is clamped to a server cap anyway.
pub fn whole_number<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<u64>, D::Error> {
    use serde::de::Error;
    let Some(number) = Option::<serde_json::Number>::deserialize(deserializer)? else {
        return Ok(None);
    };
    if let Some(n) = number.as_u64() {
        return Ok(Some(n));
    }
    match number.as_f64() {
        Some(x) if x >= 0.0 && x.fract() == 0.0 => Ok(Some(if x >= u64::MAX as f64 {
            u64::MAX
        } else {
            x as u64
        })),
        _ => Err(D::Error::custom(format!(
            "invalid value {number}, expected a whole number ≥ 0"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct Budget {
        #[serde(default, deserialize_with = "whole_number")]
        time_ms: Option<u64>,
    }

    #[derive(Debug, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct Game {
        #[serde(default)]
        moves: Option<Vec<String>>,
    }

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Whole {
        #[serde(flatten)]
        budget: Budget,
        #[serde(flatten)]
        game: Game,
    }

    fn problem(body: &str) -> (Option<String>, String) {
        let result = Parts::of(body.as_bytes()).and_then(|mut parts| {
            let budget: Budget = parts.take()?;
            let game: Game = parts.take()?;
            parts.finish::<Whole>()?;
            Ok((budget, game))
        });
        let problem = result.expect_err(body).problem();
        (problem.pointer, problem.detail)
    }

    #[test]
    fn a_bad_value_in_any_part_keeps_its_pointer() {
        assert_eq!(
            problem(r#"{"time_ms": "2"}"#).0.as_deref(),
            Some("/time_ms")
        );
        assert_eq!(problem(r#"{"moves": 5}"#).0.as_deref(), Some("/moves"));
        assert_eq!(
            problem(r#"{"moves": ["a", 1]}"#).0.as_deref(),
            Some("/moves/1")
        );
    }

    #[test]
    fn a_field_no_part_takes_is_refused_with_every_published_field() {
        let (pointer, detail) = problem(r#"{"moves": [], "tme_ms": 5}"#);
        assert_eq!(pointer.as_deref(), Some("/tme_ms"));
        assert!(detail.contains("has only moves, time_ms"), "{detail}");
    }

    #[test]
    fn the_parts_read_what_they_name_and_leave_the_rest() {
        let mut parts = Parts::of(br#"{"moves": ["a"], "time_ms": 8.0, "own": 1}"#).unwrap();
        let budget: Budget = parts.take().unwrap();
        let game: Game = parts.take().unwrap();
        assert_eq!(budget.time_ms, Some(8));
        assert_eq!(game.moves, Some(vec!["a".to_string()]));
        assert_eq!(parts.rest().keys().collect::<Vec<_>>(), ["own"]);
    }
}
