//! Halma on a 16×16 board, 19 pieces a side, with the "unspoiling" win rule
//! and the course referee's camp rules (rules in `docs/rules/halma.md`).
//!
//! Sides: black (top-left camp) and white (bottom-right camp), listed in that
//! order. Neither the rules text nor the fixtures say who opens (the legacy
//! input names the colour to play each time); this crate decides that black
//! opens, so `new` starts with black to move unless its `to_move` option says
//! otherwise.
//!
//! - [`board`]: geometry, camps, 256-bit cell sets, the position.
//! - [`movegen`]: steps, jump chains, camp rules; moves are small `Copy` values.
//! - [`notation`]: moves as text and JSON, reading them back (any valid
//!   chain), and cutting a record into moves.
//! - [`state`]: the state's JSON form.
//! - [`bots::eval`], [`bots::search`], [`bots`]: the bots and the clock manager.
//! - [`text`]: the course's `input.txt` / `output.txt` contract.

pub mod board;
pub mod bots;
pub mod movegen;
pub mod notation;
pub mod state;
pub mod text;

#[cfg(test)]
mod tests;

pub use board::CampRule;
pub use bots::{Clock, ClockMode, HalmaOptions};
pub use movegen::Move;
pub use state::State;

use crate::game::record::{self, BadMove};
use crate::game::{
    Analysis, BotChoice, BotParams, Bots, Budget, Codec, GameError, GameInfo, Ladder, LevelSpec,
    MatchTime, OptionInfo, Outcome, Referee, Rules, Rung, Scope, Side, TextRequest,
};
use serde_json::Value;
use std::time::Duration;

/// The game of Halma, for the registry.
pub struct Halma;

/// The options of a new Halma game.
#[derive(Debug, Default, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "HalmaNewOptions")]
pub struct HalmaNew {
    /// The camp rules (default: the course referee's).
    #[serde(default)]
    pub camp_rule: CampRule,
    /// Who moves first (default black).
    #[serde(default)]
    pub to_move: HalmaSide,
    /// The ply at which the game ends if nobody has won (default: none).
    #[serde(default)]
    pub ply_limit: Option<u32>,
}

/// How a game of Halma ends.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
#[schemars(rename = "HalmaTermination")]
pub enum HalmaTermination {
    /// The last mover filled the opposing camp (every cell of it occupied,
    /// at least one by its own pieces): it wins.
    CampFilled,
    /// The state's `ply` reached its `ply_limit` with no winner: the side
    /// with more pieces inside the opposing camp wins, equal counts draw.
    PlyLimit,
    /// The side to move has no legal move: a draw.
    NoLegalMove,
}

/// The outcome once the ply limit is reached with no winner.
fn ply_limit_outcome(state: &State, score: [i64; 2]) -> Outcome<HalmaTermination> {
    let termination = HalmaTermination::PlyLimit;
    match state.goal_leader() {
        Some(winner) => Outcome::Win {
            winner,
            reason: "more pieces inside the opposing camp at the ply limit".to_string(),
            termination,
            score,
        },
        None => Outcome::Draw {
            reason: "as many pieces inside the opposing camp at the ply limit".to_string(),
            termination,
            score,
        },
    }
}

/// A side, as Halma's options name it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
#[schemars(rename = "HalmaFirstMover")]
pub enum HalmaSide {
    /// Black, who moves first by default.
    #[default]
    Black,
    /// White.
    White,
}

crate::declare_levels! {
    /// The bot levels of Halma.
    pub enum HalmaLevel {
        Random = "random": "any legal move, seeded",
        Minimax = "minimax": "the course's reference opponent: plain minimax at depth 2 (depth=N) over the distance to goal",
        Strong = "strong": "alpha-beta with iterative deepening, a transposition table and a clock manager",
    }
}

impl Rules for Halma {
    type State = State;
    type Move = Move;
    type Termination = HalmaTermination;

    fn to_move(state: &State) -> Side {
        state.to_move()
    }

    fn legal_moves(state: &State, out: &mut Vec<Move>) {
        movegen::generate(state, out);
    }

    fn apply(state: &State, mv: &Move) -> State {
        let mut next = state.clone();
        next.apply_move(mv.from, mv.to);
        next
    }

    fn has_legal_move(state: &State) -> bool {
        movegen::has_any_move(state)
    }

    fn outcome(state: &State) -> Outcome<HalmaTermination> {
        let last = state.to_move().other();
        let score = || state.pieces_in_goal().map(i64::from);
        if state.has_won(last) {
            Outcome::Win {
                winner: last,
                reason: "filled the opposing camp".to_string(),
                termination: HalmaTermination::CampFilled,
                score: score(),
            }
        } else if state.ply_limit_reached() {
            ply_limit_outcome(state, score())
        } else if !movegen::has_any_move(state) {
            Outcome::Draw {
                reason: "no legal move".to_string(),
                termination: HalmaTermination::NoLegalMove,
                score: score(),
            }
        } else {
            Outcome::Ongoing
        }
    }
}

impl Bots for Halma {
    const REVIEW_NOISE: Option<&'static str> =
        Some(include_str!("../../../data/review/halma.json"));

    type Level = HalmaLevel;

    type BotOptions = HalmaOptions;

    const DEFAULT_LEVEL: HalmaLevel = HalmaLevel::Strong;

    const WIN_MODEL: Option<&'static str> =
        Some(include_str!("../../../data/calibration/halma.json"));

    /// The distance both sides' pieces still have to go: every piece's
    /// Manhattan distance to its goal corner, summed (it falls as the game
    /// goes on).
    /// The pieces' distance to the goal camp over a move's typical progress.
    fn moves_left(state: &State) -> f64 {
        bots::expected_moves_left(state)
    }

    fn phase(state: &State) -> u32 {
        [Side::First, Side::Second]
            .into_iter()
            .map(|side| {
                state
                    .side(side)
                    .cells()
                    .map(|cell| board::goal_distance(side, cell))
                    .sum::<u32>()
            })
            .sum()
    }

    /// A clock's seconds must be above 0 and at most a day.
    fn check_options(options: &HalmaOptions) -> Result<(), GameError> {
        options.clock.as_ref().map_or(Ok(()), Clock::check)
    }

    fn choose_move(
        state: &State,
        level: &LevelSpec<HalmaLevel>,
        params: &BotParams<HalmaOptions>,
        budget: &Budget,
    ) -> Result<BotChoice<Move>, GameError> {
        bots::choose(state, level, params, budget)
    }

    fn analyze_scope(
        state: &State,
        scope: &Scope<Move>,
        params: &BotParams<HalmaOptions>,
        budget: &Budget,
    ) -> Result<Analysis<Move>, GameError> {
        Ok(bots::analyze(state, scope, params, budget))
    }
}

impl Ladder for Halma {
    // Scores are `strong`'s evaluation: a piece's cost grows by about 10 to
    // 25 a square it still has to go. Low levels are 2-ply searches that
    // slip (a draw at T 30, about two squares) on a share of moves; above
    // them `strong` under node caps, whose strength comes in lumps where an
    // iteration completes, so the caps sit on the lumps (the probes that
    // showed it are in docs/LADDER.md); the top's cap is instead what
    // averages about a second a move, timed with research's `rung_time`
    // (the figure is in docs/LADDER.md). The slip at the bottom keeps the
    // number of levels even, which keeps the top out of the two-apart pairs.
    const LADDER: &'static [Rung] = &[
        Rung::slipping(2, 50_000, 0.28, 30.0),
        Rung::slipping(2, 50_000, 0.18, 30.0),
        Rung::slipping(2, 50_000, 0.06, 30.0),
        Rung::capped(250, &[]),
        Rung::capped(500, &[]),
        Rung::capped(700, &[]),
        Rung::capped(1_000, &[]),
        Rung::capped(4_000, &[]),
        Rung::capped(12_000, &[]),
        Rung::capped(50_000, &[]),
        Rung::capped(150_000, &[]),
        Rung::capped(750_000, &[]),
    ];
    const LADDER_ZERO: Option<HalmaLevel> = Some(HalmaLevel::Random);
    const LADDER_RATINGS: Option<&'static str> =
        Some(include_str!("../../../data/ladder/halma.json"));
}

impl Codec for Halma {
    type NewOptions = HalmaNew;
    type StateJson = state::StateJson;
    type MoveJson = notation::MoveJson;

    fn info() -> GameInfo {
        GameInfo {
            id: "halma",
            name: "Halma",
            players: 2,
            sides: &["black", "white"],
            score_counts: "the side's pieces inside the opposing camp",
            new_options: &[
                OptionInfo {
                    name: "camp_rule",
                    description:
                        "\"referee\" (default: the course referee's camp rules) or \"basic\"",
                },
                OptionInfo {
                    name: "to_move",
                    description: "\"black\" (default) or \"white\": who moves first",
                },
                OptionInfo {
                    name: "ply_limit",
                    description: "a whole number from 1: the ply at which the game ends if nobody has won (more pieces inside the opposing camp wins); default none",
                },
            ],
            score_unit: "evaluation units of progress towards the opposing camp, from the side to move's view",
            text_forms: &["text/plain"],
            rules: include_str!("../../../docs/rules/halma.md"),
        }
    }

    fn new_game(options: HalmaNew) -> Result<State, GameError> {
        let to_move = match options.to_move {
            HalmaSide::Black => Side::First,
            HalmaSide::White => Side::Second,
        };
        if options.ply_limit == Some(0) {
            return Err(GameError::invalid_option_at(
                "/ply_limit",
                "option ply_limit is 0: expected a whole number from 1 (the ply at which the game ends if nobody has won), or no ply_limit for no limit".to_string(),
            ));
        }
        Ok(State::start(to_move, options.camp_rule).with_plies(Some(0), options.ply_limit))
    }

    fn decode_state(value: &Value) -> Result<State, GameError> {
        state::state_from_json(value)
    }

    fn encode_state(state: &State) -> Value {
        state::state_to_json(state)
    }

    fn notation(state: &State, mv: &Move) -> String {
        notation::notation(state, mv)
    }

    fn move_to_json(state: &State, mv: &Move) -> Value {
        notation::move_json(state, mv)
    }

    fn parse_move(state: &State, value: &Value) -> Result<Move, GameError> {
        notation::parse_move(state, value)
    }

    /// The moves' notations joined with spaces, a jump's lines with `;`.
    fn write_record(start: &State, moves: &[Move]) -> String {
        let one_line: Vec<String> = record::notations::<Halma>(start, moves)
            .into_iter()
            .map(|text| text.replace('\n', ";"))
            .collect();
        one_line.join(" ")
    }

    /// Moves start at each `E` or `J` that no `;` joins to the one before.
    fn read_record(start: &State, record: &str) -> Result<Vec<Move>, BadMove> {
        record::read_texts::<Halma>(start, notation::record_moves(record))
    }

    fn parse_text(
        body: &str,
        query: &crate::game::TextParams,
    ) -> Result<TextRequest<State>, GameError> {
        query.only(&["camp_rule"])?;
        let camp_rule = match query.get("camp_rule") {
            None => CampRule::Referee,
            Some(value) => state::parse_camp_rule(value).ok_or_else(|| {
                GameError::invalid_option(format!("camp_rule={value}: expected referee or basic"))
            })?,
        };
        let input = text::parse_input(body, camp_rule)?;
        Ok(TextRequest {
            state: input.state,
            level: None,
            clock: Some(input.clock.to_game_clock()),
        })
    }

    /// One move per line; a jump chain's lines are joined by `; `.
    fn text_legal_moves(state: &State, moves: &[Move]) -> String {
        moves
            .iter()
            .map(|m| notation::notation(state, m).replace('\n', "; ") + "\n")
            .collect()
    }

    fn text_bot_move(before: &State, mv: &Move, _after: &State) -> String {
        text::output_text(before, mv)
    }
}

impl Referee for Halma {
    /// The course referee's `input.txt`: GAME with the clock's remainder
    /// in a match with game clocks, SINGLE with the move's time otherwise.
    fn agent_input(
        state: &State,
        move_time: Duration,
        game_time_left: Option<Duration>,
    ) -> Option<String> {
        let clock = match game_time_left {
            Some(left) => Clock {
                mode: ClockMode::Game,
                time_left_s: left.as_secs_f64(),
            },
            None => Clock {
                mode: ClockMode::Single,
                time_left_s: move_time.as_secs_f64(),
            },
        };
        Some(text::input_text(state, &clock))
    }

    /// The course's whole-game clock: 300 s a side.
    fn match_time() -> MatchTime {
        MatchTime::GameClock(Duration::from_secs(300))
    }
}
