//! The course's Halma harness contract: read `input.txt`, write `output.txt`.

use super::CliError;
use crate::game::{BotParams, Bots, Budget, LevelSpec, Rules};
use crate::games::halma::{text, CampRule, Halma, HalmaLevel, HalmaOptions};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of the `halma` subcommand.
#[derive(Debug, Clone, clap::Args)]
pub struct HalmaArgs {
    /// The directory holding input.txt; output.txt is written there.
    #[arg(long, default_value = ".")]
    pub dir: PathBuf,
    /// The bot level (random, minimax, strong).
    #[arg(long, default_value = "strong")]
    pub level: String,
    /// The camp rules: referee (the course referee's) or basic.
    #[arg(long, default_value = "referee")]
    pub camp_rule: String,
}

/// Reads `D/input.txt`, chooses a move within the clock it names and writes
/// `D/output.txt`. A missing or malformed `input.txt` gives a message on
/// stderr (naming the line) and exit code 1; a finished game or a failed
/// write gives 2, as docs/rules/halma.md promises; bad arguments give 2 (the
/// table of [`crate::cli`]).
pub fn run(args: HalmaArgs) -> ExitCode {
    super::report("halma", play(&args))
}

fn play(args: &HalmaArgs) -> Result<(), CliError> {
    let camp_rule = match args.camp_rule.as_str() {
        "referee" => CampRule::Referee,
        "basic" => CampRule::Basic,
        other => {
            return Err(CliError::usage(format!(
                "--camp-rule {other}: expected referee or basic"
            )))
        }
    };
    let level = LevelSpec::parse(&args.level)?;
    let input_path = args.dir.join("input.txt");
    let body = super::limits::read_text(&input_path, super::limits::BOARD_FILE_CAP)?;
    let output = answer(&input_path, &body, camp_rule, &level)?;
    write_output(&args.dir, &output)
}

/// The text of `output.txt` for the text of `input.txt` (read from `path`,
/// which the errors name).
pub fn answer(
    path: &Path,
    body: &str,
    camp_rule: CampRule,
    level: &LevelSpec<HalmaLevel>,
) -> Result<String, CliError> {
    let input = text::parse_input(body, camp_rule).map_err(|e| CliError::Input {
        path: path.to_path_buf(),
        detail: e.to_string(),
    })?;
    // The clock becomes the bot's time for the move: it must be one.
    let seconds = input.clock.time_left_s;
    if !(seconds > 0.0 && seconds <= super::limits::MAX_CLOCK_S) {
        return Err(CliError::Input {
            path: path.to_path_buf(),
            detail: format!(
                "line 3 is '{seconds}': expected the seconds of play time left, above 0 and at most {}",
                super::limits::MAX_CLOCK_S
            ),
        });
    }
    if Halma::outcome(&input.state).is_over() {
        return Err(CliError::NoMove(format!(
            "{}: the game is over: there is no move to play",
            path.display()
        )));
    }
    let params = BotParams {
        seed: rand::random(),
        options: HalmaOptions {
            clock: Some(input.clock),
        },
    };
    let choice = Halma::choose_move(&input.state, level, &params, &Budget::unlimited())?;
    Ok(text::output_text(&input.state, &choice.mv))
}

fn write_output(dir: &Path, output: &str) -> Result<(), CliError> {
    let path = dir.join("output.txt");
    std::fs::write(&path, output).map_err(|source| CliError::Output { path, source })
}
