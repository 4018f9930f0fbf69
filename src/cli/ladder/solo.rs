//! `gamebot ladder GAME` for a one-player game (Number Crush): every
//! numbered level plays the same game seeds (`--seed` and the `--games`
//! seeds after it) in each of the game's ladder variants (`k=4` … `k=7`,
//! [`Ladder::LADDER_VARIANTS`]), through the arena's one-player match
//! ([`crate::arena::solo`]). The file gives each level's mean score per
//! variant and its gain over the level below on the same seeds, with the
//! gain's 95% interval, and the distribution of its scores (quantiles,
//! which placement reads a player's percentile from). Each level's games in a variant are journaled as
//! they end ([`super::journal`]), so a stopped run resumes.

use super::journal::{self, journal_path, JournalEntry};
use super::{build_id, default_path, write_file, LadderArgs};
use crate::arena::solo::{mean, play_solo, points, PairedGain, SoloSpec};
use crate::arena::stats::round;
use crate::arena::{default_threads, LevelPlayer, Player};
use crate::cli::arena::solo::seeded_start;
use crate::cli::CliError;
use crate::game::ladder::{quantiles, LadderFile, Rung, ScoredLevel, VariantScore};
use crate::game::{AnyLevel, Game, Ladder};
use crate::games::{self, GameVisitor};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::time::{Duration, Instant};

/// One level's games in one variant, a line of the journal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelGames {
    /// The level number.
    pub level: u8,
    /// The variant's name (`k=4`).
    pub variant: String,
    /// The points of each game, in seed order.
    pub points: Vec<i64>,
}

/// Measures a one-player game's ladder and writes its file.
pub fn measure_solo(args: &LadderArgs) -> Result<(), CliError> {
    games::with_game(&args.game, SoloLadder(args)).unwrap_or_else(|| {
        Err(CliError::usage(format!(
            "no game '{}'; games: {}",
            args.game,
            games::ids().join(", ")
        )))
    })
}

/// A ladder variant: its name in the file and its new-game options.
struct Variant {
    name: String,
    options: Value,
}

/// The game's ladder variants, named by their fields (`{"k":4}` → `k=4`).
fn variants<G: Ladder>() -> Result<Vec<Variant>, CliError> {
    if G::LADDER_VARIANTS.is_empty() {
        return Ok(vec![Variant {
            name: "default".to_string(),
            options: Value::Object(Default::default()),
        }]);
    }
    G::LADDER_VARIANTS
        .iter()
        .map(|text| {
            let options: Value = serde_json::from_str(text)
                .map_err(|e| CliError::usage(format!("ladder variant {text}: {e}")))?;
            let fields = options.as_object().map_or(Vec::new(), |fields| {
                fields.iter().map(|(k, v)| format!("{k}={v}")).collect()
            });
            Ok(Variant {
                name: fields.join(","),
                options,
            })
        })
        .collect()
}

struct SoloLadder<'a>(&'a LadderArgs);

impl GameVisitor for SoloLadder<'_> {
    type Output = Result<(), CliError>;

    fn visit<G: Game>(self) -> Self::Output {
        let args = self.0;
        refuse_two_player_flags(args)?;
        let top = G::LADDER.len() as u8;
        if top == 0 {
            return Err(CliError::usage(format!(
                "{} has no numbered levels to measure",
                args.game
            )));
        }
        let (first, last) = args.levels.unwrap_or((1, top));
        if first >= last || last > top {
            return Err(CliError::usage(format!(
                "--levels {first}-{last}: {} has levels 1-{top}; give two of them, the lower first",
                args.game
            )));
        }
        let variants = variants::<G>()?;
        let build = build_id();
        let command = command_line(args);
        let path = args.out.clone().unwrap_or_else(|| default_path(&args.game));
        let journal = journal_path(&path);
        let mut played: Vec<JournalEntry<LevelGames>> =
            journal::start(&journal, &command, args.resume)?;
        for variant in &variants {
            for level in first..=last {
                if let Some(done) = find(&played, level, &variant.name) {
                    println!(
                        "level {level}, {}: mean {:.1} (journaled by {})",
                        variant.name,
                        mean(&done.result.points),
                        done.build
                    );
                    continue;
                }
                let started = Instant::now();
                let points = play_level::<G>(args, level, &variant.options)?;
                println!("level {level}, {}: mean {:.1}", variant.name, mean(&points));
                let entry = JournalEntry {
                    command: command.clone(),
                    build: build.clone(),
                    seconds: started.elapsed().as_secs_f64(),
                    result: LevelGames {
                        level,
                        variant: variant.name.clone(),
                        points,
                    },
                    unfinished: false,
                };
                journal::append(&journal, &entry)?;
                played.push(entry);
            }
        }
        let file = scores_file::<G>(args, &variants, first..=last, &played);
        print_scores(&file);
        write_file(&path, &file)?;
        journal::finish(journal)
    }
}

/// Level `level`'s points on every seed of the run in one variant.
fn play_level<G: Game>(
    args: &LadderArgs,
    level: u8,
    options: &Value,
) -> Result<Vec<i64>, CliError> {
    let start = seeded_start::<G>(options)?;
    let spec = SoloSpec {
        seeds: args.seed..args.seed.saturating_add(args.games as u64),
        times: vec![Duration::from_millis(
            args.time_ms.unwrap_or(DEFAULT_TIME_MS),
        )],
        threads: args.threads.unwrap_or_else(default_threads),
    };
    let make_player = |_: usize| -> Result<Box<dyn Player<G>>, String> {
        Ok(Box::new(LevelPlayer::<G>::new(AnyLevel::Numbered(level))))
    };
    let games = play_solo::<G>(&spec, &start, &make_player).map_err(CliError::Usage)?;
    Ok(points(&games[0]))
}

/// The time a move a level is offered; numbered levels keep their own node
/// caps, so it only bounds a level that would not.
const DEFAULT_TIME_MS: u64 = 1_000;

/// The flags of a two-player ladder, refused rather than ignored.
fn refuse_two_player_flags(args: &LadderArgs) -> Result<(), CliError> {
    let given = [
        ("--random-plies", args.random_plies.is_some()),
        ("--reuse", args.reuse.is_some()),
        ("--resign-margin", args.resign.resign_margin.is_some()),
    ];
    match given.iter().find(|(_, given)| *given) {
        Some((flag, _)) => Err(CliError::usage(format!(
            "{flag} is for two-player ladders; {} is a one-player game: every level plays \
             the same --games seeds from --seed on in each variant",
            args.game
        ))),
        None => Ok(()),
    }
}

fn find<'a>(
    played: &'a [JournalEntry<LevelGames>],
    level: u8,
    variant: &str,
) -> Option<&'a JournalEntry<LevelGames>> {
    played
        .iter()
        .find(|entry| entry.result.level == level && entry.result.variant == variant)
}

/// The ladder file: each level's mean per variant and its gain over the
/// level below on the same seeds.
fn scores_file<G: Ladder>(
    args: &LadderArgs,
    variants: &[Variant],
    levels: std::ops::RangeInclusive<u8>,
    played: &[JournalEntry<LevelGames>],
) -> LadderFile {
    let points = |level: u8, variant: &str| {
        find(played, level, variant).map_or(&[][..], |entry| &entry.result.points[..])
    };
    let first = *levels.start();
    let scores = levels
        .map(|level| ScoredLevel {
            level,
            plays: Some(Rung::describe(&G::LADDER[usize::from(level - 1)])),
            variants: variants
                .iter()
                .map(|variant| {
                    let mine = points(level, &variant.name);
                    VariantScore {
                        variant: variant.name.clone(),
                        games: mine.len() as u32,
                        mean: round(mean(mine), 1),
                        step: (level > first).then(|| {
                            let gain = PairedGain::over(points(level - 1, &variant.name), mine);
                            [gain.mean, gain.low, gain.high]
                        }),
                        quantiles: quantiles(mine),
                    }
                })
                .collect(),
        })
        .collect();
    let seconds: f64 = played.iter().map(|entry| entry.seconds).sum();
    LadderFile {
        game: args.game.clone(),
        build: journal::builds(played),
        command: command_line(args),
        seconds: round(seconds, 1),
        zero: None,
        levels: Vec::new(),
        pairs: Vec::new(),
        scores,
    }
}

/// The command that reproduces the run.
fn command_line(args: &LadderArgs) -> String {
    format!(
        "gamebot ladder {} --games {} --seed {}{}",
        args.game,
        args.games,
        args.seed,
        args.shared_flags()
    )
}

fn print_scores(file: &LadderFile) {
    println!("level  variant      mean      gain over the level below (95%)");
    for level in &file.scores {
        for variant in &level.variants {
            let step = variant.step.map_or(String::new(), |[gain, low, high]| {
                format!("{gain:+.1} ({low:+.1} to {high:+.1})")
            });
            println!(
                "{:>5}  {:<8} {:>10.1}      {step}",
                level.level, variant.variant, variant.mean
            );
        }
    }
}
