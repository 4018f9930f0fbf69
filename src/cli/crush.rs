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

use super::arena::{seat_of, SeatPlayer};
use super::arena_solo::seeded_start;
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
    #[arg(long, default_value_t = 50)]
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
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
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
/// error naming the line (exit 1).
pub fn ai_player<R: BufRead, W: Write>(
    args: &CrushArgs,
    input: R,
    out: &mut W,
) -> Result<(), CliError> {
    let level = bot_level(args.bot.as_deref().unwrap_or("strong"))?;
    let mut swaps_left = SWAPS_PER_GAME;
    for (index, line) in input.lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let state = Crush::from_program_line(&line, swaps_left).map_err(|e| CliError::Input {
            path: "standard input".into(),
            detail: format!("line {}: {e}", index + 1),
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

    /// The swap `notation` names, for comparisons.
    fn swap(notation: &str) -> Swap {
        Swap::parse_notation(notation).expect("a valid swap")
    }

    /// Every word `input` holds, read to its end.
    fn words(input: &[u8]) -> Vec<String> {
        let mut reader = SwapReader::new(input);
        std::iter::from_fn(|| reader.next_word().expect("reading memory never fails")).collect()
    }

    #[test]
    fn reads_swaps_warns_about_invalid_ones_and_stops_at_end_of_input() {
        let out = play(&[], "3040\n3041\nhello\n0001\n");
        assert!(out.starts_with("Number Crush, k = 4, 100 swaps\n1234323234\n"));
        assert!(out.contains("swap 3040:\n  step 1: eliminated 40 50 60 (3 in a column, 9 points)"));
        assert!(out.contains("score +158 = 158, swaps left 99"));
        assert!(out.contains("invalid swap: cells 30 and 41 are not adjacent"));
        assert!(out.contains("invalid swap: 'hello' is not a swap"));
        assert!(out.contains("swaps left 98"));
        assert!(out.contains("end of input"));
        assert!(out.contains("Total score: "));
        let course = Crush::new_course();
        let last = Crush::apply(&Crush::apply(&course, &swap("3040")), &swap("0001"));
        assert!(out.ends_with(&format!("Final board:\n{}", board_text(last.board()))));
    }

    #[test]
    fn the_default_game_is_the_course_game_and_k_or_seed_pick_a_random_board() {
        let course = Crush::new_course();
        assert_eq!(starting_state(&args(&[])), course);
        assert_eq!(starting_state(&args(&["--preset", "course"])), course);
        assert_eq!(
            starting_state(&args(&["--seed", "0"])),
            Crush::new_seeded(4, 0)
        );
        assert_eq!(
            starting_state(&args(&["--k", "6"])),
            Crush::new_seeded(6, 0)
        );
        assert_eq!(
            starting_state(&args(&["--k", "5", "--seed", "9"])),
            Crush::new_seeded(5, 9)
        );
        assert_ne!(Crush::new_seeded(4, 0), course);
    }

    #[test]
    fn the_reader_splits_the_input_at_any_whitespace() {
        assert_eq!(
            words(b"  3040 6061\n\t4849\r\n\n 102 +0001\x0b12ab"),
            ["3040", "6061", "4849", "102", "+0001", "12ab"]
        );
        assert_eq!(words(b""), Vec::<String>::new());
        assert_eq!(words(b" \n\t \n"), Vec::<String>::new());
        assert_eq!(words(b"ab\xffcd 1"), ["ab\u{fffd}cd", "1"]);
    }

    #[test]
    fn the_reader_keeps_only_the_start_of_a_huge_word() {
        let mut input = vec![b'x'; 100_000];
        input.extend_from_slice(b" 3040");
        let read = words(&input);
        assert_eq!(read.len(), 2);
        assert_eq!(read[0], format!("{}…", "x".repeat(KEPT_WORD_BYTES)));
        assert_eq!(read[1], "3040");
    }

    /// Input that holds `text` and then fails, like a pipe whose writer has
    /// not sent more yet: reading past `text` is an error.
    struct StallsAfter<'a>(&'a [u8]);

    impl io::Read for StallsAfter<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            io::BufRead::fill_buf(self)?;
            let n = self.0.len().min(buf.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    impl io::BufRead for StallsAfter<'_> {
        fn fill_buf(&mut self) -> io::Result<&[u8]> {
            if self.0.is_empty() {
                Err(io::Error::new(
                    io::ErrorKind::WouldBlock,
                    "no more input yet",
                ))
            } else {
                Ok(self.0)
            }
        }

        fn consume(&mut self, amount: usize) {
            self.0 = &self.0[amount..];
        }
    }

    #[test]
    fn a_word_is_handed_over_once_the_whitespace_after_it_arrives() {
        let mut reader = SwapReader::new(StallsAfter(b"3040 6061 "));
        assert_eq!(reader.next_word().unwrap().as_deref(), Some("3040"));
        assert_eq!(reader.next_word().unwrap().as_deref(), Some("6061"));
        assert!(reader.next_word().is_err());
    }

    #[test]
    fn a_swap_is_an_integer_of_at_most_four_digits_with_leading_zeros_optional() {
        assert_eq!(swap_from_word("2122").unwrap(), swap("2122"));
        assert_eq!(swap_from_word("0102").unwrap(), swap("0102"));
        assert_eq!(swap_from_word("102").unwrap(), swap("0102"));
        assert_eq!(swap_from_word("+102").unwrap(), swap("0102"));
        assert_eq!(swap_from_word("1").unwrap(), swap("0001"));
        assert_eq!(swap_from_word("10").unwrap(), swap("0010"));
        assert_eq!(swap_from_word("2221").unwrap(), swap("2122"));
    }

    #[test]
    fn an_integer_that_names_no_swap_says_why() {
        let why = |word: &str| swap_from_word(word).unwrap_err().to_string();
        assert!(why("0").contains("two different cells; both are 00"));
        assert!(why("12").contains("cells 00 and 12 are not adjacent"));
        assert!(why("3041").contains("cells 30 and 41 are not adjacent"));
        assert_eq!(swap_from_word("0919").unwrap(), swap("0919"));
        assert!(why("0910").contains("cells 09 and 10 are not adjacent"));
    }

    #[test]
    fn anything_but_an_integer_of_at_most_four_digits_is_not_a_swap() {
        for word in [
            "12345",
            "00102",
            "-102",
            "-0",
            "hello",
            "12ab",
            "ab12",
            "1.5",
            "+",
            "++102",
            "+-1",
            "0x12",
            "２１２２",
            "2122,",
        ] {
            let error = swap_from_word(word).unwrap_err().to_string();
            assert!(
                error.starts_with(&format!("'{word}' is not a swap: ")),
                "{word}: {error}"
            );
        }
    }

    #[test]
    fn several_swaps_and_bad_words_on_one_line_are_taken_in_order() {
        let out = play(&[], "3040 hello 102 12345 -102 6061");
        let warned: Vec<&str> = out
            .lines()
            .filter_map(|l| l.split("invalid swap: '").nth(1))
            .collect();
        assert_eq!(warned.len(), 3, "{out}");
        assert!(warned[0].starts_with("hello'"));
        assert!(warned[1].starts_with("12345'"));
        assert!(warned[2].starts_with("-102'"));
        let played: Vec<&str> = out
            .lines()
            .map(|l| l.trim_start_matches(PROMPT))
            .filter(|l| l.starts_with("swap "))
            .collect();
        assert_eq!(played, ["swap 3040:", "swap 0102:", "swap 6061:"]);
        let mut state = Crush::new_course();
        for notation in ["3040", "0102", "6061"] {
            state = Crush::apply(&state, &swap(notation));
        }
        assert!(out.contains(&format!("Total score: {}\n", state.score())));
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
        let allowed = SwapBudget {
            time_ms: 50,
            max_nodes: None,
        };
        let greedy = [contestant("greedy").unwrap()];
        let games = play_contestants(6, 3..4, &greedy, allowed, 1).unwrap();
        assert_eq!(games[0][0].forfeit, None);
        assert_eq!(total, games[0][0].points.to_string());
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
        let gain = PairedGain::over(&[100, 200, 300], &[110, 220, 330]);
        assert_eq!(gain.percent, 10.0);
        // Differences 10, 20, 30: sd 10, so 1.96 * 10 / sqrt(3) / 200 = 5.7%.
        assert_eq!(gain.percent_margin, 5.7);
        assert_eq!(PairedGain::over(&[100], &[100]).percent, 0.0);
    }

    #[test]
    fn the_benchmark_plays_the_seeds_from_first_seed_on() {
        let text = bench(&["--first-seed", "5", "--levels", "greedy"]);
        assert!(text.starts_with("1 games per level and k (seeds 5..6)"));
        let greedy = [contestant("greedy").unwrap()];
        let games = play_contestants(7, 5..6, &greedy, SwapBudget::of(&args(&[])), 1).unwrap();
        let total = games[0][0].points;
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

    #[test]
    fn the_ladder_flag_says_where_the_ladder_went() {
        let result = benchmark(&args(&["--benchmark", "--ladder"]), &mut Vec::new());
        assert!(
            matches!(&result, Err(CliError::Usage(m)) if m.contains("gamebot ladder crush")),
            "{result:?}"
        );
    }

    #[test]
    fn numbered_levels_play_in_the_benchmark() {
        let text = bench(&["--levels", "1,greedy"]);
        assert!(
            text.lines()
                .any(|l| l.starts_with("1 ") && l.contains(" 7 ")),
            "{text}"
        );
        assert!(contestant("99").is_err());
        assert!(contestant("gtp:gnugo").is_err());
    }
}
