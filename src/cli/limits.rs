//! The bounds of what the command lines read: every number that becomes a
//! duration is checked when it is parsed (a bad one is a usage error, exit
//! code 2, before anything runs), and every input file is read with a size
//! bound that fits its format (too large, or a device or FIFO that never
//! ends, is an unreadable file, exit code 1), so that no flag and no file
//! can make a subcommand panic or read without end.

use super::CliError;
use std::io::{BufRead, Read};
use std::path::Path;

/// The longest time a flag may give, in milliseconds: a day, beyond any
/// match's time per move and far inside what a deadline can hold.
pub const MAX_TIME_MS: u64 = 86_400_000;

/// The longest clock a flag may give, in seconds: a day.
pub const MAX_CLOCK_S: f64 = 86_400.0;

/// The largest board file a harness reads (`advance`'s IN, `halma`'s
/// `input.txt`): their boards are a few hundred bytes, and this leaves room
/// for the trailing spaces and blank lines they tolerate.
pub const BOARD_FILE_CAP: u64 = 16 * 1024;

/// The largest record file the arena and the ladder read (a games log, a
/// ladder journal): far beyond a long match's log.
pub const RECORD_FILE_CAP: u64 = 256 << 20;

/// The largest ladder file `gamebot ladder --reuse` reads: a game's
/// levels with their ratings and pairs, far smaller.
pub const LADDER_FILE_CAP: u64 = 16 << 20;

/// The longest line read from standard input (`naughts`' moves, `crush
/// --ai-player`'s `K BOARD` lines, of about a hundred bytes).
pub const LINE_CAP: usize = 4096;

/// Reads a line of at most `cap` bytes without its line end (`\n` or
/// `\r\n`); `None` at the end of the input. A longer line is an error as
/// soon as it passes `cap` (so an input with no line end, `/dev/zero`,
/// ends at once), and so is one that is not UTF-8.
pub fn read_line(input: &mut impl BufRead, cap: usize) -> std::io::Result<Option<String>> {
    let invalid = |what: String| std::io::Error::new(std::io::ErrorKind::InvalidData, what);
    let mut kept = Vec::new();
    let mut read_any = false;
    loop {
        let buffer = match input.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            break;
        }
        read_any = true;
        let (end, found) = match buffer.iter().position(|&b| b == b'\n') {
            Some(at) => (at, true),
            None => (buffer.len(), false),
        };
        // One byte more for a `\r` before the `\n`, checked below.
        if kept.len() + end > cap + 1 {
            return Err(invalid(format!("a line longer than {cap} bytes")));
        }
        kept.extend_from_slice(&buffer[..end]);
        input.consume(end + usize::from(found));
        if found {
            break;
        }
    }
    if !read_any {
        return Ok(None);
    }
    if kept.last() == Some(&b'\r') {
        kept.pop();
    }
    if kept.len() > cap {
        return Err(invalid(format!("a line longer than {cap} bytes")));
    }
    String::from_utf8(kept)
        .map(Some)
        .map_err(|_| invalid("stream did not contain valid UTF-8".to_string()))
}

/// The most games a flag may ask for: far beyond any match, and small
/// enough that every count made of it fits.
pub const MAX_GAMES: usize = 1_000_000;

/// Reads a count of games from a flag: a whole number from 0 to
/// [`MAX_GAMES`]. For clap's `value_parser`.
pub fn games(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(games) if games <= MAX_GAMES => Ok(games),
        _ => Err(format!(
            "expected a number of games, a whole number from 0 to {MAX_GAMES}"
        )),
    }
}

/// Reads a time in milliseconds from a flag: a whole number from 0 to
/// [`MAX_TIME_MS`]. For clap's `value_parser`.
pub fn time_ms(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(ms) if ms <= MAX_TIME_MS => Ok(ms),
        _ => Err(format!(
            "expected milliseconds, a whole number from 0 to {MAX_TIME_MS} (a day)"
        )),
    }
}

/// Reads a game clock in seconds from a flag: a number above 0 and at most
/// [`MAX_CLOCK_S`] (so not NaN, not infinite, not negative). For clap's
/// `value_parser`.
pub fn clock_s(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= MAX_CLOCK_S => Ok(s),
        _ => Err(format!(
            "expected seconds, a number above 0 and at most {MAX_CLOCK_S} (a day)"
        )),
    }
}

/// Reads the text file `path`, at most `cap` bytes: a larger file, one
/// that never ends (`/dev/zero`) or one that is not UTF-8 is
/// [`CliError::Unreadable`], and so is a FIFO without a writer (opened
/// without waiting, it reads as empty; one with a writer that has written
/// nothing yet fails at once rather than waiting).
pub fn read_text(path: &Path, cap: u64) -> Result<String, CliError> {
    use std::os::unix::fs::OpenOptionsExt;
    let unreadable = |source| CliError::Unreadable {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(unreadable)?;
    let mut bytes = Vec::new();
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    if bytes.len() as u64 > cap {
        return Err(unreadable(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("larger than {cap} bytes, the most this file may hold"),
        )));
    }
    String::from_utf8(bytes).map_err(|_| {
        unreadable(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        ))
    })
}

/// [`read_text`], with `None` for a file that does not exist.
pub fn read_text_if_any(path: &Path, cap: u64) -> Result<Option<String>, CliError> {
    match read_text(path, cap) {
        Err(CliError::Unreadable { source, .. })
            if source.kind() == std::io::ErrorKind::NotFound =>
        {
            Ok(None)
        }
        other => other.map(Some),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_and_clocks_out_of_range_are_refused() {
        assert_eq!(time_ms("250"), Ok(250));
        assert_eq!(time_ms("86400000"), Ok(MAX_TIME_MS));
        for bad in ["86400001", "18446744073709551615", "-1", "1e3", "x"] {
            assert!(time_ms(bad).is_err(), "{bad}");
        }
        assert_eq!(games("100"), Ok(100));
        assert!(games("18446744073709551615").is_err());
        assert_eq!(clock_s("60"), Ok(60.0));
        assert_eq!(clock_s("0.5"), Ok(0.5));
        for bad in [
            "NaN", "nan", "inf", "-inf", "-1", "0", "1e30", "86400.5", "",
        ] {
            let refused = clock_s(bad).unwrap_err();
            assert!(refused.contains("at most 86400"), "{bad}: {refused}");
        }
    }

    #[test]
    fn lines_are_read_up_to_their_bound() {
        let mut input = std::io::Cursor::new(b"ab\r\ncd\nef".to_vec());
        // (`ab\r` is three bytes, the line two.)
        assert_eq!(read_line(&mut input, 2).unwrap().as_deref(), Some("ab"));
        assert_eq!(read_line(&mut input, 2).unwrap().as_deref(), Some("cd"));
        assert_eq!(read_line(&mut input, 2).unwrap().as_deref(), Some("ef"));
        assert_eq!(read_line(&mut input, 2).unwrap(), None);
        let mut long = std::io::Cursor::new(b"abc\n".to_vec());
        let error = read_line(&mut long, 2).unwrap_err();
        assert_eq!(error.to_string(), "a line longer than 2 bytes");
        let zero = std::fs::File::open("/dev/zero").unwrap();
        let mut endless = std::io::BufReader::new(zero);
        assert!(read_line(&mut endless, LINE_CAP).is_err());
        let mut bad = std::io::Cursor::new(vec![0xff, b'\n']);
        assert!(read_line(&mut bad, 10).is_err());
    }

    #[test]
    fn files_are_read_up_to_their_bound() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("in.txt");
        std::fs::write(&path, "abc").unwrap();
        assert_eq!(read_text(&path, 3).unwrap(), "abc");
        let error = read_text(&path, 2).unwrap_err();
        assert_eq!(error.exit_code(), 1);
        assert!(error.to_string().contains("larger than 2 bytes"), "{error}");
        let started = std::time::Instant::now();
        let error = read_text(Path::new("/dev/zero"), BOARD_FILE_CAP).unwrap_err();
        assert!(error.to_string().contains("larger than"), "{error}");
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
        assert!(read_text_if_any(&dir.path().join("none"), 10)
            .unwrap()
            .is_none());
        std::fs::write(&path, [0xff, 0xfe]).unwrap();
        assert!(read_text(&path, 10).is_err());
    }
}
