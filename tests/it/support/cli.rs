//! The one way tests run the binary: arguments (and optionally stdin) in, status and
//! both streams out; also under a memory limit.

use std::io::Write;
use std::process::{Command, Stdio};

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

/// A fixture file's path in `tests/data/`.
pub fn data(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}
