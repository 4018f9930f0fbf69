//! Trains Reversi's pattern evaluation (`src/games/reversi/bots/patterns.rs`)
//! from self-play, reproducibly: one command with a seed.
//!
//! ```text
//! cargo run --release -p gamebot-research --bin reversi_train -- \
//!     --games 60000 --seed 1 --out src/games/reversi/bots/weights.bin
//! ```
//!
//! 1. **Self-play.** Each game opens with 6–14 random plies (from the seed
//!    and the game's number), then both sides play the `strong` engine as
//!    built (the shipped evaluation) at a fixed midgame depth with no clock,
//!    so the games are the same on any machine, with an occasional random
//!    move (`--epsilon`) for variety, and perfectly from `--solve` empties
//!    on (the exact solver).
//! 2. **Labels.** Every position after the opening where the mover has a
//!    move is labelled with the game's final disc difference from the
//!    mover's view. From `--solve` empties on both sides play perfectly, so
//!    those labels are the positions' exact values; earlier ones are the
//!    result of good play.
//! 3. **Fit.** Least squares with a little L2, by stochastic gradient
//!    descent in a seeded order, phase by phase
//!    (`gamebot::games::reversi::bots::train`), then the weights are written
//!    in the shipped file's form.
//!
//! `--journal FILE` keeps the self-play games (one JSON line each,
//! `research/src/reversi_selfplay.rs`) and resumes from them: a run that
//! stops keeps its finished games, the next plays only the rest, and
//! `--play-only` plays without fitting, so self-play longer than one sitting
//! is played in parts. `--from FILE` (repeatable) fits on journals' games
//! without playing; `--test FILE` reports the fitted and the shipped
//! weights' error per phase on a held-out journal (exact labels from its
//! `solve` empties on). `--save FILE` keeps the labelled positions (16 bytes
//! and a label each) and `--load FILE` fits from them again.

use clap::Parser;
use gamebot::arena::run_parallel;
use gamebot::games::reversi::board::Board;
use gamebot::games::reversi::bots::patterns::{self, Weights};
use gamebot_research::reversi_fit::{fit_from, phase_errors, FitOptions, Sample};
use gamebot_research::reversi_selfplay::{self as selfplay, Journal, Setup};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

#[derive(Parser, Debug)]
struct Args {
    /// Self-play games.
    #[arg(long, default_value_t = 60_000)]
    games: usize,
    /// Seed of the openings, the random moves and the fit's order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The evaluation self-play searches with: `patterns` (the shipped
    /// weights, to improve on them) or `classic` (the hand-written one, to
    /// start from nothing).
    #[arg(long, default_value = "patterns", value_parser = ["patterns", "classic"])]
    eval: String,
    /// The engine's midgame depth in self-play.
    #[arg(long, default_value_t = 4)]
    depth: u32,
    /// Play perfectly (the exact solver) from this many empties.
    #[arg(long, default_value_t = 14)]
    solve: u32,
    /// The chance of a random move in the midgame.
    #[arg(long, default_value_t = 0.03)]
    epsilon: f64,
    /// Passes of the fit over the positions.
    #[arg(long, default_value_t = 12)]
    epochs: usize,
    /// The fit's first step size.
    #[arg(long, default_value_t = 0.003)]
    rate: f32,
    /// The fit's L2 penalty.
    #[arg(long, default_value_t = 0.0005)]
    l2: f32,
    /// Start the fit from these weights (a file, or `shipped`) instead of zero.
    #[arg(long)]
    init: Option<String>,
    /// Fit each phase on the positions of phases up to this many away too.
    #[arg(long, default_value_t = 0)]
    spread: usize,
    /// Threads [default: the number of cores].
    #[arg(long)]
    threads: Option<usize>,
    /// Where to write the fitted weights (the shipped ones are
    /// `src/games/reversi/bots/weights.bin`); required unless nothing is
    /// fitted, so that no run overwrites them unasked.
    #[arg(long, required_unless_present_any = ["play_only", "test_only"])]
    out: Option<PathBuf>,
    /// Keep the self-play games in this journal, and resume from it.
    #[arg(long)]
    journal: Option<PathBuf>,
    /// Only play (into `--journal`), do not fit.
    #[arg(long, requires = "journal")]
    play_only: bool,
    /// Fit on these journals' games instead of playing (repeatable).
    #[arg(long, conflicts_with_all = ["journal", "load"])]
    from: Vec<PathBuf>,
    /// A held-out journal: the error per phase of the fitted and the
    /// shipped weights on its positions.
    #[arg(long)]
    test: Option<PathBuf>,
    /// Other weights files to show beside the shipped and the fitted ones
    /// in `--test`'s table (repeatable).
    #[arg(long, requires = "test")]
    compare: Vec<PathBuf>,
    /// Only `--test`'s table of the shipped and `--compare` weights: no
    /// playing, no fit.
    #[arg(long, requires = "test")]
    test_only: bool,
    /// Keep the labelled positions in this file.
    #[arg(long)]
    save: Option<PathBuf>,
    /// Fit from positions saved earlier instead of playing.
    #[arg(long, conflicts_with = "journal")]
    load: Option<PathBuf>,
}

impl Args {
    fn setup(&self) -> Setup {
        Setup {
            seed: self.seed,
            eval: self.eval.clone(),
            depth: self.depth,
            solve: self.solve,
            epsilon: self.epsilon,
            opening: (6, 14),
        }
    }
}

/// Plays the run's games (those its journal lacks) and returns every
/// game's labelled positions.
fn self_play(args: &Args, threads: usize) -> Result<Vec<Sample>, String> {
    let setup = args.setup();
    let kept = match &args.journal {
        Some(path) => selfplay::resume(path, &setup)?,
        None => Default::default(),
    };
    if !kept.is_empty() {
        println!(
            "{} of {} games kept from the journal",
            kept.len(),
            args.games
        );
    }
    let journal = Mutex::new(());
    let games = run_parallel(args.games, threads, |i| {
        if let Some(game) = kept.get(&i) {
            return Ok(game.clone());
        }
        let game = selfplay::play(&setup, i);
        if let Some(path) = &args.journal {
            let _one_writer = journal.lock().expect("the journal lock is not poisoned");
            selfplay::append(path, &game)?;
        }
        Ok(game)
    })?;
    let mut samples = Vec::new();
    for game in &games {
        samples.extend(game.samples()?);
    }
    Ok(samples)
}

/// Every game's labelled positions from the journals at `paths`.
fn from_journals(paths: &[PathBuf]) -> Result<Vec<Sample>, String> {
    let mut samples = Vec::new();
    for path in paths {
        let journal = Journal::read(path)?;
        println!(
            "{}: {} games, {}",
            path.display(),
            journal.games.len(),
            serde_json::to_string(&journal.setup).expect("a setup serialises")
        );
        samples.extend(journal.samples()?);
    }
    Ok(samples)
}

fn save(path: &PathBuf, samples: &[Sample]) -> std::io::Result<()> {
    let mut bytes = Vec::with_capacity(samples.len() * 20);
    for s in samples {
        bytes.extend(s.board.me.to_le_bytes());
        bytes.extend(s.board.opp.to_le_bytes());
        bytes.extend(s.target.to_le_bytes());
    }
    std::fs::write(path, bytes)
}

fn load(path: &PathBuf) -> std::io::Result<Vec<Sample>> {
    let bytes = std::fs::read(path)?;
    Ok(bytes
        .chunks_exact(20)
        .map(|c| Sample {
            board: Board {
                me: u64::from_le_bytes(c[0..8].try_into().expect("8 bytes")),
                opp: u64::from_le_bytes(c[8..16].try_into().expect("8 bytes")),
            },
            target: f32::from_le_bytes(c[16..20].try_into().expect("4 bytes")),
        })
        .collect())
}

/// Prints, as a Markdown table, the error per phase of the shipped
/// weights and of each of `others` (named) on the held-out journal at `path`.
fn report_held_out(path: &Path, others: &[(String, Weights)]) -> Result<(), String> {
    let journal = Journal::read(path)?;
    let samples = journal.samples()?;
    let exact_from = journal.setup.solve;
    let shipped = phase_errors(&samples, patterns::shipped(), exact_from);
    let columns: Vec<_> = others
        .iter()
        .map(|(_, weights)| phase_errors(&samples, weights, exact_from))
        .collect();
    println!(
        "held out: {} ({} games, {} positions; exact from {exact_from} empties)",
        path.display(),
        journal.games.len(),
        samples.len()
    );
    let names: String = others
        .iter()
        .map(|(name, _)| format!(" {name} |"))
        .collect();
    println!("| empties | positions | exact | shipped |{names}");
    println!("|---|---|---|---|{}", "---|".repeat(others.len()));
    for (row, s) in shipped.iter().enumerate() {
        let low = s.phase * 5;
        let high = if s.phase + 1 == patterns::PHASES {
            60
        } else {
            low + 4
        };
        let cells: String = columns
            .iter()
            .map(|c| format!(" {:.2} |", c[row].rmse))
            .collect();
        println!(
            "| {low}–{high} | {} | {} | {:.2} |{cells}",
            s.positions, s.exact, s.rmse
        );
    }
    Ok(())
}

/// The weights file at `path`.
fn read_weights(path: &Path) -> Result<Weights, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Weights::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// The `--compare` weights files, read, each with its path as its name.
fn compared(args: &Args) -> Result<Vec<(String, Weights)>, String> {
    args.compare
        .iter()
        .map(|path| Ok((path.display().to_string(), read_weights(path)?)))
        .collect()
}

fn run(args: &Args) -> Result<(), String> {
    let threads = args.threads.unwrap_or_else(gamebot::arena::default_threads);
    let started = Instant::now();
    if args.test_only {
        let path = args.test.as_ref().expect("clap requires --test");
        return report_held_out(path, &compared(args)?);
    }
    let samples = if let Some(path) = &args.load {
        load(path).map_err(|e| format!("{}: {e}", path.display()))?
    } else if !args.from.is_empty() {
        from_journals(&args.from)?
    } else {
        let samples = self_play(args, threads)?;
        let played = started.elapsed().as_secs_f64();
        println!(
            "{} positions from {} games in {played:.0} s ({:.0} positions a minute; depth {}, solved from {} empties)",
            samples.len(),
            args.games,
            samples.len() as f64 / played.max(1e-9) * 60.0,
            args.depth,
            args.solve
        );
        samples
    };
    if let Some(path) = &args.save {
        save(path, &samples).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if args.play_only {
        return Ok(());
    }
    let options = FitOptions {
        epochs: args.epochs,
        rate: args.rate,
        l2: args.l2,
        seed: args.seed,
        threads,
        spread: args.spread,
    };
    let fit_started = Instant::now();
    let start = match args.init.as_deref() {
        None => Weights::zero(),
        Some("shipped") => patterns::shipped().clone(),
        Some(path) => read_weights(Path::new(path))?,
    };
    let out = args.out.as_ref().expect("clap requires --out for a fit");
    let (weights, report) = fit_from(&samples, &options, &start);
    println!(
        "fit: {} positions, {} epochs in {:.0} s; RMSE {:.2} discs with zero weights, {:.2} fitted",
        report.samples,
        args.epochs,
        fit_started.elapsed().as_secs_f64(),
        report.rmse_before,
        report.rmse_after
    );
    std::fs::write(out, weights.to_bytes()).map_err(|e| format!("{}: {e}", out.display()))?;
    println!(
        "wrote {} ({} bytes) in {:.0} s in all",
        out.display(),
        weights.to_bytes().len(),
        started.elapsed().as_secs_f64()
    );
    if let Some(path) = &args.test {
        let mut others = compared(args)?;
        others.push(("fitted".to_string(), weights));
        report_held_out(path, &others)?;
    }
    Ok(())
}

fn main() {
    let args = Args::parse();
    if let Err(message) = run(&args) {
        eprintln!("reversi_train: {message}");
        std::process::exit(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Args, clap::Error> {
        Args::try_parse_from(std::iter::once("reversi_train").chain(args.iter().copied()))
    }

    #[test]
    fn a_fit_must_name_its_output() {
        let refused = parse(&["--from", "games.jsonl"]).unwrap_err();
        assert_eq!(
            refused.kind(),
            clap::error::ErrorKind::MissingRequiredArgument
        );
        assert!(refused.to_string().contains("--out"));
        let named = parse(&["--from", "games.jsonl", "--out", "w.bin"]).unwrap();
        assert_eq!(named.out, Some(PathBuf::from("w.bin")));
    }

    #[test]
    fn runs_that_fit_nothing_need_no_output() {
        let play = parse(&["--play-only", "--journal", "games.jsonl"]).unwrap();
        assert!(play.out.is_none());
        let test = parse(&["--test-only", "--test", "heldout.jsonl"]).unwrap();
        assert!(test.out.is_none());
    }
}
