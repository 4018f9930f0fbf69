//! The studio's tournament-harness contract for Advance:
//!
//! - `gamebot advance name` prints the bot's name and exits 0;
//! - `gamebot advance white|black IN OUT` reads the 9-line board from IN,
//!   plays one legal move for that colour (ply unknown, so the 100-turn
//!   rule does not apply) and writes the new board to OUT (which may be IN).
//!
//! Every error prints one line to stderr, exits non-zero and leaves OUT alone
//! (the codes are in the table of [`crate::cli`]: 2 for a usage error, a stuck
//! colour or an unwritable OUT, 1 for an unreadable or malformed IN).

use super::CliError;
use crate::game::{BotParams, Bots, Budget, LevelSpec, Rules};
use crate::games::advance::state::parse_board_text;
use crate::games::advance::{bots, Advance, Color};
use std::path::Path;
use std::process::ExitCode;

/// The name printed by `name` (at most 32 printable ASCII characters).
pub const BOT_NAME: &str = "gamebot-advance";

/// The default time per move, well under the harness's 0.25 s.
pub const DEFAULT_TIME_MS: u64 = 100;

/// Arguments of `gamebot advance`.
#[derive(clap::Args, Debug, Clone)]
pub struct AdvanceArgs {
    /// `name`, or `white IN OUT`, or `black IN OUT` (options may come before or after).
    pub words: Vec<String>,
    /// The bot level (legal, win, greedy, predict, strong[:margin=N]).
    #[arg(long, default_value = "strong")]
    pub level: String,
    /// The time the bot may think, in milliseconds.
    #[arg(long, default_value_t = DEFAULT_TIME_MS, value_parser = super::limits::time_ms)]
    pub time_ms: u64,
}

/// What a successful run prints to stdout (empty after a move).
pub fn execute(args: &AdvanceArgs) -> Result<String, CliError> {
    let words: Vec<&str> = args.words.iter().map(String::as_str).collect();
    match words.as_slice() {
        ["name"] => Ok(format!("{BOT_NAME}\n")),
        ["name", ..] => Err(CliError::usage(
            "usage: advance name (takes no further arguments)",
        )),
        [colour @ ("white" | "black"), input, output] => {
            let colour = Color::from_name(colour).expect("matched a colour name");
            play_file(colour, Path::new(input), Path::new(output), args)?;
            Ok(String::new())
        }
        ["white" | "black", rest @ ..] => Err(CliError::usage(format!(
            "usage: advance white|black IN OUT (expected 2 file names after the colour, found {})",
            rest.len()
        ))),
        [] => Err(CliError::usage(
            "usage: advance name | advance white|black IN OUT",
        )),
        [other, ..] => Err(CliError::usage(format!(
            "unknown first argument {other:?}: expected name, white or black"
        ))),
    }
}

/// Reads IN, chooses a move for `colour`, writes OUT; OUT is written only
/// when everything before succeeded.
fn play_file(
    colour: Color,
    input: &Path,
    output: &Path,
    args: &AdvanceArgs,
) -> Result<(), CliError> {
    let text = super::limits::read_text(input, super::limits::BOARD_FILE_CAP)?;
    let state = parse_board_text(&text, colour, None).map_err(|detail| CliError::Input {
        path: input.to_path_buf(),
        detail,
    })?;
    if bots::legal_moves(&state).is_empty() {
        return Err(CliError::NoMove(format!(
            "{} has no legal move",
            colour.name()
        )));
    }
    let level = LevelSpec::parse(&args.level)?;
    let budget = Budget::with_time_ms(args.time_ms);
    let params = BotParams::seeded(rand::random());
    let choice = Advance::choose_move(&state, &level, &params, &budget)?;
    let after = Advance::apply(&state, &choice.mv);
    std::fs::write(output, after.to_text()).map_err(|source| CliError::Output {
        path: output.to_path_buf(),
        source,
    })
}

/// Runs the command: prints the name or plays a move; one line on stderr
/// and a failure code on any error.
pub fn run(args: AdvanceArgs) -> ExitCode {
    super::report("advance", execute(&args).map(|out| print!("{out}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn args(words: &[&str]) -> AdvanceArgs {
        AdvanceArgs {
            words: words.iter().map(|w| w.to_string()).collect(),
            level: "strong".to_string(),
            time_ms: 50,
        }
    }

    /// A fresh directory under the system temp dir.
    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "gamebot-advance-{name}-{}-{}",
            std::process::id(),
            rand::random::<u32>()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn start_text() -> String {
        crate::games::advance::State::start().to_text()
    }

    #[test]
    fn name_is_short_printable_ascii() {
        let out = execute(&args(&["name"])).unwrap();
        let name = out.trim_end();
        assert!(!name.is_empty() && name.len() <= 32);
        assert!(name.bytes().all(|b| (0x20..0x7f).contains(&b)));
        assert!(execute(&args(&["name", "x"])).is_err());
    }

    #[test]
    fn plays_a_legal_move_into_out() {
        let dir = temp_dir("play");
        let (input, output) = (dir.join("in.txt"), dir.join("out.txt"));
        std::fs::write(&input, start_text().replace('\n', "\r\n")).unwrap();
        let words = ["white", input.to_str().unwrap(), output.to_str().unwrap()];
        assert_eq!(execute(&args(&words)).unwrap(), "");
        let after = std::fs::read_to_string(&output).unwrap();
        let after = parse_board_text(&after, Color::Black, None).unwrap();
        let before = parse_board_text(&start_text(), Color::White, None).unwrap();
        let legal = bots::legal_moves(&before);
        assert!(legal
            .iter()
            .any(|m| before.after(*m).to_text() == after.to_text()));
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn out_may_be_the_same_file_as_in() {
        let dir = temp_dir("same");
        let path = dir.join("board.txt");
        std::fs::write(&path, start_text()).unwrap();
        let p = path.to_str().unwrap();
        execute(&args(&["black", p, p])).unwrap();
        let after = std::fs::read_to_string(&path).unwrap();
        assert_ne!(after, start_text());
        assert_eq!(after.lines().count(), 9);
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn errors_never_write_out() {
        let dir = temp_dir("errors");
        let output = dir.join("out.txt");
        let out = output.to_str().unwrap().to_string();
        let write = |name: &str, text: &str| {
            let path = dir.join(name);
            std::fs::write(&path, text).unwrap();
            path.to_str().unwrap().to_string()
        };
        let bad_char = write("bad.txt", &start_text().replacen('.', "x", 1));
        let short = write("short.txt", &start_text()[..40]);
        let long_line = write("long.txt", &start_text().replacen('\n', ".\n", 1));
        let stuck = write("stuck.txt", "Z........\n.........\n.........\n.........\n.........\n.........\n.........\n.........\n........z\n");
        let missing = dir.join("missing.txt").to_str().unwrap().to_string();
        let cases: Vec<(Vec<String>, &str)> = vec![
            (
                vec!["blue".into(), bad_char.clone(), out.clone()],
                "unknown first argument",
            ),
            (
                vec!["white".into(), bad_char.clone()],
                "expected 2 file names",
            ),
            (
                vec!["white".into(), bad_char.clone(), out.clone(), "x".into()],
                "expected 2 file names",
            ),
            (vec![], "usage"),
            (vec!["white".into(), missing, out.clone()], "cannot read"),
            (
                vec!["white".into(), bad_char, out.clone()],
                "line 3, column 1",
            ),
            (vec!["white".into(), short, out.clone()], "line 5"),
            (
                vec!["white".into(), long_line, out.clone()],
                "line 1: expected 9 characters, found 10",
            ),
            (vec!["white".into(), stuck, out.clone()], "no legal move"),
        ];
        for (words, expected) in cases {
            let words: Vec<&str> = words.iter().map(String::as_str).collect();
            let error = execute(&args(&words)).unwrap_err();
            assert!(error.exit_code() != 0, "{words:?}: {error:?}");
            let error = error.to_string();
            assert!(error.contains(expected), "{words:?}: {error}");
            assert!(!output.exists(), "{words:?} wrote OUT");
        }
        let good = write("good.txt", &start_text());
        let unwritable = dir.join("no-such-dir").join("out.txt");
        let error = execute(&args(&["white", &good, unwritable.to_str().unwrap()])).unwrap_err();
        assert!(matches!(error, CliError::Output { .. }), "{error:?}");
        assert!(error.to_string().contains("cannot write"), "{error}");
        std::fs::remove_dir_all(dir).ok();
    }
}
