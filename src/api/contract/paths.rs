//! The paths of the document: each game's own operations, the generic
//! `/v1/games/{game}/…` ones and the service's, with their parameters,
//! examples and problem responses.

use super::*;

/// The operation of one game.
pub(super) fn game_operation(game: &dyn DynGame, operation: &GameOperation) -> Value {
    let info = game.info();
    let name = prefix(game);
    let mut responses = error_responses(operation.finished_game_conflicts, false);
    // The path names a game the server has: no 404 here.
    responses.remove("404");
    let mut content =
        json!({"application/json": {"schema": reference(&format!("{name}{}", operation.reply))}});
    if let Some(stream) = streamed(operation.suffix) {
        content[stream.media] = stream.content(&name);
    }
    responses.insert(
        "200".into(),
        json!({"description": operation.reply_description, "content": content}),
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

/// A game operation's answer as a stream, asked for with `Accept`.
pub(super) struct Streamed {
    /// The media type asked for and answered.
    pub media: &'static str,
    /// The schema of one event or line, without the game's prefix.
    pub item: &'static str,
    /// How the stream is framed and ends.
    pub description: &'static str,
}

impl Streamed {
    /// The media type's entry in a 200 answer's `content`, its items typed
    /// by the game whose schema names start with `prefix` (none for any game).
    pub fn content(&self, prefix: &str) -> Value {
        let mut schema = reference(&format!("{prefix}{}", self.item));
        schema["description"] = json!(self.description);
        json!({"schema": schema})
    }
}

/// The stream an operation answers with `Accept: <media>`, if it has one.
pub(super) fn streamed(suffix: &str) -> Option<Streamed> {
    match suffix {
        "analyze" => Some(Streamed {
            media: "text/event-stream",
            item: "AnalysisEvent",
            description: "With `Accept: text/event-stream`: Server-Sent Events, the schema describing one event (its `event:` name and the JSON of its `data:` line): `depth` after each completed depth of the search, then `result` or `error`, after which the stream ends (an answer the cache holds comes as its `result` alone, shared with plain `analyze` requests). A client that leaves cancels the search.",
        }),
        "review" => Some(Streamed {
            media: "application/x-ndjson",
            item: "ReviewLine",
            description: "With `Accept: application/x-ndjson`: one JSON object a line, the schema describing one line: `{\"ply\": …}` for each move as it is judged, in order, then `{\"summary\": …}`, or `{\"error\": problem}` where the review was cut short.",
        }),
        _ => None,
    }
}

/// An example body for a game operation, from the game's own new state.
pub(super) fn example(game: &dyn DynGame, suffix: &str) -> Option<Value> {
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
pub(super) fn error_responses(conflicts: bool, bodiless: bool) -> Map<String, Value> {
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
pub(super) fn shared_paths() -> BTreeMap<String, BTreeMap<&'static str, Value>> {
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

/// An operation under `/v1`, under the document's security (open, or
/// with the server's API keys a key required): the answers without a
/// key, with an unknown one and over the key's limit.
pub(super) fn with_api_keys(operation: &mut Value) {
    for (status, name) in [
        ("401", "Unauthorized"),
        ("403", "Forbidden"),
        ("429", "RateLimited"),
    ] {
        operation["responses"][status] = json!({"$ref": format!("#/components/responses/{name}")});
    }
}

/// `placement`: any game with a ladder, so one generic operation: a
/// two-player game's results against rated levels, or a one-player game's
/// scores against its levels' distributions.
pub(super) fn placement_operation() -> Value {
    let mut responses = error_responses(false, false);
    responses.remove("503");
    responses.insert(
        "200".into(),
        json!({
            "description": "A two-player game: the player's rating with its 95% interval, the level to play next, and the expected score against every level (`Placement`). A one-player game: the levels the player's scores beat, their percentile against each level and the level to race next (`ScorePlacement`).",
            "content": {"application/json": {
                "schema": {"oneOf": [reference("Placement"), reference("ScorePlacement")]},
                "example": {
                    "rating": 620.6, "interval": [216.1, 1025.1], "games": 3,
                    "recommended": {"level": 4, "rating": 635.9, "expected_score": 0.478, "target": 0.5, "fitted": 4},
                    "levels": [
                        {"level": 3, "rating": 479.0, "expected_score": 0.693},
                        {"level": 4, "rating": 635.9, "expected_score": 0.478},
                        {"level": 5, "rating": 788.6, "expected_score": 0.276},
                    ],
                },
            }},
        }),
    );
    json!({
        "operationId": "placement",
        "summary": "Places a player on the game's ladder from their results against numbered levels, or a one-player game's from their scores (Reversi's ladder in the example, whose levels list is shortened).",
        "description": format!(
            "A two-player game (`PlacementRequest`): the ladder's own model (logistic Elo, a draw half a win) with the levels' published ratings (`GET /v1/games`) fixed and the player's rating fitted by maximum likelihood, bounded below by the ladder's zero (the random mover), under a weak prior centred on the game's newcomer level, the level a new player can expect to score about half against (none places the player there; never the top level). Dated results count half as much {half_life} days before the newest. The recommended level is the one the player is expected to score closest to `target` against (0.5 unless set), the easier of two as close; results are taken oldest first, and each moves the recommendation at most {most} levels from the one before it (`fitted` is the level the rating alone recommends). A one-player game (`ScorePlacementRequest`, Number Crush: `{{\"results\": [{{\"k\": 4, \"score\": 12000}}]}}`): each score's percentile against each level's distribution of scores at that `k` (the ladder file's quantiles), the levels beaten (a mean percentile above 50), and the level whose percentile is closest to `target`, moved the same way from the newcomer level.",
            half_life = placement::HALF_LIFE_DAYS,
            most = placement::MAX_LEVELS_A_RESULT,
        ),
        "tags": ["any game"],
        "parameters": [{"$ref": "#/components/parameters/Game"}],
        "requestBody": {"required": true, "content": {"application/json": {
            "schema": {"anyOf": [reference("PlacementRequest"), reference("ScorePlacementRequest")]},
            "example": {"results": [
                {"level": 3, "result": "win", "date": "2026-11-20"},
                {"level": 5, "result": "loss", "date": "2026-11-24"},
                {"level": 4, "result": "draw", "date": "2026-11-26"},
            ]},
        }}},
        "responses": responses,
    })
}

/// A game operation for any game, with the text forms where they exist.
pub(super) fn generic_operation(operation: &GameOperation) -> Value {
    let mut responses = error_responses(operation.finished_game_conflicts, false);
    let mut reply = json!({"application/json": {"schema": reference(operation.reply)}});
    if let Some(stream) = streamed(operation.suffix) {
        reply[stream.media] = stream.content("");
    }
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
        ok["headers"] = json!({"Gamebot-Move": {"description": "The move played, in notation.", "required": true, "schema": {"type": "string"}}});
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
pub(super) fn lower_first(name: &str) -> String {
    let mut chars = name.chars();
    chars
        .next()
        .map(|first| first.to_lowercase().collect::<String>() + chars.as_str())
        .unwrap_or_default()
}

/// The path and query parameters the generic operations share.
pub(super) fn parameters() -> Value {
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
pub(super) fn problem_responses() -> Value {
    let problem = json!({"application/problem+json": {"schema": reference("Problem")}});
    let mut responses = Map::new();
    for (name, description) in [
        ("MalformedJson", "`malformed_json`: the body is not the JSON the endpoint takes; `pointer` names the field (a wrong type included)."),
        ("UnknownGame", "`unknown_game`: no game has this id."),
        ("RequestTimeout", "`request_timeout`: the body did not arrive in time."),
        ("PayloadTooLarge", "`payload_too_large`: the body is over the limit (default 1 MiB)."),
        ("UnsupportedMediaType", "`unsupported_media_type`: neither JSON nor a text form this game takes."),
        ("Unprocessable", "`invalid_state` (the state breaks the game's format; `pointer` says where), `illegal_move` (Naughts names the rule broken instead: `invalid_format`, `invalid_row`, `invalid_column`, `invalid_size`, `invalid_move`; `pointer` at the move or its field), `unknown_level` (with the levels the game has and a `suggestion`), `invalid_option`."),
        ("GameOver", "`game_over`: a move or bot move was asked for in a finished game; `outcome` says how it ended."),
    ] {
        responses.insert(name.into(), json!({"description": description, "content": problem.clone()}));
    }
    responses.insert(
        "Unauthorized".into(),
        json!({
            "description": "`unauthorized`: the server has API keys and the request sent none (`Authorization: Bearer <key>`).",
            "headers": {"WWW-Authenticate": {"description": "`Bearer realm=\"gamebot\"`.", "required": true, "schema": {"type": "string"}}},
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
            "description": "`rate_limited`: the key is over its requests-a-second limit (the `RateLimit-*` headers say it); `concurrency_limited`: the key already has as many searches running or queued as the keys file allows it. Retry after `Retry-After` seconds.",
            "headers": {
                "Retry-After": {"description": "Seconds to wait before retrying.", "required": true, "schema": integer},
                "RateLimit-Limit": {"description": "The key's requests a second (with `rate_limited`).", "schema": integer},
                "RateLimit-Remaining": {"description": "Requests left in the window (0; with `rate_limited`).", "schema": integer},
                "RateLimit-Reset": {"description": "Seconds until the window allows a request (with `rate_limited`).", "schema": integer},
                "RateLimit-Policy": {"description": "The limit and its window in seconds (`10;w=1`; with `rate_limited`).", "schema": {"type": "string"}},
            },
            "content": problem.clone(),
        }),
    );
    responses.insert(
        "Overloaded".into(),
        json!({
            "description": "`overloaded`: the compute lane is full; `shutting_down`: the server is stopping; `queued_too_long`: the request waited for a worker longer than its `max_queue_ms` and was not searched. Retry after `Retry-After` seconds (another replica, behind a load balancer).",
            "headers": {"Retry-After": {"description": "Seconds to wait before retrying.", "required": true, "schema": {"type": "integer"}}},
            "content": problem,
        }),
    );
    Value::Object(responses)
}
