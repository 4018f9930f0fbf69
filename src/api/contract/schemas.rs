//! The schemas of the document: the shared components from the request
//! and reply types, each game's own forms and levels, and the rewrites
//! that make them friendly to client generators.

use super::*;

/// Rewrites a component schema into forms that client generators read
/// (openapi-python-client, openapi-typescript) and that validate the same
/// values: a `true` schema (schemars' `serde_json::Value`) becomes `{}`, and
/// a `oneOf` of documented string constants (schemars' form for an enum
/// whose variants have doc comments) becomes a string `enum`, the variants'
/// docs moving into the description. openapi-python-client cannot read a
/// boolean schema, and parses a `oneOf` of constants by trying only the
/// first one.
pub(super) fn for_client_generators(value: &mut Value) {
    let Ok(mut schema) = Schema::try_from(value.clone()) else {
        return;
    };
    let mut plain_booleans = ReplaceBoolSchemas::default();
    plain_booleans.skip_additional_properties = true;
    plain_booleans.transform(&mut schema);
    PlainStringEnums.transform(&mut schema);
    LoneConstants.transform(&mut schema);
    *value = schema.to_value();
}

/// Turns a `const` into a one-value `enum`, which validates the same
/// values: an adjacently tagged enum's tag (an analysis event's `event`)
/// is a `const` in schemars' output, which openapi-python-client reads
/// only as an `enum`.
pub(super) struct LoneConstants;

impl Transform for LoneConstants {
    fn transform(&mut self, schema: &mut Schema) {
        transform_subschemas(self, schema);
        if let Some(constant) = schema.remove("const") {
            schema.insert("enum".into(), json!([constant]));
        }
    }
}

/// Turns a `oneOf` of string constants, each with its description, into
/// a string `enum` whose description lists them.
pub(super) struct PlainStringEnums;

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
pub(super) fn constant_strings(one_of: &Value) -> Option<Vec<(String, String)>> {
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
pub(super) fn schema<T: JsonSchema>(generator: &mut SchemaGenerator) -> Value {
    generator.subschema_for::<T>().to_value()
}

/// A reference to a component schema.
pub(super) fn reference(name: &str) -> Value {
    json!({"$ref": format!("#/components/schemas/{name}")})
}

/// The schemas that do not depend on a game: errors, listings, the search
/// report, and the generic requests and replies (any game's state).
pub(super) fn shared_schemas(generator: &mut SchemaGenerator) -> Map<String, Value> {
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
    add(
        "ScorePlacementRequest",
        schema::<ScorePlacementRequest>(generator),
    );
    add("ScorePlacement", schema::<ScorePlacement>(generator));
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
    add("AnalysisEvent", schema::<AnalysisEvent>(generator));
    add("ReviewLine", schema::<ReviewLine<'static>>(generator));
    for value in schemas.values_mut() {
        inline_root(value, generator);
    }
    schemas
}

/// A component added through `subschema_for` is a `$ref` to its own
/// definition; the named component is the definition itself.
pub(super) fn inline_root(value: &mut Value, generator: &SchemaGenerator) {
    let Some(target) = value["$ref"].as_str() else {
        return;
    };
    let name = target.trim_start_matches("#/components/schemas/");
    if let Some(definition) = generator.definitions().get(name) {
        *value = definition.clone();
    }
}

/// The definition a `$ref` made by `generator` points at.
pub(super) fn definition_mut<'a>(
    reference: &Value,
    generator: &'a mut SchemaGenerator,
) -> Option<&'a mut Map<String, Value>> {
    let name = reference["$ref"]
        .as_str()?
        .trim_start_matches("#/components/schemas/");
    generator.definitions_mut().get_mut(name)?.as_object_mut()
}

/// The game's name as schema names start with it (`reversi` → `Reversi`).
pub(super) fn prefix(game: &dyn DynGame) -> String {
    let id = game.info().id;
    let mut chars = id.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().collect::<String>() + chars.as_str())
        .unwrap_or_default()
}

/// Every schema of one game: its own forms, and its typed requests and
/// replies, each a row of the request or reply type in the game's forms.
pub(super) fn game_schemas(
    game: &dyn DynGame,
    own: &GameSchemas,
    generator: &mut SchemaGenerator,
    schemas: &mut Map<String, Value>,
) {
    let info = game.info();
    let name = prefix(game);
    for form in [&own.state, &own.mv] {
        if let Some(definition) = definition_mut(&form.clone().to_value(), generator) {
            definition.insert("additionalProperties".into(), json!(false));
        }
    }
    games::with_game(info.id, TypedRows(generator));
    for (suffix, what) in ROWS {
        if let Some(row) = generator
            .definitions_mut()
            .get_mut(&format!("{name}{suffix}"))
        {
            row["description"] = json!(format!("{}: {what}", info.name));
        }
    }
    if let Some(analyzed) = generator
        .definitions_mut()
        .get_mut(&format!("{name}AnalyzedMove"))
    {
        analyzed["properties"]["score"]["description"] =
            json!(format!("The move's score in {}.", info.score_unit));
    }
    // A game's bot options (Halma's `clock`) sit beside the fields every
    // game shares, which the API reads before the game sees the request:
    // where both name a field, the shared schema stands.
    let bot_options = bot_option_fields(&own.bot_options.clone().to_value(), generator);
    for suffix in ["BotMoveRequest", "AnalyzeRequest"] {
        if let Some(row) = generator
            .definitions_mut()
            .get_mut(&format!("{name}{suffix}"))
        {
            for (field, schema) in &bot_options {
                if row["properties"].get(field).is_none() {
                    row["properties"][field] = schema.clone();
                }
            }
        }
    }
    schemas.insert(
        format!("{name}AnalysisEvent"),
        retyped(
            &schemas["AnalysisEvent"],
            &[("AnalyzeReply", &format!("{name}AnalyzeReply"))],
        ),
    );
    schemas.insert(
        format!("{name}ReviewLine"),
        retyped(
            &schemas["ReviewLine"],
            &[("PlyReview", &format!("{name}PlyReview"))],
        ),
    );
}

/// Each request's and reply's row, by its suffix (`ReversiPlayReply`),
/// and what a game's row says it is.
const ROWS: &[(&str, &str)] = &[
    ("NewRequest", "a new game's options."),
    ("StateRequest", "a state."),
    ("PlayRequest", "a state and the move to play."),
    ("BotMoveRequest", "a state and the bot's level and budget."),
    ("AnalyzeRequest", "a state and the analysis' budget."),
    ("ReplayRequest", "a start and the moves to play from it."),
    (
        "ReviewRequest",
        "a game to review and the budget of each position.",
    ),
    ("NewReply", "a new game."),
    ("LegalMovesReply", "the legal moves."),
    ("PlayReply", "the move played and the new state."),
    (
        "BotMoveReply",
        "the bot's move, the new state and what the search did.",
    ),
    ("AnalyzeReply", "the best moves, best first."),
    ("ReplayReply", "a game played again."),
    ("ReviewReply", "every move judged."),
];

/// Adds game `G`'s requests and replies to the generator: each type in
/// `G`'s forms, a row the generator names by the game
/// (`ReversiPlayReply`, with `ReversiState`, `ReversiAnalyzedMove`,
/// `ReversiLevel` and `ReversiOutcome` inside).
struct TypedRows<'a>(&'a mut SchemaGenerator);

impl games::GameVisitor for TypedRows<'_> {
    type Output = ();

    fn visit<G: crate::game::Game>(self) {
        let generator = self.0;
        generator.subschema_for::<NewRequest<GameForms<G>>>();
        generator.subschema_for::<StateRequest<GameForms<G>>>();
        generator.subschema_for::<PlayRequest<GameForms<G>>>();
        generator.subschema_for::<BotMoveRequest<GameForms<G>>>();
        generator.subschema_for::<AnalyzeRequest<GameForms<G>>>();
        generator.subschema_for::<ReplayRequest<GameForms<G>>>();
        generator.subschema_for::<ReviewRequest<GameForms<G>>>();
        generator.subschema_for::<NewReply<GameForms<G>>>();
        generator.subschema_for::<LegalMovesReply<GameForms<G>>>();
        generator.subschema_for::<PlayReply<GameForms<G>>>();
        generator.subschema_for::<BotReply<GameForms<G>>>();
        generator.subschema_for::<AnalyzeReply<GameForms<G>>>();
        generator.subschema_for::<ReplayReply<GameForms<G>>>();
        generator.subschema_for::<ReviewReply<GameForms<G>>>();
    }
}

/// A copy of `schema` whose references to the components named first in
/// `renames` point at the second instead (the generic reply at the game's).
pub(super) fn retyped(schema: &Value, renames: &[(&str, &str)]) -> Value {
    match schema {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, value)| {
                    let renamed = renames.iter().find(|(from, _)| {
                        key == "$ref"
                            && value.as_str() == Some(&format!("#/components/schemas/{from}"))
                    });
                    match renamed {
                        Some((_, to)) => (key.clone(), json!(format!("#/components/schemas/{to}"))),
                        None => (key.clone(), retyped(value, renames)),
                    }
                })
                .collect(),
        ),
        Value::Array(items) => {
            Value::Array(items.iter().map(|item| retyped(item, renames)).collect())
        }
        other => other.clone(),
    }
}

/// The definition a `$ref` names, or the schema itself.
pub(super) fn resolve(schema: &Value, generator: &SchemaGenerator) -> Value {
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
pub(super) fn bot_option_fields(
    options: &Value,
    generator: &SchemaGenerator,
) -> Vec<(String, Value)> {
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
