//! Containing an outside program's whole process tree, including what it
//! starts in a session of its own (`setsid`) or through a double fork, which
//! a kill of its process group misses.
//!
//! Every program runs under a **keeper**: the process the referee forks
//! becomes a child subreaper (`prctl(PR_SET_CHILD_SUBREAPER)`) and forks
//! again; the inner child executes the program, while the keeper closes
//! every file descriptor it inherited and waits. Being a subreaper, the
//! keeper inherits every process of the program's tree whose parent dies,
//! so however a descendant detaches itself it stays the keeper's
//! descendant. When the program exits, or the referee asks the keeper to
//! stop (SIGTERM, at the move's limit or the game's end), the keeper kills
//! its children with SIGKILL, over and over (a killed process's children
//! come to the keeper in turn), until it has none left, and only then
//! exits, with the program's status. So when the referee sees the keeper
//! end, nothing the program started is running.
//!
//! A program that kills its own keeper (SIGKILL cannot be caught) dies
//! with it (its parent-death signal), but what it started in another
//! session or group would be left to the system. So a command that runs
//! programs makes its own process a subreaper too ([`adopt_orphans`]):
//! such leftovers come to the referee, which kills and reaps them
//! ([`sweep_orphans`]) whenever one of its programs ends.
//!
//! The keeper runs between `fork` and `exec` of a process that has other
//! threads, so it does only async-signal-safe things: system calls on stack
//! buffers, no allocation and no locks. It finds its children by reading
//! `/proc` (each process's parent in `/proc/PID/stat`).

use std::os::unix::process::CommandExt;
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

/// The keeper's exit code when it was asked to stop before the program
/// ended (the referee has judged the move by then: a timeout).
const STOPPED: i32 = 125;

/// Set by the keeper's SIGTERM handler: stop the program now.
static STOP: AtomicBool = AtomicBool::new(false);

/// The referee's process id, as the keeper sees it: only its SIGTERM is a
/// stop request (the program's `kill -TERM 0` reaches its keeper too, since
/// they share a process group, and must not end the keeper first).
static REFEREE: AtomicI32 = AtomicI32::new(0);

/// Set once the referee's process adopts orphans ([`adopt_orphans`]).
static ADOPTING: AtomicBool = AtomicBool::new(false);

/// Makes this process a child subreaper, so that what a program left
/// behind after killing its keeper comes to the referee instead of the
/// system, for [`sweep_orphans`] to end. Only for a process whose every
/// child in another process group is one of the referee's programs (the
/// commands that run programs; not a library's user, whose own children
/// in groups of their own the sweep would end).
pub fn adopt_orphans() -> std::io::Result<()> {
    // SAFETY: prctl with these arguments touches no memory.
    if unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    ADOPTING.store(true, Ordering::SeqCst);
    Ok(())
}

/// Whether this process adopts orphans.
pub fn adopting() -> bool {
    ADOPTING.load(Ordering::SeqCst)
}

/// Kills (SIGKILL) and reaps every child of this process in another
/// process group than its own that is not one of `keepers` (the
/// programs' keepers, running or not yet reaped): the orphans adopted
/// from programs ([`adopt_orphans`]). A child started in this process's
/// own group (a `git` the ladder runs) is left alone. Does nothing unless
/// this process adopts orphans.
pub fn sweep_orphans(keepers: &[libc::pid_t]) {
    if !adopting() {
        return;
    }
    // SAFETY: getpid and getpgrp have no preconditions.
    let (me, group) = unsafe { (libc::getpid(), libc::getpgrp()) };
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return;
    };
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|name| name.parse::<libc::pid_t>().ok())
        else {
            continue;
        };
        let Ok(stat) = std::fs::read(entry.path().join("stat")) else {
            continue;
        };
        let Some((parent, pgid)) = parent_and_group(&stat) else {
            continue;
        };
        if parent != me || pgid == group || keepers.contains(&pid) {
            continue;
        }
        // SAFETY: the pid is an unreaped child of this process, so it
        // names that process; kill and waitpid have no memory effects.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
            libc::waitpid(pid, std::ptr::null_mut(), 0);
        }
    }
}

/// [`sweep_orphans`] until the process group `group` of a keeper just
/// reaped is empty (a moment at most): the program it left may still be
/// dying, and its children come to this process only once it is dead.
pub fn sweep_after(group: libc::pid_t, keepers: &[libc::pid_t]) {
    if !adopting() {
        return;
    }
    let until = std::time::Instant::now() + std::time::Duration::from_secs(1);
    loop {
        sweep_orphans(keepers);
        // SAFETY: signal 0 only asks whether the group has members.
        let empty = unsafe { libc::kill(-group, 0) } != 0;
        if empty || std::time::Instant::now() > until {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    sweep_orphans(keepers);
}

/// The parent and the process group in a `/proc/PID/stat` line.
fn parent_and_group(stat: &[u8]) -> Option<(libc::pid_t, libc::pid_t)> {
    let close = stat.iter().rposition(|&b| b == b')')?;
    let text = std::str::from_utf8(&stat[close + 1..]).ok()?;
    let mut fields = text.split_whitespace().skip(1);
    let parent = fields.next()?.parse().ok()?;
    let group = fields.next()?.parse().ok()?;
    Some((parent, group))
}

extern "C" fn on_stop(_: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
    // SAFETY: the kernel hands an SA_SIGINFO handler a valid siginfo.
    let sender = unsafe { (*info).si_pid() };
    if sender == REFEREE.load(Ordering::SeqCst) {
        STOP.store(true, Ordering::SeqCst);
    }
}

/// `command` set to run under a keeper ([the module doc](self)) leading a
/// process group of its own, the keeper killed (and with it, the program)
/// if the thread that started it dies with the referee.
pub fn kept(command: &mut Command) -> &mut Command {
    command.process_group(0);
    // SAFETY: the closure runs in the forked child before exec and does
    // only async-signal-safe system calls; the keeper's branch never
    // returns to the standard library, it exits.
    unsafe {
        command.pre_exec(|| {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1);
            // Signals stay blocked across the fork so that no stop request
            // can arrive before the keeper's handler is in place.
            let mut all: libc::sigset_t = std::mem::zeroed();
            let mut before: libc::sigset_t = std::mem::zeroed();
            libc::sigfillset(&mut all);
            libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut before);
            let keeper = libc::getpid();
            // The program starts once the keeper has closed what it
            // inherited (the gate's write end among it): a program that
            // stops its keeper at once (SIGSTOP) would otherwise stop it
            // holding the standard library's exec-error pipe, and the
            // referee's spawn would wait on that pipe for ever.
            let mut gate = [0 as libc::c_int; 2];
            if libc::pipe2(gate.as_mut_ptr(), libc::O_CLOEXEC) != 0 {
                let error = std::io::Error::last_os_error();
                libc::pthread_sigmask(libc::SIG_SETMASK, &before, std::ptr::null_mut());
                return Err(error);
            }
            let program = libc::fork();
            if program < 0 {
                let error = std::io::Error::last_os_error();
                libc::pthread_sigmask(libc::SIG_SETMASK, &before, std::ptr::null_mut());
                return Err(error);
            }
            if program == 0 {
                // The program: dies with its keeper, and starts with the
                // signal mask it would have had without one.
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                if libc::getppid() != keeper {
                    // The keeper died before the signal was set.
                    libc::_exit(127);
                }
                libc::close(gate[1]);
                let mut byte = 0u8;
                // End of file once the keeper's copy of the write end closes.
                while libc::read(gate[0], (&mut byte as *mut u8).cast(), 1) < 0
                    && *libc::__errno_location() == libc::EINTR
                {}
                libc::close(gate[0]);
                libc::pthread_sigmask(libc::SIG_SETMASK, &before, std::ptr::null_mut());
                return Ok(());
            }
            keep(program, &before)
        });
    }
    command
}

/// The keeper's life: waits for `program`, then empties its tree and exits
/// as the program did.
///
/// # Safety
///
/// Only in the keeper, the forked child, with every signal blocked.
unsafe fn keep(program: libc::pid_t, mask: &libc::sigset_t) -> ! {
    close_everything();
    // A signal the program sends its own group does not end the keeper
    // (which would leave its tree to escape); SIGTERM asks it to stop.
    for signal in 1..=64 {
        if signal != libc::SIGKILL && signal != libc::SIGSTOP && signal != libc::SIGCHLD {
            libc::signal(signal, libc::SIG_IGN);
        }
    }
    // Whatever the referee set for SIGCHLD: the keeper reaps by waiting.
    libc::signal(libc::SIGCHLD, libc::SIG_DFL);
    REFEREE.store(libc::getppid(), Ordering::SeqCst);
    let mut action: libc::sigaction = std::mem::zeroed();
    action.sa_sigaction =
        on_stop as extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) as usize;
    libc::sigemptyset(&mut action.sa_mask);
    // No SA_RESTART: the request interrupts the wait below.
    action.sa_flags = libc::SA_SIGINFO;
    libc::sigaction(libc::SIGTERM, &action, std::ptr::null_mut());
    libc::pthread_sigmask(libc::SIG_SETMASK, mask, std::ptr::null_mut());
    let mut ended: Option<libc::c_int> = None;
    while !STOP.load(Ordering::SeqCst) {
        let mut status = 0;
        let pid = libc::waitpid(-1, &mut status, 0);
        if pid == program {
            ended = Some(status);
            break;
        }
        if pid < 0 && *libc::__errno_location() == libc::ECHILD {
            break;
        }
    }
    empty_tree();
    match ended {
        Some(status) if libc::WIFSIGNALED(status) => {
            let signal = libc::WTERMSIG(status);
            let none = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            libc::setrlimit(libc::RLIMIT_CORE, &none);
            libc::signal(signal, libc::SIG_DFL);
            let mut only: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut only);
            libc::sigaddset(&mut only, signal);
            libc::pthread_sigmask(libc::SIG_UNBLOCK, &only, std::ptr::null_mut());
            libc::kill(libc::getpid(), signal);
            libc::_exit(128 + signal)
        }
        Some(status) if libc::WIFEXITED(status) => libc::_exit(libc::WEXITSTATUS(status)),
        _ => libc::_exit(STOPPED),
    }
}

/// Closes every descriptor the keeper inherited: the program's pipes (so
/// that their readers see them close with the program's tree), the
/// standard library's exec-error pipe, and every other descriptor of the
/// referee, which a process that never executes keeps.
unsafe fn close_everything() {
    if libc::syscall(libc::SYS_close_range, 0u32, u32::MAX, 0u32) == 0 {
        return;
    }
    let mut limit: libc::rlimit = std::mem::zeroed();
    let top = if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 {
        limit.rlim_cur.min(1 << 20) as libc::c_int
    } else {
        4096
    };
    for fd in 0..top {
        libc::close(fd);
    }
}

/// Kills the keeper's children until it has none: each killed process's
/// own children come to the keeper (a subreaper) and are killed in turn.
unsafe fn empty_tree() {
    let me = libc::getpid();
    loop {
        let mut status = 0;
        loop {
            let pid = libc::waitpid(-1, &mut status, libc::WNOHANG);
            if pid > 0 {
                continue;
            }
            if pid < 0 {
                // No children at all, alive or dead: the tree is empty.
                return;
            }
            break;
        }
        kill_children(me);
        let pause = libc::timespec {
            tv_sec: 0,
            tv_nsec: 1_000_000,
        };
        libc::nanosleep(&pause, std::ptr::null_mut());
    }
}

/// SIGKILL to every process whose parent is `me`, found in `/proc`.
unsafe fn kill_children(me: libc::pid_t) {
    let dir = libc::open(
        c"/proc".as_ptr(),
        libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC,
    );
    if dir < 0 {
        return;
    }
    // getdents64 records are 8-byte aligned.
    let mut buffer = [0u64; 1024];
    loop {
        let size = std::mem::size_of_val(&buffer);
        let n = libc::syscall(libc::SYS_getdents64, dir, buffer.as_mut_ptr(), size);
        if n <= 0 {
            break;
        }
        let bytes = std::slice::from_raw_parts(buffer.as_ptr().cast::<u8>(), n as usize);
        let mut at = 0;
        while at + 19 < bytes.len() {
            let length = u16::from_ne_bytes([bytes[at + 16], bytes[at + 17]]) as usize;
            if length == 0 {
                break;
            }
            let name = &bytes[at + 19..(at + length).min(bytes.len())];
            if let Some(pid) = number(name) {
                if parent_of(pid) == Some(me) {
                    libc::kill(pid, libc::SIGKILL);
                }
            }
            at += length;
        }
    }
    libc::close(dir);
}

/// The decimal number a NUL-terminated name spells, if it is one.
fn number(name: &[u8]) -> Option<libc::pid_t> {
    let digits = name.split(|&b| b == 0).next()?;
    if digits.is_empty() || digits.len() > 9 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(
        digits
            .iter()
            .fold(0, |n, &d| n * 10 + libc::pid_t::from(d - b'0')),
    )
}

/// The parent of `pid` (`/proc/PID/stat`, the field after the state).
unsafe fn parent_of(pid: libc::pid_t) -> Option<libc::pid_t> {
    let mut path = *b"/proc/\0\0\0\0\0\0\0\0\0\0/stat\0\0";
    let mut digits = [0u8; 10];
    let mut n = pid;
    let mut count = 0;
    loop {
        digits[count] = b'0' + (n % 10) as u8;
        n /= 10;
        count += 1;
        if n == 0 {
            break;
        }
    }
    let mut at = 6;
    for i in (0..count).rev() {
        path[at] = digits[i];
        at += 1;
    }
    for &b in b"/stat\0" {
        path[at] = b;
        at += 1;
    }
    let fd = libc::open(path.as_ptr().cast(), libc::O_RDONLY | libc::O_CLOEXEC);
    if fd < 0 {
        return None;
    }
    let mut stat = [0u8; 512];
    let n = libc::read(fd, stat.as_mut_ptr().cast(), stat.len());
    libc::close(fd);
    if n <= 0 {
        return None;
    }
    let stat = &stat[..n as usize];
    // `PID (COMM) STATE PPID …`; COMM may hold spaces and parentheses.
    let close = stat.iter().rposition(|&b| b == b')')?;
    let mut fields = stat[close + 1..]
        .split(|&b| b == b' ')
        .filter(|field| !field.is_empty());
    fields.next()?;
    let parent = fields.next()?;
    let mut with_nul = [0u8; 12];
    if parent.len() >= with_nul.len() {
        return None;
    }
    with_nul[..parent.len()].copy_from_slice(parent);
    number(&with_nul)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_parents_and_groups() {
        let stat = b"42 (a (b) c) S 7 42 42 0 -1";
        assert_eq!(parent_and_group(stat), Some((7, 42)));
        assert_eq!(parent_and_group(b"42 (x"), None);
    }

    #[test]
    fn reads_process_numbers_and_parents() {
        assert_eq!(number(b"1234\0\0"), Some(1234));
        assert_eq!(number(b"self\0"), None);
        assert_eq!(number(b"\0"), None);
        // SAFETY: reads /proc only.
        let parent = unsafe { parent_of(std::process::id() as libc::pid_t) };
        // SAFETY: getppid has no preconditions.
        assert_eq!(parent, Some(unsafe { libc::getppid() }));
    }
}
