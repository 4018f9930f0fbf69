//! Errors a game reports about its input.

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
        /// The machine code (`illegal_move`, or a game's own such as `invalid_row`).
        code: &'static str,
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
    },
    /// An option (of `new`, or of a level) that the game does not have, or a bad value.
    #[error("{0}")]
    InvalidOption(String),
    /// A move or bot move was asked for in a finished game.
    #[error("the game is over: no move can be played")]
    GameOver,
    /// The game has no text form (for the endpoint asked).
    #[error("this game accepts only application/json here")]
    NoTextForm,
    /// A bug: the engine produced something it should not have. Never caused by input.
    #[error("internal error: {0}")]
    Internal(String),
}

impl GameError {
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
            code: "illegal_move",
            pointer: None,
            detail: detail.into(),
        }
    }

    /// The same error with its pointer moved under `prefix` (`/state`,
    /// `/move`, `/moves/17`), where `value` is the JSON the pointer points
    /// into. An illegal move without a pointer of its own points at the
    /// whole move. A pointer to a member
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
            other => other,
        }
    }
}

/// `did you mean 'strong'? ` for a suggestion, else nothing.
fn did_you_mean(suggestion: &Option<&'static str>) -> String {
    suggestion.map_or_else(String::new, |id| format!("did you mean '{id}'? "))
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
}
