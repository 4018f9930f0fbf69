//! Bot levels as requested (`norvig:depth=8`) and the per-request bot parameters.

use super::GameError;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{Map, Value};

/// A level name with its options, as written `name[:key=value,...]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelSpec {
    /// The level id (`norvig`).
    pub name: String,
    /// Its options in the order given (`depth` → `8`).
    pub options: Vec<(String, String)>,
}

impl LevelSpec {
    /// Parses `name[:key=value,...]`.
    pub fn parse(text: &str) -> Result<LevelSpec, GameError> {
        let (name, rest) = match text.split_once(':') {
            Some((name, rest)) => (name, Some(rest)),
            None => (text, None),
        };
        let name = name.trim();
        if name.is_empty() {
            return Err(GameError::InvalidOption(format!(
                "level '{text}' has no name; write name or name:key=value,..."
            )));
        }
        let mut options = Vec::new();
        for pair in rest.into_iter().flat_map(|r| r.split(',')) {
            let Some((key, value)) = pair.split_once('=') else {
                return Err(GameError::InvalidOption(format!(
                    "level option '{pair}' in '{text}' is not key=value"
                )));
            };
            options.push((key.trim().to_string(), value.trim().to_string()));
        }
        Ok(LevelSpec {
            name: name.to_string(),
            options,
        })
    }

    /// Fails unless every option is among `allowed`.
    pub fn only_options(&self, allowed: &[&str]) -> Result<(), GameError> {
        match self
            .options
            .iter()
            .find(|(k, _)| !allowed.contains(&k.as_str()))
        {
            None => Ok(()),
            Some((key, _)) => Err(GameError::InvalidOption(format!(
                "level '{}' has no option '{key}' (it takes: {})",
                self.name,
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
        match raw.parse::<u64>() {
            Ok(v) if range.contains(&v) => Ok(Some(v)),
            _ => Err(GameError::InvalidOption(format!(
                "level option {key}={raw}: expected a whole number from {} to {}",
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

impl std::fmt::Display for LevelSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name)?;
        for (i, (k, v)) in self.options.iter().enumerate() {
            write!(f, "{}{k}={v}", if i == 0 { ':' } else { ',' })?;
        }
        Ok(())
    }
}

/// Per-request bot parameters besides the budget: the seed of random choices
/// and any game-specific request fields (such as Halma's `clock`).
#[derive(Clone, Debug, Default)]
pub struct BotParams {
    /// The seed for random choices (always set by the time a level runs).
    pub seed: u64,
    /// Request fields the generic API does not know, for the game to read.
    pub extra: Map<String, Value>,
}

impl BotParams {
    /// Parameters with this seed and no extra fields.
    pub fn seeded(seed: u64) -> Self {
        BotParams {
            seed,
            extra: Map::new(),
        }
    }

    /// A seeded generator for the level's random choices: the same seed gives the same choices.
    pub fn rng(&self) -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(self.seed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_switch_option_is_zero_or_one_and_defaults_when_absent() {
        let level = LevelSpec::parse("strong:lmr=0,null=1,ext=2").unwrap();
        assert!(!level.switch_option("lmr", true).unwrap());
        assert!(level.switch_option("null", false).unwrap());
        assert!(level.switch_option("futility", true).unwrap());
        assert!(!level.switch_option("futility", false).unwrap());
        let err = level.switch_option("ext", true).unwrap_err().to_string();
        assert!(err.contains("ext=2") && err.contains("0 to 1"), "{err}");
    }
}
