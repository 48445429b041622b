//! Malformed arguments across every command, each refused cleanly: status 2, one line on
//! stderr, nothing on stdout, no panic, and no file left behind.

use crate::support::cli::{command, output_of, Run};

/// A space every table command accepts, to vary one flag at a time.
const SPACE: [&str; 6] = ["--game", "nim", "--heaps", "2", "--max", "3"];

/// `command` with a valid space, then `bad`.
fn with_space(command: &'static str, bad: &[&'static str]) -> Vec<&'static str> {
    [&[command][..], &SPACE, bad].concat()
}

/// Bad values of the flags the table commands share, each tried on every one of them.
fn shared_flag_cases() -> Vec<Vec<&'static str>> {
    let bad_values: [[&str; 2]; 26] = [
        ["--max", "abc"],
        ["--max", "-1"],
        ["--max", ""],
        ["--max", "1.5"],
        ["--max", "99999999999"],
        ["--max", "4194304"],
        ["--max", "3\u{7}"],
        ["--heaps", "x"],
        ["--heaps", "0"],
        ["--heaps", "-1"],
        ["--heaps", ""],
        ["--heaps", "3..=2"],
        ["--heaps", "1..=x"],
        ["--heaps", "0..=2"],
        ["--heaps", "100000"],
        ["--heaps", "1..=18446744073709551616"],
        ["--heaps", "2\n3"],
        ["--game", ""],
        ["--game", "foo"],
        ["--game", "subtract:"],
        ["--game", "subtract:0"],
        ["--game", "subtract:-1"],
        ["--game", "subtract:1,,2"],
        ["--game", "graph:"],
        ["--game", "graph:/nonexistent/g.csv"],
        ["--game", "graph:/proc"],
    ];
    let mut cases = Vec::new();
    for command in ["solve", "info", "verify", "check"] {
        for [flag, value] in bad_values {
            // The bad flag comes last and wins over the valid one given before it.
            let mut args = with_space(command, &[flag, value]);
            if command == "check" {
                args.extend(["--rule", "normal", "--claim-p", "true"]);
            }
            cases.push(args);
        }
    }
    cases
}

/// Bad values of the flags and arguments of single commands.
fn command_cases() -> Vec<Vec<&'static str>> {
    [table_cases(), position_cases(), picture_and_file_cases(), crosscheck_cases()].concat()
}

/// Global flags and the commands that label whole spaces.
fn table_cases() -> Vec<Vec<&'static str>> {
    let claim = ["--rule", "normal", "--claim-p", "true"];
    vec![
        vec!["bogus"],
        vec!["--bogus"],
        vec!["-x"],
        vec!["--threads", "0"],
        vec!["--threads", "x"],
        vec!["--threads", "-3", "info"],
        vec!["solve"],
        with_space("solve", &["--rules", "foo"]),
        with_space("solve", &["--rules", ""]),
        with_space("solve", &["--rules", "normal,"]),
        with_space("solve", &["--only", "p"]),
        with_space("solve", &["--only", "x", "--rules", "normal"]),
        with_space("solve", &["--heaps", "1..=3"]),
        with_space("solve", &["--heaps", "40", "--max", "255"]),
        with_space("solve", &["--heaps", "8", "--max", "4000"]),
        with_space("verify", &["--criteria", "bogus"]),
        with_space("verify", &["--limit", "0"]),
        with_space("verify", &["--limit", "-1"]),
        with_space("verify", &["--heaps", "64", "--max", "4000", "--canonical"]),
        with_space("check", &["--rule", "normal"]),
        with_space("check", &["--rule", "x", "--claim-p", "true"]),
        [&with_space("check", &["--limit", "0"])[..], &claim].concat(),
        with_space("check", &["--rule", "normal", "--claim-p", "h1 / h2 == 0"]),
        with_space("info", &["--heaps", "1..=2"]),
    ]
}

/// The commands that start from a position or a count: moves, play, classes, split.
fn position_cases() -> Vec<Vec<&'static str>> {
    vec![
        vec!["moves"],
        vec!["moves", "x"],
        vec!["moves", "-1"],
        vec!["moves", "1", "--format", "json"],
        vec!["moves", "99999999999"],
        vec!["moves", "1", "2", "--rule", "x"],
        vec!["moves", "--game", "subtract:0", "1"],
        vec!["moves", "4194304"],
        vec!["moves", "3\u{1b}[2J"],
        vec!["play"],
        vec!["play", "1", "--games", "0"],
        vec!["play", "1", "--games", "-1"],
        vec!["play", "1", "--seed", "-1"],
        vec!["play", "1", "--opponent", "lucky"],
        vec!["play", "5000", "--games", "1000000"],
        vec!["classes", "--heaps", "2"],
        vec!["classes", "--heaps", "2", "--max", "x"],
        vec!["classes", "--heaps", "1..=2", "--max", "3"],
        vec!["classes", "--heaps", "9", "--max", "30"],
        vec!["split"],
        vec!["split", "--stones", "0"],
        vec!["split", "--stones", "61"],
        vec!["split", "--stones", "9..=3"],
        vec!["split", "--stones", "3", "--game", "foo"],
        vec!["judge"],
        vec!["judge", "xyz"],
    ]
}

/// Output locations that cannot be created, pictures, Grundy tables and the suite.
fn picture_and_file_cases() -> Vec<Vec<&'static str>> {
    let plot = ["plot", "--game", "nim", "--max", "3", "--rule", "normal"];
    let svg = [&plot[..], &["--out", "x.svg"]].concat();
    vec![
        with_space("solve", &["--out", ""]),
        with_space("solve", &["--out", "/"]),
        with_space("solve", &["--out", "no/such/dir/x.csv"]),
        with_space("solve", &["--out", "/proc/x.csv"]),
        with_space("verify", &["--out", "no/such/dir"]),
        with_space("verify", &["--out", "/proc"]),
        with_space("check", &["--rule", "normal", "--claim-p", "true", "--out", "/proc/x.csv"]),
        vec!["classes", "--heaps", "2", "--max", "3", "--out", "no/such/dir"],
        vec!["split", "--stones", "3", "--out", "/proc/s.csv"],
        vec!["grundy", "--game", "nim"],
        vec!["grundy", "--game", "nim", "--max", "-5"],
        vec!["grundy", "--game", "nim", "--max", "1099511627777"],
        vec!["grundy", "--game", "octal:0.161", "--max", "2^41"],
        vec!["period", "--game", "octal:0.161", "--max", "2^40+1"],
        vec!["grundy", "--game", "graph:/dev/zero", "--max", "4"],
        vec!["grundy", "--game", "nim", "--max", "3", "--out", "/proc/g.csv"],
        plot.to_vec(),
        [&plot[..], &["--out", "x.gif"]].concat(),
        [&plot[..], &["--out", "/proc/x.svg"]].concat(),
        [&svg[..], &["--max", "5000"]].concat(),
        [&svg[..], &["--scale", "0"]].concat(),
        [&svg[..], &["--heaps", "3"]].concat(),
        [&svg[..], &["--heaps", "3", "--slice", "h3=x"]].concat(),
        vec!["suite", "--data-dir", "no/such/data"],
        vec!["suite", "--report", "/proc/R.md"],
        vec!["suite", "--bench", "/dev/zero"],
        vec!["suite", "--bench", "/proc"],
    ]
}

/// `crosscheck`: flags beyond the contests' limits or meaningless.
fn crosscheck_cases() -> Vec<Vec<&'static str>> {
    let base = ["crosscheck", "--format", "p2197", "--program", "cat", "--heaps", "1"];
    let with = |extra: &[&'static str]| [&base[..], &["--max", "3"], extra].concat();
    vec![
        base.to_vec(),
        vec!["crosscheck", "--format", "x", "--program", "cat", "--heaps", "1", "--max", "3"],
        vec!["crosscheck", "--format", "p2197", "--program", "", "--heaps", "1", "--max", "3"],
        with(&["--timeout", "0"]),
        with(&["--timeout", "-1"]),
        with(&["--timeout", "nan"]),
        with(&["--batch", "0"]),
        with(&["--min-heap", "-1"]),
        with(&["--min-heap", "4"]),
        with(&["--heaps", "1..=100"]),
        with(&["--heaps", "10001"]),
    ]
}

/// Contest inputs `judge p2197` must refuse.
const BAD_CONTEST_INPUTS: [&str; 7] =
    ["", "x", "1\n2\n1\n", "1\n1\n-5\n", "1\n1\n1\n2\n", "1\n99999999999\n", "\u{ff}"];

/// Runs one case in a fresh directory and returns what is wrong with it, if anything.
fn unclean(args: &[&str], stdin: &str) -> Option<String> {
    let dir = tempfile::tempdir().unwrap();
    let Run { status, stdout, stderr } =
        output_of(command().args(args).current_dir(dir.path()), stdin);
    let left: Vec<_> =
        std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    let problems = [
        (status != 2, format!("status {status}")),
        (!stdout.is_empty(), format!("stdout {stdout:?}")),
        (stderr.lines().count() != 1, format!("{} stderr lines", stderr.lines().count())),
        (!stderr.starts_with("nimtab: "), "stderr not from nimtab".to_string()),
        (stderr.contains("panicked"), "a panic".to_string()),
        (!left.is_empty(), format!("left behind {left:?}")),
    ];
    let found: Vec<String> =
        problems.into_iter().filter(|(bad, _)| *bad).map(|(_, why)| why).collect();
    (!found.is_empty())
        .then(|| format!("{args:?} (stdin {stdin:?}): {}: {stderr:?}", found.join(", ")))
}

#[test]
fn every_malformed_argument_is_refused_cleanly() {
    let mut cases: Vec<(Vec<&str>, &str)> =
        shared_flag_cases().into_iter().chain(command_cases()).map(|a| (a, "")).collect();
    cases.extend(BAD_CONTEST_INPUTS.iter().map(|&input| (vec!["judge", "p2197"], input)));
    cases.extend(BAD_CONTEST_INPUTS.iter().map(|&input| (vec!["judge", "shoi2008"], input)));
    let failures: Vec<String> =
        cases.iter().filter_map(|(args, stdin)| unclean(args, stdin)).collect();
    assert!(
        failures.is_empty(),
        "{} of {} unclean:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
