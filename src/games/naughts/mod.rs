//! Fancy Naughts & Crosses: tic-tac-toe on a 2×2 to 8×8 grid where each side
//! holds markers of sizes 1..=pieces and a bigger marker may cover a smaller
//! one. Rules: `docs/rules/naughts.md`.
//!
//! - [`state`]: cells, hands, the validated state with its move generation,
//!   and its JSON form.
//! - [`notation`]: moves as typed (`2 2 5`), as JSON objects, the
//!   course's five messages, and cutting a record into moves.
//! - [`bots`]: `random`, `greedy` and `perfect`, whose [`bots::solver`]
//!   searches with a symmetry-keyed table and an opening book.
//!
//! The pass rule is applied by [`Rules::apply`]: when the opponent cannot move
//! but the mover can, the turn stays with the mover, so every state the
//! service answers with has a side to move that can move while the game goes
//! on. A state given to the service may instead name the stuck side to move
//! (right after the other side's move, as a client that simply alternates
//! turns would send it); its one legal move is then the pass ([`Play::Pass`],
//! notation `pass`, the object with `row`, `col` and `size` all null), which
//! `legal-moves` lists, `bot-move` plays and `play` accepts, as Reversi does
//! with its forced pass. Once the game is over (a win or a stalemate)
//! `to_move` names the side that did not make the last move. A pass cannot
//! happen on 3×3 with 5 pieces (the side behind always has an empty cell to
//! use); it can with more pieces.
//!
//! Solved (the `naughts` bench's empty-board solves and the research command
//! `naughts_first_moves`): with perfect
//! play the empty 3×3 board is a draw for every hand size from 5 to 9. The
//! first moves that lose are the biggest marker on an edge (loss in 10 plies)
//! and, from 6 pieces up, the second biggest in the centre or a corner (loss
//! in 12); every other first move draws. The `perfect` level answers the empty board and every
//! reply to a first move from an opening book for 6–9 pieces
//! (`bots/opening_book.txt`) and solves everything else on 2×2 and 3×3 exactly;
//! on bigger grids it searches under the budget and says `proven: false`
//! unless the search proved the value.

pub mod bots;
pub mod notation;
pub mod state;
#[cfg(test)]
mod tests;

pub use state::{Cell, Move, Play, State};

use crate::game::record::BadMove;
use crate::game::{
    Analysis, BotChoice, BotParams, Bots, Budget, Codec, GameError, GameInfo, Ladder, LevelSpec,
    NoOptions, OptionInfo, Outcome, Referee, Rules, Rung, Scope, Side,
};
use serde_json::Value;
use state::{side_name, RawState, GRID_SIZES, PIECE_COUNTS};

/// The game, as registered under the id `naughts`.
pub struct Naughts;

/// How a game of Fancy Naughts & Crosses ends.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
#[schemars(rename = "NaughtsTermination")]
pub enum NaughtsTermination {
    /// A side's visible markers fill a row, a column or a diagonal: it wins.
    Line,
    /// Nobody has a line and neither side can move: a draw.
    Stalemate,
}

/// The final tally per side: the cells whose top marker is that side's.
fn cells_on_top(state: &State) -> [i64; 2] {
    let n = state.grid();
    let mut tally = [0; 2];
    for (row, col) in (0..n).flat_map(|r| (0..n).map(move |c| (r, c))) {
        if let Some(owner) = state.cell(row, col).owner() {
            tally[owner.index()] += 1;
        }
    }
    tally
}

/// The options of a new game: the grid's size and the markers each hand holds.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
#[schemars(rename = "NaughtsNewOptions")]
pub struct NaughtsNew {
    /// Rows and columns, 2 to 8.
    pub grid_size: u8,
    /// Markers a side, sizes 1..pieces, 5 to 9.
    pub pieces: u8,
}

impl Default for NaughtsNew {
    fn default() -> Self {
        NaughtsNew {
            grid_size: 3,
            pieces: 5,
        }
    }
}

/// `value` if `range` holds it, else `invalid_option` naming the option.
fn in_range(
    name: &str,
    value: u8,
    range: std::ops::RangeInclusive<usize>,
) -> Result<u8, GameError> {
    if range.contains(&usize::from(value)) {
        Ok(value)
    } else {
        Err(GameError::invalid_option_at(
            format!("/{name}"),
            format!(
                "option {name} is {value}: expected a whole number from {} to {}",
                range.start(),
                range.end()
            ),
        ))
    }
}

/// The name of a winning line of `state`, for the outcome's reason.
fn winning_line(state: &State, winner: Side) -> String {
    let n = state.grid();
    let owns = |r: usize, c: usize| state.cell(r, c).owner() == Some(winner);
    if let Some(r) = (0..n).find(|&r| (0..n).all(|c| owns(r, c))) {
        return format!("row {}", r + 1);
    }
    if let Some(c) = (0..n).find(|&c| (0..n).all(|r| owns(r, c))) {
        return format!("column {}", c + 1);
    }
    if (0..n).all(|i| owns(i, i)) {
        return "the main diagonal".to_string();
    }
    "the anti-diagonal".to_string()
}

crate::declare_levels! {
    /// The bot levels of Fancy Naughts & Crosses.
    pub enum NaughtsLevel {
        Random = "random": "a uniformly random legal move (seeded)",
        Greedy = "greedy": "wins at once if it can, else blocks the opponent's immediate win, else random",
        Perfect = "perfect": "exact solver: never loses a won or drawn position, wins fastest and loses slowest; on big grids the best found within the budget (proven=false)",
    }
}

impl Rules for Naughts {
    type State = State;
    type Move = Play;
    type Termination = NaughtsTermination;

    fn to_move(state: &State) -> Side {
        state.to_move()
    }

    fn legal_moves(state: &State, out: &mut Vec<Play>) {
        if state.must_pass() {
            out.push(Play::Pass);
            return;
        }
        let mut placements = Vec::new();
        state.legal_moves(&mut placements);
        out.extend(placements.into_iter().map(Play::Place));
    }

    fn apply(state: &State, turn: &Play) -> State {
        state.play(turn)
    }

    fn outcome(state: &State) -> Outcome<NaughtsTermination> {
        if let Some(winner) = state.winner() {
            return Outcome::Win {
                winner,
                reason: format!(
                    "{} completed {}",
                    side_name(winner),
                    winning_line(state, winner)
                ),
                termination: NaughtsTermination::Line,
                score: cells_on_top(state),
            };
        }
        if state.is_stalemate() {
            return Outcome::Draw {
                reason: "stalemate: neither side can move".to_string(),
                termination: NaughtsTermination::Stalemate,
                score: cells_on_top(state),
            };
        }
        Outcome::Ongoing
    }
}

impl Bots for Naughts {
    const REVIEW_NOISE: Option<&'static str> =
        Some(include_str!("../../../data/review/naughts.json"));

    type Level = NaughtsLevel;

    type BotOptions = NoOptions;

    const DEFAULT_LEVEL: NaughtsLevel = NaughtsLevel::Perfect;

    /// The pieces the mover still holds: every move places one.
    fn moves_left(state: &State) -> f64 {
        state.hand(state.to_move()).len().max(1) as f64
    }

    fn choose_move(
        state: &State,
        level: &LevelSpec<NaughtsLevel>,
        params: &BotParams,
        budget: &Budget,
    ) -> Result<BotChoice<Play>, GameError> {
        bots::choose(state, level, params, budget)
    }

    fn analyze_scope(
        state: &State,
        scope: &Scope<Play>,
        _params: &BotParams,
        budget: &Budget,
    ) -> Result<Analysis<Play>, GameError> {
        Ok(bots::analyze(state, scope, budget))
    }

    fn book_moves(state: &State) -> Vec<Play> {
        bots::book::book_move(state)
            .map(|(mv, _)| Play::Place(mv))
            .into_iter()
            .collect()
    }
}

impl Ladder for Naughts {
    // Scores are the solver's evaluation (a line holding one marker of a
    // side is 4, two 16; a marker in hand 4) below a decided game. Perfect
    // play is a draw, so the game spans little: see docs/LADDER.md.
    const LADDER: &'static [Rung] = &[
        Rung::sampled(1, 20_000, 250_000.0),
        Rung::sampled(2, 20_000, 40.0),
        Rung::sampled(4, 20_000, 5.0),
        Rung::capped(1_000_000, &[]),
    ];
    const LADDER_ZERO: Option<NaughtsLevel> = Some(NaughtsLevel::Random);
    const LADDER_RATINGS: Option<&'static str> =
        Some(include_str!("../../../data/ladder/naughts.json"));
}

impl Codec for Naughts {
    type NewOptions = NaughtsNew;
    type StateJson = RawState;
    type MoveJson = notation::MoveJson;

    fn info() -> GameInfo {
        GameInfo {
            id: "naughts",
            name: "Fancy Naughts & Crosses",
            players: 2,
            sides: &["O", "X"],
            score_counts: "cells whose top marker is the side's",
            new_options: &[
                OptionInfo {
                    name: "grid_size",
                    description: "integer 2-8, default 3: rows and columns of the board",
                },
                OptionInfo {
                    name: "pieces",
                    description: "integer 5-9, default 5: markers per side, sizes 1..pieces",
                },
            ],
            score_unit: "game value from the side to move's view: positive wins, negative loses, 0 draws (larger magnitudes win sooner)",
            text_forms: &[],
            rules: include_str!("../../../docs/rules/naughts.md"),
        }
    }

    fn new_game(options: NaughtsNew) -> Result<State, GameError> {
        let grid = in_range("grid_size", options.grid_size, GRID_SIZES)?;
        let pieces = in_range("pieces", options.pieces, PIECE_COUNTS)?;
        Ok(State::new(grid, pieces))
    }

    fn decode_state(value: &Value) -> Result<State, GameError> {
        State::try_from(RawState::from_value(value)?)
    }

    fn encode_state(state: &State) -> Value {
        serde_json::to_value(RawState::from(state)).expect("a state always serializes")
    }

    fn notation(_state: &State, turn: &Play) -> String {
        notation::turn_notation(turn)
    }

    fn move_to_json(_state: &State, turn: &Play) -> Value {
        serde_json::to_value(notation::MoveJson::from(turn)).expect("a move always serializes")
    }

    fn parse_move(state: &State, value: &Value) -> Result<Play, GameError> {
        notation::parse(state, value)
    }

    /// The moves as typed, three words each (`2 2 5`), or `pass`.
    fn read_record(start: &State, record: &str) -> Result<Vec<Play>, BadMove> {
        crate::game::record::read_texts::<Naughts>(start, notation::record_moves(record))
    }
}

impl Referee for Naughts {}
