//! `nimtab plot`: draw the P-positions of the 2-heap grid or a 3-heap slice as SVG or PNG.

use std::path::PathBuf;

use anyhow::{bail, Context};
use nimtab::export::plot::{render, Format, Grid};
use nimtab::{Ending, Game};

use crate::cli::args::GameMaxArgs;
use crate::cli::output;
use crate::cli::{Global, Outcome};

/// Arguments of `nimtab plot`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    game: GameMaxArgs,
    /// Rule: normal, misere or sj.
    #[arg(long, value_name = "R")]
    rule: String,
    /// 2 (the whole grid) or 3 (one slice, with --slice).
    #[arg(long, value_name = "2|3", default_value_t = 2)]
    heaps: usize,
    /// The slice of the 3-heap grid: h3=K.
    #[arg(long, value_name = "h3=K")]
    slice: Option<String>,
    /// Output file; .svg or .png chooses the format.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Side of a cell in pixels (default: 1024 / (M + 1), kept between 1 and 12).
    #[arg(long, value_name = "S")]
    scale: Option<u32>,
}

/// The validated `plot` settings.
struct Config {
    game: Game,
    ending: Ending,
    max: u32,
    grid: Grid,
    format: Format,
    scale: u32,
    out: PathBuf,
}

fn parse_slice(text: &str) -> anyhow::Result<u32> {
    let value = text
        .trim()
        .strip_prefix("h3=")
        .with_context(|| format!("--slice must be h3=K, got '{text}'"))?;
    value.parse::<u32>().with_context(|| format!("--slice {text}: '{value}' is not a heap size"))
}

impl Config {
    fn new(a: Args) -> anyhow::Result<Config> {
        let grid = match (a.heaps, a.slice.as_deref()) {
            (2, None) => Grid::TwoHeaps,
            (2, Some(_)) => bail!("--slice is for --heaps 3; the 2-heap grid is drawn whole"),
            (3, Some(slice)) => Grid::ThreeHeapSlice(parse_slice(slice)?),
            (3, None) => bail!("--heaps 3 needs --slice h3=K (the 3-heap grid is drawn by slices)"),
            (n, _) => bail!("--heaps must be 2 or 3 for a picture, got {n}"),
        };
        let name = a.out.to_string_lossy();
        let Some(format) = Format::from_extension(&name) else {
            bail!("--out {name}: the file name must end in .svg or .png");
        };
        output::check_file_target(&a.out)?;
        let scale = match a.scale {
            Some(0) => bail!("--scale must be at least 1, got 0"),
            Some(s) => s,
            None => (1024 / (a.game.max.saturating_add(1))).clamp(1, 12),
        };
        let ending = Ending::parse(&a.rule)?;
        let game = a.game.game()?;
        Ok(Config { game, ending, max: a.game.max, grid, format, scale, out: a.out })
    }
}

/// Runs `nimtab plot`.
pub fn run(a: Args, _global: &Global) -> anyhow::Result<Outcome> {
    let config = Config::new(a)?;
    let bytes =
        render(&config.game, config.ending, config.max, config.grid, config.format, config.scale)?;
    output::write_file(&config.out, |out| out.write_all(&bytes))?;
    Ok(Outcome::Success)
}
