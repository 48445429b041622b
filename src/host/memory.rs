//! The memory this process may use: one reading of its limits and use, and the budget a
//! run computes from it.
//!
//! Under a process limit the budget is the limit less what the reading found in use, less
//! what the threads started after it will map (a stack each, and with glibc's malloc an
//! allocator arena of 64 MiB of address space each unless the arenas are limited), less a
//! fixed reserve for what no plan counts. The reading is taken once, before any thread
//! starts (the binary takes it first thing), so the same command under the same limit
//! gets the same budget every run: read later, it would see whichever threads and arenas
//! happened to exist by then.

use std::fmt;
use std::path::Path;

use super::kib_field;
use super::threads::{HELPER_STACK, WORKER_STACK};

/// What bounds the memory available to this process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemorySource {
    /// The system's available memory (`MemAvailable` in `/proc/meminfo`).
    Available,
    /// The address-space limit (RLIMIT_AS, `ulimit -v`), less what is already mapped and
    /// what the worker threads will map.
    AddressSpace,
    /// The data-segment limit (RLIMIT_DATA, `ulimit -d`), less what is already used.
    DataSegment,
    /// The memory cgroup's limit (`memory.max`, or `memory.limit_in_bytes` in cgroup v1),
    /// less its current usage: containers and batch schedulers set it.
    Cgroup,
    /// Nothing could be read; 4 GiB is assumed.
    Assumed,
}

impl fmt::Display for MemorySource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MemorySource::Available => "the system's available memory (MemAvailable)",
            MemorySource::AddressSpace => "the address-space limit (ulimit -v)",
            MemorySource::DataSegment => "the data-segment limit (ulimit -d)",
            MemorySource::Cgroup => "the memory cgroup's limit",
            MemorySource::Assumed => "an assumed 4 GiB (no memory figure could be read)",
        })
    }
}

/// The memory runs may use, and which bound gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryBudget {
    /// Bytes runs may allocate.
    pub bytes: u64,
    /// The bound that gave `bytes`.
    pub source: MemorySource,
}

/// Bytes kept back under a process limit for what no plan counts: the allocator's small
/// blocks, the argument parser, the progress bar, the thread pool's own bookkeeping.
pub const UNPLANNED_BYTES: u64 = 16 << 20;

/// Address space glibc's malloc reserves for each arena it adds for a new thread
/// (`HEAP_MAX_SIZE` on 64-bit systems).
const ARENA_BYTES: u64 = 64 << 20;

/// What a thread maps besides its stack: a guard page below it, and the alternate signal
/// stack with its own guard page that Rust's runtime gives every thread of a program.
const STACK_EXTRA: u64 = 64 << 10;

/// Address space a worker thread maps ([`WORKER_STACK`], set on every one nimtab starts).
const WORKER_BYTES: u64 = WORKER_STACK as u64 + STACK_EXTRA;

/// Address space a helper thread maps ([`HELPER_STACK`]).
const HELPER_BYTES: u64 = HELPER_STACK as u64 + STACK_EXTRA;

/// Address space a process needs at its start besides the stacks of the threads it starts
/// then: what those threads and the main thread allocate meanwhile. Measured: the binary
/// under `ulimit -v` starts every thread below this reserve's margin (see
/// [`MemoryReading::room_for_threads`]).
pub const START_RESERVE: u64 = 1 << 20;

/// The glibc tunables that make a process's address space predictable: one malloc arena
/// for every thread (no 64 MiB reservation per thread), and a fixed threshold above which
/// blocks are mapped on their own (so a freed table returns its address space instead of
/// leaving a hole in the heap that the next table may not fit).
pub const ALLOCATOR_TUNABLES: &str = "glibc.malloc.arena_max=1:glibc.malloc.mmap_threshold=131072";

/// A resource limit and the process's use of that resource, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Use {
    limit: u64,
    used: u64,
}

impl Use {
    fn room(self) -> u64 {
        self.limit.saturating_sub(self.used)
    }
}

/// The memory figures of this process and machine at one moment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryReading {
    /// `MemAvailable`.
    available: Option<u64>,
    /// The address-space limit and `VmSize`.
    address_space: Option<Use>,
    /// The data-segment limit and `VmData`.
    data: Option<Use>,
    /// The least room under the memory cgroup's limits.
    cgroup: Option<u64>,
    /// Whether glibc's malloc runs with one arena ([`ALLOCATOR_TUNABLES`] in effect).
    one_arena: bool,
}

impl MemoryReading {
    /// Reads `/proc` and the cgroup files now.
    pub fn now() -> MemoryReading {
        let read = |path: &str| std::fs::read_to_string(path).unwrap_or_default();
        let (status, limits) = (read("/proc/self/status"), read("/proc/self/limits"));
        let meminfo = read("/proc/meminfo");
        let tunables = std::env::var("GLIBC_TUNABLES").ok();
        let arena_max = std::env::var("MALLOC_ARENA_MAX").ok();
        MemoryReading {
            available: kib_field(&meminfo, "MemAvailable:").map(|k| k * 1024),
            address_space: process_use(&limits, "Max address space", &status, "VmSize:"),
            data: process_use(&limits, "Max data size", &status, "VmData:"),
            cgroup: cgroup_room(Path::new("/")),
            one_arena: one_arena(tunables.as_deref(), arena_max.as_deref()),
        }
    }

    /// Whether an address-space or data limit applies to the process.
    pub fn process_limited(&self) -> bool {
        self.address_space.is_some() || self.data.is_some()
    }

    /// Whether glibc's malloc was started with one arena (see [`ALLOCATOR_TUNABLES`]).
    pub fn one_arena(&self) -> bool {
        self.one_arena
    }

    /// The budget of a process that starts `threads` more threads after the reading: the
    /// smallest of the system's available memory and the cgroup's room (less 10%, as
    /// other processes share them), and the address-space and data limits less what is
    /// in use, the threads' stacks (and under the address-space limit their allocator
    /// arenas, unless limited to one) and [`UNPLANNED_BYTES`].
    pub fn budget(&self, threads: u64) -> MemoryBudget {
        let stacks = threads.saturating_mul(WORKER_BYTES);
        // A new arena is mapped at twice its size and trimmed, so one more is kept back.
        let arenas = if self.one_arena || threads == 0 { 0 } else { threads + 1 };
        let mapped = stacks.saturating_add(arenas * ARENA_BYTES).saturating_add(UNPLANNED_BYTES);
        let kept = stacks.saturating_add(UNPLANNED_BYTES);
        let bounds = [
            (MemorySource::Available, self.available.map(|b| b / 10 * 9)),
            (
                MemorySource::AddressSpace,
                self.address_space.map(|u| u.room().saturating_sub(mapped)),
            ),
            (MemorySource::DataSegment, self.data.map(|u| u.room().saturating_sub(kept))),
            (MemorySource::Cgroup, self.cgroup.map(|b| b / 10 * 9)),
        ];
        let (source, bytes) = bounds
            .into_iter()
            .filter_map(|(source, bytes)| bytes.map(|b| (source, b)))
            .min_by_key(|&(_, bytes)| bytes)
            .unwrap_or((MemorySource::Assumed, 4 << 30));
        MemoryBudget { bytes, source }
    }
}

/// Threads that would not fit under a process limit: the limit, the room it leaves, and
/// what the threads need.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreadRoom {
    /// The limit that is too tight.
    pub source: MemorySource,
    /// Bytes the limit leaves beside what the process maps at its start.
    pub room: u64,
    /// Bytes the threads need: their stacks, and [`START_RESERVE`].
    pub need: u64,
}

impl MemoryReading {
    /// Whether `workers` worker threads and `helpers` helper threads can start under the
    /// address-space and data limits (a thread's stack counts against both): a thread
    /// whose stack fits but whose alternate signal stack does not would abort the
    /// process, so threads are started only with their whole need in room.
    ///
    /// # Errors
    /// The first limit whose room is below the need.
    pub fn room_for_threads(&self, workers: u64, helpers: u64) -> Result<(), ThreadRoom> {
        let stacks = workers.saturating_mul(WORKER_BYTES) + helpers.saturating_mul(HELPER_BYTES);
        let need = stacks.saturating_add(START_RESERVE);
        let limits = [
            (MemorySource::AddressSpace, self.address_space),
            (MemorySource::DataSegment, self.data),
        ];
        for (source, limit) in limits {
            if let Some(room) = limit.map(Use::room).filter(|&room| room < need) {
                return Err(ThreadRoom { source, room, need });
            }
        }
        Ok(())
    }
}

/// Threads a run on a pool of `pool` threads may start besides the calling one: the
/// pool's, and a crew of `pool - 1` beside the caller (`engine/tuples/layer_crew.rs`).
pub fn threads_of_a_run(pool: usize) -> u64 {
    2 * pool as u64
}

/// The memory this process may use now: a fresh [`MemoryReading`] with the threads of a
/// run on rayon's current pool still to start (the library's default; the binary takes
/// its reading before starting any thread).
pub fn memory_budget() -> MemoryBudget {
    MemoryReading::now().budget(threads_of_a_run(rayon::current_num_threads()))
}

/// Bytes of memory the process may use for tables ([`memory_budget`]'s figure).
pub fn memory_limit() -> u64 {
    memory_budget().bytes
}

/// Whether the environment limits glibc's malloc to one arena: the tunable
/// `glibc.malloc.arena_max=1` (the last setting of it wins), else `MALLOC_ARENA_MAX=1`.
fn one_arena(tunables: Option<&str>, arena_max: Option<&str>) -> bool {
    let tuned = tunables.and_then(|t| {
        t.split(':').filter_map(|kv| kv.strip_prefix("glibc.malloc.arena_max=")).next_back()
    });
    tuned.or(arena_max).is_some_and(|n| n.trim() == "1")
}

/// The soft limit of the `/proc/self/limits` row `name` in bytes; `None` if unlimited.
fn soft_limit(limits: &str, name: &str) -> Option<u64> {
    let rest = limits.lines().find_map(|l| l.strip_prefix(name))?;
    rest.split_whitespace().next()?.parse().ok()
}

/// A resource limit and the process's current use of that resource (`used_key`, KiB).
fn process_use(limits: &str, name: &str, status: &str, used_key: &str) -> Option<Use> {
    let limit = soft_limit(limits, name)?;
    let used = kib_field(status, used_key).unwrap_or(0) * 1024;
    Some(Use { limit, used })
}

/// The least room left under a memory limit of this process's cgroup or its ancestors,
/// with cgroup files read under `root` (`/` on a live system; tests pass a fixture).
fn cgroup_room(root: &Path) -> Option<u64> {
    let cgroups = std::fs::read_to_string(root.join("proc/self/cgroup")).ok()?;
    let mount = root.join("sys/fs/cgroup");
    let mut best: Option<u64> = None;
    for line in cgroups.lines() {
        // `ID:CONTROLLERS:PATH`; v2 is `0::PATH`, v1's memory controller `N:memory:PATH`.
        let mut parts = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let found = if controllers.is_empty() {
            level_rooms(&mount, path, "memory.max", "memory.current")
        } else if controllers.split(',').any(|c| c == "memory") {
            let v1 = mount.join("memory");
            level_rooms(&v1, path, "memory.limit_in_bytes", "memory.usage_in_bytes")
        } else {
            None
        };
        best = match (best, found) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
    }
    best
}

/// The least `limit - usage` over the cgroup `path` under `mount` and its ancestors. A
/// container often sees its own cgroup at the mount's root while `/proc/self/cgroup` names
/// the host's path, so the root is read too.
fn level_rooms(mount: &Path, path: &str, limit_file: &str, usage_file: &str) -> Option<u64> {
    let mut least: Option<u64> = None;
    let mut level = Some(Path::new(path.trim()));
    while let Some(dir) = level {
        let at = mount.join(dir.strip_prefix("/").unwrap_or(dir));
        if let Some(limit) = read_number(&at.join(limit_file)) {
            let usage = read_number(&at.join(usage_file)).unwrap_or(0);
            let room = limit.saturating_sub(usage);
            least = Some(least.map_or(room, |l| l.min(room)));
        }
        level = dir.parent();
    }
    least
}

/// A cgroup limit or usage file's number; `max` (v2) and v1's "unlimited" value (near
/// 2^63) are no limit.
fn read_number(path: &Path) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let value: u64 = text.trim().parse().ok()?;
    (value < 1 << 62).then_some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: &str = "Limit                     Soft Limit           Hard Limit           Units\n\
                          Max data size             unlimited            unlimited            bytes\n\
                          Max address space         1048576000           unlimited            bytes\n";

    fn reading(one_arena: bool) -> MemoryReading {
        let status = "VmSize:\t   10240 kB\nVmData:\t     428 kB\n";
        MemoryReading {
            available: Some(64 << 30),
            address_space: process_use(LIMITS, "Max address space", status, "VmSize:"),
            data: process_use(LIMITS, "Max data size", status, "VmData:"),
            cgroup: None,
            one_arena,
        }
    }

    #[test]
    fn resource_limits_are_read_less_what_is_in_use() {
        let status = "VmSize:\t   10240 kB\nVmData:\t     428 kB\n";
        let room_as = process_use(LIMITS, "Max address space", status, "VmSize:");
        assert_eq!(room_as.map(Use::room), Some(1_048_576_000 - 10_240 * 1024));
        assert_eq!(process_use(LIMITS, "Max data size", status, "VmData:"), None);
    }

    #[test]
    fn an_address_space_budget_is_the_limit_less_a_fixed_amount_per_thread() {
        let room = 1_048_576_000 - 10_240 * 1024 - UNPLANNED_BYTES;
        let per_thread = WORKER_BYTES;
        for threads in [0, 1, 4] {
            let budget = reading(true).budget(threads);
            assert_eq!(budget.source, MemorySource::AddressSpace);
            assert_eq!(budget.bytes, room - threads * per_thread, "{threads} threads");
        }
        // Without the arenas limited, each thread may map one, and one more is kept back
        // for the double mapping that creates an arena.
        let unlimited = reading(false).budget(4);
        assert_eq!(unlimited.bytes, room - 4 * per_thread - 5 * ARENA_BYTES);
        // The same reading gives the same budget.
        assert_eq!(reading(true).budget(4), reading(true).budget(4));
    }

    #[test]
    fn one_arena_is_read_from_the_tunables_or_the_older_variable() {
        assert!(one_arena(Some(ALLOCATOR_TUNABLES), None));
        assert!(one_arena(Some("glibc.malloc.arena_max=8:glibc.malloc.arena_max=1"), None));
        assert!(!one_arena(Some("glibc.malloc.arena_max=1:glibc.malloc.arena_max=4"), None));
        assert!(one_arena(None, Some("1")));
        assert!(!one_arena(Some("glibc.malloc.arena_max=2"), Some("1")));
        assert!(!one_arena(None, None));
    }

    #[test]
    fn cgroup_limits_are_found_for_v2_and_v1_at_any_level() {
        let root = std::env::temp_dir().join(format!("nimtab-cgroup-{}", std::process::id()));
        let write = |path: &str, text: &str| {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        // v2: the job's own cgroup has no limit, its parent does.
        write("proc/self/cgroup", "0::/batch/job\n");
        write("sys/fs/cgroup/batch/memory.max", "1000000\n");
        write("sys/fs/cgroup/batch/memory.current", "250000\n");
        write("sys/fs/cgroup/batch/job/memory.max", "max\n");
        assert_eq!(cgroup_room(&root), Some(750_000));
        // v1: the host's path is not mounted in the container; its root is the limit.
        write("proc/self/cgroup", "4:memory:/host/path\n0::/\n");
        write("sys/fs/cgroup/memory/memory.limit_in_bytes", "2000000\n");
        write("sys/fs/cgroup/memory/memory.usage_in_bytes", "500000\n");
        assert_eq!(cgroup_room(&root), Some(1_500_000));
        write("sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
        assert_eq!(cgroup_room(&root), None);
        std::fs::remove_dir_all(&root).unwrap();
    }
}
