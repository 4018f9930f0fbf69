//! The referee's process handling for outside programs, so that neither a
//! program nor anything it started outlives its turn or its game, and a
//! chatty program cannot exhaust the referee's memory:
//!
//! - [`run`]: runs a program once (a board-file or working-folder move), in
//!   a directory of the referee's choosing, under a time limit, in a process
//!   group of its own under a keeper ([`super::contain`]) that kills its
//!   whole tree, `setsid` children and double forks included, with its
//!   output capped;
//! - [`LineChild`]: a program kept running for a game and talked to in
//!   lines (a GTP engine, a crush `ai_player`), also in its own group and
//!   fresh directory, killed with its group when it fails or is dropped;
//! - [`Program`]: how the arena's command line names a program, and
//!   [`FreshDir`]: the fresh directory each one runs in, removed with the
//!   programs when a signal stops the referee;
//! - [`read_output`]: reads a file a program was to write, refusing
//!   anything but a regular file (a FIFO would hang the referee), capped.

use super::contain;

mod line_child;

pub use line_child::{LineChild, LineFailure};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

/// The most of a program's stdout (and, separately, stderr) that is kept;
/// the rest is read and dropped.
pub const OUTPUT_CAP: usize = 64 * 1024;

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The program exited with this code.
    Exited(i32),
    /// A signal ended the program.
    Signalled(i32),
    /// The program was still running at the limit and was killed with its group.
    TimedOut(Duration),
}

impl Ending {
    /// Why the run failed, in the referee's words (`exit code 1`,
    /// `timeout after 250 ms`, `killed by signal 9`); `None` for exit code 0.
    pub fn failure(&self) -> Option<String> {
        match self {
            Ending::Exited(0) => None,
            Ending::Exited(code) => Some(format!("exit code {code}")),
            Ending::Signalled(signal) => Some(format!("killed by signal {signal}")),
            Ending::TimedOut(limit) => Some(format!("timeout after {} ms", limit.as_millis())),
        }
    }
}

/// What a run produced.
#[derive(Clone, Debug)]
pub struct Run {
    /// How it ended.
    pub ending: Ending,
    /// Its stdout, at most [`OUTPUT_CAP`] bytes.
    pub stdout: Vec<u8>,
    /// Its stderr, at most [`OUTPUT_CAP`] bytes.
    pub stderr: Vec<u8>,
    /// The wall time from start to exit (or to the kill).
    pub elapsed: Duration,
}

/// Runs `program` with `args` in `dir`, stdin empty, for at most `limit`.
/// The program runs under a keeper leading a new process group; when it
/// exits or the limit passes, the keeper kills everything the program
/// started (whatever session or group it moved to), and the group is
/// killed (SIGKILL) before the keeper is reaped, so nothing it started is
/// left running. `Err` only when the program cannot be started.
pub fn run(program: &str, args: &[String], dir: &Path, limit: Duration) -> std::io::Result<Run> {
    let started = Instant::now();
    let mut command = Command::new(program);
    command
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = PROGRAMS.spawn(command)?;
    let pid = child.id() as libc::pid_t;
    let stdout = capture(child.stdout.take());
    let stderr = capture(child.stderr.take());
    let deadline = started + limit;
    let mut timed_out = false;
    let mut pause = Duration::from_micros(200);
    loop {
        if has_exited(pid) {
            break;
        }
        let now = Instant::now();
        if now >= deadline {
            timed_out = true;
            break;
        }
        std::thread::sleep(pause.min(deadline - now));
        pause = (pause * 2).min(Duration::from_millis(5));
    }
    let elapsed = started.elapsed();
    stop(pid);
    PROGRAMS.untrack(pid);
    let status = child.wait();
    PROGRAMS.reaped(pid);
    let status = status?;
    let ending = if timed_out {
        Ending::TimedOut(limit)
    } else {
        use std::os::unix::process::ExitStatusExt;
        match (status.code(), status.signal()) {
            (Some(code), _) => Ending::Exited(code),
            (None, Some(signal)) => Ending::Signalled(signal),
            (None, None) => Ending::Exited(-1),
        }
    };
    Ok(Run {
        ending,
        stdout: collect(stdout),
        stderr: collect(stderr),
        elapsed,
    })
}

/// How long a keeper may take to empty its program's tree once asked.
const KEEPER_WAIT: Duration = Duration::from_secs(2);

/// Ends the program whose keeper is the child `pid` (not yet reaped, so
/// the pid, its group's id, cannot have been reused): asks the keeper to
/// kill the program's tree and waits for it a moment, then kills the group
/// (SIGKILL), which reaches whatever is left in it.
fn stop(pid: libc::pid_t) {
    if !has_exited(pid) {
        // SAFETY: kill has no memory effects. SIGCONT wakes a keeper its
        // program stopped, to take the request.
        unsafe {
            libc::kill(pid, libc::SIGTERM);
            libc::kill(pid, libc::SIGCONT);
        }
        wait_for_exit(&[pid], KEEPER_WAIT);
    }
    // SAFETY: kill has no memory effects; a negative pid names a group.
    unsafe {
        libc::kill(-pid, libc::SIGKILL);
    }
}

/// Waits until every child in `pids` has exited (unreaped), or `limit`.
fn wait_for_exit(pids: &[libc::pid_t], limit: Duration) {
    let until = Instant::now() + limit;
    while pids.iter().any(|&pid| !has_exited(pid)) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// The programs running now and the fresh directories in use, so that a
/// signal that stops the referee ends the programs and removes the
/// directories too.
struct Live {
    /// Set once the referee is stopping: no program starts, and no
    /// directory is made, after it.
    stopping: bool,
    /// The running programs' keepers (each the leader of its group).
    leaders: Vec<libc::pid_t>,
    /// Keepers that have ended and are about to be reaped.
    closing: Vec<libc::pid_t>,
    /// The fresh directories not yet removed.
    dirs: Vec<PathBuf>,
}

/// The registry of running programs, one lock around [`Live`].
struct Registry(Mutex<Live>);

impl Registry {
    const fn new() -> Registry {
        Registry(Mutex::new(Live {
            stopping: false,
            leaders: Vec::new(),
            closing: Vec::new(),
            dirs: Vec::new(),
        }))
    }

    fn live(&self) -> std::sync::MutexGuard<'_, Live> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Starts `command` leading a group of its own and tracks it, both
    /// under the lock [`Registry::kill_all`] takes: a program is either
    /// started and tracked before the referee stops, and killed by it, or
    /// never started. (Tracking after the start left a moment in which a
    /// stopping referee missed a program that went on to start children.)
    fn spawn(&self, mut command: Command) -> std::io::Result<Child> {
        let mut live = self.live();
        if live.stopping {
            return Err(std::io::Error::new(
                std::io::ErrorKind::Interrupted,
                "the referee is stopping",
            ));
        }
        let child = contain::kept(&mut command).spawn()?;
        live.leaders.push(child.id() as libc::pid_t);
        Ok(child)
    }

    /// Called after the group is killed and before the leader is reaped,
    /// so the pid cannot have been reused meanwhile.
    fn untrack(&self, pid: libc::pid_t) {
        let mut live = self.live();
        live.leaders.retain(|&leader| leader != pid);
        live.closing.push(pid);
    }

    /// Called once the keeper `pid` is reaped: forgets it, and ends what
    /// programs left behind in this process's care
    /// ([`contain::sweep_orphans`]).
    fn reaped(&self, pid: libc::pid_t) {
        let mut live = self.live();
        live.closing.retain(|&keeper| keeper != pid);
        if contain::adopting() {
            let keepers = [live.leaders.as_slice(), live.closing.as_slice()].concat();
            contain::sweep_after(pid, &keepers);
        }
    }

    /// Ends every program still running (its keeper empties its tree,
    /// then its group is killed), keeps any other from starting, and
    /// removes every fresh directory.
    fn kill_all(&self) {
        Registry::end(&mut self.live());
    }

    /// [`Registry::kill_all`] under a lock already held.
    fn end(live: &mut Live) {
        live.stopping = true;
        for &pid in &live.leaders {
            // SAFETY: kill has no memory effects; the keepers are not
            // reaped while tracked, so each pid still names its process.
            unsafe {
                libc::kill(pid, libc::SIGTERM);
                libc::kill(pid, libc::SIGCONT);
            }
        }
        wait_for_exit(&live.leaders, KEEPER_WAIT);
        for &pid in &live.leaders {
            // SAFETY: as above; a negative pid names the group.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
        let keepers = [live.leaders.as_slice(), live.closing.as_slice()].concat();
        contain::sweep_orphans(&keepers);
        for dir in live.dirs.drain(..) {
            std::fs::remove_dir_all(dir).ok();
        }
    }

    /// Notes a fresh directory made by `make`, under the lock, unless the
    /// referee is stopping.
    fn make_dir(&self, path: PathBuf) -> std::io::Result<PathBuf> {
        let mut live = self.live();
        if live.stopping {
            return Err(std::io::Error::new(
                std::io::ErrorKind::Interrupted,
                "the referee is stopping",
            ));
        }
        std::fs::create_dir(&path)?;
        live.dirs.push(path.clone());
        Ok(path)
    }

    /// Removes a fresh directory and forgets it.
    fn remove_dir(&self, path: &Path) {
        let mut live = self.live();
        std::fs::remove_dir_all(path).ok();
        live.dirs.retain(|dir| dir != path);
    }
}

/// The referee's running programs.
static PROGRAMS: Registry = Registry::new();

/// Ends every program still running with everything it started, keeps
/// any other from starting, and removes the fresh directories: for a
/// referee about to exit.
pub fn kill_all() {
    PROGRAMS.kill_all();
}

/// Makes the referee's programs stop with it: on SIGINT (Ctrl-C, which
/// never reaches them in their own groups), SIGTERM or SIGHUP, every
/// running program is ended with its whole tree, the fresh directories
/// are removed, and the process exits with 128 plus the signal, as a shell
/// reports it. For the commands that run programs.
///
/// It also makes the process adopt what a program leaves behind when it
/// kills its own keeper ([`contain::adopt_orphans`]), to end it.
pub fn end_programs_on_signals() -> std::io::Result<()> {
    use signal_hook::consts::signal::{SIGHUP, SIGINT, SIGTERM};
    contain::adopt_orphans()?;
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            // The lock is held to the exit: a game whose program was just
            // ended cannot go on, finish the match and exit first.
            let mut live = PROGRAMS.live();
            Registry::end(&mut live);
            std::process::exit(128 + signal);
        }
    });
    Ok(())
}

/// What `waitid` says of the child `pid` without reaping it (so its pid,
/// its group's id, stays reserved): `Err` when there is no such child,
/// `Ok(None)` while it runs, else how it ended.
fn peek(pid: libc::pid_t) -> Result<Option<Ending>, ()> {
    // SAFETY: siginfo_t is plain data, and waitid writes only into it.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        let rc = libc::waitid(
            libc::P_PID,
            pid as libc::id_t,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        );
        if rc != 0 {
            return Err(());
        }
        if info.si_pid() == 0 {
            return Ok(None);
        }
        Ok(Some(match info.si_code {
            libc::CLD_EXITED => Ending::Exited(info.si_status()),
            _ => Ending::Signalled(info.si_status()),
        }))
    }
}

/// Whether the child `pid` has exited, without reaping it.
fn has_exited(pid: libc::pid_t) -> bool {
    // An error (no such child) means there is nothing left to wait for.
    !matches!(peek(pid), Ok(None))
}

/// Reads a pipe to its end on a thread of its own, keeping the first
/// [`OUTPUT_CAP`] bytes; the result comes on the channel.
fn capture(pipe: Option<impl Read + Send + 'static>) -> mpsc::Receiver<Vec<u8>> {
    let (send, receive) = mpsc::channel();
    if let Some(mut pipe) = pipe {
        std::thread::spawn(move || {
            let mut kept = Vec::new();
            let mut chunk = [0u8; 8192];
            while let Ok(n) = pipe.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                let room = OUTPUT_CAP - kept.len();
                kept.extend_from_slice(&chunk[..n.min(room)]);
            }
            send.send(kept).ok();
        });
    } else {
        send.send(Vec::new()).ok();
    }
    receive
}

/// What a capture thread kept; a pipe still held open by a process that
/// escaped the group is given up on after a moment.
fn collect(receive: mpsc::Receiver<Vec<u8>>) -> Vec<u8> {
    receive
        .recv_timeout(Duration::from_millis(200))
        .unwrap_or_default()
}

/// How long `PATH ARGS name` may take.
const NAME_LIMIT: Duration = Duration::from_secs(2);

/// `path` made absolute when it is relative and names a directory part.
fn from_here(path: String) -> String {
    let relative = Path::new(&path);
    if relative.is_absolute() || !path.contains('/') {
        return path;
    }
    std::env::current_dir()
        .map(|here| here.join(relative).to_string_lossy().into_owned())
        .unwrap_or(path)
}

/// An argument made absolute when it is a relative path with a directory
/// part that exists from here (`docs/examples/bot.py`), since the program
/// runs in a fresh directory where it would name nothing.
fn arg_from_here(arg: String) -> String {
    if arg.starts_with('-') || !Path::new(&arg).exists() {
        return arg;
    }
    from_here(arg)
}

/// An outside program: its path and the arguments that come before the
/// contract's own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// The program to run.
    pub path: String,
    /// Its leading arguments.
    pub args: Vec<String>,
}

impl Program {
    /// Reads `PATH [ARGS…]` (split at whitespace, no quoting). A relative
    /// path with a `/` is taken from the directory the arena runs in, as a
    /// shell would, since the program itself runs in a fresh directory; a
    /// bare name is looked up on `PATH`. So is an argument that is a
    /// relative path with a `/` to a file that exists from here (a script
    /// given to an interpreter: `python3 bots/mine.py`).
    pub fn parse(text: &str) -> Result<Program, String> {
        let mut words = text.split_whitespace().map(str::to_string);
        let path = words
            .next()
            .ok_or_else(|| "expected a program after the prefix".to_string())?;
        Ok(Program {
            path: from_here(path),
            args: words.map(arg_from_here).collect(),
        })
    }

    /// The program's name as it gives it (`PATH ARGS name`, the first line
    /// of its output, at most 32 printable characters), or its path when
    /// it gives none.
    pub fn name(&self) -> String {
        let dir = std::env::temp_dir();
        let mut args = self.args.clone();
        args.push("name".to_string());
        let given = run(&self.path, &args, &dir, NAME_LIMIT)
            .ok()
            .filter(|run| run.ending.failure().is_none())
            .and_then(|run| {
                let text = String::from_utf8_lossy(&run.stdout).into_owned();
                let line = text.lines().next()?.trim().to_string();
                let printable = line.chars().all(|c| (' '..='~').contains(&c));
                (!line.is_empty() && line.len() <= 32 && printable).then_some(line)
            });
        given.unwrap_or_else(|| self.path.clone())
    }
}

impl std::fmt::Display for Program {
    /// The path and the arguments, as the command line gave them.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.path)?;
        self.args.iter().try_for_each(|arg| write!(f, " {arg}"))
    }
}

/// A fresh directory under the system's temporary directory, removed on drop.
pub struct FreshDir(PathBuf);

impl FreshDir {
    /// Makes one, noted so that a signal stopping the referee removes it
    /// ([`end_programs_on_signals`]); `Err` once the referee is stopping.
    pub fn new() -> std::io::Result<FreshDir> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let path = std::env::temp_dir().join(format!(
            "gamebot-referee-{}-{}-{:08x}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed),
            rand::random::<u32>()
        ));
        PROGRAMS.make_dir(path).map(FreshDir)
    }

    /// Where it is.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for FreshDir {
    fn drop(&mut self) {
        PROGRAMS.remove_dir(&self.0);
    }
}

/// Why a program's output file could not be read.
#[derive(Debug, PartialEq, Eq)]
pub enum OutputFile {
    /// There is none.
    Missing,
    /// The path names something else than a regular file (`a FIFO`, `a
    /// symbolic link`, `a directory`, `a device`, `a socket`), which the
    /// referee refuses without opening: a FIFO's open would wait for a
    /// writer for ever, a device may never end.
    NotAFile(&'static str),
    /// Reading it failed.
    Unreadable(String),
}

impl std::fmt::Display for OutputFile {
    /// The forfeit's words, after the file's name: `is not a regular file
    /// (a FIFO)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OutputFile::Missing => write!(f, "is missing"),
            OutputFile::NotAFile(kind) => write!(f, "is not a regular file ({kind})"),
            OutputFile::Unreadable(e) => write!(f, "cannot be read: {e}"),
        }
    }
}

/// Reads a file a program was to write, at most [`OUTPUT_CAP`] bytes: only
/// a regular file (not followed through a symbolic link), opened without
/// blocking. Called once the program's tree is gone, so nothing can swap
/// the file between the check and the read.
pub fn read_output(path: &Path) -> Result<Vec<u8>, OutputFile> {
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    let metadata = match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(OutputFile::Missing),
        Err(e) => return Err(OutputFile::Unreadable(e.to_string())),
        Ok(metadata) => metadata,
    };
    let kind = metadata.file_type();
    if !kind.is_file() {
        return Err(OutputFile::NotAFile(if kind.is_fifo() {
            "a FIFO"
        } else if kind.is_symlink() {
            "a symbolic link"
        } else if kind.is_dir() {
            "a directory"
        } else if kind.is_socket() {
            "a socket"
        } else {
            "a device"
        }));
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW)
        .open(path)
        .map_err(|e| OutputFile::Unreadable(e.to_string()))?;
    let mut text = Vec::new();
    file.take(OUTPUT_CAP as u64)
        .read_to_end(&mut text)
        .map_err(|e| OutputFile::Unreadable(e.to_string()))?;
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str, limit_ms: u64) -> Run {
        let args = vec!["-c".to_string(), script.to_string()];
        run(
            "/bin/sh",
            &args,
            &std::env::temp_dir(),
            Duration::from_millis(limit_ms),
        )
        .unwrap()
    }

    #[test]
    fn reports_exit_codes_and_output() {
        let ok = sh("echo hello; echo oops >&2", 5000);
        assert_eq!(ok.ending, Ending::Exited(0));
        assert_eq!(ok.ending.failure(), None);
        assert_eq!(ok.stdout, b"hello\n");
        assert_eq!(ok.stderr, b"oops\n");
        let failed = sh("exit 3", 5000);
        assert_eq!(failed.ending.failure().as_deref(), Some("exit code 3"));
    }

    #[test]
    fn kills_a_hanging_program_at_the_limit() {
        let run = sh("sleep 30", 100);
        assert_eq!(run.ending, Ending::TimedOut(Duration::from_millis(100)));
        assert_eq!(
            run.ending.failure().as_deref(),
            Some("timeout after 100 ms")
        );
        assert!(run.elapsed < Duration::from_secs(5), "{:?}", run.elapsed);
    }

    #[test]
    fn caps_output() {
        let run = sh("yes xxxxxxxx | head -c 1000000", 10_000);
        assert_eq!(run.ending, Ending::Exited(0));
        assert_eq!(run.stdout.len(), OUTPUT_CAP);
    }

    #[test]
    fn a_missing_program_is_an_error() {
        let dir = std::env::temp_dir();
        assert!(run("/no/such/program", &[], &dir, Duration::from_secs(1)).is_err());
    }

    #[test]
    fn reads_programs() {
        let program = Program::parse("  /bin/bot  advance --level greedy ").unwrap();
        assert_eq!(program.path, "/bin/bot");
        assert_eq!(program.args, ["advance", "--level", "greedy"]);
        assert!(Program::parse("  ").is_err());
        // The program runs in a fresh folder, so a relative path is taken
        // from where the arena runs; a bare name is left for PATH.
        let here = std::env::current_dir().unwrap();
        let relative = Program::parse("target/debug/gamebot advance").unwrap();
        assert_eq!(
            relative.path,
            here.join("target/debug/gamebot").to_string_lossy()
        );
        assert_eq!(Program::parse("gamebot").unwrap().path, "gamebot");
        // So is a script given to an interpreter, when it exists from here.
        let script = Program::parse("python3 tests/data/mod.rs no/such/file -x").unwrap();
        assert_eq!(
            script.args,
            [
                here.join("tests/data/mod.rs")
                    .to_string_lossy()
                    .into_owned(),
                "no/such/file".to_string(),
                "-x".to_string()
            ]
        );
    }

    #[test]
    fn a_program_without_name_is_named_by_its_path() {
        let program = Program::parse("/bin/false").unwrap();
        assert_eq!(program.name(), "/bin/false");
        let program = Program::parse("/bin/echo my-bot").unwrap();
        assert_eq!(program.name(), "my-bot name");
    }

    /// A tag no other run shares, to find a test's processes by.
    pub(super) fn tag(what: &str) -> String {
        format!(
            "gamebot-process-test-{what}-{}-{:08x}",
            std::process::id(),
            rand::random::<u32>()
        )
    }

    /// Processes whose command line mentions `tag`, after a moment for
    /// the dying to go.
    pub(super) fn left_with(tag: &str) -> Vec<String> {
        let until = Instant::now() + Duration::from_secs(2);
        loop {
            let mut found = Vec::new();
            for entry in std::fs::read_dir("/proc").unwrap().flatten() {
                if let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) {
                    let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
                    if cmdline.contains(tag) {
                        found.push(cmdline);
                    }
                }
            }
            if found.is_empty() || Instant::now() > until {
                return found;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    #[test]
    fn nothing_a_move_started_outlives_it_whatever_session_it_moved_to() {
        // A child in a session of its own, a double fork, and a grandchild
        // of a background subshell, each left sleeping when the move ends.
        let t = tag("setsid");
        let escapes = format!(
            "setsid sh -c 'sleep 1000; :' {t}-a & \
             ( setsid sh -c 'sleep 1000; :' {t}-b & ) ; \
             ( sh -c 'sleep 1000; :' {t}-c & ) ; sleep 0.2; echo moved"
        );
        let started = Instant::now();
        let run = sh(&escapes, 10_000);
        assert_eq!(run.ending, Ending::Exited(0));
        assert_eq!(run.stdout, b"moved\n");
        assert!(run.elapsed < Duration::from_secs(5), "{:?}", run.elapsed);
        assert!(started.elapsed() < Duration::from_secs(5));
        assert_eq!(left_with(&t), Vec::<String>::new());
        // And at the limit, while the program still runs.
        let t = tag("setsid-timeout");
        let run = sh(&format!("setsid sh -c 'sleep 1000; :' {t} & sleep 30"), 300);
        assert_eq!(run.ending, Ending::TimedOut(Duration::from_millis(300)));
        assert_eq!(left_with(&t), Vec::<String>::new());
    }

    #[test]
    fn a_program_that_stops_its_keeper_is_still_ended_whole() {
        let t = tag("stopped-keeper");
        let script = format!("setsid sh -c 'sleep 1000; :' {t} & kill -STOP $PPID; sleep 30");
        let started = Instant::now();
        let run = sh(&script, 300);
        assert_eq!(run.ending, Ending::TimedOut(Duration::from_millis(300)));
        assert!(started.elapsed() < KEEPER_WAIT, "{:?}", started.elapsed());
        assert_eq!(left_with(&t), Vec::<String>::new());
    }

    #[test]
    fn the_status_of_a_program_is_its_own_not_its_keepers() {
        assert_eq!(sh("kill -SEGV $$", 5000).ending, Ending::Signalled(11));
        assert_eq!(sh("exit 7", 5000).ending, Ending::Exited(7));
        // A signal to its own group ends the program, not its keeper.
        let run = sh(
            "kill -INT 0; kill -TERM 0; kill -HUP 0; sleep 0.1; exit 4",
            5000,
        );
        assert!(
            matches!(run.ending, Ending::Signalled(_)),
            "{:?}",
            run.ending
        );
    }

    #[test]
    fn output_files_must_be_regular_files() {
        let dir = FreshDir::new().unwrap();
        let path = dir.path().join("OUT");
        assert_eq!(read_output(&path), Err(OutputFile::Missing));
        let fifo = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
        // SAFETY: a NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
        let started = Instant::now();
        assert_eq!(read_output(&path), Err(OutputFile::NotAFile("a FIFO")));
        assert!(started.elapsed() < Duration::from_secs(1));
        std::fs::remove_file(&path).unwrap();
        std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
        let refused = read_output(&path).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "is not a regular file (a symbolic link)"
        );
        std::fs::remove_file(&path).unwrap();
        std::fs::write(&path, vec![b'x'; 2 * OUTPUT_CAP]).unwrap();
        assert_eq!(read_output(&path).unwrap().len(), OUTPUT_CAP);
        let gone = dir.path().to_path_buf();
        drop(dir);
        assert!(!gone.exists());
    }

    #[test]
    fn a_stopped_registry_kills_its_programs_and_starts_no_more() {
        let registry = Registry::new();
        let mut sleeper = Command::new("/bin/sh");
        sleeper.args(["-c", "sleep 30"]);
        let mut child = registry.spawn(sleeper).unwrap();
        let started = Instant::now();
        registry.kill_all();
        let status = child.wait().unwrap();
        assert!(!status.success(), "{status:?}");
        assert!(started.elapsed() < KEEPER_WAIT, "{:?}", started.elapsed());
        let refused = registry.spawn(Command::new("/bin/true")).unwrap_err();
        assert_eq!(refused.kind(), std::io::ErrorKind::Interrupted);
    }
}
