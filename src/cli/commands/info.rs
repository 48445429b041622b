//! `nimtab info`: the size of a space and the memory its tables need.

use nimtab::{Engine, Mode, Space};

use crate::cli::args::SpaceArgs;
use crate::cli::commands::total;
use crate::cli::output;
use crate::cli::{Global, Outcome};

/// Arguments of `nimtab info`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    space: SpaceArgs,
}

fn mib(bytes: u64) -> String {
    format!("{:.2} MiB", bytes as f64 / (1u64 << 20) as f64)
}

/// Runs `nimtab info`.
pub fn run(a: Args, global: &Global) -> anyhow::Result<Outcome> {
    let game = a.space.game()?;
    if let Some(space) = a.space.multisets()? {
        return total::info(&game, space, global);
    }
    if game.splits() {
        return Err(nimtab::Error::SplitsHeaps { spec: game.spec().to_string() }.into());
    }
    let heaps = a.space.single_heaps("info")?;
    let space = Space::new(heaps, a.space.max())?;
    let mut text = format!(
        "game                 {}\nheaps                {}\nmax                  {}\n\
         positions            {}\ncanonical positions  {}\n",
        game.spec(),
        space.heaps(),
        space.max(),
        space.positions(),
        space.canonical_positions()
    );
    for (name, mode) in [("full", Mode::Full), ("canonical", Mode::Canonical)] {
        let engine = Engine::builder(&game, space).mode(mode).build();
        let plan = engine.memory_plan();
        let path = if plan.needs_table { "table" } else { "nim line accumulators" };
        text.push_str(&format!(
            "{name:<9} memory     {} per rule table, {} working per rule ({path}); \
             verify of 3 rules needs {}, solve of 3 rules {}\n",
            mib(plan.table_bytes),
            mib(plan.working_bytes),
            mib(plan.run(3, false)),
            mib(plan.run(3, true)),
        ));
    }
    text.push_str(&format!("memory available     {}\n", mib(global.memory_limit)));
    output::write_to(&output::Target::Stdout, |w| w.write_all(text.as_bytes()))?;
    Ok(Outcome::Success)
}
