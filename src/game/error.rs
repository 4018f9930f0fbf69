//! Errors a game reports about its input, and the closed list of machine
//! codes every front end answers them (and its own failures) with.

// The API's contract publishes this enum's schema as the problem's `code`,
// so the document names exactly the codes the service can answer: a new
// code is a new variant here, nowhere else.
/// Every machine `code` a problem can carry, whether a game or the HTTP
/// layer (routes, bodies, the compute pool, API keys) refuses the request:
/// a closed list.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The body is not the JSON the endpoint takes; `pointer` names the field.
    MalformedJson,
    /// No game has the id in the path.
    UnknownGame,
    /// No such route.
    NotFound,
    /// The route exists, not with this method.
    MethodNotAllowed,
    /// The body did not arrive in time.
    RequestTimeout,
    /// The body is over the server's limit.
    PayloadTooLarge,
    /// Neither JSON nor a text form the game takes there.
    UnsupportedMediaType,
    /// The state breaks the game's format; `pointer` says where.
    InvalidState,
    /// The move is not legal (or not readable) in the state.
    IllegalMove,
    /// Naughts: the typed move is not `row col size` (or the object has a
    /// field missing or unknown).
    InvalidFormat,
    /// Naughts: the row is off the board.
    InvalidRow,
    /// Naughts: the column is off the board.
    InvalidColumn,
    /// Naughts: no marker has that size.
    InvalidSize,
    /// Naughts: the marker is spent or does not cover the cell's top (or a
    /// pass that is not allowed).
    InvalidMove,
    /// The game has no such bot level; `suggestion` names the nearest.
    UnknownLevel,
    /// An option the game (or the endpoint) does not take, or a bad value.
    InvalidOption,
    /// A move asked for in a finished game; `outcome` says how it ended.
    GameOver,
    /// The compute lane is full; retry after `Retry-After`.
    Overloaded,
    /// The API key already has as many searches running or queued as it may.
    ConcurrencyLimited,
    /// The server is stopping.
    ShuttingDown,
    /// The request waited for a worker longer than its `max_queue_ms`.
    QueuedTooLong,
    /// A bug in the service, never caused by input.
    InternalError,
    /// The server has API keys and the request sent none.
    Unauthorized,
    /// The API key sent is not one the server accepts.
    Forbidden,
    /// The API key is over its requests-a-second limit.
    RateLimited,
}

impl ErrorCode {
    /// Every code, in the order of the enum.
    pub const ALL: [ErrorCode; 25] = {
        use ErrorCode as C;
        [
            C::MalformedJson,
            C::UnknownGame,
            C::NotFound,
            C::MethodNotAllowed,
            C::RequestTimeout,
            C::PayloadTooLarge,
            C::UnsupportedMediaType,
            C::InvalidState,
            C::IllegalMove,
            C::InvalidFormat,
            C::InvalidRow,
            C::InvalidColumn,
            C::InvalidSize,
            C::InvalidMove,
            C::UnknownLevel,
            C::InvalidOption,
            C::GameOver,
            C::Overloaded,
            C::ConcurrencyLimited,
            C::ShuttingDown,
            C::QueuedTooLong,
            C::InternalError,
            C::Unauthorized,
            C::Forbidden,
            C::RateLimited,
        ]
    };

    /// The code as it is written in a problem document (`invalid_row`).
    pub fn as_str(self) -> &'static str {
        use ErrorCode as C;
        match self {
            C::MalformedJson => "malformed_json",
            C::UnknownGame => "unknown_game",
            C::NotFound => "not_found",
            C::MethodNotAllowed => "method_not_allowed",
            C::RequestTimeout => "request_timeout",
            C::PayloadTooLarge => "payload_too_large",
            C::UnsupportedMediaType => "unsupported_media_type",
            C::InvalidState => "invalid_state",
            C::IllegalMove => "illegal_move",
            C::InvalidFormat => "invalid_format",
            C::InvalidRow => "invalid_row",
            C::InvalidColumn => "invalid_column",
            C::InvalidSize => "invalid_size",
            C::InvalidMove => "invalid_move",
            C::UnknownLevel => "unknown_level",
            C::InvalidOption => "invalid_option",
            C::GameOver => "game_over",
            C::Overloaded => "overloaded",
            C::ConcurrencyLimited => "concurrency_limited",
            C::ShuttingDown => "shutting_down",
            C::QueuedTooLong => "queued_too_long",
            C::InternalError => "internal_error",
            C::Unauthorized => "unauthorized",
            C::Forbidden => "forbidden",
            C::RateLimited => "rate_limited",
        }
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What is wrong with a request, in the game's terms. Each variant maps to
/// one status and machine code of the API's error table.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The state breaks the game's format. `pointer` is a JSON pointer into
    /// the request body (`/state/board/3`) where one applies.
    #[error("{detail}")]
    InvalidState {
        /// Where the problem is, as a JSON pointer, if it is in one place.
        pointer: Option<String>,
        /// What is wrong and what was expected.
        detail: String,
    },
    /// The move is not legal (or not readable) in the state. `code` is
    /// `illegal_move` unless the game has a finer-grained code. `pointer`
    /// is a JSON pointer into the move (`/row`) where one field is at
    /// fault, moved under the move's place in the body by [`GameError::under`].
    #[error("{detail}")]
    IllegalMove {
        /// The machine code ([`ErrorCode::IllegalMove`], or a game's own
        /// such as [`ErrorCode::InvalidRow`]).
        code: ErrorCode,
        /// Where the problem is, as a JSON pointer, if it is in one place.
        pointer: Option<String>,
        /// Why, in words.
        detail: String,
    },
    /// A request field the game does not take, or one of the wrong type
    /// (answered as `malformed_json`). `pointer` is a JSON pointer into the
    /// request body (`/levle`).
    #[error("{detail}")]
    MalformedRequest {
        /// Where the problem is.
        pointer: Option<String>,
        /// What is wrong and what was expected.
        detail: String,
    },
    /// The game has no such bot level.
    #[error("unknown level '{level}'; {}this game has: {known}", did_you_mean(.suggestion))]
    UnknownLevel {
        /// The level asked for.
        level: String,
        /// Every level the request could have named, comma-separated
        /// (`1-12, random, norvig, strong`).
        known: String,
        /// The named level the request most likely meant (a typo or a
        /// different case away), if one is near enough.
        suggestion: Option<&'static str>,
        /// Where the level was asked for, as a JSON pointer into the
        /// request body (`/level`), when it was one field of it.
        pointer: Option<String>,
    },
    /// An option (of `new`, or of a level) that the game does not have, or
    /// a bad value. `pointer` is a JSON pointer to the option (`/k` within
    /// `new`'s options, moved under `/options` by [`GameError::under`])
    /// where the option is one field of the body.
    #[error("{detail}")]
    InvalidOption {
        /// Where the problem is, as a JSON pointer, if it is in one place.
        pointer: Option<String>,
        /// What is wrong and what was expected.
        detail: String,
    },
    /// A move or bot move was asked for in a finished game. `outcome` is
    /// how it ended, as the JSON view writes outcomes, where the caller
    /// knows it (the type-erased view always fills it in).
    #[error("the game is over: no move can be played{}", ended(outcome.as_deref()))]
    GameOver {
        /// How the game ended (`{"status": "win", "winner": ...}`).
        outcome: Option<Box<serde_json::Value>>,
    },
    /// The game has no text form (for the endpoint asked).
    #[error("this game accepts only application/json here")]
    NoTextForm,
    /// A bug: the engine produced something it should not have. Never caused by input.
    #[error("internal error: {0}")]
    Internal(String),
}

/// Whose fault an error is, and so how every front end answers it: the
/// HTTP status and the command line's exit code both map from this, in
/// one place each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The request is not the shape the endpoint takes (HTTP 400; a usage
    /// error on the command line).
    Malformed,
    /// A level or option the game does not have (422; a usage error).
    Option,
    /// A state or move that breaks the game's rules (422; a game error).
    Content,
    /// A move asked for in a finished game (409; "no move").
    Finished,
    /// A form of input the game does not take (415; a game error).
    Unsupported,
    /// A bug in the service, never caused by input (500; a game error).
    Bug,
}

impl GameError {
    /// A finished game's error, before the caller adds how it ended.
    pub fn game_over() -> Self {
        GameError::GameOver { outcome: None }
    }

    /// The stable machine code of this error (`invalid_state`,
    /// `illegal_move` or a game's finer move code, ...).
    pub fn code(&self) -> ErrorCode {
        match self {
            GameError::InvalidState { .. } => ErrorCode::InvalidState,
            GameError::IllegalMove { code, .. } => *code,
            GameError::MalformedRequest { .. } => ErrorCode::MalformedJson,
            GameError::UnknownLevel { .. } => ErrorCode::UnknownLevel,
            GameError::InvalidOption { .. } => ErrorCode::InvalidOption,
            GameError::GameOver { .. } => ErrorCode::GameOver,
            GameError::NoTextForm => ErrorCode::UnsupportedMediaType,
            GameError::Internal(_) => ErrorCode::InternalError,
        }
    }

    /// A short, fixed summary of the kind of error.
    pub fn title(&self) -> &'static str {
        match self {
            GameError::InvalidState { .. } => "Invalid state",
            GameError::IllegalMove { .. } => "Illegal move",
            GameError::MalformedRequest { .. } => "Malformed JSON body",
            GameError::UnknownLevel { .. } => "Unknown level",
            GameError::InvalidOption { .. } => "Invalid option",
            GameError::GameOver { .. } => "Game over",
            GameError::NoTextForm => "Unsupported media type",
            GameError::Internal(_) => "Internal error",
        }
    }

    /// Whose fault the error is.
    pub fn fault(&self) -> Fault {
        match self {
            GameError::MalformedRequest { .. } => Fault::Malformed,
            GameError::UnknownLevel { .. } | GameError::InvalidOption { .. } => Fault::Option,
            GameError::InvalidState { .. } | GameError::IllegalMove { .. } => Fault::Content,
            GameError::GameOver { .. } => Fault::Finished,
            GameError::NoTextForm => Fault::Unsupported,
            GameError::Internal(_) => Fault::Bug,
        }
    }

    /// The JSON pointer into the request body where the problem is, if it
    /// is in one place.
    pub fn pointer(&self) -> Option<&str> {
        match self {
            GameError::InvalidState { pointer, .. }
            | GameError::IllegalMove { pointer, .. }
            | GameError::InvalidOption { pointer, .. }
            | GameError::UnknownLevel { pointer, .. }
            | GameError::MalformedRequest { pointer, .. } => pointer.as_deref(),
            _ => None,
        }
    }

    /// This error placed at `at` (a JSON pointer into the request body)
    /// where it is about one field and says no place of its own yet: an
    /// unknown level or a bad option, found while reading the field at
    /// `at`. Other errors are as they were.
    pub fn placed(mut self, at: &str) -> Self {
        if let GameError::UnknownLevel { pointer, .. } | GameError::InvalidOption { pointer, .. } =
            &mut self
        {
            pointer.get_or_insert_with(|| at.to_string());
        }
        self
    }

    /// An invalid state at `pointer` (relative to the state, e.g. `/board/3`).
    pub fn invalid_state_at(pointer: impl Into<String>, detail: impl Into<String>) -> Self {
        GameError::InvalidState {
            pointer: Some(pointer.into()),
            detail: detail.into(),
        }
    }

    /// An invalid state with no single place to point at.
    pub fn invalid_state(detail: impl Into<String>) -> Self {
        GameError::InvalidState {
            pointer: None,
            detail: detail.into(),
        }
    }

    /// An illegal move with the generic `illegal_move` code.
    pub fn illegal_move(detail: impl Into<String>) -> Self {
        GameError::IllegalMove {
            code: ErrorCode::IllegalMove,
            pointer: None,
            detail: detail.into(),
        }
    }

    /// An illegal move whose fault is one field of the move object
    /// (`/from`, `/path/2/0`), with the generic `illegal_move` code.
    pub fn illegal_move_at(pointer: impl Into<String>, detail: impl Into<String>) -> Self {
        GameError::IllegalMove {
            code: ErrorCode::IllegalMove,
            pointer: Some(pointer.into()),
            detail: detail.into(),
        }
    }

    /// An invalid option with no single field to point at.
    pub fn invalid_option(detail: impl Into<String>) -> Self {
        GameError::InvalidOption {
            pointer: None,
            detail: detail.into(),
        }
    }

    /// An invalid option at `pointer` (relative to the options, e.g. `/k`).
    pub fn invalid_option_at(pointer: impl Into<String>, detail: impl Into<String>) -> Self {
        GameError::InvalidOption {
            pointer: Some(pointer.into()),
            detail: detail.into(),
        }
    }

    /// The same error with its pointer moved under `prefix` (`/state`,
    /// `/move`, `/moves/17`, `/options`), where `value` is the JSON the
    /// pointer points into. An illegal move or an invalid option without a
    /// pointer of its own points at the whole move or options. A pointer to a member
    /// that is not there (a missing field) is cut back to the deepest place
    /// that is, the object lacking it, so every pointer resolves in the
    /// request body; the detail still names the missing field.
    pub fn under(self, prefix: &str, value: &serde_json::Value) -> Self {
        match self {
            GameError::InvalidState { pointer, detail } => GameError::InvalidState {
                pointer: Some(format!(
                    "{prefix}{}",
                    existing_prefix(value, pointer.as_deref().unwrap_or_default())
                )),
                detail,
            },
            GameError::IllegalMove {
                code,
                pointer,
                detail,
            } => GameError::IllegalMove {
                code,
                pointer: Some(format!(
                    "{prefix}{}",
                    existing_prefix(value, pointer.as_deref().unwrap_or_default())
                )),
                detail,
            },
            GameError::InvalidOption { pointer, detail } => GameError::InvalidOption {
                pointer: Some(format!(
                    "{prefix}{}",
                    existing_prefix(value, pointer.as_deref().unwrap_or_default())
                )),
                detail,
            },
            other => other,
        }
    }
}

/// How a finished game ended, for the game-over message.
fn ended(outcome: Option<&serde_json::Value>) -> String {
    let Some(outcome) = outcome else {
        return String::new();
    };
    let reason = outcome["reason"].as_str().unwrap_or("");
    match (outcome["status"].as_str(), outcome["winner"].as_str()) {
        (Some("win"), Some(winner)) => format!(" ({winner} won: {reason})"),
        (Some("draw"), _) => format!(" (a draw: {reason})"),
        (Some("finished"), _) => " (no swaps are left)".to_string(),
        _ => String::new(),
    }
}

/// `did you mean 'strong'? ` for a suggestion, else nothing.
fn did_you_mean(suggestion: &Option<&'static str>) -> String {
    suggestion.map_or_else(String::new, |id| format!("did you mean '{id}'? "))
}

/// The JSON pointer (RFC 6901) of the place serde stopped at (`/k`,
/// `/clock/mode`), up to the deepest place it knows; `""` for the whole value.
pub(crate) fn pointer_of(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    path.iter()
        .map_while(|segment| match segment {
            Segment::Seq { index } => Some(format!("/{index}")),
            Segment::Map { key } | Segment::Enum { variant: key } => {
                Some(format!("/{}", key.replace('~', "~0").replace('/', "~1")))
            }
            Segment::Unknown => None,
        })
        .collect()
}

/// The longest prefix of `pointer` that resolves in `value`.
fn existing_prefix<'p>(value: &serde_json::Value, pointer: &'p str) -> &'p str {
    let mut at = pointer;
    while !at.is_empty() && value.pointer(at).is_none() {
        at = at.rsplit_once('/').map_or("", |(parent, _)| parent);
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_code_is_listed_once_and_written_as_serde_writes_it() {
        let schema = schemars::schema_for!(ErrorCode).to_value();
        let variants = schema["oneOf"].as_array().expect("documented variants");
        let named: Vec<&str> = variants
            .iter()
            .filter_map(|v| v["const"].as_str())
            .collect();
        let listed: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
        assert_eq!(named, listed);
        for code in ErrorCode::ALL {
            assert_eq!(serde_json::to_value(code).unwrap(), json!(code.as_str()));
        }
    }

    #[test]
    fn a_pointer_to_a_missing_field_is_cut_back_to_its_object() {
        let state = json!({"board": ["..."]});
        let located = |pointer: &str| match GameError::invalid_state_at(pointer, "x")
            .under("/state", &state)
        {
            GameError::InvalidState { pointer, .. } => pointer.unwrap(),
            other => panic!("{other:?}"),
        };
        assert_eq!(located("/to_move"), "/state");
        assert_eq!(located("/board/0"), "/state/board/0");
        assert_eq!(located("/board/3"), "/state/board");
    }

    #[test]
    fn an_option_points_into_the_options_or_at_them() {
        let options = json!({"k": "x"});
        let placed = |error: GameError| {
            error
                .under("/options", &options)
                .pointer()
                .map(str::to_string)
        };
        assert_eq!(
            placed(GameError::invalid_option_at("/k", "x")).as_deref(),
            Some("/options/k")
        );
        assert_eq!(
            placed(GameError::invalid_option("x")).as_deref(),
            Some("/options")
        );
    }
}
