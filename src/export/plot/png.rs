//! The PNG drawing of a grid of cells: 8-bit grayscale, with the SVG's title, axis names
//! and tick labels, and a legend, in bitmap fonts built into the binary.
//!
//! Text is drawn with `embedded-graphics`' ISO-8859-1 mono fonts (the title says
//! "misère"): bitmap glyphs, so the bytes are the same on every machine.

use embedded_graphics::mono_font::iso_8859_1::{FONT_6X10, FONT_6X13_ITALIC, FONT_7X13};
use embedded_graphics::mono_font::{MonoFont, MonoTextStyle};
use embedded_graphics::pixelcolor::{Gray8, GrayColor};
use embedded_graphics::prelude::{DrawTarget, OriginDimensions, Point, Size};
use embedded_graphics::text::{Baseline, Text};
use embedded_graphics::{Drawable, Pixel};

use super::{Cells, Layout, PlotError, LEGEND, MAX_IMAGE_SIDE};

/// Space around and between the parts of the picture, in pixels.
const PAD: u32 = 4;
/// The title's font, the axis names' font, the ticks' and legend's font.
const TITLE_FONT: MonoFont<'static> = FONT_7X13;
const AXIS_FONT: MonoFont<'static> = FONT_6X13_ITALIC;
const SMALL_FONT: MonoFont<'static> = FONT_6X10;
/// Below the grid, from its bottom edge: the h1 ticks' line, the h1 name's, the legend's.
const TICKS_BELOW: u32 = 2;
const NAME_BELOW: u32 = TICKS_BELOW + 10 + 2;
const LEGEND_BELOW: u32 = NAME_BELOW + 13 + PAD;
/// The side of a legend's square.
const SWATCH: u32 = 10;

/// Gray levels of the PNG.
const WHITE: u8 = 255;
const N_CELL: u8 = 238;
const P_CELL: u8 = 34;
const FRAME: u8 = 136;
const INK: u8 = 0;

/// `(left, top, right, bottom, label)` in pixels for tick labels of `digits` digits:
/// the title above the grid; the h2 name and ticks to its left; the h1 ticks and name and
/// the legend below it.
pub(super) fn margins(digits: u32) -> (u32, u32, u32, u32, u32) {
    let char_w = SMALL_FONT.character_size.width;
    let h2_name = 2 * AXIS_FONT.character_size.width;
    let left = PAD + h2_name + 2 * PAD + digits * char_w + PAD;
    let top = PAD + TITLE_FONT.character_size.height + 2 * PAD;
    (left, top, PAD, LEGEND_BELOW + SWATCH + PAD, digits * char_w + PAD)
}

/// A grayscale raster, and an `embedded-graphics` target to draw text on.
struct Raster {
    width: u32,
    height: u32,
    pixels: Vec<u8>,
}

impl Raster {
    fn fill(&mut self, x: u32, y: u32, w: u32, h: u32, gray: u8) {
        for row in y..y + h {
            let start = (row * self.width + x) as usize;
            self.pixels[start..start + w as usize].fill(gray);
        }
    }

    /// Draws `text` with its top-left corner at `(x, y)`.
    fn text(&mut self, text: &str, x: u32, y: u32, font: &MonoFont<'_>) {
        let style = MonoTextStyle::new(font, Gray8::new(INK));
        let at = Point::new(x as i32, y as i32);
        let Ok(_) = Text::with_baseline(text, at, style, Baseline::Top).draw(self);
    }

    /// A legend entry: a framed square of `gray`, then its name.
    fn swatch(&mut self, x: u32, y: u32, gray: u8, name: &str) -> u32 {
        self.fill(x, y, SWATCH, SWATCH, FRAME);
        self.fill(x + 1, y + 1, SWATCH - 2, SWATCH - 2, gray);
        self.text(name, x + SWATCH + PAD, y, &SMALL_FONT);
        x + SWATCH + PAD + width_of(name, &SMALL_FONT)
    }
}

impl OriginDimensions for Raster {
    fn size(&self) -> Size {
        Size::new(self.width, self.height)
    }
}

impl DrawTarget for Raster {
    type Color = Gray8;
    type Error = std::convert::Infallible;

    fn draw_iter<I: IntoIterator<Item = Pixel<Gray8>>>(
        &mut self,
        pixels: I,
    ) -> Result<(), Self::Error> {
        for Pixel(p, color) in pixels {
            if p.x >= 0 && p.y >= 0 && (p.x as u32) < self.width && (p.y as u32) < self.height {
                self.pixels[(p.y as u32 * self.width + p.x as u32) as usize] = color.luma();
            }
        }
        Ok(())
    }
}

/// Pixels `text` takes in `font`.
fn width_of(text: &str, font: &MonoFont<'_>) -> u32 {
    let advance = font.character_size.width + font.character_spacing;
    text.chars().count() as u32 * advance
}

/// The legend's entries: the gray of a P and an N cell, and what each means.
const ENTRIES: [(u8, &str); 2] = [(P_CELL, LEGEND[0]), (N_CELL, LEGEND[1])];

/// The title, cut to what fits in the largest image.
fn fitted_title(title: &str) -> String {
    let advance = TITLE_FONT.character_size.width;
    let room = ((MAX_IMAGE_SIDE - 2 * PAD) / advance) as usize;
    if title.chars().count() <= room {
        return title.to_string();
    }
    title.chars().take(room - 3).chain("...".chars()).collect()
}

pub(super) fn png(cells: &Cells, layout: &Layout, title: &str) -> Result<Vec<u8>, PlotError> {
    let Layout { cell, left, top, width, height, .. } = *layout;
    let grid = layout.grid();
    let title = fitted_title(title);
    let legend: u32 =
        ENTRIES.iter().map(|(_, n)| SWATCH + PAD + width_of(n, &SMALL_FONT) + 3 * PAD).sum();
    // A small grid gets a wider image, so that the title and the legend fit.
    let width = width.max(width_of(&title, &TITLE_FONT) + 2 * PAD).max(left + legend);
    let mut raster = Raster { width, height, pixels: vec![WHITE; (width * height) as usize] };
    raster.fill(left, top, grid, grid, N_CELL);
    for (h1, column) in cells.iter().enumerate() {
        for (h2, &p) in column.iter().enumerate() {
            if p {
                let (x, y) = layout.cell_at(h1 as u32, h2 as u32);
                raster.fill(x, y, cell, cell, P_CELL);
            }
        }
    }
    raster.text(&title, PAD, PAD, &TITLE_FONT);
    let name_w = width_of("h1", &AXIS_FONT);
    let below = top + grid;
    raster.text("h1", (left + grid / 2).saturating_sub(name_w / 2), below + NAME_BELOW, &AXIS_FONT);
    let name_h = AXIS_FONT.character_size.height;
    raster.text("h2", PAD, (top + grid / 2).saturating_sub(name_h / 2), &AXIS_FONT);
    draw_ticks(&mut raster, layout);
    let mut x = left;
    for (gray, name) in ENTRIES {
        x = raster.swatch(x, below + LEGEND_BELOW, gray, name) + 3 * PAD;
    }
    encode(&raster)
}

/// Tick labels: h1 below the grid, centred on their column (kept inside the image), h2
/// right-aligned to the left of their row.
fn draw_ticks(raster: &mut Raster, layout: &Layout) {
    let below = layout.top + layout.grid() + TICKS_BELOW;
    let text_h = SMALL_FONT.character_size.height;
    for h in layout.ticks() {
        let label = h.to_string();
        let wide = width_of(&label, &SMALL_FONT);
        let (column, row) = layout.centres(h);
        let x = column.saturating_sub(wide / 2).min(raster.width - wide);
        raster.text(&label, x, below, &SMALL_FONT);
        let y = row.saturating_sub(text_h / 2);
        raster.text(&label, layout.left - PAD - wide, y, &SMALL_FONT);
    }
}

fn encode(raster: &Raster) -> Result<Vec<u8>, PlotError> {
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, raster.width, raster.height);
    encoder.set_color(png::ColorType::Grayscale);
    encoder.set_depth(png::BitDepth::Eight);
    let encode = |e: png::EncodingError| PlotError::Encoding(e.to_string());
    let mut writer = encoder.write_header().map_err(encode)?;
    writer.write_image_data(&raster.pixels).map_err(encode)?;
    writer.finish().map_err(encode)?;
    Ok(bytes)
}
