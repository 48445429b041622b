//! The quotient criterion of `verify --total T`: the engine's labels of every multiset
//! against the quotient's prediction under misère and normal play (where it must be XOR),
//! a wrong quotient reported as a failed theorem, and a quotient too large to compute
//! reported as not compared, with its reason.

use nimtab::analysis::criteria::xor;
use nimtab::analysis::quotient_criterion::{quotient_predictions, QuotientPrediction};
use nimtab::analysis::verify::{compare_labels_with, verify};
use nimtab::export::summary::write_summary;
use nimtab::quotient::{compute, QuotientConfig, DEFAULT_MAX_ORDER};
use nimtab::{Criterion, Ending, Engine, Game, NoProgress, Space};

use crate::support::cli::run;

/// The games the criterion is pinned on, with the total of their multisets.
const GAMES: [(&str, u32); 6] = [
    ("octal:0.07", 22),
    ("octal:0.77", 20),
    ("octal:0.75", 20),
    ("subtract:1,3,4", 18),
    ("subtract:2,3", 18),
    ("nim", 14),
];

#[test]
fn quotient_criterion_agrees_with_the_engine_on_every_multiset_under_misere_and_normal_play() {
    for (spec, total) in GAMES {
        let game = Game::parse(spec).unwrap();
        let engine = Engine::new(&game, Space::multisets(total.into()).unwrap());
        let endings = [Ending::Normal, Ending::Misere];
        let run = verify(&engine, &endings, &[Criterion::Quotient], 5, &NoProgress).unwrap();
        assert_eq!(run.findings.len(), 2);
        for f in &run.findings {
            assert_eq!(f.criterion, Some(Criterion::Quotient));
            assert_eq!(f.not_compared, None, "{spec} {}", f.ending);
            assert!(f.theorem, "{spec} {}", f.ending);
            assert_eq!(f.tally.positions, engine.space().positions());
            assert_eq!((f.tally.agree, f.tally.disagree), (f.tally.positions, 0), "{spec}");
            assert!(f.tally.p_positions > 0 && f.tally.p_positions < f.tally.positions);
        }
    }
}

#[test]
fn normal_play_quotient_predicts_exactly_as_xor_of_grundy_values() {
    for (spec, total) in GAMES {
        let game = Game::parse(spec).unwrap();
        let grundy = game.grundy(total);
        let predictions = quotient_predictions(&game, &[Ending::Normal], total, 4096).unwrap();
        let QuotientPrediction::Computed(q) = &predictions[0] else { panic!("{spec}") };
        // The group of Grundy values: one element per value reached, XOR as product.
        let values = grundy[1..].iter().max().unwrap() + 1;
        assert_eq!(q.order(), values.next_power_of_two() as usize, "{spec}");
        for heaps in Space::multisets(total.into()).unwrap().iter() {
            let g: Vec<u32> = heaps.iter().map(|&h| grundy[h as usize]).collect();
            assert_eq!(q.is_p(&heaps), Some(xor(&g) == 0), "{spec} {heaps:?}");
        }
    }
}

#[test]
fn a_wrong_quotient_is_reported_as_a_failed_theorem_with_its_first_counterexample() {
    let (dawson, kayles) = (Game::parse("octal:0.07").unwrap(), Game::parse("octal:0.77").unwrap());
    let total = 14;
    let engine = Engine::new(&dawson, Space::multisets(total.into()).unwrap());
    let labels = engine.label_all(&[Ending::Misere], &NoProgress).unwrap();
    // Kayles' quotient in place of Dawson's Kayles': a deliberately wrong prediction.
    let wrong = compute(&kayles, &QuotientConfig::new(total), &NoProgress).unwrap();
    let predictions = vec![QuotientPrediction::Computed(Box::new(wrong))];
    let findings = compare_labels_with(&dawson, &labels, &[Criterion::Quotient], predictions, 3);
    let f = &findings[0];
    assert!(f.theorem && f.theorem_failed(), "{f:?}");
    assert!(f.tally.disagree > 0);
    assert_eq!(f.tally.agree + f.tally.disagree, f.tally.positions);
    // The first counterexample carries the engine's label, which the right quotient gives.
    let first = &f.tally.counterexamples[0];
    let right = compute(&dawson, &QuotientConfig::new(total), &NoProgress).unwrap();
    assert_eq!(right.is_p(&first.position), Some(first.dp_is_p));
    // The right quotient on the same labels: no disagreement.
    let predictions = vec![QuotientPrediction::Computed(Box::new(right))];
    let findings = compare_labels_with(&dawson, &labels, &[Criterion::Quotient], predictions, 3);
    assert_eq!(findings[0].tally.disagree, 0);
}

#[test]
fn a_quotient_past_its_order_bound_is_not_compared_and_says_why() {
    let game = Game::parse("octal:0.07").unwrap();
    let total = 16;
    let endings = [Ending::Misere, Ending::Sj];
    let predictions = quotient_predictions(&game, &endings, total, 8).unwrap();
    let reason = predictions[0].not_computed().unwrap();
    assert!(reason.starts_with("the quotient grows past 8 elements at heap "), "{reason}");
    assert!(predictions[1].not_computed().unwrap().contains("sj rule"));
    let engine = Engine::new(&game, Space::multisets(total.into()).unwrap());
    let labels = engine.label_all(&endings, &NoProgress).unwrap();
    let criteria = [Criterion::Quotient];
    let findings = compare_labels_with(&game, &labels, &criteria, predictions, 3);
    for f in &findings {
        assert!(f.not_compared.is_some());
        assert_eq!((f.tally.agree, f.tally.disagree), (0, 0));
        assert!(!f.theorem_failed());
    }
    let mut csv = Vec::new();
    write_summary(&mut csv, &findings).unwrap();
    let csv = String::from_utf8(csv).unwrap();
    let positions = engine.space().positions();
    let p = labels[0].p_count();
    let row = format!("octal:0.07,any,total<=16,misere,quotient,{positions},{p},,,");
    assert_eq!(csv.lines().nth(1), Some(row.as_str()), "{csv}");
    assert_eq!(DEFAULT_MAX_ORDER, 4096);
}

#[test]
fn verify_total_with_the_quotient_criterion_writes_its_rows_and_strict_holds() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("v");
    let args = ["verify", "--game", "octal:0.07", "--total", "14", "--criteria", "quotient"];
    let got = run(&[&args[..], &["--strict", "--out", out.to_str().unwrap()]].concat());
    assert_eq!(got.status, 0, "{}", got.stderr);
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    let rows: Vec<&str> = summary.lines().skip(1).collect();
    assert_eq!(
        rows,
        [
            "octal:0.07,any,total<=14,normal,quotient,508,169,508,0,",
            "octal:0.07,any,total<=14,misere,quotient,508,174,508,0,",
            "octal:0.07,any,total<=14,sj,quotient,508,174,,,",
        ]
    );
    assert!(got.stderr.contains(
        "criterion quotient under sj rule for octal:0.07 not compared: no quotient for the sj rule"
    ));
    assert!(got.stdout.contains("not compared: no quotient for the sj rule"), "{}", got.stdout);
}

#[test]
fn verify_names_a_quotient_that_grows_past_the_default_order_bound() {
    // octal:0.6 needs a candidate monoid beyond the search's bound at heap 17.
    let args = ["verify", "--game", "octal:0.6", "--total", "20", "--criteria", "quotient"];
    let got = run(&[&args[..], &["--rules", "misere", "--strict"]].concat());
    assert_eq!(got.status, 0, "{}", got.stderr);
    assert!(got.stderr.contains("criterion quotient under misere rule for octal:0.6 not compared: no quotient of at most 4096 elements at heap 17"), "{}", got.stderr);
    assert!(got.stdout.contains("not compared: no quotient of at most 4096 elements"));
}

#[test]
fn the_quotient_criterion_is_refused_for_tuple_spaces_and_sweeps_with_one_line() {
    for args in [
        &["verify", "--game", "nim", "--heaps", "2", "--max", "5", "--criteria", "quotient"][..],
        &["sweep", "--games", "nim", "--total", "6", "--criteria", "quotient"],
    ] {
        let got = run(args);
        assert_eq!(got.status, 2, "{args:?}");
        assert_eq!(got.stderr.lines().count(), 1, "{}", got.stderr);
        assert!(got.stderr.contains("quotient"), "{}", got.stderr);
    }
}
