//! Outputs that are devices or FIFOs: every writer writes them in place (the same bytes a
//! file gets) or refuses with one line, and never replaces one with a plain file.

use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::support::cli::{command, finish, run, run_in, Run};
use crate::support::tree::{assert_refused, old_suite_output, snapshot, suite_args};

/// Creates a FIFO.
fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success(), "mkfifo {}", path.display());
}

/// Creates a character device node like `/dev/null` (1, 3) or `/dev/full` (1, 7); false
/// (with the reason printed) where this user may not.
fn mknod(path: &Path, minor: u32) -> bool {
    let out = Command::new("mknod").arg(path).args(["c", "1", &minor.to_string()]).output();
    match out {
        Ok(out) if out.status.success() => true,
        Ok(out) => {
            eprintln!("skipped: mknod is not permitted: {}", String::from_utf8_lossy(&out.stderr));
            false
        }
        Err(e) => {
            eprintln!("skipped: no mknod: {e}");
            false
        }
    }
}

fn is_char_device(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_char_device())
}

fn is_fifo(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_fifo())
}

/// Runs nimtab with `args` while a thread reads the FIFO `fifo` to its end; the bytes read
/// and the run. A run that never opens the FIFO has its reader released afterwards.
fn run_into_fifo(args: &[&str], fifo: &Path) -> (Vec<u8>, Run) {
    let path = fifo.to_path_buf();
    let reader = std::thread::spawn(move || std::fs::read(&path).unwrap_or_default());
    let child = command()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Writing into a FIFO must not hang: the watchdog fails the test if it does (late
    // enough for the whole default suite on a loaded machine).
    let (status, stdout, stderr) = finish(child, Duration::from_secs(600));
    // A reader still waiting to open is released by an open that does not wait
    // (O_NONBLOCK, 0o4000 on Linux): it fails when no reader is left.
    let _ = std::fs::OpenOptions::new().write(true).custom_flags(0o4000).open(fifo);
    let bytes = reader.join().unwrap();
    (bytes, Run { status: status.unwrap_or(-1), stdout, stderr })
}

/// The file writers, each with the flag naming its output file.
fn file_writers() -> Vec<Vec<&'static str>> {
    let space = ["--game", "subtract:1,3,4", "--heaps", "2", "--max", "9"];
    vec![
        [&["solve"][..], &space].concat(),
        vec!["grundy", "--game", "subtract:1,3,4", "--max", "40"],
        vec!["period", "--game", "subtract:1,3,4", "--max", "40"],
        vec!["split", "--stones", "1..=8"],
        [&["check"][..], &space, &["--rule", "misere", "--claim-p", "xor == 0"]].concat(),
        vec!["sweep", "--games", "nim;subtract:1,2", "--heaps", "1..=2", "--max", "5"],
    ]
}

#[test]
fn every_file_writer_writes_a_fifo_in_place_with_the_bytes_of_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let (file, fifo) = (dir.path().join("out.csv"), dir.path().join("fifo"));
    mkfifo(&fifo);
    for args in file_writers() {
        let got = run(&[&args[..], &["--out", file.to_str().unwrap()]].concat());
        assert!(got.status <= 1, "{args:?}: {}", got.stderr);
        let expected = std::fs::read(&file).unwrap();
        let (bytes, got) =
            run_into_fifo(&[&args[..], &["--out", fifo.to_str().unwrap()]].concat(), &fifo);
        assert!(got.status <= 1, "{args:?}: {}", got.stderr);
        assert_eq!(String::from_utf8_lossy(&bytes), String::from_utf8_lossy(&expected), "{args:?}");
        assert!(is_fifo(&fifo), "{args:?} replaced the FIFO");
    }
    // A picture (its name must end in .svg) and a merge of sweep parts.
    let (picture, picture_fifo) = (dir.path().join("p.svg"), dir.path().join("fifo.svg"));
    mkfifo(&picture_fifo);
    let plot = ["plot", "--game", "nim", "--max", "7", "--rule", "normal", "--out"];
    let sweep = ["sweep", "--games", "nim;subtract:1,2", "--heaps", "2", "--max", "5"];
    let parts: Vec<String> = (1..=2)
        .map(|i| {
            let part = dir.path().join(format!("part-{i}.csv")).to_string_lossy().into_owned();
            let shard = format!("{i}/2");
            let got = run(&[&sweep[..], &["--shard", &shard, "--out", &part]].concat());
            assert_eq!(got.status, 0, "{}", got.stderr);
            part
        })
        .collect();
    let merge = ["merge", &parts[0], &parts[1], "--out"];
    for (args, file, fifo) in [(&plot[..], &picture, &picture_fifo), (&merge[..], &file, &fifo)] {
        let got = run(&[args, &[file.to_str().unwrap()]].concat());
        assert_eq!(got.status, 0, "{args:?}: {}", got.stderr);
        let expected = std::fs::read(file).unwrap();
        let (bytes, got) = run_into_fifo(&[args, &[fifo.to_str().unwrap()]].concat(), fifo);
        assert_eq!(got.status, 0, "{args:?}: {}", got.stderr);
        assert!(bytes == expected, "{args:?}: the FIFO got other bytes than the file");
        assert!(is_fifo(fifo), "{args:?} replaced the FIFO");
    }
    let names: Vec<String> = snapshot(dir.path()).into_keys().collect();
    let expected = ["fifo", "fifo.svg", "out.csv", "p.svg", "part-1.csv", "part-2.csv"];
    assert_eq!(names, expected, "nothing else is left");
}

#[test]
fn the_suite_writes_its_report_into_a_fifo_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let (data, report) = (dir.path().join("data"), dir.path().join("report"));
    mkfifo(&report);
    let args = ["--quiet", "suite", "--data-dir", data.to_str().unwrap(), "--bench", "none"];
    let (bytes, got) =
        run_into_fifo(&[&args[..], &["--report", report.to_str().unwrap()]].concat(), &report);
    assert_eq!(got.status, 0, "{}", got.stderr);
    let text = String::from_utf8_lossy(&bytes);
    assert!(text.starts_with("# nimtab verification report\n"), "the report went into the FIFO");
    assert!(text.contains("data/summary.csv"), "the whole report");
    assert!(is_fifo(&report), "the FIFO was replaced");
    assert!(data.join("summary.csv").is_file());
}

#[test]
fn a_device_is_written_in_place_or_refused_never_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let (null, full) = (dir.path().join("null"), dir.path().join("full"));
    if !mknod(&null, 3) || !mknod(&full, 7) {
        return;
    }
    // A device that takes the report: the run succeeds and the device stays.
    let root = tempfile::tempdir().unwrap();
    let (data, _) = old_suite_output(root.path());
    let got = run(&suite_args(&data, &null));
    assert_eq!(got.status, 0, "{}", got.stderr);
    assert!(is_char_device(&null), "suite --report replaced the device");
    let summary = std::fs::read_to_string(data.join("summary.csv")).unwrap();
    assert!(!summary.contains("an older run"), "the new data is in place");
    // A device that refuses it, as a full disk does: nothing of the run is put in place.
    let root = tempfile::tempdir().unwrap();
    let (data, _) = old_suite_output(root.path());
    let old = snapshot(root.path());
    let got = run(&suite_args(&data, &full));
    assert_refused(&got, "No space left on device", "suite --report full");
    assert!(is_char_device(&full), "suite --report replaced the device");
    assert_eq!(snapshot(root.path()), old, "the old data and report are all there, unchanged");
    for args in file_writers() {
        let got = run(&[&args[..], &["--out", full.to_str().unwrap()]].concat());
        assert_refused(&got, "No space left on device", &args.join(" "));
        let got = run(&[&args[..], &["--out", null.to_str().unwrap()]].concat());
        assert!(got.status <= 1, "{args:?}: {}", got.stderr);
        assert!(is_char_device(&full) && is_char_device(&null), "{args:?} replaced a device");
    }
    // Inside a directory of outputs a device is refused: the directory changes all at once
    // or not at all, and a device cannot take part in that.
    let vd = root.path().join("vd");
    std::fs::create_dir(&vd).unwrap();
    assert!(mknod(&vd.join("counterexamples.csv"), 3));
    let got = run(&[
        "verify",
        "--game",
        "nim",
        "--heaps",
        "2",
        "--max",
        "3",
        "--out",
        vd.to_str().unwrap(),
    ]);
    assert_refused(&got, "is a character device, which nimtab never replaces", "verify --out");
    assert!(is_char_device(&vd.join("counterexamples.csv")));
    assert_eq!(snapshot(&vd).len(), 1, "nothing else in the directory");
}

#[test]
fn dev_null_stays_a_character_device_after_every_writer() {
    let dev_null = Path::new("/dev/null");
    if std::fs::OpenOptions::new().write(true).open(dev_null).is_err() {
        eprintln!("skipped: /dev/null is not writable here");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let got = run_in(dir.path(), &suite_args(Path::new("data"), dev_null));
    assert_eq!(got.status, 0, "{}", got.stderr);
    for args in file_writers() {
        let got = run(&[&args[..], &["--out", "/dev/null"]].concat());
        assert!(got.status <= 1, "{args:?}: {}", got.stderr);
    }
    assert!(is_char_device(dev_null), "/dev/null is no longer a character device");
}

#[test]
fn dev_stdout_into_a_pipe_is_written_in_place() {
    // The tests read the binary's stdout through a pipe, which /dev/stdout then names.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("out.csv");
    let mut writers = file_writers();
    writers.push(vec!["quotient", "--game", "nim", "--max-heap", "2"]);
    for args in writers {
        let to_file = run(&[&args[..], &["-q", "--out", file.to_str().unwrap()]].concat());
        assert!(to_file.status <= 1, "{args:?}: {}", to_file.stderr);
        let written = String::from_utf8(std::fs::read(&file).unwrap()).unwrap();
        let piped = run(&[&args[..], &["-q", "--out", "/dev/stdout"]].concat());
        assert_eq!((piped.status, piped.stderr.as_str()), (to_file.status, ""), "{args:?}");
        // What the command prints besides its file comes after it or, for some, before.
        let (printed, stdout) = (&to_file.stdout, &piped.stdout);
        let in_order = [format!("{written}{printed}"), format!("{printed}{written}")];
        assert!(in_order.contains(stdout), "{args:?}: {stdout}");
    }
}

#[test]
fn out_dev_stdout_into_a_file_follows_what_the_command_prints_there() {
    // The shell opened out.txt for the command's stdout: the table goes after the
    // summary the command prints there, through the same open file, never renamed over
    // it (which would drop the summary and leave the shell's file unlinked).
    let dir = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_nimtab");
    let check = ["-q", "check", "--game", "nim", "--heaps", "2", "--max", "3", "--rule", "misere"];
    let check = [&check[..], &["--claim-p", "xor == 0"]].concat();
    let reference = run_in(dir.path(), &[&check[..], &["--out", "ref.csv"]].concat());
    let table = std::fs::read_to_string(dir.path().join("ref.csv")).unwrap();
    let quoted: Vec<String> = check.iter().map(|a| format!("'{a}'")).collect();
    for out in ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"] {
        let line = format!("{bin} {} --out {out} > out.txt; echo $? > status", quoted.join(" "));
        let status = Command::new("sh").args(["-c", &line]).current_dir(dir.path()).status();
        assert!(status.unwrap().success());
        let got = std::fs::read_to_string(dir.path().join("out.txt")).unwrap();
        assert_eq!(got, format!("{}{table}", reference.stdout), "{out}");
        assert_eq!(std::fs::read_to_string(dir.path().join("status")).unwrap(), "1\n");
    }
}
