//! The interactive terminal game of Fancy Naughts & Crosses, as the original
//! assignment had it: show the hands and the board, read typed moves
//! (`row col size`, or `h` for help), answer bad input with the rules' exact
//! messages, announce the result and offer another game. With `--vs LEVEL`
//! the bot plays crosses. The loop is generic over its input and output, so
//! tests drive it with scripted input; it ends cleanly at end of input.

use crate::game::{BotParams, Budget, Game, LevelSpec, Outcome, Player};
use crate::games::naughts::notation::{parse_typed, HELP_MESSAGE};
use crate::games::naughts::{Naughts, State};
use std::io::{self, BufRead, Write};
use std::process::ExitCode;

/// Command-line options of the terminal game.
#[derive(Clone, Debug, clap::Args)]
pub struct NaughtsArgs {
    /// Rows and columns of the board (2-8).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(2..=8))]
    pub grid_size: u8,
    /// Markers per player, sizes 1..P (5-9).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(5..=9))]
    pub pieces: u8,
    /// Play against the bot at this level (random, greedy, perfect); the bot plays crosses.
    #[arg(long)]
    pub vs: Option<String>,
    /// Seed of the bot's random choices (random by default).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Time the bot may think per move, in milliseconds.
    #[arg(long, default_value_t = 2_000)]
    pub bot_time_ms: u64,
}

/// How one session is set up.
#[derive(Clone, Debug)]
pub struct Session {
    /// Rows and columns.
    pub grid_size: u8,
    /// Markers per player.
    pub pieces: u8,
    /// The bot's level, if crosses are played by the bot.
    pub bot: Option<LevelSpec>,
    /// The seed of the bot's random choices.
    pub seed: u64,
    /// The bot's time per move.
    pub bot_time_ms: u64,
}

/// Runs the game on the terminal.
pub fn run(args: NaughtsArgs) -> ExitCode {
    let bot = match args.vs.as_deref().map(checked_level).transpose() {
        Ok(bot) => bot,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let session = Session {
        grid_size: args.grid_size,
        pieces: args.pieces,
        bot,
        seed: args.seed.unwrap_or_else(rand::random),
        bot_time_ms: args.bot_time_ms,
    };
    let stdin = io::stdin();
    match play(&session, stdin.lock(), io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("naughts: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Parses a level name and checks that naughts has it.
pub fn checked_level(text: &str) -> Result<LevelSpec, String> {
    let spec = LevelSpec::parse(text).map_err(|e| e.to_string())?;
    let known: Vec<&str> = Naughts::info().levels.iter().map(|l| l.id).collect();
    if known.contains(&spec.name.as_str()) {
        Ok(spec)
    } else {
        Err(format!(
            "unknown level '{}'; naughts has: {}",
            spec.name,
            known.join(", ")
        ))
    }
}

fn player_name(player: Player) -> &'static str {
    match player {
        Player::First => "Naughts (O)",
        Player::Second => "Crosses (X)",
    }
}

/// The hands and the board, as shown before every move.
pub fn render(state: &State) -> String {
    let n = state.grid();
    let mut out = String::new();
    for player in [Player::First, Player::Second] {
        let sizes: Vec<String> = state.hand(player).iter().map(u8::to_string).collect();
        let sizes = if sizes.is_empty() {
            "none".to_string()
        } else {
            sizes.join(" ")
        };
        out += &format!("{} pieces: {sizes}\n", player_name(player));
    }
    out += "\n   ";
    out += &(1..=n)
        .map(|c| format!(" {c} "))
        .collect::<Vec<_>>()
        .join(" ");
    out.truncate(out.trim_end().len());
    out += "\n";
    let rule = format!("  +{}\n", "----+".repeat(n));
    out += &rule;
    for r in 0..n {
        out += &format!("{} |", r + 1);
        for c in 0..n {
            out += &format!(" {} |", state.cell(r, c).text());
        }
        out += "\n";
        out += &rule;
    }
    out
}

/// Reads a line without its line ending; `None` at end of input.
fn read_line(input: &mut impl BufRead) -> io::Result<Option<String>> {
    let mut line = String::new();
    if input.read_line(&mut line)? == 0 {
        return Ok(None);
    }
    let trimmed = line.strip_suffix('\n').unwrap_or(&line);
    Ok(Some(
        trimmed.strip_suffix('\r').unwrap_or(trimmed).to_string(),
    ))
}

/// What became of one game.
enum Ended {
    /// It reached a result.
    Finished,
    /// Input ran out.
    EndOfInput,
}

/// Plays games until the user declines another or input ends.
pub fn play(session: &Session, mut input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    writeln!(output, "Fancy Naughts & Crosses")?;
    let mut game_number = 0u64;
    loop {
        if let Ended::EndOfInput = play_one(session, game_number, &mut input, &mut output)? {
            writeln!(output)?;
            return output.flush();
        }
        game_number += 1;
        write!(output, "Play again? (y/n): ")?;
        output.flush()?;
        match read_line(&mut input)? {
            Some(answer) if answer.trim().eq_ignore_ascii_case("y") => writeln!(output)?,
            Some(_) => break,
            None => {
                writeln!(output)?;
                break;
            }
        }
    }
    writeln!(output, "Thanks for playing!")?;
    output.flush()
}

fn play_one(
    session: &Session,
    game_number: u64,
    input: &mut impl BufRead,
    output: &mut impl Write,
) -> io::Result<Ended> {
    let mut state = State::new(session.grid_size, session.pieces);
    let mut last_mover: Option<Player> = None;
    loop {
        write!(output, "\n{}", render(&state))?;
        match Naughts::outcome(&state) {
            Outcome::Win { winner, reason } => {
                writeln!(output, "{} wins! ({reason})", player_name(winner))?;
                return Ok(Ended::Finished);
            }
            Outcome::Draw { .. } => {
                writeln!(output, "Stalemate! Neither player can move: it's a draw.")?;
                return Ok(Ended::Finished);
            }
            _ => {}
        }
        let mover = state.to_move();
        if last_mover == Some(mover) {
            writeln!(
                output,
                "{} cannot move, so the turn passes to {}.",
                player_name(mover.other()),
                player_name(mover)
            )?;
        }
        writeln!(output, "{} to move.", player_name(mover))?;
        let mv = if session.bot.is_some() && mover == Player::Second {
            bot_move(session, game_number, &state, output)?
        } else {
            match human_move(&state, input, output)? {
                Some(mv) => mv,
                None => return Ok(Ended::EndOfInput),
            }
        };
        last_mover = Some(mover);
        state = state.apply(&mv);
    }
}

fn bot_move(
    session: &Session,
    game_number: u64,
    state: &State,
    output: &mut impl Write,
) -> io::Result<crate::games::naughts::Move> {
    let level = session.bot.as_ref().expect("a bot level");
    let params = BotParams::seeded(
        session
            .seed
            .wrapping_add(game_number * 1_000 + state_ply(state)),
    );
    let budget = Budget::with_time_ms(session.bot_time_ms);
    let choice = Naughts::choose_move(state, level, &params, &budget)
        .map_err(|e| io::Error::other(e.to_string()))?;
    writeln!(
        output,
        "{} plays {}.",
        player_name(state.to_move()),
        Naughts::notation(state, &choice.mv)
    )?;
    Ok(choice.mv)
}

/// How many markers have been played: varies the bot's seed from move to move.
fn state_ply(state: &State) -> u64 {
    (state.played(Player::First) + state.played(Player::Second)) as u64
}

fn human_move(
    state: &State,
    input: &mut impl BufRead,
    output: &mut impl Write,
) -> io::Result<Option<crate::games::naughts::Move>> {
    loop {
        write!(output, "Enter your move: ")?;
        output.flush()?;
        let Some(line) = read_line(input)? else {
            return Ok(None);
        };
        if line == "h" || line == "H" {
            writeln!(output, "{HELP_MESSAGE}")?;
            continue;
        }
        match parse_typed(state, &line) {
            Ok(mv) => return Ok(Some(mv)),
            Err(e) => writeln!(output, "{e}")?,
        }
    }
}
