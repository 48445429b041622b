//! The arithmetic-periodicity criterion against the values themselves: every triple it proves holds far past its proof, on every two-digit code and on random three-digit codes.

use super::*;
use crate::sequence::{HeapRule, ThreeHeapRule};

/// The rule of the code `D0.D1D2…` read from its digits (digit `Dk` removes `k`; bit 1
/// takes a heap of `k` whole, 2 leaves one heap, 4 two, 8 three), or `None` when no digit
/// has bit 8.
fn rule(code: &str) -> Option<ThreeHeapRule> {
    let digits: Vec<u32> =
        code.chars().filter(|&c| c != '.').map(|c| c.to_digit(16).unwrap()).collect();
    let with = |bit: u32| (0..).zip(&digits).filter(move |&(_, d)| d & bit != 0).map(|(k, _)| k);
    let pairs = HeapRule {
        vanish: with(1).collect(),
        shrink: with(2).collect(),
        split: with(4).collect(),
        unequal_split: false,
    };
    let split_three: Vec<u32> = with(8).collect();
    (!split_three.is_empty()).then_some(ThreeHeapRule { pairs, split_three })
}

/// A fixed linear congruential sequence from `seed`: each call gives a number below `m`.
fn numbers(seed: u64) -> impl FnMut(u64) -> u64 {
    let mut state = seed;
    move |m| {
        state =
            state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) % m
    }
}

/// `G(n + p) = G(n) + s` for every `e <= n <= N - p` of `values = G(0..=N)`.
fn holds(values: &[u32], found: &Periodicity) -> bool {
    let (e, p, s) = (found.preperiod as usize, found.period as usize, found.saltus);
    (e..values.len() - p).all(|n| u64::from(values[n + p]) == u64::from(values[n]) + s)
}

/// The search and proof over `G(0..=max)`, and the triple checked on `G(0..=far)`.
fn proved(rule: &ThreeHeapRule, max: u32, far: u32) -> Option<Periodicity> {
    let values = rule.values(far);
    match find_three_heap_period(rule, &values[..=max as usize]) {
        PeriodOutcome::Certified(found) if found.saltus > 0 => {
            assert!(holds(&values, &found), "{rule:?}: {found:?} is false by heap {far}");
            assert!(found.checked_through <= u64::from(max));
            Some(found)
        }
        _ => None,
    }
}

#[test]
fn every_arithmetic_two_digit_code_is_proved_and_holds_far_past_its_proof() {
    let digits = "0123456789ABCDEF";
    let mut count = 0;
    let mut pinned = Vec::new();
    for d1 in digits.chars() {
        for d2 in digits.chars().skip(1) {
            let code = format!("0.{d1}{d2}");
            let Some(rule) = rule(&code) else { continue };
            let values = rule.values(400);
            let outcome = find_three_heap_period(&rule, &values);
            if let PeriodOutcome::NotCertified { reason: Uncertified::Arithmetic { .. }, .. } =
                outcome
            {
                panic!("{code}: an arithmetic period the criterion does not prove: {outcome:?}");
            }
            let Some(found) = proved(&rule, 400, 2000) else { continue };
            count += 1;
            if ["0.3F", "0.28", "0.1A"].contains(&code.as_str()) {
                let triple = (found.preperiod, found.period, found.saltus, found.checked_through);
                pinned.push((code, triple));
            }
        }
    }
    assert_eq!(count, 69);
    let expected = [
        ("0.1A".to_string(), (4, 2, 1, 39)),
        ("0.28".to_string(), (1, 53, 16, 224)),
        ("0.3F".to_string(), (0, 6, 3, 38)),
    ];
    assert_eq!(pinned, expected);
}

#[test]
fn random_three_digit_codes_never_get_a_false_proof() {
    // A fixed linear congruential sequence of codes 0.D1D2D3 with D3 > 0.
    let mut next = numbers(0x2545_F491_4F6C_DD1D);
    let digits: Vec<char> = "0123456789ABCDEF".chars().collect();
    let mut proofs = 0;
    for _ in 0..120 {
        let code: String = format!(
            "0.{}{}{}",
            digits[next(16) as usize],
            digits[next(16) as usize],
            digits[1 + next(15) as usize]
        );
        let Some(rule) = rule(&code) else { continue };
        proofs += usize::from(proved(&rule, 300, 1500).is_some());
    }
    assert!(proofs >= 20, "only {proofs} proofs: the test no longer exercises the criterion");
}

#[test]
fn codes_whose_low_values_only_twins_reach_are_proved_and_hold_far_past_their_proof() {
    // With D0 = 4 or C, a pair (c, a, a) of heap n has c of one parity only, and the values
    // of the other parity below f(n) are reached by twins (c, a, a + d) with f(a + d) = f(a).
    let cases = [
        ("4.9", (16, 12, 4, 72)),
        ("4.91", (16, 12, 4, 73)),
        ("C.18", (6, 8, 4, 43)),
        ("C.19", (6, 8, 4, 43)),
        ("C.1A", (6, 8, 4, 43)),
        ("C.1B", (6, 8, 4, 43)),
    ];
    for (code, expected) in cases {
        let found = proved(&rule(code).unwrap(), 400, 3000).unwrap_or_else(|| panic!("{code}"));
        let triple = (found.preperiod, found.period, found.saltus, found.checked_through);
        assert_eq!(triple, expected, "{code}");
    }
}

#[test]
fn random_codes_with_splits_in_place_never_get_a_false_proof() {
    // Codes D0.D1D2 with D0 in 4, 8, C: the moves that leave two or three heaps of the
    // whole heap give pairs and twins of both parities.
    let mut next = numbers(0x9E37_79B9_7F4A_7C15);
    let digits: Vec<char> = "0123456789ABCDEF".chars().collect();
    let mut proofs = 0;
    for _ in 0..120 {
        let d0 = ['4', '8', 'C'][next(3) as usize];
        let code = format!("{d0}.{}{}", digits[next(16) as usize], digits[1 + next(15) as usize]);
        let Some(rule) = rule(&code) else { continue };
        proofs += usize::from(proved(&rule, 300, 1500).is_some());
    }
    assert!(proofs >= 20, "only {proofs} proofs: the test no longer exercises the criterion");
}

#[test]
fn the_proof_reads_values_through_its_last_heap_and_no_further() {
    let rule = rule("0.3F").unwrap();
    let values = rule.values(100);
    let found = ArithmeticPeriod { preperiod: 0, period: 6, saltus: 3 };
    assert_eq!(
        prove_arithmetic(&rule, &values, found),
        Ok(ArithmeticProof { checked_through: 38 })
    );
    assert_eq!(prove_arithmetic(&rule, &values[..=37], found), Err(ProofGap::NeedsValues(38)));
    let mut wrong = values.clone();
    wrong[30] += 1;
    assert_eq!(prove_arithmetic(&rule, &wrong, found), Err(ProofGap::Broken(30)));
    // 0.08 is (1, 4, 1): from heap 0 the relation fails at heap 4, which the proof reads.
    let other = self::rule("0.08").unwrap();
    let other_values = other.values(200);
    let from_one = ArithmeticPeriod { preperiod: 1, period: 4, saltus: 1 };
    assert!(prove_arithmetic(&other, &other_values, from_one).is_ok());
    let from_zero = ArithmeticPeriod { preperiod: 0, ..from_one };
    assert_eq!(prove_arithmetic(&other, &other_values, from_zero), Err(ProofGap::Broken(4)));
    assert_eq!(prove_arithmetic(&other, &[], from_one), Err(ProofGap::NeedsValues(4)));
    // The search at heap 30 states the triple as evidence and says why.
    let outcome = find_three_heap_period(&rule, &values[..=30]);
    let PeriodOutcome::NotCertified { reason, .. } = outcome else { panic!("{outcome:?}") };
    assert!(reason.explain().contains("reads values through heap 38: raise --max"), "{reason:?}");
}

#[test]
fn a_relation_the_moves_do_not_support_is_not_proved() {
    // The values of 0.3F under the moves of 0.FF (G(n) = n): f(6) = 3 is not the mex of
    // 0.FF's options under f, so the class or witness checks fail.
    let values = rule("0.3F").unwrap().values(200);
    let found = ArithmeticPeriod { preperiod: 0, period: 6, saltus: 3 };
    let other = rule("0.FF").unwrap();
    let refused = prove_arithmetic(&other, &values, found).unwrap_err();
    assert!(
        matches!(refused, ProofGap::Avoidance { .. } | ProofGap::Coverage { .. }),
        "{refused:?}"
    );
}
