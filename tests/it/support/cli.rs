//! The one way tests run the binary: arguments (and optionally stdin) in, status and
//! both streams out; also under a memory limit, in a directory, interrupted, or named
//! `nimtab` in a shell command line as the documentation shows it.

use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What one run of the binary gave.
#[derive(Debug)]
pub struct Run {
    /// Exit status (-1 if killed by a signal).
    pub status: i32,
    /// Standard output, as text.
    pub stdout: String,
    /// Standard error, as text.
    pub stderr: String,
}

/// The built binary, for tests that need to set up the process themselves.
pub fn command() -> Command {
    Command::new(env!("CARGO_BIN_EXE_nimtab"))
}

/// Runs nimtab with `args` and an empty stdin.
pub fn run(args: &[&str]) -> Run {
    run_with_stdin(args, "")
}

/// The binary run by `sh` under an address-space limit of `kib` KiB (`ulimit -v`), so
/// that a test can see memory stay bounded: more would fail an allocation.
pub fn limited(kib: u64) -> Command {
    let mut sh = Command::new("sh");
    sh.arg("-c").arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""));
    sh.arg(env!("CARGO_BIN_EXE_nimtab"));
    sh
}

/// Runs nimtab with `args` under an address-space limit of `kib` KiB.
pub fn run_limited(kib: u64, args: &[&str]) -> Run {
    output_of(limited(kib).args(args), "")
}

/// Runs nimtab with `args` in the directory `dir`.
pub fn run_in(dir: &Path, args: &[&str]) -> Run {
    output_of(command().args(args).current_dir(dir), "")
}

/// Runs nimtab with `args`, writing `stdin` to its standard input.
pub fn run_with_stdin(args: &[&str], stdin: &str) -> Run {
    output_of(command().args(args), stdin)
}

/// Runs a prepared command, writing `stdin` to its standard input.
pub fn output_of(command: &mut Command, stdin: &str) -> Run {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut input = child.stdin.take().expect("stdin is piped");
    // A command that exits without reading its input closes the pipe: not our error.
    let _ = input.write_all(stdin.as_bytes());
    drop(input);
    let out = child.wait_with_output().expect("the binary runs");
    Run {
        status: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Sends `signal` (`INT`, `TERM`, `HUP`) to a process.
pub fn send_signal(pid: u32, signal: &str) {
    let status = Command::new("kill").arg(format!("-{signal}")).arg(pid.to_string()).status();
    assert!(status.is_ok_and(|s| s.success()), "kill -{signal} {pid}");
}

/// Waits for a child with piped output to end and returns what it gave (`None` as status:
/// killed by a signal). A watchdog kills it after `limit`: a hang guard, not a speed test.
pub fn finish(child: Child, limit: Duration) -> (Option<i32>, String, String) {
    let pid = child.id();
    let done = Arc::new(AtomicBool::new(false));
    let watched = Arc::clone(&done);
    let watchdog = std::thread::spawn(move || {
        let started = Instant::now();
        while !watched.load(Ordering::SeqCst) {
            if started.elapsed() > limit {
                let _ = Command::new("kill").args(["-KILL", &pid.to_string()]).status();
                return true;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    });
    let out = child.wait_with_output().expect("nimtab's output");
    done.store(true, Ordering::SeqCst);
    assert!(!watchdog.join().unwrap(), "nimtab did not end within {limit:?}");
    let text = |b: Vec<u8>| String::from_utf8_lossy(&b).into_owned();
    (out.status.code(), text(out.stdout), text(out.stderr))
}

/// A fixture file's path in `tests/data/`.
pub fn data(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Runs a shell command line (`sh -c`) in `dir` with the built binary first on `PATH` as
/// `nimtab`, stdin empty and stderr joined to stdout, as a terminal shows them (stdout is
/// a pipe, so there is no progress bar): the status (`None`: killed by a signal) and
/// the output.
pub fn run_shell_in(dir: &Path, line: &str) -> (Option<i32>, String) {
    let bin = tempfile::tempdir().expect("a directory for the binary's name");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_nimtab"), bin.path().join("nimtab"))
        .expect("a link named nimtab");
    let path = format!("{}:{}", bin.path().display(), std::env::var("PATH").unwrap_or_default());
    let child = Command::new("sh")
        .arg("-c")
        .arg(format!("exec 2>&1\n{line}"))
        .current_dir(dir)
        .env("PATH", path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh starts");
    // A hang guard, not a speed test: every documented example takes at most seconds.
    let (status, stdout, _) = finish(child, Duration::from_secs(120));
    (status, stdout)
}

/// What the binary keeps of an address-space limit for itself (its mappings, its
/// threads' stacks, a reserve): the limit less the memory `info` says is available under
/// it. `None` when another bound (a cgroup) is tighter here.
pub fn memory_overhead() -> Option<u64> {
    let limit_kib = 4_000_000;
    let args = ["--threads", "2", "info", "--game", "nim", "--heaps", "1", "--max", "1"];
    let info = output_of(limited(limit_kib).args(args), "");
    assert_eq!(info.status, 0, "{}", info.stderr);
    let line = info.stdout.lines().find(|l| l.starts_with("memory available"))?;
    if !line.ends_with("bound by the address-space limit (ulimit -v)") {
        return None;
    }
    // `memory available     3.86 GiB (4144250880 bytes), bound by ...`
    let bytes: u64 = line.split_once('(')?.1.split_whitespace().next()?.parse().ok()?;
    Some(limit_kib * 1024 - bytes)
}

/// Waits (a hang guard of a minute, not a speed test) until `path` exists.
pub fn wait_for(path: &Path) {
    let started = Instant::now();
    while !path.exists() {
        assert!(started.elapsed() < Duration::from_secs(60), "{} never appeared", path.display());
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Runs `nimtab [global...] sweep --games FAMILY --quotients N [extra...] --out DIR/NAME`
/// and returns the file's text.
pub fn swept(
    dir: &Path,
    name: &str,
    global: &[&str],
    family: &str,
    n: &str,
    extra: &[&str],
) -> String {
    let out = dir.join(name);
    let mut args: Vec<&str> = global.to_vec();
    args.extend(["sweep", "--games", family, "--quotients", n, "--out", out.to_str().unwrap()]);
    args.extend_from_slice(extra);
    let Run { status, stderr, .. } = run(&args);
    assert_eq!(status, 0, "{args:?}: {stderr}");
    std::fs::read_to_string(&out).unwrap()
}
