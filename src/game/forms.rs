//! The forms a reply's state, move and outcome take: one type parameter of
//! every reply ([`super::wire`]). The service writes replies in
//! [`AnyForms`], every form a JSON value the game wrote; the contract
//! publishes each game's replies from the same types in that game's
//! [`GameForms`], so a game's `ReversiPlayReply` is `PlayReply`'s own row
//! with `ReversiState`, `ReversiMove` and `ReversiOutcome` in it, named by
//! the game (`{F}PlayReply`), rather than a generic schema patched field
//! by field.

use super::wire::OutcomeJson;
use super::Game;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde_json::{json, Map, Value};
use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

/// What a reply's forms are: its state, move object and outcome, each a
/// type whose schema the contract publishes.
pub trait Forms: JsonSchema {
    /// A state (`ReversiState`).
    type State: JsonSchema + Clone + fmt::Debug;
    /// A state in a list of states, as the schema says it: the game's
    /// state, or for any game an object (a client generator then types
    /// the list's items, where it would cast a list of anything).
    type ListedState: JsonSchema;
    /// A move object (`ReversiMove`).
    type Move: JsonSchema + Clone + fmt::Debug;
    /// How a game stands (`ReversiOutcome`).
    type Outcome: JsonSchema + Clone + fmt::Debug;
}

/// Every form a JSON value, as the service writes replies; the generic
/// rows of the contract (any game's state), whose names carry no game.
#[derive(Clone, Copy, Debug)]
pub struct AnyForms;

impl Forms for AnyForms {
    type State = Value;
    type ListedState = Map<String, Value>;
    type Move = Value;
    type Outcome = Value;
}

impl JsonSchema for AnyForms {
    /// Empty, so that `{F}PlayReply` is `PlayReply`.
    fn schema_name() -> Cow<'static, str> {
        "".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!(true)
    }
}

/// Game `G`'s forms, for its typed rows: its `StateJson`, `MoveJson` and
/// outcome (its sides, termination and tally). Its name is the game's
/// (`Reversi`), which prefixes every row's.
pub struct GameForms<G>(PhantomData<G>);

/// Game `G`'s state form.
pub struct StateOf<G>(PhantomData<G>);

/// Game `G`'s move object.
pub struct MoveOf<G>(PhantomData<G>);

/// How a game of `G` stands: the generic outcome with `G`'s sides, its
/// termination enum and its tally per side (`ReversiOutcome`).
pub struct OutcomeOf<G>(PhantomData<G>);

/// The markers are names of types, never values: cloned and printed as
/// such whatever `G` is.
macro_rules! marker {
    ($($marker:ident),+) => {$(
        impl<G> Clone for $marker<G> {
            fn clone(&self) -> Self {
                $marker(PhantomData)
            }
        }
        impl<G> fmt::Debug for $marker<G> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(stringify!($marker))
            }
        }
    )+};
}

marker!(GameForms, StateOf, MoveOf, OutcomeOf);

impl<G: Game> Forms for GameForms<G> {
    type State = StateOf<G>;
    type ListedState = StateOf<G>;
    type Move = MoveOf<G>;
    type Outcome = OutcomeOf<G>;
}

/// A game's name as its schemas start (`reversi` → `Reversi`).
pub fn schema_prefix(id: &str) -> String {
    let mut chars = id.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().collect::<String>() + chars.as_str())
        .unwrap_or_default()
}

impl<G: Game> JsonSchema for GameForms<G> {
    fn schema_name() -> Cow<'static, str> {
        schema_prefix(G::info().id).into()
    }

    fn schema_id() -> Cow<'static, str> {
        format!("gamebot::GameForms<{}>", G::info().id).into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!(true)
    }
}

impl<G: Game> JsonSchema for StateOf<G> {
    fn schema_name() -> Cow<'static, str> {
        G::StateJson::schema_name()
    }

    fn schema_id() -> Cow<'static, str> {
        G::StateJson::schema_id()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        G::StateJson::json_schema(generator)
    }
}

impl<G: Game> JsonSchema for MoveOf<G> {
    fn schema_name() -> Cow<'static, str> {
        G::MoveJson::schema_name()
    }

    fn schema_id() -> Cow<'static, str> {
        G::MoveJson::schema_id()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        G::MoveJson::json_schema(generator)
    }
}

impl<G: Game> JsonSchema for OutcomeOf<G> {
    fn schema_name() -> Cow<'static, str> {
        format!("{}Outcome", schema_prefix(G::info().id)).into()
    }

    fn schema_id() -> Cow<'static, str> {
        format!("gamebot::OutcomeOf<{}>", G::info().id).into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let info = G::info();
        let mut outcome = OutcomeJson::<String>::json_schema(generator).to_value();
        outcome["description"] = json!(format!("How a {} game stands.", info.name));
        outcome["properties"]["winner"] = json!({
            "type": "string",
            "enum": info.sides,
            "description": outcome["properties"]["winner"]["description"],
        });
        let mut termination = generator.subschema_for::<G::Termination>().to_value();
        termination["description"] = outcome["properties"]["termination"]["description"].clone();
        outcome["properties"]["termination"] = termination;
        let sides: Map<String, Value> = info
            .sides
            .iter()
            .map(|side| (side.to_string(), json!({"type": "integer"})))
            .collect();
        outcome["properties"]["score"] = json!({
            "type": "object",
            "description": format!("The final tally per side: {}.", info.score_counts),
            "properties": sides,
            "required": info.sides,
            "additionalProperties": false,
        });
        Schema::try_from(outcome).unwrap_or_else(|_| json_schema!(true))
    }
}
