//! Pictures of P-positions: the 2-heap grid or one slice `h3 = K` of the 3-heap grid,
//! one square cell per position (row `h1` downwards, column `h2` rightwards), as SVG or PNG.
//!
//! Both formats are deterministic byte for byte. The SVG carries a title and labelled
//! axes; the PNG carries the cells and the tick numbers (a built-in 3×5 digit font) but no
//! title, which would need a full font.

use std::fmt::Write as _;

use crate::error::{Error, Result};
use crate::game::Game;
use crate::rules::Rule;
use crate::solve::{Engine, NoProgress, RowView, RowVisitor};
use crate::space::Space;

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

/// `cells[h1][h2]` is whether the position is P (with `h3 = K` for a slice).
pub type Cells = Vec<Vec<bool>>;

/// Collects the P-cells of the grid from finished rows.
struct CellCollector {
    grid: Grid,
    /// Words of one row: `ceil((max + 1) / 64)`.
    words: usize,
}

impl RowVisitor for CellCollector {
    type Acc = Vec<(u32, u32)>;

    fn start(&self) -> Vec<(u32, u32)> {
        Vec::new()
    }

    fn visit(&self, acc: &mut Vec<(u32, u32)>, row: &RowView<'_>) {
        let bit = |h: usize| row.bits[h / 64] >> (h % 64) & 1 == 1;
        match self.grid {
            Grid::TwoHeaps => {
                for (w, &word) in row.bits.iter().take(self.words).enumerate() {
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

/// Labels the grid's positions and returns which cells are P.
pub fn cells(game: &Game, rule: Rule, max: u32, grid: Grid) -> Result<Cells> {
    if max > MAX_PLOT_SIZE {
        return Err(Error::Invalid(format!(
            "--max {max} is too large for a picture (limit {MAX_PLOT_SIZE})"
        )));
    }
    let heaps = match grid {
        Grid::TwoHeaps => 2,
        Grid::ThreeHeapSlice(k) if k > max => {
            return Err(Error::Invalid(format!("slice h3={k} is above --max {max}")));
        }
        Grid::ThreeHeapSlice(_) => 3,
    };
    let engine = Engine::new(game, Space::new(heaps, max)?, false);
    let (_, points) = engine.run(
        rule,
        false,
        &CellCollector { grid, words: (max as usize + 1).div_ceil(64) },
        &NoProgress,
    );
    let side = max as usize + 1;
    let mut cells = vec![vec![false; side]; side];
    for (h1, h2) in points {
        cells[h1 as usize][h2 as usize] = true;
    }
    Ok(cells)
}

/// Draws the grid's P-positions; `scale` is the side of a cell in pixels.
pub fn render(
    game: &Game,
    rule: Rule,
    max: u32,
    grid: Grid,
    format: Format,
    scale: u32,
) -> Result<Vec<u8>> {
    let cells = cells(game, rule, max, grid)?;
    let layout = Layout::new(format, max, scale)?;
    match format {
        Format::Svg => Ok(svg(&cells, &layout, &title(game, rule, grid)).into_bytes()),
        Format::Png => png(&cells, &layout),
    }
}

/// The top-left pixel of cell `(h1, h2)` in an image drawn with these settings.
pub fn cell_origin(format: Format, max: u32, scale: u32, h1: u32, h2: u32) -> Result<(u32, u32)> {
    let layout = Layout::new(format, max, scale)?;
    Ok((layout.left + h2 * scale, layout.top + h1 * scale))
}

/// The picture's title: game, rule and which positions.
pub fn title(game: &Game, rule: Rule, grid: Grid) -> String {
    let rule = match rule {
        Rule::Normal => "normal play",
        Rule::Misere => "misère play",
        Rule::Sj => "SJ rule",
    };
    let which = match grid {
        Grid::TwoHeaps => "(h1, h2)".to_string(),
        Grid::ThreeHeapSlice(k) => format!("(h1, h2, {k})"),
    };
    format!("P-positions {which} of {}, {rule}", game.spec())
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

/// Pixels of one digit column plus its gap in the PNG font (3 columns of 2 pixels, 2 gap).
const PNG_DIGIT: u32 = 8;
const PNG_PIXEL: u32 = 2;

impl Layout {
    fn new(format: Format, max: u32, scale: u32) -> Result<Layout> {
        if scale == 0 {
            return Err(Error::Invalid("--scale must be at least 1".into()));
        }
        let side = max + 1;
        let digits = max.to_string().len() as u32;
        let grid = u64::from(side) * u64::from(scale);
        let (left, top, margin, label) = match format {
            // Room for the title, the h2 axis name and its ticks; the h1 name and ticks.
            Format::Svg => (digits * 8 + 34, 64, 12, digits * 8 + 4),
            Format::Png => (digits * PNG_DIGIT + 6, 5 * PNG_PIXEL + 6, 4, digits * PNG_DIGIT + 4),
        };
        if grid + u64::from(left + margin) > u64::from(MAX_IMAGE_SIDE) {
            return Err(Error::Invalid(format!(
                "--scale {scale} with --max {max} makes an image over {MAX_IMAGE_SIDE} pixels wide"
            )));
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
            height: top + grid + margin,
            step,
        })
    }

    fn ticks(&self) -> impl Iterator<Item = u32> {
        (0..self.side).step_by(self.step as usize)
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

fn svg(cells: &Cells, layout: &Layout, title: &str) -> String {
    let Layout { cell, left, top, width, height, .. } = *layout;
    let grid = layout.side * cell;
    let half = cell as f64 / 2.0;
    let mut out = String::new();
    let title = escape(title);
    // Writing to a String cannot fail; the results are ignored for that reason.
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\" font-size=\"11\">"
    );
    let _ = writeln!(out, "<title>{title}</title>");
    let _ = writeln!(out, "<rect width=\"{width}\" height=\"{height}\" fill=\"white\"/>");
    // About 7.5 px per character at 14 px; a longer title is squeezed to the image width.
    let fit = if title.chars().count() as f64 * 7.5 > f64::from(width.saturating_sub(8)) {
        format!(" textLength=\"{}\" lengthAdjust=\"spacingAndGlyphs\"", width.saturating_sub(8))
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"18\" text-anchor=\"middle\" font-size=\"14\"{fit}>{title}</text>",
        width / 2
    );
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"38\" text-anchor=\"middle\" font-style=\"italic\">h2</text>",
        left + grid / 2
    );
    let _ = writeln!(
        out,
        "<text x=\"12\" y=\"{}\" text-anchor=\"middle\" font-style=\"italic\">h1</text>",
        top + grid / 2
    );
    for h in layout.ticks() {
        let center = f64::from(h * cell) + half;
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{h}</text>",
            f64::from(left) + center,
            top - 6
        );
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\" dominant-baseline=\"middle\">{h}</text>",
            left - 4,
            f64::from(top) + center
        );
    }
    let _ = writeln!(
        out,
        "<rect x=\"{left}\" y=\"{top}\" width=\"{grid}\" height=\"{grid}\" fill=\"#eeeeee\" \
         stroke=\"#888888\" stroke-width=\"0.5\"/>"
    );
    let _ = writeln!(out, "<g fill=\"#222222\">");
    for (h1, row) in cells.iter().enumerate() {
        for (h2, &p) in row.iter().enumerate() {
            if p {
                let _ = writeln!(
                    out,
                    "<rect class=\"p\" x=\"{}\" y=\"{}\" width=\"{cell}\" height=\"{cell}\"/>",
                    left + h2 as u32 * cell,
                    top + h1 as u32 * cell
                );
            }
        }
    }
    let _ = writeln!(out, "</g>");
    let _ = writeln!(out, "</svg>");
    out
}

/// Gray levels of the PNG.
const WHITE: u8 = 255;
const N_CELL: u8 = 238;
const P_CELL: u8 = 34;
const INK: u8 = 0;

/// The digits 0-9 in a 3×5 font: five rows of three bits, the top row first.
const DIGITS: [[u8; 5]; 10] = [
    [0b111, 0b101, 0b101, 0b101, 0b111],
    [0b010, 0b110, 0b010, 0b010, 0b111],
    [0b111, 0b001, 0b111, 0b100, 0b111],
    [0b111, 0b001, 0b111, 0b001, 0b111],
    [0b101, 0b101, 0b111, 0b001, 0b001],
    [0b111, 0b100, 0b111, 0b001, 0b111],
    [0b111, 0b100, 0b111, 0b101, 0b111],
    [0b111, 0b001, 0b001, 0b001, 0b001],
    [0b111, 0b101, 0b111, 0b101, 0b111],
    [0b111, 0b101, 0b111, 0b001, 0b111],
];

/// A grayscale raster.
struct Raster {
    width: u32,
    pixels: Vec<u8>,
}

impl Raster {
    fn fill(&mut self, x: u32, y: u32, w: u32, h: u32, gray: u8) {
        for row in y..y + h {
            let start = (row * self.width + x) as usize;
            self.pixels[start..start + w as usize].fill(gray);
        }
    }

    /// Draws `number` with its top-left corner at `(x, y)`.
    fn number(&mut self, x: u32, y: u32, number: u32) {
        for (i, digit) in number.to_string().bytes().enumerate() {
            let glyph = DIGITS[(digit - b'0') as usize];
            let gx = x + i as u32 * PNG_DIGIT;
            for (r, bits) in glyph.iter().enumerate() {
                for c in 0..3 {
                    if bits >> (2 - c) & 1 == 1 {
                        let px = gx + c * PNG_PIXEL;
                        let py = y + r as u32 * PNG_PIXEL;
                        self.fill(px, py, PNG_PIXEL, PNG_PIXEL, INK);
                    }
                }
            }
        }
    }
}

fn png(cells: &Cells, layout: &Layout) -> Result<Vec<u8>> {
    let Layout { cell, left, top, width, height, .. } = *layout;
    let grid = layout.side * cell;
    let mut raster = Raster { width, pixels: vec![WHITE; (width * height) as usize] };
    raster.fill(left, top, grid, grid, N_CELL);
    for (h1, row) in cells.iter().enumerate() {
        for (h2, &p) in row.iter().enumerate() {
            if p {
                raster.fill(left + h2 as u32 * cell, top + h1 as u32 * cell, cell, cell, P_CELL);
            }
        }
    }
    let text_height = 5 * PNG_PIXEL;
    for h in layout.ticks() {
        let wide = h.to_string().len() as u32 * PNG_DIGIT - PNG_PIXEL;
        let center = h * cell + cell / 2;
        // h2 ticks above the grid, centred (clamped to the image); h1 ticks right-aligned.
        let x = (left + center).saturating_sub(wide / 2).min(width - wide);
        raster.number(x, 2, h);
        let y = (top + center).saturating_sub(text_height / 2).min(height - text_height);
        raster.number(left - 4 - wide, y, h);
    }
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, width, height);
    encoder.set_color(png::ColorType::Grayscale);
    encoder.set_depth(png::BitDepth::Eight);
    let encode = |e: png::EncodingError| Error::Invalid(format!("encoding the PNG: {e}"));
    let mut writer = encoder.write_header().map_err(encode)?;
    writer.write_image_data(&raster.pixels).map_err(encode)?;
    writer.finish().map_err(encode)?;
    Ok(bytes)
}
