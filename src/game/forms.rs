//! The forms a reply's state, move and outcome take: one type parameter of
//! every reply ([`super::wire`]). The service writes replies in
//! [`AnyForms`], every form a JSON value the game wrote; the contract
//! publishes each game's replies from the same types in that game's
//! [`GameForms`], so a game's `ReversiPlayReply` is `PlayReply`'s own row
//! with `ReversiState`, `ReversiMove` and `ReversiOutcome` in it, named by
//! the game (`{F}PlayReply`), rather than a generic schema patched field
//! by field.

use super::erased::Erased;
use super::wire::{LevelId, OutcomeJson};
use super::{DynGame, Game};
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
    /// A new game's options, as a request sends them.
    type Options: JsonSchema + fmt::Debug;
    /// A move as a request sends it: its notation or a move object.
    type MoveInput: JsonSchema + fmt::Debug;
    /// A move in a request's list of them, as the schema says it (for any
    /// game a string or an object, which a client generator can type).
    type ListedMoveInput: JsonSchema;
    /// A bot level as a request names it (`ReversiLevel`).
    type Level: JsonSchema + fmt::Debug;
}

/// The forms the service reads and writes requests and replies in (only
/// [`AnyForms`]): the bound under which they are (de)serialized, the
/// contract's game forms being for schemas alone.
pub trait WireForms:
    Forms<
    State = Value,
    Move = Value,
    Outcome = Value,
    Options = Value,
    MoveInput = Value,
    Level = LevelId,
>
{
}

impl WireForms for AnyForms {}

/// Every form a JSON value, as the service writes replies; the generic
/// rows of the contract (any game's state), whose names carry no game.
#[derive(Clone, Copy, Debug)]
pub struct AnyForms;

impl Forms for AnyForms {
    type State = Value;
    type ListedState = Map<String, Value>;
    type Move = Value;
    type Outcome = Value;
    type Options = Value;
    type MoveInput = Value;
    type ListedMoveInput = AnyMoveInput;
    type Level = LevelId;
}

/// Any game's move as a request gives it (the schema of a generic `moves`
/// item; each game's own names its notation and move object).
#[derive(JsonSchema)]
#[schemars(inline)]
#[serde(untagged)]
#[allow(dead_code)]
pub enum AnyMoveInput {
    /// Its notation.
    Notation(String),
    /// The move object as the service writes it.
    Object(Map<String, Value>),
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

/// Game `G`'s new-game options (`G::NewOptions`).
pub struct OptionsOf<G>(PhantomData<G>);

/// A move of `G` as a request sends it: its notation, the move object, or
/// any of the move object's fields that name one move.
pub struct MoveInputOf<G>(PhantomData<G>);

/// Some of the fields of `G`'s move object (`ReversiMoveInput`).
pub struct PartialMoveOf<G>(PhantomData<G>);

/// A level of `G`: a named one (with options after a colon), or a
/// numbered rung of its ladder as an integer or a string (`ReversiLevel`).
pub struct LevelOf<G>(PhantomData<G>);

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

marker!(
    GameForms,
    StateOf,
    MoveOf,
    OutcomeOf,
    OptionsOf,
    MoveInputOf,
    LevelOf
);

impl<G: Game> Forms for GameForms<G> {
    type State = StateOf<G>;
    type ListedState = StateOf<G>;
    type Move = MoveOf<G>;
    type Outcome = OutcomeOf<G>;
    type Options = OptionsOf<G>;
    type MoveInput = MoveInputOf<G>;
    type ListedMoveInput = MoveInputOf<G>;
    type Level = LevelOf<G>;
}

/// A game's name as its schemas start (`reversi` → `Reversi`).
pub fn schema_prefix(id: &str) -> String {
    let mut chars = id.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().collect::<String>() + chars.as_str())
        .unwrap_or_default()
}

/// A marker whose schema is the game's own type's, under its name: the
/// same definition whichever of the two a row names.
macro_rules! same_schema_as {
    ($($marker:ident => $own:ident),+) => {$(
        impl<G: Game> JsonSchema for $marker<G> {
            fn schema_name() -> Cow<'static, str> {
                G::$own::schema_name()
            }

            fn schema_id() -> Cow<'static, str> {
                G::$own::schema_id()
            }

            fn json_schema(generator: &mut SchemaGenerator) -> Schema {
                G::$own::json_schema(generator)
            }
        }
    )+};
}

same_schema_as!(StateOf => StateJson, MoveOf => MoveJson, OptionsOf => NewOptions);

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

impl<G: Game> JsonSchema for MoveInputOf<G> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        format!("{}AnyMoveInput", schema_prefix(G::info().id)).into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "anyOf": [
                {"type": "string", "description": "The move's notation, as a person types it."},
                generator.subschema_for::<MoveOf<G>>(),
                generator.subschema_for::<PartialMoveOf<G>>(),
            ],
        })
    }
}

impl<G: Game> JsonSchema for PartialMoveOf<G> {
    fn schema_name() -> Cow<'static, str> {
        format!("{}MoveInput", schema_prefix(G::info().id)).into()
    }

    fn schema_id() -> Cow<'static, str> {
        format!("gamebot::PartialMoveOf<{}>", G::info().id).into()
    }

    /// The fields of the move object the service writes, any of them, as
    /// long as those given name one move; a field the object does not have
    /// is refused. Their forms are checked by the game's reader, which
    /// accepts what a person types (surrounding spaces, either case), so the
    /// written form's patterns are left out.
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let mut schema = G::MoveJson::json_schema(generator).to_value();
        let Some(object) = schema.as_object_mut() else {
            return json_schema!(true);
        };
        object.remove("required");
        if let Some(Value::Object(properties)) = object.get_mut("properties") {
            for property in properties.values_mut() {
                if let Some(field) = property.as_object_mut() {
                    field.remove("pattern");
                }
            }
        }
        let written = object
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        object.insert(
            "description".into(),
            json!(format!(
                "{written} As a request sends it: any of the move object's fields, as long as those given name one legal move and agree with each other; no other field."
            )),
        );
        object.insert("additionalProperties".into(), json!(false));
        object.insert("minProperties".into(), json!(1));
        Schema::try_from(schema).unwrap_or_else(|_| json_schema!(true))
    }
}

impl<G: Game> JsonSchema for LevelOf<G> {
    fn schema_name() -> Cow<'static, str> {
        format!("{}Level", schema_prefix(G::info().id)).into()
    }

    fn schema_id() -> Cow<'static, str> {
        format!("gamebot::LevelOf<{}>", G::info().id).into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let listing = Erased::<G>::VIEW.listing();
        let names: Vec<&str> = listing.levels.iter().map(|level| level.id).collect();
        let described: Vec<String> = listing
            .levels
            .iter()
            .map(|level| format!("`{}`: {}", level.id, level.description))
            .collect();
        let mut choices = vec![
            json!({"type": "string", "enum": names, "description": "A named level."}),
            json!({
                "type": "string",
                "pattern": format!("^({}):[a-z_]+=[^,]+(,[a-z_]+=[^,]+)*$", names.join("|")),
                "description": "A named level with options (`norvig:depth=8`).",
            }),
        ];
        let top = listing.numbered_levels.len();
        if top > 0 {
            choices.push(json!({
                "type": "integer",
                "minimum": 1,
                "maximum": top,
                "description": "A numbered level, weakest first (`GET /v1/games` gives each one's measured rating).",
            }));
            choices.push(json!({
                "type": "string",
                "pattern": "^[0-9]+$",
                "description": format!("A numbered level written as a string, \"1\" to \"{top}\"."),
            }));
        }
        json_schema!({
            "description": format!(
                "A {} bot level (default `{}`). {}",
                G::info().name,
                listing.default_level,
                described.join("; ")
            ),
            "anyOf": choices,
        })
    }
}
