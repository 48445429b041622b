//! Saving a checkpoint goes through the one staging writer: what is put in the
//! checkpoint's place while the run goes (a FIFO) is refused, never replaced; an
//! interrupt saves a last checkpoint (before the first interval too) and ends the run
//! with status 130.

use std::path::Path;
use std::process::{Child, Stdio};
use std::time::Duration;

use crate::support::cli::{command, finish, send_signal, wait_for};

/// A run of some seconds, checkpointed to `ck` in `dir` after every segment (several times
/// a second). It ends by itself, its last save included, however loaded the machine is:
/// what a test puts in the checkpoint's place meets a save whether the run is then in the
/// middle or at its end.
fn long_checkpointed_run(dir: &Path) -> Child {
    command()
        .args(["-q", "grundy", "--game", "octal:0.161", "--max", "2^24", "--format", "freq"])
        .args(["--checkpoint", "ck", "--checkpoint-every", "0"])
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn a_fifo_put_in_a_running_checkpoints_place_stops_the_run_and_stays_a_fifo() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("ck");
    let child = long_checkpointed_run(dir.path());
    wait_for(&ck);
    // A save may rename a new checkpoint in between the removal and the mkfifo.
    let made = (0..100).any(|_| {
        let _ = std::fs::remove_file(&ck);
        let mkfifo = std::process::Command::new("mkfifo").arg(&ck).stderr(Stdio::null()).status();
        mkfifo.unwrap().success()
    });
    assert!(made, "mkfifo never won the race with the run's saves");
    let (status, _, stderr) = finish(child, Duration::from_secs(600));
    let kind = std::fs::symlink_metadata(&ck).unwrap().file_type();
    assert!(std::os::unix::fs::FileTypeExt::is_fifo(&kind), "the FIFO was replaced");
    assert_eq!(status, Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("writing checkpoint ck") && stderr.contains("a FIFO, which nimtab never"),
        "{stderr}"
    );
    let temporaries = std::fs::read_dir(dir.path())
        .unwrap()
        .filter(|e| e.as_ref().unwrap().file_name().to_string_lossy().contains("nimtab-tmp"))
        .count();
    assert_eq!(temporaries, 0, "a temporary was left beside the checkpoint");
}

#[test]
fn an_interrupt_after_a_checkpoint_was_saved_still_ends_the_run_with_130() {
    let dir = tempfile::tempdir().unwrap();
    let child = long_checkpointed_run(dir.path());
    wait_for(&dir.path().join("ck"));
    std::thread::sleep(Duration::from_millis(300));
    send_signal(child.id(), "INT");
    let (status, _, stderr) = finish(child, Duration::from_secs(60));
    assert_eq!(status, Some(130), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(
        lines[0],
        "nimtab: interrupted; saving a checkpoint (interrupt again to stop at once)"
    );
    // The last checkpoint is the one saved on the interrupt, and the message says its end.
    let heaps = field(&dir.path().join("ck"), "heaps");
    let last = heaps.parse::<u64>().unwrap() - 1;
    assert_eq!(
        lines[1],
        format!(
            "nimtab: interrupted; checkpoint ck records heaps 0 to {last}: continue with --resume \
         ck; no partial output was left"
        )
    );
    assert_eq!(lines.len(), 2, "{stderr}");
}

/// The value of a checkpoint's line `key value`.
fn field(path: &Path, key: &str) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let prefix = format!("{key} ");
    text.lines().find_map(|l| l.strip_prefix(prefix.as_str())).unwrap().to_string()
}

#[test]
fn an_interrupt_before_the_first_interval_saves_a_checkpoint_that_resumes_to_the_same_output() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["-q", "grundy", "--game", "octal:0.36", "--max", "2^22", "--format", "freq"];
    let child = command()
        .args(args)
        .args(["--checkpoint", "ck", "--checkpoint-every", "1h", "--out", "resumed.txt"])
        .current_dir(dir.path())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let values = dir.path().join("ck.values");
    let started = std::time::Instant::now();
    while std::fs::metadata(&values).map_or(0, |m| m.len()) < 1 << 20 {
        assert!(started.elapsed() < Duration::from_secs(60), "the values file never grew");
        std::thread::sleep(Duration::from_millis(10));
    }
    send_signal(child.id(), "INT");
    let (status, _, stderr) = finish(child, Duration::from_secs(60));
    assert_eq!(status, Some(130), "{stderr}");
    assert!(stderr.contains("continue with --resume ck"), "{stderr}");
    assert!(!dir.path().join("resumed.txt").exists());
    let saved: u64 = field(&dir.path().join("ck"), "heaps").parse().unwrap();
    assert!((1 << 20..=1 << 22).contains(&saved), "{saved}");
    let resumed = command()
        .args(args)
        .args(["--resume", "ck", "--out", "resumed.txt"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
    let fresh =
        command().args(args).args(["--out", "fresh.txt"]).current_dir(dir.path()).output().unwrap();
    assert!(fresh.status.success());
    let read = |name: &str| std::fs::read(dir.path().join(name)).unwrap();
    assert_eq!(read("resumed.txt"), read("fresh.txt"));
}
