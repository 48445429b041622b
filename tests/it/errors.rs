//! What every command promises: one error line and status 2 for bad input, no partial
//! file after a signal, a quiet end on a closed pipe, no panic on a full stdout or stderr.

use crate::support::cli::{command, finish, limited, run, run_limited, Run};

#[test]
fn a_closed_pipe_ends_quietly_with_status_0() {
    use std::io::Read;
    let mut child = command()
        .args(["solve", "--game", "nim", "--heaps", "3", "--max", "200"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 64];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn ctrl_c_or_sigterm_leaves_no_file_under_the_requested_name() {
    for signal in ["-INT", "-TERM"] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.csv");
        // Large enough to be still labelling or writing when the signal arrives.
        let child = command()
            .args(["solve", "--game", "subtract:1,3,4", "--heaps", "4", "--max", "90"])
            .args(["--out", path.to_str().unwrap()])
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(400));
        let status = std::process::Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(130), "interrupted runs exit 130 ({signal})");
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert!(left.is_empty(), "left behind after {signal}: {left:?}");
    }
}

#[test]
fn a_full_stdout_is_an_error_line_not_a_panic() {
    let commands: [&[&str]; 4] = [
        &["info", "--game", "nim", "--heaps", "2", "--max", "3"],
        &["play", "7", "8", "9"],
        &["classes", "--heaps", "2", "--max", "3", "--out", "/tmp"],
        &["solve", "--game", "nim", "--heaps", "2", "--max", "3"],
    ];
    for args in commands {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
        let out = command().args(args).stdout(full).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("No space left on device") && !err.contains("panicked"), "{err}");
    }
}

#[test]
fn out_of_range_threads_timeout_and_games_are_refused() {
    let info = ["info", "--game", "nim", "--heaps", "2", "--max", "3"];
    let crosscheck =
        ["crosscheck", "--format", "p2197", "--program", "true", "--heaps", "1", "--max", "3"];
    let cases: [(Vec<&str>, &str); 3] = [
        ([&["--threads", "10000"], &info[..]].concat(), "from 1 to 256"),
        ([&crosscheck[..], &["--timeout", "1e30"]].concat(), "at most 86400"),
        (vec!["play", "--games", "18446744073709551615", "1"], "1..=1000000"),
    ];
    for (args, needle) in cases {
        let Run { status: code, stderr: err, .. } = run(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(needle) && !err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn error_lines_escape_control_characters_and_survive_a_full_stderr() {
    let Run { status: code, stderr: err, .. } =
        run(&["solve", "--game", "a\u{1b}[31mb", "--heaps", "2", "--max", "3"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown game 'a\\u{1b}[31mb'") && !err.contains('\u{1b}'), "{err}");
    for args in [&["--bogus"][..], &["solve", "--game", "nope", "--heaps", "2", "--max", "3"]] {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
        let out = command().args(args).stderr(full).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

/// Asserts a clean refusal: status 2, nothing on stdout, one line on stderr holding `needle`.
fn assert_refused(args: &[&str], got: &Run, needle: &str) {
    assert_eq!((got.status, got.stdout.as_str()), (2, ""), "{args:?}: {}", got.stderr);
    assert_eq!(got.stderr.lines().count(), 1, "{args:?}: {}", got.stderr);
    assert!(got.stderr.contains(needle), "{args:?}: {}", got.stderr);
}

#[test]
fn a_memory_limit_is_a_refusal_that_names_it_not_an_abort() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("big.csv");
    // 1.5 GiB of tables under a 400 MB address space.
    let args = ["solve", "--game", "nim", "--heaps", "4", "--max", "255"];
    let args = [&args[..], &["--out", out.to_str().unwrap()]].concat();
    let refused = run_limited(400_000, &args);
    assert_refused(&args, &refused, "bound by the address-space limit (ulimit -v)");
    assert!(refused.stderr.starts_with("nimtab: error: space too large: nim, 4 heaps, max 255"));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    let info = run_limited(400_000, &["info", "--game", "nim", "--heaps", "2", "--max", "3"]);
    assert_eq!(info.status, 0, "{}", info.stderr);
    let last = info.stdout.lines().last().unwrap();
    assert!(last.ends_with(" bytes), bound by the address-space limit (ulimit -v)"), "{last}");
    assert!(last.contains(" MiB ("), "{last}");
}

#[test]
fn a_position_with_more_moves_than_memory_is_refused_before_they_are_listed() {
    // A heap of a million stones has small labels and a million moves.
    let args = ["moves", "--game", "nim", "--rule", "misere", "1000000"];
    let needle = "the position (1000000) has 1000000 legal moves, whose states need 125.89 MiB";
    assert_refused(&args, &run_limited(150_000, &args), needle);
    // The labelling is checked first, before any move is listed (this one aborted).
    let args = ["moves", "--game", "nim", "--rule", "misere", "4194303"];
    assert_refused(&args, &run_limited(300_000, &args), "space too large: nim, 1 heaps");
    let args = ["moves", "--game", "wythoff", "--rule", "normal", "4000000", "3000000"];
    let refused = run_limited(300_000, &args);
    assert_refused(&args, &refused, "space too large: wythoff, 2 heaps");
    // `moves` and `play` take a position, not --max and --heaps: the advice says so.
    assert!(refused.stderr.trim_end().ends_with("; choose a position of smaller heaps"));
    for args in [
        &["moves", "--game", "subtract:1,3,4", "40000", "40000", "40000"][..],
        &["play", "--game", "subtract:1,3,4", "40000", "40000", "40000"],
    ] {
        let refused = run_limited(300_000, args);
        assert_refused(args, &refused, "space too large: subtract:1,3,4, 3 heaps, max 40000");
        assert!(!refused.stderr.contains("--max"), "{}", refused.stderr);
    }
    let args = ["moves", "--game", "wythoff", "3", "5000000"];
    let refused = run_limited(300_000, &args);
    assert_refused(&args, &refused, "heap 5000000 is above the largest heap size, 4194303");
}

/// Runs nimtab with `args` under a limit of 3 seconds of CPU time (`ulimit -t`) and 1 GB
/// of address space: a request refused before any work needs neither.
fn run_cheaply(args: &[&str]) -> Run {
    let mut sh = std::process::Command::new("sh");
    sh.arg("-c").arg("ulimit -t 3 && ulimit -v 1000000 && exec \"$0\" \"$@\"");
    sh.arg(env!("CARGO_BIN_EXE_nimtab")).args(args);
    crate::support::cli::output_of(&mut sh, "")
}

#[test]
fn a_game_that_cannot_be_labelled_in_the_space_asked_is_refused_before_any_work() {
    // A take-and-break game's option lists up to 40000 took 20 s, and circular Nim's
    // moves of two heaps 10 s and 1.7 GB, before these refusals.
    let splits = "octal:0.77 can split a heap in two, so tuples of a fixed number of heaps \
                  do not hold its moves";
    let cases: [(&[&str], &str); 7] = [
        (&["moves", "--game", "octal:0.77", "40000"], splits),
        (&["moves", "--game", "octal:0.77", "--rule", "sj", "4000000"], splits),
        (&["play", "--game", "octal:0.77", "40000"], splits),
        (&["solve", "--game", "octal:0.77", "--heaps", "1", "--max", "40000"], splits),
        (&["verify", "--game", "octal:0.77", "--heaps", "1", "--max", "40000"], splits),
        (&["check", "--game", "octal:0.77", "--heaps", "1", "--max", "40000", "--rule"], splits),
        (
            &["moves", "--game", "circular:3", "3000", "3000"],
            "circular:3 is not defined for 2 heaps: K = 3 consecutive heaps need at least 3",
        ),
    ];
    for (args, needle) in cases {
        let args: Vec<&str> = match args[0] {
            "check" => [args, &["normal", "--claim-p", "h1 == 0"]].concat(),
            _ => args.to_vec(),
        };
        assert_refused(&args, &run_cheaply(&args), needle);
    }
}

#[test]
fn a_claim_naming_a_heap_the_positions_lack_is_refused_before_the_space_is_planned() {
    // Tables of 116419 GiB, planned after the claim: h4 is wrong first.
    let args = ["check", "--game", "subtract:1,3,4", "--heaps", "3", "--max", "100000"];
    let args = [&args[..], &["--rule", "normal"]].concat();
    let refused = run(&[&args[..], &["--claim-p", "h4 == 0"]].concat());
    assert_eq!(refused.status, 2, "{}", refused.stderr);
    let first = refused.stderr.lines().next().unwrap_or_default();
    assert_eq!(
        first,
        "nimtab: error: --claim-p, column 1: h4 names heap 4, but positions have 3 heaps"
    );
}

#[test]
fn merge_checks_every_part_before_it_reads_standard_input() {
    // Standard input stays open and empty: reading it first would wait for ever.
    for (parts, needle) in [
        (&["-", "/nonexistent/part.csv"][..], "cannot read /nonexistent/part.csv: No such file"),
        (&["-", "-"], "merge part -: standard input is given twice"),
    ] {
        let child = command()
            .arg("merge")
            .args(parts)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let (status, stdout, stderr) = finish(child, std::time::Duration::from_secs(20));
        let got = Run { status: status.unwrap_or(-1), stdout, stderr };
        assert_refused(parts, &got, needle);
    }
}

#[test]
fn endless_inputs_are_refused_at_once_in_little_memory() {
    // `yes 1` on stdin never ends; neither does /dev/zero.
    let mut yes = std::process::Command::new("yes")
        .arg("1")
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let judge = limited(200_000)
        .args(["judge", "p2197"])
        .stdin(yes.stdout.take().unwrap())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let (status, stdout, stderr) = finish(judge, std::time::Duration::from_secs(60));
    let _ = yes.kill();
    let _ = yes.wait();
    let got = Run { status: status.unwrap_or(-1), stdout, stderr };
    assert_refused(&["judge"], &got, "bad contest input: more than 1400154 bytes");
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let report = dir.path().join("R.md");
    let cases: [(Vec<&str>, &str); 2] = [
        (
            vec!["grundy", "--game", "graph:/dev/zero", "--max", "4"],
            "move graph /dev/zero, line 1: longer than 256 bytes",
        ),
        (
            vec!["suite", "--bench", "/dev/zero", "--data-dir", data.to_str().unwrap()]
                .into_iter()
                .chain(["--report", report.to_str().unwrap()])
                .collect(),
            "--bench /dev/zero: larger than 1024 KiB",
        ),
    ];
    for (args, needle) in cases {
        assert_refused(&args, &run_limited(200_000, &args), needle);
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn an_output_that_cannot_be_created_is_refused_before_any_work() {
    // Nothing can be created in /proc, whoever runs the tests (root included).
    let space = ["--game", "nim", "--heaps", "2", "--max", "3"];
    let cases: [Vec<&str>; 9] = [
        [&["check"][..], &space, &["--rule", "normal", "--claim-p", "xor == 1"]].concat(),
        [&["solve"][..], &space].concat(),
        [&["verify"][..], &space].concat(),
        vec!["grundy", "--game", "nim", "--max", "3"],
        vec!["split", "--stones", "3"],
        vec!["plot", "--game", "nim", "--max", "3", "--rule", "normal"],
        vec!["classes", "--heaps", "2", "--max", "3"],
        vec!["suite", "--report", "/proc/R.md"],
        vec!["suite", "--data-dir", "/proc/data"],
    ];
    for args in cases {
        let out = match args[0] {
            "verify" | "classes" => "/proc/out",
            "plot" => "/proc/x.svg",
            "suite" => "",
            _ => "/proc/x.csv",
        };
        let extra: &[&str] = if out.is_empty() { &[] } else { &["--out", out] };
        let args = [&args[..], extra].concat();
        let dir = tempfile::tempdir().unwrap();
        let got = crate::support::cli::run_in(dir.path(), &args);
        assert_refused(&args, &got, "/proc");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "{args:?}");
    }
}

#[test]
fn an_output_directory_is_created_when_missing() {
    let dir = tempfile::tempdir().unwrap();
    let verify = dir.path().join("verify-out");
    let args = ["verify", "--game", "nim", "--heaps", "2", "--max", "3"];
    let got = run(&[&args[..], &["--out", verify.to_str().unwrap()]].concat());
    assert_eq!(got.status, 0, "{}", got.stderr);
    let summary = std::fs::read_to_string(verify.join("summary.csv")).unwrap();
    assert!(summary.starts_with("game,heaps,max,rule,criterion"), "{summary}");
    assert!(verify.join("counterexamples.csv").is_file());
    let classes = dir.path().join("classes-out");
    let got = run(&["classes", "--heaps", "2", "--max", "3", "--out", classes.to_str().unwrap()]);
    assert_eq!(got.status, 0, "{}", got.stderr);
    let names = |d: &std::path::Path| {
        let mut n: Vec<_> = std::fs::read_dir(d).unwrap().map(|e| e.unwrap().file_name()).collect();
        n.sort();
        n
    };
    assert_eq!(names(&classes), ["classes.csv", "transitions.csv"]);
    assert_eq!(names(dir.path()), ["classes-out", "verify-out"], "no staging left");
    // Its parent must exist.
    let deep = dir.path().join("no/such");
    let args = ["classes", "--heaps", "2", "--max", "3", "--out", deep.to_str().unwrap()];
    assert_refused(&args, &run(&args), "its parent");
}

#[test]
fn a_value_with_control_characters_is_named_whole_on_one_line() {
    let space = ["--heaps", "2", "--max", "3"];
    let cases: [(Vec<&str>, &str); 5] = [
        (
            [&["solve", "--game", "subtract:1\n2"][..], &space].concat(),
            r"bad subtraction set in 'subtract:1\n2'",
        ),
        (vec!["solve", "--game", "nim", "--heaps", "3\u{1}", "--max", "3"], r"got '3\u{1}'"),
        ([&["info", "--game", "n\ri\tm"][..], &space].concat(), r"unknown game 'n\ri\tm'"),
        (
            [&["verify", "--game", "nim", "--rules", "normal\nsj"][..], &space].concat(),
            r"normal\nsj",
        ),
        (vec!["solve", "--bo\ngus"], r"unexpected argument '--bo\ngus' found"),
    ];
    for (args, needle) in cases {
        assert_refused(&args, &run(&args), needle);
    }
}

#[test]
fn a_tuple_space_asks_for_heaps_first_and_then_for_max() {
    let required = "nimtab: error: the following required arguments were not provided:";
    for (args, missing) in [
        (&["solve", "--game", "nim", "--heaps", "2"][..], "--max <M>"),
        (&["solve", "--game", "nim", "--max", "3"], "--heaps <N|A..=B>"),
        // Neither: --heaps is asked for, and --max comes with it.
        (&["verify", "--game", "nim"], "--heaps <N|A..=B>"),
        (&["sweep", "--games", "nim", "--heaps", "2"], "--max <M>"),
    ] {
        let r = run(args);
        assert_eq!(r.status, 2, "{args:?}");
        assert_eq!(r.stderr.trim_end(), format!("{required} {missing}"), "{args:?}");
    }
    let total = run(&["solve", "--game", "nim", "--total", "4"]);
    assert_eq!(total.status, 0, "{}", total.stderr);
}
