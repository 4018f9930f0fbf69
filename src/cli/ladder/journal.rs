//! The ladder's journal: every pair `gamebot ladder` finishes (for a
//! one-player game, every level's games in one variant), and every round
//! of a pair still unsure of its gap, is appended to a file beside its
//! output, so that a run that is stopped (a shared machine needed back, a
//! session ending) keeps what it measured, and `--resume` plays only the
//! pairs, or the rounds of a pair, still missing. A pair's games depend
//! only on the command and the pair (its seed is derived from both), so a
//! resumed run gives the same file as one that ran straight through; the
//! journal records each pair's build, and the file names every build that
//! played.

use crate::cli::{limits, CliError};
use crate::game::ladder::PairResult;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// One finished measurement, a line of the journal: a pair of levels'
/// [`PairResult`] by default.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JournalEntry<T = PairResult> {
    /// The ladder command that played it (without `--out` or `--resume`).
    pub command: String,
    /// The build (commit) that played it.
    pub build: String,
    /// The pair's wall time, in seconds (every round's, for a pair that
    /// went on from journaled rounds).
    pub seconds: f64,
    /// What it measured.
    pub result: T,
    /// Whether this is a round of a pair still unsure of its gap, not the
    /// pair's end: `result` holds the pair's games so far, and a resumed
    /// run goes on from the last such round.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unfinished: bool,
}

/// The journal of a run writing `out`: `out` with `.pairs.jsonl` in place
/// of its extension.
pub fn journal_path(out: &Path) -> PathBuf {
    out.with_extension("pairs.jsonl")
}

/// The pairs an earlier run of `command` journaled at `path`, when
/// resuming; otherwise a check that no journal would be overwritten.
pub fn start<T: DeserializeOwned>(
    path: &Path,
    command: &str,
    resume: bool,
) -> Result<Vec<JournalEntry<T>>, CliError> {
    let Some(text) = limits::read_text_if_any(path, limits::RECORD_FILE_CAP)? else {
        return Ok(Vec::new());
    };
    let entries = parse(path, &text)?;
    if !resume {
        return Err(CliError::usage(format!(
            "{} holds {} finished matches of an earlier run: pass --resume to keep them, \
             or remove the file to start again",
            path.display(),
            entries.len()
        )));
    }
    if let Some(other) = entries.iter().find(|entry| entry.command != command) {
        return Err(CliError::usage(format!(
            "{} was written by `{}`, not by this run's `{command}`: \
             resume with the same command, or remove the file",
            path.display(),
            other.command
        )));
    }
    Ok(entries)
}

fn parse<T: DeserializeOwned>(path: &Path, text: &str) -> Result<Vec<JournalEntry<T>>, CliError> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(index, line)| {
            serde_json::from_str(line).map_err(|e| CliError::Input {
                path: path.to_path_buf(),
                detail: format!("line {}: {e}", index + 1),
            })
        })
        .collect()
}

/// Appends a finished measurement to the journal at `path`.
pub fn append<T: Serialize>(path: &Path, entry: &JournalEntry<T>) -> Result<(), CliError> {
    let line = serde_json::to_string(entry).expect("a journal entry serializes");
    let folder = path.parent().filter(|p| !p.as_os_str().is_empty());
    folder
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
        })
        .and_then(|mut file| writeln!(file, "{line}"))
        .map_err(|source| CliError::Output {
            path: path.to_path_buf(),
            source,
        })
}

/// Removes the journal at `path` once the run's file is written; a run
/// that played nothing (every pair reused) never wrote one.
pub fn finish(path: PathBuf) -> Result<(), CliError> {
    match std::fs::remove_file(&path) {
        Err(source) if source.kind() != std::io::ErrorKind::NotFound => {
            Err(CliError::Output { path, source })
        }
        _ => Ok(()),
    }
}

/// The builds that played `entries`, in the order they first played,
/// joined with " + " (one commit for a run that was never resumed on
/// another build).
pub fn builds<T>(entries: &[JournalEntry<T>]) -> String {
    let mut seen: Vec<&str> = Vec::new();
    for entry in entries {
        if !seen.contains(&entry.build.as_str()) {
            seen.push(&entry.build);
        }
    }
    seen.join(" + ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(build: &str, a: u8) -> JournalEntry {
        JournalEntry {
            command: "gamebot ladder reversi --games 2".into(),
            build: build.into(),
            seconds: 1.5,
            result: PairResult {
                a,
                b: a + 1,
                games: 4,
                a_points: 1.5,
            },
            unfinished: false,
        }
    }

    #[test]
    fn builds_are_named_once_each_in_the_order_they_played() {
        let entries = [entry("abc", 1), entry("abc", 2), entry("def", 3)];
        assert_eq!(builds(&entries), "abc + def");
        assert_eq!(builds(&entries[..2]), "abc");
    }

    #[test]
    fn entries_round_trip_and_a_bad_line_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.pairs.jsonl");
        let command = "gamebot ladder reversi --games 2";
        assert!(start::<PairResult>(&path, command, false)
            .unwrap()
            .is_empty());
        append(&path, &entry("abc", 1)).unwrap();
        append(&path, &entry("abc", 2)).unwrap();
        assert_eq!(
            start(&path, command, true).unwrap(),
            [entry("abc", 1), entry("abc", 2)]
        );
        let refused = start::<PairResult>(&path, command, false)
            .unwrap_err()
            .to_string();
        assert!(refused.contains("--resume"), "{refused}");
        let other = start::<PairResult>(&path, "gamebot ladder reversi --games 4", true)
            .unwrap_err()
            .to_string();
        assert!(other.contains("not by this run's"), "{other}");
        std::fs::write(&path, "{\"command\": 1}\n").unwrap();
        let bad = start::<PairResult>(&path, command, true)
            .unwrap_err()
            .to_string();
        assert!(bad.contains("line 1"), "{bad}");
    }

    #[test]
    fn the_journal_sits_beside_the_output() {
        assert_eq!(
            journal_path(Path::new("data/ladder/halma.json")),
            Path::new("data/ladder/halma.pairs.jsonl")
        );
    }
}
