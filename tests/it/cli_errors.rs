//! The exit codes of every subcommand's main failures, through the real
//! binary: the table in `src/cli/mod.rs` (and the README's "Other commands"),
//! one line on stderr that starts `gamebot <command>: `, and the legacy
//! contracts' promises (Advance: non-zero and OUT untouched; Halma: 1 for a
//! bad `input.txt`, 2 for a finished game or a failed write).

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `gamebot args…` with `input` on standard input.
fn gamebot(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamebot"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the gamebot binary starts");
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = input.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("the program runs");
    // The program may stop reading before the input ends.
    let _ = writer.join().expect("the writer thread");
    output
}

/// Checks that `output` failed with `code` and one stderr line
/// `gamebot <command>: …` that contains `says`.
fn assert_fails(output: &Output, code: i32, command: &str, says: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(code), "{command}: {stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "one line on stderr: {stderr}");
    let prefix = format!("gamebot {command}: ");
    assert!(lines[0].starts_with(&prefix), "{stderr}");
    assert!(lines[0].contains(says), "expected '{says}' in: {stderr}");
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 temp path")
}

// ---------------------------------------------------------------- advance

#[test]
fn advance_usage_errors_exit_2_and_leave_out_alone() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    let out = dir.path().join("out.txt");
    std::fs::write(&input, advance_start()).unwrap();
    for (args, says) in [
        (
            vec!["advance", "blue", path(&input), path(&out)],
            "unknown first argument",
        ),
        (
            vec!["advance", "white", path(&input)],
            "expected 2 file names",
        ),
        (vec!["advance"], "usage"),
        (vec!["advance", "name", "x"], "takes no further arguments"),
        (
            vec![
                "advance",
                "white",
                path(&input),
                path(&out),
                "--level",
                "clever",
            ],
            "unknown level 'clever'",
        ),
        (
            vec![
                "advance",
                "white",
                path(&input),
                path(&out),
                "--level",
                "strong:nonsense=1",
            ],
            "nonsense",
        ),
    ] {
        assert_fails(&gamebot(&args, ""), 2, "advance", says);
        assert!(!out.exists(), "{args:?} wrote OUT");
    }
}

/// The studio's start position (kept in sync with the library's).
fn advance_start() -> String {
    use gamebot::games::advance::State;
    let text = State::start().to_text();
    assert_eq!(text.lines().count(), 9);
    text
}

#[test]
fn advance_input_errors_exit_1_and_name_the_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.txt");
    let missing = dir.path().join("missing.txt");
    assert_fails(
        &gamebot(&["advance", "white", path(&missing), path(&out)], ""),
        1,
        "advance",
        &format!("cannot read {}", missing.display()),
    );
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, advance_start().replacen('.', "x", 1)).unwrap();
    assert_fails(
        &gamebot(&["advance", "black", path(&bad), path(&out)], ""),
        1,
        "advance",
        &format!("{}: line 3, column 1", bad.display()),
    );
    assert!(!out.exists(), "an error wrote OUT");
}

#[test]
fn advance_with_nothing_to_play_or_nowhere_to_write_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.txt");
    let stuck = dir.path().join("stuck.txt");
    let board = "Z........\n.........\n.........\n.........\n.........\n\
                 .........\n.........\n.........\n........z\n";
    std::fs::write(&stuck, board).unwrap();
    assert_fails(
        &gamebot(&["advance", "white", path(&stuck), path(&out)], ""),
        2,
        "advance",
        "white has no legal move",
    );
    assert!(!out.exists());

    let good = dir.path().join("good.txt");
    std::fs::write(&good, advance_start()).unwrap();
    let nowhere = dir.path().join("no-such-dir").join("out.txt");
    assert_fails(
        &gamebot(
            &[
                "advance",
                "white",
                path(&good),
                path(&nowhere),
                "--level",
                "legal",
            ],
            "",
        ),
        2,
        "advance",
        "cannot write",
    );

    let name = gamebot(&["advance", "name"], "");
    assert_eq!(name.status.code(), Some(0));
    assert!(name.stderr.is_empty());
}

// ------------------------------------------------------------------ halma

/// The first seed example (White to win by 4,3 → 3,2), with a short clock.
const HALMA_INPUT: &str = "\
SINGLE
WHITE
1.0
WWWWW...........
WWWWW...........
WWW.............
WWW.W...........
WW..............
................
................
................
................
................
................
..........B...BB
.............BBB
.............BBB
...........BBBBB
...........BBBBB
";

fn halma_dir(input: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("input.txt"), input).unwrap();
    dir
}

fn halma(dir: &Path, more: &[&str]) -> Output {
    let mut args = vec!["halma", "--dir", path(dir)];
    args.extend_from_slice(more);
    gamebot(&args, "")
}

#[test]
fn halma_bad_or_missing_input_exits_1_naming_the_line() {
    let dir = tempfile::tempdir().unwrap();
    assert_fails(&halma(dir.path(), &[]), 1, "halma", "cannot read");
    assert!(!dir.path().join("output.txt").exists());

    let dir = halma_dir(&HALMA_INPUT.replacen("WHITE", "PURPLE", 1));
    assert_fails(&halma(dir.path(), &[]), 1, "halma", "line 2");
    assert!(!dir.path().join("output.txt").exists());

    let dir = halma_dir(&HALMA_INPUT.replacen("WWW.W", "WWW.X", 1));
    let output = halma(dir.path(), &[]);
    assert_fails(&output, 1, "halma", "input.txt: ");
    assert_fails(&output, 1, "halma", "line 7");
}

#[test]
fn halma_finished_game_or_failed_write_exits_2() {
    // White's winning move played: the game is over, black has nothing to play.
    let finished = HALMA_INPUT
        .replacen("WHITE", "BLACK", 1)
        .replacen("WWW.............", "WWWW............", 1)
        .replacen("WWW.W...........", "WWW.............", 1);
    let dir = halma_dir(&finished);
    assert_fails(&halma(dir.path(), &[]), 2, "halma", "the game is over");
    assert!(!dir.path().join("output.txt").exists());

    let dir = halma_dir(HALMA_INPUT);
    std::fs::create_dir(dir.path().join("output.txt")).unwrap();
    assert_fails(
        &halma(dir.path(), &["--level", "random"]),
        2,
        "halma",
        "cannot write",
    );
}

#[test]
fn halma_bad_arguments_exit_2_and_a_good_input_exits_0() {
    let dir = halma_dir(HALMA_INPUT);
    assert_fails(
        &halma(dir.path(), &["--camp-rule", "strict"]),
        2,
        "halma",
        "expected referee or basic",
    );
    assert_fails(
        &halma(dir.path(), &["--level", "clever"]),
        2,
        "halma",
        "unknown level 'clever'",
    );
    assert!(!dir.path().join("output.txt").exists());
    let ok = halma(dir.path(), &[]);
    assert_eq!(
        ok.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let answer = std::fs::read_to_string(dir.path().join("output.txt")).unwrap();
    assert_eq!(answer.trim_end(), "E 4,3 3,2");
}

// ---------------------------------------------------------------- naughts

#[test]
fn naughts_unknown_level_exits_2_and_clap_refusals_too() {
    assert_fails(
        &gamebot(&["naughts", "--vs", "oracle"], ""),
        2,
        "naughts",
        "unknown level 'oracle'",
    );
    let clap = gamebot(&["naughts", "--grid-size", "9"], "");
    assert_eq!(clap.status.code(), Some(2));
    let ok = gamebot(&["naughts"], "");
    assert_eq!(ok.status.code(), Some(0));
    assert!(ok.stderr.is_empty());
}

#[test]
fn naughts_ends_quietly_when_its_output_is_closed() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamebot"))
        .arg("naughts")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The program waits for its first move; the reading end is closed
    // before it comes, so the help it asks for cannot be written.
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all("h\n".repeat(20).as_bytes()));
    let output = child.wait_with_output().unwrap();
    let _ = writer.join().unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.stderr.is_empty());
}

// ------------------------------------------------------------------ crush

#[test]
fn crush_bad_arguments_exit_2() {
    assert_fails(
        &gamebot(&["crush", "--bot", "clever"], ""),
        2,
        "crush",
        "unknown level 'clever'",
    );
    assert_fails(
        &gamebot(&["crush", "--bot", "strong:depth=99"], ""),
        2,
        "crush",
        "depth",
    );
    assert_fails(
        &gamebot(
            &["crush", "--benchmark", "--ks", "9", "--levels", "greedy"],
            "",
        ),
        2,
        "crush",
        "k must be 4..=7, got 9",
    );
    assert_fails(
        &gamebot(
            &["crush", "--benchmark", "--levels", "strong:rounds=50"],
            "",
        ),
        2,
        "crush",
        "rounds",
    );
}

#[test]
fn crush_output_that_cannot_be_written_exits_1() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamebot"))
        .arg("crush")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The program waits for its first swap; the reading end is closed
    // before it comes, so what the swap prints cannot be written.
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"3040\n").unwrap();
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    assert_fails(&output, 1, "crush", "Broken pipe");
}

// ------------------------------------------------------------------ arena

#[test]
fn arena_bad_arguments_exit_2() {
    for (args, says) in [
        (
            vec!["arena", "chess", "--a", "random", "--b", "random"],
            "no game 'chess'",
        ),
        (
            vec!["arena", "reversi", "--a", "nope", "--b", "random"],
            "unknown level 'nope'",
        ),
        (
            vec![
                "arena",
                "crush",
                "--a",
                "random",
                "--b",
                "random",
                "--clock-s",
                "5",
            ],
            "--clock-s is for two-player games",
        ),
        (
            vec![
                "arena",
                "naughts",
                "--a",
                "random",
                "--b",
                "random",
                "--options",
                "[1]",
            ],
            "--options must be a JSON object",
        ),
    ] {
        assert_fails(&gamebot(&args, ""), 2, "arena", says);
    }
}

#[test]
fn arena_games_log_that_cannot_be_written_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("no-such-dir").join("games.jsonl");
    let output = gamebot(
        &[
            "arena",
            "naughts",
            "--a",
            "random",
            "--b",
            "random",
            "--games",
            "2",
            "--threads",
            "1",
            "--games-log",
            path(&log),
        ],
        "",
    );
    assert_fails(&output, 2, "arena", "cannot write");
}

// ------------------------------------------------------------------ serve

#[test]
fn serve_bad_address_exits_2_and_a_taken_port_exits_1() {
    assert_fails(
        &gamebot(&["serve", "--bind", "not-an-address"], ""),
        2,
        "serve",
        "cannot use 'not-an-address'",
    );
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    assert_fails(
        &gamebot(&["serve", "--bind", &addr], ""),
        1,
        "serve",
        &format!("cannot listen on {addr}"),
    );
}

#[test]
fn serve_refuses_an_origin_that_could_never_match_and_exits_2() {
    let flag = gamebot(
        &[
            "serve",
            "--bind",
            "not-an-address",
            "--cors-origin",
            "https://play.example.com/",
        ],
        "",
    );
    assert_eq!(flag.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&flag.stderr);
    assert!(
        stderr.contains("an origin has no path, so leave out '/': 'https://play.example.com'"),
        "{stderr}"
    );
    let env = Command::new(env!("CARGO_BIN_EXE_gamebot"))
        // A bad address too, so that a server that wrongly started would
        // stop at once instead of serving.
        .args(["serve", "--bind", "not-an-address"])
        .env("GAMEBOT_CORS_ORIGINS", "https://a.example,*")
        .output()
        .expect("the gamebot binary runs");
    assert_eq!(env.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&env.stderr);
    assert!(stderr.contains("'*' is not accepted"), "{stderr}");
}

// ------------------------------------------------ numbers and input sizes

/// Checks that clap refused `flag`'s value with exit code 2 and the range.
fn assert_refused_flag(output: &Output, flag: &str, range: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{flag}: {stderr}");
    assert!(stderr.contains("invalid value"), "{flag}: {stderr}");
    assert!(stderr.contains(flag), "{flag}: {stderr}");
    assert!(stderr.contains(range), "{flag}: {stderr}");
}

#[test]
fn clocks_that_are_no_duration_exit_2_with_a_message() {
    for flag in ["--clock-s", "--a-clock-s", "--b-clock-s"] {
        for value in ["NaN", "inf", "-1", "1e30", "0"] {
            let given = format!("{flag}={value}");
            let args = ["arena", "halma", "--a", "random", "--b", "random", &given];
            assert_refused_flag(&gamebot(&args, ""), flag, "at most 86400");
        }
    }
}

#[test]
fn times_beyond_a_day_exit_2_with_a_message() {
    let huge = "18446744073709551615";
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    let out = dir.path().join("out.txt");
    std::fs::write(&input, advance_start()).unwrap();
    let arena = |flag: &'static str| {
        vec![
            "arena", "advance", "--a", "greedy", "--b", "greedy", flag, huge,
        ]
    };
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (arena("--time-ms"), "--time-ms"),
        (arena("--a-time-ms"), "--a-time-ms"),
        (arena("--b-time-ms"), "--b-time-ms"),
        (arena("--grace-ms"), "--grace-ms"),
        (vec!["ladder", "naughts", "--time-ms", huge], "--time-ms"),
        (
            vec![
                "advance",
                "white",
                path(&input),
                path(&out),
                "--time-ms",
                huge,
            ],
            "--time-ms",
        ),
        (vec!["naughts", "--bot-time-ms", huge], "--bot-time-ms"),
        (vec!["crush", "--time-ms", huge], "--time-ms"),
    ];
    for (args, flag) in cases {
        assert_refused_flag(&gamebot(&args, ""), flag, "from 0 to 86400000");
    }
    // A count of games that no match could hold.
    for args in [
        vec![
            "arena", "naughts", "--a", "random", "--b", "random", "--games", huge,
        ],
        vec!["ladder", "naughts", "--games", huge],
        vec!["ladder", "naughts", "--max-games", huge],
    ] {
        let flag = args[args.len() - 2];
        assert_refused_flag(&gamebot(&args, ""), flag, "from 0 to 1000000");
    }
    assert!(!out.exists(), "an error wrote OUT");
}

#[test]
fn a_halma_clock_that_is_no_duration_exits_1_naming_line_3() {
    for clock in ["1e30", "86401", "NaN", "inf", "-1"] {
        let dir = halma_dir(&HALMA_INPUT.replacen("1.0", clock, 1));
        let output = halma(dir.path(), &["--level", "strong"]);
        assert_fails(&output, 1, "halma", "line 3");
        assert!(!dir.path().join("output.txt").exists(), "{clock}");
    }
}

#[test]
fn an_endless_input_file_exits_1_at_once_and_leaves_out_alone() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.txt");
    let started = std::time::Instant::now();
    let output = gamebot(&["advance", "white", "/dev/zero", path(&out)], "");
    assert_fails(&output, 1, "advance", "cannot read /dev/zero: larger than");
    assert!(!out.exists(), "an error wrote OUT");
    // A Halma input.txt that never ends, too.
    let halma_dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink("/dev/zero", halma_dir.path().join("input.txt")).unwrap();
    assert_fails(&halma(halma_dir.path(), &[]), 1, "halma", "larger than");
    assert!(!halma_dir.path().join("output.txt").exists());
    // A FIFO nobody writes to reads as empty instead of waiting.
    let fifo = dir.path().join("fifo");
    let name = std::ffi::CString::new(path(&fifo)).unwrap();
    // SAFETY: a NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
    let output = gamebot(&["advance", "white", path(&fifo), path(&out)], "");
    assert_eq!(output.status.code(), Some(1));
    assert!(!out.exists(), "an error wrote OUT");
    // A ladder file to reuse, the same.
    let ladder = dir.path().join("ladder.json");
    let args = [
        "ladder",
        "naughts",
        "--reuse",
        "/dev/zero",
        "--out",
        path(&ladder),
    ];
    assert_fails(&gamebot(&args, ""), 1, "ladder", "larger than");
    assert!(!ladder.exists());
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
}

#[test]
fn standard_input_without_line_ends_exits_1_at_once() {
    let started = std::time::Instant::now();
    for args in [vec!["naughts"], vec!["crush", "--ai-player"]] {
        let zero = std::fs::File::open("/dev/zero").unwrap();
        let output = Command::new(env!("CARGO_BIN_EXE_gamebot"))
            .args(&args)
            .stdin(zero)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_fails(&output, 1, args[0], "a line longer than 4096 bytes");
    }
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
}
