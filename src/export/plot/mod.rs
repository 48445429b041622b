//! Pictures of P-positions: the 2-heap grid or one slice `h3 = K` of the 3-heap grid,
//! one square cell per position (`h1` across, `h2` up, the origin at the bottom left, as
//! the field draws them and as `nimtab.plot` does in Python), as SVG or PNG. A game with a
//! pass is drawn in one pass state (available, or used).
//!
//! Both formats are deterministic byte for byte (`svg.rs`, `png.rs`) and carry a title
//! naming the game, the ending and the slice, labelled axes and a legend.

mod png;
mod svg;

use crate::engine::{Engine, NoProgress, RowView, RowVisitor};
use crate::model::ending::Ending;
use crate::model::game::Game;
use crate::model::position::PassState;
use crate::model::space::Space;

/// The result of drawing: a picture, or why it cannot be drawn.
pub type Result<T, E = PlotError> = std::result::Result<T, E>;

/// Why a picture cannot be drawn with the settings asked for.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// The game or space refused, or the labelling run failed, as the engine says.
    #[error(transparent)]
    Space(#[from] crate::Error),
    /// A largest heap size above [`MAX_PLOT_SIZE`].
    #[error("heap size {max} is too large for a picture (limit {MAX_PLOT_SIZE})")]
    MaxTooLarge {
        /// The largest heap size asked for.
        max: u32,
    },
    /// A 3-heap slice `h3 = K` with `K` above the largest heap size.
    #[error("slice h3={slice} is above the largest heap size {max}")]
    SliceAboveMax {
        /// `K`.
        slice: u32,
        /// The largest heap size.
        max: u32,
    },
    /// A cell of 0 pixels.
    #[error("the cell scale must be at least 1 pixel")]
    ZeroScale,
    /// An image wider than [`MAX_IMAGE_SIDE`].
    #[error(
        "a cell scale of {scale} with max {max} makes an image over {MAX_IMAGE_SIDE} pixels wide"
    )]
    TooWide {
        /// Pixels per cell.
        scale: u32,
        /// The largest heap size.
        max: u32,
    },
    /// The PNG encoder failed.
    #[error("encoding the PNG: {0}")]
    Encoding(String),
}

/// Which positions are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grid {
    /// Every `(h1, h2)` of 2 heaps.
    TwoHeaps,
    /// Every `(h1, h2, K)` of 3 heaps, for the given `K`.
    ThreeHeapSlice(u32),
}

/// The image format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Scalable vector graphics, with title and axis labels.
    Svg,
    /// An 8-bit grayscale PNG.
    Png,
}

impl Format {
    /// The format a file name asks for by its extension (`.svg` or `.png`).
    pub fn from_extension(name: &str) -> Option<Format> {
        let lower = name.to_ascii_lowercase();
        if lower.ends_with(".svg") {
            Some(Format::Svg)
        } else if lower.ends_with(".png") {
            Some(Format::Png)
        } else {
            None
        }
    }
}

/// The largest `max` a plot accepts: beyond it a cell is smaller than a pixel anyway.
pub const MAX_PLOT_SIZE: u32 = 1023;
/// The largest image side in pixels.
pub const MAX_IMAGE_SIDE: u32 = 16384;

/// What a dark and a light cell mean: the legend of both formats, worded as Python's
/// `nimtab.plot` words its key.
pub const LEGEND: [&str; 2] = ["P (player to move loses)", "N (player to move wins)"];

/// `cells[h1][h2]` is whether the position is P (with `h3 = K` for a slice).
pub type Cells = Vec<Vec<bool>>;

/// Collects the P-cells of the grid from finished rows.
struct CellCollector {
    grid: Grid,
    /// Words of one row: `ceil((max + 1) / 64)`.
    words: usize,
    /// With a pass: draw the positions whose pass is available, or those whose pass is used.
    pass: PassState,
}

impl RowVisitor for CellCollector {
    type Acc = Vec<(u32, u32)>;

    fn start(&self) -> Vec<(u32, u32)> {
        Vec::new()
    }

    fn visit(&self, acc: &mut Vec<(u32, u32)>, row: &RowView<'_>) {
        let bits = row.state_bits(0, self.pass);
        let bit = |h: usize| bits[h / 64] >> (h % 64) & 1 == 1;
        match self.grid {
            Grid::TwoHeaps => {
                for (w, &word) in bits.iter().take(self.words).enumerate() {
                    let mut rest = word;
                    while rest != 0 {
                        acc.push((row.prefix[0], (w * 64) as u32 + rest.trailing_zeros()));
                        rest &= rest - 1;
                    }
                }
            }
            Grid::ThreeHeapSlice(k) => {
                if bit(k as usize) {
                    acc.push((row.prefix[0], row.prefix[1]));
                }
            }
        }
    }

    fn merge(&self, mut left: Vec<(u32, u32)>, right: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
        left.extend(right);
        left
    }
}

/// Labels the grid's positions and returns which cells are P (with a pass: as a game
/// starts, the pass available).
///
/// # Errors
/// [`PlotError::MaxTooLarge`], [`PlotError::SliceAboveMax`]; as [`PlotError::Space`],
/// the engine's refusals (a heap count or ending the game does not have).
pub fn cells(game: &Game, ending: Ending, max: u32, grid: Grid) -> Result<Cells> {
    cells_in(game, ending, max, grid, PassState::of(game.has_pass()))
}

/// As [`cells`], in one pass state: the pass available, or used (the only state of a game
/// without a pass).
///
/// # Errors
/// As [`cells`]; [`crate::Error::Invalid`] (as [`PlotError::Space`]) for
/// [`PassState::Available`] without a pass.
pub fn cells_in(
    game: &Game,
    ending: Ending,
    max: u32,
    grid: Grid,
    pass: PassState,
) -> Result<Cells> {
    if pass.is_available() && !game.has_pass() {
        return Err(crate::Error::Invalid(format!("{} has no pass", game.spec())).into());
    }
    if max > MAX_PLOT_SIZE {
        return Err(PlotError::MaxTooLarge { max });
    }
    let heaps = match grid {
        Grid::TwoHeaps => 2,
        Grid::ThreeHeapSlice(slice) if slice > max => {
            return Err(PlotError::SliceAboveMax { slice, max });
        }
        Grid::ThreeHeapSlice(_) => 3,
    };
    let engine = Engine::new(game, Space::new(heaps, max).map_err(crate::Error::from)?);
    let words = (max as usize + 1).div_ceil(64);
    let collector = CellCollector { grid, words, pass };
    let points = engine.stream(&[ending], &collector, &NoProgress).map_err(crate::Error::from)?;
    let side = max as usize + 1;
    let mut cells = vec![vec![false; side]; side];
    for (h1, h2) in points {
        cells[h1 as usize][h2 as usize] = true;
    }
    Ok(cells)
}

/// Draws the grid's P-positions (with a pass: as a game starts, the pass available);
/// `scale` is the side of a cell in pixels.
///
/// # Errors
/// The errors of [`cells`], and [`PlotError::ZeroScale`] or [`PlotError::TooWide`].
pub fn render(
    game: &Game,
    ending: Ending,
    max: u32,
    grid: Grid,
    format: Format,
    scale: u32,
) -> Result<Vec<u8>> {
    render_in(game, ending, max, (grid, PassState::of(game.has_pass())), format, scale)
}

/// As [`render`], for a grid in one pass state (`(grid, pass)`).
///
/// # Errors
/// The errors of [`cells_in`], and [`PlotError::ZeroScale`] or [`PlotError::TooWide`].
pub fn render_in(
    game: &Game,
    ending: Ending,
    max: u32,
    (grid, pass): (Grid, PassState),
    format: Format,
    scale: u32,
) -> Result<Vec<u8>> {
    let layout = Layout::new(format, max, scale)?;
    let cells = cells_in(game, ending, max, grid, pass)?;
    let title = title_in(game, ending, grid, pass);
    match format {
        Format::Svg => Ok(svg::svg(&cells, &layout, &title).into_bytes()),
        Format::Png => Ok(png::png(&cells, &layout, &title)?),
    }
}

/// The top-left pixel of cell `(h1, h2)` in an image drawn with these settings: `h1`
/// across from the left, `h2` up from the bottom of the grid.
///
/// # Errors
/// [`PlotError::ZeroScale`] or [`PlotError::TooWide`].
pub fn cell_origin(format: Format, max: u32, scale: u32, h1: u32, h2: u32) -> Result<(u32, u32)> {
    Ok(Layout::new(format, max, scale)?.cell_at(h1, h2))
}

/// The picture's title: game, ending and which positions.
pub fn title(game: &Game, ending: Ending, grid: Grid) -> String {
    let play = match ending {
        Ending::Normal => "normal play",
        Ending::Misere => "misère play",
        Ending::Sj => "SJ rule",
    };
    let which = match grid {
        Grid::TwoHeaps => "(h1, h2)".to_string(),
        Grid::ThreeHeapSlice(k) => format!("(h1, h2, {k})"),
    };
    format!("P-positions {which} of {}, {play}", game.spec())
}

/// The title of a picture in one pass state: for a game with a pass, [`title`] followed
/// by `, pass available` or `, pass used`.
pub fn title_in(game: &Game, ending: Ending, grid: Grid, pass: PassState) -> String {
    let title = title(game, ending, grid);
    match (game.has_pass(), pass) {
        (false, _) => title,
        (true, PassState::Available) => format!("{title}, pass available"),
        (true, PassState::Used) => format!("{title}, pass used"),
    }
}

/// Where things go in the image, in pixels.
struct Layout {
    cell: u32,
    side: u32,
    left: u32,
    top: u32,
    width: u32,
    height: u32,
    /// Heap sizes between two tick labels.
    step: u32,
}

impl Layout {
    fn new(format: Format, max: u32, scale: u32) -> Result<Layout> {
        if scale == 0 {
            return Err(PlotError::ZeroScale);
        }
        let side = max + 1;
        let digits = max.to_string().len() as u32;
        let grid = u64::from(side) * u64::from(scale);
        let (left, top, margin, bottom, label) = match format {
            // Room for the title above; the h2 name and ticks to the left; the h1 ticks,
            // its name and the legend below (`svg.rs` places them).
            Format::Svg => (digits * 8 + 34, 30, 12, 58, digits * 8 + 4),
            Format::Png => png::margins(digits),
        };
        if grid + u64::from(left + margin) > u64::from(MAX_IMAGE_SIDE) {
            return Err(PlotError::TooWide { scale, max });
        }
        let grid = grid as u32;
        let step = [1u32, 2, 5, 10, 20, 50, 100, 200, 500, 1000]
            .into_iter()
            .find(|&step| step * scale >= label.max(14))
            .unwrap_or(1000);
        Ok(Layout {
            cell: scale,
            side,
            left,
            top,
            width: left + grid + margin,
            height: top + grid + bottom,
            step,
        })
    }

    fn ticks(&self) -> impl Iterator<Item = u32> {
        (0..self.side).step_by(self.step as usize)
    }

    /// The grid's side in pixels.
    fn grid(&self) -> u32 {
        self.side * self.cell
    }

    /// The top-left pixel of cell `(h1, h2)`: column `h1`, row `h2` counted up from the
    /// bottom.
    fn cell_at(&self, h1: u32, h2: u32) -> (u32, u32) {
        (self.left + h1 * self.cell, self.top + (self.side - 1 - h2) * self.cell)
    }

    /// The centre of column `h1`'s cells (x) and of row `h2`'s (y), in pixels.
    fn centres(&self, h: u32) -> (u32, u32) {
        let (x, y) = self.cell_at(h, h);
        (x + self.cell / 2, y + self.cell / 2)
    }
}
