//! `gamebot ladder GAME`: measures a game's numbered levels. For a
//! two-player game:
//! It plays the game's random mover (the ladder's zero) against level 1,
//! every adjacent pair of levels and, to tie the chain, every level against
//! the one two above it (odd levels), through the arena with the service's
//! default time per move; fits Elo ratings to all the results by maximum
//! likelihood, the random mover at 0; prints them with their 95%
//! intervals; and writes `data/ladder/<game>.json`, which the build
//! includes so that `GET /v1/games` shows the ratings. Finished pairs are
//! journaled as they end ([`journal`]), so a stopped run can
//! be resumed, and `--reuse` keeps an earlier file's pairs whose levels
//! still play as they did. Every numbered level searches to its own node
//! caps, so a run's results do not depend on the machine's load: it can
//! share a machine, and a pair stopped between rounds goes on from its
//! journaled rounds.

pub mod journal;
pub mod pool;
pub mod solo;

use self::journal::{journal_path, JournalEntry};
use super::arena::{play_arena, ArenaArgs, ResignArgs};
use super::CliError;
use crate::arena::process::end_programs_on_signals;
use crate::arena::stats::{elo_of_score, fit_ratings, Pairing};
use crate::arena::Openings;
use crate::config::ServeConfig;
use crate::game::ladder::{LadderFile, PairResult, RatedLevel, Rung};
use crate::game::{Game, GameError, Ladder, Level, MatchTime};
use crate::games::{self, GameVisitor};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The ladder's command line.
#[derive(Args, Clone, Debug)]
pub struct LadderArgs {
    /// The game id (a game with numbered levels; for a one-player game,
    /// crush, every level plays `--games` seeds from `--seed` on in each
    /// variant, and the file gives mean scores).
    pub game: String,
    /// Games per pair of levels, played again in rounds of as many (with
    /// new openings) while the pair's 95% interval is wider than the gap it
    /// measures, up to `--max-games`.
    #[arg(long, default_value_t = 100, value_parser = super::limits::games)]
    pub games: usize,
    /// The most games one pair plays.
    #[arg(long, default_value_t = 400, value_parser = super::limits::games)]
    pub max_games: usize,
    /// Seed of the openings and the levels' random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random plies at the start of every game [default: the game's own,
    /// 8 for reversi and 2 for the others, so that node-capped levels,
    /// which play the same game again from the same position, meet many
    /// positions].
    #[arg(long)]
    pub random_plies: Option<usize>,
    /// Games played at once [default: the number of cores].
    #[arg(long)]
    pub threads: Option<usize>,
    /// Measure only these levels, `LOW-HIGH` (the lowest at 0 Elo), to
    /// re-run part of a ladder [default: every level].
    #[arg(long, value_parser = parse_range)]
    pub levels: Option<(u8, u8)>,
    /// Time per move [default: the service's default, 1000 ms]: the top
    /// level's budget in the service, so a published ladder keeps it.
    #[arg(long, value_parser = super::limits::time_ms)]
    pub time_ms: Option<u64>,
    /// Resign adjudication for every pair, as in the arena: it shortens
    /// the top pairs' long games.
    #[command(flatten)]
    pub resign: ResignArgs,
    /// Where to write the ladder file [default: data/ladder/GAME.json].
    /// Each finished pair is journaled beside it (`GAME.pairs.jsonl`)
    /// until the file is written.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Keep the pairs an earlier, stopped run of the same command
    /// journaled, and play only the rest.
    #[arg(long)]
    pub resume: bool,
    /// An earlier ladder file (such as the checked-in one) whose results
    /// still hold: its pairs whose two levels play as that file records
    /// (each level's `plays`) are kept, not played again, so that a run
    /// after changing some rungs plays only the pairs they are in.
    #[arg(long)]
    pub reuse: Option<PathBuf>,
    /// An arena games log (`--games-log`) of two of the ladder's levels
    /// played as the ladder plays them but with a seed of its own, such as
    /// a re-run of a pair: its games are added to that pair's before the
    /// fit. May be given more than once.
    #[arg(long)]
    pub pool: Vec<PathBuf>,
}

impl LadderArgs {
    /// The flags every ladder's command line records when given:
    /// `--threads`, `--levels` and `--time-ms`.
    pub fn shared_flags(&self) -> String {
        let mut flags = String::new();
        if let Some(threads) = self.threads {
            flags += &format!(" --threads {threads}");
        }
        if let Some((low, high)) = self.levels {
            flags += &format!(" --levels {low}-{high}");
        }
        if let Some(time_ms) = self.time_ms {
            flags += &format!(" --time-ms {time_ms}");
        }
        flags
    }
}

/// Runs the ladder and writes its file.
pub fn run(args: LadderArgs) -> ExitCode {
    let result = end_programs_on_signals()
        .map_err(CliError::from)
        .and_then(|()| measure(&args));
    super::report("ladder", result)
}

/// Plays the ladder's matches, prints the ratings and writes the file; a
/// one-player game's ladder is its levels' mean scores
/// ([`solo`]).
pub fn measure(args: &LadderArgs) -> Result<(), CliError> {
    if super::arena::solo::is_one_player(&args.game) {
        return solo::measure_solo(args);
    }
    let shape = games::with_game(&args.game, LadderShape).ok_or_else(|| {
        CliError::usage(format!(
            "no game '{}'; games: {}",
            args.game,
            games::ids().join(", ")
        ))
    })??;
    let top = shape.levels;
    let args = &LadderArgs {
        random_plies: Some(args.random_plies.unwrap_or(shape.opening_plies)),
        ..args.clone()
    };
    let (first, last) = args.levels.unwrap_or((1, top));
    if first >= last || last > top {
        return Err(CliError::usage(format!(
            "--levels {first}-{last}: {} has levels 1-{top}; give two of them, the lower first",
            args.game
        )));
    }
    // The build is read before the run: a commit made while it runs is not
    // the build that played.
    let build = build_id();
    let command = command_line(args);
    let path = args.out.clone().unwrap_or_else(|| default_path(&args.game));
    let journal = journal_path(&path);
    let mut played = journal::start(&journal, &command, args.resume)?;
    // The zero is rated against level 1, so only a run that has level 1.
    let zero = shape.zero.filter(|_| first == 1);
    let pairs = zero.map(|_| (0, 1)).into_iter().chain(
        pairs_to_play(last - first + 1)
            .into_iter()
            .map(|(low, high)| (low + first - 1, high + first - 1)),
    );
    let every_pair: Vec<(u8, u8)> = pairs.collect();
    // The entries after these are reused from an earlier file, and said as
    // they are taken.
    let from_journal = played.len();
    let reused_seconds = match &args.reuse {
        Some(earlier) => reuse(earlier, &shape, &every_pair, &mut played)?,
        None => 0.0,
    };
    // Checked before any pair is played, so that a wrong log costs nothing.
    let pooled = pooled_logs(args, &shape, &every_pair, &played[from_journal..])?;
    let run = Run {
        args,
        shape: &shape,
        command: &command,
        build: &build,
        journal: &journal,
    };
    for &(low, high) in &every_pair {
        match played.iter().position(|e| is_finished(e, low, high)) {
            // Reused pairs (after the journal's entries) were said as taken.
            Some(index) if index >= from_journal => {}
            Some(index) => {
                let done = &played[index];
                println!(
                    "level {low} vs {high}: {:.1} of {} points for {low} (journaled by {})",
                    done.result.a_points, done.result.games, done.build
                );
            }
            None => run.measure_pair(&mut played, (low, high))?,
        }
    }
    add_pooled(&pooled, &mut played);
    let file = ladder_file(args, &shape, zero, first..=last, &played, reused_seconds)?;
    print_ratings(&file);
    write_file(&path, &file)?;
    journal::finish(journal)
}

/// Takes into `played` the pairs of `every_pair` that the ladder file
/// `earlier` measured with both levels playing as they do now (and that
/// are not journaled already), and says so; answers the file's seconds
/// when it gave any.
fn reuse(
    earlier: &std::path::Path,
    shape: &Shape,
    every_pair: &[(u8, u8)],
    played: &mut Vec<JournalEntry>,
) -> Result<f64, CliError> {
    let text =
        super::limits::read_text(earlier, super::limits::LADDER_FILE_CAP).map_err(|e| match e {
            CliError::Unreadable { path, source } => CliError::Input {
                path,
                detail: format!("--reuse: {source}"),
            },
            other => other,
        })?;
    let file = LadderFile::parse(&text).map_err(|e| {
        CliError::usage(format!(
            "--reuse {}: not a ladder file: {e}",
            earlier.display()
        ))
    })?;
    // A level plays as it did when the file records the same rung; the
    // zero, when it is the same named level.
    let unchanged = |level: u8| match level {
        0 => file.zero.is_some() && file.zero.as_deref() == shape.zero,
        n => {
            let then = file.levels.iter().find(|rated| rated.level == n);
            then.and_then(|rated| rated.plays.as_deref()) == Some(shape.plays(n))
        }
    };
    let mut reused = 0;
    for &(low, high) in every_pair {
        let Some(pair) = file.pairs.iter().find(|p| (p.a, p.b) == (low, high)) else {
            continue;
        };
        let finished = played.iter().any(|e| is_finished(e, low, high));
        if finished || !unchanged(low) || !unchanged(high) {
            continue;
        }
        println!(
            "level {low} vs {high}: {:.1} of {} points for {low} (reused from {}, build {})",
            pair.a_points,
            pair.games,
            earlier.display(),
            file.build
        );
        played.push(JournalEntry {
            command: file.command.clone(),
            build: file.build.clone(),
            seconds: 0.0,
            result: pair.clone(),
            unfinished: false,
        });
        reused += 1;
    }
    Ok(if reused > 0 { file.seconds } else { 0.0 })
}

/// What every pair of one ladder run shares.
struct Run<'a> {
    args: &'a LadderArgs,
    shape: &'a Shape,
    command: &'a str,
    build: &'a str,
    journal: &'a std::path::Path,
}

impl Run<'_> {
    /// Plays the pair of levels `low` and `high`, going on from its last
    /// journaled round if a stopped run left one, journals each round that
    /// leaves it unsure and then the pair, and adds them to `played`.
    fn measure_pair(
        &self,
        played: &mut Vec<JournalEntry>,
        (low, high): (u8, u8),
    ) -> Result<(), CliError> {
        let earlier = unfinished(played, low, high).cloned();
        if let Some(round) = &earlier {
            println!(
                "level {low} vs {high}: {:.1} of {} points for {low} so far (journaled by {})",
                round.result.a_points, round.result.games, round.build
            );
        }
        let earlier_seconds = earlier.as_ref().map_or(0.0, |round| round.seconds);
        let started = Instant::now();
        let entry = |result: PairResult, unfinished: bool| JournalEntry {
            command: self.command.to_string(),
            build: self.build.to_string(),
            seconds: earlier_seconds + started.elapsed().as_secs_f64(),
            result,
            unfinished,
        };
        let pair = play_pair(
            self.args,
            self.shape,
            earlier.map(|round| round.result),
            |so_far| {
                let round = entry(so_far.clone(), true);
                journal::append(self.journal, &round)?;
                played.push(round);
                Ok(())
            },
            (low, high),
        )?;
        println!(
            "level {low} vs {high}: {:.1} of {} points for {low}",
            pair.a_points, pair.games
        );
        let finished = entry(pair, false);
        journal::append(self.journal, &finished)?;
        played.push(finished);
        Ok(())
    }
}

/// Whether `entry` is the end of the pair of levels `low` and `high`.
fn is_finished(entry: &JournalEntry, low: u8, high: u8) -> bool {
    !entry.unfinished && (entry.result.a, entry.result.b) == (low, high)
}

/// The last round the journal holds of the pair of levels `low` and
/// `high` while it was still unsure of its gap: the pair's games so far.
fn unfinished(played: &[JournalEntry], low: u8, high: u8) -> Option<&JournalEntry> {
    played
        .iter()
        .rev()
        .find(|e| e.unfinished && (e.result.a, e.result.b) == (low, high))
}

/// Where a game's ladder file lives: `data/ladder/GAME.json`.
pub fn default_path(game: &str) -> PathBuf {
    PathBuf::from(format!("data/ladder/{game}.json"))
}

/// Writes a ladder file (its folder too) and says where.
pub fn write_file(path: &std::path::Path, file: &LadderFile) -> Result<(), CliError> {
    let text = serde_json::to_string_pretty(file)
        .map_err(|e| CliError::Game(GameError::Internal(e.to_string())))?;
    let folder = path.parent().filter(|p| !p.as_os_str().is_empty());
    folder
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| std::fs::write(path, text + "\n"))
        .map_err(|source| CliError::Output {
            path: path.to_path_buf(),
            source,
        })?;
    println!("wrote {}", path.display());
    Ok(())
}

/// Plays levels `low` and `high` in rounds of `--games` until the pair's
/// gap is measured to better than itself (the interval narrower than the
/// gap) or `--max-games` are played, going on from `earlier` (the rounds a
/// stopped run journaled) and handing each round that leaves the pair
/// unsure to `journal_round`.
fn play_pair(
    args: &LadderArgs,
    shape: &Shape,
    earlier: Option<PairResult>,
    mut journal_round: impl FnMut(&PairResult) -> Result<(), CliError>,
    (low, high): (u8, u8),
) -> Result<PairResult, CliError> {
    let mut pair = earlier.unwrap_or(PairResult {
        a: low,
        b: high,
        games: 0,
        a_points: 0.0,
    });
    // Every round plays `--games` games, so the rounds played are counted
    // from the games, and round k's seed is the same in a resumed run.
    let first_round = pair.games as u64 / args.games.max(1) as u64;
    for round in first_round.. {
        let seed = args
            .seed
            .wrapping_add(u64::from(low) * 1000 + u64::from(high) + round * 1_000_000);
        let summary = play_arena(&pair_match(args, [shape.name(low), shape.name(high)], seed))?;
        pair.games += summary.games as u32;
        // Counted from the games, not from the rounded mean score, so the
        // points stay whole or half over any number of rounds.
        pair.a_points += summary.a.wins as f64 + summary.draws as f64 / 2.0;
        if measured_well_enough(&pair) || pair.games as usize + args.games > args.max_games {
            break;
        }
        journal_round(&pair)?;
        println!(
            "level {low} vs {high}: {:.1} of {} points for {low}, not yet sure of the gap; \
             another {} games",
            pair.a_points, pair.games, args.games
        );
    }
    Ok(pair)
}

/// The arena match the ladder plays between the seats `a` and `b` (levels
/// as a match names them) with `seed`.
fn pair_match(args: &LadderArgs, [a, b]: [String; 2], seed: u64) -> ArenaArgs {
    ArenaArgs {
        a,
        b,
        games: args.games,
        seed,
        random_plies: args.random_plies.unwrap_or_default(),
        // The ladder's files, journals and pooled logs were all played
        // with an opening per game; its ratings pool many pairs of levels,
        // where the openings' luck is noise rather than a lean.
        openings: Openings::PerGame,
        threads: args.threads,
        resign: args.resign.clone(),
        time_ms: Some(args.time_ms.unwrap_or_else(ladder_time_ms)),
        ..ArenaArgs::new(&args.game)
    }
}

/// The ladder's time a move when `--time-ms` is not given: the service's.
fn ladder_time_ms() -> u64 {
    ServeConfig::default().default_time_ms
}

/// Each `--pool` log, read and checked: a match the ladder would play but
/// for its seed, of one of `every_pair`, given once, and counted by none
/// of the pairs `reused` from an earlier file.
fn pooled_logs(
    args: &LadderArgs,
    shape: &Shape,
    every_pair: &[(u8, u8)],
    reused: &[JournalEntry],
) -> Result<Vec<(PathBuf, pool::PooledLog)>, CliError> {
    let mut pooled = Vec::new();
    for (index, path) in args.pool.iter().enumerate() {
        let refuse = |detail: String| pool::refusal(path, detail);
        if args.pool[..index].contains(path) {
            return Err(refuse("given twice".into()));
        }
        let log = pooled_log(args, shape, path)?;
        let (low, high) = (log.low, log.high);
        if !every_pair.contains(&(low, high)) {
            return Err(refuse(format!(
                "this run has no pair of levels {low} and {high}"
            )));
        }
        let earlier = reused.iter().find(|entry| is_finished(entry, low, high));
        if let Some(entry) = earlier.filter(|entry| pools(&entry.command, path)) {
            return Err(refuse(format!(
                "the pair of levels {low} and {high} counts these games already (`{}`)",
                entry.command
            )));
        }
        pooled.push((path.clone(), log));
    }
    Ok(pooled)
}

/// Adds each pooled log's games to its pair's finished entry in `played`.
fn add_pooled(pooled: &[(PathBuf, pool::PooledLog)], played: &mut [JournalEntry]) {
    for (path, log) in pooled {
        let (low, high) = (log.low, log.high);
        let entry = played
            .iter_mut()
            .find(|e| is_finished(e, low, high))
            .expect("every pair of the run, pooled ones among them, is measured before pooling");
        entry.result.games += log.games;
        entry.result.a_points += log.low_points;
        println!(
            "level {low} vs {high}: {:.1} of {} points for {low} in {} \
             (pooled): {:.1} of {} in all",
            log.low_points,
            log.games,
            path.display(),
            entry.result.a_points,
            entry.result.games
        );
    }
}

/// The log at `path` read for pooling, refused unless it is a match the
/// ladder plays but for its seed and how its openings were shared (paired
/// or one per game: either way its games are fair games of the pair).
fn pooled_log(
    args: &LadderArgs,
    shape: &Shape,
    path: &std::path::Path,
) -> Result<pool::PooledLog, CliError> {
    let log = pool::read_pooled(path, |seat| shape.level_of(seat))?;
    let seats = [log.setup.a.clone(), log.setup.b.clone()];
    let ladders = ArenaArgs {
        openings: log.setup.openings,
        ..pair_match(args, seats, log.setup.seed)
    }
    .match_setup(MatchTime::PerMove(Duration::from_millis(ladder_time_ms())))?;
    match ladders.difference(&log.setup) {
        Some(difference) => Err(pool::refusal(
            path,
            format!("not a match the ladder plays ({difference})"),
        )),
        None => Ok(log),
    }
}

/// Whether the ladder command `command` pooled the log at `path`.
fn pools(command: &str, path: &std::path::Path) -> bool {
    let words: Vec<&str> = command.split_whitespace().collect();
    let path = path.display().to_string();
    words
        .windows(2)
        .any(|pair| pair == ["--pool", path.as_str()])
}

/// Whether a pair's 95% interval of its Elo gap (from the score's binomial
/// standard error) is narrower than the gap, or the gap is beyond measure
/// (one side took every point).
fn measured_well_enough(pair: &PairResult) -> bool {
    let games = f64::from(pair.games);
    let score = pair.a_points / games;
    if score <= 0.0 || score >= 1.0 {
        return true;
    }
    let margin = 1.96 * (score * (1.0 - score) / games).sqrt();
    let elo = |p: f64| elo_of_score(p.clamp(1e-6, 1.0 - 1e-6));
    let width = elo(score + margin) - elo(score - margin);
    width < elo(score).abs()
}

/// The number of numbered levels of a two-player game, and the random
/// plies its ladder games open with.
struct LadderShape;

/// What [`LadderShape`] finds.
struct Shape {
    levels: u8,
    opening_plies: usize,
    /// Per level (index 0 for level 1), how it plays ([`Rung::describe`]).
    ///
    /// [`Rung::describe`]: crate::game::ladder::Rung::describe
    plays: Vec<String>,
    /// The named level rated 0 (the random mover).
    zero: Option<&'static str>,
}

impl Shape {
    /// How level `level` is named in a match: the zero's name for 0.
    fn name(&self, level: u8) -> String {
        match (level, self.zero) {
            (0, Some(zero)) => zero.to_string(),
            _ => level.to_string(),
        }
    }

    /// The level a match names `seat` (0 for the zero's name), if it is
    /// one of this ladder's.
    fn level_of(&self, seat: &str) -> Option<u8> {
        (0..=self.levels)
            .find(|&level| (level > 0 || self.zero.is_some()) && self.name(level) == seat)
    }

    /// How numbered level `level` plays.
    fn plays(&self, level: u8) -> &str {
        &self.plays[usize::from(level - 1)]
    }
}

impl GameVisitor for LadderShape {
    type Output = Result<Shape, CliError>;

    fn visit<G: Game>(self) -> Self::Output {
        let id = G::info().id;
        match <G as Ladder>::LADDER.len() {
            0 | 1 => Err(CliError::usage(format!(
                "{id} has no numbered levels to measure"
            ))),
            n => Ok(Shape {
                levels: n as u8,
                opening_plies: <G as Ladder>::LADDER_OPENING_PLIES,
                plays: <G as Ladder>::LADDER.iter().map(Rung::describe).collect(),
                zero: <G as Ladder>::LADDER_ZERO.map(|zero| zero.id()),
            }),
        }
    }
}

/// `LOW-HIGH`, two level numbers.
fn parse_range(text: &str) -> Result<(u8, u8), String> {
    let (low, high) = text
        .split_once('-')
        .ok_or_else(|| format!("'{text}': expected LOW-HIGH, such as 1-5"))?;
    let number = |n: &str| {
        n.trim()
            .parse::<u8>()
            .map_err(|_| format!("'{text}': '{n}' is not a level number"))
    };
    Ok((number(low)?, number(high)?))
}

/// Every adjacent pair of levels `1..=levels`, and each odd level against
/// the one two above it.
pub fn pairs_to_play(levels: u8) -> Vec<(u8, u8)> {
    let adjacent = (1..levels).map(|low| (low, low + 1));
    let two_apart = (1..levels.saturating_sub(1))
        .step_by(2)
        .map(|low| (low, low + 2));
    adjacent.chain(two_apart).collect()
}

/// The fitted ladder: the ratings of `levels` above `zero` (level 0) when
/// the run rated it, else above the first level; `reused_seconds` is the
/// reused file's time.
fn ladder_file(
    args: &LadderArgs,
    shape: &Shape,
    zero: Option<&'static str>,
    levels: std::ops::RangeInclusive<u8>,
    played: &[JournalEntry],
    reused_seconds: f64,
) -> Result<LadderFile, CliError> {
    let first = if zero.is_some() { 0 } else { *levels.start() };
    let levels = first..=*levels.end();
    let finished: Vec<&JournalEntry> = played.iter().filter(|entry| !entry.unfinished).collect();
    let pairs: Vec<PairResult> = finished.iter().map(|entry| entry.result.clone()).collect();
    let seconds: f64 = finished.iter().map(|entry| entry.seconds).sum::<f64>() + reused_seconds;
    let pairings: Vec<Pairing> = pairs
        .iter()
        .map(|pair| Pairing {
            a: usize::from(pair.a - first),
            b: usize::from(pair.b - first),
            games: f64::from(pair.games),
            a_points: pair.a_points,
        })
        .collect();
    let fit = fit_ratings(levels.len(), &pairings).ok_or_else(|| {
        CliError::Game(GameError::Internal(
            "the ladder's results do not tie every level".into(),
        ))
    })?;
    let levels = levels
        .zip(fit.ratings)
        .filter(|&(level, _)| level > 0)
        .map(|(level, rating)| RatedLevel {
            level,
            plays: Some(shape.plays(level).to_string()),
            rating: rating.elo,
            low: rating.low,
            high: rating.high,
            step: (level > first).then(|| {
                let step = &fit.steps[usize::from(level - first) - 1];
                [step.elo, step.low, step.high]
            }),
            games: pairs
                .iter()
                .filter(|pair| pair.a == level || pair.b == level)
                .map(|pair| pair.games)
                .sum(),
        })
        .collect();
    Ok(LadderFile {
        game: args.game.clone(),
        build: journal::builds(played),
        command: command_line(args),
        seconds: (seconds * 10.0).round() / 10.0,
        zero: zero.map(str::to_string),
        levels,
        pairs,
        scores: Vec::new(),
    })
}

/// The command that reproduces the run.
fn command_line(args: &LadderArgs) -> String {
    let mut line = format!(
        "gamebot ladder {} --games {} --max-games {} --seed {} --random-plies {}",
        args.game,
        args.games,
        args.max_games,
        args.seed,
        args.random_plies.unwrap_or_default()
    );
    line += &args.shared_flags();
    if let Some(earlier) = &args.reuse {
        line += &format!(" --reuse {}", earlier.display());
    }
    for log in &args.pool {
        line += &format!(" --pool {}", log.display());
    }
    line + &args.resign.flags()
}

/// The commit the binary runs from, when it runs inside its checkout.
pub fn build_id() -> String {
    std::process::Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .output()
        .ok()
        .filter(|out| out.status.success())
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .map(|id| id.trim().to_string())
        .filter(|id| !id.is_empty())
        .unwrap_or_else(|| format!("gamebot {}", env!("CARGO_PKG_VERSION")))
}

fn print_ratings(file: &LadderFile) {
    println!("level    rating    95% interval        step from below (95%)        games");
    for level in &file.levels {
        let step = level.step.map_or(String::new(), |[elo, low, high]| {
            format!("{elo:>5.0} ({low:>4.0} to {high:>4.0})")
        });
        println!(
            "{:>5} {:>9.0}    {:>7.0} to {:>7.0}    {step:<27}  {:>5}",
            level.level, level.rating, level.low, level.high, level.games
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pairs_are_the_adjacent_ones_and_odd_levels_two_up() {
        assert_eq!(pairs_to_play(3), [(1, 2), (2, 3), (1, 3)]);
        let eight = pairs_to_play(8);
        assert_eq!(eight.len(), 7 + 3);
        assert!(eight.contains(&(7, 8)) && eight.contains(&(5, 7)) && !eight.contains(&(6, 8)));
    }

    fn pair(games: u32, a_points: f64) -> PairResult {
        PairResult {
            a: 1,
            b: 2,
            games,
            a_points,
        }
    }

    #[test]
    fn a_command_pools_a_log_only_when_it_names_that_very_path() {
        let command = "gamebot ladder halma --seed 31 --pool runs/a.jsonl --pool runs/b.jsonl";
        assert!(pools(command, std::path::Path::new("runs/a.jsonl")));
        assert!(pools(command, std::path::Path::new("runs/b.jsonl")));
        assert!(!pools(command, std::path::Path::new("runs/a.json")));
        assert!(!pools(command, std::path::Path::new("a.jsonl")));
        assert!(!pools(
            "gamebot ladder halma --reuse runs/a.jsonl",
            std::path::Path::new("runs/a.jsonl")
        ));
    }

    #[test]
    fn a_pair_is_measured_when_its_interval_is_narrower_than_its_gap() {
        // 25% over 100 games: about -191 Elo, the 95% interval about 170 wide.
        assert!(measured_well_enough(&pair(100, 25.0)));
        // 30%: about -147, the interval about 152 wide; 40%: -70 and 141.
        assert!(!measured_well_enough(&pair(100, 30.0)));
        assert!(!measured_well_enough(&pair(100, 40.0)));
        // 35% over 400 games: about -108, the interval about 71 wide.
        assert!(measured_well_enough(&pair(400, 140.0)));
        assert!(!measured_well_enough(&pair(400, 199.0)));
        assert!(measured_well_enough(&pair(10, 0.0)));
        assert!(measured_well_enough(&pair(10, 10.0)));
    }
}
