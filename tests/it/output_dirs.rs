//! Directories of outputs change all at once or not at all: a target that cannot be
//! replaced, an unwritable subdirectory, a full disk or a concurrent run leave the old
//! outputs all there, unchanged, and no temporary or staging directory behind.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::support::cli::{command, finish, run, run_in, Run};
use crate::support::tree::{assert_refused, old_suite_output, snapshot, suite_args};

/// `verify --out DIR` of a small space.
fn verify_into(dir: &Path, max: &'static str) -> Vec<String> {
    let args = ["--quiet", "verify", "--game", "nim", "--heaps", "2", "--max", max, "--out"];
    args.iter().map(|a| a.to_string()).chain([dir.to_string_lossy().into_owned()]).collect()
}

#[test]
fn a_directory_where_an_output_file_goes_leaves_every_old_output_unchanged() {
    // verify and classes know their files: found before any work.
    let verify = verify_into(Path::new("vd"), "3");
    let classes = ["classes", "--heaps", "2", "--max", "3", "--out", "vd"].map(String::from);
    for (args, kept, blocked) in [
        (&verify[..], "summary.csv", "counterexamples.csv"),
        (&classes[..], "classes.csv", "transitions.csv"),
    ] {
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(root.path().join("vd").join(blocked)).unwrap();
        std::fs::write(root.path().join("vd").join(kept), "old\n").unwrap();
        let before = snapshot(root.path());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let got = run_in(root.path(), &args);
        let needle = format!("vd/{blocked} is a directory, where an output file must go");
        assert_refused(&got, &needle, &args.join(" "));
        assert_eq!(snapshot(root.path()), before, "{args:?}");
    }
    // The suite's files are known only once they are made: found when they are put in
    // place, before the first rename.
    let root = tempfile::tempdir().unwrap();
    let (data, report) = old_suite_output(root.path());
    std::fs::remove_file(data.join("plots/nim-normal.svg")).unwrap();
    std::fs::create_dir(data.join("plots/nim-normal.svg")).unwrap();
    let before = snapshot(root.path());
    let got = run(&suite_args(&data, &report));
    assert_refused(&got, "plots/nim-normal.svg is a directory, where an output file", "suite");
    assert_eq!(snapshot(root.path()), before, "old data and report all there, unchanged");
}

/// Whether this user can create a file in a directory of mode 555 (root can).
fn permissions_bind_this_user(dir: &Path) -> bool {
    let probe = dir.join("probe");
    std::fs::create_dir(&probe).unwrap();
    std::fs::set_permissions(&probe, std::fs::Permissions::from_mode(0o555)).unwrap();
    let denied = std::fs::write(probe.join("x"), "x").is_err();
    let _ = std::fs::remove_file(probe.join("x"));
    std::fs::remove_dir(&probe).unwrap();
    denied
}

#[test]
fn an_unwritable_subdirectory_leaves_every_old_output_unchanged() {
    let root = tempfile::tempdir().unwrap();
    let (data, report) = old_suite_output(root.path());
    let args = suite_args(&data, &report);
    let mut suite = command();
    if !permissions_bind_this_user(root.path()) {
        // Root is not stopped by permissions: the suite runs as the user nobody, which owns
        // the tree (a directory where a file must go is the other test's way to fail).
        let chown = Command::new("chown").args(["-R", "65534:65534"]).arg(root.path()).status();
        let setpriv = Command::new("setpriv").arg("--version").output();
        if !chown.is_ok_and(|s| s.success()) || !setpriv.is_ok_and(|o| o.status.success()) {
            eprintln!("skipped: running as root without chown and setpriv to become nobody");
            return;
        }
        eprintln!("running as root: the unwritable directory is tested as the user nobody");
        suite = Command::new("setpriv");
        suite.args(["--reuid=65534", "--regid=65534", "--clear-groups"]);
        suite.arg(env!("CARGO_BIN_EXE_nimtab"));
    }
    std::fs::set_permissions(data.join("plots"), std::fs::Permissions::from_mode(0o555)).unwrap();
    let before = snapshot(root.path());
    let got = crate::support::cli::output_of(suite.args(&args), "");
    assert_refused(&got, "cannot create a file in", "suite");
    assert!(got.stderr.contains("plots: Permission denied"), "{}", got.stderr);
    assert_eq!(snapshot(root.path()), before, "old data and report all there, unchanged");
}

#[test]
fn concurrent_verify_runs_into_one_directory_never_mix_their_files() {
    let root = tempfile::tempdir().unwrap();
    let vd = root.path().join("vd");
    std::fs::create_dir(&vd).unwrap();
    let max_of = |file: &str| {
        let text = std::fs::read_to_string(vd.join(file)).unwrap();
        text.lines().nth(1).unwrap().split(',').nth(2).unwrap().to_string()
    };
    for round in 0..40 {
        let runs: Vec<_> = ["3", "4"]
            .map(|max| {
                let args = verify_into(&vd, max);
                command().args(&args).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap()
            })
            .into_iter()
            .collect();
        for child in runs {
            let (status, _, stderr) = finish(child, Duration::from_secs(60));
            assert_eq!(status, Some(0), "round {round}: {stderr}");
        }
        assert_eq!(max_of("summary.csv"), max_of("counterexamples.csv"), "round {round}: mixed");
        assert_eq!(snapshot(&vd).len(), 2, "round {round}: nothing else in the directory");
    }
}

/// Whether process `pid` waits for a `flock` (Linux's `/proc/locks` lists waiters as
/// `-> FLOCK`); `None` where the table cannot be read.
fn waits_for_a_lock(pid: u32) -> Option<bool> {
    let locks = std::fs::read_to_string("/proc/locks").ok()?;
    Some(locks.lines().any(|l| l.contains("-> FLOCK") && l.contains(&format!(" {pid} "))))
}

#[test]
fn a_run_puts_its_files_in_place_only_while_it_holds_the_directory_lock() {
    let root = tempfile::tempdir().unwrap();
    let vd = root.path().join("vd");
    std::fs::create_dir(&vd).unwrap();
    std::fs::write(vd.join("summary.csv"), "old\n").unwrap();
    // Another holder of the lock, like a reader that wants a consistent set of files.
    let holder = std::fs::File::open(&vd).unwrap();
    holder.lock().unwrap();
    let mut child = command()
        .args(verify_into(&vd, "3"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    loop {
        match waits_for_a_lock(child.id()) {
            Some(true) => break,
            None if started.elapsed() > Duration::from_secs(2) => break,
            _ if started.elapsed() > Duration::from_secs(30) => break,
            _ => {}
        }
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(child.try_wait().unwrap().is_none(), "the run did not wait for the lock");
    assert_eq!(std::fs::read_to_string(vd.join("summary.csv")).unwrap(), "old\n");
    let top: Vec<String> = snapshot(&vd).into_keys().filter(|k| !k.contains('/')).collect();
    assert_eq!(top.len(), 2, "only the old file and the staging directory: {top:?}");
    drop(holder);
    let (status, _, stderr) = finish(child, Duration::from_secs(60));
    assert_eq!(status, Some(0), "{stderr}");
    let summary = std::fs::read_to_string(vd.join("summary.csv")).unwrap();
    assert!(summary.starts_with("game,heaps,max"), "{summary}");
    assert_eq!(snapshot(&vd).len(), 2, "both files, nothing else");
}

/// Runs nimtab in `dir` under a file-size limit of `blocks` blocks of 512 bytes
/// (`ulimit -f`): a write beyond it fails as a full disk would.
fn run_with_file_limit(dir: &Path, blocks: u32, args: &[&str]) -> Run {
    let mut sh = Command::new("sh");
    sh.arg("-c").arg(format!("ulimit -f {blocks} && exec \"$0\" \"$@\""));
    sh.arg(env!("CARGO_BIN_EXE_nimtab")).args(args).current_dir(dir);
    crate::support::cli::output_of(&mut sh, "")
}

#[test]
fn a_failed_write_leaves_no_staging_directory_or_temporary() {
    // The suite: summary.csv fits in 20 KiB, counterexamples.csv does not, so the failure
    // comes with files already staged.
    let root = tempfile::tempdir().unwrap();
    let (data, report) = old_suite_output(root.path());
    let before = snapshot(root.path());
    let got = run_with_file_limit(root.path(), 40, &suite_args(&data, &report));
    assert_refused(&got, "counterexamples.csv: File too large", "suite");
    assert_eq!(snapshot(root.path()), before, "suite");
    // verify into a new directory (staged beside it) and an existing one (staged inside).
    let verify = ["verify", "--game", "subtract:1,3,4", "--heaps", "1..=3", "--max", "30"];
    let verify = [&verify[..], &["--limit", "100", "--out", "vd"]].concat();
    for existing in [false, true] {
        let root = tempfile::tempdir().unwrap();
        if existing {
            std::fs::create_dir(root.path().join("vd")).unwrap();
            std::fs::write(root.path().join("vd/summary.csv"), "old\n").unwrap();
        }
        let before = snapshot(root.path());
        let got = run_with_file_limit(root.path(), 4, &verify);
        assert_refused(&got, "vd/counterexamples.csv: File too large", "verify");
        assert_eq!(snapshot(root.path()), before, "verify into an existing directory: {existing}");
    }
    // classes, whose first file does not fit; and a single file.
    let root = tempfile::tempdir().unwrap();
    let got = run_with_file_limit(root.path(), 0, &["classes", "--heaps", "3", "--max", "5"]);
    assert_refused(&got, "classes.csv: File too large", "classes");
    let got = run_with_file_limit(
        root.path(),
        1,
        &["solve", "--game", "nim", "--heaps", "2", "--max", "99", "--out", "t.csv"],
    );
    assert_refused(&got, "t.csv: File too large", "solve");
    assert!(snapshot(root.path()).is_empty(), "{:?}", snapshot(root.path()).keys());
}

#[test]
fn the_next_run_finishes_the_commit_of_a_run_killed_in_the_middle_of_it() {
    // A `classes --out vd` killed (SIGKILL) after its first rename: classes.csv in place,
    // the old one set aside, transitions.csv still staged, the commit marker written.
    let root = tempfile::tempdir().unwrap();
    let vd = root.path().join("vd");
    let dead = vd.join(".nimtab-tmp-4000000");
    std::fs::create_dir_all(dead.join(".nimtab-old")).unwrap();
    std::fs::write(vd.join("classes.csv"), "classes of the killed run\n").unwrap();
    std::fs::write(vd.join("transitions.csv"), "old transitions\n").unwrap();
    std::fs::write(dead.join(".nimtab-old/classes.csv"), "old classes\n").unwrap();
    std::fs::write(dead.join("transitions.csv"), "transitions of the killed run\n").unwrap();
    std::fs::write(dead.join(".nimtab-commit"), "").unwrap();
    // A run killed before its commit left no marker: its files are not put in place, and
    // its staging directory goes (its process id is above the kernel's largest).
    let unmarked = vd.join(".nimtab-tmp-4000001");
    std::fs::create_dir(&unmarked).unwrap();
    std::fs::write(unmarked.join("transitions.csv"), "never committed\n").unwrap();
    let got = run(&verify_into(&vd, "3").iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(got.status, 0, "{}", got.stderr);
    let read = |name: &str| std::fs::read_to_string(vd.join(name)).unwrap();
    assert_eq!(read("classes.csv"), "classes of the killed run\n");
    assert_eq!(read("transitions.csv"), "transitions of the killed run\n");
    assert!(read("summary.csv").starts_with("game,heaps,max"));
    assert!(!dead.exists(), "the killed run's staging directory is gone");
    assert!(!unmarked.exists(), "the unmarked staging directory of a dead run is gone");
}

/// A process id that no process has: above the kernel's largest (`pid_max` is at most
/// 2^22).
const NO_PROCESS: &str = "4194399";

#[test]
fn temporaries_of_dead_runs_are_removed_by_the_next_run_and_a_live_ones_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let live = std::process::id().to_string();
    for pid in [NO_PROCESS, &live] {
        std::fs::write(d.join(format!(".out.csv.nimtab-tmp-{pid}")), "half").unwrap();
        std::fs::create_dir(d.join(format!(".od.nimtab-tmp-{pid}"))).unwrap();
    }
    std::fs::create_dir_all(d.join(format!("od2/.nimtab-tmp-{NO_PROCESS}"))).unwrap();
    let solve = ["-q", "solve", "--game", "nim", "--heaps", "2", "--max", "3", "--out", "out.csv"];
    assert_eq!(run_in(d, &solve).status, 0);
    for out in ["od", "od2"] {
        let verify = ["-q", "verify", "--game", "nim", "--heaps", "2", "--max", "3", "--out", out];
        assert_eq!(run_in(d, &verify).status, 0);
    }
    let mut left: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .chain(std::fs::read_dir(d.join("od2")).unwrap())
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    let mut expected = vec![
        format!(".od.nimtab-tmp-{live}"),
        format!(".out.csv.nimtab-tmp-{live}"),
        "counterexamples.csv".to_string(),
        "od".into(),
        "od2".into(),
        "out.csv".into(),
        "summary.csv".into(),
    ];
    expected.sort();
    assert_eq!(left, expected);
}
