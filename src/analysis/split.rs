//! The split game: A splits N stones into heaps, then B moves first.
//!
//! A bounded tuple space with N heaps of up to N stones is far too large, so the labels
//! are those of the multiset space: every multiset of non-empty heaps with at most
//! `max_stones` stones in all, labelled under normal play by the multiset engine from the
//! game's move rule. Within a total its rank order is the reverse lexicographic order of
//! the parts, the order in which the splits are tried.

use crate::engine::{Engine, Labels};
use crate::model::ending::Ending;
use crate::model::game::Game;
use crate::model::multiset::MultisetSpace;
use crate::model::space::Space;
use crate::{Error, Result};

/// The most stones `split` handles: every partition of every total up to it is labelled
/// (6.6 million of them for 60 stones: about a second for Kayles).
pub const MAX_STONES: u32 = 60;

/// Normal-play labels of every partition of at most `max_stones` stones.
#[derive(Debug)]
pub struct PartitionLabels {
    labels: Labels,
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
    /// [`Error::Invalid`] above [`MAX_STONES`]; the engine's refusal of a table that
    /// does not fit in memory.
    pub fn new(game: &Game, max_stones: u32) -> Result<PartitionLabels> {
        if max_stones > MAX_STONES {
            return Err(Error::Invalid(format!(
                "{max_stones} stones is above the limit of {MAX_STONES} (every partition is \
                 labelled)"
            )));
        }
        let engine = Engine::new(game, Space::multisets(max_stones.into())?);
        Ok(PartitionLabels { labels: engine.label(Ending::Normal)? })
    }

    /// Whether the position (heaps in any order, zeros allowed) is P.
    ///
    /// # Panics
    /// If the heaps hold more than the table's stones.
    pub fn is_p(&self, heaps: &[u32]) -> bool {
        self.labels.is_p(heaps)
    }

    /// The multiset space labelled.
    fn space(&self) -> &MultisetSpace {
        self.labels.space().as_multisets().expect("a space of partitions")
    }

    /// The split game with `stones` stones: every split into one or more non-empty heaps
    /// (the single heap included) is looked up in rank order, B moving first.
    ///
    /// # Panics
    /// If `stones` is above the table's stones.
    pub fn outcome(&self, stones: u32) -> SplitOutcome {
        let space = self.space();
        // The empty position (rank 0) is no split.
        let first = space.first_rank(stones).max(1);
        let witness = (first..space.first_rank(stones + 1))
            .find(|&rank| self.labels.is_p_at(rank))
            .map(|rank| space.unrank(rank));
        SplitOutcome { stones, witness }
    }
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
    fn even_nim_split_is_won_by_equal_halves() {
        let table = PartitionLabels::new(&Game::nim(), 6).unwrap();
        assert_eq!(table.outcome(4).witness, Some(vec![2, 2]));
        assert_eq!(table.outcome(6).witness, Some(vec![3, 3]));
        assert_eq!(table.outcome(5).witness, None);
    }
}
