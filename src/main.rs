//! The `nimtab` binary: argument parsing and output; the work lives in the library.

mod cli;

fn main() {
    refuse_a_processor_below_the_build_target();
    cli::main()
}

/// On x86-64 the build targets x86-64-v2 (`.cargo/config.toml`: POPCNT and SSE4.2). A
/// processor without them would stop on an illegal instruction somewhere in the work;
/// this says why, before any of it runs.
fn refuse_a_processor_below_the_build_target() {
    #[cfg(target_arch = "x86_64")]
    if !(std::is_x86_feature_detected!("popcnt") && std::is_x86_feature_detected!("sse4.2")) {
        eprintln!(
            "nimtab: error: this processor lacks POPCNT or SSE4.2, which this build assumes; \
             rebuild with RUSTFLAGS=\"-C target-cpu=x86-64\" cargo build --release"
        );
        std::process::exit(2);
    }
}
