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

use super::{Cells, Layout, PlotError, MAX_IMAGE_SIDE};

/// Space around and between the parts of the picture, in pixels.
const PAD: u32 = 4;
/// The title's font, the axis names' font, the ticks' and legend's font.
const TITLE_FONT: MonoFont<'static> = FONT_7X13;
const AXIS_FONT: MonoFont<'static> = FONT_6X13_ITALIC;
const SMALL_FONT: MonoFont<'static> = FONT_6X10;
/// Where the title's and the h2 axis name's lines start, and the h2 ticks' line.
const AXIS_Y: u32 = PAD + 13 + PAD;
const TICKS_Y: u32 = AXIS_Y + 13 + 2;
/// The side of a legend's square.
const SWATCH: u32 = 10;

/// Gray levels of the PNG.
const WHITE: u8 = 255;
const N_CELL: u8 = 238;
const P_CELL: u8 = 34;
const FRAME: u8 = 136;
const INK: u8 = 0;

/// `(left, top, right, bottom, label)` in pixels for tick labels of `digits` digits:
/// the title, the h2 name and ticks above the grid; the h1 name and ticks to its left;
/// the legend below it.
pub(super) fn margins(digits: u32) -> (u32, u32, u32, u32, u32) {
    let char_w = SMALL_FONT.character_size.width;
    let h1_name = 2 * AXIS_FONT.character_size.width;
    let left = PAD + h1_name + 2 * PAD + digits * char_w + PAD;
    let top = TICKS_Y + SMALL_FONT.character_size.height + PAD;
    (left, top, PAD, 2 * PAD + SWATCH + PAD, digits * char_w + PAD)
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

/// The legend's entries: what a dark and a light cell mean.
const LEGEND: [(u8, &str); 2] =
    [(P_CELL, "P (player to move loses)"), (N_CELL, "N (player to move wins)")];

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
    let grid = layout.side * cell;
    let title = fitted_title(title);
    let legend: u32 =
        LEGEND.iter().map(|(_, n)| SWATCH + PAD + width_of(n, &SMALL_FONT) + 3 * PAD).sum();
    // A small grid gets a wider image, so that the title and the legend fit.
    let width = width.max(width_of(&title, &TITLE_FONT) + 2 * PAD).max(left + legend);
    let mut raster = Raster { width, height, pixels: vec![WHITE; (width * height) as usize] };
    raster.fill(left, top, grid, grid, N_CELL);
    for (h1, row) in cells.iter().enumerate() {
        for (h2, &p) in row.iter().enumerate() {
            if p {
                raster.fill(left + h2 as u32 * cell, top + h1 as u32 * cell, cell, cell, P_CELL);
            }
        }
    }
    raster.text(&title, PAD, PAD, &TITLE_FONT);
    let name_w = width_of("h2", &AXIS_FONT);
    raster.text("h2", (left + grid / 2).saturating_sub(name_w / 2), AXIS_Y, &AXIS_FONT);
    let name_h = AXIS_FONT.character_size.height;
    raster.text("h1", PAD, (top + grid / 2).saturating_sub(name_h / 2), &AXIS_FONT);
    draw_ticks(&mut raster, layout);
    let mut x = left;
    for (gray, name) in LEGEND {
        x = raster.swatch(x, top + grid + 2 * PAD, gray, name) + 3 * PAD;
    }
    encode(&raster)
}

/// Tick labels: h2 above the grid, centred on their column (kept inside the image), h1
/// right-aligned to the left of their row.
fn draw_ticks(raster: &mut Raster, layout: &Layout) {
    let Layout { cell, left, top, .. } = *layout;
    let text_h = SMALL_FONT.character_size.height;
    for h in layout.ticks() {
        let label = h.to_string();
        let wide = width_of(&label, &SMALL_FONT);
        let center = h * cell + cell / 2;
        let x = (left + center).saturating_sub(wide / 2).min(raster.width - wide);
        raster.text(&label, x, TICKS_Y, &SMALL_FONT);
        let y = (top + center).saturating_sub(text_h / 2);
        raster.text(&label, left - PAD - wide, y, &SMALL_FONT);
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
