//! `gamebot arena` for a one-player game (Number Crush): A and B play the
//! same seeded boards (`--seed` and the `--games` seeds after it), each
//! game on its own, and the table gives each side's points and A's gain
//! over B board by board, with its 95% interval
//! ([`crate::arena::solo`]). `gamebot crush --benchmark` and `gamebot
//! ladder crush` play through the same engine.

use super::{seat_of, ArenaArgs, SeatPlayer};
use crate::arena::solo::{play_solo, points, PairedGain, SoloGame, SoloSide, SoloSpec};
use crate::arena::{Player, Seat, TimeControl};
use crate::cli::CliError;
use crate::game::{read_new_options, Game, GameError};
use crate::games::{self, GameVisitor};
use serde::Serialize;
use serde_json::Value;
use std::time::Duration;

/// A one-player match's result.
#[derive(Clone, Debug, Serialize)]
pub struct SoloSummary {
    /// The game id.
    pub game: String,
    /// The first game's seed; the games are this and the next ones.
    pub first_seed: u64,
    /// Games each side played.
    pub games: usize,
    /// Each side's time a move, in milliseconds (A, B).
    pub time_ms: [f64; 2],
    /// A's side.
    pub a: SoloSide,
    /// B's side.
    pub b: SoloSide,
    /// How many more points A scored than B on the same boards.
    pub a_over_b: PairedGain,
}

/// Plays the one-player match `args` asks for.
pub fn play_solo_arena(args: &ArenaArgs) -> Result<SoloSummary, CliError> {
    games::with_game(&args.game, SoloArena(args)).unwrap_or_else(|| {
        Err(CliError::usage(format!(
            "no game '{}'; games: {}",
            args.game,
            games::ids().join(", ")
        )))
    })
}

/// Whether `game` is a one-player game of the registry.
pub fn is_one_player(game: &str) -> bool {
    games::find(game).is_some_and(|view| view.info().players == 1)
}

/// A match's game starts: game `seed` is the game's seeded start with the
/// command line's `--options`.
pub fn seeded_start<G: Game>(
    options: &Value,
) -> Result<impl Fn(u64) -> Result<G::State, String> + Sync + '_, CliError> {
    let start = move |seed| -> Result<G::State, GameError> {
        G::seeded_game(read_new_options::<G>(options)?, seed)
    };
    // A start that cannot be built is the command line's fault: say so now.
    start(0).map_err(|e| CliError::usage(format!("--options: {e}")))?;
    Ok(move |seed| start(seed).map_err(|e| format!("game seed {seed}: {e}")))
}

/// The arena for one one-player game's types.
struct SoloArena<'a>(&'a ArenaArgs);

impl GameVisitor for SoloArena<'_> {
    type Output = Result<SoloSummary, CliError>;

    fn visit<G: Game>(self) -> Self::Output {
        let args = self.0;
        refuse_two_player_flags(args)?;
        let options = args.options_json()?;
        let start = seeded_start::<G>(&options)?;
        let probe = start(args.seed).map_err(CliError::usage)?;
        let [a, b] = Seat::BOTH.map(|seat| seat_of::<G>(args.player_spec(seat), &probe));
        let seats: [SeatPlayer<G::Level>; 2] = [a?, b?];
        let names = seats.clone().map(|seat| seat.name());
        let times = Seat::BOTH.map(|seat| match args.time_control(seat, G::match_time()) {
            TimeControl::PerMove { time, .. } => time,
            TimeControl::GameClock { total, .. } => total,
        });
        let grace = Duration::from_millis(args.grace_ms);
        let spec = SoloSpec {
            seeds: args.seed..args.seed.saturating_add(args.games as u64),
            times: times.to_vec(),
            threads: args.threads(),
        };
        let make_player = |who: usize| -> Result<Box<dyn Player<G>>, String> {
            seats[who].player::<G>(names[who].clone(), grace)
        };
        let games = play_solo::<G>(&spec, &start, &make_player).map_err(CliError::Usage)?;
        Ok(summary(args, &names, &times, &games))
    }
}

/// The flags of a two-player match, refused for a one-player one rather
/// than silently ignored.
fn refuse_two_player_flags(args: &ArenaArgs) -> Result<(), CliError> {
    let given = [
        ("--clock-s", args.clock_s.is_some()),
        ("--a-clock-s", args.a_clock_s.is_some()),
        ("--b-clock-s", args.b_clock_s.is_some()),
        ("--increment-ms", args.increment_ms.is_some()),
        ("--a-increment-ms", args.a_increment_ms.is_some()),
        ("--b-increment-ms", args.b_increment_ms.is_some()),
        ("--resign-margin", args.resign.resign_margin.is_some()),
        ("--games-log", args.games_log.is_some()),
        (
            "--random-plies",
            args.random_plies != ArenaArgs::new("").random_plies,
        ),
        (
            "--max-plies",
            args.max_plies != ArenaArgs::new("").max_plies,
        ),
    ];
    match given.iter().find(|(_, given)| *given) {
        Some((flag, _)) => Err(CliError::usage(format!(
            "{flag} is for two-player games; {} is a one-player game: both players \
             play the same seeded boards, from --seed on, --time-ms a move",
            args.game
        ))),
        None => Ok(()),
    }
}

fn summary(
    args: &ArenaArgs,
    names: &[String; 2],
    times: &[Duration; 2],
    games: &[Vec<SoloGame>],
) -> SoloSummary {
    let [a, b] = [0, 1].map(|who| SoloSide::of(names[who].clone(), &games[who]));
    SoloSummary {
        game: args.game.clone(),
        first_seed: args.seed,
        games: args.games,
        time_ms: times.map(|t| t.as_secs_f64() * 1000.0),
        a,
        b,
        a_over_b: PairedGain::over(&points(&games[1]), &points(&games[0])),
    }
}

/// Prints the match's table.
pub fn print_solo_table(summary: &SoloSummary) {
    println!(
        "arena {}: {} games each on the same boards, seeds {}..{}",
        summary.game,
        summary.games,
        summary.first_seed,
        summary.first_seed + summary.games as u64
    );
    let rows = [
        ("A", &summary.a, summary.time_ms[0]),
        ("B", &summary.b, summary.time_ms[1]),
    ]
    .map(|(label, side, ms)| (label, side, format!("{} ({ms:.0} ms a move)", side.name)));
    let width = rows
        .iter()
        .map(|(_, _, name)| name.chars().count())
        .max()
        .unwrap_or(0);
    println!(
        "{:<3} {:<width$} {:>10} {:>8} {:>8} {:>8}",
        "", "player", "mean", "min", "max", "forfeit"
    );
    for (label, side, name) in &rows {
        println!(
            "{label:<3} {name:<width$} {:>10.1} {:>8} {:>8} {:>8}",
            side.mean, side.min, side.max, side.forfeits
        );
    }
    for (_, side, _) in &rows {
        if let Some(first) = &side.first_forfeit {
            println!(
                "first forfeit of {} (its game stops there): {first}",
                side.name
            );
        }
    }
    let gain = summary.a_over_b;
    println!(
        "A − B on the same boards: {:+.1} points (95%: {:+.1} to {:+.1}), {:+.1}% ± {:.1}% of B's mean",
        gain.mean, gain.low, gain.high, gain.percent, gain.percent_margin
    );
}
