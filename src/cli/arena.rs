//! `gamebot arena`: plays bots against each other through the same code the
//! service uses (the registry's JSON view and the same budgets), and reports
//! wins, draws, losses, time losses, think times and search speed.
//!
//! Games alternate colours (A plays the first side in even-numbered games),
//! start with a few random plies drawn from the seed so that games differ, and
//! run in parallel on the available cores, each game on one thread.

use crate::game::erased::BotRequest;
use crate::game::{Budget, DynGame};
use crate::games;
use clap::Args;
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use serde_json::{json, Value};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// The arena's command line.
#[derive(Args, Clone, Debug)]
pub struct ArenaArgs {
    /// The game id (a two-player game of the registry).
    pub game: String,
    /// Bot A: a level with options, e.g. `strong` or `norvig:depth=8`.
    #[arg(long)]
    pub a: String,
    /// Bot B, written like A.
    #[arg(long)]
    pub b: String,
    /// Games to play.
    #[arg(long, default_value_t = 10)]
    pub games: usize,
    /// Think time per move of both sides, in milliseconds.
    #[arg(long, default_value_t = 100)]
    pub time_ms: u64,
    /// A's think time per move, overriding --time-ms.
    #[arg(long)]
    pub a_time_ms: Option<u64>,
    /// B's think time per move, overriding --time-ms.
    #[arg(long)]
    pub b_time_ms: Option<u64>,
    /// Give each side a game clock of this many seconds instead of a time per
    /// move; a side whose clock runs out loses.
    #[arg(long)]
    pub clock_s: Option<f64>,
    /// A's game clock in seconds, overriding --clock-s.
    #[arg(long)]
    pub a_clock_s: Option<f64>,
    /// B's game clock in seconds, overriding --clock-s.
    #[arg(long)]
    pub b_clock_s: Option<f64>,
    /// How late a move may come, beyond its time per move, before it loses on time.
    #[arg(long, default_value_t = 50)]
    pub grace_ms: u64,
    /// Seed of the openings and of the bots' random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random plies at the start of every game, so that games differ.
    #[arg(long, default_value_t = 2)]
    pub random_plies: usize,
    /// Plies after which a game is stopped and counted as a draw.
    #[arg(long, default_value_t = 1000)]
    pub max_plies: usize,
    /// Games played at once [default: the number of cores].
    #[arg(long)]
    pub threads: Option<usize>,
    /// Options of `new`, as a JSON object.
    #[arg(long)]
    pub options: Option<String>,
    /// Print one JSON object with the results on the last line.
    #[arg(long)]
    pub json: bool,
    /// Write every game to this file, one JSON object a line: its index,
    /// the side A played, the result and the moves in notation, so that a
    /// lost game can be replayed and studied.
    #[arg(long)]
    pub games_log: Option<std::path::PathBuf>,
}

impl ArenaArgs {
    /// The game clock of bot 0 (A) or 1 (B), in seconds, if it has one.
    fn clock_of(&self, bot: usize) -> Option<f64> {
        [self.a_clock_s, self.b_clock_s][bot].or(self.clock_s)
    }
}

/// What happened in one game.
#[derive(Clone, Debug, Default)]
struct GameRecord {
    /// +1 A won, -1 B won, 0 draw.
    result: i8,
    capped: bool,
    timeouts: [u32; 2],
    think_ms: [Vec<f64>; 2],
    nodes: [u64; 2],
    /// The side A played.
    a_plays: String,
    /// Every move in notation, random opening plies included.
    moves: Vec<String>,
}

impl GameRecord {
    /// The game as one line of the `--games-log` file.
    fn log_line(&self, index: usize) -> Value {
        let result = match self.result {
            1 => "A",
            -1 => "B",
            _ => "draw",
        };
        json!({
            "index": index,
            "a_plays": self.a_plays,
            "result": result,
            "on_time": self.timeouts.iter().any(|&t| t > 0),
            "capped": self.capped,
            "plies": self.moves.len(),
            "moves": self.moves,
        })
    }
}

/// The notation of a move object (empty if it has none).
fn notation_of(mv: &Value) -> String {
    mv.get("notation")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

/// The totals over all games, as printed with `--json`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ArenaReport {
    /// The game id.
    pub game: String,
    /// Bot A's level.
    pub a: String,
    /// Bot B's level.
    pub b: String,
    /// Games played.
    pub games: usize,
    /// Games A won.
    pub a_wins: usize,
    /// Games drawn (including capped ones).
    pub draws: usize,
    /// Games B won.
    pub b_wins: usize,
    /// Games A lost on time.
    pub a_timeouts: usize,
    /// Games B lost on time.
    pub b_timeouts: usize,
    /// A's mean think time per move, ms.
    pub a_avg_ms: f64,
    /// B's mean think time per move, ms.
    pub b_avg_ms: f64,
    /// A's median think time per move, ms.
    pub a_median_ms: f64,
    /// B's median think time per move, ms.
    pub b_median_ms: f64,
    /// A's longest think, ms.
    pub a_max_ms: f64,
    /// B's longest think, ms.
    pub b_max_ms: f64,
    /// A's moves that came more than [`OVERRUN_MS`] after their time per
    /// move (none counted with a game clock).
    pub a_overruns: usize,
    /// B's moves over budget by more than [`OVERRUN_MS`].
    pub b_overruns: usize,
    /// A's search speed, nodes per second of thinking.
    pub a_nodes_per_s: f64,
    /// B's search speed.
    pub b_nodes_per_s: f64,
    /// Games stopped at the ply cap (counted as draws).
    pub capped: usize,
    /// The seed used.
    pub seed: u64,
}

/// Runs the arena and prints its table (and JSON line).
pub fn run(args: ArenaArgs) -> ExitCode {
    match play_arena(&args) {
        Ok(report) => {
            print_table(&report, &args);
            if args.json {
                println!("{}", serde_json::to_string(&report).unwrap_or_default());
            }
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("gamebot arena: {message}");
            ExitCode::from(2)
        }
    }
}

/// How far past its time per move a move may come before it counts as an
/// overrun in the report (the strong levels' promise; the time-loss rule is
/// the separate, looser `--grace-ms`).
pub const OVERRUN_MS: f64 = 10.0;

/// Plays every game and sums up the results.
pub fn play_arena(args: &ArenaArgs) -> Result<ArenaReport, String> {
    let game = games::find(&args.game).ok_or_else(|| {
        let known: Vec<_> = games::REGISTRY.iter().map(|g| g.info().id).collect();
        format!("no game '{}'; games: {}", args.game, known.join(", "))
    })?;
    let info = game.info();
    if info.players != 2 {
        return Err(format!(
            "{} is a one-player game; the arena pits two bots",
            info.id
        ));
    }
    for level in [&args.a, &args.b] {
        game.check_level(level).map_err(|e| e.to_string())?;
    }
    let options: Value = match &args.options {
        Some(text) => serde_json::from_str(text).map_err(|e| format!("--options: {e}"))?,
        None => Value::Null,
    };
    game.new_game(&options)
        .map_err(|e| format!("--options: {e}"))?;

    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, args.games.max(1));
    let next = AtomicUsize::new(0);
    let records = Mutex::new(vec![None; args.games]);
    let failure = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= args.games {
                    break;
                }
                match play_one(game, args, &options, index) {
                    Ok(record) => records.lock().expect("no panics hold it")[index] = Some(record),
                    Err(message) => {
                        *failure.lock().expect("no panics hold it") = Some(message);
                        break;
                    }
                }
            });
        }
    });
    if let Some(message) = failure.into_inner().expect("threads ended") {
        return Err(message);
    }
    let records: Vec<GameRecord> = records
        .into_inner()
        .expect("threads ended")
        .into_iter()
        .flatten()
        .collect();
    if let Some(path) = &args.games_log {
        write_games_log(path, &records)?;
    }
    Ok(summarise(args, &records))
}

fn write_games_log(path: &std::path::Path, records: &[GameRecord]) -> Result<(), String> {
    let lines: String = records
        .iter()
        .enumerate()
        .map(|(index, record)| format!("{}\n", record.log_line(index)))
        .collect();
    std::fs::write(path, lines).map_err(|e| format!("--games-log {}: {e}", path.display()))
}

/// A seed for game `index`, ply `ply`: the same arena seed gives the same games.
fn derive_seed(seed: u64, index: usize, ply: usize) -> u64 {
    let mut x = seed
        ^ (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ (ply as u64).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 31;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 29)
}

fn play_one(
    game: &dyn DynGame,
    args: &ArenaArgs,
    options: &Value,
    index: usize,
) -> Result<GameRecord, String> {
    let sides = game.info().sides;
    let mut state = game.new_game(options).map_err(|e| e.to_string())?.state;
    let mut rng = ChaCha8Rng::seed_from_u64(derive_seed(args.seed, index, usize::MAX));
    let a_side = index % 2; // A plays the first side in even games
    let mut record = GameRecord {
        a_plays: sides
            .get(a_side)
            .map_or_else(String::new, |s| s.to_string()),
        ..GameRecord::default()
    };
    let mut clocks_ms = [0, 1].map(|bot| args.clock_of(bot).map(|s| s * 1000.0));
    let mut outcome = json!({"status": "ongoing"});

    for ply in 0..args.max_plies {
        let legal = game.legal_moves(&state).map_err(|e| e.to_string())?;
        if legal.count == 0 {
            outcome = legal.outcome;
            break;
        }
        let mover_name = state
            .get("to_move")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let mover_side = sides
            .iter()
            .position(|s| *s == mover_name)
            .unwrap_or(ply % 2);
        let bot = usize::from(mover_side != a_side); // 0 = A, 1 = B
        if ply < args.random_plies {
            let mv = legal.moves.choose(&mut rng).cloned().unwrap_or_default();
            let played = game.play(&state, &mv).map_err(|e| e.to_string())?;
            record.moves.push(notation_of(&played.mv));
            state = played.state;
            outcome = played.outcome;
        } else {
            let level = if bot == 0 { &args.a } else { &args.b };
            let per_move = [args.a_time_ms, args.b_time_ms][bot].unwrap_or(args.time_ms);
            let (time_ms, extra) = match clocks_ms[bot] {
                Some(left) => {
                    let mut extra = serde_json::Map::new();
                    extra.insert(
                        "clock".into(),
                        json!({"mode": "GAME", "time_left_s": left.max(0.0) / 1000.0}),
                    );
                    let explicit = [args.a_time_ms, args.b_time_ms][bot];
                    let cap = explicit.map_or(left, |t| (t as f64).min(left));
                    (cap.max(1.0) as u64, extra)
                }
                None => (per_move, serde_json::Map::new()),
            };
            let request = BotRequest {
                state: state.clone(),
                level: Some(level.clone()),
                seed: Some(derive_seed(args.seed, index, ply)),
                extra,
            };
            let started = Instant::now();
            let reply = game
                .bot_move(&request, &Budget::with_time_ms(time_ms))
                .map_err(|e| format!("{level} failed in game {index} at ply {ply}: {e}"))?;
            let think = started.elapsed().as_secs_f64() * 1000.0;
            record.think_ms[bot].push(think);
            record.nodes[bot] += reply.search.nodes.unwrap_or(0);
            record.moves.push(notation_of(&reply.mv));
            let late = match &mut clocks_ms[bot] {
                Some(left) => {
                    *left -= think;
                    *left < 0.0
                }
                None => think > (per_move + args.grace_ms) as f64,
            };
            if late {
                record.timeouts[bot] += 1;
                record.result = if bot == 0 { -1 } else { 1 };
                return Ok(record);
            }
            state = reply.state;
            outcome = reply.outcome;
        }
        if outcome["status"] != "ongoing" {
            break;
        }
    }
    match outcome["status"].as_str() {
        Some("win") => {
            let winner = outcome["winner"].as_str().unwrap_or_default();
            let winner_side = sides.iter().position(|s| *s == winner);
            record.result = if winner_side == Some(a_side) { 1 } else { -1 };
        }
        Some("ongoing") => record.capped = true,
        _ => {}
    }
    Ok(record)
}

fn summarise(args: &ArenaArgs, records: &[GameRecord]) -> ArenaReport {
    let side = |bot: usize| {
        let thinks: Vec<f64> = records
            .iter()
            .flat_map(|r| r.think_ms[bot].iter().copied())
            .collect();
        let total_ms: f64 = thinks.iter().sum();
        let nodes: u64 = records.iter().map(|r| r.nodes[bot]).sum();
        let avg = if thinks.is_empty() {
            0.0
        } else {
            total_ms / thinks.len() as f64
        };
        let max = thinks.iter().copied().fold(0.0, f64::max);
        let median = median(&thinks);
        let budget = [args.a_time_ms, args.b_time_ms][bot].unwrap_or(args.time_ms) as f64;
        let overruns = match args.clock_of(bot) {
            Some(_) => 0,
            None => thinks.iter().filter(|&&t| t > budget + OVERRUN_MS).count(),
        };
        let nps = if total_ms > 0.0 {
            nodes as f64 / (total_ms / 1000.0)
        } else {
            0.0
        };
        let timeouts = records.iter().filter(|r| r.timeouts[bot] > 0).count();
        Side {
            avg_ms: round2(avg),
            median_ms: round2(median),
            max_ms: round2(max),
            overruns,
            nodes_per_s: nps.round(),
            timeouts,
        }
    };
    let (a, b) = (side(0), side(1));
    ArenaReport {
        game: args.game.clone(),
        a: args.a.clone(),
        b: args.b.clone(),
        games: records.len(),
        a_wins: records.iter().filter(|r| r.result > 0).count(),
        draws: records.iter().filter(|r| r.result == 0).count(),
        b_wins: records.iter().filter(|r| r.result < 0).count(),
        a_timeouts: a.timeouts,
        b_timeouts: b.timeouts,
        a_avg_ms: a.avg_ms,
        b_avg_ms: b.avg_ms,
        a_median_ms: a.median_ms,
        b_median_ms: b.median_ms,
        a_max_ms: a.max_ms,
        b_max_ms: b.max_ms,
        a_overruns: a.overruns,
        b_overruns: b.overruns,
        a_nodes_per_s: a.nodes_per_s,
        b_nodes_per_s: b.nodes_per_s,
        capped: records.iter().filter(|r| r.capped).count(),
        seed: args.seed,
    }
}

/// One side's think-time figures.
struct Side {
    avg_ms: f64,
    median_ms: f64,
    max_ms: f64,
    overruns: usize,
    nodes_per_s: f64,
    timeouts: usize,
}

/// The median of some think times (0 for none).
fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn print_table(report: &ArenaReport, args: &ArenaArgs) {
    let time = |bot: usize, own: Option<u64>| match args.clock_of(bot) {
        Some(clock) => format!("{clock} s clock"),
        None => format!("{} ms/move", own.unwrap_or(args.time_ms)),
    };
    println!(
        "arena {}: {} games, seed {}, {} random opening plies, cap {} plies",
        report.game, report.games, report.seed, args.random_plies, args.max_plies
    );
    println!(
        "{:<3} {:<28} {:>5} {:>6} {:>6} {:>9} {:>9} {:>9} {:>9} {:>9} {:>12}",
        "",
        "bot",
        "wins",
        "draws",
        "losses",
        "on time",
        "avg ms",
        "median",
        "max ms",
        "over+10",
        "nodes/s"
    );
    let rows = [
        (
            "A",
            format!("{} ({})", report.a, time(0, args.a_time_ms)),
            report.a_wins,
            report.b_wins,
            report.a_timeouts,
            [report.a_avg_ms, report.a_median_ms, report.a_max_ms],
            report.a_overruns,
            report.a_nodes_per_s,
        ),
        (
            "B",
            format!("{} ({})", report.b, time(1, args.b_time_ms)),
            report.b_wins,
            report.a_wins,
            report.b_timeouts,
            [report.b_avg_ms, report.b_median_ms, report.b_max_ms],
            report.b_overruns,
            report.b_nodes_per_s,
        ),
    ];
    for (name, bot, wins, losses, timeouts, [avg, median, max], overruns, nps) in rows {
        println!(
            "{name:<3} {bot:<28} {wins:>5} {:>6} {losses:>6} {timeouts:>9} {avg:>9.2} {median:>9.2} {max:>9.2} {overruns:>9} {nps:>12.0}",
            report.draws
        );
    }
    println!("games stopped at the ply cap (draws): {}", report.capped);
}

#[cfg(test)]
mod tests {
    use super::median;

    #[test]
    fn the_median_takes_the_middle_or_the_mean_of_the_two_middles() {
        assert_eq!(median(&[]), 0.0);
        assert_eq!(median(&[5.0, 1.0, 9.0]), 5.0);
        assert_eq!(median(&[4.0, 1.0, 9.0, 2.0]), 3.0);
    }
}
