//! Names the commit the binary is built from, for `gamebot_build_info`:
//! `GAMEBOT_COMMIT` when the builder sets it (a container build, which has
//! no `.git`), else git's short hash of `HEAD`, else `unknown`.

use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=GAMEBOT_COMMIT");
    let commit = std::env::var("GAMEBOT_COMMIT")
        .ok()
        .filter(|commit| !commit.trim().is_empty())
        .or_else(git_commit)
        .unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=GAMEBOT_COMMIT={}", commit.trim());
}

/// The short hash of `HEAD`, watching the files that change with it; none
/// outside a git checkout or without git.
fn git_commit() -> Option<String> {
    let hash = git(&["rev-parse", "--short=12", "HEAD"])?;
    // A worktree's HEAD and reflog live in its own git dir, not `.git/`.
    if let Some(dir) = git(&["rev-parse", "--absolute-git-dir"]) {
        println!("cargo:rerun-if-changed={dir}/HEAD");
        println!("cargo:rerun-if-changed={dir}/logs/HEAD");
    }
    Some(hash)
}

/// What `git args` prints, trimmed, if it succeeds.
fn git(args: &[&str]) -> Option<String> {
    let output = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(output.stdout).ok()?;
    (output.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
}
