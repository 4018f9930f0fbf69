//! Programs kept running for a game and talked to in lines (a GTP engine,
//! a crush `ai_player`): [`LineChild`], in a fresh directory and a process
//! group of its own, killed with its group when it fails or is dropped.

use super::{peek, stop, Ending, FreshDir, Program, PROGRAMS};
use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The longest line kept from a [`LineChild`] (the rest of it is dropped).
const LINE_CAP: usize = 1024;

/// Why talking to a [`LineChild`] failed.
#[derive(Debug)]
pub enum LineFailure {
    /// No line within the limit.
    Timeout(Duration),
    /// The program closed its output (exited or crashed).
    Quit,
    /// A line could not be written to it.
    Write(std::io::Error),
}

/// A program kept running and talked to in lines on its stdin and stdout,
/// in a fresh directory and a process group of its own (stderr dropped).
/// Any failure kills it with its group, and so does dropping it.
pub struct LineChild {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
    alive: bool,
    /// How the program ended by itself (`exit code 1`), once known.
    ended: Option<String>,
    _dir: FreshDir,
}

impl LineChild {
    /// Starts `program` with its arguments. `Err` when it cannot be started.
    pub fn spawn(program: &Program) -> std::io::Result<LineChild> {
        let dir = FreshDir::new()?;
        let mut command = Command::new(&program.path);
        command
            .args(&program.args)
            .current_dir(dir.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let mut child = PROGRAMS.spawn(command)?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        // Bounded, so a chatty program blocks on its own output instead of
        // filling the referee's memory.
        let (send, lines) = mpsc::sync_channel(256);
        std::thread::spawn(move || read_lines(stdout, send));
        Ok(LineChild {
            child,
            stdin,
            lines,
            alive: true,
            ended: None,
            _dir: dir,
        })
    }

    /// How the program ended by itself (`exit code 1`, `killed by signal
    /// 11`), when it did before the referee killed it.
    pub fn ended(&self) -> Option<&str> {
        self.ended.as_deref()
    }

    /// Sends one line (a newline is added), dropping whatever the program
    /// printed before it, which answers no question of this one.
    pub fn send(&mut self, line: &str) -> Result<(), LineFailure> {
        if !self.alive {
            return Err(LineFailure::Quit);
        }
        while self.lines.try_recv().is_ok() {}
        let written = self
            .stdin
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| self.stdin.flush());
        written.map_err(|e| self.fail(LineFailure::Write(e)))
    }

    /// The next line the program prints (without its line end, at most
    /// 1 KiB) before `deadline`; `limit` is what the failure
    /// names.
    pub fn next_line(&mut self, deadline: Instant, limit: Duration) -> Result<String, LineFailure> {
        if !self.alive {
            return Err(LineFailure::Quit);
        }
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line.trim_end_matches('\r').to_string()),
            Err(mpsc::RecvTimeoutError::Timeout) => Err(self.fail(LineFailure::Timeout(limit))),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                // Its output closed: it is exiting, so wait a moment for
                // its status, which says why.
                let until = Instant::now() + Duration::from_millis(100);
                while self.ended.is_none() && Instant::now() < until {
                    self.note_exit();
                    std::thread::sleep(Duration::from_millis(1));
                }
                Err(self.fail(LineFailure::Quit))
            }
        }
    }

    /// Kills the program for a failure of its own, returning the failure.
    pub fn fail<F>(&mut self, failure: F) -> F {
        self.kill();
        failure
    }

    /// Notes how the program ended, if it has exited by itself, leaving
    /// it unreaped until [`LineChild::kill`] has killed its group.
    fn note_exit(&mut self) {
        if let Ok(Some(ending)) = peek(self.child.id() as libc::pid_t) {
            self.ended = Some(match ending {
                Ending::Exited(code) => format!("exit code {code}"),
                ending => ending.failure().unwrap_or_default(),
            });
        }
    }

    /// Kills the program with everything it started and reaps it.
    pub fn kill(&mut self) {
        if !self.alive {
            return;
        }
        self.alive = false;
        self.note_exit();
        let pid = self.child.id() as libc::pid_t;
        stop(pid);
        PROGRAMS.untrack(pid);
        self.child.wait().ok();
        PROGRAMS.reaped(pid);
    }
}

impl Drop for LineChild {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Reads a program's output into lines (each capped at [`LINE_CAP`]
/// bytes) until it closes or the receiver is gone.
fn read_lines(mut pipe: impl Read, send: mpsc::SyncSender<String>) {
    let mut line = Vec::new();
    let mut chunk = [0u8; 4096];
    while let Ok(n) = pipe.read(&mut chunk) {
        if n == 0 {
            break;
        }
        for &byte in &chunk[..n] {
            if byte == b'\n' {
                let text = String::from_utf8_lossy(&line).into_owned();
                line.clear();
                if send.send(text).is_err() {
                    return;
                }
            } else if line.len() < LINE_CAP {
                line.push(byte);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{left_with, tag};
    use super::*;

    #[test]
    fn a_line_child_answers_in_lines_and_fails_on_silence_or_exit() {
        let program = Program::parse("/bin/sh -c").unwrap();
        let script = |text: &str| Program {
            args: vec!["-c".to_string(), text.to_string()],
            ..program.clone()
        };
        let limit = Duration::from_secs(5);
        let mut echo = LineChild::spawn(&script("while read l; do echo \"<$l>\"; done")).unwrap();
        echo.send("hi").unwrap();
        let line = echo.next_line(Instant::now() + limit, limit).unwrap();
        assert_eq!(line, "<hi>");
        let mut quiet = LineChild::spawn(&script("sleep 5")).unwrap();
        let short = Duration::from_millis(50);
        let failure = quiet.next_line(Instant::now() + short, short);
        assert!(matches!(failure, Err(LineFailure::Timeout(_))));
        assert!(matches!(quiet.send("x"), Err(LineFailure::Quit)));
        let mut gone = LineChild::spawn(&script("exit 0")).unwrap();
        let failure = gone.next_line(Instant::now() + limit, limit);
        assert!(matches!(failure, Err(LineFailure::Quit)));
    }

    #[test]
    fn a_line_childs_setsid_children_end_with_it() {
        let t = tag("line-setsid");
        let program = Program {
            path: "/bin/sh".to_string(),
            args: vec![
                "-c".to_string(),
                format!("setsid sh -c 'sleep 1000; :' {t} & while read l; do echo ok; done"),
            ],
        };
        let limit = Duration::from_secs(5);
        let mut child = LineChild::spawn(&program).unwrap();
        child.send("hi").unwrap();
        assert_eq!(
            child.next_line(Instant::now() + limit, limit).unwrap(),
            "ok"
        );
        // The script and its child, which runs during the game.
        assert_eq!(left_with(&t).len(), 2, "{:?}", left_with(&t));
        drop(child);
        assert_eq!(left_with(&t), Vec::<String>::new());
    }
}
