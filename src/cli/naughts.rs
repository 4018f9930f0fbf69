//! The interactive terminal game of Fancy Naughts & Crosses, as the original
//! assignment had it: show the hands and the board, read typed moves
//! (`row col size`, or `h` for help), answer bad input with the rules' exact
//! messages, announce the result and offer another game. With `--vs LEVEL`
//! the bot plays crosses. The loop is generic over its input and output, so
//! tests drive it with scripted input; it ends cleanly at end of input.
//! An unknown `--vs` level exits 2, a failed read or write 1 (the table of
//! [`crate::cli`]); a closed standard output (a pager quit) ends it quietly.

use super::CliError;
use crate::game::{
    BotParams, Bots, Budget, Codec, ErrorCode, GameError, LevelSpec, Outcome, Rules, Side,
};
use crate::games::naughts::notation::parse_typed;
use crate::games::naughts::state::side_name;
use crate::games::naughts::{Move, Naughts, NaughtsLevel, Play, State};
use std::io::{self, BufRead, Write};
use std::process::ExitCode;

/// The course's answer to input that is not `r c s`.
pub const FORMAT_MESSAGE: &str = "Invalid move format. Please try again.";
/// The course's answer to a row that is not on the board.
pub const ROW_MESSAGE: &str = "Invalid row. Please try again.";
/// The course's answer to a column that is not on the board.
pub const COLUMN_MESSAGE: &str = "Invalid column. Please try again.";
/// The course's answer to a size outside 1..=pieces.
pub const SIZE_MESSAGE: &str = "Invalid piece size. Please try again.";
/// The course's answer to a marker already played, or a cell whose top is not smaller.
pub const MOVE_MESSAGE: &str = "Invalid move. Ensure you have a piece of the requested size, and that you're not putting it over a bigger piece and try again!";
/// The help line shown for `h` or `H`.
pub const HELP_MESSAGE: &str = "Enter a row, column & piece size in the format: row col size";

/// The course's sentence for a typed move the rules refuse, by the code of
/// its row in the rules' table: the terminal keeps the course's exact words,
/// where the API's detail says more.
pub fn course_message(refusal: &GameError) -> String {
    let sentence = match refusal {
        GameError::IllegalMove { code, .. } => match code {
            ErrorCode::InvalidFormat => Some(FORMAT_MESSAGE),
            ErrorCode::InvalidRow => Some(ROW_MESSAGE),
            ErrorCode::InvalidColumn => Some(COLUMN_MESSAGE),
            ErrorCode::InvalidSize => Some(SIZE_MESSAGE),
            ErrorCode::InvalidMove => Some(MOVE_MESSAGE),
            _ => None,
        },
        _ => None,
    };
    sentence.map_or_else(|| refusal.to_string(), str::to_string)
}

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
    #[arg(long, default_value_t = 2_000, value_parser = super::limits::time_ms)]
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
    pub bot: Option<LevelSpec<NaughtsLevel>>,
    /// The seed of the bot's random choices.
    pub seed: u64,
    /// The bot's time per move.
    pub bot_time_ms: u64,
}

/// Runs the game on the terminal.
pub fn run(args: NaughtsArgs) -> ExitCode {
    super::report("naughts", run_session(&args))
}

fn run_session(args: &NaughtsArgs) -> Result<(), CliError> {
    let session = Session {
        grid_size: args.grid_size,
        pieces: args.pieces,
        bot: args.vs.as_deref().map(checked_level).transpose()?,
        seed: args.seed.unwrap_or_else(rand::random),
        bot_time_ms: args.bot_time_ms,
    };
    let stdin = io::stdin();
    match play(&session, stdin.lock(), io::stdout().lock()) {
        Err(CliError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        result => result,
    }
}

/// Parses a level (`perfect`, `random`, …); an unknown one is a usage error
/// naming every level naughts has.
pub fn checked_level(text: &str) -> Result<LevelSpec<NaughtsLevel>, CliError> {
    Ok(LevelSpec::parse(text)?)
}

fn player_name(player: Side) -> &'static str {
    match player {
        Side::First => "Naughts (O)",
        Side::Second => "Crosses (X)",
    }
}

/// The game display, laid out exactly as the course's `print_game` (rules,
/// "The game display"): both hands, a blank line, the column header, then
/// every row between dash separators.
pub fn render(state: &State) -> String {
    let mut out = String::new();
    for player in [Side::First, Side::Second] {
        out += &hand_line(state, player);
        out += "\n";
    }
    out += "\n";
    out += &column_header(state.grid());
    out += "\n";
    let separator = separator(state.grid());
    for row in 0..state.grid() {
        out += &separator;
        out += "\n";
        out += &board_row(state, row);
        out += "\n";
    }
    out += &separator;
    out += "\n";
    out
}

/// `O has: 1, 2, 3`: the sizes `player` still holds, ascending.
///
/// An empty hand prints `O has:` without a trailing space. The rules say both
/// "an empty hand prints `O has: ` with nothing after it" and "each line ends
/// at its last visible character"; the second is the layout rule the doc's
/// own example follows (none of its lines, not even the blank one, carries
/// trailing whitespace), and where the doc means significant spaces it quotes
/// them (`"   1  2  3"`), which it does not do for the empty hand. So "nothing
/// after it" is read as "no sizes after the label", and the line ends at the
/// colon.
fn hand_line(state: &State, player: Side) -> String {
    let sizes: Vec<String> = state.hand(player).iter().map(u8::to_string).collect();
    let label = format!("{} has:", side_name(player));
    if sizes.is_empty() {
        label
    } else {
        format!("{label} {}", sizes.join(", "))
    }
}

/// One leading space, then two spaces and the number for every column: `   1  2  3`.
fn column_header(grid: usize) -> String {
    let numbers: String = (1..=grid).map(|c| format!("  {c}")).collect();
    format!(" {numbers}")
}

/// Two spaces and three dashes a column: `  ---------` for a 3×3 grid.
fn separator(grid: usize) -> String {
    format!("  {}", "-".repeat(3 * grid))
}

/// The 1-based row number, `|`, then every cell's two characters and `|`: `2|  |O1|  |`.
fn board_row(state: &State, row: usize) -> String {
    let cells: String = (0..state.grid())
        .map(|col| format!("{}|", state.cell(row, col).text()))
        .collect();
    format!("{}|{cells}", row + 1)
}

/// Reads a line without its line ending; `None` at end of input. A line
/// longer than [`super::limits::LINE_CAP`] is an error (exit code 1).
fn read_line(input: &mut impl BufRead) -> io::Result<Option<String>> {
    super::limits::read_line(input, super::limits::LINE_CAP)
}

/// What became of one game.
enum Ended {
    /// It reached a result.
    Finished,
    /// Input ran out.
    EndOfInput,
}

/// Plays games until the user declines another or input ends.
pub fn play(
    session: &Session,
    mut input: impl BufRead,
    mut output: impl Write,
) -> Result<(), CliError> {
    writeln!(output, "Fancy Naughts & Crosses")?;
    let mut game_number = 0u64;
    loop {
        if let Ended::EndOfInput = play_one(session, game_number, &mut input, &mut output)? {
            writeln!(output)?;
            return Ok(output.flush()?);
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
    Ok(output.flush()?)
}

fn play_one(
    session: &Session,
    game_number: u64,
    input: &mut impl BufRead,
    output: &mut impl Write,
) -> Result<Ended, CliError> {
    let mut state = State::new(session.grid_size, session.pieces);
    let mut last_mover: Option<Side> = None;
    loop {
        write!(output, "\n{}", render(&state))?;
        match Naughts::outcome(&state) {
            Outcome::Win { winner, reason, .. } => {
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
        let turn = if session.bot.is_some() && mover == Side::Second {
            bot_move(session, game_number, &state, output)?
        } else {
            match human_move(&state, input, output)? {
                Some(mv) => Play::Place(mv),
                None => return Ok(Ended::EndOfInput),
            }
        };
        last_mover = Some(mover);
        state = state.play(&turn);
    }
}

fn bot_move(
    session: &Session,
    game_number: u64,
    state: &State,
    output: &mut impl Write,
) -> Result<Play, CliError> {
    let level = session.bot.as_ref().expect("a bot level");
    let params = BotParams::seeded(
        session
            .seed
            .wrapping_add(game_number * 1_000 + state_ply(state)),
    );
    let budget = Budget::with_time_ms(session.bot_time_ms);
    let choice = Naughts::choose_move(state, level, &params, &budget)?;
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
    (state.played(Side::First) + state.played(Side::Second)) as u64
}

fn human_move(
    state: &State,
    input: &mut impl BufRead,
    output: &mut impl Write,
) -> io::Result<Option<Move>> {
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
            Err(refusal) => writeln!(output, "{}", course_message(&refusal))?,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The display after `moves` (each legal) on a fresh board.
    fn after(grid: u8, pieces: u8, moves: &[(u8, u8, u8)]) -> State {
        moves
            .iter()
            .fold(State::new(grid, pieces), |state, &(row, col, size)| {
                state.apply(&Move { row, col, size })
            })
    }

    /// Plays typed moves (each legal) from a fresh board.
    fn typed_after(grid: u8, pieces: u8, moves: &[&str]) -> State {
        moves.iter().fold(State::new(grid, pieces), |state, text| {
            let mv = parse_typed(&state, text).unwrap_or_else(|e| panic!("{text}: {e}"));
            state.apply(&mv)
        })
    }

    #[test]
    fn every_row_of_the_message_table_answers_with_its_sentence() {
        let state = typed_after(3, 5, &["2 2 3"]);
        let cases = [
            ("22 5", "invalid_format", FORMAT_MESSAGE),
            ("2 2 5 ", "invalid_format", FORMAT_MESSAGE),
            ("2  2 5", "invalid_format", FORMAT_MESSAGE),
            ("2 2  ", "invalid_format", FORMAT_MESSAGE),
            ("", "invalid_format", FORMAT_MESSAGE),
            ("h", "invalid_format", FORMAT_MESSAGE),
            ("4 2 5", "invalid_row", ROW_MESSAGE),
            ("0 2 5", "invalid_row", ROW_MESSAGE),
            ("2 4 5", "invalid_column", COLUMN_MESSAGE),
            ("2 a 5", "invalid_column", COLUMN_MESSAGE),
            ("2 2 6", "invalid_size", SIZE_MESSAGE),
            ("2 2 0", "invalid_size", SIZE_MESSAGE),
            ("2 2 2", "invalid_move", MOVE_MESSAGE),
            ("2 2 3", "invalid_move", MOVE_MESSAGE),
        ];
        for (input, code, sentence) in cases {
            let refusal = parse_typed(&state, input).unwrap_err();
            assert!(
                matches!(refusal, GameError::IllegalMove { code: c, .. } if c.as_str() == code),
                "{input:?}: {refusal:?}"
            );
            assert_eq!(course_message(&refusal), sentence, "{input:?}");
        }
        let other = GameError::Internal("bug".into());
        assert_eq!(course_message(&other), other.to_string());
    }

    #[test]
    fn the_empty_board_is_the_rules_example() {
        let example = crate::test_data::text("naughts/print-game-empty-3x3.txt");
        assert_eq!(render(&State::new(3, 5)), example);
    }

    #[test]
    fn a_marker_shows_in_its_row_and_leaves_the_hand() {
        let shown = render(&after(3, 5, &[(1, 1, 1)]));
        assert!(shown.contains("\n2|  |O1|  |\n"), "{shown}");
        assert!(shown.starts_with("O has: 2, 3, 4, 5\nX has: 1, 2, 3, 4, 5\n"));
    }

    #[test]
    fn an_empty_hand_ends_at_the_colon() {
        let moves = [(0, 0, 1), (0, 1, 1), (0, 2, 2), (0, 3, 2), (0, 4, 3)];
        let moves = moves
            .into_iter()
            .chain([(0, 5, 3), (1, 0, 4), (1, 1, 4), (1, 2, 5)]);
        let shown = render(&after(6, 5, &moves.collect::<Vec<_>>()));
        assert!(shown.starts_with("O has:\nX has: 5\n\n"), "{shown}");
    }

    #[test]
    fn every_grid_size_follows_the_layout_rules() {
        for grid in 2..=8u8 {
            let shown = render(&State::new(grid, 5));
            let lines: Vec<&str> = shown.lines().collect();
            let n = grid as usize;
            assert_eq!(lines.len(), 4 + 2 * n + 1, "{shown}");
            let header: String = (1..=n).map(|c| format!("  {c}")).collect();
            assert_eq!(lines[3], format!(" {header}"));
            let dashes = format!("  {}", "-".repeat(3 * n));
            for row in 0..n {
                assert_eq!(lines[4 + 2 * row], dashes);
                assert_eq!(
                    lines[5 + 2 * row],
                    format!("{}|{}", row + 1, "  |".repeat(n))
                );
            }
            assert_eq!(lines[4 + 2 * n], dashes);
            assert!(lines.iter().all(|l| !l.ends_with(' ')), "{shown}");
        }
        let two = render(&State::new(2, 5));
        assert!(two.contains("\n   1  2\n  ------\n"), "{two}");
    }
}
