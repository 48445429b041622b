//! The `nimtab` binary: argument parsing and output; the work lives in the library.

mod cli;

fn main() {
    refuse_a_processor_below_the_build_target();
    cli::main()
}

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
