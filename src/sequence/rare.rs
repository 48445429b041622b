//! The sparse-space split of a sequence's values (Gangolli–Plambeck, Flammenkamp): the
//! mask under which values split into common and rare, the rare heaps, and a summary of
//! heaps `0..=N` (largest value, mask, rare count, last rare heap) at chosen `N`.
//!
//! A value `v` is rare under the mask `m` when `popcount(v & m)` is even (so `0` always
//! is). The mask found is the one with the fewest rare heaps among heaps `0..=N`, heap 0
//! included (ties to the smaller mask), as the engine chooses its own.

use super::engine::mask::{fewest_rare_mask, is_rare};
use super::error::SequenceError;
use super::sequence_values::Sequence;

/// What heaps `0..=through` of a sequence show under the sparse-space split.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RareSummary {
    /// The last heap counted.
    pub through: u64,
    /// The largest value among them.
    pub largest_value: u64,
    /// Its first heap.
    pub largest_at: u64,
    /// The mask: given, or the one with the fewest rare heaps.
    pub mask: u32,
    /// Rare heaps among `0..=through` (heap 0 included).
    pub rare_count: u64,
    /// The last rare heap.
    pub last_rare: u64,
}

/// The mask with the fewest rare heaps given `histogram[v]`, the heaps of value `v`.
pub fn fewest_rare_mask_of(histogram: &[u64]) -> u32 {
    let width = histogram.len().next_power_of_two().max(2);
    let mut padded = histogram.to_vec();
    padded.resize(width, 0);
    fewest_rare_mask(&padded)
}

/// A histogram of values that grows as values come.
#[derive(Clone, Debug, Default)]
pub struct Histogram(Vec<u64>);

impl Histogram {
    /// Counts one heap of value `v`.
    pub fn add(&mut self, v: u32) {
        let v = v as usize;
        if v >= self.0.len() {
            self.0.resize(v + 1, 0);
        }
        self.0[v] += 1;
    }

    /// The mask with the fewest rare heaps among the heaps counted.
    pub fn fewest_rare_mask(&self) -> u32 {
        fewest_rare_mask_of(&self.0)
    }

    /// The heaps counted whose values are rare under `mask`.
    pub fn rare_count(&self, mask: u32) -> u64 {
        let rare = self.0.iter().enumerate().filter(|&(v, _)| is_rare(v as u32, mask));
        rare.map(|(_, &count)| count).sum()
    }
}

impl Sequence {
    /// The summary of heaps `0..=N` for every `N` of `points` (ascending, each at most the
    /// max), under `mask` or, without one, each under the mask with the fewest rare heaps
    /// among its own heaps; two walks over the values (heap by heap, a periodic tail too).
    ///
    /// # Errors
    /// A disk store's read error.
    pub fn rare_summaries(
        &mut self,
        points: &[u64],
        mask: Option<u32>,
    ) -> Result<Vec<RareSummary>, SequenceError> {
        let points: Vec<u64> = points.iter().map(|&p| p.min(self.max())).collect();
        let Some(&last) = points.last() else { return Ok(Vec::new()) };
        // First walk: the largest value and the mask at each point.
        let mut histogram = Histogram::default();
        let mut largest = (0, 0);
        let mut found = Vec::with_capacity(points.len());
        let mut next = 0;
        self.for_each(0..=last, &mut |n, v| {
            if v > largest.0 || n == 0 {
                largest = (v, n);
            }
            histogram.add(v as u32);
            while next < points.len() && points[next] == n {
                let m = mask.unwrap_or_else(|| histogram.fewest_rare_mask());
                found.push((largest, m));
                next += 1;
            }
        })?;
        // Second walk: the rare heaps under each mask found.
        let mut masks: Vec<u32> = found.iter().map(|&(_, m)| m).collect();
        masks.sort_unstable();
        masks.dedup();
        let mut tallies = vec![(0u64, 0u64); masks.len()];
        let mut summaries = Vec::with_capacity(points.len());
        let mut next = 0;
        self.for_each(0..=last, &mut |n, v| {
            for (m, tally) in masks.iter().zip(tallies.iter_mut()) {
                if is_rare(v as u32, *m) {
                    *tally = (tally.0 + 1, n);
                }
            }
            while next < points.len() && points[next] == n {
                let ((largest_value, largest_at), m) = found[next];
                let (rare_count, last_rare) = tallies[masks.binary_search(&m).unwrap_or(0)];
                summaries.push(RareSummary {
                    through: n,
                    largest_value,
                    largest_at,
                    mask: m,
                    rare_count,
                    last_rare,
                });
                next += 1;
            }
        })?;
        Ok(summaries)
    }

    /// Visits every rare heap of `0..=through` under `mask`, with its value.
    ///
    /// # Errors
    /// A disk store's read error.
    pub fn for_each_rare(
        &mut self,
        through: u64,
        mask: u32,
        visit: &mut dyn FnMut(u64, u64),
    ) -> Result<(), SequenceError> {
        self.for_each(0..=through, &mut |n, v| {
            if is_rare(v as u32, mask) {
                visit(n, v);
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sequence::{run, Goal, HeapRule, NoObserver, Settings, Start, Store};

    /// The sequence of 0.16 (its values split into common and rare) to `max`.
    fn officers_like(max: u64) -> Sequence {
        let rule =
            HeapRule { vanish: vec![1], shrink: vec![2], split: vec![2], unequal_split: false };
        let settings = Settings::new(Goal::Values, max).threads(1);
        let start = Start::Fresh(Store::in_memory(max + 1));
        run(&rule, "octal:0.16", &settings, start, &mut NoObserver).unwrap()
    }

    #[test]
    fn summaries_agree_with_a_plain_count_under_the_mask_found_and_a_given_one() {
        let max = 5000;
        let mut sequence = officers_like(max);
        let mut values = Vec::new();
        sequence.for_each(0..=max, &mut |_, v| values.push(v as u32)).unwrap();
        let summaries = sequence.rare_summaries(&[64, 1024, max], None).unwrap();
        for s in &summaries {
            let heaps = &values[..=s.through as usize];
            let mut counts = vec![0u64; 64];
            heaps.iter().for_each(|&v| counts[v as usize] += 1);
            // The mask found has the fewest rare heaps of every mask.
            let rare = |m: u32| heaps.iter().filter(|&&v| is_rare(v, m)).count() as u64;
            assert!((1..64).all(|m| rare(m) >= rare(s.mask)), "{s:?}");
            assert_eq!(s.rare_count, rare(s.mask));
            let last = heaps.iter().rposition(|&v| is_rare(v, s.mask)).unwrap() as u64;
            assert_eq!(s.last_rare, last);
            let largest = *heaps.iter().max().unwrap();
            assert_eq!(s.largest_value, u64::from(largest));
            assert_eq!(s.largest_at, heaps.iter().position(|&v| v == largest).unwrap() as u64);
        }
        let given = sequence.rare_summaries(&[max], Some(1)).unwrap()[0];
        assert_eq!(given.mask, 1);
        assert_eq!(
            given.rare_count,
            values.iter().filter(|&&v| v.is_multiple_of(2)).count() as u64
        );
        let mut listed = Vec::new();
        sequence.for_each_rare(max, 1, &mut |n, v| listed.push((n, v))).unwrap();
        assert_eq!(listed.len() as u64, given.rare_count);
        assert!(listed.iter().all(|&(n, v)| values[n as usize] as u64 == v && v.is_multiple_of(2)));
    }
}
