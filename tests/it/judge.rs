//! `judge`: contest answers, refusals of bad input, and agreement with the DP.

use nimtab::contest::judge::{Contest, Judge};
use nimtab::random::SplitMix64;
use nimtab::{Game, Mode};

use crate::support::cli::run_with_stdin;
use crate::support::{all_tuples, label};

#[test]
fn judge_answers_the_theory_samples() {
    let p2197 = run_with_stdin(&["judge", "p2197"], "2\n2\n1 1\n2\n1 0\n");
    assert_eq!((p2197.status, p2197.stdout.as_str()), (0, "No\nYes\n"));
    let shoi = run_with_stdin(&["judge", "shoi2008"], "2\n3\n3 5 1\n1\n1\n");
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
        let run = run_with_stdin(&["judge", "shoi2008"], input);
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
            let labels = label(&Game::nim(), n, 20, contest.ending(), Mode::Full);
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
fn judge_answers_inputs_at_the_contest_limits_correctly() {
    let (p2197, p2197_cases) = limit_input(10, 10_000, 10_000);
    let (shoi, shoi_cases) = limit_input(500, 50, 5_001);
    for (format, input, cases) in [("p2197", p2197, p2197_cases), ("shoi2008", shoi, shoi_cases)] {
        let run = run_with_stdin(&["judge", format], &input);
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
    }
}

// ---- moves ----
