//! Interrupts at random moments: the exit status, the message and the files always agree
//! (complete output and status 0, or no output at all), and a directory of outputs is
//! never a mix of two runs.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use nimtab::random::SplitMix64;

use crate::support::cli::{command, finish, run, send_signal};

/// What an interrupted run may end as.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Ending {
    /// Completed: status 0, no message, the output complete.
    Completed,
    /// Interrupted: status 130, the message, no output.
    Interrupted,
    /// Killed by the signal before the handler was installed (the first instants of the
    /// process): no message, no output.
    KilledEarly,
}

/// Classifies one run, asserting that its status, message and output agree: `complete`
/// tells whether the output is all there, `absent` whether none of it is.
fn classify(status: Option<i32>, stderr: &str, complete: bool, absent: bool) -> Ending {
    let message = "nimtab: interrupted; no partial output was left\n";
    match status {
        Some(0) if stderr.is_empty() && complete => Ending::Completed,
        Some(130) if stderr == message && absent => Ending::Interrupted,
        None if stderr.is_empty() && absent => Ending::KilledEarly,
        _ => panic!("status {status:?}, stderr {stderr:?}, complete {complete}, absent {absent}"),
    }
}

/// Every file under `dir` (hidden ones too) by relative path, with its bytes.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(at) = todo.pop() {
        for entry in std::fs::read_dir(&at).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                todo.push(path);
            } else {
                let name = path.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
                files.insert(name, std::fs::read(&path).unwrap());
            }
        }
    }
    files
}

/// Starts `args`, waits `micros`, sends SIGINT, and returns how the run ended.
fn interrupt_after(args: &[&str], micros: u64) -> (Option<i32>, String) {
    let child = command()
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    std::thread::sleep(Duration::from_micros(micros));
    // The child is not waited for yet, so its id is still its own even if it has ended.
    send_signal(child.id(), "INT");
    let (status, _, stderr) = finish(child, Duration::from_secs(60));
    (status, stderr)
}

#[test]
fn sigint_at_random_moments_leaves_a_complete_file_or_none() {
    let args = ["solve", "--game", "nim", "--heaps", "2", "--max", "300"];
    let expected = run(&args).stdout.into_bytes();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t.csv");
    let out_arg = out.to_str().unwrap();
    let mut rng = SplitMix64::new(11);
    let mut seen = BTreeMap::new();
    for _ in 0..120 {
        let _ = std::fs::remove_file(&out);
        let (status, stderr) = interrupt_after(&[&args[..], &["--out", out_arg]].concat(), {
            // Over the whole run: start-up, labelling, writing and renaming.
            rng.below(12_000) as u64
        });
        let files = tree(dir.path());
        let complete = files.len() == 1 && files.get("t.csv") == Some(&expected);
        *seen.entry(classify(status, &stderr, complete, files.is_empty())).or_insert(0) += 1;
    }
    eprintln!("solve: {seen:?}");
}

#[test]
fn sigint_during_the_suite_leaves_the_old_data_or_the_new_never_a_mix() {
    let repo = env!("CARGO_MANIFEST_DIR");
    let fresh = tree(&Path::new(repo).join("data"));
    // The old run: the same files, but one of them differs, so a mix would show.
    let mut old = fresh.clone();
    old.get_mut("summary.csv").unwrap().extend_from_slice(b"an older run\n");
    let mut rng = SplitMix64::new(5);
    let mut seen = BTreeMap::new();
    for _ in 0..20 {
        let root = tempfile::tempdir().unwrap();
        let data = root.path().join("data");
        for (name, bytes) in &old {
            std::fs::create_dir_all(data.join(name).parent().unwrap()).unwrap();
            std::fs::write(data.join(name), bytes).unwrap();
        }
        let report = root.path().join("REPORT.md");
        let args = ["--quiet", "suite", "--data-dir", data.to_str().unwrap()];
        let args = [&args[..], &["--report", report.to_str().unwrap(), "--bench", "none"]].concat();
        let (status, stderr) = interrupt_after(&args, rng.below(250_000) as u64);
        let now = tree(&data);
        let entries = std::fs::read_dir(root.path()).unwrap().count();
        // Complete: the new data and the report, nothing else beside them.
        let complete = now == fresh && report.exists() && entries == 2;
        // Absent: the old data untouched, no report, no staging directory.
        let absent = now == old && entries == 1;
        *seen.entry(classify(status, &stderr, complete, absent)).or_insert(0) += 1;
    }
    eprintln!("suite: {seen:?}");
}
