//! Numbered levels (`1` … `N`): each game's ladder of [`Rung`]s from a
//! beginner to its default level at the service's default budget, how a
//! rung chooses its move, and the ratings measured for the rungs
//! (`data/ladder/<game>.json`, written by `gamebot ladder`).
//!
//! A weak rung loses the way people do: it sees less far (a fixed search
//! depth) and now and then prefers a move that looked nearly as good. Every
//! legal move is scored by the game's own analysis at the rung's depth, and
//! one is drawn with probability proportional to
//! `exp((score − best) / temperature)` from the request's seed, so a move a
//! pawn or a few discs worse is played sometimes and a blunder almost never.

use super::wire::LevelId;
use super::{
    BotChoice, BotParams, Bots, Budget, GameError, LadderZeroInfo, Level, LevelSpec,
    NumberedLevelInfo, RungBudget,
};
use rand::Rng;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt::{self, Display};

/// A game's difficulty ladder: its numbered levels, weakest first, each a
/// [`Rung`] of the bots, and what `gamebot ladder` measured of them. Apart
/// from [`Bots`] so that the bots' trait says how to play and this one how
/// the levels are tabled and rated.
pub trait Ladder: Bots {
    /// The numbered levels `1`…`N`, weakest first; empty for a game
    /// without a ladder.
    const LADDER: &'static [Rung] = &[];

    /// The named level a two-player ladder is rated from, its zero: the
    /// game's uniformly random mover, which `gamebot ladder` plays against
    /// level 1; `None` for a game without a rated ladder.
    const LADDER_ZERO: Option<Self::Level> = None;

    /// Random plies that open every game `gamebot ladder` plays: enough
    /// that its games start from many different positions, since a
    /// node-capped level plays the same game again from the same one.
    const LADDER_OPENING_PLIES: usize = 2;

    /// The variants a one-player game's ladder measures each level in,
    /// each as new-game options (a JSON object, `{"k":4}`), named in the
    /// ladder file by their fields (`k=4`); empty for the default game only.
    const LADDER_VARIANTS: &'static [&'static str] = &[];

    /// The ratings `gamebot ladder` measured for [`Ladder::LADDER`]
    /// (`data/ladder/<game>.json`, included at build time), if any.
    const LADDER_RATINGS: Option<&'static str> = None;
}

/// How one numbered level plays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rung {
    /// Every legal move scored by the game's analysis searching to `depth`,
    /// one drawn with weight `exp((score − best) / temperature)`, scores in
    /// the game's own units (discs, centipawns).
    Sampled {
        /// The search depth of the analysis.
        depth: u32,
        /// A cap on the positions the analysis visits, which bounds its
        /// time on any machine and makes the rung deterministic for a seed.
        nodes: u64,
        /// How readily a worse move is played, in score units; larger is weaker.
        temperature: f64,
        /// The share of moves on which the draw is made (1 for every move);
        /// on the others the analysis's best move is played, so a level
        /// errs now and then instead of on every move.
        slip: f64,
    },
    /// The game's default level searching at most `nodes` positions (and
    /// no deeper than its own plan): strong play on a fixed budget, for the
    /// top rungs, so that they play the same on any machine under any load.
    Capped {
        /// The cap on positions searched.
        nodes: u64,
        /// Options of the default level as key and value (`("solve", "12")`),
        /// or none: the table holds them already split, so no request
        /// parses them.
        options: &'static [(&'static str, &'static str)],
    },
}

impl Rung {
    /// A [`Rung::Capped`] rung, for a game's ladder table.
    pub const fn capped(nodes: u64, options: &'static [(&'static str, &'static str)]) -> Rung {
        Rung::Capped { nodes, options }
    }

    /// A [`Rung::Sampled`] rung that draws on every move, for a game's
    /// ladder table.
    pub const fn sampled(depth: u32, nodes: u64, temperature: f64) -> Rung {
        Rung::slipping(depth, nodes, 1.0, temperature)
    }

    /// A [`Rung::Sampled`] rung that plays its best move except on a
    /// `slip` share of moves, for a game's ladder table.
    pub const fn slipping(depth: u32, nodes: u64, slip: f64, temperature: f64) -> Rung {
        Rung::Sampled {
            depth,
            nodes,
            temperature,
            slip,
        }
    }

    /// What the rung may search a move (for `GET /v1/games`).
    pub fn budget(&self) -> RungBudget {
        let bounded = |max_nodes, max_depth| RungBudget {
            max_nodes: Some(max_nodes),
            max_depth,
            time_ms: None,
            load_independent: true,
        };
        match *self {
            Rung::Sampled { depth, nodes, .. } => bounded(nodes, Some(depth)),
            Rung::Capped { nodes, .. } => bounded(nodes, None),
        }
    }

    /// How the rung is made, in one line (for `GET /v1/games`).
    pub fn describe(&self) -> String {
        match self {
            Rung::Sampled {
                depth,
                nodes,
                temperature,
                slip,
            } => {
                let plies = if *depth == 1 { "ply" } else { "plies" };
                let when = if *slip >= 1.0 {
                    "plays".to_string()
                } else {
                    let percent = (slip * 1000.0).round() / 10.0;
                    format!("plays its best move, except on {percent}% of moves")
                };
                format!(
                    "searches {depth} {plies} deep (at most {nodes} positions) and {when} a move \
                     that looks worse by L with weight exp(-L / {temperature})"
                )
            }
            Rung::Capped { nodes, options: [] } => {
                format!("the default level searching at most {nodes} positions")
            }
            Rung::Capped { nodes, options } => {
                let options: Vec<String> =
                    options.iter().map(|(k, v)| format!("{k}={v}")).collect();
                let options = options.join(",");
                format!("the default level with {options}, searching at most {nodes} positions")
            }
        }
    }
}

/// A level as a request or a match names it: one of the game's named
/// levels with its options (`norvig:depth=8`), or a numbered rung of its
/// ladder (`3`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyLevel<L> {
    /// A named level.
    Named(LevelSpec<L>),
    /// Rung `n` of the game's ladder, from 1; always within the ladder.
    Numbered(u8),
}

/// Whether `text` names a numbered level (it is all digits).
pub fn is_numbered(text: &str) -> bool {
    let text = text.trim();
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

impl<L: Level> AnyLevel<L> {
    /// Reads a level of game `G`: a number, or a name of digits, is a rung
    /// of `G`'s ladder, anything else a named level. An unknown name or a number off the
    /// ladder is `unknown_level`, naming the numbered and the named levels
    /// (and, for a name, the named level it most likely meant).
    pub fn read<G: Ladder<Level = L>>(id: &LevelId) -> Result<Self, GameError> {
        match id {
            LevelId::Name(text) => Self::parse::<G>(text),
            LevelId::Number(n) => Self::rung::<G>(usize::try_from(*n).ok(), &n.to_string()),
        }
    }

    /// Rung `n` of `G`'s ladder (written `shown` in the request), or
    /// `unknown_level` when there is no such rung.
    fn rung<G: Ladder<Level = L>>(n: Option<usize>, shown: &str) -> Result<Self, GameError> {
        match n {
            Some(n) if (1..=G::LADDER.len()).contains(&n) => Ok(AnyLevel::Numbered(n as u8)),
            _ => Err(GameError::UnknownLevel {
                level: shown.to_string(),
                known: known_levels::<G>(),
                suggestion: None,
                pointer: None,
            }),
        }
    }

    /// Parses a level of game `G` from text: digits name a rung of `G`'s
    /// ladder, anything else a named level, as [`AnyLevel::read`] does.
    pub fn parse<G: Ladder<Level = L>>(text: &str) -> Result<Self, GameError> {
        if !is_numbered(text) {
            return LevelSpec::parse(text)
                .map(AnyLevel::Named)
                .map_err(|error| match error {
                    GameError::UnknownLevel {
                        level,
                        suggestion,
                        pointer,
                        ..
                    } => GameError::UnknownLevel {
                        level,
                        known: known_levels::<G>(),
                        suggestion,
                        pointer,
                    },
                    other => other,
                });
        }
        Self::rung::<G>(text.trim().parse::<usize>().ok(), text)
    }

    /// The game's default level, with no options.
    pub fn default_of<G: Ladder<Level = L>>() -> Self {
        AnyLevel::Named(LevelSpec::plain(G::DEFAULT_LEVEL))
    }
}

/// Every level id of `G`, numbered first: `1-8, random, norvig, strong`.
fn known_levels<G: Ladder>() -> String {
    let named = G::Level::ALL.iter().map(|def| def.id);
    let numbered = match G::LADDER.len() {
        0 => None,
        1 => Some("1".to_string()),
        top => Some(format!("1-{top}")),
    };
    numbered
        .into_iter()
        .chain(named.map(str::to_string))
        .collect::<Vec<_>>()
        .join(", ")
}

impl<L: Display> Display for AnyLevel<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyLevel::Named(spec) => spec.fmt(f),
            AnyLevel::Numbered(n) => write!(f, "{n}"),
        }
    }
}

/// The move `G` plays at `level`. A numbered level searches with its
/// rung's own caps, not `budget`'s limits (only its stop flag and the
/// server's hard limit); a named level under `budget`.
pub fn choose<G: Ladder>(
    state: &G::State,
    level: &AnyLevel<G::Level>,
    params: &BotParams<G::BotOptions>,
    budget: &Budget,
) -> Result<BotChoice<G::Move>, GameError> {
    let n = match level {
        AnyLevel::Named(spec) => return G::choose_move(state, spec, params, budget),
        AnyLevel::Numbered(n) => *n,
    };
    match G::LADDER[usize::from(n) - 1] {
        Rung::Capped { nodes, options } => {
            let own = own_budget(budget, None, nodes);
            let level = default_level_with::<G>(options);
            let mut choice = G::choose_move(state, &level, params, &own)?;
            choice.report.max_nodes = Some(nodes);
            Ok(choice)
        }
        Rung::Sampled {
            depth,
            nodes,
            temperature,
            slip,
        } => {
            let own = own_budget(budget, Some(depth), nodes);
            let analysis = G::analyze(state, usize::MAX, params, &own)?;
            let scores: Vec<i64> = analysis.moves.iter().map(|m| m.score).collect();
            let mut rng = params.rng();
            // A rung that draws on every move takes no extra number from the
            // seed's stream, so its moves stay what they were measured with.
            let slips = slip >= 1.0 || rng.random::<f64>() < slip;
            let pick = if slips {
                draw(&scores, temperature, &mut rng)
            } else {
                best_of(&scores)
            }
            .ok_or_else(|| GameError::Internal("the analysis scored no move".to_string()))?;
            let chosen = &analysis.moves[pick];
            let mut report = analysis.report;
            report.score = Some(chosen.score);
            report.max_depth = Some(depth);
            report.max_nodes = Some(nodes);
            report
                .notes
                .insert("temperature".to_string(), Value::from(temperature));
            report
                .notes
                .insert("rank_played".to_string(), Value::from(pick + 1));
            Ok(BotChoice {
                mv: chosen.mv.clone(),
                report,
            })
        }
    }
}

/// `G`'s default level with a capped rung's options, copied from the
/// ladder table, where they are already split into keys and values.
fn default_level_with<G: Ladder>(options: &[(&str, &str)]) -> LevelSpec<G::Level> {
    LevelSpec {
        level: G::DEFAULT_LEVEL,
        options: options
            .iter()
            .map(|&(key, value)| (key.to_string(), value.to_string()))
            .collect(),
    }
}

/// Rung `n` (counted from 1) of `G`'s ladder; `None` past either end.
fn rung_at<G: Ladder>(n: u8) -> Option<&'static Rung> {
    G::LADDER.get(usize::from(n).checked_sub(1)?)
}

/// Whether `level`'s score of a move says how the game will go, so that
/// resign adjudication may trust it: not for a sampled rung, which plays a
/// worse move on purpose on a share of moves and so squanders the leads its
/// scores report (leads that turned in games played out: docs/ARENA.md).
pub fn scores_its_own_play<G: Ladder>(level: &AnyLevel<G::Level>) -> bool {
    match level {
        AnyLevel::Named(_) => true,
        AnyLevel::Numbered(n) => !matches!(rung_at::<G>(*n), Some(Rung::Sampled { .. })),
    }
}

/// Whether `level` searches to its own depth and node caps whatever time
/// it is given (every numbered level): such a level can be slow but never
/// late, so a match times its moves without forfeiting them on time, and
/// its results do not depend on how busy the machine is.
pub fn keeps_its_own_budget<G: Ladder>(level: &AnyLevel<G::Level>) -> bool {
    matches!(level, AnyLevel::Numbered(_))
}

/// A rung's own budget: its depth and node caps and no deadline of the
/// request's, stopped only by `budget`'s stop flag (a client gone, a server
/// stopping) and the server's hard limit on any search.
fn own_budget(budget: &Budget, depth: Option<u32>, nodes: u64) -> Budget {
    Budget {
        max_depth: depth,
        max_nodes: Some(nodes),
        stop: budget.stop.clone(),
        hard_deadline: budget.hard_deadline,
        ..Budget::unlimited()
    }
}

/// The index of the first best score; `None` for no scores.
fn best_of(scores: &[i64]) -> Option<usize> {
    let best = scores.iter().max()?;
    scores.iter().position(|s| s == best)
}

/// Draws an index with weight `exp((score − best) / temperature)`; `None`
/// for no scores.
pub fn draw(scores: &[i64], temperature: f64, rng: &mut impl Rng) -> Option<usize> {
    let best = *scores.iter().max()?;
    let weights: Vec<f64> = scores
        .iter()
        .map(|&s| ((s - best) as f64 / temperature.max(f64::MIN_POSITIVE)).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    let mut left = rng.random::<f64>() * total;
    for (i, weight) in weights.iter().enumerate() {
        if left < *weight {
            return Some(i);
        }
        left -= weight;
    }
    best_of(scores)
}

/// A game's measured ladder, as `data/ladder/<game>.json` holds it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LadderFile {
    /// The game's id.
    pub game: String,
    /// The build (commit) the ratings were measured with; several joined
    /// by " + " when a stopped run was resumed on another build.
    pub build: String,
    /// The command that measured them.
    pub command: String,
    /// Wall time of the run's matches, in seconds (a resumed run's parts
    /// added up, and a reused file's).
    pub seconds: f64,
    /// The named level the ratings count from (the random mover, at 0),
    /// played against level 1 in the run; absent in files of earlier
    /// builds, whose level 1 is 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zero: Option<String>,
    /// Every numbered level of a two-player game, lowest first, rated.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub levels: Vec<RatedLevel>,
    /// The matches played, for a re-fit.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pairs: Vec<PairResult>,
    /// Every numbered level of a one-player game, lowest first, with the
    /// mean score it reaches in each variant.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scores: Vec<ScoredLevel>,
}

/// One numbered level of a one-player game, measured by its mean score.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoredLevel {
    /// The level number, from 1.
    pub level: u8,
    /// How the level played when it was measured ([`Rung::describe`]);
    /// absent in files of earlier builds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plays: Option<String>,
    /// Its mean score in each variant the run measured.
    pub variants: Vec<VariantScore>,
}

/// A level's mean score in one variant of a one-player game (Number
/// Crush's `k=4`), over the same game seeds for every level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantScore {
    /// The variant, as the game's new-game options say it (`k=4`).
    pub variant: String,
    /// Games played (one per game seed).
    pub games: u32,
    /// The mean score.
    pub mean: f64,
    /// Its gain over the level below on the same seeds, with that gain's
    /// 95% interval (`[gain, low, high]`); null for level 1.
    pub step: Option<[f64; 3]>,
    /// The distribution of its scores: the score at every
    /// [`QUANTILE_STEP`] of its games, from the lowest (0%) to the highest
    /// (100%), interpolated between games ([`quantiles`]); absent in files
    /// of earlier builds. Placement reads a player's percentile from it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub quantiles: Vec<f64>,
}

/// The share of a level's games between two neighbouring entries of a
/// [`VariantScore`]'s `quantiles`, in percent.
pub const QUANTILE_STEP: f64 = 5.0;

/// The quantiles a [`VariantScore`] keeps of `points`: the score at 0%,
/// [`QUANTILE_STEP`], … 100% of the games, each interpolated linearly
/// between the two games on either side of it (the lowest game is 0%, the
/// highest 100%), to a tenth; none for no games.
pub fn quantiles(points: &[i64]) -> Vec<f64> {
    let mut sorted = points.to_vec();
    sorted.sort_unstable();
    if sorted.is_empty() {
        return Vec::new();
    }
    let steps = (100.0 / QUANTILE_STEP).round() as usize;
    (0..=steps)
        .map(|i| {
            let at = i as f64 / steps as f64 * (sorted.len() - 1) as f64;
            let (below, share) = (at.floor() as usize, at.fract());
            let above = (below + 1).min(sorted.len() - 1);
            let value = sorted[below] as f64 + share * (sorted[above] - sorted[below]) as f64;
            (value * 10.0).round() / 10.0
        })
        .collect()
}

/// One numbered level's measured rating.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RatedLevel {
    /// The level number, from 1.
    pub level: u8,
    /// How the level played when it was measured ([`Rung::describe`]), so
    /// that a later run can tell which results still hold (`--reuse`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plays: Option<String>,
    /// Its Elo rating above the file's zero (the random mover), or above
    /// level 1 in a file without one.
    pub rating: f64,
    /// The 95% interval of the rating.
    pub low: f64,
    /// The 95% interval's upper end.
    pub high: f64,
    /// Games it played in the run.
    pub games: u32,
    /// Its rating minus the level below's, with that step's 95% interval
    /// (`[low, high]`); null for level 1.
    pub step: Option<[f64; 3]>,
}

/// The result of one match between two levels.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairResult {
    /// The lower level; 0 for the file's zero, the random mover.
    pub a: u8,
    /// The higher level.
    pub b: u8,
    /// Games played.
    pub games: u32,
    /// `a`'s points (a win 1, a draw ½).
    pub a_points: f64,
}

/// The numbered levels of `ladder` as `GET /v1/games` lists them, with the
/// ratings or mean scores of `ratings` (a ladder file's JSON) where it has
/// them. A file
/// that does not parse lists no ratings; `tests/it/ladder.rs` checks every
/// checked-in file.
pub fn listing(ladder: &[Rung], ratings: Option<&str>) -> Vec<NumberedLevelInfo> {
    let measured = ratings.and_then(|text| LadderFile::parse(text).ok());
    let rated = |n: u8| {
        measured
            .as_ref()
            .and_then(|file| file.levels.iter().find(|level| level.level == n))
    };
    let scored = |n: u8| {
        measured
            .as_ref()
            .and_then(|file| file.scores.iter().find(|level| level.level == n))
            .map(|level| {
                level
                    .variants
                    .iter()
                    .map(|v| (v.variant.clone(), v.mean))
                    .collect()
            })
    };
    (1..=ladder.len() as u8)
        .zip(ladder)
        .map(|(n, rung)| NumberedLevelInfo {
            level: n,
            description: rung.describe(),
            budget: rung.budget(),
            rating: rated(n).map(|level| level.rating),
            interval: rated(n).map(|level| [level.low, level.high]),
            mean_scores: scored(n),
            cost: None,
        })
        .collect()
}

/// The zero of a ladder as `GET /v1/games` lists it: the named level `id`
/// when `ratings` (a ladder file's JSON) was measured from it.
pub fn zero_listing(id: &'static str, ratings: Option<&str>) -> Option<LadderZeroInfo> {
    let file = LadderFile::parse(ratings?).ok()?;
    (file.zero.as_deref() == Some(id)).then(|| LadderZeroInfo {
        level: id,
        rating: 0.0,
        games: file
            .pairs
            .iter()
            .filter(|pair| pair.a == 0)
            .map(|pair| pair.games)
            .sum(),
    })
}

impl LadderFile {
    /// Reads a ladder file's JSON.
    pub fn parse(text: &str) -> Result<LadderFile, serde_json::Error> {
        serde_json::from_str(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn a_cold_draw_plays_the_best_and_a_warm_one_spreads_by_score() {
        let scores = [10, 40, 35, -200];
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for _ in 0..100 {
            assert_eq!(draw(&scores, 0.01, &mut rng), Some(1));
        }
        let mut counts = [0usize; 4];
        for _ in 0..20_000 {
            counts[draw(&scores, 10.0, &mut rng).unwrap()] += 1;
        }
        // Weights 1 : e^-0.5 : e^-3 : e^-24 for 40, 35, 10, -200.
        let share = |i: usize| counts[i] as f64 / 20_000.0;
        let total = 1.0 + (-0.5f64).exp() + (-3.0f64).exp();
        assert!((share(1) - 1.0 / total).abs() < 0.02, "{counts:?}");
        assert!(
            (share(2) - (-0.5f64).exp() / total).abs() < 0.02,
            "{counts:?}"
        );
        assert!(
            (share(0) - (-3.0f64).exp() / total).abs() < 0.01,
            "{counts:?}"
        );
        assert_eq!(counts[3], 0, "{counts:?}");
        assert_eq!(draw(&[], 1.0, &mut rng), None);
    }

    #[test]
    fn the_same_seed_draws_the_same_move() {
        let scores = [3, 2, 1, 0, -1];
        let picks = |seed| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            (0..20)
                .map(|_| draw(&scores, 2.0, &mut rng).unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(picks(7), picks(7));
        assert_ne!(picks(7), picks(8));
    }

    #[test]
    fn every_numbered_level_keeps_its_own_budget_and_a_named_one_does_not() {
        use crate::games::advance::Advance;
        use crate::games::halma::Halma;
        use crate::games::reversi::{Reversi, ReversiLevel};
        fn tops_keep_their_budgets<G: Ladder>() {
            for n in 1..=G::LADDER.len() as u8 {
                assert!(keeps_its_own_budget::<G>(&AnyLevel::Numbered(n)));
                let budget = G::LADDER[usize::from(n) - 1].budget();
                assert!(budget.load_independent && budget.time_ms.is_none());
                assert!(budget.max_nodes.is_some(), "level {n} has a node cap");
            }
        }
        tops_keep_their_budgets::<Advance>();
        tops_keep_their_budgets::<Halma>();
        tops_keep_their_budgets::<Reversi>();
        assert!(!keeps_its_own_budget::<Reversi>(&AnyLevel::Named(
            LevelSpec::plain(ReversiLevel::Strong)
        )));
    }

    #[test]
    fn a_node_capped_rung_heeds_no_request_time_but_stops_at_the_servers_limit() {
        use crate::game::StopReason;
        use crate::games::advance::{self, Advance};
        use crate::games::reversi::{Reversi, State};
        // Advance's top: Reversi's would answer the start from its book.
        let top = AnyLevel::Numbered(Advance::LADDER.len() as u8);
        let params = BotParams::seeded(5);
        let mut past = Budget::with_time_ms(0);
        past.hard_deadline = past.deadline;
        let cut = choose::<Advance>(&advance::State::start(), &top, &params, &past).unwrap();
        assert_eq!(cut.report.stopped_by, Some(StopReason::Time));
        assert!(cut.report.nodes.unwrap() < 100_000, "{:?}", cut.report);
        // A request's own deadline, long past, does not cut it: level 8
        // searches its 3,000 positions whatever the request's time.
        let level = AnyLevel::Numbered(8);
        let late = choose::<Reversi>(&State::start(), &level, &params, &Budget::with_time_ms(0));
        let unhurried = choose::<Reversi>(&State::start(), &level, &params, &Budget::unlimited());
        let (late, unhurried) = (late.unwrap(), unhurried.unwrap());
        assert_eq!(late.mv, unhurried.mv);
        assert_eq!(late.report.nodes, unhurried.report.nodes);
        assert_eq!(late.report.stopped_by, Some(StopReason::Nodes));
    }

    #[test]
    fn a_slipping_rung_errs_on_its_share_of_moves_and_describes_it() {
        use crate::game::Codec;
        use crate::games::advance::{Advance, State};
        // Advance's level 1 slips on a share of moves: over many seeds, the
        // move played is the analysis's best on at least about the rest of
        // them (a draw may pick the best too), and not on every one.
        let state: State = Advance::new_game(Default::default()).unwrap();
        let Rung::Sampled { slip, .. } = Advance::LADDER[0] else {
            panic!("level 1 of Advance is a sampled rung");
        };
        assert!(slip < 1.0);
        let level = AnyLevel::Numbered(1);
        let budget = Budget::unlimited();
        let best_played = (0..60)
            .filter(|&seed| {
                let choice =
                    choose::<Advance>(&state, &level, &BotParams::seeded(seed), &budget).unwrap();
                choice.report.notes["rank_played"] == 1
            })
            .count();
        let at_least = ((1.0 - slip) * 60.0 * 0.7) as usize;
        assert!((at_least..60).contains(&best_played), "{best_played} of 60");
        let share = format!("except on {}% of moves", (slip * 1000.0).round() / 10.0);
        assert!(Advance::LADDER[0].describe().contains(&share));
        assert!(!Rung::sampled(1, 10, 5.0).describe().contains("except"));
    }

    #[test]
    fn only_rungs_that_play_their_best_vouch_for_their_scores() {
        use crate::games::advance::Advance;
        let top = Advance::LADDER.len() as u8;
        assert!(!scores_its_own_play::<Advance>(&AnyLevel::Numbered(1)));
        assert!(scores_its_own_play::<Advance>(&AnyLevel::Numbered(top)));
        assert!(scores_its_own_play::<Advance>(&AnyLevel::Named(
            LevelSpec::plain(Advance::DEFAULT_LEVEL)
        )));
    }

    #[test]
    fn every_unknown_level_lists_the_numbered_and_named_levels() {
        use crate::games::reversi::Reversi;
        let top = Reversi::LADDER.len();
        let refused = |text: &str| match AnyLevel::parse::<Reversi>(text) {
            Err(error @ GameError::UnknownLevel { .. }) => error,
            other => panic!("{text}: expected unknown_level, got {other:?}"),
        };
        let listed = format!("this game has: 1-{top}, random, norvig, strong");
        let misspelt = refused("strnog");
        assert!(matches!(
            misspelt,
            GameError::UnknownLevel {
                suggestion: Some("strong"),
                ..
            }
        ));
        assert_eq!(
            misspelt.to_string(),
            format!("unknown level 'strnog'; did you mean 'strong'? {listed}")
        );
        let unlike = refused("grandmaster:depth=3").to_string();
        assert_eq!(unlike, format!("unknown level 'grandmaster'; {listed}"));
        let above = (top + 1).to_string();
        for number in [above.as_str(), "0"] {
            let off = refused(number);
            assert!(matches!(
                off,
                GameError::UnknownLevel {
                    suggestion: None,
                    ..
                }
            ));
            assert!(off.to_string().ends_with(&listed), "{off}");
        }
    }

    /// Every game's top rungs hold options a request could write: each
    /// key once, no separator inside a key or value, so the split table
    /// reads back as the level text it stands for.
    #[test]
    fn every_capped_rung_holds_options_a_level_text_reads_back_as() {
        struct CappedOptions;
        impl crate::games::GameVisitor for CappedOptions {
            type Output = ();
            fn visit<G: crate::game::Game>(self) {
                for rung in G::LADDER {
                    let Rung::Capped { options, .. } = rung else {
                        continue;
                    };
                    let spec = default_level_with::<G>(options);
                    let text = spec.to_string();
                    let read = LevelSpec::<G::Level>::parse(&text).unwrap();
                    assert_eq!(read, spec, "{text}");
                }
            }
        }
        for id in crate::games::ids() {
            crate::games::with_game(id, CappedOptions);
        }
    }

    #[test]
    fn numbered_levels_are_digits() {
        assert!(is_numbered("3"));
        assert!(is_numbered(" 12 "));
        assert!(!is_numbered("strong"));
        assert!(!is_numbered("-1"));
        assert!(!is_numbered("3:depth=2"));
        assert!(!is_numbered(""));
    }

    #[test]
    fn the_listing_shows_measured_ratings_beside_each_rung() {
        let ladder = [Rung::sampled(1, 1000, 50.0), Rung::capped(5000, &[])];
        let file = LadderFile {
            game: "demo".into(),
            build: "abc1234".into(),
            command: "gamebot ladder demo".into(),
            seconds: 1.0,
            zero: Some("random".into()),
            levels: vec![
                RatedLevel {
                    level: 1,
                    plays: Some(ladder[0].describe()),
                    rating: 90.0,
                    low: 40.0,
                    high: 140.0,
                    games: 10,
                    step: Some([90.0, 40.0, 140.0]),
                },
                RatedLevel {
                    level: 2,
                    plays: Some(ladder[1].describe()),
                    rating: 210.0,
                    low: 120.0,
                    high: 300.0,
                    games: 10,
                    step: Some([210.0, 120.0, 300.0]),
                },
            ],
            pairs: vec![
                PairResult {
                    a: 0,
                    b: 1,
                    games: 12,
                    a_points: 3.5,
                },
                PairResult {
                    a: 1,
                    b: 2,
                    games: 10,
                    a_points: 2.5,
                },
            ],
            scores: Vec::new(),
        };
        let text = serde_json::to_string(&file).unwrap();
        let zero = zero_listing("random", Some(&text)).unwrap();
        assert_eq!((zero.level, zero.rating, zero.games), ("random", 0.0, 12));
        assert!(zero_listing("legal", Some(&text)).is_none());
        let listed = listing(&ladder, Some(&text));
        assert_eq!(listed.len(), 2);
        assert_eq!(listed[1].rating, Some(210.0));
        assert_eq!(listed[1].interval, Some([120.0, 300.0]));
        assert!(listed[0].description.contains("1 ply deep"), "{listed:?}");
        let unmeasured = listing(&ladder, None);
        assert!(unmeasured
            .iter()
            .all(|level| level.rating.is_none() && level.interval.is_none()));
    }
}
