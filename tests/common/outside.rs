//! Helpers for the referee's tests of outside programs: unique tags to find
//! their processes by, scratch folders, the games log, and a count of the
//! processes still alive.

use serde_json::Value;
use std::path::{Path, PathBuf};

/// A tag no other run shares: `gamebot-<suite>-test-<what>-<pid>-<random>`.
pub fn unique_tag(suite: &str, what: &str) -> String {
    format!(
        "gamebot-{suite}-test-{what}-{}-{:08x}",
        std::process::id(),
        rand::random::<u32>()
    )
}

/// A fresh directory whose name carries `tag`.
pub fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(tag);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The games log, a record a line.
pub fn log_records(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// Processes whose command line mentions `tag`.
pub fn processes_mentioning(tag: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let pid = entry.file_name().to_string_lossy().into_owned();
        if !pid.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        if let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) {
            let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            if cmdline.contains(tag) {
                found.push(format!("{pid}: {cmdline}"));
            }
        }
    }
    found
}
