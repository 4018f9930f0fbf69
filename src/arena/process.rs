//! The referee's process runner: runs an outside program once, in a
//! directory of the referee's choosing, under a time limit, in a process
//! group of its own, so that neither the program nor anything it started
//! outlives the run, and with its output capped so that a chatty program
//! cannot exhaust the referee's memory.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
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
/// The program leads a new process group; when it exits or the limit
/// passes, the whole group is killed (SIGKILL) before the program is
/// reaped, so nothing it started is left running. `Err` only when the
/// program cannot be started.
pub fn run(program: &str, args: &[String], dir: &Path, limit: Duration) -> std::io::Result<Run> {
    let started = Instant::now();
    let mut child = Command::new(program)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()?;
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
    // The leader is a zombie or still running, so its pid (the group's id)
    // cannot have been reused: killing the group reaches only its members.
    // SAFETY: kill has no memory effects; a negative pid names a group.
    unsafe {
        libc::kill(-pid, libc::SIGKILL);
    }
    let status = child.wait()?;
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

/// Whether the child `pid` has exited, without reaping it.
fn has_exited(pid: libc::pid_t) -> bool {
    // SAFETY: siginfo_t is plain data, and waitid writes only into it.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        let rc = libc::waitid(
            libc::P_PID,
            pid as libc::id_t,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        );
        // An error (no such child) means there is nothing left to wait for.
        rc != 0 || info.si_pid() != 0
    }
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
}
