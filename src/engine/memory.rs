//! The memory a run needs, planned before anything is allocated, and the refusal above it.

use crate::error::{Error, Result};

/// Bytes used by the tables of one run, as planned before allocating.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryPlan {
    /// Bytes of one full label table (one ending).
    pub table_bytes: u64,
    /// Bytes of working state besides the tables kept, per ending.
    pub working_bytes: u64,
    /// Bytes kept once whatever is labelled: option lists, ranks, per-size tables.
    pub fixed_bytes: u64,
    /// Whether labelling needs a whole table as working state (every row solver but Nim's).
    pub needs_table: bool,
}

impl MemoryPlan {
    /// Total bytes of a run over `endings` endings at once, keeping their tables or not.
    pub fn run(&self, endings: usize, keep_tables: bool) -> u64 {
        let table = if self.needs_table || keep_tables { self.table_bytes } else { 0 };
        let per_ending = self.working_bytes.saturating_add(table);
        per_ending.saturating_mul(endings as u64).saturating_add(self.fixed_bytes)
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
    Err(Error::TooLarge {
        what: what(),
        need_bytes: need,
        limit_bytes: limit,
        canonical_would_help,
    })
}
