//! The `nimtab` binary: argument parsing and output; the work lives in the library.

mod cli;

use nimtab::host::MemoryReading;

fn main() {
    // Read before any thread starts, so that the budget does not depend on how far they got.
    let reading = MemoryReading::now();
    tune_the_allocator_under_a_limit(&reading);
    refuse_a_processor_below_the_build_target();
    cli::main(reading)
}

/// Under an address-space or data limit (`ulimit -v`, `ulimit -d`), glibc's malloc gives
/// each new thread an arena of 64 MiB of address space, and lets a freed table leave a
/// hole in its heap that the next one may not fit, both at moments no memory plan can
/// foresee. The binary then runs itself again (the same process, by exec) with the
/// allocator tuned (`host::ALLOCATOR_TUNABLES`: one arena, large blocks mapped on their
/// own), so that its budget holds. If exec fails, the run goes on, and its budget keeps
/// an arena per thread back instead.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn tune_the_allocator_under_a_limit(reading: &MemoryReading) {
    use std::os::unix::process::CommandExt;
    if !reading.process_limited() || reading.one_arena() {
        return;
    }
    let Ok(exe) = std::env::current_exe() else {
        return;
    };
    let mut args = std::env::args_os();
    let arg0 = args.next().unwrap_or_else(|| exe.clone().into_os_string());
    let tuned = nimtab::host::ALLOCATOR_TUNABLES;
    // Ours come last, so they win over the same tunables set before.
    let tunables = match std::env::var("GLIBC_TUNABLES") {
        Ok(set) if !set.is_empty() => format!("{set}:{tuned}"),
        _ => tuned.to_string(),
    };
    let _failed = std::process::Command::new(exe)
        .arg0(arg0)
        .args(args)
        .env("GLIBC_TUNABLES", tunables)
        .env_remove("MALLOC_ARENA_MAX")
        .exec();
}

/// Other systems' allocators are left as they are.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn tune_the_allocator_under_a_limit(_reading: &MemoryReading) {}

/// On x86-64 the build targets x86-64-v2 (`.cargo/config.toml`: POPCNT, SSE4.2, ...). A
/// processor without them would stop on an illegal instruction somewhere in the work;
/// this says why, before any of it runs.
fn refuse_a_processor_below_the_build_target() {
    let missing = nimtab::host::missing_instructions();
    if !missing.is_empty() {
        eprintln!(
            "nimtab: error: this processor lacks {}, which this build assumes; rebuild with \
             RUSTFLAGS=\"-C target-cpu=x86-64\" cargo build --release",
            missing.join(", ")
        );
        std::process::exit(2);
    }
}
