//! The Grundy values of rules with three-heap moves against the mex over every option listed.

use super::*;

/// 0.3F: remove 1 or 2 (taking the heap whole or not), or 2 leaving two or three heaps.
pub(in crate::sequence) fn rule_0_3f() -> ThreeHeapRule {
    let pairs =
        HeapRule { vanish: vec![1, 2], shrink: vec![1, 2], split: vec![2], unequal_split: false };
    ThreeHeapRule { pairs, split_three: vec![2] }
}

/// The mex over every option, listed.
fn by_options(rule: &ThreeHeapRule, max: u32) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::new();
    for n in 0..=max {
        let values: Vec<u32> = rule
            .options(n)
            .iter()
            .map(|parts| parts.iter().fold(0, |x, &p| x ^ g[p as usize]))
            .collect();
        g.push((0..).find(|v| !values.contains(v)).unwrap());
    }
    g
}

#[test]
fn xor_bits_moves_each_bit_to_its_xor() {
    for j in 0..64 {
        for i in 0..64 {
            assert_eq!(xor_bits(1 << i, j), 1 << (i ^ j), "{i} {j}");
        }
    }
}

#[test]
fn values_are_the_mex_of_the_listed_options() {
    let rule = rule_0_3f();
    assert_eq!(rule.values(300), by_options(&rule, 300));
    let in_place = ThreeHeapRule { pairs: rule.pairs.clone(), split_three: vec![0, 3] };
    assert_eq!(in_place.values(200), by_options(&in_place, 200));
}

#[test]
fn values_of_random_rules_are_the_mex_of_the_listed_options() {
    // A fixed linear congruential sequence of rules: each removal 0..=4 takes a heap
    // whole, leaves one, two or three heaps, each with probability one half.
    let mut state: u64 = 0x853C_49E6_748F_EA9B;
    let mut coin = || {
        state =
            state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        state >> 63 == 1
    };
    for _ in 0..40 {
        let mut pick = |from: u32| (from..=4).filter(|_| coin()).collect::<Vec<u32>>();
        let pairs =
            HeapRule { vanish: pick(1), shrink: pick(1), split: pick(0), unequal_split: false };
        let rule = ThreeHeapRule { pairs, split_three: pick(0) };
        assert_eq!(rule.values(150), by_options(&rule, 150), "{rule:?}");
    }
}

#[test]
fn values_asked_to_stop_are_the_heaps_computed_before() {
    let rule = rule_0_3f();
    let mut asked = 0;
    let values = three_heap_values_until(&rule, 100, &mut || {
        asked += 1;
        asked > 40
    });
    assert_eq!(values, rule.values(39));
}

#[test]
fn values_resumed_from_any_prefix_go_on_as_a_run_never_stopped() {
    let rule = rule_0_3f();
    let in_place = ThreeHeapRule { pairs: rule.pairs.clone(), split_three: vec![0, 3] };
    for rule in [rule, in_place] {
        let whole = rule.values(260);
        for cut in [0, 1, 2, 3, 5, 64, 65, 130, 259] {
            let mut run = ThreeHeapValues::resume(&rule, whole[..cut].to_vec());
            while run.len() < whole.len() {
                run.push_next();
            }
            assert_eq!(run.largest(), *whole.iter().max().unwrap());
            assert_eq!(run.into_values(), whole, "{rule:?} cut at {cut}");
        }
    }
}

#[test]
fn move_counts_are_the_options_listed() {
    let rule = rule_0_3f();
    let in_place = ThreeHeapRule { pairs: rule.pairs.clone(), split_three: vec![0, 3] };
    let mut unequal = ThreeHeapRule { pairs: rule.pairs.clone(), split_three: Vec::new() };
    unequal.pairs.unequal_split = true;
    for rule in [rule, in_place, unequal] {
        for n in 0..60 {
            assert_eq!(rule.move_count(u64::from(n)), rule.options(n).len() as u64, "{n}");
        }
    }
}

#[test]
fn options_list_three_heaps_and_count_the_removal() {
    let rule = rule_0_3f();
    assert!(rule.options(5).contains(&[2, 1, 0]) && rule.options(5).contains(&[1, 1, 1]));
    assert!(!rule.options(4).contains(&[1, 1, 1]));
    assert_eq!(rule.max_removal(), 2);
    assert!(!rule.splits_in_place() && !rule.has_moves(0) && rule.has_moves(1));
}
