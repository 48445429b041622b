//! Shards: `I/N`, and the split of a family into N contiguous ranges of games balanced by
//! weight (estimated positions), the same on every machine.

use std::ops::Range;

use super::SweepError;

/// The `index`-th (1-based) of `count` parts of a sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    index: usize,
    count: usize,
}

impl Shard {
    /// Part `index` of `count`.
    ///
    /// # Errors
    /// [`SweepError::BadShard`] unless `1 <= index <= count`.
    pub fn new(index: usize, count: usize) -> Result<Shard, SweepError> {
        if index == 0 || index > count {
            return Err(SweepError::BadShard { text: format!("{index}/{count}") });
        }
        Ok(Shard { index, count })
    }

    /// Parses `I/N`.
    ///
    /// # Errors
    /// [`SweepError::BadShard`] naming the text.
    pub fn parse(text: &str) -> Result<Shard, SweepError> {
        let bad = || SweepError::BadShard { text: text.to_string() };
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let index = i.trim().parse().map_err(|_| bad())?;
        let count = n.trim().parse().map_err(|_| bad())?;
        Shard::new(index, count).map_err(|_| bad())
    }

    /// `I`, from 1.
    pub fn index(self) -> usize {
        self.index
    }

    /// `N`.
    pub fn count(self) -> usize {
        self.count
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Splits games of the given weights into `count` contiguous ranges of about equal total
/// weight: a game belongs to the shard its weight's midpoint falls in, so no shard is
/// heavier than its share by more than one game. Ranges may be empty (more shards than
/// games); together they cover every game once, in order.
///
/// # Panics
/// If `count` is 0.
pub fn partition(weights: &[u64], count: usize) -> Vec<Range<usize>> {
    assert!(count > 0, "at least one shard");
    // Every game weighs at least 1, so a family of weightless games splits by count.
    let total: u128 = weights.iter().map(|&w| u128::from(w.max(1))).sum();
    let mut ranges = Vec::with_capacity(count);
    let mut start = 0;
    let mut before: u128 = 0;
    let mut shard_of = Vec::with_capacity(weights.len());
    for &w in weights {
        let w = u128::from(w.max(1));
        let midpoint2 = 2 * before + w;
        shard_of.push((midpoint2 * count as u128 / (2 * total)) as usize);
        before += w;
    }
    for shard in 0..count {
        let end = start + shard_of[start..].iter().take_while(|&&s| s == shard).count();
        ranges.push(start..end);
        start = end;
    }
    ranges
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_refuse_by_value() {
        assert_eq!(Shard::parse("2/3").unwrap(), Shard::new(2, 3).unwrap());
        assert_eq!(Shard::parse("2/3").unwrap().to_string(), "2/3");
        for bad in ["0/3", "4/3", "3", "a/b", "1/0", "-1/2"] {
            let err = Shard::parse(bad).unwrap_err();
            assert_eq!(err.to_string(), format!("shard '{bad}' must be I/N with 1 <= I <= N"));
        }
    }

    #[test]
    fn equal_weights_split_by_count_in_order() {
        let ranges = partition(&[5; 10], 3);
        assert_eq!(ranges, vec![0..3, 3..7, 7..10]);
        assert_eq!(partition(&[5; 63], 3), vec![0..21, 21..42, 42..63]);
        assert_eq!(partition(&[1; 2], 4), vec![0..0, 0..1, 1..1, 1..2]);
        assert_eq!(partition(&[7; 4], 1), vec![0..4]);
    }

    #[test]
    fn unequal_weights_balance_positions_not_counts() {
        // One heavy game and nine light ones: the heavy one gets a shard of its own.
        let mut weights = vec![90];
        weights.extend([10; 9]);
        assert_eq!(partition(&weights, 2), vec![0..1, 1..10]);
        let weights = [1, 1, 1, 1, 1, 1, 100, 1, 1, 1];
        let ranges = partition(&weights, 3);
        assert_eq!(ranges, vec![0..6, 6..7, 7..10]);
    }

    #[test]
    fn every_game_is_in_exactly_one_shard() {
        let weights: Vec<u64> = (0..200u64).map(|i| (i * 7919) % 97).collect();
        for count in 1..=12 {
            let ranges = partition(&weights, count);
            assert_eq!(ranges.len(), count);
            let covered: Vec<usize> = ranges.iter().flat_map(Clone::clone).collect();
            assert_eq!(covered, (0..200).collect::<Vec<_>>());
            let total: u64 = weights.iter().map(|&w| w.max(1)).sum();
            let heaviest = weights.iter().max().copied().unwrap();
            for r in &ranges {
                let load: u64 = weights[r.clone()].iter().map(|&w| w.max(1)).sum();
                assert!(load <= total / count as u64 + heaviest, "{count}: {r:?} weighs {load}");
            }
        }
    }
}
