//! A finished sequence `G(0..=max)`: the values computed, and how the rest follows from
//! them (a certified period, Nim's `G(n) = n`, a move graph's heaps without moves).

use std::ops::RangeInclusive;

use super::error::SequenceError;
use super::freq::Frequencies;
use super::period::{PeriodOutcome, Periodicity};
use super::values::store::Store;

/// How values beyond the computed ones follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extension {
    /// Every value up to the max was computed.
    None,
    /// `G(n) = G(n - period)` beyond the computed values (a certified period).
    Periodic(Periodicity),
    /// `G(n) = n` (Nim: nothing is stored).
    Identity,
    /// `G(n) = 0` (heaps with no move, beyond a move graph's largest heap).
    Zero,
}

/// `G(0..=max)` of one game.
#[derive(Debug)]
pub struct Sequence {
    store: Store,
    extension: Extension,
    max: u64,
    period: Option<PeriodOutcome>,
}

impl Sequence {
    /// A sequence of `store`'s values, continued by `extension` to `max`; `period` is what
    /// a period search found, if one ran.
    pub fn new(
        store: Store,
        extension: Extension,
        max: u64,
        period: Option<PeriodOutcome>,
    ) -> Sequence {
        Sequence { store, extension, max, period }
    }

    /// Nim's `G(n) = n` for `n <= max`.
    pub fn identity(max: u64) -> Sequence {
        Sequence::new(Store::in_memory(0), Extension::Identity, max, None)
    }

    /// The largest heap size.
    pub fn max(&self) -> u64 {
        self.max
    }

    /// Values computed (the rest follow by the extension).
    pub fn computed(&self) -> u64 {
        self.store.len().min(self.max + 1)
    }

    /// How the values beyond the computed ones follow.
    pub fn extension(&self) -> Extension {
        self.extension
    }

    /// What the period search found, if one ran.
    pub fn period(&self) -> Option<&PeriodOutcome> {
        self.period.as_ref()
    }

    /// The store of the computed values.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The store of the computed values, to read them.
    pub(crate) fn store_mut(&mut self) -> &mut Store {
        &mut self.store
    }

    /// Gives back the store (a disk store's file is then the caller's to remove).
    pub fn into_store(self) -> Store {
        self.store
    }

    /// Calls `visit(n, G(n))` for every heap size `n` of `heaps` up to the max, in order.
    ///
    /// # Errors
    /// A disk store's read error.
    pub fn for_each(
        &mut self,
        heaps: RangeInclusive<u64>,
        visit: &mut dyn FnMut(u64, u64),
    ) -> Result<(), SequenceError> {
        let (start, end) = heaps.into_inner();
        let end = end.min(self.max);
        if start > end {
            return Ok(());
        }
        let computed = self.computed();
        self.store.for_each(start, (end + 1).min(computed), &mut |n, v| visit(n, u64::from(v)))?;
        let tail = start.max(computed);
        match self.extension {
            Extension::None => {}
            Extension::Identity => (tail..=end).for_each(|n| visit(n, n)),
            Extension::Zero => (tail..=end).for_each(|n| visit(n, 0)),
            Extension::Periodic(found) => {
                let block = self.store.read(found.preperiod, found.preperiod + found.period)?;
                for n in tail..=end {
                    let at = ((n - found.preperiod) % found.period) as usize;
                    visit(n, u64::from(block[at]));
                }
            }
        }
        Ok(())
    }

    /// The value-frequency tables of heaps `1..=N` for every `N` of `points` (ascending,
    /// each at most the max), in one walk; a periodic tail is counted by whole periods.
    ///
    /// # Errors
    /// A disk store's read error; Nim values above `u32::MAX` cannot be tabled.
    pub fn frequencies_at(&mut self, points: &[u64]) -> Result<Vec<Frequencies>, SequenceError> {
        let mut tables = Vec::with_capacity(points.len());
        let mut freq = Frequencies::new();
        let mut counted = 0u64; // heaps 1..=counted are in `freq`
        for &point in points {
            let point = point.min(self.max);
            self.count_into(&mut freq, counted + 1, point)?;
            counted = counted.max(point);
            tables.push(freq.clone());
        }
        Ok(tables)
    }

    /// Adds heaps `from..=to` to `freq`.
    fn count_into(
        &mut self,
        freq: &mut Frequencies,
        from: u64,
        to: u64,
    ) -> Result<(), SequenceError> {
        if from > to {
            return Ok(());
        }
        let computed = self.computed();
        self.store.for_each(from, (to + 1).min(computed), &mut |_, v| freq.add(v))?;
        let tail = from.max(computed);
        if tail > to {
            return Ok(());
        }
        match self.extension {
            Extension::None => {}
            Extension::Zero => freq.add_many(0, to - tail + 1),
            Extension::Identity => {
                if to >= NIM_TABLE_LIMIT {
                    return Err(nim_too_large(to));
                }
                for n in tail..=to {
                    let value = u32::try_from(n).map_err(|_| nim_too_large(n))?;
                    freq.add(value);
                }
            }
            Extension::Periodic(found) => {
                let block = self.store.read(found.preperiod, found.preperiod + found.period)?;
                let len = to - tail + 1;
                let (cycles, rest) = (len / found.period, len % found.period);
                let offset = (tail - found.preperiod) % found.period;
                for (i, &v) in block.iter().enumerate() {
                    let extra = u64::from((i as u64 + found.period - offset) % found.period < rest);
                    freq.add_many(v, cycles + extra);
                }
            }
        }
        Ok(())
    }
}

/// Nim's frequency table is one line per heap (every value once): it is built up to this
/// many heaps.
const NIM_TABLE_LIMIT: u64 = 1 << 28;

fn nim_too_large(n: u64) -> SequenceError {
    SequenceError::Unsupported(format!(
        "nim's frequency table holds every value once, one line a heap: heap {n} is beyond \
         the {NIM_TABLE_LIMIT} heaps it is made for"
    ))
}
