//! Advance: a chess-like game on a 9×9 board with walls (rules in
//! `docs/rules/advance.md`).
//!
//! - [`board`]: piece codes, the padded mailbox and the validated [`State`].
//! - [`state`]: the JSON state and the legacy 9-line text board.
//! - [`movegen`]: moves, generation, danger and legality.
//! - [`notation`]: move notation (`e2-e3`, `e2xe3`, `a2#b3`, `b1~a1`,
//!   `b1=b2`, `c1*c4`; files a–i left to right, ranks 1–9 from white's side)
//!   and move objects; `explain` says which rule an illegal move breaks.
//! - [`bots`]: `legal`, `win`, `greedy`, `predict`.
//! - [`bots::eval`]: the evaluation behind `strong` (generic alpha-beta search).
//! - [`bots::strong`]: the `strong` level, kept faithful to the grading scale.
//!
//! The game ends when the side to move has no legal move (it loses) or,
//! when the ply count is known, after 200 plies (more material wins, equal
//! material draws); the material rule is checked first.

pub mod board;
pub mod bots;
mod explain;
pub mod movegen;
pub mod notation;
pub mod state;

#[cfg(test)]
mod tests;

pub use board::Color;
pub use movegen::{Kind, Move};
pub use state::State;

use crate::game::{
    Analysis, BotChoice, BotParams, Bots, Budget, Codec, GameError, GameInfo, Ladder, LevelSpec,
    MatchTime, NoOptions, Outcome, Referee, Rules, Rung, Scope, Side, TextRequest,
};
use board::PLY_LIMIT;
use serde_json::Value;
use std::time::Duration;

/// The Advance game, for the registry.
pub struct Advance;

fn player(color: Color) -> Side {
    match color {
        Color::White => Side::First,
        Color::Black => Side::Second,
    }
}

/// How a game of Advance ends. (Generals are never captured, so no game
/// ends by taking one.)
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
#[schemars(rename = "AdvanceTermination")]
pub enum AdvanceTermination {
    /// The side to move has no legal move: it loses.
    NoLegalMove,
    /// 100 full turns (200 plies) have been played with the ply count known:
    /// the side with more material wins, equal material draws.
    MoveLimit,
}

/// Each side's material (the piece values the move-limit rule counts),
/// indexed by [`Side::index`].
fn material_score(state: &State) -> [i64; 2] {
    [Color::White, Color::Black].map(|color| i64::from(state.material(color)))
}

/// How a position stands: the material rule first (ply known), then "no
/// legal move"; `score` is each side's material either way.
pub fn outcome(state: &State) -> Outcome<AdvanceTermination> {
    if state.ply_limit_reached() {
        let score = material_score(state);
        let termination = AdvanceTermination::MoveLimit;
        let reason = "more material after 100 full turns".to_string();
        return match score[0].cmp(&score[1]) {
            std::cmp::Ordering::Greater => Outcome::Win {
                winner: Side::First,
                reason,
                termination,
                score,
            },
            std::cmp::Ordering::Less => Outcome::Win {
                winner: Side::Second,
                reason,
                termination,
                score,
            },
            std::cmp::Ordering::Equal => Outcome::Draw {
                reason: "equal material after 100 full turns".to_string(),
                termination,
                score,
            },
        };
    }
    if state.clone().has_legal_move(&mut Vec::new()) {
        Outcome::Ongoing
    } else {
        Outcome::Win {
            winner: player(state.to_move().other()),
            reason: "no legal move".to_string(),
            termination: AdvanceTermination::NoLegalMove,
            score: material_score(state),
        }
    }
}

crate::declare_levels! {
    /// The bot levels of Advance.
    pub enum AdvanceLevel {
        Legal = "legal": "grade 4: any legal move, at random (seeded)",
        Win = "win": "grade 5: a move that wins at once if there is one, else any legal move",
        Greedy = "greedy": "grade 6: a winning move, else one of largest immediate material gain (conversions count twice)",
        Predict = "predict": "grade 7: a winning move, else the greedy move whose outcome is best after a greedy reply and a greedy answer",
        Strong = "strong": "alpha-beta search with quiescence under the time budget; keeps a unique greedy answer gaining at least min_gain unless it costs more than margin (defaults strong:margin=800,min_gain=4; margin in centi-points, 0 = pure search)",
    }
}

impl Rules for Advance {
    type State = State;
    type Move = Move;
    type Termination = AdvanceTermination;

    fn to_move(state: &State) -> Side {
        player(state.to_move())
    }

    fn legal_moves(state: &State, out: &mut Vec<Move>) {
        state.clone().legal_moves_into(out);
    }

    fn apply(state: &State, mv: &Move) -> State {
        state.after(*mv)
    }

    fn outcome(state: &State) -> Outcome<AdvanceTermination> {
        outcome(state)
    }
}

impl Bots for Advance {
    const REVIEW_NOISE: Option<&'static str> =
        Some(include_str!("../../../data/review/advance.json"));

    type Level = AdvanceLevel;

    type BotOptions = NoOptions;

    const DEFAULT_LEVEL: AdvanceLevel = AdvanceLevel::Strong;

    const WIN_MODEL: Option<&'static str> =
        Some(include_str!("../../../data/calibration/advance.json"));

    /// Material on the board, both sides together.
    fn phase(state: &State) -> u32 {
        (state.material(Color::White) + state.material(Color::Black)).max(0) as u32
    }

    /// The mover's moves to the ply limit: games between engines mostly
    /// end there (docs/LIVE-PLAY.md has the fit), and the plan's horizon
    /// holds a long estimate to its 40 moves. A state without a ply count
    /// (the board-file form) is taken as a game of 40 moves a side.
    fn moves_left(state: &State) -> f64 {
        match state.ply() {
            Some(ply) => f64::from(PLY_LIMIT.saturating_sub(ply).div_ceil(2).max(1)),
            None => 40.0,
        }
    }

    fn choose_move(
        state: &State,
        level: &LevelSpec<AdvanceLevel>,
        params: &BotParams,
        budget: &Budget,
    ) -> Result<BotChoice<Move>, GameError> {
        bots::choose(state, level, params, budget)
    }

    fn analyze_scope(
        state: &State,
        scope: &Scope<Move>,
        _params: &BotParams,
        budget: &Budget,
    ) -> Result<Analysis<Move>, GameError> {
        bots::analyze(state, scope, budget)
    }
}

impl Ladder for Advance {
    // Scores are centipawns (a pawn is 100). Low levels slip: a draw by
    // temperature on a share of moves, since erring a little on every move
    // loses every game. Above them `strong` under node caps, the top's
    // chosen to think about a second a move on a 2-core machine.
    // Every step is aimed near 200, since an 80-game pair moves by a lot
    // between runs (docs/LADDER.md); measured whole in
    // data/ladder/advance.json.
    const LADDER: &'static [Rung] = &[
        Rung::slipping(2, 100_000, 0.68, 300.0),
        Rung::slipping(2, 100_000, 0.55, 300.0),
        Rung::slipping(2, 100_000, 0.40, 300.0),
        Rung::slipping(2, 100_000, 0.28, 300.0),
        Rung::slipping(2, 100_000, 0.18, 300.0),
        Rung::slipping(2, 100_000, 0.08, 300.0),
        Rung::capped(20_000, &[]),
        Rung::capped(750_000, &[]),
    ];
    const LADDER_ZERO: Option<AdvanceLevel> = Some(AdvanceLevel::Legal);
    const LADDER_RATINGS: Option<&'static str> =
        Some(include_str!("../../../data/ladder/advance.json"));
}

impl Codec for Advance {
    type NewOptions = NoOptions;
    type StateJson = state::StateJson;
    type MoveJson = notation::MoveJson;

    fn info() -> GameInfo {
        GameInfo {
            id: "advance",
            name: "Advance",
            players: 2,
            sides: &["white", "black"],
            score_counts:
                "material: the values of the side's pieces on the board (the General counts 0)",
            new_options: &[],
            score_unit: "centipawns of material and position, from the side to move's view (a won game scores far above any material count)",
            text_forms: &["text/plain"],
            rules: include_str!("../../../docs/rules/advance.md"),
        }
    }

    fn new_game(_: NoOptions) -> Result<State, GameError> {
        Ok(State::start())
    }

    fn decode_state(value: &Value) -> Result<State, GameError> {
        state::state_from_json(value)
    }

    fn encode_state(state: &State) -> Value {
        state::state_to_json(state)
    }

    fn notation(_state: &State, mv: &Move) -> String {
        notation::notation(mv)
    }

    fn move_to_json(_state: &State, mv: &Move) -> Value {
        notation::move_json(mv)
    }

    fn parse_move(state: &State, value: &Value) -> Result<Move, GameError> {
        notation::parse_move(state, value)
    }

    fn parse_text(
        body: &str,
        query: &crate::game::TextParams,
    ) -> Result<TextRequest<State>, GameError> {
        Ok(TextRequest {
            state: state::parse_text_request(body, query)?,
            level: None,
            clock: None,
        })
    }

    fn text_bot_move(_before: &State, _mv: &Move, after: &State) -> String {
        after.to_text()
    }
}

impl Referee for Advance {
    fn board_file(state: &State) -> Option<String> {
        Some(state.to_text())
    }

    /// The studio's harness: one move "well under 0.25 s".
    fn match_time() -> MatchTime {
        MatchTime::PerMove(Duration::from_millis(250))
    }
}
