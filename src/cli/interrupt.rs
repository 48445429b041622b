//! Ctrl-C, SIGTERM and SIGHUP: what an interrupt must undo, and how it agrees with the exit.
//!
//! One lock guards everything an interrupt touches: the temporary files and staging
//! directories in flight, the checked program's process group, and two flags. The handler
//! takes the lock and never gives it back (it exits while holding it), so whatever the
//! main thread does under the lock happens wholly before the interrupt or not at all:
//!
//! - a temporary is created and registered in one step, so the handler removes every
//!   temporary that exists, and none can appear after it ran;
//! - the renames that put output in place (the commit) run under the lock, and once they
//!   are done an interrupt is ignored: the files are complete, the rest of the run only
//!   prints, and it ends with its own exit status (a checkpoint's renames run under the
//!   lock too, but the run goes on, so an interrupt still ends it);
//! - the exit and every note on stderr take the lock too, so a run never prints
//!   "interrupted" and exits 0, and says nothing after the message.
//!
//! A run that writes checkpoints [defers](defer) the first interrupt: the handler only
//! asks it to stop ([`stop_asked`]); the run saves a final checkpoint at its next segment
//! and ends through [`finish_interrupted`]. A second interrupt ends the process at once.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

/// What the handler must know, guarded by [`STATE`].
struct State {
    /// The handler ran: nothing new may be created.
    interrupted: bool,
    /// The output is in place: an interrupt no longer changes anything.
    committed: bool,
    /// Temporary files and staging directories to remove on an interrupt.
    temporaries: Vec<PathBuf>,
    /// The process group of the checked program running now, if any.
    program_group: Option<u32>,
    /// Lock files this process holds (their device and inode): removed on an interrupt,
    /// as their holds would when dropped, if each is still the same file.
    locks: Vec<(PathBuf, u64, u64)>,
}

static STATE: Mutex<State> = Mutex::new(State {
    interrupted: false,
    committed: false,
    temporaries: Vec::new(),
    program_group: None,
    locks: Vec::new(),
});

/// Records the lock file `path` (device `dev`, inode `ino`) as held: an interrupt removes
/// it if it is still that file. The kernel drops the lock itself when the process ends.
pub fn hold_lock(path: &Path, dev: u64, ino: u64) {
    state().locks.push((path.to_path_buf(), dev, ino));
}

/// Forgets the lock file `path` (its hold is over, or removed it).
pub fn release_lock(path: &Path) {
    state().locks.retain(|(held, _, _)| held != path);
}

/// Removes the lock file `path` if it is still the regular file `dev`/`ino` (a run that
/// took it over since has its own).
fn remove_lock(path: &Path, dev: u64, ino: u64) {
    use std::os::unix::fs::MetadataExt;
    if std::fs::symlink_metadata(path)
        .is_ok_and(|m| m.is_file() && m.dev() == dev && m.ino() == ino)
    {
        let _ = std::fs::remove_file(path);
    }
}

/// The lock; a panic elsewhere must not stop the handler from cleaning up.
fn state() -> MutexGuard<'static, State> {
    STATE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Runs alive that stop themselves on an interrupt (see [`defer`]).
static DEFERRING: AtomicUsize = AtomicUsize::new(0);
/// An interrupt came while a run defers it: the run is asked to stop.
static STOP_ASKED: AtomicBool = AtomicBool::new(false);

/// While held, the first interrupt asks the run to stop ([`stop_asked`]) rather than
/// ending the process: the run saves a final checkpoint and ends with
/// [`finish_interrupted`]. Dropped after an interrupt the run did not see (it finished
/// first), it ends the process as the interrupt would have.
#[must_use]
pub struct Deferral(());

/// Defers interrupts to the run until the guard is dropped.
pub fn defer() -> Deferral {
    let _held = state();
    DEFERRING.fetch_add(1, Ordering::SeqCst);
    Deferral(())
}

impl Drop for Deferral {
    fn drop(&mut self) {
        // Under the lock, so that the handler sees either a deferring run or none: an
        // interrupt between the count and the look at the flag is never lost.
        let asked = {
            let _held = state();
            DEFERRING.fetch_sub(1, Ordering::SeqCst);
            STOP_ASKED.load(Ordering::SeqCst)
        };
        if asked && !std::thread::panicking() {
            finish_interrupted("nimtab: interrupted; no partial output was left");
        }
    }
}

/// Whether an interrupt asked the deferring run to stop.
pub fn stop_asked() -> bool {
    STOP_ASKED.load(Ordering::SeqCst)
}

/// How often the handler's thread looks whether a signal came.
const POLL: Duration = Duration::from_millis(20);

/// Installs the handler of Ctrl-C, SIGTERM and SIGHUP, and catches SIGXFSZ.
///
/// A signal only raises a flag (`signal_hook::flag`: safe, and it needs no file
/// descriptor, so a process at its open-file limit still has its handler); a thread of
/// nimtab's, started with its own small stack, looks at the flag every [`POLL`] and does
/// what the signal asks. The thread starts first: a signal caught before it ran would
/// be lost, while one before the flags are set still ends the process (nothing to clean
/// up yet).
///
/// A write beyond the file-size limit (`ulimit -f`) raises SIGXFSZ, which by default ends
/// the process on the spot, temporaries and all. Caught (the handler only sets a flag
/// nobody reads), the write fails with "File too large" instead, and the run ends like on
/// a full disk: one line, status 2, nothing left behind.
///
/// # Errors
/// The system's refusal to start the handler's thread.
pub fn install() -> io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM, SIGXFSZ};
    let raised = Arc::new(AtomicBool::new(false));
    let seen = Arc::clone(&raised);
    nimtab::host::helper_thread().name("interrupt".to_string()).spawn(move || loop {
        if seen.swap(false, Ordering::SeqCst) {
            on_interrupt();
        }
        std::thread::sleep(POLL);
    })?;
    for signal in [SIGINT, SIGTERM, SIGHUP] {
        let _ = signal_hook::flag::register(signal, Arc::clone(&raised));
    }
    let _ = signal_hook::flag::register(SIGXFSZ, Arc::new(AtomicBool::new(false)));
    Ok(())
}

/// Kills the checked program's group; unless the output is already in place, removes
/// every temporary, says so and exits 130, still holding the lock. The first interrupt
/// of a run that defers it only asks the run to stop.
fn on_interrupt() {
    {
        let _held = state();
        if DEFERRING.load(Ordering::SeqCst) > 0 && !STOP_ASKED.swap(true, Ordering::SeqCst) {
            let _ = writeln!(
                io::stderr().lock(),
                "nimtab: interrupted; saving a checkpoint (interrupt again to stop at once)"
            );
            return;
        }
    }
    finish_interrupted("nimtab: interrupted; no partial output was left");
}

/// Ends an interrupted run: unless the output is already in place, removes every
/// temporary, prints `message` and exits 130, holding the lock.
pub fn finish_interrupted(message: &str) {
    let mut state = state();
    if let Some(group) = state.program_group.take() {
        kill_group(group);
    }
    if state.committed {
        return;
    }
    state.interrupted = true;
    for path in state.temporaries.drain(..) {
        remove_temporary(&path);
    }
    for (path, dev, ino) in state.locks.drain(..) {
        remove_lock(&path, dev, ino);
    }
    let _ = writeln!(io::stderr().lock(), "{message}");
    std::process::exit(130);
}

/// Kills a program's whole process group (the shell and whatever it started), so the
/// output pipes close and the readers finish. `group` is the id of the child started in a
/// group of its own, which is the group's id.
pub fn kill_group(group: u32) {
    #[cfg(unix)]
    {
        extern "C" {
            fn kill(pid: i32, signal: i32) -> i32;
        }
        const SIGKILL: i32 = 9;
        let Ok(group) = i32::try_from(group) else { return };
        // SAFETY: kill(2) with a negative pid signals the group we created for the child;
        // it touches no memory of ours.
        unsafe {
            kill(-group, SIGKILL);
        }
    }
}

fn remove_temporary(path: &Path) {
    if path.is_dir() {
        let _ = std::fs::remove_dir_all(path);
    } else {
        let _ = std::fs::remove_file(path);
    }
}

/// The error of anything attempted after an interrupt (the handler is about to exit).
fn interrupted() -> io::Error {
    io::Error::new(io::ErrorKind::Interrupted, "interrupted")
}

/// Creates a new temporary file and registers it in one step.
pub fn create_temporary_file(path: &Path) -> io::Result<File> {
    let mut state = state();
    if state.interrupted {
        return Err(interrupted());
    }
    let file = File::create_new(path)?;
    state.temporaries.push(path.to_path_buf());
    Ok(file)
}

/// Creates a new staging directory and registers it in one step.
pub fn create_staging_dir(path: &Path) -> io::Result<()> {
    let mut state = state();
    if state.interrupted {
        return Err(interrupted());
    }
    std::fs::create_dir(path)?;
    state.temporaries.push(path.to_path_buf());
    Ok(())
}

/// Creates a new file (and its parent directories) inside a registered staging directory:
/// the directory's removal covers it, but it must not appear while the handler removes
/// the directory.
pub fn create_in_staging(path: &Path) -> io::Result<File> {
    let state = state();
    if state.interrupted {
        return Err(interrupted());
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    File::create_new(path)
}

/// Registers an existing file as a temporary: removed on an interrupt until [`keep`].
pub fn adopt(path: &Path) {
    state().temporaries.push(path.to_path_buf());
}

/// Forgets a temporary without removing it: from now on it is kept.
pub fn keep(path: &Path) {
    state().temporaries.retain(|p| p != path);
}

/// Removes a temporary that is no longer needed (a failed write, a probe) and forgets it.
pub fn discard(path: &Path) {
    let mut state = state();
    remove_temporary(path);
    state.temporaries.retain(|p| p != path);
}

/// What a commit puts in place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placing {
    /// The run's output: from then on an interrupt changes nothing and is ignored.
    Output,
    /// A file the run goes on from (a checkpoint): an interrupt still ends the run.
    Progress,
}

/// Puts files in place: runs `renames` under the lock and, if they succeeded, forgets
/// `temporaries` (renamed or removed); once the output is placed, interrupts are ignored.
/// After a failure they stay registered until their owners remove them.
pub fn commit<E: From<io::Error>>(
    temporaries: &[PathBuf],
    placing: Placing,
    renames: impl FnOnce() -> Result<(), E>,
) -> Result<(), E> {
    let mut state = state();
    if state.interrupted {
        return Err(interrupted().into());
    }
    let result = renames();
    if result.is_ok() {
        state.temporaries.retain(|p| !temporaries.contains(p));
        state.committed |= placing == Placing::Output;
    }
    result
}

/// Starts the checked program in a process group of its own, recording the group so an
/// interrupt kills it too.
pub fn spawn_program(command: &mut Command) -> io::Result<Child> {
    let mut state = state();
    if state.interrupted {
        return Err(interrupted());
    }
    let child = command.spawn()?;
    state.program_group = Some(child.id());
    Ok(child)
}

/// The program's group has been killed: an interrupt no longer needs to.
pub fn program_ended() {
    state().program_group = None;
}

/// Runs `f` holding the lock: after an interrupt it never runs (the handler holds the
/// lock until the process ends).
pub fn holding<T>(f: impl FnOnce() -> T) -> T {
    let _held = state();
    f()
}

/// Ends the process with `code`, holding the lock so that a late interrupt cannot change
/// the status or print its message. A temporary still registered belongs to no output
/// (every owner removes its own on the way out; this is the last guard): it is removed.
pub fn exit(code: u8) -> ! {
    let mut held = state();
    for path in held.temporaries.drain(..) {
        remove_temporary(&path);
    }
    let _ = io::stdout().flush();
    std::process::exit(i32::from(code))
}
