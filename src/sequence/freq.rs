//! Value-frequency tables: how many heaps of `1..=N` have each Grundy value, the form in
//! which the sparse-space solvers publish long runs (`value count` lines, values from 0 to
//! the largest, zero counts included).

use std::io::{self, Write};

/// Heaps per value, over heaps `1..=heaps`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frequencies {
    counts: Vec<u64>,
    heaps: u64,
}

impl Default for Frequencies {
    fn default() -> Self {
        Frequencies::new()
    }
}

impl Frequencies {
    /// No heap counted.
    pub fn new() -> Frequencies {
        Frequencies { counts: vec![0; 2], heaps: 0 }
    }

    /// A table read back from a checkpoint: `counts[v]` heaps of value `v`.
    pub fn from_counts(mut counts: Vec<u64>) -> Frequencies {
        let heaps = counts.iter().sum();
        let len = counts.len().max(2).next_power_of_two();
        counts.resize(len, 0);
        Frequencies { counts, heaps }
    }

    /// Counts one more heap of value `value`.
    #[inline]
    pub fn add(&mut self, value: u32) {
        let v = value as usize;
        if v >= self.counts.len() {
            self.counts.resize((v + 1).next_power_of_two(), 0);
        }
        self.counts[v] += 1;
        self.heaps += 1;
    }

    /// Counts `times` more heaps of value `value`.
    pub fn add_many(&mut self, value: u32, times: u64) {
        if times > 0 {
            self.add(value);
            self.counts[value as usize] += times - 1;
            self.heaps += times - 1;
        }
    }

    /// Heaps counted.
    pub fn heaps(&self) -> u64 {
        self.heaps
    }

    /// Heaps of value `value`.
    pub fn count(&self, value: u32) -> u64 {
        self.counts.get(value as usize).copied().unwrap_or(0)
    }

    /// The largest value counted (0 when none is).
    pub fn largest(&self) -> u32 {
        self.counts.iter().rposition(|&c| c > 0).unwrap_or(0) as u32
    }

    /// The counts, indexed by value, with length a power of two above every value.
    pub fn counts(&self) -> &[u64] {
        &self.counts
    }

    /// Writes `value count` for every value from 0 to the largest.
    ///
    /// # Errors
    /// The writer's I/O error.
    pub fn write<W: Write + ?Sized>(&self, out: &mut W) -> io::Result<()> {
        if self.heaps == 0 {
            return Ok(());
        }
        for v in 0..=self.largest() {
            writeln!(out, "{v} {}", self.count(v))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_list_every_value_up_to_the_largest_with_zero_counts() {
        let mut freq = Frequencies::new();
        for v in [3, 0, 3, 1] {
            freq.add(v);
        }
        freq.add_many(5, 2);
        let mut out = Vec::new();
        freq.write(&mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "0 1\n1 1\n2 0\n3 2\n4 0\n5 2\n");
        assert_eq!((freq.heaps(), freq.largest()), (6, 5));
        assert_eq!(Frequencies::from_counts(freq.counts().to_vec()), freq);
    }
}
