//! An independent check of a run's values: heaps recomputed as the plain mex of every
//! option, reading the values of the options from the run's own, without the engine
//! (no mask, no rare heaps, no window, no witnesses).
//!
//! A heap whose recorded value is not the mex of its options' recorded values proves the
//! values wrong; agreement on a sample proves only those heaps. The first wrong value of a
//! sequence always fails its own check (its options' values are all right), so a values
//! file wrong in many places, or from the wrong game, fails almost any sample, while one
//! value changed on purpose is caught only if it is sampled.

use super::error::SequenceError;
use super::rule::HeapRule;
use super::sequence_values::Sequence;
use super::three_heaps::{splits_in_three, ThreeHeapRule};

/// Values read from the store at once.
const CHUNK: u64 = 1 << 16;
/// Option values tracked above the recorded value, to name the mex when it is larger.
const ABOVE: u32 = 64;

/// A heap whose recorded value is not the mex of its options' recorded values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WrongValue {
    /// The heap size.
    pub heap: u64,
    /// Its recorded value.
    pub recorded: u32,
    /// The mex of its options, when at most `recorded + 64` (else `None`: larger).
    pub mex: Option<u32>,
}

/// `count` heaps spread evenly over `1..computed`, the last computed one included,
/// ascending and without repeats.
pub fn sample_heaps(computed: u64, count: u64) -> Vec<u64> {
    let last = computed.saturating_sub(1);
    let mut heaps: Vec<u64> = (1..=count)
        .map(|i| ((u128::from(last) * u128::from(i)) / u128::from(count)) as u64)
        .filter(|&n| n >= 1)
        .collect();
    heaps.dedup();
    heaps
}

impl Sequence {
    /// Recomputes each heap of `heaps` (computed ones, ascending) of `rule` as the mex of
    /// its options' values, read from this sequence's values: the first heap that
    /// disagrees, if any. A heap `n` reads about `n / 2` values of each split move, one of
    /// each other move, and visits about `n^2 / 12` options of each three-heap split.
    ///
    /// # Errors
    /// A disk store's read error; [`SequenceError::Unsupported`] for a heap not computed.
    pub fn spot_check(
        &mut self,
        rule: &ThreeHeapRule,
        heaps: &[u64],
    ) -> Result<Option<WrongValue>, SequenceError> {
        for &n in heaps {
            if n >= self.computed() {
                return Err(SequenceError::Unsupported(format!(
                    "heap {n} was not computed, so it cannot be checked"
                )));
            }
            let recorded = self.value(n)?;
            let mut seen = Seen::new(recorded);
            self.mark_options(&rule.pairs, n, &mut seen)?;
            self.mark_triples(&rule.split_three, n, &mut seen)?;
            if let Some(mex) = seen.wrong() {
                return Ok(Some(WrongValue { heap: n, recorded, mex }));
            }
        }
        Ok(None)
    }

    /// `G(n)`, computed.
    fn value(&mut self, n: u64) -> Result<u32, SequenceError> {
        Ok(self.values(n, n + 1)?[0])
    }

    /// Computed values `start..end`.
    fn values(&mut self, start: u64, end: u64) -> Result<Vec<u32>, SequenceError> {
        self.store_mut().read(start, end)
    }

    /// Marks the value of every option of heap `n`.
    fn mark_options(
        &mut self,
        rule: &HeapRule,
        n: u64,
        seen: &mut Seen,
    ) -> Result<(), SequenceError> {
        if rule.vanish.iter().any(|&k| u64::from(k) == n) {
            seen.mark(0);
        }
        for &k in rule.shrink.iter().filter(|&&k| u64::from(k) < n) {
            seen.mark(self.value(n - u64::from(k))?);
        }
        for &k in &rule.split {
            let Some(rest) = n.checked_sub(u64::from(k)).filter(|&r| r >= 2) else { continue };
            // Splits (a, rest - a) for 1 <= a <= rest / 2, read a chunk of each side at once.
            let mut a = 1;
            while a <= rest / 2 {
                let end = (a + CHUNK).min(rest / 2 + 1);
                let small = self.values(a, end)?;
                let large = self.values(rest - end + 1, rest - a + 1)?;
                for (i, &g) in small.iter().enumerate() {
                    let b = rest - (a + i as u64);
                    if !(rule.unequal_split && b == a + i as u64) {
                        seen.mark(g ^ large[large.len() - 1 - i]);
                    }
                }
                a = end;
            }
        }
        Ok(())
    }
}

impl Sequence {
    /// Marks the value of every option of heap `n` that leaves three heaps: for each
    /// removal `k`, every `a >= b >= c >= 1` with `a + b + c = n - k`, listed. Only games
    /// with values in memory (at most `2^16` heaps) have such moves, so the values below
    /// `n` are read at once.
    fn mark_triples(
        &mut self,
        removals: &[u32],
        n: u64,
        seen: &mut Seen,
    ) -> Result<(), SequenceError> {
        let Some(&least) = removals.first() else { return Ok(()) };
        let Some(most) = n.checked_sub(u64::from(least)).filter(|&rest| rest >= 3) else {
            return Ok(());
        };
        let g = self.values(0, most + 1)?;
        for &k in removals {
            let Some(rest) = n.checked_sub(u64::from(k)).filter(|&r| r >= 3) else { continue };
            for [a, b, c] in splits_in_three(rest as u32) {
                seen.mark(g[a as usize] ^ g[b as usize] ^ g[c as usize]);
            }
        }
        Ok(())
    }
}

/// Option values seen, up to `ABOVE` past the recorded value.
struct Seen {
    recorded: u32,
    bits: Vec<u64>,
}

impl Seen {
    fn new(recorded: u32) -> Seen {
        let values = u64::from(recorded) + u64::from(ABOVE) + 1;
        Seen { recorded, bits: vec![0; values.div_ceil(64) as usize] }
    }

    fn mark(&mut self, value: u32) {
        if let Some(word) = self.bits.get_mut((value / 64) as usize) {
            *word |= 1 << (value % 64);
        }
    }

    fn has(&self, value: u32) -> bool {
        self.bits.get((value / 64) as usize).is_some_and(|w| w >> (value % 64) & 1 == 1)
    }

    /// `None` when the recorded value is the mex; else `Some(mex)` (`Some(None)`: above
    /// what is tracked).
    fn wrong(&self) -> Option<Option<u32>> {
        let limit = self.recorded.saturating_add(ABOVE);
        let mex = (0..=limit).find(|&v| !self.has(v));
        (mex != Some(self.recorded)).then_some(mex)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sequence::{values_in_memory, Extension, Store};

    fn sequence_of(values: &[u32]) -> Sequence {
        let mut store = Store::in_memory(values.len() as u64);
        for &v in values {
            store.push(v).unwrap();
        }
        Sequence::new(store, Extension::None, values.len() as u64 - 1, None)
    }

    #[test]
    fn the_right_values_pass_and_a_changed_one_fails_its_own_check() {
        // octal:0.77: remove 1 or 2, leaving zero, one or two heaps.
        let rule = HeapRule {
            vanish: vec![1, 2],
            shrink: vec![1, 2],
            split: vec![1, 2],
            unequal_split: false,
        };
        let mut values = values_in_memory(&rule, 300);
        let rule = ThreeHeapRule { pairs: rule, split_three: Vec::new() };
        let heaps = sample_heaps(301, 300);
        assert_eq!(heaps, (1..=300).collect::<Vec<_>>());
        assert_eq!(sequence_of(&values).spot_check(&rule, &heaps).unwrap(), None);
        let recorded = values[200];
        values[200] = recorded + 1;
        let wrong = sequence_of(&values).spot_check(&rule, &heaps).unwrap();
        assert_eq!(
            wrong,
            Some(WrongValue { heap: 200, recorded: recorded + 1, mex: Some(recorded) })
        );
        assert_eq!(sequence_of(&values).spot_check(&rule, &[100, 150]).unwrap(), None);
    }

    #[test]
    fn a_changed_value_of_a_game_with_three_heap_moves_fails_its_own_check() {
        // hex:0.3F: remove 1 or 2 (taking the heap whole or not), or 1 leaving two or
        // three heaps.
        let pairs = HeapRule {
            vanish: vec![1, 2],
            shrink: vec![1, 2],
            split: vec![2],
            unequal_split: false,
        };
        let rule = ThreeHeapRule { pairs, split_three: vec![2] };
        let mut values = rule.values(200);
        let heaps = sample_heaps(201, 200);
        assert_eq!(sequence_of(&values).spot_check(&rule, &heaps).unwrap(), None);
        // Without the three-heap moves the recorded values are not the mexes.
        let pairs_only = ThreeHeapRule { pairs: rule.pairs.clone(), split_three: Vec::new() };
        assert!(sequence_of(&values).spot_check(&pairs_only, &heaps).unwrap().is_some());
        let recorded = values[150];
        values[150] = recorded + 1;
        let wrong = sequence_of(&values).spot_check(&rule, &heaps).unwrap();
        assert_eq!(
            wrong,
            Some(WrongValue { heap: 150, recorded: recorded + 1, mex: Some(recorded) })
        );
    }

    #[test]
    fn samples_spread_evenly_and_end_at_the_last_heap() {
        assert_eq!(sample_heaps(1001, 4), vec![250, 500, 750, 1000]);
        assert_eq!(sample_heaps(3, 10), vec![1, 2]);
        assert!(sample_heaps(1, 5).is_empty());
    }
}
