//! The machine the process runs on: the memory it may use, and a one-line description.

/// The `value` of the first `key value kB` line of a `/proc` file, in KiB.
fn proc_kib(path: &str, key: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let line = text.lines().find(|l| l.starts_with(key))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Bytes of memory the process may use for tables: what the system reports available,
/// less a 10% margin (4 GiB assumed where `/proc/meminfo` cannot be read).
pub fn memory_limit() -> u64 {
    let available = proc_kib("/proc/meminfo", "MemAvailable:").map(|kib| kib * 1024);
    available.unwrap_or(4 << 30) / 10 * 9
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
    let memory = proc_kib("/proc/meminfo", "MemTotal:")
        .map_or("unknown memory".to_string(), |k| format!("{:.0} GiB", k as f64 / 1048576.0));
    format!("{model}, {cores} cores, {memory}")
}

/// Peak resident set size of this process (VmHWM), in bytes, where Linux reports it.
pub fn peak_memory() -> Option<u64> {
    proc_kib("/proc/self/status", "VmHWM:").map(|kib| kib * 1024)
}
