//! What a run will need before it starts: where the values go (memory while they fit the
//! budget, else a file), the memory and disk that takes, and the refusal of a run that
//! cannot fit.
//!
//! Values take one byte each while every value is below 256 and two bytes from the first
//! value above it on (four above 65535, which no octal game of the literature reaches), so
//! a plan counts two bytes a value. Besides the values a run holds a bounded working set
//! ([`WORKING_BYTES`]: the window of recent values, the first values, the witness scores,
//! a disk store's buffers and page cache) and 12 bytes a rare heap. A period check holds 2
//! bytes a heap checked for its Z-function, and, with the values in memory, 2 more for a
//! copy of them in two-byte cells; a run of every value checks at most `2^22` heaps.

use std::fmt;
use std::path::{Path, PathBuf};

use super::disk_store::DISK_STORE_RESIDENT;
use super::error::{human_bytes, SequenceError};
use super::period::period_check_bytes;
use super::run::{Goal, PERIOD_EXTENSION_LIMIT};

/// Values the window of recent values may hold: `2^22` (8 MiB of two-byte cells).
pub const RING_LIMIT: u64 = 1 << 22;

/// The working set of a run besides its values, its rare heaps and a period check: the
/// window (`RING_LIMIT` two-byte cells), the first `2^16` values, the witness scores (4
/// bytes for each of `2^20` parts), the per-heap tables and a disk store's buffers.
pub const WORKING_BYTES: u64 =
    2 * RING_LIMIT + (4 << 16) + (4 << 20) + (1 << 20) + DISK_STORE_RESIDENT;

/// Bytes planned for each value.
const PLANNED_WIDTH: u64 = 2;

/// At least the bytes [`crate::sequence::values_in_memory`] holds at once for `max + 1`
/// values: a run planned in memory, and the values returned in four-byte cells.
pub fn values_in_memory_bytes(max: u64) -> u64 {
    let values = max.saturating_add(1);
    let checked = values.min(PERIOD_EXTENSION_LIMIT);
    let run = WORKING_BYTES + period_check_bytes(checked) + checked * PLANNED_WIDTH;
    values.saturating_mul(PLANNED_WIDTH + 4).saturating_add(run)
}

/// Whether a run's values go to a file even when they would fit in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiskUse {
    /// In memory while they fit the budget, else in a file.
    WhenNeeded,
    /// In a file whatever the budget (a work directory or a checkpoint was asked for).
    Always,
}

/// Where a run keeps its values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Placement {
    /// In memory.
    Memory,
    /// In a file in this directory.
    Disk(PathBuf),
}

/// What a run will need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Values to compute (`max + 1`).
    pub values: u64,
    /// Where they go.
    pub placement: Placement,
    /// Bytes of memory besides values kept in memory: the working set and the largest
    /// period check.
    pub working_bytes: u64,
    /// Bytes of memory allowed.
    pub memory_limit: u64,
    /// Bytes free in the directory of a values file.
    pub free_disk: Option<u64>,
}

/// The bytes of free space in the file system of `dir`, if the system says.
pub fn free_space(dir: &Path) -> Option<u64> {
    let stat = rustix::fs::statvfs(dir).ok()?;
    Some(stat.f_bavail.saturating_mul(stat.f_frsize))
}

impl Plan {
    /// The plan of `max + 1` values for `goal` under `memory_limit`: in memory if they fit
    /// (unless `disk` is [`DiskUse::Always`]), else in a file in `dir`, whose free space is
    /// `free_disk`.
    ///
    /// # Errors
    /// [`SequenceError::MemoryTooSmall`] when even the working set does not fit, and
    /// [`SequenceError::DiskTooSmall`] when a values file would not fit in `dir`.
    pub fn new(
        what: &str,
        max: u64,
        goal: Goal,
        dir: &Path,
        disk: DiskUse,
        memory_limit: u64,
        free_disk: Option<u64>,
    ) -> Result<Plan, SequenceError> {
        let values = max + 1;
        let checked = match goal {
            Goal::Period => values,
            Goal::Values => values.min(PERIOD_EXTENSION_LIMIT),
        };
        let on_disk = WORKING_BYTES + period_check_bytes(checked);
        let copy = checked.saturating_mul(PLANNED_WIDTH);
        let in_memory = values.saturating_mul(PLANNED_WIDTH).saturating_add(on_disk + copy);
        let keep_in_memory = disk == DiskUse::WhenNeeded && in_memory <= memory_limit;
        let (placement, working_bytes) = if keep_in_memory {
            (Placement::Memory, on_disk + copy)
        } else {
            (Placement::Disk(dir.to_path_buf()), on_disk)
        };
        let plan = Plan { values, placement, working_bytes, memory_limit, free_disk };
        plan.refuse_if_too_large(what)?;
        Ok(plan)
    }

    /// Bytes the values take at most (two bytes each).
    pub fn values_bytes(&self) -> u64 {
        self.values.saturating_mul(PLANNED_WIDTH)
    }

    /// Memory the run needs.
    pub fn memory_bytes(&self) -> u64 {
        match self.placement {
            Placement::Memory => self.values_bytes().saturating_add(self.working_bytes),
            Placement::Disk(_) => self.working_bytes,
        }
    }

    fn refuse_if_too_large(&self, what: &str) -> Result<(), SequenceError> {
        if self.memory_bytes() > self.memory_limit {
            return Err(SequenceError::MemoryTooSmall {
                what: what.to_string(),
                need_bytes: self.memory_bytes(),
                limit_bytes: self.memory_limit,
            });
        }
        if let (Placement::Disk(dir), Some(free)) = (&self.placement, self.free_disk) {
            if self.values_bytes() > free {
                return Err(SequenceError::DiskTooSmall {
                    what: what.to_string(),
                    dir: dir.clone(),
                    need_bytes: self.values_bytes(),
                    free_bytes: free,
                });
            }
        }
        Ok(())
    }
}

impl fmt::Display for Plan {
    /// One line: `2^30 + 1 values: in a file in DIR, 1.00 GiB (2.00 GiB once a value
    /// exceeds 255) of 70.12 GiB free; memory 44.00 MiB of 20.00 GiB`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let one = human_bytes(self.values);
        let two = human_bytes(self.values_bytes());
        write!(f, "{} values: ", self.values)?;
        match &self.placement {
            Placement::Memory => write!(f, "in memory, {one} ({two} once a value exceeds 255)")?,
            Placement::Disk(dir) => {
                write!(
                    f,
                    "in a file in {}, {one} ({two} once a value exceeds 255)",
                    dir.display()
                )?;
                if let Some(free) = self.free_disk {
                    write!(f, " of {} free", human_bytes(free))?;
                }
            }
        }
        write!(
            f,
            "; memory {} of {} available",
            human_bytes(self.memory_bytes()),
            human_bytes(self.memory_limit)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_go_to_disk_beyond_the_budget_and_runs_beyond_the_disk_are_refused() {
        let dir = Path::new("/work");
        let small =
            Plan::new("x", 1000, Goal::Values, dir, DiskUse::WhenNeeded, 1 << 30, Some(1 << 40))
                .unwrap();
        assert_eq!(small.placement, Placement::Memory);
        let large =
            Plan::new("x", 1 << 30, Goal::Values, dir, DiskUse::WhenNeeded, 1 << 30, Some(1 << 40))
                .unwrap();
        assert_eq!(large.placement, Placement::Disk(dir.to_path_buf()));
        assert!(large.memory_bytes() < 64 << 20, "{}", large.memory_bytes());
        let forced =
            Plan::new("x", 1000, Goal::Values, dir, DiskUse::Always, 1 << 30, None).unwrap();
        assert_eq!(forced.placement, Placement::Disk(dir.to_path_buf()));
        let full =
            Plan::new("x", 1 << 30, Goal::Values, dir, DiskUse::WhenNeeded, 1 << 30, Some(1 << 20));
        assert!(matches!(full, Err(SequenceError::DiskTooSmall { .. })), "{full:?}");
        let tiny = Plan::new("x", 10, Goal::Values, dir, DiskUse::WhenNeeded, 1 << 20, None);
        assert!(matches!(tiny, Err(SequenceError::MemoryTooSmall { .. })), "{tiny:?}");
    }
}
