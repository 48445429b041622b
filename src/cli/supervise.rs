//! Process supervision: runs a checked program with a timeout, bounded output, and its
//! whole process group killed when it ends (or when nimtab is interrupted).

use std::io::{self, Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use crate::cli::interrupt::{self, kill_group};

/// Bytes of the program's stderr kept for the failure message; the rest is read and
/// dropped, so a program that writes a lot there never blocks on a full pipe or dies of
/// SIGPIPE.
const STDERR_KEPT: usize = 1 << 16;

/// What a pipe reader does once it has read its limit.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Overflow {
    /// Stop reading and close the pipe (the output is refused anyway).
    Stop,
    /// Keep reading and drop the rest (the output is only quoted).
    Drain,
}

/// The running program's group, killed when this is dropped: on every way out of
/// [`run_program`], early errors included.
struct GroupGuard<'a>(&'a mut Child);

impl Drop for GroupGuard<'_> {
    fn drop(&mut self) {
        kill_group(self.0.id());
        let _ = self.0.kill();
        interrupt::program_ended();
    }
}

/// Runs `sh -c program` with `input` on stdin; returns its stdout, or why it failed
/// (non-zero exit, killed, timed out, too much output, output not UTF-8).
///
/// # Errors
/// The system's refusal to start `sh` (no process or file descriptor left) or the
/// threads that feed the program and read its output (the program is killed then):
/// nimtab's failure, not the program's.
pub fn run_program(
    program: &str,
    input: &[u8],
    timeout: Duration,
    max_output: usize,
) -> anyhow::Result<Result<String, String>> {
    let deadline = Instant::now() + timeout;
    let mut command = Command::new("sh");
    command.arg("-c").arg(program);
    command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    #[cfg(unix)]
    {
        // Its own process group, so a timeout can stop everything the shell started.
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    let mut child = interrupt::spawn_program(&mut command)
        .map_err(|e| anyhow::anyhow!("could not start sh to run the checked program: {e}"))?;
    let running = GroupGuard(&mut child);
    let mut stdin = running.0.stdin.take().expect("stdin is piped");
    let input = input.to_vec();
    // A program may exit without reading its input; the broken pipe is not our error. The
    // writer is never joined: a process that keeps stdin open unread must not block us.
    let threads = |e: io::Error| {
        anyhow::anyhow!(
            "could not start the threads that feed the checked program and read its output: \
             {e}; try a larger memory limit"
        )
    };
    nimtab::host::helper_thread()
        .spawn(move || {
            let _ = stdin.write_all(&input);
        })
        .map_err(threads)?;
    let stdout = running.0.stdout.take().expect("stdout is piped");
    let stdout = read_in_background(stdout, max_output, Overflow::Stop).map_err(threads)?;
    let stderr = running.0.stderr.take().expect("stderr is piped");
    let stderr = read_in_background(stderr, STDERR_KEPT, Overflow::Drain).map_err(threads)?;
    Ok(finish(running, stdout, stderr, timeout, deadline, max_output))
}

/// Waits for the running program and its output: its stdout, or why it failed.
fn finish(
    running: GroupGuard<'_>,
    stdout: Receiver<(Vec<u8>, bool)>,
    stderr: Receiver<(Vec<u8>, bool)>,
    timeout: Duration,
    deadline: Instant,
    max_output: usize,
) -> Result<String, String> {
    let status = wait_with_timeout(running.0, timeout)?;
    // Whatever the shell left running in its group (and holding our pipes) goes too.
    drop(running);
    // A process that left the group (setsid) can still hold the pipes: wait for the
    // output only until the deadline, with a short grace.
    let grace = deadline.saturating_duration_since(Instant::now()).max(Duration::from_millis(200));
    let (stdout, too_much) = stdout.recv_timeout(grace).map_err(|_| {
        "its output stayed open after it exited (a detached background process?)".to_string()
    })?;
    let (stderr, _) = stderr.recv_timeout(Duration::from_millis(200)).unwrap_or_default();
    if too_much {
        // Checked before the status: the program may have died of SIGPIPE when we stopped.
        return Err(format!("it printed more than {max_output} bytes"));
    }
    if !status.success() {
        // Quoted on one line: at most 200 characters, control characters escaped.
        let text = String::from_utf8_lossy(&stderr);
        let line = text.lines().next().unwrap_or("").trim();
        let first: String = line.chars().take(200).flat_map(char::escape_debug).collect();
        let said = if first.is_empty() { String::new() } else { format!(" ({first})") };
        return Err(match status.code() {
            Some(code) => format!("it exited with status {code}{said}"),
            None => format!("it was killed by a signal{said}"),
        });
    }
    String::from_utf8(stdout).map_err(|_| "its output is not UTF-8 text".to_string())
}

/// Reads a pipe on a thread of its own, keeping at most `limit` bytes (plus one chunk);
/// the bytes and whether more came arrive on the returned channel when the pipe ends, or
/// at once past the limit with [`Overflow::Stop`].
///
/// # Errors
/// The system's refusal to start the thread.
fn read_in_background(
    mut pipe: impl Read + Send + 'static,
    limit: usize,
    overflow: Overflow,
) -> io::Result<Receiver<(Vec<u8>, bool)>> {
    let (send, receive) = std::sync::mpsc::channel();
    nimtab::host::helper_thread().spawn(move || {
        let mut bytes = Vec::new();
        let mut too_much = false;
        let mut chunk = [0u8; 1 << 16];
        loop {
            let n = match pipe.read(&mut chunk) {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            if bytes.len() <= limit {
                bytes.extend_from_slice(&chunk[..n]);
            }
            if bytes.len() > limit {
                too_much = true;
                if overflow == Overflow::Stop {
                    break;
                }
            }
        }
        let _ = send.send((bytes, too_much));
    })?;
    Ok(receive)
}

fn wait_with_timeout(
    child: &mut Child,
    timeout: Duration,
) -> Result<std::process::ExitStatus, String> {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().map_err(|e| format!("waiting for it: {e}"))? {
            return Ok(status);
        }
        if started.elapsed() > timeout {
            kill_group(child.id());
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("it did not finish within {} s", timeout.as_secs_f64()));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}
