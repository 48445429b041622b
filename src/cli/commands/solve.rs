//! `nimtab solve`: label every position of a space and write the CSV table.

use std::path::PathBuf;

use anyhow::bail;
use nimtab::engine::Work;
use nimtab::export::format::streamed;
use nimtab::export::labels_csv::{table_bytes, write_table, RowFilter};
use nimtab::{Ending, Engine, Game, Space};

use crate::cli::args::TableArgs;
use crate::cli::choices::OnlyLabel;
use crate::cli::output::{self, Target};
use crate::cli::progress::Bar;
use crate::cli::{Global, Outcome};

/// Arguments of `nimtab solve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    table: TableArgs,
    /// Keep only the rows labelled P or N (needs exactly one rule).
    #[arg(long, value_name = "p|n", value_enum)]
    only: Option<OnlyLabel>,
    /// Add a column with the normal-play Grundy value of the whole position (by the mex
    /// rule over its options).
    #[arg(long)]
    grundy: bool,
    /// Output file (default: stdout).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// The validated `solve` settings: a tuple space, or a multiset space (`--total`).
struct Config {
    game: Game,
    space: Space,
    endings: Vec<Ending>,
    grundy: bool,
    filter: RowFilter,
    target: Target,
}

impl Config {
    fn new(a: Args) -> anyhow::Result<Config> {
        let game = a.table.space.game()?;
        let endings = a.table.rules.endings(&game)?;
        let filter = match a.only {
            None => RowFilter::All,
            Some(only) if endings.len() != 1 => {
                let names: Vec<&str> = endings.iter().map(|e| e.name()).collect();
                let p = only.word();
                bail!("--only {p} needs exactly one rule, got --rules '{}'", names.join(","))
            }
            Some(OnlyLabel::P) => RowFilter::OnlyP,
            Some(OnlyLabel::N) => RowFilter::OnlyN,
        };
        let target = Target::new(a.out.as_deref())?;
        let space = match a.table.space.multisets(&game)? {
            Some(space) => {
                a.table.space.refuse_grundy_with_total(a.grundy)?;
                space
            }
            None => {
                let heaps = a.table.space.single_heaps("solve")?;
                Space::in_mode(heaps, a.table.space.max(), a.table.mode())?
            }
        };
        Ok(Config { game, space, endings, grundy: a.grundy, filter, target })
    }
}

/// Runs `nimtab solve`.
pub fn run(a: Args, global: &Global) -> anyhow::Result<Outcome> {
    let config = Config::new(a)?;
    let engine = Engine::builder(&config.game, config.space.clone())
        .memory_limit(global.memory_limit)
        .build();
    engine.ensure_supported(&config.endings)?;
    // The tables, the Grundy values and the writer's buffers are held at once: one check
    // refuses the run before any of it starts.
    let endings = config.endings.len();
    let values = config.grundy.then(|| engine.grundy_bound()).flatten();
    let csv = table_bytes(&config.game, &config.space, endings, values);
    let mut work = vec![Work::Tables { endings }, Work::Bytes(csv)];
    if config.grundy {
        work.push(Work::Grundy);
    }
    let run = engine.reserve(&work)?;
    let bar = Bar::new("solve", engine.positions(), global.quiet);
    let tables = run.label_all(&config.endings, &bar)?;
    bar.finish();
    let values = if config.grundy {
        let bar = Bar::new("grundy", engine.positions(), global.quiet);
        let values = run.grundy_values(&bar)?;
        bar.finish();
        Some(values)
    } else {
        None
    };
    output::write_to(
        &config.target,
        streamed(|out| {
            write_table(out, &config.game, &tables, values.as_ref(), config.filter).map(|_| ())
        }),
    )?;
    Ok(Outcome::Success)
}
