//! The game abstraction: what every game implements, and what the rest of the
//! crate may know about a game. This module imports nothing else from the crate.
//!
//! A game is a type implementing five traits, one a concern, built on the
//! rules (siblings, not a chain):
//!
//! - [`Rules`]: the validated state, the move type, whose turn it is, the
//!   legal moves, applying one, and the outcome. Search and perft need
//!   nothing more.
//! - [`Bots`]: the typed [`Level`] enum (declared once with
//!   [`crate::declare_levels!`]), the typed bot options a request may carry,
//!   and the levels' moves and analyses; [`Ladder`] (on top of the bots):
//!   the numbered levels' rungs and their measured ratings.
//! - [`Codec`]: the static [`GameInfo`], typed new-game options, the JSON
//!   state and moves, notation, a game's one-line record, and the legacy
//!   text forms.
//! - [`Referee`] (on top of the codec): what only a match needs, the
//!   contracts outside programs play by and a match's defaults.
//!
//! Together they make a [`Game`]. [`record`] replays a game from its moves
//! or its record; [`symmetry`] turns a position to the canonical twin its
//! searches run on. [`erased`] turns any `Game` into a [`DynGame`], the
//! type-erased JSON view that the HTTP layer and the registry work with, so
//! the HTTP layer never knows one game from another; [`wire`] holds the
//! shapes of that view's requests and answers, which the API serves as they
//! are (they know no HTTP), each generic over the [`forms`] it is written
//! in (any game's JSON values, or a game's own types for the contract).

pub mod analysis;
mod budget;
pub mod calibration;
pub mod clock;
mod codec_calls;
pub mod costs;
pub mod erased;
mod error;
pub mod fields;
pub mod forms;
pub mod ladder;
mod level;
pub mod location;
mod perft;
pub mod placement;
pub mod record;
pub mod review;
pub mod symmetry;
pub mod wire;

pub use budget::{
    Budget, Clamped, ClockReport, ClockedMove, Observer, Pace, Progress, SearchReport, StopFlag,
    StopReason,
};
pub use erased::{DynGame, Erased, TextParams};
pub use error::{ErrorCode, Fault, GameError};
pub use ladder::{AnyLevel, Ladder, Rung};
pub use level::{BotParams, Level, LevelDef, LevelSpec, NoOptions};
pub use perft::perft;
pub use symmetry::Symmetry;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use std::time::Duration;

/// A side. Two-player games use both; one-player games only `First`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The side that moves first from the starting position.
    First,
    /// The other side.
    Second,
}

impl Side {
    /// The opponent of this side.
    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for `First`, 1 for `Second`: handy for indexing per-side arrays.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// How a game ended, as data: each game's own enum of the ways its games
/// end (`no_moves`, `ply_limit`, ...), serialized as its snake_case name and
/// described, variant by variant, in its JSON schema for a portal to read.
pub trait Termination:
    Copy + std::fmt::Debug + Eq + Send + Sync + Serialize + schemars::JsonSchema + 'static
{
}

impl<T> Termination for T where
    T: Copy + std::fmt::Debug + Eq + Send + Sync + Serialize + schemars::JsonSchema + 'static
{
}

/// How a game stands after a position is reached; `T` is the game's
/// [`Termination`] enum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome<T> {
    /// Somebody still has to move.
    Ongoing,
    /// The game is over and `winner` has won.
    Win {
        /// Who won.
        winner: Side,
        /// Why, in a few words (`"more discs"`, `"no legal move"`).
        reason: String,
        /// How the game ended, as data.
        termination: T,
        /// The final tally per side in the game's own terms (what
        /// [`GameInfo::score_counts`] says), indexed by [`Side::index`].
        score: [i64; 2],
    },
    /// The game is over without a winner.
    Draw {
        /// Why, in a few words.
        reason: String,
        /// How the game ended, as data.
        termination: T,
        /// The final tally per side, indexed by [`Side::index`].
        score: [i64; 2],
    },
    /// A one-player game has ended.
    Finished {
        /// How the game ended, as data.
        termination: T,
        /// The player's final points.
        points: i64,
    },
}

impl<T> Outcome<T> {
    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        !matches!(self, Outcome::Ongoing)
    }
}

/// Reads `new`'s `options` (a JSON object, or null for the defaults) as the
/// game's typed options. An option the game does not have, or a value of the
/// wrong type, is `invalid_option` naming it, with its pointer within the
/// options (`/k`).
pub fn read_new_options<G: Game>(options: &Value) -> Result<G::NewOptions, GameError> {
    if options.is_null() {
        return Ok(G::NewOptions::default());
    }
    if !options.is_object() {
        return Err(GameError::invalid_option_at(
            "",
            format!("options must be a JSON object, not {options}"),
        ));
    }
    serde_path_to_error::deserialize(options.clone()).map_err(|e| {
        let option = e.path().to_string();
        let pointer = error::pointer_of(e.path());
        let message = e
            .into_inner()
            .to_string()
            .replace(", there are no fields", "");
        let hint = if message.starts_with("unknown field") {
            let known: Vec<&str> = G::info().new_options.iter().map(|o| o.name).collect();
            match known.as_slice() {
                [] => " (it always starts from the standard position)".to_string(),
                names => format!(" (it takes: {})", names.join(", ")),
            }
        } else {
            String::new()
        };
        GameError::invalid_option_at(
            pointer,
            format!(
                "{} has no such new game: option '{option}': {message}{hint}",
                G::info().id
            ),
        )
    })
}

/// Static description of a game: what `GET /v1/games` lists besides the
/// levels, which come from the game's [`Level`] type. Plain `'static` data,
/// so reading it costs nothing.
#[derive(Clone, Copy, Debug)]
pub struct GameInfo {
    /// The id used in URLs (`reversi`).
    pub id: &'static str,
    /// The human name.
    pub name: &'static str,
    /// 1 or 2.
    pub players: u8,
    /// The names of the sides as they appear in states and outcomes, first mover first.
    pub sides: &'static [&'static str],
    /// What an outcome's `score` counts for each side ("discs on the board",
    /// "points"), in a few words.
    pub score_counts: &'static str,
    /// The options `new` accepts, each with a one-line description.
    pub new_options: &'static [OptionInfo],
    /// The unit of a search's `score`, always from the side to move's
    /// view (`"hundredths of a disc"`), where a level does not say its own.
    pub score_unit: &'static str,
    /// The content types this game accepts besides JSON, if any (e.g. `text/plain`).
    pub text_forms: &'static [&'static str],
    /// The rules in the project's own words (Markdown, `docs/rules/<id>.md`),
    /// served at `GET /v1/games/{id}/rules`.
    pub rules: &'static str,
}

/// A bot level as `GET /v1/games` lists it.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct LevelInfo {
    /// The level id used in requests.
    pub id: &'static str,
    /// What it does, in one line.
    pub description: &'static str,
}

/// The zero of a game's ladder as `GET /v1/games` lists it: the named
/// level every numbered level's rating counts from.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct LadderZeroInfo {
    /// The named level (the game's uniformly random mover: `random`, in
    /// Advance `legal`).
    pub level: &'static str,
    /// Its rating: 0, by definition, so that a level rated 900 is 900 Elo
    /// above random moves.
    pub rating: f64,
    /// The games it played against level 1 in the ladder run.
    pub games: u32,
}

/// What a numbered level may search a move, as `GET /v1/games` lists it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct RungBudget {
    /// The most positions it visits a move (null: no cap of its own).
    pub max_nodes: Option<u64>,
    /// The deepest it searches, in plies (null: its own plan).
    pub max_depth: Option<u32>,
    /// Milliseconds it thinks a move, for a level bounded by time: null,
    /// since every numbered level is bounded by positions and depth alone.
    pub time_ms: Option<u64>,
    /// Whether, for a seed, it plays the same move on any machine under
    /// any load: true, since no numbered level is bounded by time (nor by
    /// the request's budget).
    pub load_independent: bool,
}

/// A numbered level as `GET /v1/games` lists it, with the rating
/// `gamebot ladder` measured for it (or, in a one-player game, the mean
/// scores the benchmark measured), if it has been.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct NumberedLevelInfo {
    /// The level number used in requests (`"level": "5"`).
    pub level: u8,
    /// How the level plays, in one line.
    pub description: String,
    /// What the level may search a move.
    pub budget: RungBudget,
    /// Its Elo rating above the ladder's zero (`ladder_zero`, the random
    /// mover), or null before a ladder run.
    pub rating: Option<f64>,
    /// The rating's 95% interval, or null.
    pub interval: Option<[f64; 2]>,
    /// For a one-player game, the mean score the level reaches in each
    /// variant measured (`{"k=4": 16247.4}`), or null.
    pub mean_scores: Option<std::collections::BTreeMap<String, f64>>,
    /// What the level costs a move (median and 95th percentile of its time
    /// and positions) on the machine and by the command it says, or null
    /// before it is measured: a clock that gives the level its p95 time a
    /// move lets it play at its rating.
    #[serde(default)]
    pub cost: Option<costs::LevelCost>,
}

/// One option that `new` accepts.
#[derive(Clone, Copy, Debug, Serialize, JsonSchema)]
pub struct OptionInfo {
    /// The key in `options`.
    pub name: &'static str,
    /// Its JSON type and range, in words.
    pub description: &'static str,
}

/// A move the bot chose, with what the search found out.
#[derive(Clone, Debug)]
pub struct BotChoice<M> {
    /// The move to play.
    pub mv: M,
    /// What the search did; `elapsed_ms` is filled in by the caller.
    pub report: SearchReport,
}

/// One candidate move of an analysis.
#[derive(Clone, Debug)]
pub struct ScoredMove<M> {
    /// The move.
    pub mv: M,
    /// Its score from the mover's point of view, in the game's units.
    pub score: i64,
    /// The line expected to follow, starting with `mv`.
    pub pv: Vec<M>,
    /// Where the score is proven: the exact result in words (`"win in 5"`, `"draw"`, `"+12"`).
    pub exact: Option<String>,
}

/// The result of an analysis: the best moves first, and what the search did.
#[derive(Clone, Debug)]
pub struct Analysis<M> {
    /// At most the requested number of moves, best first.
    pub moves: Vec<ScoredMove<M>>,
    /// What the search did.
    pub report: SearchReport,
}

/// A request in the game's own text form, parsed: the state, and for a bot
/// the level the text names.
#[derive(Clone, Debug)]
pub struct TextRequest<S> {
    /// The state the text describes.
    pub state: S,
    /// The level the text itself names, if any (a query's `level` overrides it).
    pub level: Option<String>,
    /// The mover's clock the text itself gives, if any (Halma's
    /// `input.txt`; a query's clock overrides it).
    pub clock: Option<clock::GameClock>,
}

/// The rules of a game: positions, moves and how a game ends. This is all
/// that search, perft and matches need, so a test game for the search
/// implements only this (and the search's own `Evaluate`).
///
/// States are validated where they come in (the game's codec), so a `State`
/// in hand is always a legal position of the game. The functions take no
/// `self`: a game has no runtime configuration of its own.
pub trait Rules: Send + Sync + 'static {
    /// A validated position, including whose turn it is.
    type State: Clone + Send + Sync + 'static;
    /// A move in some state.
    type Move: Clone + PartialEq + std::fmt::Debug + Send + Sync + 'static;
    /// The ways a game ends, as data (an enum of the game's own).
    type Termination: Termination;

    /// Whose turn it is (for one-player games always `First`).
    fn to_move(state: &Self::State) -> Side;

    /// Every legal move, appended to `out` (empty when the game is over).
    fn legal_moves(state: &Self::State, out: &mut Vec<Self::Move>);

    /// The state after a legal move.
    fn apply(state: &Self::State, mv: &Self::Move) -> Self::State;

    /// How the game stands.
    fn outcome(state: &Self::State) -> Outcome<Self::Termination>;

    /// Whether the side to move has any legal move: what a search asks at
    /// its horizon, where it needs no list. The default generates the list;
    /// a game whose moves are costly to list answers sooner.
    fn has_legal_move(state: &Self::State) -> bool {
        let mut moves = Vec::new();
        Self::legal_moves(state, &mut moves);
        !moves.is_empty()
    }

    /// The board symmetries under which the rules treat positions alike: a
    /// position turned by one has the turned legal moves and the same
    /// outcome. Searches run on one canonical twin of a position
    /// ([`symmetry::canonical`]), so twins get the same answer, turned, and
    /// share a cache entry; only a level that breaks ties by the order of
    /// the position as given ([`Bots::breaks_ties_in_given_order`]) is
    /// searched as given. None by default.
    const SYMMETRIES: &'static [Symmetry] = &[];

    /// `state` turned by `symmetry`, one of [`Rules::SYMMETRIES`].
    fn transform_state(state: &Self::State, _symmetry: Symmetry) -> Self::State {
        state.clone()
    }

    /// `mv` turned by `symmetry`, one of [`Rules::SYMMETRIES`]: the move of
    /// the turned state that matches `mv` of the state.
    fn transform_move(mv: &Self::Move, _symmetry: Symmetry) -> Self::Move {
        mv.clone()
    }

    /// The key that orders a state's symmetric twins: the canonical twin
    /// is the one with the smallest key ([`symmetry::canonical`]). Two
    /// states get the same key only if they are the same state. A game
    /// with [`Rules::SYMMETRIES`] gives one; the default (no key at all)
    /// is for games without.
    fn twin_key(_state: &Self::State) -> Vec<u8> {
        Vec::new()
    }
}

/// A game's bots on top of its [`Rules`]: its typed levels, the options a
/// bot request may carry, and the moves the levels choose. This and the
/// rules are all a match needs.
pub trait Bots: Rules {
    /// The bot levels.
    type Level: Level;
    /// The bot options a request may carry besides the fields every game
    /// shares (Halma's `clock`); [`NoOptions`] for none. Deserialized with
    /// unknown fields refused, so a typo in a request is an error.
    type BotOptions: DeserializeOwned
        + JsonSchema
        + Default
        + Clone
        + std::fmt::Debug
        + Send
        + Sync
        + 'static;

    /// The level used when a request names none.
    const DEFAULT_LEVEL: Self::Level;

    /// The win model fitted on the engine's own self-play
    /// (`data/calibration/<game>.json`, included at build time), if any:
    /// with one, analyses and bot moves give the side to move's chance of
    /// winning beside each estimated score.
    const WIN_MODEL: Option<&'static str> = None;

    /// How far the game has gone, in what the win model's phases count
    /// (Reversi: discs on the board). The default, 0, suits a model of one
    /// phase.
    fn phase(_state: &Self::State) -> u32 {
        0
    }

    /// The moves the side to move probably still has to make: a clocked
    /// move's time manager shares the clock over them ([`clock::GameClock::plan`]).
    /// The default suits a game of middling length.
    fn moves_left(_state: &Self::State) -> f64 {
        30.0
    }

    /// Checks the values of a request's bot options once they are read,
    /// before any work: a value of the right type that the game cannot use
    /// (Halma's `clock` of 0 or of 1e308 seconds) is `invalid_option`
    /// pointing at it. The default takes any.
    fn check_options(_options: &Self::BotOptions) -> Result<(), GameError> {
        Ok(())
    }

    /// The noise of the evaluation a review judges moves by
    /// (`data/review/<game>.json`, included at build time, measured by
    /// `bench/review_agreement.py`): below it a loss in win probability is
    /// never called an inaccuracy. None: no noise allowed for.
    const REVIEW_NOISE: Option<&'static str> = None;

    /// The moves the game's opening book plays in `state`: empty where the
    /// game has no book or the position is not in it. A review labels
    /// them `book`. None by default.
    fn book_moves(_state: &Self::State) -> Vec<Self::Move> {
        Vec::new()
    }

    /// Whether `level` promises a tie-break by the order of the position as
    /// given (Reversi's `norvig`: the first best square in row-major order).
    /// Such a level is searched on the position as given rather than on
    /// its canonical twin ([`symmetry::search_frame`]), whose order is
    /// another, and the position cache keeps its answers apart from its
    /// twins'. None by default.
    fn breaks_ties_in_given_order(_level: Self::Level) -> bool {
        false
    }

    /// The bot: chooses a move at `level` within `budget`. The game is known
    /// not to be over, so there is at least one legal move.
    fn choose_move(
        state: &Self::State,
        level: &LevelSpec<Self::Level>,
        params: &BotParams<Self::BotOptions>,
        budget: &Budget,
    ) -> Result<BotChoice<Self::Move>, GameError>;

    /// The `top` best moves with scores and lines, best first. The game is
    /// known not to be over.
    fn analyze(
        state: &Self::State,
        top: usize,
        params: &BotParams<Self::BotOptions>,
        budget: &Budget,
    ) -> Result<Analysis<Self::Move>, GameError> {
        Self::analyze_scope(state, &Scope::top(top), params, budget)
    }

    /// The moves `scope` asks for: its `top` best, best first, then its
    /// `include` (a legal move) where that is not among them, scored by the
    /// same search as the best, at the same depth and with a full window,
    /// so that the two scores compare (a review's played move). The game
    /// is known not to be over.
    fn analyze_scope(
        state: &Self::State,
        scope: &Scope<Self::Move>,
        params: &BotParams<Self::BotOptions>,
        budget: &Budget,
    ) -> Result<Analysis<Self::Move>, GameError>;
}

/// Which moves an analysis scores exactly: the `top` best, and one move
/// more whatever its rank (the pattern of KataGo's `allowMoves` and the
/// chess engines' `searchmoves`, here adding to the best rather than
/// replacing them).
#[derive(Clone, Debug, PartialEq)]
pub struct Scope<M> {
    /// How many of the best moves.
    pub top: usize,
    /// A move to score beside them.
    pub include: Option<M>,
}

impl<M> Scope<M> {
    /// The `top` best moves, nothing else.
    pub fn top(top: usize) -> Self {
        Scope { top, include: None }
    }

    /// The `top` best moves and `include`.
    pub fn including(top: usize, include: M) -> Self {
        Scope {
            top,
            include: Some(include),
        }
    }

    /// Whether `mv` is the included move.
    pub fn includes(&self, mv: &M) -> bool
    where
        M: PartialEq,
    {
        self.include.as_ref() == Some(mv)
    }

    /// Whether the move `mv`, ranked `rank` (0 = best) by a search, is one
    /// the scope asks for.
    pub fn keeps(&self, rank: usize, mv: &M) -> bool
    where
        M: PartialEq,
    {
        rank < self.top.max(1) || self.includes(mv)
    }
}

/// A game's forms: the JSON state and move objects, notation, the legacy
/// text forms, its static description and how a new game starts. This is
/// all the type-erased HTTP view adds to the rules and the bots.
pub trait Codec: Rules {
    /// The options of a new game (`new`'s `options` object), deserialized
    /// with unknown fields refused; [`NoOptions`] for a game that always
    /// starts from one position. `Default` is the game's default start.
    type NewOptions: DeserializeOwned + JsonSchema + Default + std::fmt::Debug + Send + 'static;

    /// The state's JSON form as a type: what [`Codec::state_to_json`]
    /// writes, whose schema the API's contract publishes (`ReversiState`).
    type StateJson: JsonSchema;

    /// The move object's JSON form as a type: what [`Codec::move_to_json`]
    /// writes, whose schema the API's contract publishes (`ReversiMove`).
    type MoveJson: JsonSchema;

    /// Static description: id, name, sides, options, rules.
    fn info() -> GameInfo;

    /// A new game with these options (checked beyond their types here:
    /// a value out of range is `invalid_option`).
    fn new_game(options: Self::NewOptions) -> Result<Self::State, GameError>;

    /// Parses and validates a JSON state: the game's reader, which
    /// everything calls through [`Codec::state_from_json`].
    fn decode_state(value: &Value) -> Result<Self::State, GameError>;

    /// The JSON form of a state, which [`Codec::decode_state`] reads back
    /// as the same state: the game's writer, which everything calls
    /// through [`Codec::state_to_json`].
    fn encode_state(state: &Self::State) -> Value;

    /// Parses and validates a JSON state ([`Codec::decode_state`]; the
    /// unit tests count the calls, so they can check that a request reads
    /// its state once).
    fn state_from_json(value: &Value) -> Result<Self::State, GameError> {
        codec_calls::count_read();
        Self::decode_state(value)
    }

    /// The JSON form of a state ([`Codec::encode_state`]; counted in the
    /// unit tests, as reads are).
    fn state_to_json(state: &Self::State) -> Value {
        codec_calls::count_write();
        Self::encode_state(state)
    }

    /// The move's notation as a person would type it.
    fn notation(state: &Self::State, mv: &Self::Move) -> String;

    /// The move's JSON object (it must include `notation`).
    fn move_to_json(state: &Self::State, mv: &Self::Move) -> Value;

    /// Reads a move given as notation string or JSON object and checks that it
    /// is legal in `state`. The game is known not to be over.
    fn parse_move(state: &Self::State, value: &Value) -> Result<Self::Move, GameError>;

    /// The game's one-line record of `moves` played in turn from `start`,
    /// which a person can paste: by default each move's notation, joined
    /// with single spaces. A game whose notation holds spaces writes it so
    /// that [`Codec::read_record`] can group the words again; one whose
    /// notation spans lines, or a game with its own record form (Reversi's
    /// `f5d6c3`), overrides this. The moves are known to be legal.
    fn write_record(start: &Self::State, moves: &[Self::Move]) -> String
    where
        Self: Sized,
    {
        record::notations::<Self>(start, moves).join(" ")
    }

    /// Reads a record written by [`Codec::write_record`] (with any
    /// reasonable whitespace) from `start` into the game's moves, each
    /// checked to be legal in turn, as [`Codec::parse_move`] checks it. The
    /// first move that is not (a move after the game has ended included)
    /// is a [`record::BadMove`] with its 0-based place among the moves the
    /// record writes and the game's reason. By default every
    /// whitespace-separated word is one move.
    fn read_record(start: &Self::State, record: &str) -> Result<Vec<Self::Move>, record::BadMove>
    where
        Self: Sized,
    {
        record::read_texts::<Self>(start, record.split_whitespace().map(str::to_string))
    }

    /// What a move did beyond the new state (e.g. the runs a swap removed), if
    /// the game has anything to say. Called only with a legal move.
    fn describe_move(_state: &Self::State, _mv: &Self::Move) -> Option<Value> {
        None
    }

    /// Parses the game's own text form. Games without one keep the default,
    /// which says so.
    fn parse_text(
        _body: &str,
        _params: &TextParams,
    ) -> Result<TextRequest<Self::State>, GameError> {
        Err(GameError::NoTextForm)
    }

    /// The text answer to `legal-moves` in the game's own form.
    fn text_legal_moves(state: &Self::State, moves: &[Self::Move]) -> String {
        moves
            .iter()
            .map(|m| Self::notation(state, m) + "\n")
            .collect()
    }

    /// The text answer to `bot-move` in the game's own form (by default the new state's text).
    fn text_bot_move(_before: &Self::State, _mv: &Self::Move, _after: &Self::State) -> String {
        String::new()
    }
}

/// What only a match needs beyond the rules and forms: the contracts
/// outside programs play by (a board file, a working folder, GTP, a
/// line protocol), the time a match gives by default, the margin its
/// tables show, and a one-player match's seeded starts. The arena
/// ([`crate::arena`]) and `gamebot ladder` read it; the HTTP view never
/// does. Every default refuses the contract or takes the plain choice.
pub trait Referee: Codec {
    /// The board file outside programs read and write (the Advance
    /// studio's `white|black IN OUT` contract): the state's text form
    /// without the side to move, which the program is told by name. `None`,
    /// the default, for a game without one; the arena then refuses
    /// board-file players (`cab201:`) for it.
    fn board_file(_state: &Self::State) -> Option<String> {
        None
    }

    /// Whether GTP engines play the game (`gtp:` players in the arena):
    /// its side names are GTP's colours (`black`, `white`), its move
    /// notation is a GTP vertex (`d3`, rows as GTP numbers them) or `pass`,
    /// and its board is 8×8. `false`, the default, refuses `gtp:` players.
    fn speaks_gtp() -> bool {
        false
    }

    /// The `input.txt` an outside agent reads in a fresh working folder
    /// (the Halma course's referee contract, `halma-agent:` players in the
    /// arena): the state and the mover's time, which is its game clock's
    /// remainder when the match has one (`game_time_left`) and otherwise
    /// the time for this move. The agent answers in `output.txt` with the
    /// move's notation, read by [`Codec::parse_move`]. `None`, the default,
    /// for a game without such a contract.
    fn agent_input(
        _state: &Self::State,
        _move_time: Duration,
        _game_time_left: Option<Duration>,
    ) -> Option<String> {
        None
    }

    /// The line a line-protocol program reads for a move (the crush
    /// course's `ai_player(K, board)` as a process: `K BOARD`); it answers
    /// one line, read by [`Referee::read_program_line`]. `None`, the default,
    /// for a game without such a contract.
    fn program_line(_state: &Self::State) -> Option<String> {
        None
    }

    /// Reads a line-protocol program's answer (see [`Referee::program_line`]),
    /// by default as the move's notation.
    fn read_program_line(state: &Self::State, line: &str) -> Result<Self::Move, GameError> {
        Self::parse_move(state, &Value::String(line.trim().to_string()))
    }

    /// The time a match gives each side when the arena is told none: the
    /// game's own, from its original harness. By default 100 ms a move.
    fn match_time() -> MatchTime {
        MatchTime::PerMove(Duration::from_millis(100))
    }

    /// The final position's margin from the first side's view, for the
    /// arena's tables (Reversi's disc difference), or a one-player game's
    /// points so far (what a forfeit ends its game with); `None`, the
    /// default, for a game that has no such measure.
    fn margin(_state: &Self::State) -> Option<i64> {
        None
    }

    /// The start of game `seed` of a one-player match (the arena, the
    /// ladder): a new game with `options` whose random board is the one
    /// `seed` draws, so that every contestant plays the same boards. By
    /// default the new game itself, for a game whose start draws nothing.
    fn seeded_game(options: Self::NewOptions, _seed: u64) -> Result<Self::State, GameError> {
        Self::new_game(options)
    }
}

/// The time a match gives each side by default ([`Referee::match_time`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchTime {
    /// A time for every move (the Advance studio's 250 ms).
    PerMove(Duration),
    /// One clock for the whole game (the Halma course's 300 s).
    GameClock(Duration),
}

/// A whole game: its [`Rules`], [`Bots`], [`Ladder`], [`Codec`] and
/// [`Referee`]. Every type that has all five is one; the registry, the HTTP view and the
/// arena take this.
pub trait Game: Rules + Bots + Ladder + Codec + Referee {}

impl<G: Rules + Bots + Ladder + Codec + Referee> Game for G {}
