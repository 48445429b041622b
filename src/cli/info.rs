//! `nimtab info`: the size of a space and the memory its tables need.

use nimtab::Engine;

use super::{args, output, Global, Outcome};

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
    let mut text = format!(
        "game                 {}\nheaps                {}\nmax                  {}\n\
         positions            {}\ncanonical positions  {}\n",
        game.spec(),
        space.heaps(),
        space.max(),
        space.positions(),
        space.canonical_positions()
    );
    for (mode, canonical) in [("full", false), ("canonical", true)] {
        let engine = Engine::new(&game, space, canonical);
        let plan = engine.memory_plan();
        let path = if engine.uses_nim_path() { "nim line accumulators" } else { "table" };
        text.push_str(&format!(
            "{mode:<9} memory     {} per rule table, {} working per rule ({path}); \
             verify of 3 rules needs {}, solve of 3 rules {}\n",
            mib(plan.table_bytes),
            mib(plan.working_bytes),
            mib(plan.fused(3, false)),
            mib(plan.fused(3, true)),
        ));
    }
    text.push_str(&format!("memory available     {}\n", mib(global.memory_limit)));
    output::write_to(&output::Target::Stdout, |w| w.write_all(text.as_bytes()))?;
    Ok(Outcome::Success)
}
