//! The course's Halma harness contract: read `input.txt`, write `output.txt`.

use crate::game::{BotParams, Budget, Game, LevelSpec, Rules};
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
/// `D/output.txt`. Bad input gives a message on stderr and exit code 1; a
/// finished game or a failed write gives 2.
pub fn run(args: HalmaArgs) -> ExitCode {
    match play(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err((code, message)) => {
            eprintln!("halma: {message}");
            ExitCode::from(code)
        }
    }
}

fn play(args: &HalmaArgs) -> Result<(), (u8, String)> {
    let camp_rule = match args.camp_rule.as_str() {
        "referee" => CampRule::Referee,
        "basic" => CampRule::Basic,
        other => return Err((1, format!("--camp-rule {other}: expected referee or basic"))),
    };
    let level = LevelSpec::parse(&args.level).map_err(|e| (1, e.to_string()))?;
    let input_path = args.dir.join("input.txt");
    let body = std::fs::read_to_string(&input_path)
        .map_err(|e| (1, format!("cannot read {}: {e}", input_path.display())))?;
    let output = answer(&body, camp_rule, &level)
        .map_err(|e| (e.0, format!("{}: {}", input_path.display(), e.1)))?;
    write_output(&args.dir, &output)
}

/// The text of `output.txt` for the text of `input.txt`.
pub fn answer(
    body: &str,
    camp_rule: CampRule,
    level: &LevelSpec<HalmaLevel>,
) -> Result<String, (u8, String)> {
    let input = text::parse_input(body, camp_rule).map_err(|e| (1, e.to_string()))?;
    if Halma::outcome(&input.state).is_over() {
        return Err((2, "the game is over: there is no move to play".to_string()));
    }
    let params = BotParams {
        seed: rand::random(),
        options: HalmaOptions {
            clock: Some(input.clock),
        },
    };
    let choice = Halma::choose_move(&input.state, level, &params, &Budget::unlimited())
        .map_err(|e| (1, e.to_string()))?;
    Ok(text::output_text(&input.state, &choice.mv))
}

fn write_output(dir: &Path, output: &str) -> Result<(), (u8, String)> {
    let path = dir.join("output.txt");
    std::fs::write(&path, output).map_err(|e| (2, format!("cannot write {}: {e}", path.display())))
}
