//! Bot levels: each game's typed [`Level`] enum (declared with
//! [`crate::declare_levels!`]), a level as requested with its options
//! (`norvig:depth=8`), and the per-request bot parameters.

use super::GameError;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::fmt::{Debug, Display};
use std::str::FromStr;

/// A game's bot levels. The enum's variants alone make the list in
/// `GET /v1/games`, the `unknown_level` message and the names requests use;
/// declare one with [`crate::declare_levels!`], which writes `FromStr` and
/// `Display` from the same table.
pub trait Level:
    Copy + Eq + Debug + Display + FromStr<Err = GameError> + Send + Sync + 'static
{
    /// Every level with its id and one-line description, in listing order.
    const ALL: &'static [LevelDef<Self>];

    /// The id requests use (`strong`).
    fn id(self) -> &'static str {
        Self::def(self).id
    }

    /// What the level does, in one line.
    fn description(self) -> &'static str {
        Self::def(self).description
    }

    /// The table entry of `level`.
    fn def(level: Self) -> &'static LevelDef<Self> {
        Self::ALL
            .iter()
            .find(|def| def.level == level)
            .expect("declare_levels! lists every variant")
    }

    /// The level with id `name`, or `unknown_level` naming every level and
    /// suggesting the nearest one.
    fn from_id(name: &str) -> Result<Self, GameError> {
        let ids = || Self::ALL.iter().map(|def| def.id);
        Self::ALL
            .iter()
            .find(|def| def.id == name)
            .map(|def| def.level)
            .ok_or_else(|| GameError::UnknownLevel {
                level: name.to_string(),
                known: ids().collect::<Vec<_>>().join(", "),
                suggestion: nearest_id(name, ids()),
                pointer: None,
            })
    }
}

/// The most edits a misspelt level name may be from the id it suggests.
const MAX_SUGGESTION_EDITS: usize = 2;

/// The id among `ids` nearest to `name` ignoring case, if it is at most
/// [`MAX_SUGGESTION_EDITS`] edits away and those edits change less than
/// half of it (so a short id is not suggested for any short word); the
/// first in `ids` on a tie.
fn nearest_id(name: &str, ids: impl IntoIterator<Item = &'static str>) -> Option<&'static str> {
    let name = name.trim().to_lowercase();
    ids.into_iter()
        .filter_map(|id| {
            let edits = edit_distance(&name, &id.to_lowercase())?;
            (edits <= MAX_SUGGESTION_EDITS && edits * 2 < id.chars().count()).then_some((edits, id))
        })
        .min_by_key(|&(edits, _)| edits)
        .map(|(_, id)| id)
}

/// The edits (insert, delete or replace a character, or swap two neighbours)
/// that turn `a` into `b` (the optimal string alignment distance), or `None`
/// when their lengths alone differ by more than [`MAX_SUGGESTION_EDITS`], so
/// a long request string costs nothing.
fn edit_distance(a: &str, b: &str) -> Option<usize> {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len().abs_diff(b.len()) > MAX_SUGGESTION_EDITS {
        return None;
    }
    // at[i][j]: the edits between a[..i] and b[..j].
    let mut at = vec![vec![0; b.len() + 1]; a.len() + 1];
    for (i, row) in at.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in at[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let replace = at[i - 1][j - 1] + usize::from(a[i - 1] != b[j - 1]);
            let mut best = replace.min(at[i - 1][j] + 1).min(at[i][j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(at[i - 2][j - 2] + 1);
            }
            at[i][j] = best;
        }
    }
    Some(at[a.len()][b.len()])
}

/// One row of a [`Level`] table.
#[derive(Debug)]
pub struct LevelDef<L: 'static> {
    /// The level.
    pub level: L,
    /// Its id in requests.
    pub id: &'static str,
    /// What it does, in one line.
    pub description: &'static str,
}

/// Declares a game's level enum with its ids and descriptions, and writes its
/// [`Level`], `FromStr` and `Display` from that one table:
///
/// ```
/// gamebot::declare_levels! {
///     /// A game's levels.
///     pub enum DemoLevel {
///         Random = "random": "a uniformly random legal move (seeded)",
///         Strong = "strong": "a real search",
///     }
/// }
/// assert_eq!("strong".parse::<DemoLevel>().unwrap(), DemoLevel::Strong);
/// assert_eq!(DemoLevel::Random.to_string(), "random");
/// let unknown = "best".parse::<DemoLevel>().unwrap_err().to_string();
/// assert_eq!(unknown, "unknown level 'best'; this game has: random, strong");
/// ```
#[macro_export]
macro_rules! declare_levels {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $variant:ident = $id:literal : $description:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $name {
            $( #[doc = $description] $variant ),+
        }

        impl $crate::game::Level for $name {
            const ALL: &'static [$crate::game::LevelDef<Self>] = &[
                $( $crate::game::LevelDef { level: $name::$variant, id: $id, description: $description } ),+
            ];
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str($crate::game::Level::id(*self))
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = $crate::game::GameError;
            fn from_str(name: &str) -> Result<Self, Self::Err> {
                <Self as $crate::game::Level>::from_id(name)
            }
        }
    };
}

/// The longest level string accepted, in bytes: far more than any level's
/// name and options take.
pub const MAX_LEVEL_BYTES: usize = 256;

/// A level as requested, `name[:key=value,...]`: the game's [`Level`] and
/// the options in the order given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelSpec<L> {
    /// The level (`norvig`).
    pub level: L,
    /// Its options in the order given (`depth` → `8`).
    pub options: Vec<(String, String)>,
}

impl<L: FromStr<Err = GameError>> LevelSpec<L> {
    /// Parses `name[:key=value,...]`; an unknown name is `unknown_level`,
    /// and a level longer than `MAX_LEVEL_BYTES` or an option given twice
    /// is refused (a level is a short, closed thing: one spelling each).
    pub fn parse(text: &str) -> Result<Self, GameError> {
        if text.len() > MAX_LEVEL_BYTES {
            return Err(GameError::invalid_option(format!(
                "a level is at most {MAX_LEVEL_BYTES} bytes (name:key=value,...), not {}",
                text.len()
            )));
        }
        let (name, rest) = match text.split_once(':') {
            Some((name, rest)) => (name, Some(rest)),
            None => (text, None),
        };
        let name = name.trim();
        if name.is_empty() {
            return Err(GameError::invalid_option(format!(
                "level '{text}' has no name; write name or name:key=value,..."
            )));
        }
        let mut options = Vec::new();
        for pair in rest.into_iter().flat_map(|r| r.split(',')) {
            let Some((key, value)) = pair.split_once('=') else {
                return Err(GameError::invalid_option(format!(
                    "level option '{pair}' in '{text}' is not key=value"
                )));
            };
            let key = key.trim();
            if options.iter().any(|(given, _)| given == key) {
                return Err(GameError::invalid_option(format!(
                    "level option '{key}' is given twice in '{text}'; give each option once"
                )));
            }
            options.push((key.to_string(), value.trim().to_string()));
        }
        Ok(LevelSpec {
            level: name.parse()?,
            options,
        })
    }
}

impl<L: Copy> LevelSpec<L> {
    /// The level with no options.
    pub fn plain(level: L) -> Self {
        LevelSpec {
            level,
            options: Vec::new(),
        }
    }
}

impl<L: Display> LevelSpec<L> {
    /// Fails unless every option is among `allowed`.
    pub fn only_options(&self, allowed: &[&str]) -> Result<(), GameError> {
        match self
            .options
            .iter()
            .find(|(k, _)| !allowed.contains(&k.as_str()))
        {
            None => Ok(()),
            Some((key, _)) => Err(GameError::invalid_option(format!(
                "level '{}' has no option '{key}' (it takes: {})",
                self.level,
                if allowed.is_empty() {
                    "none".to_string()
                } else {
                    allowed.join(", ")
                }
            ))),
        }
    }

    /// The integer option `key` if given, checked to lie in `range`.
    pub fn int_option(
        &self,
        key: &str,
        range: std::ops::RangeInclusive<u64>,
    ) -> Result<Option<u64>, GameError> {
        let Some((_, raw)) = self.options.iter().rev().find(|(k, _)| k == key) else {
            return Ok(None);
        };
        // One spelling a number (`8`, never `08` or `+8`), so that a level
        // written two ways is never two levels.
        match raw.parse::<u64>() {
            Ok(v) if range.contains(&v) && v.to_string() == *raw => Ok(Some(v)),
            _ => Err(GameError::invalid_option(format!(
                "level option {key}={raw}: expected a whole number from {} to {}, written without leading zeros",
                range.start(),
                range.end()
            ))),
        }
    }

    /// An on/off option written `key=0` or `key=1`, or `default` when absent.
    pub fn switch_option(&self, key: &str, default: bool) -> Result<bool, GameError> {
        Ok(self.int_option(key, 0..=1)?.map_or(default, |v| v == 1))
    }
}

impl<L: Display> Display for LevelSpec<L> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.level)?;
        for (i, (k, v)) in self.options.iter().enumerate() {
            write!(f, "{}{k}={v}", if i == 0 { ':' } else { ',' })?;
        }
        Ok(())
    }
}

/// Per-request bot parameters besides the budget: the seed of random choices
/// and the game's own typed bot options (such as Halma's `clock`; games
/// without any use [`NoOptions`]).
#[derive(Clone, Debug, Default)]
pub struct BotParams<O = NoOptions> {
    /// The seed for random choices (always set by the time a level runs).
    pub seed: u64,
    /// The game's bot options from the request.
    pub options: O,
}

impl<O: Default> BotParams<O> {
    /// Parameters with this seed and the default options.
    pub fn seeded(seed: u64) -> Self {
        BotParams {
            seed,
            options: O::default(),
        }
    }
}

impl<O> BotParams<O> {
    /// A seeded generator for the level's random choices: the same seed gives the same choices.
    pub fn rng(&self) -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(self.seed)
    }
}

/// The bot options of a game that has none: a request with any field the
/// API does not know is refused.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoOptions {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_level_is_short_with_each_option_once_and_numbers_in_one_spelling() {
        let parse = |text: &str| LevelSpec::<Demo>::parse(text).map_err(|e| e.to_string());
        let spec = parse("strong:book=0,depth=8").unwrap();
        assert_eq!(spec.int_option("depth", 1..=20).unwrap(), Some(8));
        let twice = parse("strong:book=0,book=0").unwrap_err();
        assert!(twice.contains("'book' is given twice"), "{twice}");
        let long = parse(&format!("strong:{}", "book=0,".repeat(100_000))).unwrap_err();
        assert!(long.contains("at most 256 bytes"), "{long}");
        assert!(long.len() < 200, "the message does not echo the level");
        for raw in ["08", "+8", " 8x"] {
            let spec = parse(&format!("strong:depth={raw}")).unwrap();
            let error = spec.int_option("depth", 1..=20).unwrap_err().to_string();
            assert!(error.contains("without leading zeros"), "{raw}: {error}");
        }
        assert_eq!(
            parse("strong:depth=0")
                .unwrap()
                .int_option("depth", 0..=1)
                .unwrap(),
            Some(0)
        );
    }

    #[test]
    fn a_switch_option_is_zero_or_one_and_defaults_when_absent() {
        let level: LevelSpec<String> = LevelSpec {
            level: "strong".into(),
            options: vec![
                ("lmr".into(), "0".into()),
                ("null".into(), "1".into()),
                ("ext".into(), "2".into()),
            ],
        };
        assert!(!level.switch_option("lmr", true).unwrap());
        assert!(level.switch_option("null", false).unwrap());
        assert!(level.switch_option("futility", true).unwrap());
        assert!(!level.switch_option("futility", false).unwrap());
        let err = level.switch_option("ext", true).unwrap_err().to_string();
        assert!(err.contains("ext=2") && err.contains("0 to 1"), "{err}");
    }

    crate::declare_levels! {
        /// Levels to misspell.
        enum Demo {
            Random = "random": "random",
            Norvig = "norvig": "norvig",
            Strong = "strong": "strong",
            Legal = "legal": "legal",
        }
    }

    fn suggested(name: &str) -> Option<&'static str> {
        match name.parse::<Demo>() {
            Err(GameError::UnknownLevel { suggestion, .. }) => suggestion,
            other => panic!("{name}: expected unknown_level, got {other:?}"),
        }
    }

    #[test]
    fn a_misspelt_level_suggests_the_nearest_within_two_edits() {
        assert_eq!(suggested("strnog"), Some("strong"), "a swap");
        assert_eq!(suggested("Strong"), Some("strong"), "a case");
        assert_eq!(suggested("STRONG"), Some("strong"), "a case");
        assert_eq!(suggested("stong"), Some("strong"), "a letter left out");
        assert_eq!(suggested("norvigg"), Some("norvig"), "a letter too many");
        assert_eq!(suggested("randum"), Some("random"), "a letter replaced");
        assert_eq!(suggested("rndm"), Some("random"), "two letters left out");
        assert_eq!(suggested("lega"), Some("legal"));
        assert_eq!(suggested("sto"), None, "three edits");
        assert_eq!(suggested("grandmaster"), None);
        assert_eq!(suggested("lx"), None, "three edits from legal");
        assert_eq!(
            nearest_id("cd", ["ab"]),
            None,
            "two edits, all of a short id"
        );
        assert_eq!(nearest_id("ac", ["ab", "abc"]), Some("abc"));
        assert_eq!(suggested(&"s".repeat(100_000)), None, "a long name");
    }

    #[test]
    fn the_message_says_the_suggestion_before_the_levels() {
        let message = "strnog".parse::<Demo>().unwrap_err().to_string();
        assert_eq!(
            message,
            "unknown level 'strnog'; did you mean 'strong'? this game has: random, norvig, strong, legal"
        );
        let message = "oracle".parse::<Demo>().unwrap_err().to_string();
        assert_eq!(
            message,
            "unknown level 'oracle'; this game has: random, norvig, strong, legal"
        );
    }

    #[test]
    fn edit_distance_counts_each_kind_of_edit_once() {
        let edits = |a, b| edit_distance(a, b).unwrap();
        assert_eq!(edits("strong", "strong"), 0);
        assert_eq!(edits("strnog", "strong"), 1);
        assert_eq!(edits("strog", "strong"), 1);
        assert_eq!(edits("strongg", "strong"), 1);
        assert_eq!(edits("strang", "strong"), 1);
        assert_eq!(edits("", "ab"), 2);
        assert_eq!(edits("ab", "ba"), 1);
        assert_eq!(edits("abcd", "badc"), 2);
        assert_eq!(edit_distance("strongest", "strong"), None);
    }
}
