//! `nimtab info`: the size of a space and the memory its tables need.

use nimtab::Engine;

use super::{args, Global, Outcome};

/// Arguments of `nimtab info`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Component game: nim, subtract:S or graph:PATH.
    #[arg(long, value_name = "G")]
    game: String,
    /// Number of heaps.
    #[arg(long, value_name = "N", value_parser = args::parse_heaps)]
    heaps: usize,
    /// Largest heap size.
    #[arg(long, value_name = "M", value_parser = args::parse_max, allow_hyphen_values = true)]
    max: u32,
}

fn mib(bytes: u64) -> String {
    format!("{:.2} MiB", bytes as f64 / (1u64 << 20) as f64)
}

/// Runs `nimtab info`.
pub fn run(a: Args, global: &Global) -> anyhow::Result<Outcome> {
    let game = args::game(&a.game)?;
    let space = args::space(a.heaps, a.max)?;
    println!("game                 {}", game.spec());
    println!("heaps                {}", space.heaps());
    println!("max                  {}", space.max());
    println!("positions            {}", space.positions());
    println!("canonical positions  {}", space.canonical_positions());
    for (mode, canonical) in [("full", false), ("canonical", true)] {
        let engine = Engine::new(&game, space, canonical);
        let plan = engine.memory_plan();
        let path = if engine.uses_nim_path() { "nim line accumulators" } else { "table" };
        println!(
            "{mode:<9} memory     {} per rule table, {} working per rule ({path}); \
             verify of 3 rules needs {}, solve of 3 rules {}",
            mib(plan.table_bytes),
            mib(plan.working_bytes),
            mib(plan.fused(3, false)),
            mib(plan.fused(3, true)),
        );
    }
    println!("memory available     {}", mib(global.memory_limit));
    Ok(Outcome::Success)
}
