//! Value-frequency tables: how many heaps of `1..=N` have each Grundy value (written as
//! `export::freq` formats them).

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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_kept_per_value_and_read_back_whole() {
        let mut freq = Frequencies::new();
        freq.add_many(5, 2);
        freq.add(0);
        let seen = (freq.count(5), freq.count(0), freq.count(3), freq.heaps(), freq.largest());
        assert_eq!(seen, (2, 1, 0, 3, 5));
        assert_eq!(Frequencies::from_counts(freq.counts().to_vec()), freq);
    }
}
