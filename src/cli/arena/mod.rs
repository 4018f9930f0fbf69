//! `gamebot arena`: plays two players against each other through the match
//! engine ([`crate::arena`]) with the bots the service uses, and reports
//! wins, draws, losses, forfeits, think times, search speed and the Elo
//! difference the score implies.
//!
//! Games alternate colours (A plays the first side in even-numbered games),
//! start with a few random plies drawn from the seed so that games differ
//! (by default each opening twice, once with either seat first), and
//! run in parallel on the available cores, each game on one thread.

pub mod solo;

use super::games_log::{GamesLog, MatchSetup};
use super::{limits, CliError};
use crate::arena::agent::{self, AgentPlayer};
use crate::arena::board_file::{self, BoardFilePlayer};
use crate::arena::gtp::{self, GtpPlayer};
use crate::arena::line_program::{self, LinePlayer};
use crate::arena::process::{end_programs_on_signals, Program};
use crate::arena::service::{self, Service, ServicePlayer};
use crate::arena::stats::{summarise, ClockSummary, SeatSetup};
use crate::arena::{
    play_games, GameRecord, LevelPlayer, MatchSpec, MatchSummary, Openings, Player, Resign, Seat,
    TimeControl,
};
use crate::game::clock::MAX_INCREMENT_MS;
use crate::game::{ladder, AnyLevel, BotParams, Budget, Game, MatchTime};
use crate::games::{self, GameVisitor};
use clap::Args;
use serde_json::{Map, Value};
use std::process::ExitCode;
use std::time::Duration;

// The command line's defaults, shared with [`ArenaArgs::new`].
const DEFAULT_GAMES: usize = 10;
const DEFAULT_GRACE_MS: u64 = 50;
const DEFAULT_SEED: u64 = 1;
const DEFAULT_RANDOM_PLIES: usize = 2;
const DEFAULT_MAX_PLIES: usize = 1000;
const DEFAULT_RESIGN_MOVES: u16 = 4;

/// The arena's command line.
#[derive(Args, Clone, Debug)]
pub struct ArenaArgs {
    /// The game id. For a one-player game (crush) A and B play the same
    /// seeded boards, `--games` of them from `--seed` on.
    pub game: String,
    /// Player A: a level with options, e.g. `strong` or `norvig:depth=8`,
    /// or an outside program through its game's contract (docs/ARENA.md):
    /// advance `cab201:PATH [ARGS…]`, run as `PATH ARGS white|black IN OUT`
    /// per move; halma `halma-agent:PATH [ARGS…]`, run per move in a
    /// folder with `input.txt`, answering in `output.txt`; reversi
    /// `gtp:COMMAND [ARGS…]`, a GTP engine kept running for the game;
    /// crush `exec:PATH [ARGS…]`, the course's `ai_player(K, board)` by
    /// lines; any game `service:URL [LEVEL]`, a level of a gamebot service
    /// (another build, or the one deployed) asked over HTTP.
    #[arg(long)]
    pub a: String,
    /// Player B, written like A.
    #[arg(long)]
    pub b: String,
    /// Games to play.
    #[arg(long, default_value_t = DEFAULT_GAMES, value_parser = limits::games)]
    pub games: usize,
    /// Think time per move of both sides, in milliseconds [default: the
    /// game's own: 250 ms a move for advance (the studio's harness), a
    /// 300 s game clock for halma (the course's referee), 100 ms a move
    /// for the others].
    #[arg(long, value_parser = limits::time_ms)]
    pub time_ms: Option<u64>,
    /// A's think time per move, overriding --time-ms (with a game clock: the
    /// most one move is offered).
    #[arg(long, value_parser = limits::time_ms)]
    pub a_time_ms: Option<u64>,
    /// B's think time per move, overriding --time-ms.
    #[arg(long, value_parser = limits::time_ms)]
    pub b_time_ms: Option<u64>,
    /// Give each side a game clock of this many seconds instead of a time per
    /// move; a side whose clock runs out loses.
    #[arg(long, value_parser = limits::clock_s)]
    pub clock_s: Option<f64>,
    /// A's game clock in seconds, overriding --clock-s.
    #[arg(long, value_parser = limits::clock_s)]
    pub a_clock_s: Option<f64>,
    /// B's game clock in seconds, overriding --clock-s.
    #[arg(long, value_parser = limits::clock_s)]
    pub b_clock_s: Option<f64>,
    /// Milliseconds added to each side's game clock after each of its
    /// moves (with a game clock: --clock-s, or Halma's own) [default: 0,
    /// sudden death].
    #[arg(long, value_parser = increment_ms)]
    pub increment_ms: Option<u64>,
    /// A's increment in milliseconds, overriding --increment-ms.
    #[arg(long, value_parser = increment_ms)]
    pub a_increment_ms: Option<u64>,
    /// B's increment in milliseconds, overriding --increment-ms.
    #[arg(long, value_parser = increment_ms)]
    pub b_increment_ms: Option<u64>,
    /// How late a move may come, beyond its time per move, before it loses on time.
    #[arg(long, default_value_t = DEFAULT_GRACE_MS, value_parser = limits::time_ms)]
    pub grace_ms: u64,
    /// Seed of the openings and of the bots' random choices.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Random plies at the start of every game, so that games differ.
    #[arg(long, default_value_t = DEFAULT_RANDOM_PLIES)]
    pub random_plies: usize,
    /// `paired`: games 2k and 2k+1 play the same random opening with the
    /// seats on opposite sides, so that an opening's lean towards one
    /// colour cancels out; `per-game`: every game draws its own (how
    /// matches were played before pairing, kept for their logs).
    #[arg(long, value_enum, default_value_t = Openings::Paired)]
    pub openings: Openings,
    /// Plies after which a game is stopped and counted as a draw.
    #[arg(long, default_value_t = DEFAULT_MAX_PLIES)]
    pub max_plies: usize,
    /// Games played at once [default: the number of cores].
    #[arg(long)]
    pub threads: Option<usize>,
    /// Resign adjudication.
    #[command(flatten)]
    pub resign: ResignArgs,
    /// Options of `new`, as a JSON object.
    #[arg(long)]
    pub options: Option<String>,
    /// Print one JSON object with the results on the last line.
    #[arg(long)]
    pub json: bool,
    /// Write every game to this file, one JSON object a line: its index,
    /// whether A played first, the result and why, each side's think
    /// times (under a clock with each move's planned time and the clock
    /// left at the end), and the moves in notation, so that a lost game
    /// can be replayed and studied. Each
    /// game is appended as it ends, so a long match can be followed and a
    /// stopped one keeps its finished games; at the end the file is
    /// rewritten in game order.
    #[arg(long)]
    pub games_log: Option<std::path::PathBuf>,
    /// Go on with a stopped match: keep the games its `--games-log` holds
    /// and play only the others (the same command, `--games` as large or
    /// larger); the results are the whole match's. A log of another match
    /// is refused.
    #[arg(long, requires = "games_log")]
    pub resume: bool,
}

/// Resign adjudication on the command line, shared by the arena and the
/// ladder.
#[derive(Args, Clone, Debug)]
pub struct ResignArgs {
    /// Resign adjudication (cutechess-cli's two-sided `-resign`): a game
    /// goes to a side once both players' own scores have put it at least
    /// this far ahead, in the game's units (centipawns, discs, Halma's
    /// progress), for `--resign-moves` moves each in a row [default: every
    /// game is played out].
    #[arg(long, value_parser = clap::value_parser!(i64).range(1..))]
    pub resign_margin: Option<i64>,
    /// For how many moves of each side the scores must agree before a game
    /// is adjudicated (with `--resign-margin`).
    #[arg(long, default_value_t = DEFAULT_RESIGN_MOVES, requires = "resign_margin",
          value_parser = clap::value_parser!(u16).range(1..))]
    pub resign_moves: u16,
}

impl Default for ResignArgs {
    fn default() -> Self {
        ResignArgs {
            resign_margin: None,
            resign_moves: DEFAULT_RESIGN_MOVES,
        }
    }
}

impl ResignArgs {
    /// The match engine's rule, if adjudication was asked for.
    pub fn rule(&self) -> Option<Resign> {
        self.resign_margin.map(|margin| Resign {
            margin,
            moves: usize::from(self.resign_moves),
        })
    }

    /// The flags as they were given, for a recorded command line (empty
    /// without adjudication).
    pub fn flags(&self) -> String {
        self.resign_margin.map_or(String::new(), |margin| {
            format!(
                " --resign-margin {margin} --resign-moves {}",
                self.resign_moves
            )
        })
    }
}

impl ArenaArgs {
    /// A match of `game` with the command line's defaults and `strong` in
    /// both seats, to be filled in with struct update syntax.
    pub fn new(game: &str) -> Self {
        ArenaArgs {
            game: game.to_string(),
            a: "strong".to_string(),
            b: "strong".to_string(),
            games: DEFAULT_GAMES,
            time_ms: None,
            a_time_ms: None,
            b_time_ms: None,
            clock_s: None,
            a_clock_s: None,
            b_clock_s: None,
            increment_ms: None,
            a_increment_ms: None,
            b_increment_ms: None,
            grace_ms: DEFAULT_GRACE_MS,
            seed: DEFAULT_SEED,
            random_plies: DEFAULT_RANDOM_PLIES,
            openings: Openings::Paired,
            max_plies: DEFAULT_MAX_PLIES,
            threads: None,
            resign: ResignArgs::default(),
            options: None,
            json: false,
            games_log: None,
            resume: false,
        }
    }

    /// Seat A's or B's time control: its own, or both sides', or the
    /// game's own (`default`) when the command line gives none.
    pub(super) fn time_control(&self, seat: Seat, default: MatchTime) -> TimeControl {
        let (own_ms, own_clock) = match seat {
            Seat::A => (self.a_time_ms, self.a_clock_s),
            Seat::B => (self.b_time_ms, self.b_clock_s),
        };
        let increment = self
            .increment_of(seat)
            .map_or(Duration::ZERO, |(_, ms)| Duration::from_millis(ms));
        // The command line's clocks are checked as they are read
        // ([`limits::clock_s`]); one set in code is held to the same range.
        let clock = own_clock.or(self.clock_s).map(|seconds| {
            Duration::try_from_secs_f64(seconds.clamp(0.0, limits::MAX_CLOCK_S)).unwrap_or_default()
        });
        let per_move = own_ms.or(self.time_ms);
        let clock = match (clock, per_move, default) {
            (None, None, MatchTime::GameClock(total)) => Some(total),
            (clock, _, _) => clock,
        };
        match clock {
            Some(total) => TimeControl::GameClock {
                total: total.max(Duration::from_millis(1)),
                increment,
                move_cap: own_ms.map(Duration::from_millis),
            },
            None => {
                let time = match (per_move, default) {
                    (Some(ms), _) => Duration::from_millis(ms),
                    (None, MatchTime::PerMove(time)) => time,
                    (None, MatchTime::GameClock(_)) => Duration::from_millis(100),
                };
                TimeControl::PerMove {
                    time,
                    grace: Duration::from_millis(self.grace_ms),
                }
            }
        }
    }

    /// Seat A's or B's increment and the flag that gave it, if any.
    fn increment_of(&self, seat: Seat) -> Option<(&'static str, u64)> {
        let own = match seat {
            Seat::A => self.a_increment_ms.map(|ms| ("--a-increment-ms", ms)),
            Seat::B => self.b_increment_ms.map(|ms| ("--b-increment-ms", ms)),
        };
        own.or(self.increment_ms.map(|ms| ("--increment-ms", ms)))
    }

    /// Refuses an increment for a seat that plays a time per move (an
    /// increment is added to a game clock), rather than ignoring it.
    pub(super) fn check_increments(&self, default: MatchTime) -> Result<(), CliError> {
        for seat in Seat::BOTH {
            if let Some((flag, _)) = self.increment_of(seat) {
                if !self.time_control(seat, default).is_clock() {
                    let own = match seat {
                        Seat::A => "--a-clock-s",
                        Seat::B => "--b-clock-s",
                    };
                    return Err(CliError::usage(format!(
                        "{flag}: an increment is added to a game clock, and {seat:?} plays \
                         a time per move; give it a clock (--clock-s or {own})"
                    )));
                }
            }
        }
        Ok(())
    }

    /// The match engine's settings, with `default` the game's own time.
    fn spec(&self, default: MatchTime) -> MatchSpec {
        MatchSpec {
            games: self.games,
            seed: self.seed,
            random_plies: self.random_plies,
            openings: self.openings,
            max_plies: self.max_plies,
            threads: self.threads(),
            time: Seat::BOTH.map(|seat| self.time_control(seat, default)),
            resign: self.resign.rule(),
        }
    }

    /// What makes a match of these arguments the same match as a games
    /// log's, with `default` the game's own time.
    pub(super) fn match_setup(&self, default: MatchTime) -> Result<MatchSetup, CliError> {
        let spec = self.spec(default);
        Ok(MatchSetup {
            a: self.a.clone(),
            b: self.b.clone(),
            seed: spec.seed,
            random_plies: spec.random_plies,
            openings: spec.openings,
            max_plies: spec.max_plies,
            time: spec.time.map(|control| control.label()),
            resign: self.resign.flags(),
            options: self.options_json()?,
        })
    }

    /// The games played at once: `--threads`, or the machine's cores.
    pub(super) fn threads(&self) -> usize {
        self.threads.unwrap_or_else(crate::arena::default_threads)
    }

    /// The `--options` object for `new` (empty when not given).
    pub(super) fn options_json(&self) -> Result<Value, CliError> {
        new_options(self).map(Value::Object)
    }

    /// What the command line names seat A or B.
    pub(super) fn player_spec(&self, seat: Seat) -> &str {
        match seat {
            Seat::A => &self.a,
            Seat::B => &self.b,
        }
    }
}

/// Runs the arena and prints its table (and JSON line): a match between
/// two players, or for a one-player game both players on the same boards
/// ([`solo`]).
pub fn run(args: ArenaArgs) -> ExitCode {
    let result = end_programs_on_signals()
        .map_err(CliError::from)
        .and_then(|()| {
            if solo::is_one_player(&args.game) {
                let summary = solo::play_solo_arena(&args)?;
                solo::print_solo_table(&summary);
                print_json(&summary, args.json);
            } else {
                let summary = play_arena(&args)?;
                print_table(&summary, &args);
                print_json(&summary, args.json);
            }
            Ok(())
        });
    super::report("arena", result)
}

/// The results as one JSON line, when `--json` asks for it.
fn print_json<T: serde::Serialize>(summary: &T, json: bool) {
    if json {
        println!("{}", serde_json::to_string(summary).unwrap_or_default());
    }
}

/// Plays every game and sums up the results.
pub fn play_arena(args: &ArenaArgs) -> Result<MatchSummary, CliError> {
    games::with_game(&args.game, Arena(args)).unwrap_or_else(|| {
        Err(CliError::usage(format!(
            "no game '{}'; games: {}",
            args.game,
            games::ids().join(", ")
        )))
    })
}

/// The arena for one game's types.
struct Arena<'a>(&'a ArenaArgs);

impl GameVisitor for Arena<'_> {
    type Output = Result<MatchSummary, CliError>;

    fn visit<G: Game>(self) -> Self::Output {
        let args = self.0;
        let info = G::info();
        if info.players != 2 {
            return Err(CliError::usage(format!(
                "{} is a one-player game; the arena pits two players",
                info.id
            )));
        }
        let options = crate::game::read_new_options::<G>(&Value::Object(new_options(args)?))
            .map_err(|e| CliError::usage(format!("--options: {e}")))?;
        let start = G::new_game(options).map_err(|e| CliError::usage(format!("--options: {e}")))?;
        let seats = Seat::BOTH.map(|seat| seat_of::<G>(args.player_spec(seat), &start));
        let [a, b] = seats;
        let seats = [a?, b?];
        let names = seats.clone().map(|seat| seat.name());
        let grace = Duration::from_millis(args.grace_ms);
        args.check_increments(G::match_time())?;
        let spec = args.spec(G::match_time());
        // A named level of the arena's own plans its moves under a clock,
        // warmed up (a numbered one keeps its own budget, clock or not).
        let warm = Seat::BOTH.iter().any(|seat| {
            spec.time[seat.index()].is_clock()
                && matches!(seats[seat.index()], SeatPlayer::Level(AnyLevel::Named(_)))
        });
        let make_player = |seat: Seat| -> Result<Box<dyn Player<G>>, String> {
            if warm {
                warm_up::<G>(&start);
            }
            let index = seat.index();
            seats[index].player::<G>(names[index].clone(), grace)
        };
        // Players (bot levels and programs, checked above) are always made; a
        // player that cannot be made is one the command line named wrongly.
        let setup = args.match_setup(G::match_time())?;
        let (log, mut records) = match &args.games_log {
            None => (None, Vec::new()),
            Some(path) if args.resume => {
                let (log, kept) = GamesLog::resume(path, setup, spec.games)?;
                eprintln!(
                    "arena: {} of {} games kept from {}",
                    kept.len(),
                    spec.games,
                    path.display()
                );
                (Some(log), kept)
            }
            Some(path) => (Some(GamesLog::create(path, setup)?), Vec::new()),
        };
        let on_game = |record: &GameRecord| {
            if let Some(log) = &log {
                log.append(record);
            }
        };
        let missing: Vec<usize> = (0..spec.games)
            .filter(|index| !records.iter().any(|kept| kept.index == *index))
            .collect();
        let played =
            play_games(&spec, &missing, &start, &make_player, &on_game).map_err(CliError::Usage)?;
        records.extend(played);
        records.sort_by_key(|record| record.index);
        if let Some(log) = log {
            log.finish(&records)?;
        }
        let setups = Seat::BOTH.map(|seat| {
            let control = spec.time[seat.index()];
            SeatSetup {
                name: names[seat.index()].clone(),
                time: control.label(),
                per_move_ms: match control {
                    TimeControl::PerMove { time, .. } => Some(time.as_secs_f64() * 1000.0),
                    TimeControl::GameClock { .. } => None,
                },
            }
        });
        let opening_of = |index| spec.openings.of_game::<G>(index);
        Ok(summarise(info.id, args.seed, setups, &records, opening_of))
    }
}

thread_local! {
    /// The games whose engine this thread has warmed up.
    static WARMED: std::cell::RefCell<Vec<&'static str>> = const {
        std::cell::RefCell::new(Vec::new())
    };
}

/// Loads what the game's engine loads on first use (evaluation weights,
/// opening books, solver tables, and the thread's search tables) with a
/// shallow move and analysis from the start, once a thread, so that under a clock the
/// first move a thread plays does not pay for it, as a server warms its
/// engines before it serves.
fn warm_up<G: Game>(start: &G::State) {
    let id = G::info().id;
    if WARMED.with(|warmed| warmed.borrow().contains(&id)) || G::outcome(start).is_over() {
        return;
    }
    let budget = Budget::with_time_ms(200).depth(2);
    let params = BotParams::<G::BotOptions>::seeded(1);
    // The default level's move may come from a book, so a search too.
    let _ = ladder::choose::<G>(start, &AnyLevel::default_of::<G>(), &params, &budget);
    let _ = G::analyze(start, 1, &params, &budget);
    WARMED.with(|warmed| warmed.borrow_mut().push(id));
}

/// A seat's player as the command line names it.
#[derive(Clone, Debug)]
pub enum SeatPlayer<L> {
    /// A bot level of the game.
    Level(AnyLevel<L>),
    /// An outside program playing by board file.
    BoardFile(Program),
    /// An outside program playing in a working folder.
    Agent(Program),
    /// An outside engine speaking GTP.
    Gtp(Program),
    /// An outside program playing by lines.
    Line(Program),
    /// A level of a gamebot service over HTTP.
    Service(Service),
}

/// What an outside program playing by lines may spend starting up, on its
/// first move (an interpreter loading).
const LINE_STARTUP: Duration = Duration::from_secs(2);

impl<L: crate::game::Level> SeatPlayer<L> {
    /// The player's name in tables: the level, or the program with its prefix.
    pub fn name(&self) -> String {
        match self {
            SeatPlayer::Level(level) => level.to_string(),
            SeatPlayer::BoardFile(program) => format!("{}{}", board_file::PREFIX, program.name()),
            SeatPlayer::Agent(program) => format!("{}{program}", agent::PREFIX),
            SeatPlayer::Gtp(program) => format!("{}{}", gtp::PREFIX, gtp::engine_name(program)),
            SeatPlayer::Line(program) => format!("{}{program}", line_program::PREFIX),
            SeatPlayer::Service(service) => service.name(),
        }
    }

    /// A fresh player for one game, shown as `name`, an outside program
    /// given `grace` beyond each move's time (and started here).
    pub fn player<G: Game<Level = L>>(
        &self,
        name: String,
        grace: Duration,
    ) -> Result<Box<dyn Player<G>>, String> {
        Ok(match self {
            SeatPlayer::Level(level) => Box::new(LevelPlayer::<G>::new(level.clone())),
            SeatPlayer::BoardFile(program) => {
                Box::new(BoardFilePlayer::<G>::new(program.clone(), name, grace))
            }
            SeatPlayer::Agent(program) => {
                Box::new(AgentPlayer::<G>::new(program.clone(), name, grace))
            }
            SeatPlayer::Gtp(program) => Box::new(GtpPlayer::<G>::new(program, name, grace)?),
            SeatPlayer::Line(program) => {
                Box::new(LinePlayer::<G>::new(program, name, grace)?.with_startup(LINE_STARTUP))
            }
            SeatPlayer::Service(service) => {
                Box::new(ServicePlayer::<G>::new(service.clone(), grace))
            }
        })
    }
}

/// A player written like a level (`strong`, `norvig:depth=8`), or an
/// outside program: `exec:PATH [ARGS…]` for a game with a program line,
/// `cab201:PATH [ARGS…]` for a game with a board file,
/// a working-folder program (`halma-agent:PATH [ARGS…]`) for a game with an
/// agent input, a GTP engine (`gtp:COMMAND [ARGS…]`) for a game GTP
/// engines play, or a level of a gamebot service (`service:URL [LEVEL]`).
pub fn seat_of<G: Game>(text: &str, start: &G::State) -> Result<SeatPlayer<G::Level>, CliError> {
    let id = G::info().id;
    if let Some(service) = text.strip_prefix(service::PREFIX) {
        return Service::parse(service)
            .map(SeatPlayer::Service)
            .map_err(|e| CliError::usage(format!("{id}: {text}: {e}")));
    }
    if let Some(program) = text.strip_prefix(line_program::PREFIX) {
        if G::program_line(start).is_none() {
            return Err(CliError::usage(format!(
                "{id}: {} players need a game with a program line (crush)",
                line_program::PREFIX
            )));
        }
        return Program::parse(program)
            .map(SeatPlayer::Line)
            .map_err(|e| CliError::usage(format!("{id}: {text}: {e}")));
    }
    if let Some(program) = text.strip_prefix(agent::PREFIX) {
        if G::agent_input(start, Duration::from_secs(1), None).is_none() {
            return Err(CliError::usage(format!(
                "{id}: {} players need a game with an agent input.txt (halma)",
                agent::PREFIX
            )));
        }
        return Program::parse(program)
            .map(SeatPlayer::Agent)
            .map_err(|e| CliError::usage(format!("{id}: {text}: {e}")));
    }
    if let Some(program) = text.strip_prefix(gtp::PREFIX) {
        if !G::speaks_gtp() {
            return Err(CliError::usage(format!(
                "{id}: {} players need a game GTP engines play (reversi)",
                gtp::PREFIX
            )));
        }
        return Program::parse(program)
            .map(SeatPlayer::Gtp)
            .map_err(|e| CliError::usage(format!("{id}: {text}: {e}")));
    }
    let Some(program) = text.strip_prefix(board_file::PREFIX) else {
        return level_of::<G>(text).map(SeatPlayer::Level);
    };
    if G::board_file(start).is_none() {
        return Err(CliError::usage(format!(
            "{id}: {} players need a game with a board file (advance)",
            board_file::PREFIX
        )));
    }
    Program::parse(program)
        .map(SeatPlayer::BoardFile)
        .map_err(|e| CliError::usage(format!("{id}: {text}: {e}")))
}

/// Reads an increment in milliseconds from a flag: a whole number from 0
/// to an hour, the most a clock's increment may be
/// ([`MAX_INCREMENT_MS`]). For clap's `value_parser`.
pub fn increment_ms(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(ms) if ms <= MAX_INCREMENT_MS => Ok(ms),
        _ => Err(format!(
            "expected milliseconds, a whole number from 0 to {MAX_INCREMENT_MS} (an hour)"
        )),
    }
}

/// A player written like a level (`strong`, `norvig:depth=8`, `3`).
fn level_of<G: Game>(text: &str) -> Result<AnyLevel<G::Level>, CliError> {
    AnyLevel::parse::<G>(text).map_err(|e| CliError::usage(format!("{}: {e}", G::info().id)))
}

/// The `--options` object for `new` (empty when not given).
fn new_options(args: &ArenaArgs) -> Result<Map<String, Value>, CliError> {
    match &args.options {
        None => Ok(Map::new()),
        Some(text) => match serde_json::from_str(text) {
            Ok(Value::Object(map)) => Ok(map),
            Ok(other) => Err(CliError::usage(format!(
                "--options must be a JSON object, not {other}"
            ))),
            Err(e) => Err(CliError::usage(format!("--options: {e}"))),
        },
    }
}

fn print_table(summary: &MatchSummary, args: &ArenaArgs) {
    println!(
        "arena {}: {} games, seed {}, {} random opening plies ({} openings), cap {} plies",
        summary.game, summary.games, summary.seed, args.random_plies, args.openings, args.max_plies
    );
    println!(
        "{:<3} {:<32} {:>5} {:>6} {:>6} {:>8} {:>8} {:>9} {:>9} {:>9} {:>8} {:>12}",
        "",
        "player",
        "wins",
        "draws",
        "losses",
        "on time",
        "forfeit",
        "avg ms",
        "median",
        "max ms",
        "over+10",
        "nodes/s"
    );
    for (name, seat, other) in [("A", &summary.a, &summary.b), ("B", &summary.b, &summary.a)] {
        let overruns = seat
            .overruns
            .map_or_else(|| "-".to_string(), |n| n.to_string());
        println!(
            "{name:<3} {:<32} {:>5} {:>6} {:>6} {:>8} {:>8} {:>9.2} {:>9.2} {:>9.2} {overruns:>8} {:>12.0}",
            format!("{} ({})", seat.name, seat.time),
            seat.wins,
            summary.draws,
            other.wins,
            seat.timeouts,
            seat.forfeits,
            seat.avg_ms,
            seat.median_ms,
            seat.max_ms,
            seat.nodes_per_s
        );
    }
    let elo = summary.elo.map_or_else(
        || "no finite Elo difference".to_string(),
        |e| {
            format!(
                "Elo A−B {:+.0} (95%: {:+.0} to {:+.0})",
                e.diff, e.low, e.high
            )
        },
    );
    let margin = summary
        .a_margin
        .map_or(String::new(), |m| format!("; A's mean margin {m:+.1}"));
    let adjudicated = if summary.adjudicated > 0 {
        format!("; adjudicated by resign: {}", summary.adjudicated)
    } else {
        String::new()
    };
    println!(
        "A scored {:.1}%; {elo}; games stopped at the ply cap (draws): {}{adjudicated}{margin}",
        summary.a_score * 100.0,
        summary.capped
    );
    for (name, seat) in [("A", &summary.a), ("B", &summary.b)] {
        if let Some(clock) = &seat.clock {
            println!("{name} {}", clock_line(seat.timeouts, clock));
        }
    }
}

/// A seat's clock in words, for the table: its losses on time, the time
/// left at the games' ends, and the planned time of its moves against the
/// time they used.
fn clock_line(timeouts: usize, clock: &ClockSummary) -> String {
    let games = clock.left_ms.iter().flatten().count();
    let mut line = format!("lost {timeouts} on time");
    if games > 0 {
        line += &format!(
            "; clock left at the end: {:.2} s on average, least {:.2} s ({games} games)",
            clock.mean_left_ms / 1000.0,
            clock.min_left_ms / 1000.0
        );
    }
    if clock.planned_moves > 0 {
        line += &format!(
            "; {} moves planned {:.2} ms on average, used {:.2} ms, {} past their cap",
            clock.planned_moves, clock.mean_planned_ms, clock.mean_used_ms, clock.past_cap
        );
    }
    if let Some(lag) = clock.mean_lag_ms {
        line += &format!("; {lag:.2} ms a move beyond the service's own time");
    }
    line
}
