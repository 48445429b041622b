//! The machine the process runs on: the memory it may use and what bounds it, and a
//! one-line description.
//!
//! Everything is read from `/proc` and `/sys/fs/cgroup` (Linux); where a file is missing
//! its bound does not apply, and with none readable 4 GiB is assumed. The resource limits
//! come from `/proc/self/limits` rather than getrlimit(2), so the library needs no
//! `unsafe` for them.

use std::fmt;
use std::path::Path;

/// The instructions of x86-64-v2, which this build assumes on x86-64 (`.cargo/config.toml`),
/// as `/proc/cpuinfo` names them.
#[cfg(target_arch = "x86_64")]
const BUILD_ASSUMES: [&str; 7] = ["pni", "ssse3", "sse4_1", "sse4_2", "popcnt", "cx16", "lahf_lm"];

/// The instructions the build assumes that this processor lacks, by their `/proc/cpuinfo`
/// names; empty when it has them all, off x86-64, or when `/proc/cpuinfo` (Linux) cannot
/// be read. (`is_x86_feature_detected!` cannot tell: in a build that assumes a feature it
/// answers yes without asking the processor.)
pub fn missing_instructions() -> Vec<&'static str> {
    #[cfg(target_arch = "x86_64")]
    if let Ok(cpuinfo) = std::fs::read_to_string("/proc/cpuinfo") {
        return missing_flags(&cpuinfo);
    }
    Vec::new()
}

/// The instructions of [`BUILD_ASSUMES`] missing from the first `flags` line of `cpuinfo`.
#[cfg(target_arch = "x86_64")]
fn missing_flags(cpuinfo: &str) -> Vec<&'static str> {
    let Some(flags) = cpuinfo.lines().find(|line| line.starts_with("flags")) else {
        return Vec::new();
    };
    let have: Vec<&str> = flags.split(':').nth(1).unwrap_or("").split_whitespace().collect();
    BUILD_ASSUMES.into_iter().filter(|flag| !have.contains(flag)).collect()
}

/// What bounds the memory available to this process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemorySource {
    /// The system's available memory (`MemAvailable` in `/proc/meminfo`).
    Available,
    /// The address-space limit (RLIMIT_AS, `ulimit -v`), less what is already mapped and
    /// a reserve for the worker threads' stacks.
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

/// The memory tables may use, and which bound gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryBudget {
    /// Bytes tables may use: the smallest bound, less a 10% margin for everything else.
    pub bytes: u64,
    /// The bound that gave `bytes`.
    pub source: MemorySource,
}

/// The memory this process may use for tables: the smallest of the system's available
/// memory, the address-space and data-segment limits (less what is in use) and the memory
/// cgroup's limit (less its usage), with a 10% margin.
pub fn memory_budget() -> MemoryBudget {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let limits = std::fs::read_to_string("/proc/self/limits").unwrap_or_default();
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let bounds = [
        (MemorySource::Available, kib_field(&meminfo, "MemAvailable:").map(|k| k * 1024)),
        (MemorySource::AddressSpace, address_space_room(&limits, &status)),
        (MemorySource::DataSegment, room(&limits, "Max data size", &status, "VmData:")),
        (MemorySource::Cgroup, cgroup_room(Path::new("/"))),
    ];
    let (source, bytes) = bounds
        .into_iter()
        .filter_map(|(source, bytes)| bytes.map(|b| (source, b)))
        .min_by_key(|&(_, bytes)| bytes)
        .unwrap_or((MemorySource::Assumed, 4 << 30));
    MemoryBudget { bytes: bytes / 10 * 9, source }
}

/// Bytes of memory the process may use for tables ([`memory_budget`]'s figure).
pub fn memory_limit() -> u64 {
    memory_budget().bytes
}

/// The `value` of the first `key value kB` line of a `/proc` file's text, in KiB.
fn kib_field(text: &str, key: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(key))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The soft limit of the `/proc/self/limits` row `name` in bytes; `None` if unlimited.
fn soft_limit(limits: &str, name: &str) -> Option<u64> {
    let rest = limits.lines().find_map(|l| l.strip_prefix(name))?;
    rest.split_whitespace().next()?.parse().ok()
}

/// Address space kept back for each worker thread not started yet: its stack (2 MiB) and
/// some room for small allocations. (An allocator arena a thread reserves later may still
/// take more; then a table's allocation fails, which is a clean error, not an abort.)
const THREAD_RESERVE: u64 = 8 << 20;

/// The address-space limit less what is mapped and what the worker threads will map.
fn address_space_room(limits: &str, status: &str) -> Option<u64> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    let room = room(limits, "Max address space", status, "VmSize:")?;
    Some(room.saturating_sub(threads * THREAD_RESERVE))
}

/// A resource limit less the process's current use of that resource (`used_key`, KiB).
fn room(limits: &str, name: &str, status: &str, used_key: &str) -> Option<u64> {
    let limit = soft_limit(limits, name)?;
    let used = kib_field(status, used_key).unwrap_or(0) * 1024;
    Some(limit.saturating_sub(used))
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

/// CPU model, core count and memory, from `/proc` where available.
pub fn machine_description() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split(':').nth(1))
        .map_or("unknown CPU".to_string(), |m| m.trim().to_string());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let memory = kib_field(&meminfo, "MemTotal:")
        .map_or("unknown memory".to_string(), |k| format!("{:.0} GiB", k as f64 / 1048576.0));
    format!("{model}, {cores} cores, {memory}")
}

/// Peak resident set size of this process (VmHWM), in bytes, where Linux reports it.
pub fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    kib_field(&status, "VmHWM:").map(|kib| kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn missing_instructions_are_read_from_the_flags_line() {
        let old = "processor\t: 0\nflags\t\t: fpu sse sse2 pni ssse3 cx16 lahf_lm\n";
        assert_eq!(missing_flags(old), ["sse4_1", "sse4_2", "popcnt"]);
        let v2 = "flags\t: pni ssse3 sse4_1 sse4_2 popcnt cx16 lahf_lm avx2\nflags\t: fpu\n";
        assert!(missing_flags(v2).is_empty());
        assert!(missing_flags("no flags here").is_empty());
        // This machine runs the tests, so it has what the build assumes.
        assert!(missing_instructions().is_empty());
    }

    #[test]
    fn resource_limits_are_read_less_what_is_in_use() {
        let limits = "Limit                     Soft Limit           Hard Limit           Units\n\
                      Max data size             unlimited            unlimited            bytes\n\
                      Max address space         1048576000           unlimited            bytes\n";
        let status = "VmSize:\t   10240 kB\nVmData:\t     428 kB\n";
        let room_as = room(limits, "Max address space", status, "VmSize:");
        assert_eq!(room_as, Some(1_048_576_000 - 10_240 * 1024));
        assert_eq!(room(limits, "Max data size", status, "VmData:"), None);
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
