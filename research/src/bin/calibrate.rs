//! Fits a game's win model: the logistic curve of the game's result
//! against the score its analysis reports, by phase, on the engine's own
//! self-play. Each game opens with seeded random plies, then both sides
//! play the analysis' best move at a node budget; every position whose
//! score is an estimate (not proven, not decided) becomes a sample of
//! (phase, score, the mover's result: 1 win, ½ draw, 0 loss). Per phase
//! the slope and intercept that minimise the log loss are found by
//! Newton's method; the file it writes is what the service ships.
//!
//! ```text
//! cargo run --release -p gamebot-research --bin calibrate -- \
//!     --game reversi --games 1000 --nodes 20000 --phases 4-24,25-44,45-64 \
//!     --out data/calibration/reversi.json
//! ```

use clap::Parser;
use gamebot::arena::engine::run_parallel;
use gamebot::game::calibration::{logistic, PhaseFit, WinModel};
use gamebot::game::{BotParams, Bots, Budget, Codec, Outcome, Rules, Side};
use gamebot::games::{advance::Advance, halma::Halma, reversi::Reversi};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[derive(Parser, Debug, Clone)]
struct Args {
    /// The game: reversi, advance or halma.
    #[arg(long)]
    game: String,
    /// Self-play games.
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// The analysis budget of every move, in positions.
    #[arg(long, default_value_t = 20_000)]
    nodes: u64,
    /// Random plies that open each game.
    #[arg(long, default_value_t = 8)]
    random_plies: usize,
    /// The phases to fit apart, as `from-to` ranges of the game's phase value.
    #[arg(long, default_value = "0-1000")]
    phases: String,
    /// A game still going after this many plies is left out.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads [default: the number of cores].
    #[arg(long)]
    threads: Option<usize>,
    /// Where to write the model (JSON); printed only when absent.
    #[arg(long)]
    out: Option<String>,
    /// What the phase counts, in words, for the file.
    #[arg(long, default_value = "one phase")]
    phase_words: String,
}

/// One position of a self-play game.
#[derive(Clone, Copy, Debug)]
struct Sample {
    phase: u32,
    score: f64,
    result: f64,
}

fn main() {
    let args = Args::parse();
    let (samples, games) = match args.game.as_str() {
        "reversi" => self_play::<Reversi>(&args),
        "advance" => self_play::<Advance>(&args),
        "halma" => self_play::<Halma>(&args),
        other => panic!("no win model for {other}: reversi, advance or halma"),
    };
    let phases = parse_phases(&args.phases, &samples);
    let fits: Vec<PhaseFit> = phases
        .iter()
        .map(|&(from, to)| {
            let within: Vec<Sample> = samples
                .iter()
                .copied()
                .filter(|s| (from..=to).contains(&s.phase))
                .collect();
            fit(from, to, &within)
        })
        .collect();
    let model = WinModel {
        game: args.game.clone(),
        phase: args.phase_words.clone(),
        command: command_line(),
        games,
        phases: fits,
    };
    print_table(&model, &samples);
    let text = serde_json::to_string_pretty(&model).expect("a model serializes") + "\n";
    match &args.out {
        Some(path) => std::fs::write(path, text).unwrap_or_else(|e| panic!("{path}: {e}")),
        None => print!("{text}"),
    }
}

/// The command that made the model, as one would type it again (the
/// output path left out).
fn command_line() -> String {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut words = vec!["cargo run --release -p gamebot-research --bin calibrate --".to_string()];
    let mut skip = false;
    for arg in args {
        if std::mem::take(&mut skip) {
            continue;
        }
        if arg == "--out" {
            skip = true;
            continue;
        }
        words.push(if arg.contains(' ') {
            format!("'{arg}'")
        } else {
            arg
        });
    }
    words.join(" ")
}

/// The phase ranges: `from-to,...`, or `quantiles:N` for N ranges holding
/// equal shares of the samples.
fn parse_phases(text: &str, samples: &[Sample]) -> Vec<(u32, u32)> {
    if let Some(count) = text.strip_prefix("quantiles:") {
        let count: usize = count.parse().expect("a number of phases");
        let mut phases: Vec<u32> = samples.iter().map(|s| s.phase).collect();
        phases.sort_unstable();
        let (low, high) = (phases[0], phases[phases.len() - 1]);
        let mut bounds: Vec<u32> = (1..count)
            .map(|i| phases[i * phases.len() / count])
            .collect();
        bounds.dedup();
        let mut ranges = Vec::new();
        let mut from = low;
        for bound in bounds {
            if bound > from {
                ranges.push((from, bound - 1));
                from = bound;
            }
        }
        ranges.push((from, high.max(from)));
        return ranges;
    }
    text.split(',')
        .map(|range| {
            let (from, to) = range
                .split_once('-')
                .unwrap_or_else(|| panic!("{range}: expected from-to"));
            (
                from.parse().expect("a phase number"),
                to.parse().expect("a phase number"),
            )
        })
        .collect()
}

/// The samples of `args.games` self-play games, and how many games ended.
fn self_play<G: Bots + Codec>(args: &Args) -> (Vec<Sample>, usize) {
    let threads = args.threads.unwrap_or_else(gamebot::arena::default_threads);
    let games = run_parallel(args.games, threads, |index| Ok(one_game::<G>(args, index)))
        .expect("self-play games do not fail");
    let ended = games.iter().filter(|g| g.is_some()).count();
    eprintln!(
        "{ended} of {} games ended within {} plies",
        args.games, args.max_plies
    );
    (games.into_iter().flatten().flatten().collect(), ended)
}

/// One game's samples, or `None` when it ran past the ply cap.
fn one_game<G: Bots + Codec>(args: &Args, index: usize) -> Option<Vec<Sample>> {
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed ^ (index as u64).wrapping_mul(0x9e37_79b9));
    let mut state = G::new_game(Default::default()).expect("the default game starts");
    let mut seen: Vec<(u32, i64, Side)> = Vec::new();
    let mut moves = Vec::new();
    for ply in 0..args.max_plies {
        if !matches!(G::outcome(&state), Outcome::Ongoing) {
            return Some(finish::<G>(&state, seen));
        }
        moves.clear();
        G::legal_moves(&state, &mut moves);
        let mv = if ply < args.random_plies {
            moves[rng.random_range(0..moves.len())].clone()
        } else {
            let budget = Budget::unlimited().nodes(args.nodes);
            let params = BotParams::seeded(rng.random());
            let analysis = G::analyze(&state, 1, &params, &budget).expect("an ongoing game");
            let best = analysis.moves.into_iter().next().expect("a move");
            if best.exact.is_none() {
                seen.push((G::phase(&state), best.score, G::to_move(&state)));
            }
            best.mv
        };
        state = G::apply(&state, &mv);
    }
    None
}

/// The samples of a finished game, each with its mover's result.
fn finish<G: Rules>(end: &G::State, seen: Vec<(u32, i64, Side)>) -> Vec<Sample> {
    let result = |mover: Side| match G::outcome(end) {
        Outcome::Win { winner, .. } if winner == mover => 1.0,
        Outcome::Win { .. } => 0.0,
        _ => 0.5,
    };
    seen.into_iter()
        .map(|(phase, score, mover)| Sample {
            phase,
            score: score as f64,
            result: result(mover),
        })
        .collect()
}

/// The logistic fit of one phase's samples by Newton's method on the log
/// loss (scores scaled to unit spread while solving).
fn fit(from: u32, to: u32, samples: &[Sample]) -> PhaseFit {
    assert!(
        samples.len() >= 50,
        "phase {from}-{to}: only {} samples",
        samples.len()
    );
    let spread = (samples.iter().map(|s| s.score * s.score).sum::<f64>() / samples.len() as f64)
        .sqrt()
        .max(1.0);
    let (mut a, mut b) = (0.0f64, 0.0f64);
    for _ in 0..50 {
        let (mut ga, mut gb, mut haa, mut hab, mut hbb) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for s in samples {
            let x = s.score / spread;
            let p = logistic(a * x + b);
            let w = (p * (1.0 - p)).max(1e-9);
            ga += (p - s.result) * x;
            gb += p - s.result;
            haa += w * x * x;
            hab += w * x;
            hbb += w;
        }
        let det = haa * hbb - hab * hab;
        let (da, db) = ((hbb * ga - hab * gb) / det, (haa * gb - hab * ga) / det);
        a -= da;
        b -= db;
        if da.abs() + db.abs() < 1e-10 {
            break;
        }
    }
    let slope = a / spread;
    let (log_loss, brier) = errors(samples, slope, b);
    PhaseFit {
        from,
        to,
        slope,
        intercept: b,
        positions: samples.len(),
        log_loss,
        brier,
    }
}

/// Mean log loss and mean squared error of a fit on samples.
fn errors(samples: &[Sample], slope: f64, intercept: f64) -> (f64, f64) {
    let n = samples.len() as f64;
    let (mut loss, mut brier) = (0.0, 0.0);
    for s in samples {
        let p = logistic(slope * s.score + intercept).clamp(1e-12, 1.0 - 1e-12);
        loss -= s.result * p.ln() + (1.0 - s.result) * (1.0 - p).ln();
        brier += (p - s.result).powi(2);
    }
    (loss / n, brier / n)
}

/// The fit per phase against a constant guess, and how predicted
/// probabilities compare with what happened, in Markdown.
fn print_table(model: &WinModel, samples: &[Sample]) {
    println!("| phase | positions | slope per unit | intercept | log loss | log loss of a constant | Brier |");
    println!("|---|---|---|---|---|---|---|");
    for fit in &model.phases {
        let within: Vec<&Sample> = samples
            .iter()
            .filter(|s| (fit.from..=fit.to).contains(&s.phase))
            .collect();
        let mean = within.iter().map(|s| s.result).sum::<f64>() / within.len() as f64;
        let constant = -within
            .iter()
            .map(|s| s.result * mean.ln() + (1.0 - s.result) * (1.0 - mean).ln())
            .sum::<f64>()
            / within.len() as f64;
        println!(
            "| {}–{} | {} | {:.6} | {:.3} | {:.3} | {:.3} | {:.3} |",
            fit.from,
            fit.to,
            fit.positions,
            fit.slope,
            fit.intercept,
            fit.log_loss,
            constant,
            fit.brier
        );
    }
    println!();
    println!("| predicted | positions | mean predicted | won (draws half) |");
    println!("|---|---|---|---|");
    let mut bins = vec![(0usize, 0.0f64, 0.0f64); 10];
    for s in samples {
        let p = model.probability(s.phase, s.score as i64);
        let bin = ((p * 10.0) as usize).min(9);
        bins[bin].0 += 1;
        bins[bin].1 += p;
        bins[bin].2 += s.result;
    }
    for (i, (n, p, won)) in bins.iter().enumerate() {
        if *n > 0 {
            println!(
                "| {:.1}–{:.1} | {n} | {:.3} | {:.3} |",
                i as f64 / 10.0,
                (i + 1) as f64 / 10.0,
                p / *n as f64,
                won / *n as f64
            );
        }
    }
}
