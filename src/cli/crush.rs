//! The course's interactive Number Crush program, and a benchmark of the bot
//! levels. Interactive: reads four-digit swaps from standard input, one per
//! line (so test files can be piped in), prints the board, the cells
//! eliminated and the score after every swap, warns about an invalid swap and
//! asks again, and prints the total and the final board after 100 swaps (or
//! at the end of the input). With `--bot` the bot plays all 100 swaps.

use crate::game::{BotParams, Budget, Game, GameError, LevelSpec, Outcome};
use crate::games::crush::moves::Swap;
use crate::games::crush::{board_text, Crush, State};
use serde_json::Value;
use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Command-line arguments of the `crush` subcommand.
#[derive(clap::Args, Debug, Clone)]
pub struct CrushArgs {
    /// Number of digits on the board, 4..=7.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(4..=7))]
    pub k: u8,
    /// TinyMT32 seed of the game (default 0).
    #[arg(long, conflicts_with = "preset")]
    pub seed: Option<u32>,
    /// Start from a preset board instead: `course` (k 4, seed 0).
    #[arg(long, value_parser = ["course"], conflicts_with = "k")]
    pub preset: Option<String>,
    /// Let this bot level play all the swaps (`random`, `greedy`, `strong`, `strong:depth=4`).
    #[arg(long)]
    pub bot: Option<String>,
    /// Time the bot gets for each swap, in milliseconds.
    #[arg(long, default_value_t = 50)]
    pub time_ms: u64,
    /// A node cap for the bot on top of the time (makes its choices
    /// reproducible and independent of the machine's load).
    #[arg(long)]
    pub max_nodes: Option<u64>,
    /// Seed of the bot's own random choices (it never sees the game's generator).
    #[arg(long, default_value_t = 0)]
    pub bot_seed: u64,
    /// Benchmark mode: play whole games with each level and print the mean totals.
    #[arg(long)]
    pub benchmark: bool,
    /// Benchmark: number of games (game seeds FIRST..FIRST+N) per level and k.
    #[arg(long, default_value_t = 50)]
    pub seeds: u32,
    /// Benchmark: the first game seed (tune on one range, report on another).
    #[arg(long, default_value_t = 0)]
    pub first_seed: u32,
    /// Benchmark: the levels to compare, comma-separated (level options too:
    /// `greedy,strong:depth=2,rounds=50`).
    #[arg(long, value_delimiter = ',', default_value = "greedy,strong")]
    pub levels: Vec<String>,
    /// Benchmark: the values of k, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "4,5,6,7")]
    pub ks: Vec<u8>,
    /// Benchmark: worker threads (default: the available cores).
    #[arg(long)]
    pub threads: Option<usize>,
}

/// Runs the subcommand: the interactive game, the bot game or the benchmark.
pub fn run(args: CrushArgs) -> ExitCode {
    let result = if args.benchmark {
        benchmark(&args, &mut io::stdout().lock())
    } else {
        let stdin = io::stdin();
        interactive(&args, stdin.lock(), &mut io::stdout().lock())
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::Usage(message)) => {
            eprintln!("crush: {message}");
            ExitCode::from(2)
        }
        Err(CliError::Io(error)) => {
            eprintln!("crush: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Why the program stopped early.
#[derive(Debug)]
pub enum CliError {
    /// Bad arguments (an unknown level, say).
    Usage(String),
    /// Reading or writing failed.
    Io(io::Error),
}

impl From<io::Error> for CliError {
    fn from(error: io::Error) -> Self {
        CliError::Io(error)
    }
}

impl From<GameError> for CliError {
    fn from(error: GameError) -> Self {
        CliError::Usage(error.to_string())
    }
}

/// The starting state the arguments ask for.
pub fn starting_state(args: &CrushArgs) -> State {
    match args.preset.as_deref() {
        Some(_) => Crush::new_course(),
        None => Crush::new_seeded(args.k, args.seed.unwrap_or(0)),
    }
}

/// A checked bot level.
pub fn bot_level(name: &str) -> Result<LevelSpec, CliError> {
    let spec = LevelSpec::parse(name)?;
    if Crush::info().levels.iter().any(|l| l.id == spec.name) {
        Ok(spec)
    } else {
        Err(CliError::Usage(format!(
            "unknown level '{}'; crush has random, greedy, strong",
            spec.name
        )))
    }
}

/// Plays one game from the arguments: swaps read from `input`, or all chosen
/// by `--bot`; everything shown on `out`.
pub fn interactive<R: BufRead, W: Write>(
    args: &CrushArgs,
    input: R,
    out: &mut W,
) -> Result<(), CliError> {
    let level = args.bot.as_deref().map(bot_level).transpose()?;
    let mut state = starting_state(args);
    writeln!(
        out,
        "Number Crush, k = {}, {} swaps",
        state.k, state.swaps_left
    )?;
    write!(out, "{}", board_text(&state.board))?;
    let mut lines = input.lines();
    while Crush::outcome(&state) == Outcome::Ongoing {
        let swap = match &level {
            Some(level) => {
                let swap = bot_swap(&state, level, Limits::of(args), args.bot_seed)?;
                writeln!(out, "bot swaps {}", swap.notation())?;
                swap
            }
            None => match ask_swap(&mut lines, out)? {
                Some(swap) => swap,
                None => {
                    writeln!(out, "end of input")?;
                    break;
                }
            },
        };
        state = show_swap(&state, swap, out)?;
    }
    writeln!(out, "Total score: {}", state.score)?;
    writeln!(out, "Final board:")?;
    write!(out, "{}", board_text(&state.board))?;
    Ok(())
}

/// Asks for swaps until a valid one comes; `None` at the end of the input.
fn ask_swap<I: Iterator<Item = io::Result<String>>, W: Write>(
    lines: &mut I,
    out: &mut W,
) -> Result<Option<Swap>, CliError> {
    loop {
        write!(out, "swap (e.g. 2122): ")?;
        out.flush()?;
        let Some(line) = lines.next().transpose()? else {
            writeln!(out)?;
            return Ok(None);
        };
        match Swap::from_json(&Value::String(line.trim().to_string())) {
            Ok(swap) => return Ok(Some(swap)),
            Err(error) => writeln!(out, "invalid swap: {error}; try again")?,
        }
    }
}

/// Plays `swap`, prints what it eliminated, the score and the board.
fn show_swap<W: Write>(state: &State, swap: Swap, out: &mut W) -> Result<State, CliError> {
    let (after, steps) = Crush::play_swap(state, swap);
    writeln!(out, "swap {}:", swap.notation())?;
    if steps.is_empty() {
        writeln!(out, "  nothing matched")?;
    }
    for (i, step) in steps.iter().enumerate() {
        for run in &step.runs {
            let cells: Vec<String> = run.cells().map(|c| format!("{c:02}")).collect();
            writeln!(
                out,
                "  step {}: eliminated {} ({} in a {}, {} points)",
                i + 1,
                cells.join(" "),
                run.len,
                if run.horizontal { "row" } else { "column" },
                run.points()
            )?;
        }
    }
    writeln!(
        out,
        "score +{} = {}, swaps left {}",
        after.score - state.score,
        after.score,
        after.swaps_left
    )?;
    write!(out, "{}", board_text(&after.board))?;
    Ok(after)
}

/// The bot's swap at `level` with `time_ms` a swap; the seed of its own
/// random choices depends on `bot_seed` and the swap number only.
pub fn bot_swap(
    state: &State,
    level: &LevelSpec,
    limits: Limits,
    bot_seed: u64,
) -> Result<Swap, CliError> {
    let params = BotParams::seeded(
        bot_seed
            .wrapping_mul(1_000)
            .wrapping_add(u64::from(state.swaps_left)),
    );
    let mut budget = Budget::with_time_ms(limits.time_ms);
    budget.max_nodes = limits.max_nodes;
    Ok(Crush::choose_move(state, level, &params, &budget)?.mv)
}

/// What the bot may spend on each swap.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Wall time a swap, in milliseconds.
    pub time_ms: u64,
    /// Nodes a swap, if capped.
    pub max_nodes: Option<u64>,
}

impl Limits {
    /// The limits the arguments ask for.
    pub fn of(args: &CrushArgs) -> Limits {
        Limits {
            time_ms: args.time_ms,
            max_nodes: args.max_nodes,
        }
    }
}

/// A whole game of `k` digits from game seed `seed` played by `level`; its total.
pub fn play_game(k: u8, seed: u32, level: &LevelSpec, limits: Limits) -> Result<i64, CliError> {
    let mut state = Crush::new_seeded(k, seed);
    while state.swaps_left > 0 {
        let swap = bot_swap(&state, level, limits, u64::from(seed))?;
        state = Crush::apply(&state, &swap);
    }
    Ok(state.score)
}

/// Plays `--seeds` games for every level and k on all cores and prints the
/// mean totals, with each level's gain over the first level and the 95%
/// margin of that gain (from the per-seed differences: every level plays the
/// same game seeds).
pub fn benchmark<W: Write>(args: &CrushArgs, out: &mut W) -> Result<(), CliError> {
    let levels: Vec<LevelSpec> = join_level_options(&args.levels)
        .iter()
        .map(|l| bot_level(l))
        .collect::<Result<_, _>>()?;
    for level in &levels {
        let probe = Budget::unlimited().nodes(1);
        Crush::choose_move(
            &Crush::new_seeded(4, 0),
            level,
            &BotParams::seeded(0),
            &probe,
        )?;
    }
    if let Some(k) = args.ks.iter().find(|k| !(4..=7).contains(*k)) {
        return Err(CliError::Usage(format!("k must be 4..=7, got {k}")));
    }
    let seeds = args.first_seed..args.first_seed.saturating_add(args.seeds);
    let mut jobs: Vec<(usize, usize, u32)> = Vec::new();
    for ki in 0..args.ks.len() {
        for li in 0..levels.len() {
            jobs.extend(seeds.clone().map(|seed| (ki, li, seed)));
        }
    }
    let totals = Mutex::new(vec![vec![Vec::new(); levels.len()]; args.ks.len()]);
    let next = AtomicUsize::new(0);
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let started = Instant::now();
    let failure: Mutex<Option<CliError>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                while let Some(&(ki, li, seed)) = jobs.get(next.fetch_add(1, Ordering::Relaxed)) {
                    match play_game(args.ks[ki], seed, &levels[li], Limits::of(args)) {
                        Ok(total) => totals.lock().unwrap()[ki][li].push((seed, total)),
                        Err(error) => *failure.lock().unwrap() = Some(error),
                    }
                }
            });
        }
    });
    if let Some(error) = failure.into_inner().unwrap_or(None) {
        return Err(error);
    }
    let totals: Vec<Vec<Vec<i64>>> = totals
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .map(|per_level| per_level.into_iter().map(by_seed).collect())
        .collect();
    writeln!(
        out,
        "{} games per level and k (seeds {}..{}), {} ms{} a swap, {} threads, {:.1} s",
        seeds.len(),
        seeds.start,
        seeds.end,
        args.time_ms,
        args.max_nodes
            .map_or(String::new(), |n| format!(" / {n} nodes")),
        threads,
        started.elapsed().as_secs_f64()
    )?;
    writeln!(
        out,
        "{:<24} {:>3} {:>10} {:>8} {:>8} {:>9} {:>7}",
        "level", "k", "mean", "min", "max", "vs first", "±95%"
    )?;
    for (ki, k) in args.ks.iter().enumerate() {
        let base = &totals[ki][0];
        for (li, level) in levels.iter().enumerate() {
            let scores = &totals[ki][li];
            let gain = Gain::over(base, scores);
            writeln!(
                out,
                "{:<24} {:>3} {:>10.1} {:>8} {:>8} {:>+8.1}% {:>7}",
                level.to_string(),
                k,
                mean(scores),
                scores.iter().min().copied().unwrap_or(0),
                scores.iter().max().copied().unwrap_or(0),
                gain.percent,
                gain.margin.map_or("-".to_string(), |m| format!("{m:.1}%")),
            )?;
        }
    }
    Ok(())
}

/// The totals of one level in game-seed order.
fn by_seed(mut games: Vec<(u32, i64)>) -> Vec<i64> {
    games.sort_unstable();
    games.into_iter().map(|(_, total)| total).collect()
}

/// How much one level's mean total is above another's on the same seeds.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Gain {
    /// The mean total's gain over the base level's, in percent.
    percent: f64,
    /// Half the width of the gain's 95% confidence interval, in percent,
    /// from the spread of the per-seed differences (none under two seeds).
    margin: Option<f64>,
}

impl Gain {
    /// `scores` against `base`, both in game-seed order.
    fn over(base: &[i64], scores: &[i64]) -> Gain {
        let base_mean = mean(base);
        if base_mean <= 0.0 || base.len() != scores.len() {
            return Gain {
                percent: 0.0,
                margin: None,
            };
        }
        let diffs: Vec<f64> = scores
            .iter()
            .zip(base)
            .map(|(s, b)| (s - b) as f64)
            .collect();
        let n = diffs.len() as f64;
        let mean_diff = diffs.iter().sum::<f64>() / n;
        let margin = (diffs.len() >= 2).then(|| {
            let variance = diffs.iter().map(|d| (d - mean_diff).powi(2)).sum::<f64>() / (n - 1.0);
            1.96 * (variance / n).sqrt() / base_mean * 100.0
        });
        Gain {
            percent: mean_diff / base_mean * 100.0,
            margin,
        }
    }
}

/// Rejoins level options that the comma delimiter split off:
/// `strong:depth=2`, `rounds=9`, `greedy` → `strong:depth=2,rounds=9`, `greedy`.
fn join_level_options(parts: &[String]) -> Vec<String> {
    let mut levels: Vec<String> = Vec::new();
    for part in parts {
        match levels.last_mut() {
            Some(last) if part.contains('=') && !part.contains(':') => {
                last.push(',');
                last.push_str(part);
            }
            _ => levels.push(part.clone()),
        }
    }
    levels
}

fn mean(values: &[i64]) -> f64 {
    if values.is_empty() {
        0.0
    } else {
        values.iter().sum::<i64>() as f64 / values.len() as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: CrushArgs,
    }

    fn args(line: &[&str]) -> CrushArgs {
        let mut argv = vec!["crush"];
        argv.extend_from_slice(line);
        Cli::try_parse_from(argv).expect("valid arguments").args
    }

    fn play(line: &[&str], input: &str) -> String {
        let mut out = Vec::new();
        interactive(&args(line), input.as_bytes(), &mut out).expect("the game runs");
        String::from_utf8(out).expect("utf-8 output")
    }

    /// The benchmark's output for one game of k = 7 per level, on one thread,
    /// with the options in `line`.
    fn bench(line: &[&str]) -> String {
        let mut argv = vec!["--benchmark", "--seeds", "1", "--ks", "7", "--threads", "1"];
        argv.extend_from_slice(line);
        let mut out = Vec::new();
        benchmark(&args(&argv), &mut out).expect("the benchmark runs");
        String::from_utf8(out).expect("utf-8 output")
    }

    #[test]
    fn reads_swaps_warns_about_invalid_ones_and_stops_at_end_of_input() {
        let out = play(&["--preset", "course"], "3040\n3041\nhello\n0001\n");
        assert!(out.starts_with("Number Crush, k = 4, 100 swaps\n1234323234\n"));
        assert!(out.contains("swap 3040:\n  step 1: eliminated 40 50 60 (3 in a column, 9 points)"));
        assert!(out.contains("score +158 = 158, swaps left 99"));
        assert!(out.contains("invalid swap: cells 30 and 41 are not adjacent"));
        assert!(out.contains("invalid swap: 'hello' is not four digits"));
        assert!(out.contains("swaps left 98"));
        assert!(out.contains("end of input"));
        assert!(out.contains("Total score: "));
        assert!(out.trim_end().ends_with(
            &board_text(
                &Crush::apply(
                    &Crush::apply(&Crush::new_course(), &Swap::parse_notation("3040").unwrap()),
                    &Swap::parse_notation("0001").unwrap()
                )
                .board
            )
            .trim_end()
            .to_string()
        ));
    }

    #[test]
    fn a_bot_plays_the_hundred_swaps() {
        let out = play(&["--k", "6", "--seed", "3", "--bot", "greedy"], "");
        assert_eq!(out.matches("bot swaps ").count(), 100);
        assert!(out.contains("swaps left 0"));
        let total = out
            .lines()
            .find_map(|l| l.strip_prefix("Total score: "))
            .unwrap();
        let expected = play_game(
            6,
            3,
            &LevelSpec::parse("greedy").unwrap(),
            Limits {
                time_ms: 50,
                max_nodes: None,
            },
        )
        .unwrap();
        assert_eq!(total, expected.to_string());
    }

    #[test]
    fn refuses_an_unknown_level_and_conflicting_options() {
        let mut out = Vec::new();
        let result = interactive(&args(&["--bot", "clever"]), "".as_bytes(), &mut out);
        assert!(matches!(result, Err(CliError::Usage(m)) if m.contains("clever")));
        let cli = Cli::try_parse_from(["crush", "--preset", "course", "--seed", "3"]);
        assert!(cli.is_err());
    }

    #[test]
    fn level_options_survive_the_comma_list() {
        let parts: Vec<String> = ["greedy", "strong:depth=2", "leaf=50", "random"]
            .map(String::from)
            .to_vec();
        assert_eq!(
            join_level_options(&parts),
            ["greedy", "strong:depth=2,leaf=50", "random"]
        );
    }

    #[test]
    fn the_gain_and_its_margin_come_from_per_seed_differences() {
        let gain = Gain::over(&[100, 200, 300], &[110, 220, 330]);
        assert!((gain.percent - 10.0).abs() < 1e-9);
        // Differences 10, 20, 30: sd 10, so 1.96 * 10 / sqrt(3) / 200 = 3.27%.
        let margin = gain.margin.unwrap();
        assert!((margin - 1.96 * 10.0 / 3f64.sqrt() / 2.0).abs() < 1e-9);
        assert_eq!(Gain::over(&[100], &[120]).margin, None);
        assert_eq!(Gain::over(&[100], &[100]).percent, 0.0);
        assert_eq!(by_seed(vec![(2, 30), (0, 10), (1, 20)]), [10, 20, 30]);
    }

    #[test]
    fn the_benchmark_plays_the_seeds_from_first_seed_on() {
        let text = bench(&["--first-seed", "5", "--levels", "greedy"]);
        assert!(text.starts_with("1 games per level and k (seeds 5..6)"));
        let greedy = bot_level("greedy").unwrap();
        let total = play_game(7, 5, &greedy, Limits::of(&args(&[]))).unwrap();
        let row = text.lines().find(|l| l.starts_with("greedy")).unwrap();
        assert!(row.contains(&format!(" {total}.0 ")), "{row} vs {total}");
    }

    #[test]
    fn the_benchmark_prints_a_line_per_level_and_k() {
        let text = bench(&["--levels", "random,greedy"]);
        assert!(text
            .lines()
            .any(|l| l.starts_with("random") && l.contains(" 7 ")));
        assert!(text
            .lines()
            .any(|l| l.starts_with("greedy") && l.contains(" 7 ")));
    }
}
