//! Reversi (Othello) on bitboards, with three bot levels: `random`,
//! `norvig` (the course-lab reference: fixed-depth alpha-beta over Norvig's
//! square weights) and `strong` (an engine with an exact endgame solver).
//! Rules, notation and levels: `docs/rules/reversi.md`.
//!
//! - [`board`]: the bitboard rules (moves, flips, stable discs, hashing)
//!   and the move type.
//! - [`state`]: the validated state and its JSON and text forms.
//! - [`notation`]: `d3` / `pass`, JSON objects, legality checks, and a
//!   game's record (`f5d6c3`).
//! - [`bots`]: the levels; [`bots::norvig`], and `strong`'s [`bots::engine`]
//!   with its selective search's cut lines ([`bots::probcut`]), its
//!   [`bots::endgame`] solver and its evaluations ([`bots::patterns`],
//!   trained; [`bots::eval`], the hand-written one of earlier builds), and
//!   the opening book it plays first ([`bots::book`]).
//! - [`perft`]: the fast move counter (bulk counting at the last ply).
//! - [`obf`]: Edax's position format, in which the FFO endgame suites come.
//!
//! Decisions worth knowing:
//! - `norvig`: depth from `norvig:depth=N`, else the request's `max_depth`,
//!   else 6, always capped by `max_depth` and kept within 1–10. A finished
//!   game is a leaf worth 10 000 per disc of difference (any win beats any
//!   square-weight sum, a bigger win a smaller one); a pass uses a ply.
//!   Its tie-break (the first best square in row-major order) is the
//!   position's own: it is searched as given, not on the canonical twin
//!   that the other levels search ([`crate::game::symmetry`]).
//! - `strong` scores: exact (solved) scores are final disc differences with
//!   the empty squares going to the winner (the FFO convention); unsolved
//!   scores are evaluation units, about hundredths of a disc. The report's
//!   `score_unit` says which. The game's outcome itself only compares discs,
//!   which names the same winner.
//! - A time budget makes `strong` non-deterministic; with only depth or node
//!   caps it is deterministic.

pub mod board;
pub mod bots;
pub mod notation;
pub mod obf;
pub mod perft;
pub mod state;

#[cfg(test)]
mod tests;

pub use board::Move;
pub use state::State;

use crate::game::record::BadMove;
use crate::game::{
    Analysis, BotChoice, BotParams, Bots, Budget, Codec, GameError, GameInfo, Ladder, LevelSpec,
    NoOptions, Outcome, Referee, Rules, Rung, Scope, Side, Symmetry, TextRequest,
};
use board::Bits;
use serde_json::{json, Value};

/// The game of Reversi, as seen by the registry.
pub struct Reversi;

/// How a game of Reversi ends.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
#[schemars(rename = "ReversiTermination")]
pub enum ReversiTermination {
    /// Neither side can move (the board is full, or no empty square
    /// flanks a disc); the side with more discs wins, equal counts draw.
    NoMoves,
}

crate::declare_levels! {
    /// The bot levels of Reversi.
    pub enum ReversiLevel {
        Random = "random": "a uniformly random legal move (seeded)",
        Norvig = "norvig": "fixed-depth alpha-beta over Norvig's square weights (depth 6; norvig:depth=N or max_depth, 1-10)",
        Strong = "strong": "iterative-deepening PVS with a trained pattern evaluation, and an exact endgame solver",
    }
}

impl Rules for Reversi {
    type State = State;
    type Move = Move;
    type Termination = ReversiTermination;

    fn to_move(state: &State) -> Side {
        state.to_move
    }

    fn legal_moves(state: &State, out: &mut Vec<Move>) {
        state.legal_moves(out);
    }

    fn apply(state: &State, mv: &Move) -> State {
        state.apply(*mv)
    }

    fn outcome(state: &State) -> Outcome<ReversiTermination> {
        outcome(state)
    }

    const SYMMETRIES: &'static [Symmetry] = &Symmetry::SQUARE;

    fn transform_state(state: &State, symmetry: Symmetry) -> State {
        state.transformed(symmetry)
    }

    fn transform_move(mv: &Move, symmetry: Symmetry) -> Move {
        match *mv {
            Move::Place(sq) => Move::Place(board::transform_square(u32::from(sq), symmetry) as u8),
            Move::Pass => Move::Pass,
        }
    }

    fn twin_key(state: &State) -> Vec<u8> {
        state.twin_key()
    }
}

/// Empty squares at which a clocked `strong` has solved the endgame, so
/// that its later moves cost no time.
const FREE_EMPTIES: u32 = 14;

impl Bots for Reversi {
    const REVIEW_NOISE: Option<&'static str> =
        Some(include_str!("../../../data/review/reversi.json"));

    type Level = ReversiLevel;

    type BotOptions = NoOptions;

    const DEFAULT_LEVEL: ReversiLevel = ReversiLevel::Strong;

    const WIN_MODEL: Option<&'static str> =
        Some(include_str!("../../../data/calibration/reversi.json"));

    /// Discs on the board.
    fn phase(state: &State) -> u32 {
        64 - state.board().empties()
    }

    /// The mover's moves that cost time: about every other empty square
    /// until the endgame is solved exactly, after which the moves are
    /// played from the proof at once (docs/LIVE-PLAY.md has the fit).
    fn moves_left(state: &State) -> f64 {
        f64::from(state.board().empties().saturating_sub(FREE_EMPTIES)) / 2.0 + 1.0
    }

    /// `norvig` takes the first best square in row-major order.
    fn breaks_ties_in_given_order(level: ReversiLevel) -> bool {
        level == ReversiLevel::Norvig
    }

    fn choose_move(
        state: &State,
        level: &LevelSpec<ReversiLevel>,
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
        Ok(bots::analyze(state, scope, budget))
    }

    fn book_moves(state: &State) -> Vec<Move> {
        bots::book_moves(state)
    }
}

impl Ladder for Reversi {
    // Scores are hundredths of a disc (exact endgame scores are whole discs).
    // Spaced by 200-game probes from 8-ply openings; the measured steps are
    // in data/ladder/reversi.json, the probes in docs/LADDER.md. The capped
    // rungs below the top search full width (`probcut=0`) and play no book
    // moves (`book=0`), as they did when measured; the top plays as
    // `strong` does, selective search and book included, on its own budget.
    const LADDER_OPENING_PLIES: usize = 8;
    const LADDER: &'static [Rung] = &[
        Rung::sampled(1, 200_000, 1500.0),
        Rung::sampled(1, 200_000, 400.0),
        Rung::sampled(2, 200_000, 250.0),
        Rung::sampled(3, 200_000, 120.0),
        Rung::sampled(4, 200_000, 40.0),
        Rung::sampled(6, 200_000, 20.0),
        Rung::capped(1_000, &[("solve", "0"), ("probcut", "0"), ("book", "0")]),
        Rung::capped(3_000, &[("solve", "0"), ("probcut", "0"), ("book", "0")]),
        Rung::capped(10_000, &[("solve", "0"), ("probcut", "0"), ("book", "0")]),
        Rung::capped(100_000, &[("probcut", "0"), ("book", "0")]),
        Rung::capped(
            400_000,
            &[
                ("solve", "18"),
                ("solve_nodes", "20000000"),
                ("probcut", "0"),
                ("book", "0"),
            ],
        ),
        Rung::capped(2_500_000, &[("solve", "20"), ("solve_nodes", "60000000")]),
    ];
    const LADDER_ZERO: Option<ReversiLevel> = Some(ReversiLevel::Random);
    const LADDER_RATINGS: Option<&'static str> =
        Some(include_str!("../../../data/ladder/reversi.json"));
}

impl Codec for Reversi {
    type NewOptions = NoOptions;
    type StateJson = state::StateJson;
    type MoveJson = notation::MoveJson;

    fn info() -> GameInfo {
        GameInfo {
            id: "reversi",
            name: "Reversi (Othello), 8×8",
            players: 2,
            sides: &["black", "white"],
            score_counts: "discs on the board",
            new_options: &[],
            score_unit: "hundredths of a disc (an estimate) or, where proven, discs of final difference, from the side to move's view",
            text_forms: &["text/plain"],
            rules: include_str!("../../../docs/rules/reversi.md"),
        }
    }

    fn new_game(_: NoOptions) -> Result<State, GameError> {
        Ok(State::start())
    }

    fn decode_state(value: &Value) -> Result<State, GameError> {
        State::try_from(value)
    }

    fn encode_state(state: &State) -> Value {
        state.to_json()
    }

    fn notation(_state: &State, mv: &Move) -> String {
        mv.notation()
    }

    fn move_to_json(_state: &State, mv: &Move) -> Value {
        mv.to_json()
    }

    fn parse_move(state: &State, value: &Value) -> Result<Move, GameError> {
        state.parse_move(value)
    }

    /// The squares played, concatenated (`f5d6c3`), passes left out.
    fn write_record(_start: &State, moves: &[Move]) -> String {
        notation::write_record(moves)
    }

    /// Squares in either case; the passes the record leaves out are put back.
    fn read_record(start: &State, record: &str) -> Result<Vec<Move>, BadMove> {
        notation::read_record(start, record)
    }

    fn describe_move(state: &State, mv: &Move) -> Option<Value> {
        let Move::Place(sq) = *mv else {
            return None;
        };
        let board = state.board();
        let flipped = board::flips(board.me, board.opp, u32::from(sq));
        let squares: Vec<String> = Bits(flipped).map(board::square_name).collect();
        Some(json!({"flipped": squares}))
    }

    fn parse_text(
        body: &str,
        query: &crate::game::TextParams,
    ) -> Result<TextRequest<State>, GameError> {
        Ok(TextRequest {
            state: state::parse_text(body, query)?,
            level: None,
            clock: None,
        })
    }

    fn text_bot_move(_before: &State, _mv: &Move, after: &State) -> String {
        state::to_text(after)
    }
}

impl Referee for Reversi {
    /// Othello engines speak GTP; `d3` is the same square for them (row 1
    /// at the top, as GRhino shows it).
    fn speaks_gtp() -> bool {
        true
    }

    /// Black's discs minus white's.
    fn margin(state: &State) -> Option<i64> {
        Some(i64::from(state.black.count_ones()) - i64::from(state.white.count_ones()))
    }
}

/// How the game stands: over when neither side can move; `score` counts
/// each side's discs.
fn outcome(state: &State) -> Outcome<ReversiTermination> {
    let board = state.board();
    if !board.is_over() {
        return Outcome::Ongoing;
    }
    let black = i64::from(state.black.count_ones());
    let white = i64::from(state.white.count_ones());
    let score = [black, white];
    let termination = ReversiTermination::NoMoves;
    let reason = format!("neither side can move; black {black}, white {white}");
    match black.cmp(&white) {
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
            reason,
            termination,
            score,
        },
    }
}
