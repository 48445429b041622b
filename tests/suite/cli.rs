//! The `solve`, `grundy` and `info` commands: formats, determinism, and bad input.

use crate::helpers::{nimtab, run};

fn solve_csv(args: &[&str]) -> String {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    out
}

#[test]
fn solve_writes_header_gxor_and_rule_columns() {
    let out = solve_csv(&["solve", "--game", "nim", "--heaps", "2", "--max", "1"]);
    assert_eq!(
        out,
        "h1,h2,gxor,normal,misere,sj\n0,0,0,P,N,N\n0,1,1,N,P,P\n1,0,1,N,P,P\n1,1,0,P,N,N\n"
    );
}

#[test]
fn solve_only_p_keeps_the_p_rows() {
    let out = solve_csv(&[
        "solve", "--game", "nim", "--heaps", "2", "--max", "3", "--rules", "normal", "--only", "p",
    ]);
    assert_eq!(out, "h1,h2,gxor,normal\n0,0,0,P\n1,1,0,P\n2,2,0,P\n3,3,0,P\n");
}

#[test]
fn solve_output_is_identical_with_one_and_two_threads() {
    for game in ["nim", "subtract:1,3,4", "graph:data/graphs/sj-counterexample.csv"] {
        let args = ["solve", "--game", game, "--heaps", "3", "--max", "40"];
        let one = solve_csv(&[&["--threads", "1"], &args[..]].concat());
        let two = solve_csv(&[&["--threads", "2"], &args[..]].concat());
        assert_eq!(one, two, "{game}");
        assert_eq!(one.lines().count(), 41 * 41 * 41 + 1);
    }
}

#[test]
fn canonical_output_equals_the_sorted_rows_of_the_full_output() {
    for game in ["nim", "subtract:2,3,5"] {
        let full = solve_csv(&["solve", "--game", game, "--heaps", "4", "--max", "9"]);
        let canonical =
            solve_csv(&["solve", "--game", game, "--heaps", "4", "--max", "9", "--canonical"]);
        let sorted_rows: Vec<&str> = full
            .lines()
            .filter(|line| {
                let heaps: Vec<u32> =
                    line.split(',').take(4).filter_map(|v| v.parse().ok()).collect();
                heaps.len() < 4 || heaps.windows(2).all(|w| w[0] <= w[1])
            })
            .collect();
        assert_eq!(canonical.lines().collect::<Vec<_>>(), sorted_rows, "{game}");
        assert_eq!(canonical.lines().count(), 715 + 1); // C(13, 4) + header
    }
}

fn grundy_values(game: &str, max: u32) -> Vec<u32> {
    let out = solve_csv(&["grundy", "--game", game, "--max", &max.to_string()]);
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("heap,grundy"));
    lines.map(|l| l.split(',').nth(1).unwrap().parse().unwrap()).collect()
}

#[test]
fn grundy_sequences_match_their_known_periods() {
    let expected: Vec<u32> = (0..30).map(|h| h % 3).collect();
    assert_eq!(grundy_values("subtract:1,2", 29), expected);
    let period = [0, 0, 1, 1, 2, 2, 3];
    let expected: Vec<u32> = (0..35).map(|h| period[h % 7]).collect();
    assert_eq!(grundy_values("subtract:2,3,5", 34), expected);
    assert_eq!(grundy_values("nim", 20), (0..=20).collect::<Vec<u32>>());
}

#[test]
fn info_reports_positions_and_canonical_positions() {
    let (code, out, _) = run(&["info", "--game", "nim", "--heaps", "3", "--max", "255"]);
    assert_eq!(code, 0);
    assert!(out.contains("positions            16777216"), "{out}");
    assert!(out.contains("canonical positions  2829056"), "{out}");
}

/// Runs a bad command with `--out` into a fresh directory; asserts status 2, a one-line
/// message containing `needle`, and no file left behind.
fn assert_refused(args: &[&str], needle: &str) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.csv");
    let mut all: Vec<&str> = args.to_vec();
    let out_text = out.to_string_lossy().into_owned();
    if !args.contains(&"--out") {
        all.extend(["--out", &out_text]);
    }
    let (code, _, err) = run(&all);
    assert_eq!(code, 2, "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: one line expected, got {err}");
    assert!(err.contains(needle), "{args:?}: expected '{needle}' in {err}");
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(left.is_empty(), "{args:?} left {left:?}");
}

#[test]
fn bad_solve_inputs_exit_2_naming_the_value() {
    let solve = |game: &'static str, heaps: &'static str, max: &'static str| {
        vec!["solve", "--game", game, "--heaps", heaps, "--max", max]
    };
    assert_refused(&solve("nim", "0", "3"), "--heaps must be at least 1, got '0'");
    assert_refused(&solve("nim", "2", "-3"), "--max must be a non-negative integer, got '-3'");
    assert_refused(&solve("nim", "2", "ten"), "got 'ten'");
    assert_refused(&solve("chess", "2", "3"), "unknown game 'chess'");
    assert_refused(&solve("subtract:", "2", "3"), "the set is empty");
    assert_refused(&solve("subtract:1,0", "2", "3"), "0 is not allowed");
    assert_refused(&solve("subtract:1,x", "2", "3"), "'x' is not a positive integer");
    assert_refused(&solve("graph:no/such/file.csv", "2", "3"), "no/such/file.csv");
    assert_refused(&solve("subtract:1,2", "7", "255"), "GiB");
    assert_refused(&solve("nim", "1", "4294967294"), "above the largest heap size, 4194303");
    let mut only = solve("nim", "2", "3");
    only.extend(["--only", "p"]);
    assert_refused(&only, "--only p needs exactly one rule");
    let mut missing_dir = solve("nim", "2", "3");
    missing_dir.extend(["--out", "/no/such/dir/out.csv"]);
    assert_refused(&missing_dir, "/no/such/dir");
}

#[test]
fn bad_graph_files_name_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("from,too\n1,0\n", "line 1: header must be 'from,to'"),
        ("from,to\n1,0\n2,2\n", "line 3: move 2->2 needs to < from"),
        ("from,to\n1,0\n2,-1\n", "line 3: to value '-1' is negative"),
        ("from,to\n1,zero\n", "line 2: to value 'zero' is not a non-negative integer"),
        ("from,to\n1,0\n4000000000,0\n", "line 3: from value 4000000000 is above"),
    ];
    for (i, (text, needle)) in cases.iter().enumerate() {
        let path = dir.path().join(format!("g{i}.csv"));
        std::fs::write(&path, text).unwrap();
        let game = format!("graph:{}", path.display());
        let args = ["solve", "--game", game.as_str(), "--heaps", "2", "--max", "3"];
        assert_refused(&args, needle);
    }
}

#[test]
fn a_closed_pipe_ends_quietly_with_status_0() {
    use std::io::Read;
    let mut child = nimtab()
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
fn solve_to_a_file_writes_the_same_bytes_as_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.csv");
    let args = ["solve", "--game", "subtract:1,3,4", "--heaps", "2", "--max", "20"];
    let stdout = solve_csv(&args);
    let (code, _, _) = run(&[&args[..], &["--out", path.to_str().unwrap()]].concat());
    assert_eq!(code, 0);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), stdout);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file left");
}

#[test]
fn ctrl_c_or_sigterm_leaves_no_file_under_the_requested_name() {
    for signal in ["-INT", "-TERM"] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.csv");
        // Large enough to be still labelling or writing when the signal arrives.
        let child = nimtab()
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
fn nim_with_a_large_max_is_labelled_without_listing_options() {
    // Listing Nim's options would take O(max^2) memory (about 800 MB here, 20 GB at
    // max 100 000); the Nim path needs none.
    let (code, out, err) =
        run(&["verify", "--game", "nim", "--heaps", "2", "--max", "20000", "--criteria", "xor"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(
            "nim       2  20000  normal  xor        400040001  20001  400040001         0"
        ),
        "{out}"
    );
    let (code, out, _) = run(&[
        "solve", "--game", "nim", "--heaps", "1", "--max", "100000", "--only", "p", "--rules",
        "misere",
    ]);
    assert_eq!(code, 0);
    assert_eq!(out, "h1,gxor,misere\n1,1,P\n");
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
        let out = nimtab().args(args).stdout(full).output().unwrap();
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
        let (code, _, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(needle) && !err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn crosscheck_does_not_wait_for_a_programs_background_children() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("bg.sh");
    std::fs::write(&script, "cat > /dev/null\nyes Yes | head -n 10\n(sleep 60 &)\nexit 0\n")
        .unwrap();
    let program = format!("sh {}", script.display());
    let mut child = nimtab()
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
        let (code, _, err) = run(&[&args[..], &["--program", program, "--timeout", "2"]].concat());
        assert_eq!(code, 1, "{program}: {err}");
        assert!(err.contains(needle), "{program}: {err}");
    }
}

#[test]
fn error_lines_escape_control_characters_and_survive_a_full_stderr() {
    let (code, _, err) = run(&["solve", "--game", "a\u{1b}[31mb", "--heaps", "2", "--max", "3"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown game 'a\\u{1b}[31mb'") && !err.contains('\u{1b}'), "{err}");
    for args in [&["--bogus"][..], &["solve", "--game", "nope", "--heaps", "2", "--max", "3"]] {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
        let out = nimtab().args(args).stderr(full).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}
