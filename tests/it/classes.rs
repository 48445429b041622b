//! `classes`: misère Nim's classes, their claims, and the two CSV tables.

use nimtab::analysis::classes::class_report;
use nimtab::{Ending, Game, Labels, Mode, Space};

use crate::support::cli::run_with_stdin;
use crate::support::label;

fn table(ending: Ending, n: usize, max: u32) -> Labels {
    label(&Game::nim(), n, max, ending, Mode::Full)
}

#[test]
fn class_claims_hold_for_up_to_five_heaps_of_seven() {
    for n in 1..=5 {
        for max in 0..=7 {
            let space = Space::new(n, max).unwrap();
            let report = class_report(
                space.as_tuples().unwrap(),
                &table(Ending::Normal, n, max),
                &table(Ending::Misere, n, max),
            );
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
    let run =
        run_with_stdin(&["classes", "--heaps", "5", "--max", "7", "--out", out, "--strict"], "");
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
    let missing =
        run_with_stdin(&["classes", "--heaps", "2", "--max", "3", "--out", "/no/such/dir"], "");
    assert_eq!(missing.status, 2);
    assert!(missing.stderr.contains("/no/such/dir"), "{}", missing.stderr);
}

// ---- split ----
