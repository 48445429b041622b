//! `solve`, `grundy` and `info`: table formats, determinism, and refusals.

use crate::support::cli::{run, Run};

fn solve_csv(args: &[&str]) -> String {
    let r = run(args);
    assert_eq!(r.status, 0, "{args:?}: {}", r.stderr);
    r.stdout
}

#[test]
fn solve_writes_header_gxor_and_ending_columns() {
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
    // 3 heaps of max 200 have about 20 000 positions per layer, above the threshold at
    // which layers run in parallel; `--only` keeps the output small.
    // Nim's P-positions: (a, b, a ^ b) whenever a ^ b is within the max.
    let nim_p = (0..=200u32).flat_map(|a| (0..=200u32).map(move |b| a ^ b)).filter(|&c| c <= 200);
    let cases = [
        ("nim", "normal", "p", nim_p.count()),
        ("subtract:1,3,4", "misere", "p", 0),
        ("graph:data/graphs/sj-counterexample.csv", "normal", "n", 0),
    ];
    for (game, ending, only, rows) in cases {
        let args = [
            "solve", "--game", game, "--heaps", "3", "--max", "200", "--rules", ending, "--only",
            only,
        ];
        let one = solve_csv(&[&["--threads", "1"], &args[..]].concat());
        let two = solve_csv(&[&["--threads", "2"], &args[..]].concat());
        assert_eq!(one, two, "{game}");
        assert!(one.lines().count() > 1000, "{game}: a real table");
        if rows > 0 {
            assert_eq!(one.lines().count(), rows + 1, "{game}");
        }
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
fn solve_to_a_file_writes_the_same_bytes_as_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.csv");
    let args = ["solve", "--game", "subtract:1,3,4", "--heaps", "2", "--max", "20"];
    let stdout = solve_csv(&args);
    let Run { status: code, .. } = run(&[&args[..], &["--out", path.to_str().unwrap()]].concat());
    assert_eq!(code, 0);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), stdout);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file left");
}

#[test]
fn nim_with_a_large_max_is_labelled_without_listing_options() {
    // Listing Nim's options would take O(max^2) memory (about 800 MB here, 20 GB at
    // max 100 000); the Nim path needs none.
    let Run { status: code, stdout: out, stderr: err } =
        run(&["verify", "--game", "nim", "--heaps", "2", "--max", "20000", "--criteria", "xor"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(
            "nim       2  20000  normal  xor        400040001  20001  400040001         0"
        ),
        "{out}"
    );
    let Run { status: code, stdout: out, .. } = run(&[
        "solve", "--game", "nim", "--heaps", "1", "--max", "100000", "--only", "p", "--rules",
        "misere",
    ]);
    assert_eq!(code, 0);
    assert_eq!(out, "h1,gxor,misere\n1,1,P\n");
}

#[test]
fn grundy_bfile_is_n_space_value_with_consecutive_n_and_no_header() {
    let out = solve_csv(&["grundy", "--game", "subtract:1,3,4", "--max", "9", "--format", "bfile"]);
    assert_eq!(out, "0 0\n1 1\n2 0\n3 1\n4 2\n5 3\n6 2\n7 0\n8 1\n9 0\n");
    let big = solve_csv(&["grundy", "--game", "nim", "--max", "1000", "--format", "bfile"]);
    assert!(big.ends_with('\n') && !big.contains('\r') && !big.contains(','));
    for (n, line) in big.lines().enumerate() {
        assert_eq!(line, format!("{n} {n}"));
    }
    let csv = solve_csv(&["grundy", "--game", "nim", "--max", "2"]);
    assert_eq!(csv, "heap,grundy\n0,0\n1,1\n2,2\n", "csv stays the default");
    let bad = run(&["grundy", "--game", "nim", "--max", "2", "--format", "tsv"]);
    assert_eq!(bad.status, 2);
    assert!(bad.stderr.contains("'tsv'"), "{}", bad.stderr);
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
    let Run { status: code, stdout: out, .. } =
        run(&["info", "--game", "nim", "--heaps", "3", "--max", "255"]);
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
    let Run { status: code, stderr: err, .. } = run(&all);
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
