//! The period search against a direct search over every period, on random octal codes.

use super::*;
use crate::sequence::{values_in_memory, HeapRule};

/// The certified pair a direct search finds in `values`: for every `p`, the least `e`
/// with `G(n + p) = G(n)` on `e <= n <= N - p` (scanned down from the top), and of the
/// pairs whose window fits, the one that fits first (`window_end + p - 1` least). A
/// period whose window fits no earlier than the best one's even from `e = 0` is not
/// scanned (the fit only grows with `e` and `p`).
fn direct(certificate: Certificate, values: &[u32]) -> Option<(u64, u64, u64)> {
    let last = values.len() - 1;
    let mut best: Option<(u64, u64, u64)> = None;
    for p in 1..=last {
        let earliest = certificate.window_end(0, p as u64) + p as u64 - 1;
        if best.is_some_and(|b| earliest >= b.2) {
            break;
        }
        let mut e = last + 1 - p;
        while e > 0 && values[e - 1] == values[e - 1 + p] {
            e -= 1;
        }
        let fits_at = certificate.window_end(e as u64, p as u64) + p as u64 - 1;
        if fits_at <= last as u64 && best.is_none_or(|b| fits_at < b.2) {
            best = Some((e as u64, p as u64, fits_at));
        }
    }
    best
}

/// What values with no certified period rule out, directly: for every period `p` up to
/// `(N + 1) / 2`, the least `e` with `G(n + p) = G(n)` on `e <= n <= N - p`; the least of
/// them, and its pair when it holds on at least one heap.
fn excluded(values: &[u32]) -> Uncertified {
    let len = values.len();
    let longest = (len / 2).max(1);
    let mut least: Option<(usize, usize)> = None;
    for p in 1..=longest.min(len - 1) {
        let mut e = len - p;
        while e > 0 && values[e - 1] == values[e - 1 + p] {
            e -= 1;
        }
        if least.is_none_or(|l| (e, p) < l) {
            least = Some((e, p));
        }
    }
    let (e, p) = least.unwrap();
    let holds = e + p < len;
    Uncertified::NotWithinData(Exclusion {
        longest: longest as u64,
        least_preperiod: e as u64,
        nearest: holds.then_some((e as u64, p as u64)),
    })
}

/// The removal counts of the octal code `D0.D1D2...` (digits given): bit 1 of `Dk`
/// takes a whole heap of `k`, bit 2 takes `k` from a larger heap, bit 4 takes `k` and
/// splits the rest in two.
fn octal_rule(digits: &[u32]) -> HeapRule {
    let with_bit = |bit: u32| -> Vec<u32> {
        (0..digits.len() as u32).filter(|&k| digits[k as usize] & bit != 0).collect()
    };
    HeapRule { vanish: with_bit(1), shrink: with_bit(2), split: with_bit(4), unequal_split: false }
}

/// Random octal codes of 1 to 3 digits after the point (leading digit 0 or 4, the last
/// non-zero), from a fixed seed, as their digits.
fn random_codes(count: usize) -> Vec<Vec<u32>> {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = |k: u64| {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((state >> 33) % k) as u32
    };
    let mut codes = Vec::new();
    while codes.len() < count {
        let mut digits = vec![if next(4) == 0 { 4 } else { 0 }];
        digits.extend((0..1 + next(3)).map(|_| next(8)));
        if digits.last() != Some(&0) {
            codes.push(digits);
        }
    }
    codes
}

#[test]
fn the_least_certified_period_and_preperiod_are_those_of_a_direct_search_on_random_codes() {
    let mut certified = 0;
    for code in random_codes(32) {
        let rule = octal_rule(&code);
        let Some(certificate) = Certificate::for_rule(&rule) else { continue };
        let values = values_in_memory(&rule, 100_000);
        let found = find_period(Some(certificate), &values);
        match (found, direct(certificate, &values)) {
            (PeriodOutcome::Certified(f), Some(d)) => {
                assert_eq!((f.preperiod, f.period, f.checked_through), d, "{code:?}");
                certified += 1;
            }
            (PeriodOutcome::NotCertified { reason, .. }, None) => {
                assert_eq!(reason, excluded(&values), "{code:?}");
            }
            (found, d) => panic!("{code:?}: {found:?} against {d:?}"),
        }
    }
    assert!(certified >= 16, "only {certified} codes certified: the test checks little");
}
