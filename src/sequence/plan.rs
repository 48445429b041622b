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

use super::error::{human_bytes, human_bytes_apart, SequenceError};
use super::period::period_check_bytes;
pub use super::run::RING_LIMIT;
use super::run::{Goal, PERIOD_EXTENSION_LIMIT};
use super::values::disk_store::DISK_STORE_RESIDENT;

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
    /// In memory only (a caller with no work directory).
    Never,
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
    /// Values asked for (`max + 1`).
    pub values: u64,
    /// Values the run can compute within the memory and disk there are: all of them for
    /// [`Goal::Values`]; for [`Goal::Period`], whose search stops at the first certified
    /// period, as many as fit (the run stops there if none is certified by then).
    pub reach: u64,
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

/// A period search holds at least this many values before it is refused: a run that
/// cannot go so far is refused before it starts.
const PERIOD_FIRST_STAGE: u64 = 1 << 16;

impl Plan {
    /// The plan of `max + 1` values for `goal` under `memory_limit`: in memory if they fit
    /// (unless `disk` says otherwise), else in a file in `dir`, whose free space is
    /// `free_disk`. A period search is planned as far as it fits: `--max` is a bound, and
    /// most searches stop long before it.
    ///
    /// # Errors
    /// [`SequenceError::MemoryTooSmall`] when the values (for a period search, its first
    /// stage) do not fit in memory, and [`SequenceError::DiskTooSmall`] when a values
    /// file would not fit in `dir`.
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
        let in_memory = Plan::memory_for(goal, values, true);
        let keep_in_memory = match disk {
            DiskUse::WhenNeeded => in_memory <= memory_limit,
            DiskUse::Always => false,
            DiskUse::Never => true,
        };
        let placement =
            if keep_in_memory { Placement::Memory } else { Placement::Disk(dir.to_path_buf()) };
        let mut plan =
            Plan { values, reach: values, placement, working_bytes: 0, memory_limit, free_disk };
        if goal == Goal::Period {
            plan.reach = plan.period_reach();
        }
        let first = match goal {
            Goal::Values => values,
            Goal::Period => values.min(PERIOD_FIRST_STAGE),
        };
        if let Some(refusal) = plan.refusal(what, goal, first) {
            return Err(refusal);
        }
        Ok(plan.sized(goal, plan.reach))
    }

    /// Memory for `values` values of a run for `goal`, with the values in memory or not:
    /// the working set, the largest period check and, in memory, the values and their
    /// copy for the check.
    fn memory_for(goal: Goal, values: u64, in_memory: bool) -> u64 {
        let checked = match goal {
            Goal::Period => values,
            Goal::Values => values.min(PERIOD_EXTENSION_LIMIT),
        };
        let working = WORKING_BYTES + period_check_bytes(checked);
        if !in_memory {
            return working;
        }
        let copy = checked.saturating_mul(PLANNED_WIDTH);
        values.saturating_mul(PLANNED_WIDTH).saturating_add(working + copy)
    }

    /// The working set of a run of `values` values for `goal` as placed.
    fn working_for(&self, goal: Goal, values: u64) -> u64 {
        let in_memory = self.placement == Placement::Memory;
        let all = Plan::memory_for(goal, values, in_memory);
        match in_memory {
            true => all - values.saturating_mul(PLANNED_WIDTH),
            false => all,
        }
    }

    /// This plan for a run of `values` values for `goal`.
    fn sized(&self, goal: Goal, values: u64) -> Plan {
        let plan = Plan { reach: values, ..self.clone() };
        Plan { working_bytes: plan.working_for(goal, values), ..plan }
    }

    /// Why a run of `values` values for `goal` (`what`) does not fit, if it does not.
    fn refusal(&self, what: &str, goal: Goal, values: u64) -> Option<SequenceError> {
        let plan = self.sized(goal, values);
        if plan.memory_bytes() > self.memory_limit {
            return Some(SequenceError::MemoryTooSmall {
                what: what.to_string(),
                need_bytes: plan.memory_bytes(),
                limit_bytes: self.memory_limit,
            });
        }
        match (&self.placement, self.free_disk) {
            (Placement::Disk(dir), Some(free)) if plan.values_bytes() > free => {
                Some(SequenceError::DiskTooSmall {
                    what: what.to_string(),
                    dir: dir.clone(),
                    need_bytes: plan.values_bytes(),
                    free_bytes: free,
                })
            }
            _ => None,
        }
    }

    /// The most values a period search fits in memory and, on disk, in the free space.
    fn period_reach(&self) -> u64 {
        let fits = |values: u64| self.refusal("", Goal::Period, values).is_none();
        // The largest number that fits, by bisection (what fits is monotone in it).
        let (mut fitting, mut too_many) = (0, self.values + 1);
        while fitting + 1 < too_many {
            let middle = fitting + (too_many - fitting) / 2;
            if fits(middle) {
                fitting = middle;
            } else {
                too_many = middle;
            }
        }
        fitting
    }

    /// Bytes the values take at most (two bytes each).
    pub fn values_bytes(&self) -> u64 {
        self.reach.saturating_mul(PLANNED_WIDTH)
    }

    /// Memory the run needs.
    pub fn memory_bytes(&self) -> u64 {
        match self.placement {
            Placement::Memory => self.values_bytes().saturating_add(self.working_bytes),
            Placement::Disk(_) => self.working_bytes,
        }
    }

    /// Whether a period search may stop before `--max` for want of memory or disk.
    pub fn stops_short(&self) -> bool {
        self.reach < self.values
    }

    /// Why a period search cannot go on to the max (`what`, the search to the max), when
    /// it [stops short](Plan::stops_short): what all of it needs against what there is.
    pub fn beyond_reach(&self, what: &str) -> Option<SequenceError> {
        self.refusal(what, Goal::Period, self.values)
    }
}

impl fmt::Display for Plan {
    /// One line: `2^30 + 1 values: in a file in DIR, 1.00 GiB (2.00 GiB once a value
    /// exceeds 255) of 70.12 GiB free; memory 44.00 MiB of 20.00 GiB`; a period search that
    /// may stop short says how far it can go.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let one = human_bytes(self.reach);
        let two = human_bytes(self.values_bytes());
        match self.stops_short() {
            false => write!(f, "{} values: ", self.values)?,
            true => write!(f, "{} values at most (to heap {}): ", self.reach, self.reach - 1)?,
        }
        match &self.placement {
            Placement::Memory => write!(f, "in memory, {one} ({two} once a value exceeds 255)")?,
            Placement::Disk(dir) => {
                let free = self.free_disk.map(|free| human_bytes_apart(self.values_bytes(), free));
                let two = free.as_ref().map_or(two, |(two, _)| two.clone());
                write!(
                    f,
                    "in a file in {}, {one} ({two} once a value exceeds 255)",
                    dir.display()
                )?;
                if let Some((_, free)) = free {
                    write!(f, " of {free} free")?;
                }
            }
        }
        let (need, limit) = human_bytes_apart(self.memory_bytes(), self.memory_limit);
        write!(f, "; memory {need} of {limit} available")
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
