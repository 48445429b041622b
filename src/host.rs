//! The machine the process runs on: the memory it may use and what bounds it, the
//! threads it starts, and a one-line description.
//!
//! Everything is read from `/proc` and `/sys/fs/cgroup` (Linux); where a file is missing
//! its bound does not apply, and with none readable 4 GiB is assumed. The resource limits
//! come from `/proc/self/limits` rather than getrlimit(2), so the library needs no
//! `unsafe` for them.

mod memory;
mod size;
mod threads;

pub use memory::{
    memory_budget, memory_limit, threads_of_a_run, MemoryBudget, MemoryReading, MemorySource,
    ThreadRoom, ALLOCATOR_TUNABLES, START_RESERVE, UNPLANNED_BYTES,
};
pub use size::{parse_memory_size, SizeTextError};
pub use threads::{
    default_threads, helper_thread, worker_pool, worker_thread, BadThreadCount, HELPER_STACK,
    MAX_THREADS, WORKER_STACK,
};

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

/// The `value` of the first `key value kB` line of a `/proc` file's text, in KiB.
fn kib_field(text: &str, key: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(key))?;
    line.split_whitespace().nth(1)?.parse().ok()
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
}
