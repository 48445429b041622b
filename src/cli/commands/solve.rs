//! `nimtab solve`: label every position of a space and write the CSV table.

use std::path::PathBuf;

use anyhow::bail;
use nimtab::export::labels_csv::{write_label_table, RowFilter};
use nimtab::{Ending, Engine, Game, MultisetSpace, Space};

use crate::cli::args::TableArgs;
use crate::cli::commands::total;
use crate::cli::output::{self, Target};
use crate::cli::progress::Bar;
use crate::cli::{Global, Outcome};

/// Arguments of `nimtab solve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    table: TableArgs,
    /// Keep only the rows labelled P or N (needs exactly one rule).
    #[arg(long, value_name = "p|n", value_parser = ["p", "n"])]
    only: Option<String>,
    /// Output file (default: stdout).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// The validated `solve` settings: a tuple space, or a multiset space (`--total`).
enum Config {
    Tuples(Tuples),
    Multisets {
        game: Game,
        space: MultisetSpace,
        endings: Vec<Ending>,
        filter: RowFilter,
        target: Target,
    },
}

/// The settings of a tuple space.
struct Tuples {
    game: Game,
    space: Space,
    endings: Vec<Ending>,
    filter: RowFilter,
    target: Target,
}

impl Config {
    fn new(a: Args) -> anyhow::Result<Config> {
        let endings = a.table.rules.endings()?;
        let filter = match a.only.as_deref() {
            None => RowFilter::All,
            Some(p) if endings.len() != 1 => {
                bail!("--only {p} needs exactly one rule, got --rules '{}'", a.table.rules.list)
            }
            Some("p") => RowFilter::OnlyP,
            Some(_) => RowFilter::OnlyN,
        };
        let target = Target::new(a.out.as_deref())?;
        let game = a.table.space.game()?;
        if let Some(space) = a.table.space.multisets()? {
            return Ok(Config::Multisets { game, space, endings, filter, target });
        }
        let heaps = a.table.space.single_heaps("solve")?;
        let space = Space::in_mode(heaps, a.table.space.max(), a.table.mode())?;
        Ok(Config::Tuples(Tuples { game, space, endings, filter, target }))
    }
}

/// Runs `nimtab solve`.
pub fn run(a: Args, global: &Global) -> anyhow::Result<Outcome> {
    let config = match Config::new(a)? {
        Config::Tuples(tuples) => tuples,
        Config::Multisets { game, space, endings, filter, target } => {
            return total::solve(&game, space, &endings, filter, &target, global);
        }
    };
    let engine =
        Engine::builder(&config.game, config.space).memory_limit(global.memory_limit).build();
    engine.ensure_fits(config.endings.len(), true)?;
    let bar = Bar::new("solve", engine.positions(), global.quiet);
    let tables = engine.label_all(&config.endings, &bar)?;
    bar.finish();
    output::write_to(&config.target, |out| {
        write_label_table(out, &config.game, &tables, config.filter).map(|_| ())
    })?;
    Ok(Outcome::Success)
}
