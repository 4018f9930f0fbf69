//! The type-erased JSON view of a game: every [`Game`] gets a [`DynGame`] for
//! free through [`Erased`], so the registry and the HTTP layer can handle any
//! game as JSON in, JSON out.

use super::analysis;
use super::calibration::round3;
use super::ladder::{self, AnyLevel};
use super::record::{self, ReplayError};
use super::review::{GameReview, Review};
use super::symmetry::{self, Symmetry};
use super::wire::BOT_MOVE_FIELD;
pub use super::wire::{
    outcome_json, AnalysisJob, AnalyzeReply, AnalyzedMove, BotAnswer, BotJob, BotReply, BotRequest,
    DepthSink, GameListing, GameSchemas, LegalMovesReply, LevelId, NewReply, OutcomeJson,
    OutcomeStatus, PerspectiveName, PlayReply, Prepared, ReplayMoves, ReplayReply, ReplayRequest,
    ReplayStart, StateInput, TextParams,
};
use super::{
    Analysis, BotChoice, BotParams, Budget, Clamped, ClockedMove, Game, GameError, GameInfo, Level,
    LevelInfo, Observer, SearchReport, Side, StopReason,
};
use schemars::SchemaGenerator;
use serde_json::{Map, Value};
use std::any::Any;
use std::marker::PhantomData;
use std::time::Instant;

/// Any game, seen as JSON in and JSON out.
pub trait DynGame: Send + Sync {
    /// The game's static description.
    fn info(&self) -> GameInfo;
    /// The game as `GET /v1/games` lists it, levels included.
    fn listing(&self) -> GameListing;
    /// The schemas of the game's own JSON forms, added to `generator`'s definitions.
    fn schemas(&self, generator: &mut SchemaGenerator) -> GameSchemas;
    /// `new`: a starting state from options (a JSON object, or null for the defaults).
    fn new_game(&self, options: &Value) -> Result<NewReply, GameError>;
    /// `legal-moves`.
    fn legal_moves(&self, state: &Value) -> Result<LegalMovesReply, GameError>;
    /// `play`.
    fn play(&self, state: &Value, mv: &Value) -> Result<PlayReply, GameError>;
    /// `bot-move`, checked now (level, seed, options and a JSON state: what
    /// can fail before any work is queued; the state is read here once and
    /// the job keeps it typed) and run later on a compute worker. With
    /// `keyed` (the answer may be cached), [`Prepared::cache_state`] is
    /// the state as the position cache keys it.
    fn prepare_bot_keyed(
        &self,
        request: BotRequest,
        keyed: bool,
    ) -> Result<Prepared<BotJob>, GameError>;
    /// `analyze`: the `top` best moves, checked now and run later, keyed
    /// as [`DynGame::prepare_bot_keyed`] is. An analysis searches as far as
    /// its budget allows: it uses no level. With a `sink`, each completed
    /// depth's answer goes there as the search deepens (the final answer is
    /// still the job's value).
    fn prepare_analysis_keyed(
        &self,
        request: BotRequest,
        top: usize,
        sink: Option<DepthSink>,
        keyed: bool,
    ) -> Result<Prepared<AnalysisJob>, GameError>;

    /// `bot-move`, checked now and run later, for no cache.
    fn prepare_bot(&self, request: BotRequest) -> Result<BotJob, GameError> {
        Ok(self.prepare_bot_keyed(request, false)?.job)
    }

    /// `analyze`, checked now and run later, for no cache.
    fn prepare_analysis(
        &self,
        request: BotRequest,
        top: usize,
        sink: Option<DepthSink>,
    ) -> Result<AnalysisJob, GameError> {
        Ok(self.prepare_analysis_keyed(request, top, sink, false)?.job)
    }
    /// `legal-moves` in the game's own text form.
    fn text_legal_moves(&self, body: &str, params: &TextParams) -> Result<String, GameError>;
    /// The canonical JSON form of a state: parsed, validated and written back.
    fn canonical_state(&self, state: &Value) -> Result<Value, GameError>;
    /// Turns a `bot-move` or `analyze` answer that the state `answered` got
    /// into the answer its symmetric twin `asked` gets: the moves, lines and
    /// new state turned, everything else as it was (searching `asked` runs
    /// the same search on the same canonical twin). Gives the turned bot
    /// move's notation (`None` for an analysis).
    fn turn_answer(
        &self,
        answer: &mut Value,
        answered: &Value,
        asked: &Value,
    ) -> Result<Option<String>, GameError>;
    /// The JSON schema of the game's [`Termination`](super::Termination) enum: every value an
    /// outcome's `termination` may take, each with its description.
    fn termination_schema(&self) -> Value;
    /// `replay`: a game played again from a start, from its moves or its
    /// record. A bad move points at its place in the request (`/moves/17`,
    /// or `/record`) and says which move it is.
    fn replay(&self, request: &ReplayRequest) -> Result<ReplayReply, GameError>;

    /// `review`: the game replayed and checked (a bad move points at its
    /// place, as in `replay`), its positions left to analyse.
    fn prepare_review(
        &self,
        request: &ReplayRequest,
        seed: u64,
    ) -> Result<std::sync::Arc<dyn Review>, GameError>;

    /// `bot-move` at once: [`DynGame::prepare_bot`], then the job.
    fn bot_move(&self, request: &BotRequest, budget: &Budget) -> Result<BotReply, GameError> {
        Ok(self.prepare_bot(request.clone())?(budget)?.reply)
    }

    /// `analyze` at once: [`DynGame::prepare_analysis`], then the job.
    fn analyze(
        &self,
        request: &BotRequest,
        top: usize,
        budget: &Budget,
    ) -> Result<AnalyzeReply, GameError> {
        self.prepare_analysis(request.clone(), top, None)?(budget)
    }
}

/// The adapter that gives a [`Game`] its [`DynGame`] view.
pub struct Erased<G>(PhantomData<G>);

impl<G> Erased<G> {
    /// The view of game `G` (a constant, so the registry can be a static table).
    pub const VIEW: Erased<G> = Erased(PhantomData);
}

/// A random seed for a request that names none. It stays below 2^53 so that
/// JavaScript clients, whose numbers are doubles, can echo it back exactly.
fn fresh_seed() -> u64 {
    rand::random::<u64>() >> 11
}

/// `error` placed at `at`, where the request says where its field is.
fn place(error: GameError, at: Option<&str>) -> GameError {
    match at {
        Some(at) => error.placed(at),
        None => error,
    }
}

/// A level and the seeded options a bot request asked for, read once.
struct BotSetup<G: Game> {
    level: Option<AnyLevel<G::Level>>,
    params: BotParams<G::BotOptions>,
    budget_fields: Vec<&'static str>,
    perspective: Perspective,
    /// Where the request's level is in its body (`/level`), when the body
    /// is JSON with a `level`: what the level refuses, on reading it or as
    /// it starts, points there.
    level_at: Option<&'static str>,
}

/// A bot request's state as its job keeps it: read and typed (JSON), or
/// the game's text form, read on the worker with the level and clock it
/// may name.
enum BotInput<G: Game> {
    /// A JSON state, read and valid, with the twin its level searches and
    /// the symmetry that turns the state into it ([`symmetry::search_frame`]).
    State {
        state: G::State,
        frame: (G::State, Symmetry),
    },
    /// The text form, not yet parsed.
    Text { body: String, params: TextParams },
}

/// Whose view an answer's scores take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Perspective {
    /// The side to move's (the default).
    Mover,
    /// One side's, whoever is to move.
    Side(Side),
}

impl Perspective {
    /// Reads `perspective`: `mover` or one of the game's `sides`.
    fn read(name: Option<&PerspectiveName>, sides: &[&str]) -> Result<Perspective, GameError> {
        let text = match name {
            None | Some(PerspectiveName::Mover) => return Ok(Perspective::Mover),
            Some(PerspectiveName::Side(text)) => text,
        };
        match sides.iter().position(|side| side == text) {
            Some(0) => Ok(Perspective::Side(Side::First)),
            Some(_) => Ok(Perspective::Side(Side::Second)),
            None => Err(GameError::invalid_option_at(
                "/perspective",
                format!(
                    "perspective={text:?}: expected \"mover\" or one of this game's sides ({})",
                    sides.join(", ")
                ),
            )),
        }
    }

    /// Whether scores in `state` are turned to the other side's view.
    fn flips(self, to_move: Side) -> bool {
        matches!(self, Perspective::Side(side) if side != to_move)
    }
}

impl<G: Game> Erased<G> {
    fn state(value: &Value) -> Result<G::State, GameError> {
        super::fields::read_state::<G>(value).map_err(|e| e.under("/state", value))
    }

    /// A new game from `new`'s options; an error points into the request's
    /// `options` (`/options/k`).
    fn from_options(options: &Value) -> Result<G::State, GameError> {
        super::read_new_options::<G>(options)
            .and_then(G::new_game)
            .map_err(|e| e.under("/options", options))
    }

    fn outcome(state: &G::State) -> Value {
        outcome_json(&G::outcome(state), G::info().sides)
    }

    /// A finished game is an error for a move, which says how it ended.
    fn ongoing(state: &G::State) -> Result<(), GameError> {
        let outcome = G::outcome(state);
        if outcome.is_over() {
            Err(GameError::GameOver {
                outcome: Some(Box::new(outcome_json(&outcome, G::info().sides))),
            })
        } else {
            Ok(())
        }
    }

    /// Reads a level name once: a numbered level refuses a request's own
    /// budget fields, which would change its strength.
    fn level(
        id: &LevelId,
        budget_fields: &[&'static str],
    ) -> Result<AnyLevel<G::Level>, GameError> {
        let level = AnyLevel::read::<G>(id)?;
        if matches!(level, AnyLevel::Numbered(_)) && !budget_fields.is_empty() {
            return Err(GameError::invalid_option(format!(
                "{} with level {}: numbered levels carry their own budget (nodes, depth), \
                 so leave out time_ms, max_depth and max_nodes, or name a level such as the default",
                budget_fields.join(", "),
                level
            )));
        }
        Ok(level)
    }

    /// Reads what a bot request asks for besides the state, once.
    fn setup(request: &BotRequest) -> Result<BotSetup<G>, GameError> {
        let level_at = match (&request.state, &request.level) {
            (StateInput::Json(_), Some(_)) => Some("/level"),
            _ => None,
        };
        let level = request
            .level
            .as_ref()
            .map(|id| Self::level(id, &request.budget_fields))
            .transpose()
            .map_err(|error| place(error, level_at))?;
        let options = bot_options(&request.own_fields)?;
        G::check_options(&options)?;
        Ok(BotSetup {
            level,
            params: BotParams {
                seed: request.seed.unwrap_or_else(fresh_seed),
                options,
            },
            budget_fields: request.budget_fields.clone(),
            perspective: Perspective::read(request.perspective.as_ref(), G::info().sides)?,
            level_at,
        })
    }

    /// Gives a report its win probability and turns it to `perspective`.
    fn judge_report(state: &G::State, report: &mut SearchReport, perspective: Perspective) {
        let Some(score) = report.score else {
            return;
        };
        report.win_probability =
            analysis::win_probability::<G>(state, score, report.proven == Some(true));
        if perspective.flips(G::to_move(state)) {
            report.score = Some(-score);
            report.win_probability = report.win_probability.map(|p| round3(1.0 - p));
        }
        if let Perspective::Side(side) = perspective {
            report.perspective = Some(G::info().sides[side.index()].to_string());
        }
    }

    /// Fills in what every search report says, once, for `bot-move` and
    /// `analyze` alike: who searched, for how long, under what budget, with
    /// which seed, in which unit.
    fn stamp(
        report: &mut SearchReport,
        label: String,
        started: Instant,
        budget: &Budget,
        seed: u64,
    ) {
        report.level = label;
        report.elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
        report.time_ms = budget.time_ms;
        report.max_depth = report.max_depth.or(budget.max_depth);
        report.max_nodes = report.max_nodes.or(budget.max_nodes);
        report.seed = Some(seed);
        if report.score.is_some() && report.score_unit.is_none() {
            report.score_unit = Some(G::info().score_unit.to_string());
        }
    }

    /// Runs the level on `frame` (the twin it searches and the symmetry
    /// that turns `state` into it) and checks that what it chose is legal: a
    /// bot must never hand an illegal move to a client, whatever bug it may
    /// have.
    fn choose(
        state: &G::State,
        (twin, symmetry): (G::State, Symmetry),
        level: &AnyLevel<G::Level>,
        params: &BotParams<G::BotOptions>,
        budget: &Budget,
    ) -> Result<BotChoice<G::Move>, GameError> {
        let started = Instant::now();
        let mut choice = ladder::choose::<G>(&twin, level, params, budget)?;
        choice.mv = symmetry::turn_back::<G>(&choice.mv, symmetry);
        let mut legal = Vec::new();
        G::legal_moves(state, &mut legal);
        if !legal.contains(&choice.mv) {
            return Err(GameError::Internal(format!(
                "level {level} chose a move that is not legal: {:?}",
                choice.mv
            )));
        }
        Self::stamp(
            &mut choice.report,
            level.to_string(),
            started,
            budget,
            params.seed,
        );
        if let AnyLevel::Numbered(_) = level {
            // A rung searches to its own caps: it had no think time.
            choice.report.time_ms = None;
        }
        Ok(choice)
    }

    /// A forced move played at once under a clock: the time a search would
    /// spend confirming it is the mover's to keep.
    fn forced(
        mv: G::Move,
        level: &AnyLevel<G::Level>,
        budget: &Budget,
        seed: u64,
    ) -> BotChoice<G::Move> {
        let mut report = SearchReport {
            depth: Some(0),
            nodes: Some(0),
            stopped_by: Some(StopReason::Forced),
            ..SearchReport::plain()
        };
        Self::stamp(&mut report, level.to_string(), Instant::now(), budget, seed);
        BotChoice { mv, report }
    }

    /// A numbered level heeds no time of its own, so one stopped by time
    /// was cut by the clock's cap (`by_clock`) or the server's longest
    /// search: `search.clamped` says which, with the level's node budget
    /// and the positions it searched.
    fn say_a_rung_was_cut(report: &mut SearchReport, by_clock: bool) {
        if report.stopped_by != Some(StopReason::Time) {
            return;
        }
        report.clamped.push(Clamped {
            field: if by_clock { "clock" } else { "max_time_ms" },
            requested: report.max_nodes.unwrap_or(0),
            used: report.nodes.unwrap_or(0),
        });
    }

    /// The bot's move from a state read from JSON or text.
    fn run_bot(
        input: BotInput<G>,
        setup: BotSetup<G>,
        budget: &Budget,
    ) -> Result<BotAnswer, GameError> {
        let (state, frame, text_level, text_clock, is_text) = match input {
            BotInput::State { state, frame } => (state, Some(frame), None, None, false),
            BotInput::Text { body, params } => {
                let request = G::parse_text(&body, &params)?;
                (request.state, None, request.level, request.clock, true)
            }
        };
        let level = match (setup.level, text_level) {
            (Some(level), _) => level,
            (None, Some(text)) => Self::level(&LevelId::Name(text), &setup.budget_fields)?,
            (None, None) => AnyLevel::default_of::<G>(),
        };
        Self::ongoing(&state)?;
        let mut budget = budget.clone();
        if budget.clock.is_none() {
            budget.clock = text_clock.map(|clock| ClockedMove {
                clock,
                arrived: budget.arrived.unwrap_or_else(Instant::now),
            });
        }
        let server_cap = budget.hard_deadline;
        let planned = budget.under_clock(G::moves_left(&state));
        let plan = planned.map(|(clocked, plan)| {
            budget = clocked;
            plan
        });
        let forced = plan.and(super::clock::forced_move::<G>(&state));
        let mut choice = match forced {
            Some(mv) => Self::forced(mv, &level, &budget, setup.params.seed),
            None => {
                let frame = frame.unwrap_or_else(|| symmetry::search_frame::<G>(&state, &level));
                Self::choose(&state, frame, &level, &setup.params, &budget)
                    .map_err(|error| place(error, setup.level_at))?
            }
        };
        if let (Some(plan), Some(clocked)) = (plan, budget.clock) {
            choice.report.clock = Some(clocked.report(&plan));
        }
        if let AnyLevel::Numbered(_) = level {
            let by_clock = plan.is_some() && budget.hard_deadline != server_cap;
            Self::say_a_rung_was_cut(&mut choice.report, by_clock);
        }
        Self::judge_report(&state, &mut choice.report, setup.perspective);
        let after = G::apply(&state, &choice.mv);
        let text = is_text.then(|| G::text_bot_move(&state, &choice.mv, &after));
        let notation = G::notation(&state, &choice.mv);
        let reply = BotReply {
            mv: G::move_to_json(&state, &choice.mv),
            effects: G::describe_move(&state, &choice.mv),
            state: G::state_to_json(&after),
            outcome: Self::outcome(&after),
            search: choice.report,
        };
        Ok(BotAnswer {
            reply,
            text,
            notation,
        })
    }

    /// An analysis of `state` on its canonical twin (`twin`, which
    /// `symmetry` turns `state` into).
    fn run_analysis(
        state: G::State,
        (twin, symmetry): (G::State, Symmetry),
        setup: &BotSetup<G>,
        top: usize,
        budget: &Budget,
        sink: Option<DepthSink>,
    ) -> Result<AnalyzeReply, GameError> {
        Self::ongoing(&state)?;
        let started = Instant::now();
        let mut budget = budget.clone();
        if let Some(sink) = sink {
            let (state, budget_now) = (state.clone(), budget.clone());
            let (seed, perspective) = (setup.params.seed, setup.perspective);
            budget.observer = Some(Observer(std::sync::Arc::new(move |any: &dyn Any| {
                if let Some(analysis) = any.downcast_ref::<Analysis<G::Move>>() {
                    let view = (seed, perspective, started);
                    sink(Self::answer(
                        &state,
                        analysis::turned_back::<G>(analysis.clone(), symmetry),
                        top,
                        &budget_now,
                        view,
                    ));
                }
            })));
        }
        let analysis = G::analyze(&twin, top, &setup.params, &budget)?;
        let analysis = analysis::turned_back::<G>(analysis, symmetry);
        let view = (setup.params.seed, setup.perspective, started);
        Ok(Self::answer(&state, analysis, top, &budget, view))
    }

    /// An analysis as `analyze` answers it: the `top` moves, the report
    /// stamped, win probabilities, scores turned to the perspective.
    fn answer(
        state: &G::State,
        mut analysis: Analysis<G::Move>,
        top: usize,
        budget: &Budget,
        (seed, perspective, started): (u64, Perspective, Instant),
    ) -> AnalyzeReply {
        analysis.moves.truncate(top);
        Self::stamp(
            &mut analysis.report,
            "analyze".to_string(),
            started,
            budget,
            seed,
        );
        Self::judge_report(state, &mut analysis.report, perspective);
        let mut reply = analysis::judged_reply::<G>(state, analysis);
        if perspective.flips(G::to_move(state)) {
            for m in &mut reply.moves {
                m.score = -m.score;
                m.win_probability = m.win_probability.map(|p| round3(1.0 - p));
            }
        }
        reply
    }

    /// A replay request played out: its start read, its moves checked.
    fn replayed(request: &ReplayRequest) -> Result<record::Replay<G>, GameError> {
        let start = match &request.start {
            ReplayStart::NewGame => G::new_game(G::NewOptions::default())?,
            ReplayStart::Options(options) => Self::from_options(options)?,
            ReplayStart::State(state) => Self::state(state)?,
        };
        match &request.moves {
            ReplayMoves::List(moves) => record::replay::<G>(start, moves, request.max_moves),
            ReplayMoves::Record(text) => record::replay_record::<G>(start, text, request.max_moves),
        }
        .map_err(|error| replay_error(error, &request.moves))
    }
}

impl<G: Game> DynGame for Erased<G> {
    fn info(&self) -> GameInfo {
        G::info()
    }

    fn listing(&self) -> GameListing {
        let info = G::info();
        GameListing {
            id: info.id,
            name: info.name,
            players: info.players,
            sides: info.sides,
            levels: G::Level::ALL
                .iter()
                .map(|def| LevelInfo {
                    id: def.id,
                    description: def.description,
                })
                .collect(),
            numbered_levels: ladder::listing(G::LADDER, G::LADDER_RATINGS)
                .into_iter()
                .map(|mut numbered| {
                    numbered.cost = super::costs::of(info.id, numbered.level);
                    numbered
                })
                .collect(),
            ladder_zero: G::LADDER_ZERO
                .and_then(|zero| ladder::zero_listing(zero.id(), G::LADDER_RATINGS)),
            default_level: G::DEFAULT_LEVEL.id(),
            new_options: info.new_options,
            score_counts: info.score_counts,
            score_unit: info.score_unit,
            text_forms: info.text_forms,
            review_judged_by: GameReview::<G>::basis(),
        }
    }

    fn schemas(&self, generator: &mut SchemaGenerator) -> GameSchemas {
        GameSchemas {
            state: generator.subschema_for::<G::StateJson>(),
            mv: generator.subschema_for::<G::MoveJson>(),
            new_options: generator.subschema_for::<G::NewOptions>(),
            bot_options: generator.subschema_for::<G::BotOptions>(),
            termination: generator.subschema_for::<G::Termination>(),
        }
    }

    fn new_game(&self, options: &Value) -> Result<NewReply, GameError> {
        let state = Self::from_options(options)?;
        Ok(NewReply {
            state: G::state_to_json(&state),
        })
    }

    fn legal_moves(&self, state: &Value) -> Result<LegalMovesReply, GameError> {
        let state = Self::state(state)?;
        let mut moves = Vec::new();
        G::legal_moves(&state, &mut moves);
        Ok(LegalMovesReply {
            count: moves.len(),
            moves: moves.iter().map(|m| G::move_to_json(&state, m)).collect(),
            outcome: Self::outcome(&state),
        })
    }

    fn play(&self, state: &Value, mv: &Value) -> Result<PlayReply, GameError> {
        let state = Self::state(state)?;
        Self::ongoing(&state)?;
        let mv = super::fields::read_move::<G>(&state, mv).map_err(|e| e.under("/move", mv))?;
        let after = G::apply(&state, &mv);
        Ok(PlayReply {
            mv: G::move_to_json(&state, &mv),
            effects: G::describe_move(&state, &mv),
            state: G::state_to_json(&after),
            outcome: Self::outcome(&after),
        })
    }

    fn prepare_bot_keyed(
        &self,
        request: BotRequest,
        keyed: bool,
    ) -> Result<Prepared<BotJob>, GameError> {
        let setup = Self::setup(&request)?;
        let input = match request.state {
            StateInput::Json(value) => {
                let state = Self::state(&value)?;
                let default = AnyLevel::default_of::<G>();
                let level = setup.level.as_ref().unwrap_or(&default);
                let frame = symmetry::search_frame::<G>(&state, level);
                BotInput::State { state, frame }
            }
            StateInput::Text { body, params } => BotInput::Text { body, params },
        };
        // Twins share an entry: the key holds the twin searched (the state
        // as given for a level that breaks ties by its order).
        let cache_state = match &input {
            BotInput::State { frame, .. } if keyed => Some(G::state_to_json(&frame.0)),
            _ => None,
        };
        Ok(Prepared {
            job: Box::new(move |budget| Self::run_bot(input, setup, budget)),
            cache_state,
        })
    }

    fn prepare_analysis_keyed(
        &self,
        request: BotRequest,
        top: usize,
        sink: Option<DepthSink>,
        keyed: bool,
    ) -> Result<Prepared<AnalysisJob>, GameError> {
        let setup = Self::setup(&request)?;
        let StateInput::Json(state) = request.state else {
            return Err(GameError::NoTextForm);
        };
        let state = Self::state(&state)?;
        let frame = symmetry::canonical::<G>(&state);
        let cache_state = keyed.then(|| G::state_to_json(&frame.0));
        Ok(Prepared {
            job: Box::new(move |budget| {
                Self::run_analysis(state, frame, &setup, top, budget, sink)
            }),
            cache_state,
        })
    }

    fn prepare_review(
        &self,
        request: &ReplayRequest,
        seed: u64,
    ) -> Result<std::sync::Arc<dyn Review>, GameError> {
        let replay = Self::replayed(request)?;
        Ok(std::sync::Arc::new(GameReview::new(replay, seed)))
    }

    fn replay(&self, request: &ReplayRequest) -> Result<ReplayReply, GameError> {
        let replay = Self::replayed(request)?;
        Ok(ReplayReply {
            state: G::state_to_json(replay.final_state()),
            outcome: Self::outcome(replay.final_state()),
            record: replay.record(),
            moves: replay
                .moves
                .iter()
                .zip(&replay.states)
                .map(|(mv, before)| G::move_to_json(before, mv))
                .collect(),
            states: request
                .states
                .then(|| replay.states.iter().map(G::state_to_json).collect()),
        })
    }

    fn canonical_state(&self, state: &Value) -> Result<Value, GameError> {
        Ok(G::state_to_json(&Self::state(state)?))
    }

    fn turn_answer(
        &self,
        answer: &mut Value,
        answered: &Value,
        asked: &Value,
    ) -> Result<Option<String>, GameError> {
        let (from, to) = (Self::state(answered)?, Self::state(asked)?);
        let (twin, from_twin) = symmetry::canonical::<G>(&from);
        let (other_twin, to_twin) = symmetry::canonical::<G>(&to);
        if !symmetry::same_canonical::<G>(&twin, &other_twin) {
            return Err(GameError::Internal(
                "a cached answer was offered for a state that is not its twin".into(),
            ));
        }
        let turn =
            |mv: &G::Move| symmetry::turn_back::<G>(&G::transform_move(mv, from_twin), to_twin);
        let mut notation = None;
        if let Some(mv) = answer.get(BOT_MOVE_FIELD) {
            let mv = turn(&G::parse_move(&from, mv)?);
            notation = Some(G::notation(&to, &mv));
            let after = G::apply(&to, &mv);
            answer[BOT_MOVE_FIELD] = G::move_to_json(&to, &mv);
            answer["state"] = G::state_to_json(&after);
            answer["outcome"] = Self::outcome(&after);
            match G::describe_move(&to, &mv) {
                Some(effects) => answer["effects"] = effects,
                None => {
                    if let Some(fields) = answer.as_object_mut() {
                        fields.remove("effects");
                    }
                }
            }
        }
        let moves = answer.get_mut("moves").and_then(Value::as_array_mut);
        for analyzed in moves.into_iter().flatten() {
            let mv = turn(&G::parse_move(&from, &analyzed[BOT_MOVE_FIELD])?);
            let texts = analyzed["pv"].as_array().into_iter().flatten();
            let texts = texts.filter_map(|text| text.as_str().map(str::to_string));
            let line = record::read_texts::<G>(&from, texts).map_err(|bad| bad.error)?;
            let line: Vec<G::Move> = line.iter().map(turn).collect();
            analyzed[BOT_MOVE_FIELD] = G::move_to_json(&to, &mv);
            analyzed["pv"] = Value::from(analysis::pv_notation::<G>(&to, &line));
        }
        Ok(notation)
    }

    fn termination_schema(&self) -> Value {
        schemars::schema_for!(G::Termination).to_value()
    }

    fn text_legal_moves(&self, body: &str, params: &TextParams) -> Result<String, GameError> {
        let request = G::parse_text(body, params)?;
        let mut moves = Vec::new();
        G::legal_moves(&request.state, &mut moves);
        Ok(G::text_legal_moves(&request.state, &moves))
    }
}

/// A replay's error as the request sees it: a bad move in `moves` points
/// at its element and one in `record` at the record, and either says which
/// move it is (its 1-based number and text) before the game's reason.
fn replay_error(error: ReplayError, moves: &ReplayMoves) -> GameError {
    let bad = match error {
        ReplayError::TooLong { count, most } => {
            let field = match moves {
                ReplayMoves::List(_) => "moves",
                ReplayMoves::Record(_) => "record",
            };
            return GameError::invalid_option_at(
                format!("/{field}"),
                format!("{field} holds {count} moves: this endpoint takes at most {most}"),
            );
        }
        ReplayError::BadMove(bad) => bad,
    };
    let number = bad.index + 1;
    let (place, pointer, value) = match moves {
        ReplayMoves::List(list) => (
            format!("move {number} ({})", bad.text),
            format!("/moves/{}", bad.index),
            list.get(bad.index).cloned().unwrap_or_default(),
        ),
        ReplayMoves::Record(text) => (
            format!("move {number} of the record ({})", bad.text),
            "/record".to_string(),
            Value::String(text.clone()),
        ),
    };
    let error = match bad.error {
        GameError::IllegalMove {
            code,
            pointer,
            detail,
        } => GameError::IllegalMove {
            code,
            pointer,
            detail: format!("{place}: {detail}"),
        },
        other => GameError::illegal_move(format!("{place}: {other}")),
    };
    error.under(&pointer, &value)
}

/// The request fields the shared API does not know, read as a game's bot
/// options; a field the game does not take is `malformed_json` pointing at it.
fn bot_options<O: serde::de::DeserializeOwned>(
    own_fields: &Map<String, Value>,
) -> Result<O, GameError> {
    let value = Value::Object(own_fields.clone());
    serde_path_to_error::deserialize(value).map_err(|error| {
        let pointer = super::location::pointer_of(error.path()).unwrap_or_default();
        let inner = error.into_inner().to_string();
        let unknown = inner.strip_prefix("unknown field ").map(|rest| {
            let field = rest.split(',').next().unwrap_or(rest);
            let own = rest
                .split_once("expected ")
                .map(|(_, names)| format!("; this game's own fields are {names}"))
                .unwrap_or_default();
            format!("{field} is not a field of this request{own}")
        });
        GameError::MalformedRequest {
            detail: format!(
                "the body is not the JSON this endpoint takes at {pointer}: {}",
                unknown.unwrap_or(inner)
            ),
            pointer: Some(pointer),
        }
    })
}
