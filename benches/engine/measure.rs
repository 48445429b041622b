//! What a measurement reads of its own process: CPU seconds and peak memory.

/// Peak resident set size of this process (VmHWM), in MiB.
pub fn peak_rss_mib() -> f64 {
    nimtab::host::peak_memory().map_or(f64::NAN, |bytes| bytes as f64 / (1 << 20) as f64)
}

/// User plus system CPU time of the whole process (all threads), in seconds.
///
/// Read from /proc/self/stat (fields 14 and 15, in clock ticks) to avoid a libc
/// dependency; Linux reports them in USER_HZ, which is 100 on every architecture's ABI.
pub fn cpu_seconds() -> f64 {
    const USER_HZ: f64 = 100.0;
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else { return f64::NAN };
    // The command name (field 2) may contain spaces; fields after it follow its ')'.
    let Some(after) = stat.rfind(')').map(|i| &stat[i + 1..]) else { return f64::NAN };
    let fields: Vec<&str> = after.split_whitespace().collect();
    // After ')', field 3 (state) is at 0, so field k is at k - 3.
    let ticks = |k: usize| fields.get(k - 3).and_then(|v| v.parse::<f64>().ok());
    match (ticks(14), ticks(15)) {
        (Some(user), Some(system)) => (user + system) / USER_HZ,
        _ => f64::NAN,
    }
}
