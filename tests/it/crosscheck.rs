//! `crosscheck`: contest solutions run on every position of a range, their answers
//! compared with the DP, and everything a misbehaving program can do.

use crate::support::cli::{command, data, run, run_with_stdin, Run};

#[test]
fn crosscheck_passes_correct_solutions() {
    let script = format!("sh {}", data("shoi2008_correct.sh"));
    let run = run_with_stdin(
        &[
            "crosscheck",
            "--format",
            "shoi2008",
            "--program",
            &script,
            "--heaps",
            "1..=3",
            "--max",
            "6",
        ],
        "",
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "all answers agree: 399 positions in 1 inputs, 0 mismatches\n");
    let judge = format!("{} judge p2197", env!("CARGO_BIN_EXE_nimtab"));
    let run = run_with_stdin(
        &["crosscheck", "--format", "p2197", "--program", &judge, "--heaps", "1..=3", "--max", "5"],
        "",
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "all answers agree: 258 positions in 26 inputs, 0 mismatches\n");
}

#[test]
fn crosscheck_reports_the_first_mismatch_of_a_wrong_solution() {
    let script = format!("sh {}", data("shoi2008_wrong.sh"));
    let run = run_with_stdin(
        &[
            "crosscheck",
            "--format",
            "shoi2008",
            "--program",
            &script,
            "--heaps",
            "1..=3",
            "--max",
            "6",
            "--batch",
            "50",
        ],
        "",
    );
    assert_eq!(run.status, 1, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines[0], "(0) John Brother");
    assert_eq!(lines[1], "(1) Brother John");
    assert_eq!(*lines.last().unwrap(), "answers differ: 399 positions in 8 inputs, 14 mismatches");
}

#[test]
fn crosscheck_fails_a_program_that_is_missing_crashes_hangs_or_says_too_little() {
    let cases = [
        ("no-such-program-4711", "exited with status 127"),
        ("exit 3", "exited with status 3"),
        ("sleep 20", "did not finish within 0.5 s"),
        ("head -n 2", "printed 2 answer lines for 4 cases"),
    ];
    for (program, message) in cases {
        let args = [
            "crosscheck",
            "--format",
            "p2197",
            "--program",
            program,
            "--heaps",
            "1",
            "--max",
            "3",
            "--timeout",
            "0.5",
        ];
        let run = run_with_stdin(&args, "");
        assert_eq!(run.status, 1, "{program}: {}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{program}: {}", run.stderr);
        assert!(run.stderr.starts_with("nimtab: the checked program failed on input 1: "));
        assert!(run.stderr.contains(message), "{program}: {}", run.stderr);
    }
}

#[test]
fn crosscheck_refuses_ranges_beyond_the_contest_limits() {
    let cases = [
        (
            ["--heaps", "1..=51", "--max", "3", "--batch", "10"],
            "--heaps 51 is above shoi2008's limit of 50 heaps",
        ),
        (
            ["--heaps", "1..=2", "--max", "5001", "--batch", "10"],
            "--max 5001 is above shoi2008's limit of 5000 stones",
        ),
        (
            ["--heaps", "1..=2", "--max", "3", "--batch", "501"],
            "--batch 501 must be between 1 and shoi2008's limit of 500 cases",
        ),
    ];
    for (extra, message) in cases {
        let mut args = vec!["crosscheck", "--format", "shoi2008", "--program", "cat"];
        args.extend(extra);
        let run = run_with_stdin(&args, "");
        assert_eq!(run.status, 2, "{}", run.stderr);
        assert_eq!(run.stderr, format!("nimtab: error: {message}\n"));
    }
}
#[test]
fn crosscheck_does_not_wait_for_a_programs_background_children() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("bg.sh");
    std::fs::write(&script, "cat > /dev/null\nyes Yes | head -n 10\n(sleep 60 &)\nexit 0\n")
        .unwrap();
    let program = format!("sh {}", script.display());
    let mut child = command()
        .args(["crosscheck", "--format", "p2197", "--program", &program])
        .args(["--heaps", "1..=2", "--max", "3", "--timeout", "5"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // A hang guard, not a speed test: the background sleep holds the pipes for 60 s.
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > std::time::Duration::from_secs(45) {
            let _ = child.kill();
            panic!("crosscheck waited for the program's background child");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    // The answers are wrong for some positions: a checked program was wrong, status 1.
    assert_eq!(status.code(), Some(1));
}

#[test]
fn crosscheck_bounds_a_programs_output_and_detached_children() {
    let cases = [
        ("yes Yes", "it printed more than"),
        ("setsid sleep 30 & cat > /dev/null; echo Yes", "its output stayed open after it exited"),
    ];
    for (program, needle) in cases {
        let args = ["crosscheck", "--format", "p2197", "--heaps", "1", "--max", "1"];
        let Run { status: code, stderr: err, .. } =
            run(&[&args[..], &["--program", program, "--timeout", "2"]].concat());
        assert_eq!(code, 1, "{program}: {err}");
        assert!(err.contains(needle), "{program}: {err}");
    }
}
