//! Process supervision: runs a checked program with a timeout, bounded output, and its
//! whole process group killed when it ends.

use std::io::{Read, Write};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `sh -c program` with `input` on stdin; returns its stdout, or why it failed
/// (non-zero exit, killed, timed out, too much output, output not UTF-8).
pub fn run_program(
    program: &str,
    input: &[u8],
    timeout: Duration,
    max_output: usize,
) -> Result<String, String> {
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
    let mut child = command.spawn().map_err(|e| format!("cannot start sh: {e}"))?;
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let input = input.to_vec();
    // A program may exit without reading its input; the broken pipe is not our error. The
    // writer is never joined: a process that keeps stdin open unread must not block us.
    std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let stdout = read_in_background(child.stdout.take().expect("stdout is piped"), max_output);
    let stderr = read_in_background(child.stderr.take().expect("stderr is piped"), 1 << 16);
    let status = wait_with_timeout(&mut child, timeout)?;
    // Whatever the shell left running in its group (and holding our pipes) goes too.
    kill_group(&mut child);
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

/// Reads a pipe to its end, or until more than `limit` bytes came (then `true`), on a
/// thread of its own; the result arrives on the returned channel.
fn read_in_background(
    mut pipe: impl Read + Send + 'static,
    limit: usize,
) -> std::sync::mpsc::Receiver<(Vec<u8>, bool)> {
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let mut chunk = [0u8; 1 << 16];
        let too_much = loop {
            match pipe.read(&mut chunk) {
                Ok(0) | Err(_) => break false,
                Ok(n) => bytes.extend_from_slice(&chunk[..n]),
            }
            if bytes.len() > limit {
                break true;
            }
        };
        let _ = send.send((bytes, too_much));
    });
    receive
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
            kill_group(child);
            let _ = child.wait();
            return Err(format!("it did not finish within {} s", timeout.as_secs_f64()));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Kills the program's whole process group (the shell and whatever it started), so the
/// output pipes close and the readers finish.
fn kill_group(child: &mut Child) {
    #[cfg(unix)]
    {
        extern "C" {
            fn kill(pid: i32, signal: i32) -> i32;
        }
        const SIGKILL: i32 = 9;
        // SAFETY: kill(2) with a negative pid signals the group we created for this child;
        // it touches no memory of ours.
        unsafe {
            kill(-(child.id() as i32), SIGKILL);
        }
    }
    let _ = child.kill();
}
