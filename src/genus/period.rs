//! The apparent period of a genus sequence: bounded evidence, never a proof.

use crate::genus::value::Genus;

/// A sequence that repeats with `period` from heap `preperiod` through heap `through`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Periodicity {
    /// The first heap of the repetition.
    pub preperiod: u32,
    /// The least period seen.
    pub period: u32,
    /// The last heap checked.
    pub through: u32,
}

/// The least period `p` whose repetition, from its least preperiod `e`, is seen at
/// least twice in full (`e + 2p` heaps at most the sequence's length), with that `e`.
/// No theorem extends a genus sequence's period, so this says only what the data show.
pub fn apparent_period(genera: &[Genus]) -> Option<Periodicity> {
    let len = genera.len();
    let through = u32::try_from(len.checked_sub(1)?).ok()?;
    (1..=len / 2).find_map(|p| {
        let mut start = len - p;
        while start > 0 && genera[start - 1] == genera[start - 1 + p] {
            start -= 1;
        }
        (start + 2 * p <= len).then_some(Periodicity {
            preperiod: start as u32,
            period: p as u32,
            through,
        })
    })
}
