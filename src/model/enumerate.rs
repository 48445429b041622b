//! Enumerating tuples: all of a range in lexicographic order, or those of a given sum.
//!
//! Every walk over positions in nimtab comes from here: [`Tuples`] for lexicographic
//! order (tables, contest inputs, per-position checks), and `for_each_with_sum` for the
//! engine's layers of equal sum.

use crate::model::space::{Mode, TupleSpace};

impl TupleSpace {
    /// Every position in index order: lexicographic, sorted tuples only in canonical mode.
    pub fn iter(&self) -> Tuples {
        match self.mode() {
            Mode::Full => Tuples::new(self.heaps(), 0, self.max()),
            Mode::Canonical => Tuples::sorted(self.heaps(), 0, self.max()),
        }
    }
}

/// Every tuple of `len` values in `lo..=hi`, in lexicographic order (the first value
/// varies slowest); with [`Tuples::sorted`], only non-decreasing tuples.
///
/// The empty tuple (`len` 0) is enumerated once.
#[derive(Clone, Debug)]
pub struct Tuples {
    lo: u32,
    hi: u32,
    sorted: bool,
    next: Option<Vec<u32>>,
}

impl Tuples {
    /// Every tuple of `len` values in `lo..=hi` (none if `lo > hi` and `len > 0`).
    pub fn new(len: usize, lo: u32, hi: u32) -> Tuples {
        let next = (len == 0 || lo <= hi).then(|| vec![lo; len]);
        Tuples { lo, hi, sorted: false, next }
    }

    /// Every non-decreasing tuple of `len` values in `lo..=hi`.
    pub fn sorted(len: usize, lo: u32, hi: u32) -> Tuples {
        Tuples { sorted: true, ..Tuples::new(len, lo, hi) }
    }

    /// Calls `visit` on each tuple without allocating one per tuple.
    pub fn for_each(mut self, mut visit: impl FnMut(&[u32])) {
        while let Some(current) = self.next.take() {
            visit(&current);
            self.next = self.step(current);
        }
    }

    /// The tuple after `current`, reusing its buffer: an odometer step that bumps the
    /// last value that can grow and resets the ones after it.
    fn step(&self, mut current: Vec<u32>) -> Option<Vec<u32>> {
        let i = (0..current.len()).rev().find(|&i| current[i] < self.hi)?;
        current[i] += 1;
        let reset = if self.sorted { current[i] } else { self.lo };
        current[i + 1..].fill(reset);
        Some(current)
    }
}

impl Iterator for Tuples {
    type Item = Vec<u32>;

    fn next(&mut self) -> Option<Vec<u32>> {
        let current = self.next.take()?;
        self.next = self.step(current.clone());
        Some(current)
    }
}

/// Calls `visit` on every tuple at `buf[start..]` of values in `0..=max` summing to
/// `sum`, in lexicographic order; in [`Mode::Canonical`] only non-decreasing tuples whose
/// first value is at least the one before it (`buf[start - 1]`, if any).
pub(crate) fn for_each_with_sum(
    buf: &mut [u32],
    start: usize,
    sum: u64,
    max: u32,
    mode: Mode,
    visit: &mut impl FnMut(&[u32]),
) {
    let len = buf.len();
    if start == len {
        if sum == 0 {
            visit(buf);
        }
        return;
    }
    let count = (len - start) as u64;
    // The values after this one (each at most max) must absorb sum - v.
    let lo = sum.saturating_sub((count - 1) * u64::from(max));
    let (lo, hi) = match mode {
        Mode::Full => (lo, sum),
        // Sorted: v is at least the value before it and at most the average of the rest.
        Mode::Canonical => {
            let floor = if start > 0 { buf[start - 1] } else { 0 };
            (lo.max(u64::from(floor)), sum / count)
        }
    };
    for v in lo..=hi.min(u64::from(max)) {
        buf[start] = v as u32;
        for_each_with_sum(buf, start + 1, sum - v, max, mode, visit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::canonical::multisets;

    #[test]
    fn tuples_come_in_lexicographic_order() {
        let sorted: Vec<Vec<u32>> = Tuples::sorted(2, 0, 2).collect();
        let expected: Vec<Vec<u32>> =
            vec![vec![0, 0], vec![0, 1], vec![0, 2], vec![1, 1], vec![1, 2], vec![2, 2]];
        assert_eq!(sorted, expected);
        assert_eq!(Tuples::new(0, 0, 5).count(), 1, "the empty tuple, once");
        let ranged: Vec<Vec<u32>> = Tuples::new(2, 1, 2).collect();
        assert_eq!(ranged, vec![vec![1, 1], vec![1, 2], vec![2, 1], vec![2, 2]]);
        let mut seen = Vec::new();
        Tuples::new(3, 0, 3).for_each(|t| seen.push(t.to_vec()));
        assert_eq!(seen, Tuples::new(3, 0, 3).collect::<Vec<_>>());
    }

    #[test]
    fn compositions_and_sorted_tuples_cover_the_space() {
        let (max, len) = (3u32, 3usize);
        let mut all = Vec::new();
        let mut sorted = Vec::new();
        for sum in 0..=u64::from(max) * len as u64 {
            let mut buf = vec![0; len];
            for_each_with_sum(&mut buf, 0, sum, max, Mode::Full, &mut |t| all.push(t.to_vec()));
            let mut keep = |t: &[u32]| sorted.push(t.to_vec());
            for_each_with_sum(&mut buf, 0, sum, max, Mode::Canonical, &mut keep);
        }
        all.sort();
        assert_eq!(all, Tuples::new(len, 0, max).collect::<Vec<_>>());
        assert_eq!(sorted.len() as u64, multisets(max, len));
        assert!(sorted.iter().all(|t| t.windows(2).all(|w| w[0] <= w[1])));
    }
}
