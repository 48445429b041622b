//! A fresh clone after the README's main job: `nimtab` alone (what `cargo run --release`
//! runs) rewrites data/ and REPORT.md with the bytes the repository holds, so the
//! checkout stays clean on any machine and with any number of threads.

use std::path::Path;
use std::process::Command;

use crate::support::cli::{command, output_of};

/// `git` with its output, or `None` when git is not installed.
fn git(dir: &Path, args: &[&str]) -> Option<(bool, String)> {
    let out = Command::new("git").args(args).current_dir(dir).output().ok()?;
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    Some((out.status.success(), text))
}

#[test]
fn the_main_job_leaves_a_fresh_clone_clean() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let Some((found, version)) = git(repo, &["--version"]) else {
        eprintln!("skipped: git is not installed, so the repository cannot be cloned");
        return;
    };
    assert!(found, "git --version: {version}");
    // The committed tree: what a user clones (uncommitted changes are not in it).
    let dir = tempfile::tempdir().unwrap();
    let clone = dir.path().join("nimtab");
    let (cloned, text) =
        git(repo, &["clone", "--quiet", ".", clone.to_str().unwrap()]).expect("git runs");
    assert!(cloned, "git clone: {text}");
    // One thread more than the machine's cores, unlike any default: the bytes must not
    // depend on the thread count.
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()) + 1;
    let run =
        output_of(command().current_dir(&clone).env("RAYON_NUM_THREADS", threads.to_string()), "");
    assert_eq!(run.status, 0, "nimtab in the clone: {}", run.stderr);
    let last = run.stdout.lines().last().unwrap_or_default();
    assert!(last.contains(&format!("with {threads} threads on ")), "{last}");
    let (listed, status) = git(&clone, &["status", "--porcelain"]).expect("git runs");
    assert!(listed, "git status: {status}");
    assert_eq!(status, "", "the main job changed the clean checkout");
}
