//! `crosscheck`: contest solutions run on every position of a range, their answers
//! compared with the DP, and everything a misbehaving program can do.

use crate::support::cli::{command, data, finish, run, run_with_stdin, send_signal, Run};

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
    // The detached child says when it has left the group, so a busy machine cannot kill
    // it with the group before it has.
    let dir = tempfile::tempdir().unwrap();
    let left = dir.path().join("left");
    let detached = format!(
        "setsid sh -c 'touch {0}; exec sleep 30' & while [ ! -e {0} ]; do sleep 0.01; done; \
         cat > /dev/null; echo Yes",
        left.display()
    );
    let cases = [
        ("yes Yes", "it printed more than"),
        (detached.as_str(), "its output stayed open after it exited"),
    ];
    for (program, needle) in cases {
        let args = ["crosscheck", "--format", "p2197", "--heaps", "1", "--max", "1"];
        let Run { status: code, stderr: err, .. } =
            run(&[&args[..], &["--program", program, "--timeout", "2"]].concat());
        assert_eq!(code, 1, "{program}: {err}");
        assert!(err.contains(needle), "{program}: {err}");
    }
}

/// `(pid, parent, group, state)` of every process, from `/proc/*/stat`.
fn processes() -> Vec<(u32, u32, u32, char)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else { continue };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else { continue };
        // `pid (name) state parent group ...`; the name may hold spaces and parentheses.
        let Some(rest) = stat.rsplit_once(')').map(|(_, rest)| rest) else { continue };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let state = fields[0].chars().next().unwrap_or('?');
        out.push((pid, fields[1].parse().unwrap(), fields[2].parse().unwrap(), state));
    }
    out
}

/// The living (not zombie) members of a process group.
fn group_members(group: u32) -> Vec<u32> {
    processes().into_iter().filter(|p| p.2 == group && p.3 != 'Z').map(|p| p.0).collect()
}

/// Polls `found` every 10 ms for up to 10 s (a hang guard, not a speed test).
fn within_10_s<T>(mut found: impl FnMut() -> Option<T>) -> Option<T> {
    for _ in 0..1000 {
        if let Some(value) = found() {
            return Some(value);
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    None
}

#[test]
fn an_interrupt_kills_the_checked_programs_whole_group() {
    for signal in ["INT", "TERM", "HUP"] {
        // Two commands, so the shell stays and starts a child: a group of two processes.
        let child = command()
            .args(["crosscheck", "--format", "p2197", "--program", "sleep 1000; sleep 1000"])
            .args(["--heaps", "1", "--max", "3", "--timeout", "60"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let nimtab = child.id();
        // The shell nimtab started leads the program's group.
        let group = within_10_s(|| {
            let shell = processes().into_iter().find(|p| p.1 == nimtab)?.0;
            (group_members(shell).len() == 2).then_some(shell)
        })
        .expect("the checked program started");
        send_signal(nimtab, signal);
        let (status, _, stderr) = finish(child, std::time::Duration::from_secs(30));
        assert_eq!(status, Some(130), "{signal}: {stderr}");
        assert_eq!(stderr, "nimtab: interrupted; no partial output was left\n");
        let gone = within_10_s(|| group_members(group).is_empty().then_some(()));
        assert!(gone.is_some(), "{signal} left {:?} of the group running", group_members(group));
    }
}

#[test]
fn a_correct_program_may_write_much_to_stderr() {
    // A megabyte on stderr, far more than is kept for a message, then the right answers.
    let judge = env!("CARGO_BIN_EXE_nimtab");
    let program = format!("head -c 1000000 /dev/zero | tr '\\0' d >&2 && {judge} judge p2197");
    let args = ["crosscheck", "--format", "p2197", "--heaps", "1..=2", "--max", "3"];
    let Run { status, stdout, stderr } = run(&[&args[..], &["--program", &program]].concat());
    assert_eq!((status, stderr.as_str()), (0, ""));
    assert_eq!(stdout, "all answers agree: 20 positions in 2 inputs, 0 mismatches\n");
}

#[test]
fn mismatch_lines_escape_what_the_program_printed() {
    // An answer that would set the terminal's title, then the right answers.
    let program = r"cat > /dev/null; printf '\033]0;owned\007\nYes\nYes\nYes\n'";
    let args = ["crosscheck", "--format", "p2197", "--heaps", "1", "--max", "3"];
    let Run { status, stdout, .. } = run(&[&args[..], &["--program", program]].concat());
    assert_eq!(status, 1);
    let first = stdout.lines().next().unwrap();
    assert_eq!(first, r"(0) No \u{1b}]0;owned\u{7}");
    assert!(!stdout.contains('\u{1b}') && !stdout.contains('\u{7}'), "{stdout:?}");
}

#[test]
fn a_tiny_timeout_and_a_range_beyond_any_count_are_refused_by_value() {
    let base = ["crosscheck", "--format", "p2197", "--program", "cat"];
    let cases: [(&[&str], &str); 2] = [
        (
            &["--heaps", "1", "--max", "3", "--timeout", "1e-300"],
            "--timeout must be a number of seconds, at least 0.001 and at most 86400, got '1e-300'",
        ),
        (
            &["--heaps", "1..=100", "--max", "3"],
            "--heaps 1..=100 --min-heap 0 --max 3: the range holds more than 10^7 positions, the limit",
        ),
    ];
    for (extra, needle) in cases {
        let Run { status, stdout, stderr } = run(&[&base[..], extra].concat());
        assert_eq!((status, stdout.as_str()), (2, ""), "{extra:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(needle), "{extra:?}: {stderr}");
        assert!(!stderr.contains("34028236692"), "a saturated count: {stderr}");
    }
}

#[test]
fn no_file_descriptors_left_to_start_the_program_is_nimtabs_failure_not_the_programs() {
    let bin = env!("CARGO_BIN_EXE_nimtab");
    let line = format!(
        "ulimit -n 4; exec {bin} -q crosscheck --format p2197 --program '{bin} judge p2197' \
         --heaps 1..=2 --max 3"
    );
    let out = std::process::Command::new("sh").args(["-c", &line]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(
        stderr,
        "nimtab: error: could not start sh to run the checked program: Too many open files (os \
         error 24)\n"
    );
}
