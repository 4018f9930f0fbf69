//! The OpenAPI 3.1 document, generated from the code: the request types of
//! [`super::requests`], the replies of the type-erased view and each
//! game's own JSON forms (all deriving `schemars::JsonSchema`, whose JSON
//! Schema 2020-12 is OpenAPI 3.1's dialect), the route table and the
//! registry. Every game gets operations of its own whose bodies name its
//! types (`reversiBotMove` takes a `ReversiBotMoveRequest` whose `state` is
//! a `ReversiState`), beside the generic `/v1/games/{game}/…` ones.
//! `GET /openapi.yaml` serves it and the repository's `openapi.yaml` is the
//! same bytes (a test keeps it so; `gamebot openapi` writes it).

use super::requests::{
    AnalyzeRequest, BotMoveRequest, NewRequest, PlayRequest, ReplayRequest, ReviewRequest,
    StateRequest,
};
use super::review::ReviewReply;
use super::Problem;
use crate::game::erased::{
    AnalyzeReply, BotReply, GameListing, GameSchemas, LegalMovesReply, NewReply, OutcomeJson,
    PlayReply, ReplayReply,
};
use crate::game::placement::{self, Placement, PlacementRequest};
use crate::game::{DynGame, SearchReport};
use crate::games;
use schemars::generate::SchemaSettings;
use schemars::transform::{transform_subschemas, ReplaceBoolSchemas, Transform};
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::Serialize;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The document as YAML, built once.
pub fn openapi_yaml() -> &'static str {
    static YAML: OnceLock<String> = OnceLock::new();
    YAML.get_or_init(|| {
        serde_norway::to_string(&document()).expect("the OpenAPI document serializes")
    })
}

/// The game operations every game has, as path suffixes, with what each does.
pub const GAME_OPERATIONS: &[GameOperation] = &[
    GameOperation {
        suffix: "new",
        name: "New",
        summary: "A new game's starting state.",
        request: "NewRequest",
        reply: "NewReply",
        reply_description: "The starting state.",
        finished_game_conflicts: false,
        body_required: false,
    },
    GameOperation {
        suffix: "legal-moves",
        name: "LegalMoves",
        summary: "Every legal move in a state, and how the game stands.",
        request: "StateRequest",
        reply: "LegalMovesReply",
        reply_description: "The legal moves (none when the game is over).",
        finished_game_conflicts: false,
        body_required: true,
    },
    GameOperation {
        suffix: "play",
        name: "Play",
        summary: "Plays a move and returns the new state.",
        request: "PlayRequest",
        reply: "PlayReply",
        reply_description: "The move played and the new state.",
        finished_game_conflicts: true,
        body_required: true,
    },
    GameOperation {
        suffix: "bot-move",
        name: "BotMove",
        summary: "The bot chooses a move at a level; returns it with the new state.",
        request: "BotMoveRequest",
        reply: "BotMoveReply",
        reply_description: "The chosen move, the new state, and what the search did.",
        finished_game_conflicts: true,
        body_required: true,
    },
    GameOperation {
        suffix: "analyze",
        name: "Analyze",
        summary: "The best moves with scores and expected lines.",
        request: "AnalyzeRequest",
        reply: "AnalyzeReply",
        reply_description: "The `top` best moves, best first.",
        finished_game_conflicts: true,
        body_required: true,
    },
    GameOperation {
        suffix: "replay",
        name: "Replay",
        summary: "A game played again from its start and its moves (a list or the game's one-line record): the final state and outcome, the record, and every state when asked. The first bad move is 422 with `pointer` `/moves/<index>` (or `/record`).",
        request: "ReplayRequest",
        reply: "ReplayReply",
        reply_description: "The final state and how the game stands, the moves and the record.",
        finished_game_conflicts: false,
        body_required: false,
    },
    GameOperation {
        suffix: "review",
        name: "Review",
        summary: "A whole game reviewed: every position analysed (in parallel on the server's workers) and every move judged by the win probability it lost (Number Crush: the points), labelled `best` to `blunder`, with each side's accuracy. With `Accept: application/x-ndjson` the answer streams one line per move as it is judged (`{\"ply\": …}`), then `{\"summary\": …}` (or `{\"error\": problem}`). A bad move is 422 with `pointer` `/moves/<index>` (or `/record`), as in `replay`.",
        request: "ReviewRequest",
        reply: "ReviewReply",
        reply_description: "Every move judged, in order, and each side's accuracy.",
        finished_game_conflicts: false,
        body_required: true,
    },
];

/// One game operation: its path suffix and how the document describes it.
#[derive(Clone, Copy, Debug)]
pub struct GameOperation {
    /// The last path segment (`bot-move`).
    pub suffix: &'static str,
    /// The operation's name in ids and schema names (`BotMove`).
    pub name: &'static str,
    /// One line on what it does.
    pub summary: &'static str,
    /// The request body's schema name, without the game's prefix.
    pub request: &'static str,
    /// The reply's schema name, without the game's prefix.
    pub reply: &'static str,
    /// What the 200 answer holds.
    pub reply_description: &'static str,
    /// Whether a finished game answers 409.
    pub finished_game_conflicts: bool,
    /// Whether the request needs a body (`new` and `replay` take none for
    /// their defaults).
    pub body_required: bool,
}

/// The document's top level, in the order people read it.
#[derive(Serialize)]
struct Document {
    openapi: &'static str,
    info: Value,
    servers: Value,
    tags: Vec<Value>,
    paths: BTreeMap<String, BTreeMap<&'static str, Value>>,
    components: Components,
}

#[derive(Serialize)]
struct Components {
    parameters: Value,
    responses: Value,
    schemas: Map<String, Value>,
    #[serde(rename = "securitySchemes")]
    security_schemes: Value,
}

const DESCRIPTION: &str = "\
A stateless service: every request carries the whole game state, so any
number of replicas can serve any request.

Every game has operations of its own (`/v1/games/reversi/bot-move`, tagged
with the game's id) whose bodies name that game's types (`ReversiState`,
`ReversiMove`, `ReversiOutcome`): a generated client gets
`reversi_bot_move(...)` taking and returning Reversi types. The generic
`/v1/games/{game}/…` operations take any game (tag `any game`), and are
where the games' text forms (`text/plain`) are described.

A move in a request may be the game's notation string or its JSON object;
answers always give the object, which includes `notation`.

Every error is `application/problem+json` (RFC 9457) with a stable machine
`code` and, where the problem is in one place of the body, a JSON `pointer`
that resolves in the body sent.

Searches run on a bounded compute pool. When it is full the answer is 503
`overloaded` with `Retry-After`, at once. `time_ms`, `max_depth` and
`max_nodes` above the server's caps are cut to them; `search.clamped` names
each cut field and a `Warning` header says so. With a `seed` and a depth or
node budget (or a numbered level) the same request always gives the same
answer; a pure time budget cannot be deterministic.
";

/// The whole document.
fn document() -> Document {
    let mut generator = SchemaSettings::draft2020_12()
        .with(|s| s.definitions_path = "/components/schemas/".into())
        .into_generator();
    let mut schemas = shared_schemas(&mut generator);
    let mut paths = shared_paths();
    for game in games::REGISTRY {
        let own = game.schemas(&mut generator);
        game_schemas(*game, &own, &mut generator, &mut schemas);
        for operation in GAME_OPERATIONS {
            paths
                .entry(format!("/v1/games/{}/{}", game.info().id, operation.suffix))
                .or_default()
                .insert("post", game_operation(*game, operation));
        }
    }
    for (name, schema) in generator.take_definitions(true) {
        schemas.entry(name).or_insert(schema);
    }
    for schema in schemas.values_mut() {
        for_client_generators(schema);
    }
    for (path, item) in paths.iter_mut() {
        if path.starts_with("/v1/") {
            for operation in item.values_mut() {
                with_api_keys(operation);
            }
        }
    }
    let mut tags = vec![
        json!({"name": "any game", "description": "The operations that take any game by its id in the path."}),
    ];
    tags.extend(games::REGISTRY.iter().map(|game| {
        let info = game.info();
        json!({"name": info.id, "description": format!("{}: its own typed operations.", info.name)})
    }));
    tags.push(json!({"name": "service", "description": "Health, metrics, this document and the playground."}));
    Document {
        openapi: "3.1.0",
        info: json!({
            "title": "gamebot",
            "version": "1.0.0",
            "summary": "Knows the rules of five games and plays them.",
            "description": DESCRIPTION,
            "license": {"name": "MIT", "identifier": "MIT"},
        }),
        servers: json!([{"url": "http://localhost:8080"}]),
        tags,
        paths,
        components: Components {
            parameters: parameters(),
            responses: problem_responses(),
            schemas,
            security_schemes: json!({
                "ApiKey": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "An API key, when the server is started with `--api-keys-file` (it is open otherwise): `Authorization: Bearer <key>` on every `/v1` request, each key with its own requests-a-second limit.",
                },
            }),
        },
    }
}

/// Rewrites a component schema into forms that client generators read
/// (openapi-python-client, openapi-typescript) and that validate the same
/// values: a `true` schema (schemars' `serde_json::Value`) becomes `{}`, and
/// a `oneOf` of documented string constants (schemars' form for an enum
/// whose variants have doc comments) becomes a string `enum`, the variants'
/// docs moving into the description. openapi-python-client cannot read a
/// boolean schema, and parses a `oneOf` of constants by trying only the
/// first one.
fn for_client_generators(value: &mut Value) {
    let Ok(mut schema) = Schema::try_from(value.clone()) else {
        return;
    };
    let mut plain_booleans = ReplaceBoolSchemas::default();
    plain_booleans.skip_additional_properties = true;
    plain_booleans.transform(&mut schema);
    PlainStringEnums.transform(&mut schema);
    *value = schema.to_value();
}

/// Turns a `oneOf` of string constants, each with its description, into
/// a string `enum` whose description lists them.
struct PlainStringEnums;

impl Transform for PlainStringEnums {
    fn transform(&mut self, schema: &mut Schema) {
        transform_subschemas(self, schema);
        let Some(variants) = schema.get("oneOf").and_then(constant_strings) else {
            return;
        };
        let mut description = schema
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        description.push('\n');
        for (constant, meaning) in &variants {
            description.push_str(&format!("\n- `{constant}`"));
            if !meaning.is_empty() {
                description.push_str(&format!(": {meaning}"));
            }
        }
        schema.remove("oneOf");
        schema.insert("type".into(), json!("string"));
        schema.insert(
            "enum".into(),
            json!(variants.iter().map(|(c, _)| c).collect::<Vec<_>>()),
        );
        schema.insert("description".into(), json!(description.trim_start()));
    }
}

/// The constants and their one-line meanings of a `oneOf` whose every
/// branch is a string `const` (with a `type` and a `description` at most).
fn constant_strings(one_of: &Value) -> Option<Vec<(String, String)>> {
    let branches = one_of.as_array().filter(|branches| !branches.is_empty())?;
    branches
        .iter()
        .map(|branch| {
            let branch = branch.as_object()?;
            let known = |key: &String| matches!(key.as_str(), "const" | "type" | "description");
            if !branch.keys().all(known) || branch.get("type").is_some_and(|t| t != "string") {
                return None;
            }
            let meaning = branch
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let meaning = meaning.split_whitespace().collect::<Vec<_>>().join(" ");
            Some((branch.get("const")?.as_str()?.to_string(), meaning))
        })
        .collect()
}

/// The schema of `T` in `generator`'s dialect, as a `$ref` or inline.
fn schema<T: JsonSchema>(generator: &mut SchemaGenerator) -> Value {
    generator.subschema_for::<T>().to_value()
}

/// A reference to a component schema.
fn reference(name: &str) -> Value {
    json!({"$ref": format!("#/components/schemas/{name}")})
}

/// The schemas that do not depend on a game: errors, listings, the search
/// report, and the generic requests and replies (any game's state).
fn shared_schemas(generator: &mut SchemaGenerator) -> Map<String, Value> {
    let mut schemas = Map::new();
    let mut add = |name: &str, value: Value| {
        schemas.insert(name.to_string(), value);
    };
    add("Problem", schema::<Problem>(generator));
    add("Search", schema::<SearchReport>(generator));
    add("Outcome", schema::<OutcomeJson<String>>(generator));
    add(
        "GameList",
        json!({
            "type": "object",
            "required": ["games"],
            "properties": {"games": {"type": "array", "items": schema::<GameListing>(generator)}},
        }),
    );
    add(
        "Health",
        json!({
            "type": "object",
            "required": ["status"],
            "properties": {
                "status": {"type": "string", "enum": ["ok", "ready", "draining"]},
                "workers": {"type": "integer", "description": "Compute workers."},
                "jobs": {"type": "integer", "description": "Jobs running or queued."},
            },
        }),
    );
    add("PlacementRequest", schema::<PlacementRequest>(generator));
    add("Placement", schema::<Placement>(generator));
    add("NewRequest", schema::<NewRequest>(generator));
    add("StateRequest", schema::<StateRequest>(generator));
    add("PlayRequest", schema::<PlayRequest>(generator));
    add("BotMoveRequest", schema::<BotMoveRequest>(generator));
    add("AnalyzeRequest", schema::<AnalyzeRequest>(generator));
    add("NewReply", schema::<NewReply>(generator));
    add("LegalMovesReply", schema::<LegalMovesReply>(generator));
    add("PlayReply", schema::<PlayReply>(generator));
    add("BotMoveReply", schema::<BotReply>(generator));
    add("AnalyzeReply", schema::<AnalyzeReply>(generator));
    add("ReplayRequest", schema::<ReplayRequest>(generator));
    add("ReplayReply", schema::<ReplayReply>(generator));
    add("ReviewRequest", schema::<ReviewRequest>(generator));
    add("ReviewReply", schema::<ReviewReply>(generator));
    for value in schemas.values_mut() {
        inline_root(value, generator);
    }
    schemas
}

/// A component added through `subschema_for` is a `$ref` to its own
/// definition; the named component is the definition itself.
fn inline_root(value: &mut Value, generator: &SchemaGenerator) {
    let Some(target) = value["$ref"].as_str() else {
        return;
    };
    let name = target.trim_start_matches("#/components/schemas/");
    if let Some(definition) = generator.definitions().get(name) {
        *value = definition.clone();
    }
}

/// The definition a `$ref` made by `generator` points at.
fn definition_mut<'a>(
    reference: &Value,
    generator: &'a mut SchemaGenerator,
) -> Option<&'a mut Map<String, Value>> {
    let name = reference["$ref"]
        .as_str()?
        .trim_start_matches("#/components/schemas/");
    generator.definitions_mut().get_mut(name)?.as_object_mut()
}

/// A move object as a request may send it: the fields of the move object
/// the service writes (`mv`), any of them, as long as those given name one
/// move; a field the object does not have is refused. Their forms are
/// checked by the game's reader, which accepts what a person types
/// (surrounding spaces, either case), so the written form's patterns are
/// left out.
fn move_input_schema(mv: &Value, generator: &SchemaGenerator) -> Value {
    let name = mv["$ref"]
        .as_str()
        .unwrap_or_default()
        .trim_start_matches("#/components/schemas/");
    let mut schema = generator
        .definitions()
        .get(name)
        .cloned()
        .unwrap_or_else(|| mv.clone());
    let Some(object) = schema.as_object_mut() else {
        return schema;
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
    schema
}

/// The game's name as schema names start with it (`reversi` → `Reversi`).
fn prefix(game: &dyn DynGame) -> String {
    let id = game.info().id;
    let mut chars = id.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().collect::<String>() + chars.as_str())
        .unwrap_or_default()
}

/// A copy of a generic object schema with some properties replaced by the
/// game's types; each keeps the generic field's description.
fn specialize(
    schemas: &Map<String, Value>,
    generic: &str,
    description: String,
    fields: &[(&str, Value)],
) -> Value {
    let mut schema = schemas[generic].clone();
    schema["description"] = json!(description);
    for (field, typed) in fields {
        let generic_field = &schema["properties"][*field];
        let mut typed = typed.clone();
        if let Some(text) = generic_field.get("description") {
            typed["description"] = text.clone();
        }
        schema["properties"][*field] = typed;
    }
    schema
}

/// Every schema of one game: its own forms, and its typed requests and replies.
fn game_schemas(
    game: &dyn DynGame,
    own: &GameSchemas,
    generator: &mut SchemaGenerator,
    schemas: &mut Map<String, Value>,
) {
    let info = game.info();
    let name = prefix(game);
    let state = own.state.clone().to_value();
    if let Some(definition) = definition_mut(&state, generator) {
        definition.insert("additionalProperties".into(), json!(false));
    }
    let mv = own.mv.clone().to_value();
    schemas.insert(
        format!("{name}MoveInput"),
        move_input_schema(&mv, generator),
    );
    if let Some(definition) = definition_mut(&mv, generator) {
        definition.insert("additionalProperties".into(), json!(false));
    }
    let move_input = json!({
        "anyOf": [
            {"type": "string", "description": "The move's notation, as a person types it."},
            mv,
            reference(&format!("{name}MoveInput")),
        ],
    });
    let outcome = outcome_schema(game, own, schemas);
    schemas.insert(format!("{name}Outcome"), outcome);
    let outcome = reference(&format!("{name}Outcome"));
    let search = reference("Search");
    let typed = |what: &str| format!("{}: {what}", info.name);

    let new_request = specialize(
        schemas,
        "NewRequest",
        typed("a new game's options."),
        &[("options", nullable(own.new_options.clone().to_value()))],
    );
    let state_request = specialize(
        schemas,
        "StateRequest",
        typed("a state."),
        &[("state", state.clone())],
    );
    let play_request = specialize(
        schemas,
        "PlayRequest",
        typed("a state and the move to play."),
        &[("state", state.clone()), ("move", move_input.clone())],
    );
    let bot_options = bot_option_fields(&own.bot_options.clone().to_value(), generator);
    let with_options = |mut request: Value| {
        for (field, schema) in &bot_options {
            request["properties"][field] = schema.clone();
        }
        request
    };
    schemas.insert(format!("{name}Level"), level_schema(game));
    let bot_request = with_options(specialize(
        schemas,
        "BotMoveRequest",
        typed("a state and the bot's level and budget."),
        &[
            ("state", state.clone()),
            ("level", nullable(reference(&format!("{name}Level")))),
        ],
    ));
    let analyze_request = with_options(specialize(
        schemas,
        "AnalyzeRequest",
        typed("a state and the analysis' budget."),
        &[("state", state.clone())],
    ));
    let moves = json!({"type": "array", "items": mv.clone()});
    let new_reply = specialize(
        schemas,
        "NewReply",
        typed("a new game."),
        &[("state", state.clone())],
    );
    let legal_reply = specialize(
        schemas,
        "LegalMovesReply",
        typed("the legal moves."),
        &[("moves", moves), ("outcome", outcome.clone())],
    );
    let play_reply = specialize(
        schemas,
        "PlayReply",
        typed("the move played and the new state."),
        &[
            ("move", mv.clone()),
            ("state", state.clone()),
            ("outcome", outcome.clone()),
        ],
    );
    let bot_reply = specialize(
        schemas,
        "BotMoveReply",
        typed("the bot's move, the new state and what the search did."),
        &[
            ("move", mv.clone()),
            ("state", state.clone()),
            ("outcome", outcome.clone()),
            ("search", search.clone()),
        ],
    );
    let replay_request = specialize(
        schemas,
        "ReplayRequest",
        typed("a start and the moves to play from it."),
        &[
            ("options", nullable(own.new_options.clone().to_value())),
            ("state", nullable(state.clone())),
            (
                "moves",
                nullable(json!({"type": "array", "items": move_input.clone()})),
            ),
        ],
    );
    let replay_reply = specialize(
        schemas,
        "ReplayReply",
        typed("a game played again."),
        &[
            ("state", state.clone()),
            ("outcome", outcome.clone()),
            ("moves", json!({"type": "array", "items": mv.clone()})),
            ("states", json!({"type": "array", "items": state.clone()})),
        ],
    );
    let review_request = specialize(
        schemas,
        "ReviewRequest",
        typed("a game to review and the budget of each position."),
        &[
            ("options", nullable(own.new_options.clone().to_value())),
            ("state", nullable(state.clone())),
            (
                "moves",
                nullable(json!({"type": "array", "items": move_input.clone()})),
            ),
        ],
    );
    let reviewed = resolve(
        &schemas["ReviewReply"]["properties"]["plies"]["items"].clone(),
        generator,
    );
    let mut reviewed_move = reviewed.clone();
    reviewed_move["properties"]["move"] = mv.clone();
    schemas.insert(format!("{name}PlyReview"), reviewed_move);
    let review_reply = specialize(
        schemas,
        "ReviewReply",
        typed("every move judged."),
        &[(
            "plies",
            json!({"type": "array", "items": reference(&format!("{name}PlyReview"))}),
        )],
    );
    let analyzed = schemas["AnalyzeReply"]["properties"]["moves"]["items"].clone();
    let analyzed = resolve(&analyzed, generator);
    let mut analyzed_move = analyzed.clone();
    analyzed_move["properties"]["move"] = mv;
    analyzed_move["properties"]["score"]["description"] =
        json!(format!("The move's score in {}.", info.score_unit));
    schemas.insert(format!("{name}AnalyzedMove"), analyzed_move);
    let analyze_reply = specialize(
        schemas,
        "AnalyzeReply",
        typed("the best moves, best first."),
        &[
            (
                "moves",
                json!({"type": "array", "items": reference(&format!("{name}AnalyzedMove"))}),
            ),
            ("search", search),
        ],
    );
    for (suffix, schema) in [
        ("NewRequest", new_request),
        ("StateRequest", state_request),
        ("PlayRequest", play_request),
        ("BotMoveRequest", bot_request),
        ("AnalyzeRequest", analyze_request),
        ("NewReply", new_reply),
        ("LegalMovesReply", legal_reply),
        ("PlayReply", play_reply),
        ("BotMoveReply", bot_reply),
        ("AnalyzeReply", analyze_reply),
        ("ReplayRequest", replay_request),
        ("ReplayReply", replay_reply),
        ("ReviewRequest", review_request),
        ("ReviewReply", review_reply),
    ] {
        schemas.insert(format!("{name}{suffix}"), schema);
    }
}

/// The game's levels: a named one (with options after a colon), or a
/// numbered rung of its ladder as an integer or a string.
fn level_schema(game: &dyn DynGame) -> Value {
    let listing = game.listing();
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
    json!({
        "description": format!(
            "A {} bot level (default `{}`). {}",
            game.info().name,
            listing.default_level,
            described.join("; ")
        ),
        "anyOf": choices,
    })
}

/// A schema that also admits null.
fn nullable(schema: Value) -> Value {
    json!({"anyOf": [schema, {"type": "null"}]})
}

/// The definition a `$ref` names, or the schema itself.
fn resolve(schema: &Value, generator: &SchemaGenerator) -> Value {
    match schema["$ref"].as_str() {
        Some(target) => {
            let name = target.trim_start_matches("#/components/schemas/");
            generator
                .definitions()
                .get(name)
                .cloned()
                .unwrap_or_else(|| schema.clone())
        }
        None => schema.clone(),
    }
}

/// The fields a game's bot options add to its bot and analysis requests
/// (Halma's `clock`), each with its schema.
fn bot_option_fields(options: &Value, generator: &SchemaGenerator) -> Vec<(String, Value)> {
    let definition = resolve(options, generator);
    definition["properties"]
        .as_object()
        .map(|fields| {
            fields
                .iter()
                .map(|(name, schema)| (name.clone(), schema.clone()))
                .collect()
        })
        .unwrap_or_default()
}

/// The game's outcome: the generic one with the game's sides, its
/// termination enum and its tally per side.
fn outcome_schema(game: &dyn DynGame, own: &GameSchemas, schemas: &Map<String, Value>) -> Value {
    let info = game.info();
    let mut outcome = schemas["Outcome"].clone();
    outcome["description"] = json!(format!("How a {} game stands.", info.name));
    outcome["properties"]["winner"] = json!({
        "type": "string",
        "enum": info.sides,
        "description": outcome["properties"]["winner"]["description"],
    });
    let mut termination = own.termination.clone().to_value();
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
    outcome
}

/// The operation of one game.
fn game_operation(game: &dyn DynGame, operation: &GameOperation) -> Value {
    let info = game.info();
    let name = prefix(game);
    let mut responses = error_responses(operation.finished_game_conflicts, false);
    // The path names a game the server has: no 404 here.
    responses.remove("404");
    responses.insert(
        "200".into(),
        json!({
            "description": operation.reply_description,
            "content": {"application/json": {"schema": reference(&format!("{name}{}", operation.reply))}},
        }),
    );
    let mut body = json!({
        "required": operation.body_required,
        "content": {"application/json": {"schema": reference(&format!("{name}{}", operation.request))}},
    });
    if let Some(example) = example(game, operation.suffix) {
        body["content"]["application/json"]["example"] = example;
    }
    json!({
        "operationId": format!("{}{}", info.id, operation.name),
        "summary": format!("{} — {}", info.name, operation.summary),
        "tags": [info.id],
        "requestBody": body,
        "responses": responses,
    })
}

/// An example body for a game operation, from the game's own new state.
fn example(game: &dyn DynGame, suffix: &str) -> Option<Value> {
    let state = game.new_game(&Value::Null).ok()?.state;
    let first = game.legal_moves(&state).ok()?.moves.into_iter().next()?;
    Some(match suffix {
        "new" => json!({}),
        "legal-moves" => json!({"state": state}),
        "play" => json!({"state": state, "move": first["notation"]}),
        "bot-move" => json!({"state": state, "level": "1", "seed": 1}),
        "analyze" => json!({"state": state, "top": 3, "max_nodes": 20000}),
        "replay" => json!({"moves": [first["notation"]], "states": true}),
        "review" => json!({"moves": [first["notation"]], "max_nodes_per_ply": 20000}),
        _ => return None,
    })
}

/// The error answers of a game operation (or of one that takes no body).
fn error_responses(conflicts: bool, bodiless: bool) -> Map<String, Value> {
    let mut codes = vec![("404", "UnknownGame"), ("503", "Overloaded")];
    if !bodiless {
        codes.extend([
            ("400", "MalformedJson"),
            ("408", "RequestTimeout"),
            ("413", "PayloadTooLarge"),
            ("415", "UnsupportedMediaType"),
            ("422", "Unprocessable"),
        ]);
    }
    if conflicts {
        codes.push(("409", "GameOver"));
    }
    codes
        .into_iter()
        .map(|(status, name)| {
            (
                status.to_string(),
                json!({"$ref": format!("#/components/responses/{name}")}),
            )
        })
        .collect()
}

/// The operations that are not one game's: listings, the generic game
/// operations (with the text forms), health and the playground.
fn shared_paths() -> BTreeMap<String, BTreeMap<&'static str, Value>> {
    let mut paths: BTreeMap<String, BTreeMap<&'static str, Value>> = BTreeMap::new();
    let mut add = |path: &str, method: &'static str, operation: Value| {
        paths
            .entry(path.to_string())
            .or_default()
            .insert(method, operation);
    };
    add(
        "/v1/games",
        "get",
        json!({
            "operationId": "listGames",
            "summary": "Every game, its levels and its options for a new game.",
            "tags": ["any game"],
            "responses": {"200": {"description": "The games.", "content": {"application/json": {"schema": reference("GameList")}}}},
        }),
    );
    add(
        "/v1/games/{game}/rules",
        "get",
        json!({
            "operationId": "gameRules",
            "summary": "The game's rules, as Markdown.",
            "description": "The rules in the project's own words: the board and pieces, how they move, the notation with an example, how a game ends, the records, the text forms and the bot levels.",
            "tags": ["any game"],
            "parameters": [{"$ref": "#/components/parameters/Game"}],
            "responses": {
                "200": {"description": "The rules document.", "content": {"text/markdown": {"schema": {"type": "string"}}}},
                "404": {"$ref": "#/components/responses/UnknownGame"},
            },
        }),
    );
    add("/v1/games/{game}/placement", "post", placement_operation());
    for operation in GAME_OPERATIONS {
        add(
            &format!("/v1/games/{{game}}/{}", operation.suffix),
            "post",
            generic_operation(operation),
        );
    }
    for (path, id, summary, media, schema) in [
        ("/healthz", "healthz", "Liveness.", "application/json", reference("Health")),
        ("/metrics", "metrics", "Prometheus metrics (text exposition format).", "text/plain", json!({"type": "string"})),
        ("/openapi.yaml", "openapi", "This document.", "application/yaml", json!({"description": "The YAML text of this document."})),
        ("/", "playground", "The playground, a page where a person plays any game against the bot (it uses only this API).", "text/html", json!({"type": "string"})),
        ("/playground/app.js", "playgroundScript", "The playground's script.", "text/javascript", json!({"type": "string"})),
        ("/playground/style.css", "playgroundStyle", "The playground's style sheet.", "text/css", json!({"type": "string"})),
    ] {
        add(
            path,
            "get",
            json!({
                "operationId": id,
                "summary": summary,
                "tags": ["service"],
                "responses": {"200": {"description": summary, "content": {media: {"schema": schema}}}},
            }),
        );
    }
    add(
        "/readyz",
        "get",
        json!({
            "operationId": "readyz",
            "summary": "Readiness; 503 once shutdown has begun.",
            "tags": ["service"],
            "responses": {
                "200": {"description": "Ready for traffic.", "content": {"application/json": {"schema": reference("Health")}}},
                "503": {"description": "Shutting down; send traffic elsewhere.", "content": {"application/json": {"schema": reference("Health")}}},
            },
        }),
    );
    paths
}

/// A game operation for any game, with the text forms where they exist.
/// An operation under `/v1`: open, or with the server's API keys a key
/// required, and the answers without one, with an unknown one and over
/// the key's limit.
fn with_api_keys(operation: &mut Value) {
    operation["security"] = json!([{}, {"ApiKey": []}]);
    for (status, name) in [
        ("401", "Unauthorized"),
        ("403", "Forbidden"),
        ("429", "RateLimited"),
    ] {
        operation["responses"][status] = json!({"$ref": format!("#/components/responses/{name}")});
    }
}

/// `placement`: any game with a rated ladder, so one generic operation.
fn placement_operation() -> Value {
    let mut responses = error_responses(false, false);
    responses.remove("503");
    responses.insert(
        "200".into(),
        json!({
            "description": "The player's rating with its 95% interval, the level to play next, and the expected score against every level.",
            "content": {"application/json": {
                "schema": reference("Placement"),
                "example": {
                    "rating": 682.6, "interval": [280.6, 1084.5], "games": 3,
                    "recommended": {"level": 4, "rating": 721.8, "expected_score": 0.444, "target": 0.5},
                    "levels": [
                        {"level": 3, "rating": 541.5, "expected_score": 0.693},
                        {"level": 4, "rating": 721.8, "expected_score": 0.444},
                        {"level": 5, "rating": 824.1, "expected_score": 0.307},
                    ],
                },
            }},
        }),
    );
    json!({
        "operationId": "placement",
        "summary": "Places a player on the game's ladder from their results against numbered levels (Reversi's ladder in the example, whose levels list is shortened).",
        "description": format!(
            "The ladder's own model (logistic Elo, a draw half a win) with the levels' published ratings (`GET /v1/games`) fixed and the player's rating fitted by maximum likelihood under a weak prior centred on {default} above level 1's rating (so one result gives a sensible answer; none places the player there). Dated results count half as much {half_life} days before the newest. The recommended level is the one the player is expected to score closest to `target` against (0.5 unless set), the easier of two as close. A one-player game's levels have no ratings: 422.",
            default = placement::DEFAULT_RATING,
            half_life = placement::HALF_LIFE_DAYS,
        ),
        "tags": ["any game"],
        "parameters": [{"$ref": "#/components/parameters/Game"}],
        "requestBody": {"required": false, "content": {"application/json": {
            "schema": reference("PlacementRequest"),
            "example": {"results": [
                {"level": 3, "result": "win", "date": "2026-11-20"},
                {"level": 5, "result": "loss", "date": "2026-11-24"},
                {"level": 4, "result": "draw", "date": "2026-11-26"},
            ]},
        }}},
        "responses": responses,
    })
}

fn generic_operation(operation: &GameOperation) -> Value {
    let mut responses = error_responses(operation.finished_game_conflicts, false);
    let mut reply = json!({"application/json": {"schema": reference(operation.reply)}});
    let mut body = json!({"application/json": {"schema": reference(operation.request)}});
    let mut parameters = vec![json!({"$ref": "#/components/parameters/Game"})];
    let mut description = String::from(
        "The game's own operation (tagged with its id) types the body; this one takes any game's JSON.",
    );
    if matches!(operation.suffix, "legal-moves" | "bot-move") {
        reply["text/plain"] = json!({"schema": {"type": "string"}});
        body["text/plain"] = json!({"schema": {"type": "string"}});
        parameters.push(json!({"$ref": "#/components/parameters/ToMove"}));
        description.push_str(
            " Games with a text form (`text_forms` in `GET /v1/games`) also take it as \
             `text/plain`, with the text form's own parameters (`to_move`, `camp_rule`) in the \
             query, and answer in that form (Advance: the new board; Halma: `input.txt` in, \
             `output.txt` out; `legal-moves`: one notation per line).",
        );
    }
    if operation.suffix == "bot-move" {
        for (name, what) in [
            ("level", "the bot level"),
            ("time_ms", "the search time in milliseconds"),
            ("max_depth", "a cap on search depth"),
            ("max_nodes", "a cap on positions searched"),
            ("seed", "the seed of random choices"),
        ] {
            let schema = if name == "level" {
                json!({"type": "string"})
            } else {
                json!({"type": "integer", "minimum": 0})
            };
            parameters.push(json!({
                "name": name,
                "in": "query",
                "required": false,
                "description": format!("For text bodies only: {what}."),
                "schema": schema,
            }));
        }
        description.push_str(
            " Every answer names the move played in the `Gamebot-Move` header (its notation; a \
             Halma jump's lines joined by `;`), the text answer included.",
        );
    }
    let mut ok = json!({"description": operation.reply_description, "content": reply});
    if operation.suffix == "bot-move" {
        ok["headers"] = json!({"Gamebot-Move": {"description": "The move played, in notation.", "schema": {"type": "string"}}});
    }
    responses.insert("200".into(), ok);
    json!({
        "operationId": match operation.name {
            "New" => "newGame".to_string(),
            name => lower_first(name),
        },
        "summary": operation.summary,
        "description": description,
        "tags": ["any game"],
        "parameters": parameters,
        "requestBody": {"required": operation.body_required, "content": body},
        "responses": responses,
    })
}

/// `BotMove` → `botMove`.
fn lower_first(name: &str) -> String {
    let mut chars = name.chars();
    chars
        .next()
        .map(|first| first.to_lowercase().collect::<String>() + chars.as_str())
        .unwrap_or_default()
}

/// The path and query parameters the generic operations share.
fn parameters() -> Value {
    let ids: Vec<&str> = games::REGISTRY.iter().map(|g| g.info().id).collect();
    json!({
        "Game": {
            "name": "game",
            "in": "path",
            "required": true,
            "description": "The game id (`GET /v1/games` lists them).",
            "schema": {"type": "string", "enum": ids},
        },
        "ToMove": {
            "name": "to_move",
            "in": "query",
            "required": false,
            "description": "For text bodies only: the side to move (e.g. `white`).",
            "schema": {"type": "string"},
        },
    })
}

/// The error answers, each a problem document.
fn problem_responses() -> Value {
    let problem = json!({"application/problem+json": {"schema": reference("Problem")}});
    let mut responses = Map::new();
    for (name, description) in [
        ("MalformedJson", "`malformed_json`: the body is not the JSON the endpoint takes; `pointer` names the field (a wrong type included)."),
        ("UnknownGame", "`unknown_game`: no game has this id."),
        ("RequestTimeout", "`request_timeout`: the body did not arrive in time."),
        ("PayloadTooLarge", "`payload_too_large`: the body is over the limit (default 1 MiB)."),
        ("UnsupportedMediaType", "`unsupported_media_type`: neither JSON nor a text form this game takes."),
        ("Unprocessable", "`invalid_state` (the state breaks the game's format; `pointer` says where), `illegal_move` (or a game's finer code, such as Naughts' `invalid_row`; `pointer` at the move or its field), `unknown_level` (with the levels the game has and a `suggestion`), `invalid_option`."),
        ("GameOver", "`game_over`: a move or bot move was asked for in a finished game; `outcome` says how it ended."),
    ] {
        responses.insert(name.into(), json!({"description": description, "content": problem.clone()}));
    }
    responses.insert(
        "Unauthorized".into(),
        json!({
            "description": "`unauthorized`: the server has API keys and the request sent none (`Authorization: Bearer <key>`).",
            "headers": {"WWW-Authenticate": {"description": "`Bearer realm=\"gamebot\"`.", "schema": {"type": "string"}}},
            "content": problem.clone(),
        }),
    );
    responses.insert(
        "Forbidden".into(),
        json!({"description": "`forbidden`: the API key sent is not one the server accepts.", "content": problem.clone()}),
    );
    let integer = json!({"type": "integer"});
    responses.insert(
        "RateLimited".into(),
        json!({
            "description": "`rate_limited`: the key is over its requests-a-second limit; retry after `Retry-After` seconds.",
            "headers": {
                "Retry-After": {"description": "Seconds to wait before retrying.", "schema": integer},
                "RateLimit-Limit": {"description": "The key's requests a second.", "schema": integer},
                "RateLimit-Remaining": {"description": "Requests left in the window (0).", "schema": integer},
                "RateLimit-Reset": {"description": "Seconds until the window allows a request.", "schema": integer},
                "RateLimit-Policy": {"description": "The limit and its window in seconds (`10;w=1`).", "schema": {"type": "string"}},
            },
            "content": problem.clone(),
        }),
    );
    responses.insert(
        "Overloaded".into(),
        json!({
            "description": "`overloaded`: the compute pool is full; retry after `Retry-After` seconds.",
            "headers": {"Retry-After": {"description": "Seconds to wait before retrying.", "schema": {"type": "integer"}}},
            "content": problem,
        }),
    );
    Value::Object(responses)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documented_string_constants_become_a_string_enum() {
        let mut schema = json!({
            "description": "A side.",
            "oneOf": [
                {"const": "black", "type": "string", "description": "Black, who\nmoves first."},
                {"const": "white", "type": "string"},
            ],
        });
        for_client_generators(&mut schema);
        assert_eq!(
            schema,
            json!({
                "description": "A side.\n\n- `black`: Black, who moves first.\n- `white`",
                "type": "string",
                "enum": ["black", "white"],
            })
        );
    }

    #[test]
    fn a_one_of_that_is_not_only_string_constants_is_kept() {
        let mut schema = json!({"oneOf": [{"const": "auto"}, {"type": "integer"}]});
        let before = schema.clone();
        for_client_generators(&mut schema);
        assert_eq!(schema, before);
    }

    #[test]
    fn true_schemas_become_empty_ones_and_closed_objects_stay_closed() {
        let mut schema = json!({
            "type": "object",
            "additionalProperties": false,
            "properties": {"moves": {"type": "array", "items": true}},
        });
        for_client_generators(&mut schema);
        assert_eq!(schema["properties"]["moves"]["items"], json!({}));
        assert_eq!(schema["additionalProperties"], json!(false));
    }

    #[test]
    fn the_document_has_no_boolean_schema_and_no_one_of_string_constants() {
        let document = serde_json::to_value(document()).unwrap();
        let schemas = document["components"]["schemas"].as_object().unwrap();
        for (name, schema) in schemas {
            let text = schema.to_string();
            assert!(!text.contains("\"items\":true"), "{name}: {text}");
            assert!(!text.contains("\"const\":"), "{name}: {text}");
        }
    }
}
