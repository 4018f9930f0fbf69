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
use super::review::{ReviewLine, ReviewReply};
use super::stream::AnalysisEvent;
use super::Problem;
use crate::game::erased::{
    AnalyzeReply, BotReply, GameListing, GameSchemas, LegalMovesReply, NewReply, OutcomeJson,
    PlayReply, ReplayReply,
};
use crate::game::forms::GameForms;
use crate::game::placement::scores::{ScorePlacement, ScorePlacementRequest};
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

mod paths;
mod schemas;

use paths::*;
use schemas::*;

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
    security: Value,
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
        for operation in item.values_mut() {
            if path.starts_with("/v1/") {
                with_api_keys(operation);
            } else {
                operation["security"] = json!([]);
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
        // A key is optional (`{}`: none at all) until the server has keys.
        // Said once here, not per operation: openapi-python-client types
        // every operation that names a requirement of its own as needing
        // an `AuthenticatedClient`, even one with the empty alternative.
        security: json!([{}, {"ApiKey": []}]),
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
    fn a_one_of_that_is_not_only_string_constants_is_kept_its_constant_an_enum() {
        let mut schema = json!({"oneOf": [{"const": "auto"}, {"type": "integer"}]});
        for_client_generators(&mut schema);
        assert_eq!(
            schema,
            json!({"oneOf": [{"enum": ["auto"]}, {"type": "integer"}]})
        );
    }

    #[test]
    fn a_reference_to_a_generic_component_is_retyped_to_the_games() {
        let event = json!({"oneOf": [
            {"properties": {"data": reference("AnalyzeReply")}},
            {"properties": {"data": reference("Problem")}},
        ]});
        let typed = retyped(&event, &[("AnalyzeReply", "ReversiAnalyzeReply")]);
        assert_eq!(
            typed["oneOf"][0]["properties"]["data"],
            reference("ReversiAnalyzeReply")
        );
        assert_eq!(
            typed["oneOf"][1]["properties"]["data"],
            reference("Problem")
        );
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
