//! The split game: A splits N stones into heaps, then B moves first.
//!
//! A bounded tuple space with N heaps of up to N stones is far too large, so the labels
//! come from a retrograde DP over *partitions*: every multiset of non-empty heaps with
//! at most `max_stones` stones in all. Labels depend only on the multiset, a heap of 0
//! stones has no move and so does not change a normal-play label, and every move lowers
//! the total, so partitions are labelled in order of increasing total from the move rule.

use std::collections::HashMap;

use crate::error::{Error, Result};
use crate::model::game::Game;

/// The most stones `split` handles: the partitions of every total up to it are stored
/// (about 1.1 million for 50 stones).
pub const MAX_STONES: u32 = 50;

/// Normal-play labels of every partition of at most `max_stones` stones.
#[derive(Debug)]
pub struct PartitionLabels {
    max_stones: u32,
    /// Key: the parts in non-increasing order; value: whether the position is P.
    labels: HashMap<Vec<u8>, bool>,
    /// `partitions[t]`: the partitions of `t`, in reverse lexicographic order.
    partitions: Vec<Vec<Vec<u8>>>,
}

/// Who wins the split game with a given number of stones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitOutcome {
    /// Stones A splits.
    pub stones: u32,
    /// The first P-position among the splits, in reverse lexicographic order of the parts
    /// (largest heaps first); A wins iff there is one.
    pub witness: Option<Vec<u32>>,
}

impl SplitOutcome {
    /// Whether A (the splitter) wins.
    pub fn a_wins(&self) -> bool {
        self.witness.is_some()
    }
}

impl PartitionLabels {
    /// Labels every partition of `0..=max_stones` stones under normal play of `game`.
    ///
    /// # Errors
    /// [`Error::Invalid`] above [`MAX_STONES`].
    pub fn new(game: &Game, max_stones: u32) -> Result<PartitionLabels> {
        if max_stones > MAX_STONES {
            return Err(Error::Invalid(format!(
                "{max_stones} stones is above the limit of {MAX_STONES} (every partition is stored)"
            )));
        }
        let options = game.option_table(max_stones);
        let mut labels: HashMap<Vec<u8>, bool> = HashMap::new();
        let mut partitions = Vec::new();
        for total in 0..=max_stones {
            let mut of_total = Vec::new();
            partitions_of(total, total, &mut Vec::new(), &mut of_total);
            for parts in &of_total {
                let p = !has_p_option(parts, &options, &labels);
                labels.insert(parts.clone(), p);
            }
            partitions.push(of_total);
        }
        Ok(PartitionLabels { max_stones, labels, partitions })
    }

    /// Whether the position (heaps in any order, zeros allowed) is P.
    ///
    /// # Panics
    /// If the heaps hold more than the table's stones.
    pub fn is_p(&self, heaps: &[u32]) -> bool {
        let total: u32 = heaps.iter().sum();
        assert!(total <= self.max_stones, "position above the table's stones");
        let mut key: Vec<u8> = heaps.iter().filter(|&&h| h > 0).map(|&h| h as u8).collect();
        key.sort_unstable_by(|a, b| b.cmp(a));
        self.labels[&key]
    }

    /// The split game with `stones` stones: every split into one or more non-empty heaps
    /// (the single heap included) is looked up, B moving first.
    pub fn outcome(&self, stones: u32) -> SplitOutcome {
        let witness = self.partitions[stones as usize]
            .iter()
            .filter(|parts| !parts.is_empty())
            .find(|parts| self.labels[*parts])
            .map(|parts| parts.iter().map(|&h| u32::from(h)).collect());
        SplitOutcome { stones, witness }
    }
}

/// Appends the partitions of `total` with parts at most `largest`, in reverse
/// lexicographic order, each prefixed by `prefix`.
fn partitions_of(total: u32, largest: u32, prefix: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
    if total == 0 {
        out.push(prefix.clone());
        return;
    }
    for part in (1..=largest.min(total)).rev() {
        prefix.push(part as u8);
        partitions_of(total - part, part, prefix, out);
        prefix.pop();
    }
}

/// Whether some move from `parts` reaches a P-position already labelled.
fn has_p_option(parts: &[u8], options: &[Vec<u32>], labels: &HashMap<Vec<u8>, bool>) -> bool {
    let mut next = Vec::with_capacity(parts.len());
    for (i, &part) in parts.iter().enumerate() {
        // Equal parts give equal options: try each distinct size once.
        if i > 0 && parts[i - 1] == part {
            continue;
        }
        for &to in &options[part as usize] {
            next.clear();
            next.extend(parts[..i].iter().copied());
            next.extend(parts[i + 1..].iter().copied());
            if to > 0 {
                let at = next.partition_point(|&h| u32::from(h) >= to);
                next.insert(at, to as u8);
            }
            if labels[&next] {
                return true;
            }
        }
    }
    false
}

/// The first stone count of the outcomes where the parity claim (A wins iff the count is
/// even) fails, if any.
pub fn parity_counterexample(outcomes: &[SplitOutcome]) -> Option<&SplitOutcome> {
    outcomes.iter().find(|o| o.a_wins() != (o.stones % 2 == 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partitions_come_largest_part_first() {
        let mut out = Vec::new();
        partitions_of(4, 4, &mut Vec::new(), &mut out);
        assert_eq!(out, vec![vec![4], vec![3, 1], vec![2, 2], vec![2, 1, 1], vec![1, 1, 1, 1]]);
    }

    #[test]
    fn even_nim_split_is_won_by_equal_halves() {
        let table = PartitionLabels::new(&Game::nim(), 6).unwrap();
        assert_eq!(table.outcome(4).witness, Some(vec![2, 2]));
        assert_eq!(table.outcome(6).witness, Some(vec![3, 3]));
        assert_eq!(table.outcome(5).witness, None);
    }
}
