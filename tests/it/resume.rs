//! Checkpoints: a run killed at any moment resumes to the output of a run never
//! interrupted; a full disk leaves the previous checkpoint; checkpoints of another game,
//! corrupt, truncated or of another format are refused with one line; sizes that cannot
//! fit are refused before the run.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use nimtab::random::SplitMix64;

use crate::support::cli::{command, output_of, run};

/// `nimtab ARGS` in `dir`: status, stdout, stderr.
fn run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let r = output_of(command().args(args).current_dir(dir), "");
    (r.status, r.stdout, r.stderr)
}

const GAME: [&str; 4] = ["--game", "octal:0.014", "--max", "2^17"];

/// The grundy arguments of the killed runs: every value as a b-file, checkpointed after
/// every segment.
fn checkpointed(first: bool) -> Vec<&'static str> {
    let flag = if first { "--checkpoint" } else { "--resume" };
    let rest =
        ["--format", "bfile", "--out", "out.txt", flag, "run.ckpt", "--checkpoint-every", "0"];
    [&["-q", "grundy"][..], &GAME, &rest].concat()
}

#[test]
fn a_run_killed_at_random_points_resumes_to_the_same_output() {
    let dir = tempfile::tempdir().unwrap();
    let whole = run(&[&["grundy"][..], &GAME, &["--format", "bfile"]].concat());
    assert_eq!(whole.status, 0, "{}", whole.stderr);
    let mut rng = SplitMix64::new(7);
    let mut kills = 0;
    loop {
        let first = !dir.path().join("run.ckpt").exists();
        let mut child = command()
            .args(checkpointed(first))
            .current_dir(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        if kills < 6 {
            std::thread::sleep(Duration::from_millis(20 + rng.next_u64() % 400));
            if child.try_wait().unwrap().is_none() {
                child.kill().unwrap(); // SIGKILL: no handler runs
                child.wait().unwrap();
                kills += 1;
                continue;
            }
        }
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        break;
    }
    let resumed = std::fs::read_to_string(dir.path().join("out.txt")).unwrap();
    assert!(resumed == whole.stdout, "the resumed output differs after {kills} kills");
    assert!(kills > 0, "no run was killed: the test did not test anything");
}

#[test]
fn a_period_search_resumes_to_the_same_answer() {
    let dir = tempfile::tempdir().unwrap();
    let search = ["period", "--game", "octal:0.16", "--max"];
    let whole = run(&[&search[..], &["600000"]].concat());
    let row = "game,preperiod,period,saltus,checked_through\noctal:0.16,105351,149459,0,509621\n";
    assert_eq!(whole.stdout, row);
    // A first run to heap 300000 (no period yet: status 1), then the search resumed to
    // 600000 from its checkpoint.
    let first = [&search[..], &["300000", "--checkpoint", "p.ckpt", "--checkpoint-every", "0"]];
    let (status, _, stderr) = run_in(dir.path(), &first.concat());
    assert_eq!(status, 1, "{stderr}");
    let resumed = [&search[..], &["600000", "--resume", "p.ckpt"]].concat();
    let (status, stdout, stderr) = run_in(dir.path(), &resumed);
    assert_eq!((status, stdout), (0, whole.stdout), "{stderr}");
}

/// A finished checkpoint of `octal:0.014` to heap 5000 in `dir`, as `c.ckpt`.
fn small_checkpoint(dir: &Path) {
    let args = ["-q", "grundy", "--game", "octal:0.014", "--max", "5000", "--format", "freq"];
    let (status, _, stderr) = run_in(dir, &[&args[..], &["--checkpoint", "c.ckpt"]].concat());
    assert_eq!(status, 0, "{stderr}");
}

/// Resumes `c.ckpt` in `dir` as `game`: the one line of its refusal.
fn refusal(dir: &Path, game: &str) -> String {
    let args =
        ["grundy", "--game", game, "--max", "6000", "--format", "freq", "--resume", "c.ckpt"];
    let (status, stdout, stderr) = run_in(dir, &args);
    assert_eq!(status, 2, "{game}: {stdout}{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("nimtab: error: cannot resume from checkpoint"), "{stderr}");
    stderr
}

#[test]
fn foreign_corrupt_truncated_and_other_format_checkpoints_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.ckpt");
    small_checkpoint(dir.path());
    let good = std::fs::read(&path).unwrap();
    assert!(refusal(dir.path(), "octal:0.161").contains("it is for octal:0.014, not octal:0.161"));
    let mut flipped = good.clone();
    flipped[good.len() / 2] ^= 1;
    std::fs::write(&path, &flipped).unwrap();
    assert!(refusal(dir.path(), "octal:0.014").contains("corrupt or truncated"));
    std::fs::write(&path, &good[..good.len() - 10]).unwrap();
    assert!(refusal(dir.path(), "octal:0.014").contains("corrupt or truncated"));
    let text = String::from_utf8(good.clone()).unwrap().replace("format 1\n", "format 9\n");
    std::fs::write(&path, text).unwrap();
    assert!(refusal(dir.path(), "octal:0.014").contains("format version 9"));
    std::fs::write(&path, b"not a checkpoint\n").unwrap();
    assert!(refusal(dir.path(), "octal:0.014").contains("not a nimtab checkpoint"));
    std::fs::write(&path, &good).unwrap();
    let values = dir.path().join("c.ckpt.values");
    let mut bytes = std::fs::read(&values).unwrap();
    bytes[100] ^= 1;
    std::fs::write(&values, &bytes).unwrap();
    assert!(refusal(dir.path(), "octal:0.014").contains("digest differs"));
    std::fs::remove_file(&values).unwrap();
    assert!(refusal(dir.path(), "octal:0.014").contains("values file"));
    // A new run never overwrites a checkpoint.
    let args = ["grundy", "--game", "octal:0.014", "--max", "10", "--checkpoint", "c.ckpt"];
    let (status, _, stderr) = run_in(dir.path(), &args);
    assert_eq!(status, 2);
    assert!(stderr.contains("exists: continue its run with --resume c.ckpt"), "{stderr}");
}

#[test]
fn a_full_disk_stops_the_run_with_one_line_and_the_previous_checkpoint_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let whole = run(&[&["grundy"][..], &GAME, &["--format", "bfile"]].concat());
    // Files may not grow past 100 blocks of 512 bytes: the values file (128 KiB in all)
    // hits the limit mid-run. SIGXFSZ is ignored, so the write fails with EFBIG, as on a
    // full disk, instead of killing the process.
    let mut sh = Command::new("sh");
    sh.arg("-c").arg("trap '' XFSZ; ulimit -f 100; exec \"$0\" \"$@\"");
    sh.arg(env!("CARGO_BIN_EXE_nimtab")).args(checkpointed(true)).current_dir(dir.path());
    let r = output_of(&mut sh, "");
    assert_eq!(r.status, 2, "{}", r.stderr);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(r.stderr.contains("File too large"), "{}", r.stderr);
    assert!(!dir.path().join("out.txt").exists(), "no output of a failed run");
    let (status, _, stderr) = run_in(dir.path(), &checkpointed(false));
    assert_eq!(status, 0, "{stderr}");
    let resumed = std::fs::read_to_string(dir.path().join("out.txt")).unwrap();
    assert!(resumed == whole.stdout, "the run resumed after the full disk differs");
}

#[test]
fn sizes_beyond_2_40_and_runs_that_cannot_fit_are_refused_with_one_line() {
    let one_line = |args: &[&str], needle: &str| {
        let r = run(args);
        assert_eq!((r.status, r.stdout.as_str()), (2, ""), "{args:?}: {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
        assert!(r.stderr.contains(needle), "{args:?}: {}", r.stderr);
    };
    one_line(
        &["grundy", "--game", "octal:0.161", "--max", "1099511627777"],
        "1099511627777 is above",
    );
    one_line(&["period", "--game", "octal:0.161", "--max", "2^41"], "(2^40)");
    one_line(&["grundy", "--game", "octal:0.161", "--max", "2^30"], "use --format freq");
    // 2^40 values need 2 TiB of disk, more than any test machine has free.
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().to_str().unwrap();
    let args = [
        "grundy",
        "--game",
        "octal:0.161",
        "--max",
        "2^40",
        "--format",
        "freq",
        "--work-dir",
        work,
    ];
    one_line(&args, "of disk in");
}
