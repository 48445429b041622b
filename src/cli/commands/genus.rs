//! `nimtab genus`: the genus of every heap of a take-and-break game, or of one sum of
//! heaps, exact, from the heaps' misère canonical forms.

use anyhow::Context;
use nimtab::export::genus::{GenusStyle, GenusTable, PositionGenus};
use nimtab::genus::{GenusError, HeapForms, MAX_POSITION_HEAPS};
use nimtab::sequence::human_bytes;
use nimtab::Game;
use std::path::PathBuf;

use crate::cli::choices::GenusFormat;
use crate::cli::output::{self, Target};
use crate::cli::progress::Bar;
use crate::cli::{Global, Outcome};

/// Arguments of `nimtab genus`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Game: subtract:S, octal:CODE (e.g. octal:0.77, Kayles), hex:CODE or grundys-game.
    #[arg(long = "game", value_name = "G")]
    game: String,
    /// Largest heap size N: the genus of every heap 0..=N (needed without --position).
    #[arg(
        long,
        value_name = "N",
        required_unless_present = "position",
        conflicts_with = "position"
    )]
    max_heap: Option<u32>,
    /// The genus of this sum of heaps instead, e.g. 3,5,7.
    #[arg(long, value_name = "H1,H2,...", value_parser = parse_position)]
    position: Option<Heaps>,
    /// text (a table with the apparent period), csv (heap,genus,grundy,misere_grundy,tame)
    /// or json (every γ value as well).
    #[arg(long, value_name = "F", value_enum, default_value_t = GenusFormat::Text)]
    format: GenusFormat,
    /// Output file (default: stdout).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// The heaps of `--position`, one value for clap (a `Vec` would be read as many).
#[derive(Clone, Debug)]
struct Heaps(Vec<u32>);

/// `--position`: heap sizes separated by commas, at most [`MAX_POSITION_HEAPS`] of them.
fn parse_position(text: &str) -> Result<Heaps, String> {
    let heaps = text
        .split(',')
        .map(|h| h.trim().parse::<u32>().map_err(|_| format!("'{h}' is not a heap size")))
        .collect::<Result<Vec<u32>, String>>()?;
    if heaps.len() > MAX_POSITION_HEAPS {
        return Err(format!(
            "a position may have at most {MAX_POSITION_HEAPS} heaps, got {}",
            heaps.len()
        ));
    }
    Ok(Heaps(heaps))
}

fn style(format: GenusFormat) -> GenusStyle {
    match format {
        GenusFormat::Text => GenusStyle::Text,
        GenusFormat::Csv => GenusStyle::Csv,
        GenusFormat::Json => GenusStyle::Json,
    }
}

/// A library error in the flags' words: `heaps_flag` is the flag that gave the heaps.
fn explain(err: GenusError, heaps_flag: &str, global: &Global) -> anyhow::Error {
    match err {
        GenusError::MaxHeap { .. } => anyhow::Error::new(err).context(heaps_flag.to_string()),
        GenusError::PositionHeaps { .. } => anyhow::Error::new(err).context("--position"),
        GenusError::BeyondMemory { .. } => {
            anyhow::anyhow!("{err} (the budget is bound by {})", global.memory_source)
        }
        _ => err.into(),
    }
}

/// Runs `nimtab genus`.
pub fn run(a: Args, global: &Global) -> anyhow::Result<Outcome> {
    let target = Target::new(a.out.as_deref())?;
    let game = Game::parse(&a.game)?;
    let heaps_flag = if a.position.is_some() { "--position" } else { "--max-heap" };
    let mut forms =
        HeapForms::new(&game, global.memory_limit).map_err(|e| explain(e, heaps_flag, global))?;
    let position = a.position.map(|Heaps(heaps)| heaps);
    let largest = match (&position, a.max_heap) {
        (Some(heaps), _) => heaps.iter().copied().max().unwrap_or(0),
        (None, max_heap) => max_heap.context("--max-heap N is needed without --position")?,
    };
    let bar = Bar::counting("genus", u64::from(largest), "heaps", global.quiet);
    let computed = match &position {
        Some(heaps) => forms.position_genus(heaps, &bar).map(Some),
        None => forms.extend_to(largest, &bar).map(|()| None),
    };
    bar.finish();
    let genus = computed.map_err(|e| explain(e, heaps_flag, global))?;
    if !global.quiet {
        output::note(&format!(
            "nimtab: {} canonical forms, {} held",
            forms.form_count(),
            human_bytes(forms.held_bytes())
        ));
    }
    let style = style(a.format);
    match (&position, genus) {
        (Some(heaps), Some(genus)) => {
            let written = PositionGenus { game: game.spec(), heaps, genus: &genus, style };
            output::write_to(&target, written)?;
        }
        _ => {
            let heaps: Vec<_> = (0..=largest).map(|n| forms.heap_genus(n).clone()).collect();
            output::write_to(&target, GenusTable { game: game.spec(), heaps: &heaps, style })?;
        }
    }
    Ok(Outcome::Success)
}
