//! Long runs of `grundy` and `period` made safe: one run at a time on a checkpoint (the
//! second is refused naming the first, nothing damaged), a resumed checkpoint checked
//! field by field against its values, values recomputed from their options on request,
//! a period search planned as far as it fits, and the flags' mistakes named.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use nimtab::sequence::plan::{DiskUse, Plan};
use nimtab::sequence::{
    run as run_sequence, Checkpoint, DiskStore, Goal, NoObserver, Observer, SequenceError,
    Settings, Start, Store,
};
use nimtab::Game;
use sha2::{Digest, Sha256};

use crate::support::cli::{
    command, finish, limited, memory_overhead, output_of, run, run_in, wait_for, Run,
};

/// A finished checkpoint `c.ckpt` of `game` to heap `max` in `dir` (values in
/// `c.ckpt.values`).
fn checkpoint_in(dir: &Path, game: &str, max: &str) {
    let args = ["-q", "grundy", "--game", game, "--max", max, "--format", "freq"];
    let r = run_in(dir, &[&args[..], &["--checkpoint", "c.ckpt"]].concat());
    assert_eq!(r.status, 0, "{}", r.stderr);
}

/// Resumes `c.ckpt` in `dir` as `game` to `max`, with `more` arguments.
fn resume_in(dir: &Path, game: &str, max: &str, more: &[&str]) -> Run {
    let args = ["grundy", "--game", game, "--max", max, "--format", "freq", "--resume", "c.ckpt"];
    run_in(dir, &[&args[..], more].concat())
}

/// Asserts a refusal: status 2, nothing on stdout, one line on stderr holding `needle`.
fn refused(r: &Run, needle: &str) {
    assert_eq!((r.status, r.stdout.as_str()), (2, ""), "{}", r.stderr);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(r.stderr.contains(needle), "expected '{needle}' in: {}", r.stderr);
}

/// Holds the lock of `target` as a run would: an exclusive `flock` on its lock file,
/// which names process `pid`.
fn hold_lock_of(target: &Path, pid: u32) -> File {
    let name = target.file_name().unwrap().to_string_lossy();
    let lock = target.with_file_name(format!(".{name}.nimtab-lock"));
    let mut file = File::create(lock).unwrap();
    file.lock().unwrap();
    writeln!(file, "{pid}").unwrap();
    file
}

#[test]
fn a_checkpoint_or_values_file_held_by_another_run_is_refused_naming_it_and_left_intact() {
    let dir = tempfile::tempdir().unwrap();
    checkpoint_in(dir.path(), "octal:0.014", "5000");
    let (ck, values) = (dir.path().join("c.ckpt"), dir.path().join("c.ckpt.values"));
    let before = (std::fs::read(&ck).unwrap(), std::fs::read(&values).unwrap());
    let held = hold_lock_of(&ck, 4242);
    let r = resume_in(dir.path(), "octal:0.014", "9000", &[]);
    refused(&r, "checkpoint c.ckpt is in use by process 4242");
    drop(held);
    let held = hold_lock_of(&values, 4343);
    let r = resume_in(dir.path(), "octal:0.014", "9000", &[]);
    refused(&r, "values file");
    assert!(r.stderr.contains("is in use by process 4343"), "{}", r.stderr);
    assert_eq!((std::fs::read(&ck).unwrap(), std::fs::read(&values).unwrap()), before);
    // A new checkpoint held by a run that has not written it yet.
    let fresh = dir.path().join("new.ckpt");
    let new_held = hold_lock_of(&fresh, 4444);
    let args = ["grundy", "--game", "octal:0.014", "--max", "100", "--checkpoint", "new.ckpt"];
    refused(&run_in(dir.path(), &args), "checkpoint new.ckpt is in use by process 4444");
    assert!(!fresh.exists() && !dir.path().join("new.ckpt.values").exists());
    drop((held, new_held));
    // Released, the run resumes to the output of one never interrupted, and its lock
    // file goes with it.
    let r = resume_in(dir.path(), "octal:0.014", "9000", &["-q"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    let whole = run(&["grundy", "--game", "octal:0.014", "--max", "9000", "--format", "freq"]);
    assert!(r.stdout == whole.stdout, "the resumed output differs");
    assert!(!dir.path().join(".c.ckpt.nimtab-lock").exists(), "the lock file stayed");
}

#[test]
fn a_second_run_on_a_running_checkpoint_is_refused_and_the_next_owner_clears_dead_temporaries() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("ck");
    // A run far too long to end by itself during the test: it holds ck until killed.
    let first = command()
        .args(["-q", "grundy", "--game", "octal:0.161", "--max", "2^30", "--format", "freq"])
        .args(["--checkpoint", "ck", "--checkpoint-every", "0"])
        .current_dir(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = first.id();
    wait_for(&ck);
    let second = run_in(
        dir.path(),
        &["grundy", "--game", "octal:0.161", "--max", "2^18", "--format", "freq", "--resume", "ck"],
    );
    refused(&second, &format!("checkpoint ck is in use by process {pid}"));
    let again = run_in(
        dir.path(),
        &["grundy", "--game", "octal:0.161", "--max", "9", "--checkpoint", "ck"],
    );
    refused(&again, &format!("is in use by process {pid}"));
    let _ = std::process::Command::new("kill").args(["-KILL", &pid.to_string()]).status();
    let (status, _, _) = finish(first, Duration::from_secs(60));
    assert_eq!(status, None, "the first run was killed");
    // What a run killed while saving leaves: its temporary. Others are not ours to remove.
    let dead = dir.path().join(".ck.nimtab-tmp-99999");
    std::fs::write(&dead, "half a checkpoint").unwrap();
    let not_a_pid = dir.path().join(".ck.nimtab-tmp-x1");
    std::fs::write(&not_a_pid, "someone else's").unwrap();
    let fifo = dir.path().join(".ck.nimtab-tmp-88888");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let resumed = run_in(
        dir.path(),
        &[
            "-q",
            "grundy",
            "--game",
            "octal:0.161",
            "--max",
            "2^18",
            "--format",
            "freq",
            "--resume",
            "ck",
        ],
    );
    assert_eq!(resumed.status, 0, "{}", resumed.stderr);
    let whole = run(&["grundy", "--game", "octal:0.161", "--max", "2^18", "--format", "freq"]);
    assert!(resumed.stdout == whole.stdout, "the resumed output differs");
    assert!(!dead.exists(), "the dead run's temporary stayed");
    assert!(not_a_pid.exists() && fifo.exists(), "a file not of that pattern was removed");
}

/// Rewrites the `key` line of the checkpoint `path` to `value` and recomputes its checksum,
/// as someone editing it would.
fn forge(path: &Path, key: &str, value: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    let body = &text[..text.rfind("checksum ").unwrap()];
    let body: String = body
        .lines()
        .map(|l| match l.split_once(' ') {
            Some((k, _)) if k == key => format!("{key} {value}\n"),
            _ => format!("{l}\n"),
        })
        .collect();
    let checksum = hex(&Sha256::digest(body.as_bytes()));
    std::fs::write(path, format!("{body}checksum {checksum}\n")).unwrap();
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The `key` line's value in the checkpoint `path`.
fn field(path: &Path, key: &str) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let line = text.lines().find(|l| l.starts_with(&format!("{key} "))).unwrap();
    line.split_once(' ').unwrap().1.to_string()
}

/// Writes `values` over the checkpoint's values file and records their digest in it.
fn forge_values(dir: &Path, values: &[u8]) {
    std::fs::write(dir.join("c.ckpt.values"), values).unwrap();
    forge(&dir.join("c.ckpt"), "values-sha256", &hex(&Sha256::digest(values)));
}

#[test]
fn an_edited_checkpoint_with_its_checksum_recomputed_is_refused_field_by_field() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("c.ckpt");
    checkpoint_in(dir.path(), "octal:0.161", "2^16");
    let good = std::fs::read(&ck).unwrap();
    let values = std::fs::read(dir.path().join("c.ckpt.values")).unwrap();
    let edits = [
        ("mask", "0".to_string(), "its mask 0 is not one its values allow (1 to 255"),
        ("mask", "1024".into(), "its mask 1024 is not one its values allow"),
        ("mask", "3".into(), "its rare heaps are not those of its values under its mask"),
        ("rare", "1:1 2:0".into(), "its rare heaps are not those of its values under its mask"),
        ("frequencies", "0 65536".into(), "its frequencies do not match its values file"),
        ("period", "0 1 5".into(), "its period is not the one its values certify"),
    ];
    for (key, value, needle) in edits {
        std::fs::write(&ck, &good).unwrap();
        forge(&ck, key, &value);
        refused(&resume_in(dir.path(), "octal:0.161", "2^17", &[]), needle);
    }
    // Rewound to one heap, its digest recomputed: refused (its mask is not one a single
    // value allows), and the values file is not cut to the heap it claims.
    std::fs::write(&ck, &good).unwrap();
    for (key, value) in [
        ("heaps", "1".to_string()),
        ("segments", "0:1".into()),
        ("values-sha256", hex(&Sha256::digest(&values[..1]))),
        ("rare", String::new()),
        ("frequencies", String::new()),
        ("period", "none".into()),
    ] {
        forge(&ck, key, &value);
    }
    refused(&resume_in(dir.path(), "octal:0.161", "2^17", &[]), "its mask 254 is not one");
    assert_eq!(std::fs::read(dir.path().join("c.ckpt.values")).unwrap(), values);
    // G(3) = 200: no heap of 3 has that many options.
    std::fs::write(&ck, &good).unwrap();
    let mut forged = values.clone();
    forged[3] = 200;
    forge_values(dir.path(), &forged);
    let r = resume_in(dir.path(), "octal:0.161", "2^17", &[]);
    refused(&r, "its values file holds G(3) = 200, more than heap 3's options allow");
    // Nothing was damaged: the true checkpoint resumes.
    std::fs::write(&ck, &good).unwrap();
    forge_values(dir.path(), &values);
    let r = resume_in(dir.path(), "octal:0.161", "2^17", &["-q"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert!(field(&ck, "heaps") == (1 + (1 << 17)).to_string());
}

/// Keeps the last checkpoint a run hands over.
#[derive(Default)]
struct LastCheckpoint(Vec<u8>);

impl Observer for LastCheckpoint {
    fn save_checkpoint(&mut self, checkpoint: &[u8]) -> Result<(), SequenceError> {
        self.0 = checkpoint.to_vec();
        Ok(())
    }
}

#[test]
fn an_impossible_mask_reached_past_the_checks_is_a_typed_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let (values, ck) = (dir.path().join("v"), dir.path().join("ck"));
    let game = Game::parse("octal:0.161").unwrap();
    let rule = game.heap_rule().unwrap();
    let open = |create: bool| {
        let mut options = std::fs::OpenOptions::new();
        options.read(true).write(true).create(create).truncate(create).open(&values).unwrap()
    };
    let settings =
        |max| Settings::new(Goal::Values, max).threads(1).checkpoint_every(Some(Duration::ZERO));
    let start = Start::Fresh(Store::Disk(DiskStore::new(open(true), &values)));
    let mut last = LastCheckpoint::default();
    run_sequence(&rule, game.spec(), &settings(5000), start, &mut last).unwrap();
    let mut checkpoint = Checkpoint::decode(&last.0, &ck, game.spec(), &rule).unwrap();
    // Every value is below 256 = h: under mask 1024 none below the marks' width 512 is
    // common. The checks of a resume refuse it; the engine, handed it, says so too.
    assert!(checkpoint.frequencies.largest() < 256);
    checkpoint.mask = 1024;
    assert!(checkpoint.open_values(open(false), &ck).is_err());
    let layout = checkpoint.layout.clone();
    let digest = checkpoint.values_sha256.clone();
    let store = DiskStore::resume(open(false), &values, layout, &digest, &ck).unwrap();
    let start = Start::Resume(Box::new(checkpoint), store);
    let error = run_sequence(&rule, game.spec(), &settings(6000), start, &mut NoObserver);
    match error {
        Err(e @ SequenceError::Inconsistent { .. }) => {
            assert!(e.to_string().contains("the mask 1024 leaves no common value"), "{e}");
        }
        other => panic!("expected the typed error, got {other:?}"),
    }
}

/// The values of `c.ckpt.values` (one byte each) with `a` and `b` exchanged.
fn swapped(dir: &Path, a: usize, b: usize) -> Vec<u8> {
    let mut values = std::fs::read(dir.join("c.ckpt.values")).unwrap();
    values.swap(a, b);
    values
}

#[test]
fn values_recomputed_from_their_options_catch_a_consistently_forged_values_file() {
    let dir = tempfile::tempdir().unwrap();
    checkpoint_in(dir.path(), "octal:0.014", "5000");
    let ck = dir.path().join("c.ckpt");
    let mask: u32 = field(&ck, "mask").parse().unwrap();
    let original = std::fs::read(dir.path().join("c.ckpt.values")).unwrap();
    // Heap 5000 exchanges its value with another common heap's: the frequencies, the
    // rare heaps and the digests all agree, so the resume's checks pass.
    let common = |n: usize| (u32::from(original[n]) & mask).count_ones() % 2 == 1;
    assert!(common(5000), "heap 5000 is common under mask {mask}");
    let other = (4000..5000).find(|&n| common(n) && original[n] != original[5000]).unwrap();
    forge_values(dir.path(), &swapped(dir.path(), other, 5000));
    let out = dir.path().join("out.txt");
    let out_arg = out.to_str().unwrap();
    let r =
        resume_in(dir.path(), "octal:0.014", "5000", &["--out", out_arg, "--verify-values", "1"]);
    assert_eq!(r.status, 1, "{}", r.stderr);
    let expected = format!(
        "nimtab: the run's values are wrong: G(5000) is {} but the mex of its options is",
        original[other]
    );
    assert!(r.stderr.starts_with(&expected), "{}", r.stderr);
    assert!(!out.exists(), "the output of wrong values was written");
    // The true values pass, and the output is written.
    forge_values(dir.path(), &original);
    let r =
        resume_in(dir.path(), "octal:0.014", "5000", &["--out", out_arg, "--verify-values", "8"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert!(r.stderr.contains("8 values recomputed from their options agree"), "{}", r.stderr);
    assert!(r.stderr.contains("(heaps 625 to 5000)"), "{}", r.stderr);
    assert!(out.exists());
}

#[test]
fn a_period_search_beyond_what_fits_runs_until_its_certificate() {
    let r = run(&["period", "--game", "octal:0.77", "--max", "2^33"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert_eq!(r.stdout, "game,preperiod,period,saltus,checked_through\noctal:0.77,71,12,0,167\n");
    // A game no theorem covers never stops early: a search to 2^40 is refused at once.
    let r = run(&["period", "--game", "grundys-game", "--max", "2^40"]);
    refused(&r, "a period search of grundys-game to heap 1099511627776 is too large");
}

#[test]
fn a_period_search_that_outgrows_its_memory_stops_there_with_one_line() {
    let Some(overhead) = memory_overhead() else {
        println!("skipped: a bound tighter than the address-space limit applies here");
        return;
    };
    // The least budget that lets the search reach 2^18 values (octal:0.161 has no period
    // there); a quarter of a MiB more.
    let reach = |budget: u64| {
        let plan =
            Plan::new("", 1 << 40, Goal::Period, Path::new("."), DiskUse::WhenNeeded, budget, None);
        plan.is_ok_and(|plan| plan.reach >= 1 << 18)
    };
    let (mut low, mut high) = (0u64, 1u64 << 40);
    while high - low > 1 {
        let middle = low + (high - low) / 2;
        *(if reach(middle) { &mut high } else { &mut low }) = middle;
    }
    let kib = (high + overhead).div_ceil(1024) + 256;
    let dir = tempfile::tempdir().unwrap();
    let mut sh = limited(kib);
    sh.args(["--threads", "2", "-q", "period", "--game", "octal:0.161", "--max", "2^40"]);
    let r = output_of(sh.current_dir(dir.path()), "");
    refused(&r, "no period certified for octal:0.161 from heap sizes 0..=");
    let stopped: u64 =
        r.stderr.split("0..=").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(stopped >= (1 << 18) - 1, "it stopped at heap {stopped}");
    assert!(
        r.stderr.contains("and a period search of octal:0.161 to heap 1099511627776 is too large"),
        "{}",
        r.stderr
    );
    let left: Vec<PathBuf> =
        std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().path()).collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

#[test]
fn a_work_directory_that_is_not_one_is_named_for_what_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("file");
    std::fs::write(&file, "").unwrap();
    let fifo = dir.path().join("fifo");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let cases = [
        (
            "/dev/null".to_string(),
            "work directory /dev/null is a character device, not a directory",
        ),
        (file.display().to_string(), "is a regular file, not a directory"),
        (fifo.display().to_string(), "is a FIFO, not a directory"),
        (dir.path().join("missing").display().to_string(), "does not exist"),
    ];
    for (work, needle) in cases {
        let r = run(&["grundy", "--game", "octal:0.77", "--max", "10", "--work-dir", &work]);
        refused(&r, needle);
    }
}

#[test]
fn checkpoint_every_without_a_checkpoint_is_refused() {
    let r = run(&["grundy", "--game", "octal:0.77", "--max", "10", "--checkpoint-every", "5"]);
    refused(&r, "--checkpoint-every needs --checkpoint FILE (or --resume FILE)");
}

#[test]
fn a_checkpoint_name_no_file_can_have_is_refused_before_any_work_leaving_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("out.ck/", "checkpoint out.ck/ names a directory"),
        ("/dev/null", "checkpoint /dev/null is a character device, not a regular file"),
        ("nodir/x.ck", "checkpoint nodir/x.ck: directory nodir does not exist"),
        (".", "checkpoint . is a directory, not a file"),
    ];
    for (path, needle) in cases {
        let args = ["-q", "grundy", "--game", "octal:0.161", "--max", "2^16", "--checkpoint", path];
        refused(&run_in(dir.path(), &args), needle);
        let left: Vec<PathBuf> =
            std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().path()).collect();
        assert!(left.is_empty(), "{path} left behind: {left:?}");
    }
}

#[test]
fn a_fresh_run_that_fails_before_its_first_checkpoint_leaves_nothing() {
    let bin = env!("CARGO_BIN_EXE_nimtab");
    // No room for a byte, and too few file descriptors for the values file, for the
    // checkpoint's temporary, or for its directory.
    for limit in ["ulimit -f 0", "ulimit -n 5", "ulimit -n 6", "ulimit -n 7"] {
        let dir = tempfile::tempdir().unwrap();
        let line = format!(
            "{limit}; exec {bin} -q grundy --game octal:0.161 --max 2^16 --format freq \
             --checkpoint ck --out freq.txt"
        );
        let out = std::process::Command::new("bash")
            .args(["-c", &line])
            .current_dir(dir.path())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{limit}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{limit}: {stderr}");
        let left: Vec<PathBuf> =
            std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().path()).collect();
        assert!(left.is_empty(), "{limit} left behind: {left:?}");
    }
}
