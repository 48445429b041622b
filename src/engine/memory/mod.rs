//! The memory a run needs, planned before anything is allocated; the one check of a run
//! against its limit; and the grant that every allocation of the run then draws from.
//!
//! A run's need is the sum of its [`Work`] (labellings, Grundy values, the caller's
//! own buffers), from a [`MemoryPlan`] that counts every allocation growing with the
//! space. The check compares the need with the limit once, before any work, and returns
//! a [`Grant`] of exactly the need. Each such allocation then goes through a [`Lease`] of
//! the grant: it is fallible (the system's refusal is [`crate::EngineError::OutOfMemory`], never an
//! abort) and counted, and a lease gives its bytes back when the buffers it allocated are
//! dropped with it. Drawing more than the grant is a planning error, which debug builds
//! (the tests) assert never happens.

pub(crate) mod plan;
pub(crate) mod reservation;

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::engine::error::{EngineError, Result};

/// One piece of work a run holds memory for at once with the others of the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// Labelling `endings` endings in one labelling, each ending's table kept and returned.
    Tables {
        /// Endings labelled together.
        endings: usize,
    },
    /// Labelling `endings` endings in one labelling, each finished row streamed to a visitor,
    /// no table kept (unless the row solver needs one as working state; a multiset space
    /// is labelled whole, then streamed from its table).
    Stream {
        /// Endings labelled together.
        endings: usize,
    },
    /// The normal-play Grundy value of every position, and the runs that find them.
    Grundy,
    /// Bytes the caller allocates itself while the rest is held (its visitor's
    /// accumulators, its output buffers), drawn from the same grant.
    Bytes(u64),
}

/// What a labelling keeps of its labels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Keep {
    /// Every track's table, handed back.
    Tables,
    /// Nothing: rows go to the visitor.
    Rows,
}

/// Bytes one engine's runs use, as planned before allocating.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryPlan {
    /// Bytes of one full label table (one ending, both pass states).
    pub table_bytes: u64,
    /// Bytes of working state besides the tables kept, per ending.
    pub working_bytes: u64,
    /// Bytes of an ending's terminal sizes and their row masks, per ending.
    pub ending_bytes: u64,
    /// Bytes of one task's scratch buffers: a part for the run, and a part per ending.
    pub scratch_bytes: u64,
    /// Bytes of one task's scratch buffers per ending labelled.
    pub scratch_bytes_per_ending: u64,
    /// Tasks that hold scratch at once: the threads of the pool.
    pub tasks: u64,
    /// Bytes kept once whatever is labelled: option lists, ranks, per-size tables.
    pub fixed_bytes: u64,
    /// Bytes of [`Work::Grundy`] besides the fixed ones.
    pub grundy_bytes: u64,
    /// Whether labelling needs a whole table as working state (every row solver but Nim's
    /// and the line solvers').
    pub needs_table: bool,
}

impl MemoryPlan {
    /// Bytes of one labelling of `endings` endings, keeping their tables or not.
    pub(crate) fn labelling_bytes(&self, endings: usize, keep: Keep) -> u64 {
        let endings = endings as u64;
        let table = if self.needs_table || keep == Keep::Tables { self.table_bytes } else { 0 };
        let per_ending = table.saturating_add(self.working_bytes).saturating_add(self.ending_bytes);
        let scratch = self
            .scratch_bytes_per_ending
            .saturating_mul(endings)
            .saturating_add(self.scratch_bytes)
            .saturating_mul(self.tasks);
        per_ending.saturating_mul(endings).saturating_add(scratch)
    }

    /// Bytes of `work` without the fixed structures.
    fn work_bytes(&self, work: Work) -> u64 {
        match work {
            Work::Tables { endings } => self.labelling_bytes(endings, Keep::Tables),
            Work::Stream { endings } => self.labelling_bytes(endings, Keep::Rows),
            Work::Grundy => self.grundy_bytes,
            Work::Bytes(bytes) => bytes,
        }
    }

    /// Total bytes of `work` held at once, the fixed structures included.
    pub fn bytes(&self, work: &[Work]) -> u64 {
        let held = work.iter().map(|&w| self.work_bytes(w)).fold(0u64, u64::saturating_add);
        held.saturating_add(self.fixed_bytes)
    }
}

/// The memory granted to one run by its check: every allocation of the run that grows
/// with the space draws from it through a `Lease` (counted, fallible).
#[derive(Debug)]
pub struct Grant {
    /// The space, as errors name it.
    what: String,
    /// Bytes granted: the run's planned need.
    bytes: u64,
    /// Bytes drawn and not given back.
    drawn: AtomicU64,
    /// The most drawn at once.
    peak: AtomicU64,
}

impl Grant {
    /// A grant of `bytes` for the space `what`, after the run's check.
    pub(crate) fn new(what: String, bytes: u64) -> Grant {
        Grant { what, bytes, drawn: AtomicU64::new(0), peak: AtomicU64::new(0) }
    }

    /// Bytes granted.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The most bytes drawn at once so far (at most [`Grant::bytes`] when the plan holds).
    pub fn peak(&self) -> u64 {
        self.peak.load(Ordering::Relaxed)
    }

    /// A lease: allocations drawn from the grant and given back with it.
    pub(crate) fn lease(&self) -> Lease<'_> {
        Lease { grant: self, bytes: AtomicU64::new(0) }
    }

    fn draw(&self, bytes: u64) {
        let now = self.drawn.fetch_add(bytes, Ordering::Relaxed) + bytes;
        self.peak.fetch_max(now, Ordering::Relaxed);
        debug_assert!(
            now <= self.bytes,
            "{}: {now} bytes drawn of the {} planned",
            self.what,
            self.bytes
        );
    }

    fn give_back(&self, bytes: u64) {
        self.drawn.fetch_sub(bytes, Ordering::Relaxed);
    }

    fn refused(&self, bytes: u64) -> EngineError {
        EngineError::OutOfMemory { what: self.what.clone(), bytes }
    }
}

/// Allocations drawn from a [`Grant`] and given back when the lease is dropped (the
/// buffers it allocated are dropped with it, or before), unless it is kept.
#[derive(Debug)]
pub(crate) struct Lease<'g> {
    grant: &'g Grant,
    bytes: AtomicU64,
}

impl Lease<'_> {
    /// Counts `len` values of `T` against the grant; refuses a length beyond memory.
    fn draw<T>(&self, len: usize) -> Result<()> {
        let bytes = (len as u64).checked_mul(std::mem::size_of::<T>() as u64);
        let bytes = bytes.ok_or_else(|| self.grant.refused(u64::MAX))?;
        self.grant.draw(bytes);
        self.bytes.fetch_add(bytes, Ordering::Relaxed);
        Ok(())
    }

    /// An empty vector with room for `len` values, or [`crate::EngineError::OutOfMemory`] if the
    /// system refuses it (`Vec::with_capacity` would abort the process instead).
    pub(crate) fn capacity<T>(&self, len: usize) -> Result<Vec<T>> {
        self.draw::<T>(len)?;
        let mut v = Vec::new();
        let bytes = len.saturating_mul(std::mem::size_of::<T>()) as u64;
        v.try_reserve_exact(len).map_err(|_| self.grant.refused(bytes))?;
        Ok(v)
    }

    /// `len` copies of `value`, refused as [`Lease::capacity`].
    pub(crate) fn vec<T: Clone>(&self, len: usize, value: T) -> Result<Vec<T>> {
        let mut v = self.capacity(len)?;
        v.resize(len, value);
        Ok(v)
    }

    /// `len` zero words, refused as [`Lease::capacity`]. The words come zeroed from the
    /// allocator: fresh pages from the system are zero already, so a table of hundreds of
    /// MiB costs nothing before the labelling touches it (writing the zeros first took a third
    /// of a second on one thread). The allocator is first asked for the memory (reserved
    /// and given back), then for the zeroed words; nothing else of the run allocates in
    /// between.
    pub(crate) fn zeroed_words(&self, len: usize) -> Result<Vec<u64>> {
        self.draw::<u64>(len)?;
        let bytes = len as u64 * 8;
        Vec::<u64>::new().try_reserve_exact(len).map_err(|_| self.grant.refused(bytes))?;
        Ok(vec![0; len])
    }

    /// `len` zero atomic words, refused as [`Lease::capacity`], written on every thread
    /// of the pool.
    pub(crate) fn zeroed_atomics(&self, len: usize) -> Result<Vec<AtomicU64>> {
        let mut v = self.capacity(len)?;
        (0..len).into_par_iter().map(|_| AtomicU64::new(0)).collect_into_vec(&mut v);
        Ok(v)
    }

    /// Keeps what the lease drew drawn (buffers handed to the caller).
    pub(crate) fn keep(self) {
        self.bytes.store(0, Ordering::Relaxed);
    }
}

impl Drop for Lease<'_> {
    fn drop(&mut self) {
        self.grant.give_back(self.bytes.load(Ordering::Relaxed));
    }
}

/// Refuses `need` bytes above `limit`, describing the space as `what`.
pub(crate) fn refuse_above(
    need: u64,
    limit: u64,
    what: impl FnOnce() -> String,
    canonical_would_help: bool,
) -> Result<()> {
    if need <= limit {
        return Ok(());
    }
    Err(EngineError::TooLarge {
        what: what(),
        need_bytes: need,
        limit_bytes: limit,
        canonical_would_help,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lease_gives_back_what_it_drew_unless_kept() {
        let grant = Grant::new("a test".into(), 1 << 20);
        {
            let lease = grant.lease();
            let words = lease.zeroed_words(1000).unwrap();
            let kept = grant.lease();
            let values = kept.vec(100, 7u32).unwrap();
            kept.keep();
            assert_eq!((words.len(), values.len()), (1000, 100));
            assert_eq!(grant.peak(), 8000 + 400);
        }
        // The kept 400 bytes stay drawn; a new lease draws on top of them.
        let lease = grant.lease();
        let _atomics = lease.zeroed_atomics(10).unwrap();
        assert_eq!(grant.peak(), 8400);
        assert_eq!(grant.drawn.load(Ordering::Relaxed), 480);
    }

    #[test]
    fn memory_the_system_refuses_is_an_error_not_an_abort() {
        let grant = Grant::new("a huge space".into(), u64::MAX);
        let refused = grant.lease().capacity::<u64>(usize::MAX / 16).unwrap_err();
        assert!(matches!(refused, EngineError::OutOfMemory { .. }), "{refused}");
    }
}
