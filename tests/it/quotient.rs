//! Misère quotients: published quotients, brute-force indistinguishability, the
//! prediction against the multiset tables on every quotient computed, algebraic
//! properties, normal play, and the command's output and refusals.

use nimtab::Ending;
use std::collections::HashMap;

use nimtab::quotient::{check_against_tables, compute, Quotient, QuotientConfig, QuotientError};
use nimtab::{Game, NoProgress};
use proptest::prelude::*;

use crate::support::cli::run;
use crate::support::multiset_reference::{all_multisets, TbEnding, TbGame, TbReference};

fn quotient(spec: &str, max_heap: u32) -> Quotient {
    let game = Game::parse(spec).unwrap();
    let q = compute(&game, &QuotientConfig::new(max_heap), &NoProgress).unwrap();
    assert_tables_agree(&game, &q, 24);
    q
}

/// The prediction of `q` equals the multiset engine's misère label on every multiset of
/// heaps up to `q.max_heap()` with total at most `total`.
fn assert_tables_agree(game: &Game, q: &Quotient, total: u64) {
    let found = check_against_tables(game, q, total, None, &NoProgress).unwrap();
    assert!(found.positions > 0);
    assert_eq!(found.disagreements, 0, "{} {:?}", game.spec(), found.first_disagreement);
}

fn p_names(q: &Quotient) -> Vec<String> {
    q.p_portion().iter().map(|&x| q.elements()[x as usize].clone()).collect()
}

#[test]
fn nim_with_heaps_up_to_two_is_the_order_six_quotient_of_plambeck_and_siegel() {
    let q = quotient("nim", 2);
    assert_eq!(q.order(), 6);
    assert_eq!(q.elements(), ["1", "a", "b", "ab", "b^2", "ab^2"]);
    assert_eq!(p_names(&q), ["a", "b^2"]);
    assert_eq!(q.presentation(), "<a, b | a^2 = 1, b^3 = b>");
    assert_eq!(q.phi_all(), [0, 1, 2]);
    assert!(q.tame());
    assert_eq!(q.period(), None);
}

#[test]
fn nim_quotients_are_the_tame_quotients_of_order_two_to_the_k_plus_two() {
    for (max_heap, order) in [(1, 2), (3, 6), (7, 10), (15, 18)] {
        let q = quotient("nim", max_heap);
        assert_eq!(q.order(), order, "nim up to {max_heap}");
        assert_eq!(q.p_portion().len(), if order == 2 { 1 } else { 2 });
        assert!(q.tame(), "nim up to {max_heap}");
    }
}

#[test]
fn dawsons_kayles_with_heaps_up_to_30_has_order_360() {
    let q = quotient("octal:0.07", 30);
    assert_eq!(q.order(), 360);
    assert_eq!(q.p_portion().len(), 65);
    assert!(!q.tame());
    let game = Game::octal("0.07").unwrap();
    assert_tables_agree(&game, &q, 40);
}

#[test]
fn octal_075_is_the_one_quotient_of_order_eight_for_the_whole_game() {
    let q = quotient("octal:0.75", 40);
    assert_eq!(q.order(), 8);
    assert_eq!(p_names(&q), ["a", "b^2"]);
    assert_eq!(q.presentation(), "<a, b, c | a^2 = 1, bc = ab, c^2 = b^2, b^3 = b>");
    let period = q.period().unwrap();
    assert_eq!((period.preperiod, period.period), (8, 2));
}

#[test]
fn kayles_is_certified_periodic_at_heap_167_the_first_its_window_fits() {
    let q = quotient("octal:0.77", 200);
    assert_eq!((q.order(), q.p_portion().len()), (40, 9));
    // 2 * 71 + 2 * 12 + 2 - 1 = 167: the run stops there.
    assert_eq!((q.max_heap(), q.certified_at()), (167, Some(167)));
    let period = q.period().unwrap();
    assert_eq!((period.preperiod, period.period), (71, 12));
    assert_eq!(quotient("octal:0.77", 120).period(), None);
}

/// `octal:0.53` is the first two-digit code whose quotient needs a position of the
/// identity's class other than the empty one to be checked for a move to P: heap 14 is
/// a misère P-position of a class of its own.
#[test]
fn octal_053_is_proved_past_heap_14_where_a_p_position_heap_brings_a_new_element() {
    for max_heap in [13, 14, 16] {
        let q = quotient("octal:0.53", max_heap);
        let order = if max_heap < 14 { 12 } else { 16 };
        assert_eq!(q.order(), order, "octal:0.53 up to {max_heap}");
    }
    let q = quotient("octal:0.53", 16);
    assert_eq!(p_names(&q), ["a", "e", "b^2"]);
    assert_eq!(q.generator_heaps(), [1, 3, 9, 11, 14]);
    assert_eq!(q.is_p(&[14]), Some(true));
    let game = Game::octal("0.53").unwrap();
    assert_tables_agree(&game, &q, 36);
    assert_brute_force_classes("octal:0.53", 14, 14, 30);
}

#[test]
fn quotients_with_two_p_elements_have_order_two_to_the_n_plus_two_or_four() {
    for (spec, max_heap) in [("octal:0.75", 20), ("octal:0.31", 20), ("octal:0.56", 40), ("nim", 9)]
    {
        let q = quotient(spec, max_heap);
        if q.p_portion().len() == 2 {
            let n = q.order();
            assert!((n - 2).is_power_of_two() || (n >= 4 && (n - 4).is_power_of_two()), "{spec}");
        }
    }
}

/// Positions of small total are indistinguishable (by every `z` that keeps the total
/// within `limit`) when the quotient gives them one class, and the classes it gives are
/// as many as the brute force finds.
fn assert_brute_force_classes(spec: &str, max_heap: u32, small: u32, limit: u32) {
    let q = quotient(spec, max_heap);
    let mut reference = TbReference::new(TbGame::parse(spec), TbEnding::Misere);
    let within = |x: &Vec<u32>| x.iter().all(|&h| h <= max_heap);
    let xs: Vec<Vec<u32>> = all_multisets(small).into_iter().filter(within).collect();
    let zs: Vec<Vec<u32>> = all_multisets(limit - small).into_iter().filter(within).collect();
    let mut profiles: HashMap<Vec<bool>, u32> = HashMap::new();
    let mut class_of_profile: HashMap<u32, Vec<bool>> = HashMap::new();
    for x in &xs {
        let profile: Vec<bool> =
            zs.iter().map(|z| reference.is_p(&[x.as_slice(), z.as_slice()].concat())).collect();
        let class = q.element_of(x).unwrap();
        if let Some(seen) = class_of_profile.get(&class) {
            assert_eq!(*seen, profile, "{spec}: one class, distinguishable: {x:?}");
        }
        class_of_profile.insert(class, profile.clone());
        profiles.insert(profile, class);
    }
    assert_eq!(profiles.len(), class_of_profile.len(), "{spec}: classes the brute force merges");
}

#[test]
fn classes_match_brute_force_indistinguishability_on_small_totals() {
    assert_brute_force_classes("nim", 3, 6, 14);
    assert_brute_force_classes("octal:0.77", 6, 7, 16);
    assert_brute_force_classes("octal:0.07", 8, 8, 18);
    assert_brute_force_classes("subtract:1,2", 5, 6, 14);
    assert_brute_force_classes("grundys-game", 7, 8, 18);
}

#[test]
fn every_kind_of_sum_agrees_with_the_multiset_tables() {
    for (spec, max_heap) in [
        ("subtract:1,3,4", 12),
        ("subtract:2,3", 10),
        ("grundys-game", 14),
        ("octal:0.137", 14),
        ("octal:4.07", 10),
        ("graph:data/graphs/sj-counterexample.csv", 3),
    ] {
        let game = Game::parse(spec).unwrap();
        let q = compute(&game, &QuotientConfig::new(max_heap), &NoProgress).unwrap();
        assert_tables_agree(&game, &q, 26);
    }
}

#[test]
fn normal_play_gives_the_group_of_grundy_values() {
    for (spec, max_heap) in
        [("nim", 5), ("octal:0.77", 20), ("octal:0.07", 20), ("subtract:1,3,4", 12)]
    {
        let game = Game::parse(spec).unwrap();
        let config = QuotientConfig { play: Ending::Normal, ..QuotientConfig::new(max_heap) };
        let q = compute(&game, &config, &NoProgress).unwrap();
        // A certified quotient predicts heaps past `max_heap` too.
        let grundy = game.grundy(max_heap.max(14));
        let largest = grundy[..=max_heap as usize].iter().copied().max().unwrap();
        let bits = 32 - largest.leading_zeros();
        assert_eq!(q.order(), 1 << bits, "{spec}");
        assert_eq!(q.p_portion(), [0], "{spec}");
        for x in 0..q.order() as u32 {
            assert_eq!(q.product(x, x), 0, "{spec}: every element is its own inverse");
        }
        for heaps in all_multisets(14) {
            let Some(is_p) = q.is_p(&heaps) else { continue };
            let xor = heaps.iter().fold(0, |acc, &h| acc ^ grundy[h as usize]);
            assert_eq!(is_p, xor == 0, "{spec} {heaps:?}");
        }
        assert_tables_agree(&game, &q, 22);
    }
}

fn assert_monoid_laws(q: &Quotient) {
    let n = q.order() as u32;
    for x in 0..n {
        assert_eq!(q.product(0, x), x);
        for y in 0..n {
            assert_eq!(q.product(x, y), q.product(y, x));
            for z in 0..n {
                let left = q.product(q.product(x, y), z);
                assert_eq!(left, q.product(x, q.product(y, z)));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn random_octal_quotients_are_proved_monoids_that_predict_the_tables(
        digits in proptest::collection::vec(0u32..8, 1..=3),
        max_heap in 2u32..=9,
    ) {
        // A code of zeros allows no move and is refused as a game.
        prop_assume!(digits.iter().any(|&d| d != 0));
        let code: String = digits.iter().map(|d| d.to_string()).collect();
        let game = Game::octal(&format!("0.{code}")).unwrap();
        let config = QuotientConfig { max_order: 400, ..QuotientConfig::new(max_heap) };
        let q = match compute(&game, &config, &NoProgress) {
            Ok(q) => q,
            // Both bounds say only that no quotient of order at most 400 was found.
            Err(QuotientError::GrewPastLimit { .. } | QuotientError::CandidateTooLarge { .. }) => {
                return Ok(())
            }
            Err(e) => panic!("{e}"),
        };
        // Every misère quotient has even order, but for the trivial one when no heap has
        // a move (then every position is the empty game).
        let moves = (1..=max_heap).any(|h| !game.heap_options(h).is_empty());
        prop_assert_eq!(q.order() % 2 == 0, moves, "order {}", q.order());
        if q.order() <= 60 {
            assert_monoid_laws(&q);
        }
        // The class of a sum is the product of the classes.
        for heaps in all_multisets(12) {
            let Some(x) = q.element_of(&heaps) else { continue };
            let product = heaps.iter().fold(0, |acc, &h| q.product(acc, q.phi(h).unwrap()));
            prop_assert_eq!(x, product);
        }
        // Every P element is the class of some position: the elements reached from the
        // empty position by adding heaps, a closure in the monoid (not a bound on the
        // total: octal:0.71 to heap 8 needs total 20 for one of its P elements).
        let mut reached = vec![false; q.order()];
        let mut todo = vec![q.identity()];
        reached[q.identity() as usize] = true;
        while let Some(x) = todo.pop() {
            for h in 1..=max_heap {
                let y = q.product(x, q.phi(h).unwrap());
                if !reached[y as usize] {
                    reached[y as usize] = true;
                    todo.push(y);
                }
            }
        }
        for &x in &q.p_portion() {
            prop_assert!(reached[x as usize], "P element {} never reached", x);
        }
        assert_tables_agree(&game, &q, 20);
    }
}

#[test]
fn json_has_the_documented_top_level_in_order() {
    let out = run(&["quotient", "--game", "nim", "--max-heap", "2", "--format", "json"]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    let keys: Vec<&str> = out
        .stdout
        .lines()
        .filter_map(|line| line.strip_prefix('"').and_then(|l| l.split('"').next()))
        .collect();
    assert_eq!(
        keys,
        [
            "game",
            "max_heap",
            "order",
            "identity",
            "elements",
            "product",
            "p_portion",
            "phi",
            "presentation",
            "tame",
            "period"
        ]
    );
    assert!(out.stdout.contains("\"elements\":[\"1\",\"a\",\"b\",\"ab\",\"b^2\",\"ab^2\"],"));
    assert!(out.stdout.contains("\"p_portion\":[1,4],"));
    assert!(out.stdout.contains("[2,3,4,5,2,3]"), "row of b");
    assert!(out.stdout.contains("\"period\":null"));
    let periodic =
        run(&["quotient", "--game", "octal:0.75", "--max-heap", "30", "--format", "json"]);
    // The run stops at heap 21, the first at which the theorem's window fits.
    let period = "\"period\":{\"preperiod\":8,\"period\":2,\"certified_at\":21}";
    assert!(periodic.stdout.contains(period), "{}", periodic.stdout);
    let every = ["quotient", "--game", "octal:0.75", "--max-heap", "30", "--every-heap"];
    let every = run(&[&every[..], &["--format", "json"]].concat());
    assert!(every.stdout.contains("\"period\":{\"preperiod\":8,\"period\":2}"));
}

#[test]
fn check_counts_the_positions_it_compared() {
    let out = run(&["quotient", "--game", "nim", "--max-heap", "2", "--check", "6"]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    // Multisets of heaps 1 and 2 of total at most 6: 16.
    assert!(out.stdout.contains("checked 16 positions"), "{}", out.stdout);
}

#[test]
fn bad_input_is_refused_with_one_line_and_status_2() {
    for args in [
        vec!["--game", "wythoff", "--max-heap", "5"],
        vec!["--game", "nim", "--pass", "--max-heap", "5"],
        vec!["--game", "nim", "--max-heap", "0"],
        vec!["--game", "nim", "--max-heap", "16777217"],
        vec!["--game", "octal:0.156", "--max-heap", "200000"],
        vec!["--game", "nim", "--max-heap", "3", "--max-order", "0"],
        vec!["--game", "octal:0.78", "--max-heap", "3"],
        vec!["--game", "nim", "--max-heap", "3", "--check", "400"],
    ] {
        let out = run(&[&["quotient"], args.as_slice()].concat());
        assert_eq!(out.status, 2, "{args:?}: {}", out.stderr);
        assert_eq!(out.stderr.lines().count(), 1, "{args:?}: {}", out.stderr);
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn a_quotient_that_outgrows_max_order_stops_with_status_1_naming_the_heap() {
    let out = run(&["quotient", "--game", "octal:0.07", "--max-heap", "30", "--max-order", "100"]);
    assert_eq!(out.status, 1);
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(out.stderr.contains("grows past 100 elements at heap 25"), "{}", out.stderr);
    assert!(out.stdout.is_empty());
}

#[test]
fn a_heap_whose_candidates_keep_growing_stops_at_four_times_max_order() {
    // octal:0.76 at heap 12 refines its candidate without end; the reduced candidates
    // are bounded by 4K, so a small K stops the search at once.
    let out = run(&["quotient", "--game", "octal:0.76", "--max-heap", "14", "--max-order", "200"]);
    assert_eq!(out.status, 1);
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(out.stderr.contains("within --max-order 200 found at heap 12"), "{}", out.stderr);
    assert!(out.stderr.contains("more than 800"), "{}", out.stderr);
}

#[test]
fn json_to_a_file_leaves_stdout_empty_and_says_the_check_on_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("q.json");
    let out = run(&[
        "quotient",
        "--game",
        "octal:0.77",
        "--max-heap",
        "12",
        "--format",
        "json",
        "--check",
        "14",
        "--out",
        path.to_str().unwrap(),
    ]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(out.stdout.is_empty());
    assert!(out.stderr.starts_with("checked "), "{}", out.stderr);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("{\n\"game\":\"octal:0.77\",\n\"max_heap\":12,"), "{text}");
}

/// Cancels once `after` heaps are done, and records the heaps reported.
struct CancelAfter {
    after: u32,
    done: std::sync::Mutex<Vec<u32>>,
}

impl nimtab::quotient::QuotientProgress for CancelAfter {
    fn heap_done(&self, heap: u32, _order: usize) {
        self.done.lock().unwrap().push(heap);
    }

    fn cancelled(&self) -> bool {
        self.done.lock().unwrap().len() as u32 >= self.after
    }
}

#[test]
fn a_cancelled_quotient_stops_between_heaps_with_cancelled() {
    let game = Game::parse("octal:0.77").unwrap();
    let progress = CancelAfter { after: 5, done: std::sync::Mutex::new(Vec::new()) };
    let outcome = compute(&game, &QuotientConfig::new(60), &progress);
    assert!(matches!(outcome, Err(QuotientError::Cancelled)), "{outcome:?}");
    assert_eq!(*progress.done.lock().unwrap(), vec![1, 2, 3, 4, 5]);
    let whole = CancelAfter { after: u32::MAX, done: std::sync::Mutex::new(Vec::new()) };
    assert_eq!(compute(&game, &QuotientConfig::new(12), &whole).unwrap().max_heap(), 12);
}

#[test]
fn a_quotient_is_of_normal_or_misere_play_and_the_sj_ending_is_refused_before_any_work() {
    let game = Game::parse("octal:0.07").unwrap();
    let config = QuotientConfig { play: Ending::Sj, ..QuotientConfig::new(10) };
    let refused = compute(&game, &config, &NoProgress).unwrap_err();
    assert!(matches!(refused, QuotientError::SjEnding), "{refused:?}");
    assert_eq!(
        refused.to_string(),
        "a quotient decides normal or misère play; the SJ ending has none"
    );
    // Normal play is the group of Grundy values: order 2^k for values below 2^k.
    let normal = QuotientConfig { play: Ending::Normal, ..QuotientConfig::new(10) };
    let group = compute(&game, &normal, &NoProgress).unwrap();
    assert_eq!(group.play(), Ending::Normal);
    assert!(group.order().is_power_of_two(), "{}", group.order());
}
