//! The seeds' own systems: winning moves, misère classes, the split game, play-outs,
//! contest judges and cross-checks, through the library and through the binary.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Instant;

use nimtab::classes::class_report;
use nimtab::judge::{Contest, Judge};
use nimtab::moves::{smallest_table, winning_moves, Move};
use nimtab::play::{Match, Opponent, Side, SplitMix64};
use nimtab::split::{parity_counterexample, PartitionLabels};
use nimtab::{Engine, Game, NoProgress, Rule, Space};

use crate::helpers::all_tuples;

/// What one run of the binary gave: exit status, stdout, stderr.
struct Run {
    status: i32,
    stdout: String,
    stderr: String,
}

fn nimtab(args: &[&str], stdin: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_nimtab"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    Run {
        status: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

fn data(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn table(rule: Rule, n: usize, max: u32) -> nimtab::Labels {
    let nim = Game::nim();
    let engine = Engine::new(&nim, Space::new(n, max).unwrap(), false);
    engine.run(rule, true, &(), &NoProgress).0.unwrap()
}

// ---- judge ----

#[test]
fn judge_answers_the_theory_samples() {
    let p2197 = nimtab(&["judge", "p2197"], "2\n2\n1 1\n2\n1 0\n");
    assert_eq!((p2197.status, p2197.stdout.as_str()), (0, "No\nYes\n"));
    let shoi = nimtab(&["judge", "shoi2008"], "2\n3\n3 5 1\n1\n1\n");
    assert_eq!((shoi.status, shoi.stdout.as_str()), (0, "John\nBrother\n"));
}

#[test]
fn judge_refuses_bad_input_with_one_line_and_status_2() {
    let cases = [
        ("2\n2\n1 1\n2\n1\n", "input ends early: case 2: heap 2 of 2 is missing"),
        ("1\n3\n3 -5 1\n", "case 1: heap 2 of 3 is '-5', a negative number"),
        ("1\n2\n3 five\n", "case 1: heap 2 of 2 is 'five', not a non-negative integer"),
        ("1\n1\n4\n7\n", "trailing input '7' after the last of 1 cases"),
        ("x\n", "the number of cases T is 'x', not a non-negative integer"),
    ];
    for (input, message) in cases {
        let run = nimtab(&["judge", "shoi2008"], input);
        assert_eq!(run.status, 2, "{input:?}");
        assert_eq!(run.stdout, "", "no answers on bad input {input:?}");
        assert_eq!(run.stderr, format!("nimtab: error: bad contest input: {message}\n"));
    }
}

#[test]
fn judge_agrees_with_the_dp_on_every_small_position() {
    for contest in [Contest::P2197, Contest::Shoi2008] {
        let judge = Judge::new(contest).unwrap();
        for n in 1..=3 {
            let labels = table(contest.rule(), n, 20);
            for position in all_tuples(n, 20) {
                let expected = contest.answer(!labels.is_p(&position));
                assert_eq!(judge.answer(&position), expected, "{contest:?} {position:?}");
            }
        }
    }
}

/// A deterministic input at a contest's limits: `cases` cases of `heaps` heaps.
fn limit_input(cases: usize, heaps: usize, below: u64) -> (String, Vec<Vec<u32>>) {
    let mut rng = SplitMix64::new(2024);
    let all: Vec<Vec<u32>> =
        (0..cases).map(|_| (0..heaps).map(|_| (rng.next_u64() % below) as u32).collect()).collect();
    let mut text = Vec::new();
    Contest::P2197.write_input(&mut text, &all).unwrap();
    (String::from_utf8(text).unwrap(), all)
}

#[test]
fn judge_answers_inputs_at_the_contest_limits_quickly() {
    let (p2197, p2197_cases) = limit_input(10, 10_000, 10_000);
    let (shoi, shoi_cases) = limit_input(500, 50, 5_001);
    for (format, input, cases) in [("p2197", p2197, p2197_cases), ("shoi2008", shoi, shoi_cases)] {
        let started = Instant::now();
        let run = nimtab(&["judge", format], &input);
        let elapsed = started.elapsed();
        assert_eq!(run.status, 0, "{}", run.stderr);
        let contest = Contest::parse(format).unwrap();
        let expected: Vec<&str> = cases
            .iter()
            .map(|heaps| {
                let x = heaps.iter().fold(0, |acc, &h| acc ^ h);
                let rich = heaps.iter().any(|&h| h > 1);
                let wins = match contest {
                    Contest::P2197 => x != 0,
                    Contest::Shoi2008 => (rich && x != 0) || (!rich && x == 0),
                };
                contest.answer(wins)
            })
            .collect();
        assert_eq!(run.stdout.lines().collect::<Vec<_>>(), expected);
        // The contest limit is one second; allow slack for a loaded test machine.
        assert!(elapsed.as_secs_f64() < 3.0, "{format} took {elapsed:?}");
    }
}

// ---- moves ----

#[test]
fn seed_000_winning_moves_come_out_as_stated() {
    let examples = [
        ([14, 21, 39], "3,39,27,12"),
        ([55, 81, 121], "3,121,102,19"),
        ([29, 45, 58], "3,58,48,10"),
    ];
    for (position, row) in examples {
        let heaps: Vec<String> = position.iter().map(u32::to_string).collect();
        let mut args = vec!["moves", "--game", "nim", "--format", "csv"];
        args.extend(heaps.iter().map(String::as_str));
        let run = nimtab(&args, "");
        assert_eq!(run.status, 0, "{}", run.stderr);
        let lines: Vec<&str> = run.stdout.lines().collect();
        assert_eq!(lines[0], "heap,from,to,take");
        assert!(lines.contains(&row), "{position:?}: {lines:?}");
        assert!(run.stderr.contains("formula gives the same moves"), "{}", run.stderr);
    }
    let labels = smallest_table(&Game::nim(), Rule::Normal, &[14, 21, 39], 1 << 30).unwrap();
    let moves = winning_moves(&Game::nim(), &labels, &[14, 21, 39]);
    assert_eq!(moves, vec![Move { heap: 2, from: 39, to: 27 }]);
}

#[test]
fn moves_from_a_p_position_prints_no_rows_and_says_it_is_lost() {
    let run = nimtab(&["moves", "--format", "csv", "1", "2", "3"], "");
    assert_eq!((run.status, run.stdout.as_str()), (0, "heap,from,to,take\n"));
    assert!(run.stderr.contains("(1,2,3) is a P-position: lost for the player to move"));
    let misere = nimtab(&["moves", "--rule", "misere", "--format", "csv", "1", "1", "1"], "");
    assert_eq!(misere.stdout, "heap,from,to,take\n");
    assert!(misere.stderr.contains("(1,1,1) is a P-position"), "{}", misere.stderr);
}

#[test]
fn moves_refuses_a_missing_or_negative_heap() {
    let none = nimtab(&["moves", "--game", "nim"], "");
    assert_eq!(none.status, 2);
    assert!(none.stderr.starts_with("nimtab: error: the following required arguments"));
    assert!(none.stderr.contains("<H>"), "{}", none.stderr);
    let negative = nimtab(&["moves", "4", "-2"], "");
    assert_eq!(negative.status, 2);
    assert_eq!(negative.stderr, "nimtab: error: heap 2 is '-2': heap sizes cannot be negative\n");
    let rule = nimtab(&["moves", "--rule", "losing", "4"], "");
    assert_eq!(rule.status, 2);
    assert!(rule.stderr.contains("'losing'"), "{}", rule.stderr);
}

// ---- classes ----

#[test]
fn class_claims_hold_for_up_to_five_heaps_of_seven() {
    for n in 1..=5 {
        for max in 0..=7 {
            let space = Space::new(n, max).unwrap();
            let report =
                class_report(space, &table(Rule::Normal, n, max), &table(Rule::Misere, n, max));
            for claim in &report.claims {
                assert!(
                    claim.holds(),
                    "n {n} max {max}: {} fails: {:?}",
                    claim.claim,
                    claim.counterexample
                );
            }
            let positions: u64 = report.counts.iter().map(|c| c.positions).sum();
            assert_eq!(positions, space.positions());
        }
    }
}

#[test]
fn classes_writes_both_tables_and_prints_every_claim() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let run = nimtab(&["classes", "--heaps", "5", "--max", "7", "--out", out, "--strict"], "");
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(run.stdout.lines().count(), 9);
    assert!(run.stdout.lines().all(|l| l.starts_with("holds  ")), "{}", run.stdout);
    assert!(run.stdout.contains("holds  T2 loses (checked 4080)"), "{}", run.stdout);
    let classes = std::fs::read_to_string(dir.path().join("classes.csv")).unwrap();
    assert_eq!(
        classes,
        "class,positions,p_normal,p_misere\nS0,16,0,16\nS1,480,0,0\nS2,28176,0,0\nT0,16,16,0\nT2,4080,4080,4080\n"
    );
    let transitions = std::fs::read_to_string(dir.path().join("transitions.csv")).unwrap();
    assert!(transitions.starts_with("from,to,moves\n"));
    assert!(transitions.contains("\nS2,T0,0\n") && transitions.contains("\nT2,T2,0\n"));
    assert_eq!(transitions.lines().count(), 26);
    let missing = nimtab(&["classes", "--heaps", "2", "--max", "3", "--out", "/no/such/dir"], "");
    assert_eq!(missing.status, 2);
    assert!(missing.stderr.contains("/no/such/dir"), "{}", missing.stderr);
}

// ---- split ----

#[test]
fn split_parity_claim_holds_up_to_40_stones() {
    let labels = PartitionLabels::new(&Game::nim(), 40).unwrap();
    let outcomes: Vec<_> = (1..=40).map(|n| labels.outcome(n)).collect();
    assert_eq!(parity_counterexample(&outcomes), None);
    for outcome in &outcomes {
        if let Some(witness) = &outcome.witness {
            assert_eq!(witness.iter().sum::<u32>(), outcome.stones);
            assert_eq!(witness.iter().fold(0, |x, &h| x ^ h), 0, "{outcome:?}");
        }
    }
    let run = nimtab(&["split", "--stones", "1..=40"], "");
    assert_eq!(run.status, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 41);
    assert_eq!(&lines[..3], ["stones,winner,witness", "1,B,", "2,A,1 1"]);
    assert_eq!(lines[40], "40,A,20 20");
    assert!(run.stderr.contains("holds  A wins iff the number of stones is even"));
}

#[test]
fn partition_labels_match_the_engine_on_small_spaces() {
    for game in [Game::nim(), Game::subtract(&[1, 3, 4]).unwrap()] {
        let partitions = PartitionLabels::new(&game, 24).unwrap();
        for (n, max) in [(1, 24), (2, 12), (3, 8), (4, 6)] {
            let engine = Engine::new(&game, Space::new(n, max).unwrap(), false);
            let labels = engine.run(Rule::Normal, true, &(), &NoProgress).0.unwrap();
            for position in all_tuples(n, max) {
                let expected = labels.is_p(&position);
                assert_eq!(partitions.is_p(&position), expected, "{} {position:?}", game.spec());
            }
        }
    }
}

#[test]
fn split_refuses_an_empty_or_oversized_range() {
    let empty = nimtab(&["split", "--stones", "9..=3"], "");
    assert_eq!(empty.status, 2);
    assert!(empty.stderr.contains("--stones 9..=3: the range is empty"), "{}", empty.stderr);
    let big = nimtab(&["split", "--stones", "1..=500"], "");
    assert_eq!(big.status, 2);
    assert!(big.stderr.contains("500 stones is above the limit"), "{}", big.stderr);
}

// ---- play ----

#[test]
fn play_from_7_8_9_wins_every_one_of_100_random_games() {
    let run = nimtab(
        &[
            "play", "--game", "nim", "--rule", "normal", "--seed", "1", "--games", "100", "7", "8",
            "9",
        ],
        "",
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("table won 100 of 100 games from (7,8,9)"), "{}", run.stdout);
    let labels = smallest_table(&Game::nim(), Rule::Misere, &[7, 8, 9], 1 << 30).unwrap();
    let nim = Game::nim();
    let play = Match::new(&nim, Rule::Misere, &labels);
    let mut rng = SplitMix64::new(99);
    for _ in 0..100 {
        assert_eq!(play.play(&[7, 8, 9], Opponent::Random, &mut rng).winner, Side::Table);
    }
}

#[test]
fn play_prints_each_move_as_seed_000_does() {
    let run = nimtab(&["play", "--rule", "normal", "--seed", "5", "7", "8", "9"], "");
    assert_eq!(run.status, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines[0], "table:    (7,8,9) -> (1,8,9)  P-position");
    assert!(lines[1].starts_with("opponent: (1,8,9) -> "), "{lines:?}");
    assert_eq!(*lines.last().unwrap(), "table wins at (0,0,0)");
}

#[test]
fn play_from_a_p_position_loses_against_optimal_play() {
    let run = nimtab(&["play", "--opponent", "optimal", "--games", "3", "1", "2", "3"], "");
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("table won 0 of 3 games from (1,2,3)"), "{}", run.stdout);
}

#[test]
fn play_refuses_bad_heaps_and_zero_games() {
    let negative = nimtab(&["play", "7", "-8", "9"], "");
    assert_eq!(negative.status, 2);
    assert_eq!(negative.stderr, "nimtab: error: heap 2 is '-8': heap sizes cannot be negative\n");
    let zero = nimtab(&["play", "--games", "0", "7", "8", "9"], "");
    assert_eq!(zero.status, 2);
    assert!(zero.stderr.contains("'0' for '--games <K>'"), "{}", zero.stderr);
    let opponent = nimtab(&["play", "--opponent", "lucky", "7"], "");
    assert_eq!(opponent.status, 2);
    assert!(opponent.stderr.contains("'lucky'"), "{}", opponent.stderr);
}

// ---- crosscheck ----

#[test]
fn crosscheck_passes_correct_solutions() {
    let script = format!("sh {}", data("shoi2008_correct.sh"));
    let run = nimtab(
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
    let run = nimtab(
        &["crosscheck", "--format", "p2197", "--program", &judge, "--heaps", "1..=3", "--max", "5"],
        "",
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "all answers agree: 258 positions in 26 inputs, 0 mismatches\n");
}

#[test]
fn crosscheck_reports_the_first_mismatch_of_a_wrong_solution() {
    let script = format!("sh {}", data("shoi2008_wrong.sh"));
    let run = nimtab(
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
        let run = nimtab(&args, "");
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
        let run = nimtab(&args, "");
        assert_eq!(run.status, 2, "{}", run.stderr);
        assert_eq!(run.stderr, format!("nimtab: error: {message}\n"));
    }
}
