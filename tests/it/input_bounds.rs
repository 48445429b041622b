//! Inputs are bounded and never wait at open: an endless games file or merge part (a
//! device, `yes` on standard input) is refused at once in little memory, and a FIFO named
//! as a move graph, a games file, a merge part or the suite's benchmark file is refused
//! before it is opened, where opening it would wait for a writer for ever.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::support::cli::{finish, limited, run_with_stdin, Run};

/// Longer than any of these runs takes, so only a hang reaches it.
const HANG: Duration = Duration::from_secs(60);

fn assert_refused(args: &[&str], got: &Run, needle: &str) {
    assert_eq!((got.status, got.stdout.as_str()), (2, ""), "{args:?}: {}", got.stderr);
    assert_eq!(got.stderr.lines().count(), 1, "{args:?}: {}", got.stderr);
    assert!(got.stderr.contains(needle), "{args:?}: expected '{needle}' in {}", got.stderr);
}

/// Runs nimtab under a 300 MB address-space limit with `stdin`, stopped if it hangs.
fn run_bounded(args: &[&str], stdin: Stdio) -> Run {
    let child = limited(300_000)
        .args(args)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let (status, stdout, stderr) = finish(child, HANG);
    Run { status: status.unwrap_or(-1), stdout, stderr }
}

/// Runs nimtab with `yes TEXT` on its standard input.
fn run_on_yes(text: &str, args: &[&str]) -> Run {
    let mut yes = Command::new("yes").arg(text).stdout(Stdio::piped()).spawn().unwrap();
    let got = run_bounded(args, Stdio::from(yes.stdout.take().unwrap()));
    let _ = yes.kill();
    let _ = yes.wait();
    got
}

#[test]
fn endless_games_files_and_merge_parts_are_refused_in_little_memory() {
    let sweep = ["sweep", "--heaps", "1", "--max", "3", "--games-file"];
    let zeros: Vec<&str> = sweep.iter().copied().chain(["/dev/zero"]).collect();
    let got = run_bounded(&zeros, Stdio::null());
    assert_refused(&zeros, &got, "--games-file /dev/zero: larger than 64 MiB");
    let piped: Vec<&str> = sweep.iter().copied().chain(["/dev/stdin"]).collect();
    let got = run_on_yes("nim", &piped);
    assert_refused(&piped, &got, "--games-file /dev/stdin: larger than 64 MiB");
    let merge = ["merge", "/dev/zero"];
    let got = run_bounded(&merge, Stdio::null());
    assert_refused(&merge, &got, "/dev/zero is not a sweep part: its first line is not");
    let merge = ["merge", "/dev/stdin"];
    let got = run_on_yes("# nimtab sweep", &merge);
    assert_refused(&merge, &got, "/dev/stdin is not a sweep part: its first line is not");
    // A part's head that goes on for ever after a first line that looks right.
    let line = "# nimtab sweep 0123456789abcdef part 1/1: games 0..1 of 1, 1 rows";
    let got = run_on_yes(line, &merge);
    assert_refused(&merge, &got, "/dev/stdin, line 2: expected '# family ...'");
}

#[test]
fn a_games_file_may_come_on_standard_input() {
    let args = ["sweep", "--games-file", "-", "--heaps", "1", "--max", "3", "--rules", "normal"];
    let got = run_with_stdin(&args, "# two games\nnim\nsubtract:1\n");
    assert_eq!(got.status, 0, "{}", got.stderr);
    let games: Vec<&str> =
        got.stdout.lines().skip(1).map(|l| l.split(',').next().unwrap()).collect();
    assert_eq!(games, ["nim", "nim", "nim", "subtract:1", "subtract:1", "subtract:1"]);
}

fn mkfifo(path: &Path) -> bool {
    Command::new("mkfifo").arg(path).status().is_ok_and(|s| s.success())
}

#[test]
fn a_fifo_is_refused_before_it_is_opened() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    if !mkfifo(&fifo) {
        println!("skipped: mkfifo cannot make a FIFO here");
        return;
    }
    let fifo = fifo.to_str().unwrap();
    let graph = format!("graph:{fifo}");
    let data = dir.path().join("data");
    let report = dir.path().join("R.md");
    let (data, report) = (data.to_str().unwrap(), report.to_str().unwrap());
    let cases: [(Vec<&str>, String); 5] = [
        (
            vec!["grundy", "--game", &graph, "--max", "4"],
            format!("cannot read move graph {fifo}: it is a FIFO, not a file"),
        ),
        (
            vec!["sweep", "--games", &graph, "--heaps", "1", "--max", "3", "--rules", "normal"],
            format!("cannot read move graph {fifo}: it is a FIFO, not a file"),
        ),
        (
            vec!["sweep", "--games-file", fifo, "--heaps", "1", "--max", "3"],
            format!("--games-file {fifo} is a FIFO, not a file: opening it could wait for ever"),
        ),
        (vec!["merge", fifo], format!("merge part {fifo} is a FIFO, not a file")),
        (
            vec!["suite", "--bench", fifo, "--data-dir", data, "--report", report],
            format!("--bench {fifo} is a FIFO, not a file"),
        ),
    ];
    for (args, needle) in &cases {
        let got = run_bounded(args, Stdio::null());
        assert_refused(args, &got, needle);
    }
    let left: Vec<_> =
        std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, ["fifo"], "nothing but the FIFO is left");
}
