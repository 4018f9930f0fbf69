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
    /// `illegal_move` unless the game has a finer-grained code.
    #[error("{detail}")]
    IllegalMove {
        /// The machine code (`illegal_move`, or a game's own such as `invalid_row`).
        code: &'static str,
        /// Why, in words.
        detail: String,
    },
    /// The game has no such bot level.
    #[error("unknown level '{level}'; this game has: {known}")]
    UnknownLevel {
        /// The level asked for.
        level: String,
        /// The game's levels, comma-separated.
        known: String,
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
            detail: detail.into(),
        }
    }

    /// The same error with its pointer moved under `prefix` (`/state`).
    pub fn under(self, prefix: &str) -> Self {
        match self {
            GameError::InvalidState { pointer, detail } => GameError::InvalidState {
                pointer: Some(format!("{prefix}{}", pointer.unwrap_or_default())),
                detail,
            },
            other => other,
        }
    }
}
