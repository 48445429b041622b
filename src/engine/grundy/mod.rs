//! Grundy values of one take-and-break heap: the rare/common engine, cut short by a period.
//!
//! A heap of `n` tokens has about `n / 2` splits `(a, n - k - a)`, each of value
//! `G(a) ^ G(n - k - a)`, so the plain mex costs `O(n)` per heap and `O(N^2)` in all.
//! `sparse.rs` computes the same mex faster by the rare/common split of Gangolli and
//! Plambeck and Flammenkamp's "sparse space" method. Games with a certified period stop
//! computing once the period is proved (`analysis/period.rs`) and repeat it: Dawson's
//! Kayles to `2^20` is then as fast as Kayles.

mod sparse;

use crate::analysis::period::{find_period, Certificate, PeriodOutcome};
use crate::model::octal::HeapRule;
use sparse::SparseEngine;

/// The removal counts of one game, cut to the heap sizes computed.
struct Moves {
    vanish: Vec<u32>,
    shrink: Vec<u32>,
    split: Vec<u32>,
    unequal: bool,
}

/// The first heap count at which a period is looked for; then at every power of two.
const FIRST_PERIOD_CHECK: u32 = 256;

/// The Grundy values `G(0..=max)` of a take-and-break rule, exact.
///
/// Values are kept in `u8` cells while they fit (the hot table then stays in cache), else
/// the run restarts with `u16`, then `u32` cells.
pub(crate) fn sequence(rule: &HeapRule, max: u32) -> Vec<u32> {
    let up_to = |set: &[u32]| set.iter().copied().take_while(|&k| k <= max).collect();
    let moves = Moves {
        vanish: up_to(&rule.vanish),
        shrink: up_to(&rule.shrink),
        split: up_to(&rule.split),
        unequal: rule.unequal_split,
    };
    let certificate = Certificate::for_rule(rule);
    run::<u8>(&moves, max, certificate)
        .or_else(|| run::<u16>(&moves, max, certificate))
        .or_else(|| run::<u32>(&moves, max, certificate))
        .expect("u32 cells hold every value")
}

/// At least the bytes [`sequence`] holds at once for `G(0..=max)`, whatever the values:
/// cells of at most four bytes; a value below twice the heap count, so a histogram, its
/// transform and a seen table of at most four times as many entries as heaps; the rare
/// heaps, the witness scores and their list; the period checks' arrays (reversal,
/// Z-function, preperiods); the values returned, and the copy the period repeats from.
pub(crate) fn sequence_bytes(max: u32) -> u64 {
    (u64::from(max) + 1) * 112
}

/// A storage type for Grundy values inside the engine.
trait Cell: Copy + Into<u32> + TryFrom<u32> {}
impl Cell for u8 {}
impl Cell for u16 {}
impl Cell for u32 {}

/// Runs the engine with cells of type `V`; `None` if some value does not fit.
fn run<V: Cell>(moves: &Moves, max: u32, certificate: Option<Certificate>) -> Option<Vec<u32>> {
    let mut engine = SparseEngine::<V>::new(moves, max);
    let mut next_check = FIRST_PERIOD_CHECK;
    for n in 0..=max {
        engine.push_next(n)?;
        if n + 1 == next_check && n < max {
            next_check = next_check.saturating_mul(2);
            let values = engine.values();
            if let PeriodOutcome::Certified(found) = find_period(certificate, &values) {
                return Some(repeat_period(values, found.period, max));
            }
        }
    }
    Some(engine.values())
}

/// Extends `values` to `G(0..=max)` by `G(m) = G(m - period)`, which a certified period
/// guarantees beyond the values computed.
fn repeat_period(mut values: Vec<u32>, period: u32, max: u32) -> Vec<u32> {
    let period = period as usize;
    values.reserve(max as usize + 1 - values.len());
    while values.len() <= max as usize {
        values.push(values[values.len() - period]);
    }
    values
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::octal::OctalCode;

    fn rule(code: &str) -> HeapRule {
        OctalCode::parse(code).unwrap().heap_rule()
    }

    /// The plain definition: the mex over every option's value.
    fn naive(rule: &HeapRule, max: u32) -> Vec<u32> {
        let mut values: Vec<u32> = Vec::new();
        for n in 0..=max {
            let seen: Vec<u32> = rule
                .options(n)
                .iter()
                .map(|&(a, b)| values[a as usize] ^ values[b as usize])
                .collect();
            values.push((0..).find(|v| !seen.contains(v)).unwrap());
        }
        values
    }

    #[test]
    fn kayles_and_grundys_game_start_like_their_oeis_sequences() {
        let kayles = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7];
        assert_eq!(sequence(&rule("0.77"), 23), kayles);
        let grundy = [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0];
        assert_eq!(sequence(&HeapRule::grundys_game(), 23), grundy);
    }

    #[test]
    fn fast_and_naive_agree_past_the_period_checks() {
        for code in ["0.77", "0.07", "0.137", "4.07", "0.16", "0.4", "0.33"] {
            assert_eq!(sequence(&rule(code), 1100), naive(&rule(code), 1100), "{code}");
        }
        let grundy = HeapRule::grundys_game();
        assert_eq!(sequence(&grundy, 700), naive(&grundy, 700));
    }

    #[test]
    fn values_too_wide_for_small_cells_are_recomputed_exactly() {
        // Removing up to 40 tokens in any way gives values near n, beyond u8 cells.
        let wide = rule(&format!("0.{}", "7".repeat(40)));
        let exact = naive(&wide, 600);
        assert!(exact.iter().any(|&v| v > 255), "the test needs values above 255");
        assert_eq!(sequence(&wide, 600), exact);
    }
}
