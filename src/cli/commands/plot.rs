//! `nimtab plot`: draw the P-positions of the 2-heap grid or a 3-heap slice as SVG or PNG.

use std::path::PathBuf;

use anyhow::{bail, Context};
use nimtab::export::format::Bytes;
use nimtab::export::plot::{render_in, Format, Grid};
use nimtab::model::position::PassState;
use nimtab::{Ending, Game};

use crate::cli::args::{one_ending, GameMaxArgs};
use crate::cli::output;
use crate::cli::{Global, Outcome};

/// Arguments of `nimtab plot`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    game: GameMaxArgs,
    /// One rule: normal, misere or sj (also taken as --rule R).
    #[arg(long = "rules", alias = "rule", value_name = "R")]
    rule: String,
    /// 2 (the whole grid) or 3 (one slice, with --slice).
    #[arg(long, value_name = "2|3", default_value_t = 2)]
    heaps: usize,
    /// The slice to draw, a comma list: h3=K (the 3-heap grid), pass=0|1 (with --pass:
    /// the pass used or still available; default 1).
    #[arg(long, value_name = "h3=K,pass=P")]
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
    pass: PassState,
    format: Format,
    scale: u32,
    out: PathBuf,
}

/// The parts of `--slice`: `h3=K` and `pass=0|1`, each at most once.
#[derive(Default)]
struct Slice {
    h3: Option<u32>,
    pass: Option<PassState>,
}

fn parse_slice(text: &str) -> anyhow::Result<Slice> {
    let mut slice = Slice::default();
    for item in text.split(',') {
        let bad = || format!("--slice must be h3=K, pass=0|1 or both (h3=K,pass=P), got '{text}'");
        let (name, value) = item.trim().split_once('=').with_context(bad)?;
        match name.trim() {
            "h3" if slice.h3.is_none() => {
                let k = value.trim().parse::<u32>();
                slice.h3 =
                    Some(k.with_context(|| {
                        format!("--slice {text}: '{value}' is not a heap size")
                    })?);
            }
            "pass" if slice.pass.is_none() => match value.trim() {
                "0" => slice.pass = Some(PassState::Used),
                "1" => slice.pass = Some(PassState::Available),
                _ => bail!("--slice {text}: pass must be 0 (used) or 1 (available), got '{value}'"),
            },
            _ => bail!(bad()),
        }
    }
    Ok(slice)
}

/// The grid and pass state of `--heaps` and `--slice`, for a game with a pass or without.
fn grid_of(heaps: usize, slice: Slice, has_pass: bool) -> anyhow::Result<(Grid, PassState)> {
    let grid = match (heaps, slice.h3) {
        (2, None) => Grid::TwoHeaps,
        (2, Some(_)) => bail!("--slice h3=K is for --heaps 3; the 2-heap grid is drawn whole"),
        (3, Some(k)) => Grid::ThreeHeapSlice(k),
        (3, None) => bail!("--heaps 3 needs --slice h3=K (the 3-heap grid is drawn by slices)"),
        (n, _) => bail!("--heaps must be 2 or 3 for a picture, got {n}"),
    };
    match (slice.pass, has_pass) {
        (Some(_), false) => {
            bail!("--slice pass=0|1 needs --pass (a game without a pass has one state)")
        }
        (state, true) => Ok((grid, state.unwrap_or(PassState::Available))),
        (None, false) => Ok((grid, PassState::Used)),
    }
}

impl Config {
    fn new(a: Args) -> anyhow::Result<Config> {
        let slice = a.slice.as_deref().map(parse_slice).transpose()?.unwrap_or_default();
        let (grid, pass) = grid_of(a.heaps, slice, a.game.game.pass)?;
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
        let game = a.game.game()?;
        let ending = one_ending(&a.rule, &game)?;
        game.check_heaps(a.heaps)?;
        let max = a.game.max;
        Ok(Config { game, ending, max, grid, pass, format, scale, out: a.out })
    }
}

/// Runs `nimtab plot`.
pub fn run(a: Args, _global: &Global) -> anyhow::Result<Outcome> {
    let config = Config::new(a)?;
    let (game, grid) = (&config.game, (config.grid, config.pass));
    let bytes = render_in(game, config.ending, config.max, grid, config.format, config.scale)?;
    output::write_file(&config.out, Bytes(&bytes))?;
    Ok(Outcome::Success)
}
