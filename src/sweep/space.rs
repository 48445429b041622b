//! The positions every game of a sweep is checked on: tuples of a range of heap counts,
//! or the multisets of a bounded total.

use super::error::Result;
use crate::model::multiset::MultisetSpace;
use crate::model::space::{Mode, Space};
use crate::Error;

/// The positions every game of a sweep is checked on, validated when built.
///
/// The one place a new kind of space is added: a constructor, a variant of `Kind`, and
/// its words in [`SweepSpace::describe`]; runs go through [`SweepSpace::spaces`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SweepSpace {
    kind: Kind,
    mode: Mode,
    /// The spaces of one game, in row order: the tuple spaces of the heap counts, or the
    /// one multiset space.
    spaces: Vec<Space>,
}

/// How the spaces of a sweep were given.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// Every tuple of `lo..=hi` heaps of at most `max` stones.
    Heaps { lo: usize, hi: usize, max: u32 },
    /// Every multiset of non-empty heaps of total at most `total`.
    Total { total: u32 },
}

impl SweepSpace {
    /// Heap counts `lo..=hi` of at most `max` stones, each space validated.
    ///
    /// # Errors
    /// The errors of [`Space::in_mode`]; [`Error::Invalid`] for an empty range.
    pub fn heaps(lo: usize, hi: usize, max: u32, mode: Mode) -> Result<SweepSpace> {
        if lo > hi {
            return Err(
                Error::Invalid(format!("heap counts {lo}..={hi}: the range is empty")).into()
            );
        }
        let spaces = (lo..=hi)
            .map(|n| Space::in_mode(n, max, mode))
            .collect::<Result<Vec<_>, crate::ModelError>>()?;
        Ok(SweepSpace { kind: Kind::Heaps { lo, hi, max }, mode, spaces })
    }

    /// Every multiset of non-empty heaps of total at most `total`: one space, which
    /// holds the games that split heaps too.
    ///
    /// # Errors
    /// The errors of [`MultisetSpace::new`] (a total above [`crate::model::multiset::MAX_TOTAL`]).
    pub fn total(total: u64) -> Result<SweepSpace> {
        let space = MultisetSpace::new(total)?;
        let kind = Kind::Total { total: space.total() };
        Ok(SweepSpace { kind, mode: Mode::Canonical, spaces: vec![Space::Multisets(space)] })
    }

    /// The spaces of one game, in row order: one per heap count, or the multiset space.
    pub fn spaces(&self) -> &[Space] {
        &self.spaces
    }

    /// The multiset space, for a sweep given by its total.
    pub fn multisets(&self) -> Option<&MultisetSpace> {
        match self.kind {
            Kind::Heaps { .. } => None,
            Kind::Total { .. } => self.spaces[0].as_multisets(),
        }
    }

    /// Spaces per game: the heap counts, or the one multiset space.
    pub fn count(&self) -> usize {
        self.spaces.len()
    }

    /// Every tuple, or sorted tuples only (multisets are sorted tuples).
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Positions labelled per ending for one game, over every space.
    pub fn positions(&self) -> u64 {
        self.spaces.iter().map(Space::positions).fold(0, u64::saturating_add)
    }

    /// `heaps 1..=3, max 31` (and `, canonical`), or `multisets of total<=12`.
    pub fn describe(&self) -> String {
        let canonical = if self.mode.is_canonical() { ", canonical" } else { "" };
        match &self.kind {
            Kind::Heaps { lo, hi, max } => format!("heaps {lo}..={hi}, max {max}{canonical}"),
            Kind::Total { total } => format!("multisets of total<={total}"),
        }
    }
}
