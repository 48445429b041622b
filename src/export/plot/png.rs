//! The PNG drawing of a grid of cells: 8-bit grayscale, tick labels in a 3×5 digit font.

use super::{Cells, Layout, PlotError};

/// Pixels of one digit column plus its gap in the PNG font (3 columns of 2 pixels, 2 gap).
const PNG_DIGIT: u32 = 8;
const PNG_PIXEL: u32 = 2;

/// `(left, top, margin, label)` in pixels for tick labels of `digits` digits: room for
/// the h2 ticks above the grid and the h1 ticks to its left.
pub(super) fn margins(digits: u32) -> (u32, u32, u32, u32) {
    (digits * PNG_DIGIT + 6, 5 * PNG_PIXEL + 6, 4, digits * PNG_DIGIT + 4)
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

pub(super) fn png(cells: &Cells, layout: &Layout) -> Result<Vec<u8>, PlotError> {
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
    let encode = |e: png::EncodingError| PlotError::Encoding(e.to_string());
    let mut writer = encoder.write_header().map_err(encode)?;
    writer.write_image_data(&raster.pixels).map_err(encode)?;
    writer.finish().map_err(encode)?;
    Ok(bytes)
}
