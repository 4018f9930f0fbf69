//! The course's interactive Number Crush program, and a benchmark of the bot
//! levels. Interactive: plays the course's game (its hand-typed board, seed 0,
//! k = 4) unless `--k` or `--seed` asks for a random board; reads swaps from
//! standard input the way the course's `scanf("%d")` did (integers of at most
//! four digits, leading zeros optional, any whitespace between them, so test
//! files can be piped in), prints the board, the cells eliminated and the
//! score after every swap, warns about an invalid swap and asks again, and
//! prints the total and the final board after 100 swaps (or at the end of the
//! input). With `--bot` the bot plays all 100 swaps.
//!
//! Bad arguments (an unknown level, a k out of range) exit 2, a failed read
//! or write 1 (the table of [`crate::cli`]).

use super::arena::solo::seeded_start;
use super::arena::{seat_of, SeatPlayer};
use super::CliError;
use crate::arena::process::end_programs_on_signals;
use crate::arena::solo::{play_solo, points, PairedGain, SoloGame, SoloSide, SoloSpec};
use crate::arena::{LevelPlayer, Player};
use crate::game::{location, AnyLevel, BotParams, Bots, Budget, LevelSpec, Rules};
use crate::games::crush::notation::{swap_from_word, Swap};
use crate::games::crush::{board_text, Crush, CrushLevel, State, SWAPS_PER_GAME};
use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Command-line arguments of the `crush` subcommand.
#[derive(clap::Args, Debug, Clone)]
pub struct CrushArgs {
    /// Play a random board of this many digits, 4..=7 (seed 0 unless `--seed`)
    /// instead of the course's game.
    #[arg(long, value_parser = clap::value_parser!(u8).range(4..=7))]
    pub k: Option<u8>,
    /// Play the random board of this TinyMT32 seed (k 4 unless `--k`) instead
    /// of the course's game.
    #[arg(long)]
    pub seed: Option<u32>,
    /// `course`: the course's game (its board, k 4, seed 0). It is the default;
    /// the option stays so that older command lines keep working.
    #[arg(long, value_parser = ["course"], conflicts_with_all = ["k", "seed"])]
    pub preset: Option<String>,
    /// Let this bot level play all the swaps (`random`, `greedy`, `strong`, `strong:depth=4`).
    #[arg(long)]
    pub bot: Option<String>,
    /// Time the bot gets for each swap, in milliseconds.
    #[arg(long, default_value_t = 50, value_parser = super::limits::time_ms)]
    pub time_ms: u64,
    /// A node cap for the bot on top of the time (makes its choices
    /// reproducible and independent of the machine's load).
    #[arg(long)]
    pub max_nodes: Option<u64>,
    /// Seed of the bot's own random choices (it never sees the game's generator).
    #[arg(long, default_value_t = 0)]
    pub bot_seed: u64,
    /// Play as the course's `ai_player(K, board)` over lines, the contract
    /// of the benchmark's `exec:` players: read `K BOARD` lines (k, then
    /// the 100 digits row by row) on standard input and print one swap per
    /// line, chosen by `--bot` (default strong) with `--time-ms` a swap.
    #[arg(long, conflicts_with_all = ["k", "seed", "preset", "benchmark"])]
    pub ai_player: bool,
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
    /// `greedy,strong,strong:depth=5`), or outside programs,
    /// `exec:PATH [ARGS…]`, which play the course's `ai_player(K, board)`
    /// as a process: one `K BOARD` line in, one swap (`0102` or `102`) out,
    /// within `--time-ms` (plus 100 ms, and 2 s for starting up).
    #[arg(long, value_delimiter = ',', default_value = "greedy,strong")]
    pub levels: Vec<String>,
    /// Benchmark: the values of k, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "4,5,6,7")]
    pub ks: Vec<u8>,
    /// Benchmark: worker threads (default: the available cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// The crush ladder moved to `gamebot ladder crush`, which journals and
    /// resumes like every ladder; kept only to say so.
    #[arg(long, hide = true)]
    pub ladder: bool,
}

/// Runs the subcommand: the interactive game, the bot game or the benchmark.
pub fn run(args: CrushArgs) -> ExitCode {
    let result = if args.benchmark {
        // The benchmark may run outside programs (exec:): they stop with it.
        end_programs_on_signals()
            .map_err(CliError::from)
            .and_then(|()| benchmark(&args, &mut io::stdout().lock()))
    } else if args.ai_player {
        let stdin = io::stdin();
        ai_player(&args, stdin.lock(), &mut io::stdout().lock())
    } else {
        let stdin = io::stdin();
        interactive(&args, stdin.lock(), &mut io::stdout().lock())
    };
    super::report("crush", result)
}

/// The `k` of a random board when only `--seed` is given.
const DEFAULT_K: u8 = 4;

/// The starting state the arguments ask for: the course's game unless `--k`
/// or `--seed` asks for a random board.
pub fn starting_state(args: &CrushArgs) -> State {
    if args.k.is_none() && args.seed.is_none() {
        Crush::new_course()
    } else {
        Crush::new_seeded(args.k.unwrap_or(DEFAULT_K), args.seed.unwrap_or(0))
    }
}

/// A bot level (`greedy`, `strong:depth=4`); an unknown one is a usage
/// error naming crush's levels.
pub fn bot_level(name: &str) -> Result<LevelSpec<CrushLevel>, CliError> {
    Ok(LevelSpec::parse(name)?)
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
        state.k(),
        state.swaps_left()
    )?;
    write!(out, "{}", board_text(state.board()))?;
    let mut words = SwapReader::new(input);
    while !Crush::outcome(&state).is_over() {
        let swap = match &level {
            Some(level) => {
                let swap = bot_swap(&state, level, SwapBudget::of(args), args.bot_seed)?;
                writeln!(out, "bot swaps {}", swap.notation())?;
                swap
            }
            None => match ask_swap(&mut words, out)? {
                Some(swap) => swap,
                None => {
                    writeln!(out, "end of input")?;
                    break;
                }
            },
        };
        state = show_swap(&state, swap, out)?;
    }
    writeln!(out, "Total score: {}", state.score())?;
    writeln!(out, "Final board:")?;
    write!(out, "{}", board_text(state.board()))?;
    Ok(())
}

/// The prompt before every swap read from the input.
const PROMPT: &str = "swap (e.g. 2122): ";

/// Asks for swaps until a valid one comes; `None` at the end of the input.
/// Every word of the input answers one prompt, so several swaps on one line
/// are played one after the other.
fn ask_swap<R: BufRead, W: Write>(
    words: &mut SwapReader<R>,
    out: &mut W,
) -> Result<Option<Swap>, CliError> {
    loop {
        write!(out, "{PROMPT}")?;
        out.flush()?;
        let Some(word) = words.next_word()? else {
            writeln!(out)?;
            return Ok(None);
        };
        match swap_from_word(&word) {
            Ok(swap) => return Ok(Some(swap)),
            Err(error) => writeln!(out, "invalid swap: {error}; try again")?,
        }
    }
}

/// The most bytes of one input word kept for its warning. A longer word is
/// read to its end but only this much of it is stored (and shown, followed by
/// `…`), so a huge word costs no memory.
const KEPT_WORD_BYTES: usize = 24;

/// Reads the input one whitespace-separated word at a time, the way
/// `scanf("%d")` walks through it: it skips any whitespace (C's `isspace`),
/// takes the characters up to the next whitespace and stops there. A word is handed over as soon as the whitespace after it arrives,
/// so it never waits for the end of a line that holds several swaps; the last
/// word of the input ends at the end of the input.
pub struct SwapReader<R> {
    input: R,
}

impl<R: BufRead> SwapReader<R> {
    /// A reader of the words of `input`.
    pub fn new(input: R) -> SwapReader<R> {
        SwapReader { input }
    }

    /// The next word (invalid UTF-8 shown as `�`), or `None` at the end of the input.
    pub fn next_word(&mut self) -> io::Result<Option<String>> {
        if !self.skip_whitespace()? {
            return Ok(None);
        }
        let mut kept = Vec::new();
        let mut cut = false;
        loop {
            let buffer = self.input.fill_buf()?;
            if buffer.is_empty() {
                break;
            }
            let end = buffer
                .iter()
                .position(|&b| is_c_space(b))
                .unwrap_or(buffer.len());
            let room = KEPT_WORD_BYTES.saturating_sub(kept.len());
            kept.extend_from_slice(&buffer[..end.min(room)]);
            cut |= end > room;
            let ended = end < buffer.len();
            self.input.consume(end);
            if ended {
                break;
            }
        }
        let mut word = String::from_utf8_lossy(&kept).into_owned();
        if cut {
            word.push('…');
        }
        Ok(Some(word))
    }

    /// Skips whitespace; `false` when the input ends first.
    fn skip_whitespace(&mut self) -> io::Result<bool> {
        loop {
            let buffer = self.input.fill_buf()?;
            if buffer.is_empty() {
                return Ok(false);
            }
            let blank = buffer.iter().take_while(|&&b| is_c_space(b)).count();
            let more = blank < buffer.len();
            self.input.consume(blank);
            if more {
                return Ok(true);
            }
        }
    }
}

/// Whether C's `isspace` (which `scanf` skips by) holds for `byte`: space,
/// tab, newline, vertical tab, form feed and carriage return. Rust's
/// `is_ascii_whitespace` leaves out the vertical tab.
fn is_c_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r')
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
        after.score() - state.score(),
        after.score(),
        after.swaps_left()
    )?;
    write!(out, "{}", board_text(after.board()))?;
    Ok(after)
}

/// The bot's swap at `level` with `time_ms` a swap; the seed of its own
/// random choices depends on `bot_seed` and the swap number only.
pub fn bot_swap(
    state: &State,
    level: &LevelSpec<CrushLevel>,
    allowed: SwapBudget,
    bot_seed: u64,
) -> Result<Swap, CliError> {
    let params = BotParams::seeded(swap_seed(bot_seed, state));
    let mut budget = Budget::with_time_ms(allowed.time_ms);
    budget.max_nodes = allowed.max_nodes;
    Ok(Crush::choose_move(state, level, &params, &budget)?.mv)
}

/// The seed of a bot's random choices for the swap `state` waits for: from
/// `bot_seed` and the swap number only.
fn swap_seed(bot_seed: u64, state: &State) -> u64 {
    bot_seed
        .wrapping_mul(1_000)
        .wrapping_add(u64::from(state.swaps_left()))
}

/// What the bot may spend on each swap.
#[derive(Clone, Copy, Debug)]
pub struct SwapBudget {
    /// Wall time a swap, in milliseconds.
    pub time_ms: u64,
    /// Nodes a swap, if capped.
    pub max_nodes: Option<u64>,
}

impl SwapBudget {
    /// The budget the arguments ask for.
    pub fn of(args: &CrushArgs) -> SwapBudget {
        SwapBudget {
            time_ms: args.time_ms,
            max_nodes: args.max_nodes,
        }
    }
}

/// How long an outside program's swap may come after its time.
const PROGRAM_GRACE: Duration = Duration::from_millis(100);

/// A benchmark contestant as `--levels` names it: a level (`strong:depth=4`,
/// `3`) or an outside program, `exec:PATH [ARGS…]`.
pub fn contestant(text: &str) -> Result<SeatPlayer<CrushLevel>, CliError> {
    seat_of::<Crush>(text, &Crush::new_seeded(DEFAULT_K, 0))
}

/// A fresh player of `contestant` for one game: a level under `allowed`'s
/// node cap (the time comes with each turn), or the program started.
fn player_of(
    contestant: &SeatPlayer<CrushLevel>,
    allowed: SwapBudget,
) -> Result<Box<dyn Player<Crush>>, String> {
    match contestant {
        SeatPlayer::Level(level) => {
            let mut caps = Budget::unlimited();
            caps.max_nodes = allowed.max_nodes;
            Ok(Box::new(
                LevelPlayer::<Crush>::new(level.clone()).with_caps(caps),
            ))
        }
        program => program.player::<Crush>(program.name(), PROGRAM_GRACE),
    }
}

/// The games of `contestants` at `k`, every one on the same game seeds,
/// through the arena's one-player match ([`crate::arena::solo`]).
pub fn play_contestants(
    k: u8,
    seeds: std::ops::Range<u64>,
    contestants: &[SeatPlayer<CrushLevel>],
    allowed: SwapBudget,
    threads: usize,
) -> Result<Vec<Vec<SoloGame>>, CliError> {
    let options = serde_json::json!({ "k": k });
    let start = seeded_start::<Crush>(&options)?;
    let spec = SoloSpec {
        seeds,
        times: vec![Duration::from_millis(allowed.time_ms); contestants.len()],
        threads,
    };
    let make_player = |who: usize| player_of(&contestants[who], allowed);
    play_solo::<Crush>(&spec, &start, &make_player).map_err(CliError::Usage)
}

/// Plays `--seeds` games for every level and k on all cores and prints the
/// mean totals, with each level's gain over the first level and the 95%
/// margin of that gain (from the per-seed differences: every level plays the
/// same game seeds).
pub fn benchmark<W: Write>(args: &CrushArgs, out: &mut W) -> Result<(), CliError> {
    if args.ladder {
        return Err(CliError::usage(
            "the crush ladder is `gamebot ladder crush` now (e.g. `gamebot ladder crush \
             --games 30 --seed 100`): it journals and resumes like every ladder",
        ));
    }
    let contestants: Vec<SeatPlayer<CrushLevel>> = join_level_options(&args.levels)
        .iter()
        .map(|l| contestant(l))
        .collect::<Result<_, _>>()?;
    for contestant in &contestants {
        if let SeatPlayer::Level(AnyLevel::Named(level)) = contestant {
            let probe = Budget::unlimited().nodes(1);
            Crush::choose_move(
                &Crush::new_seeded(4, 0),
                level,
                &BotParams::seeded(0),
                &probe,
            )?;
        }
    }
    if let Some(k) = args.ks.iter().find(|k| !(4..=7).contains(*k)) {
        return Err(CliError::Usage(format!("k must be 4..=7, got {k}")));
    }
    let seeds = u64::from(args.first_seed)..u64::from(args.first_seed) + u64::from(args.seeds);
    let threads = args
        .threads
        .unwrap_or_else(crate::arena::default_threads)
        .max(1);
    let started = Instant::now();
    let mut by_k = Vec::with_capacity(args.ks.len());
    for &k in &args.ks {
        by_k.push(play_contestants(
            k,
            seeds.clone(),
            &contestants,
            SwapBudget::of(args),
            threads,
        )?);
    }
    writeln!(
        out,
        "{} games per level and k (seeds {}..{}), {} ms{} a swap, {} threads, {:.1} s",
        seeds.end - seeds.start,
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
    for (k, games) in args.ks.iter().zip(&by_k) {
        let base = points(&games[0]);
        for (contestant, played) in contestants.iter().zip(games) {
            let side = SoloSide::of(contestant.name(), played);
            let gain = PairedGain::over(&base, &points(played));
            let margin = if played.len() >= 2 && gain.percent != 0.0 {
                format!("{:.1}%", gain.percent_margin)
            } else {
                "-".to_string()
            };
            writeln!(
                out,
                "{:<24} {:>3} {:>10.1} {:>8} {:>8} {:>+8.1}% {:>7}",
                side.name, k, side.mean, side.min, side.max, gain.percent, margin,
            )?;
        }
    }
    for (li, contestant) in contestants.iter().enumerate() {
        let forfeited: Vec<String> = args
            .ks
            .iter()
            .zip(&by_k)
            .flat_map(|(k, games)| {
                games[li].iter().filter_map(move |game| {
                    game.forfeit
                        .as_ref()
                        .map(|reason| format!("k {k} seed {}: {reason}", game.seed))
                })
            })
            .collect();
        if let Some(first) = forfeited.first() {
            writeln!(
                out,
                "{} forfeited {} (the game stops with its points so far); first: {first}",
                contestant.name(),
                location::plural(forfeited.len(), "game"),
            )?;
        }
    }
    Ok(())
}

/// Plays the course's `ai_player(K, board)` over lines (`--ai-player`): a
/// swap for every `K BOARD` line of `input`, one line each on `out`. The
/// swap number, which a level's seed and plan use, is counted from the
/// lines, starting at the game's first swap. A malformed line is an input
/// error naming the line, and a line longer than
/// [`super::limits::LINE_CAP`] fails reading (both exit 1).
pub fn ai_player<R: BufRead, W: Write>(
    args: &CrushArgs,
    mut input: R,
    out: &mut W,
) -> Result<(), CliError> {
    let level = bot_level(args.bot.as_deref().unwrap_or("strong"))?;
    let mut swaps_left = SWAPS_PER_GAME;
    for number in 1u64.. {
        let Some(line) = super::limits::read_line(&mut input, super::limits::LINE_CAP)? else {
            break;
        };
        if line.trim().is_empty() {
            continue;
        }
        let state = Crush::from_program_line(&line, swaps_left).map_err(|e| CliError::Input {
            path: "standard input".into(),
            detail: format!("line {number}: {e}"),
        })?;
        let swap = bot_swap(&state, &level, SwapBudget::of(args), args.bot_seed)?;
        writeln!(out, "{}", swap.notation())?;
        out.flush()?;
        swaps_left = swaps_left.saturating_sub(1).max(1);
    }
    Ok(())
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

#[cfg(test)]
#[path = "crush_tests.rs"]
mod tests;
