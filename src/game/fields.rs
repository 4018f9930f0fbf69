//! The fields a JSON state or move object may carry: exactly those its
//! published schema names (the game's `StateJson` or `MoveJson`), so that a
//! misspelt or stray field is refused rather than silently ignored, and the
//! contract can say `additionalProperties: false` for every game at once.

use super::{Codec, GameError};
use schemars::JsonSchema;
use serde_json::Value;
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, RwLock};

/// A field the schema does not name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownField {
    /// Its JSON pointer inside the object (`/colour`).
    pub pointer: String,
    /// What is wrong, with the fields the object may have.
    pub detail: String,
}

/// Reads a JSON state: the game's own reader, then its fields. The game's
/// reader goes first so that its own words for a stray field win where it
/// has them (Halma says where a misplaced `clock` belongs); a state it
/// accepts still has every field checked.
pub fn read_state<G: Codec>(value: &Value) -> Result<G::State, GameError> {
    let state = G::state_from_json(value)?;
    if let Some(stray) = unknown_field::<G::StateJson>(value) {
        return Err(GameError::invalid_state_at(stray.pointer, stray.detail));
    }
    Ok(state)
}

/// Reads a move (notation or JSON object) and checks that it is legal in
/// `state`: the object's fields, then the game's own reader.
pub fn read_move<G: Codec>(state: &G::State, value: &Value) -> Result<G::Move, GameError> {
    if let Some(stray) = unknown_field::<G::MoveJson>(value) {
        return Err(GameError::illegal_move_at(stray.pointer, stray.detail));
    }
    G::parse_move(state, value)
}

/// The first field of `value` (when it is an object) that the schema of `T`
/// does not name, in the object's order.
pub fn unknown_field<T: JsonSchema>(value: &Value) -> Option<UnknownField> {
    let object = value.as_object()?;
    let known = field_names::<T>();
    let stray = object.keys().find(|key| !known.contains(key))?;
    Some(UnknownField {
        pointer: format!("/{}", super::location::pointer_token(stray)),
        detail: format!(
            "unknown field {stray:?}: {} has only {}",
            T::schema_name(),
            known.join(", ")
        ),
    })
}

/// Each type's property names, by schemars' schema id.
type FieldNames = HashMap<Cow<'static, str>, Arc<Vec<String>>>;

/// The property names of `T`'s schema, computed once per type (schemars'
/// schema id names the type): the fields a body of `T` may have, as the
/// contract publishes them.
pub fn field_names<T: JsonSchema>() -> Arc<Vec<String>> {
    static NAMES: LazyLock<RwLock<FieldNames>> = LazyLock::new(Default::default);
    let id = T::schema_id();
    if let Some(names) = NAMES.read().unwrap_or_else(|e| e.into_inner()).get(&id) {
        return names.clone();
    }
    let schema = schemars::schema_for!(T);
    let names: Vec<String> = schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|properties| properties.keys().cloned().collect())
        .unwrap_or_default();
    let names = Arc::new(names);
    NAMES
        .write()
        .unwrap_or_else(|e| e.into_inner())
        .insert(id, names.clone());
    names
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Point {
        x: i32,
        y: Option<i32>,
    }

    #[test]
    fn named_fields_pass_and_a_stray_one_is_pointed_at() {
        assert_eq!(unknown_field::<Point>(&json!({"x": 1, "y": null})), None);
        assert_eq!(unknown_field::<Point>(&json!({"x": 1})), None);
        assert_eq!(unknown_field::<Point>(&json!("x")), None);
        let stray = unknown_field::<Point>(&json!({"x": 1, "a/b~": 2})).unwrap();
        assert_eq!(stray.pointer, "/a~1b~0");
        assert_eq!(stray.detail, "unknown field \"a/b~\": Point has only x, y");
    }
}
