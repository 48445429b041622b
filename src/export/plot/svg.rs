//! The SVG drawing of a grid of cells: title, axis names, tick labels, one rect per P,
//! and the legend.

use std::fmt::Write as _;

use super::{Cells, Layout, LEGEND};

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// About 6 px per character of the 11 px sans-serif text: the legend's widths.
const CHAR_WIDTH: u32 = 6;

pub(super) fn svg(cells: &Cells, layout: &Layout, title: &str) -> String {
    let Layout { cell, left, top, .. } = *layout;
    let grid = layout.grid();
    let bottom = top + grid;
    // A small grid gets a wider image, so that the legend fits.
    let width = layout.width.max(left + legend_width() + 12);
    let height = layout.height;
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
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-style=\"italic\">h1</text>",
        left + grid / 2,
        bottom + 30
    );
    let _ = writeln!(
        out,
        "<text x=\"12\" y=\"{}\" text-anchor=\"middle\" font-style=\"italic\">h2</text>",
        top + grid / 2
    );
    for h in layout.ticks() {
        let (x, y) = layout.cell_at(h, h);
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{h}</text>",
            f64::from(x) + half,
            bottom + 14
        );
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\" dominant-baseline=\"middle\">{h}</text>",
            left - 4,
            f64::from(y) + half
        );
    }
    let _ = writeln!(
        out,
        "<rect x=\"{left}\" y=\"{top}\" width=\"{grid}\" height=\"{grid}\" fill=\"{N_FILL}\" \
         stroke=\"{FRAME}\" stroke-width=\"0.5\"/>"
    );
    let _ = writeln!(out, "<g fill=\"{P_FILL}\">");
    for (h1, column) in cells.iter().enumerate() {
        for (h2, &p) in column.iter().enumerate() {
            if p {
                let (x, y) = layout.cell_at(h1 as u32, h2 as u32);
                let _ = writeln!(
                    out,
                    "<rect class=\"p\" x=\"{x}\" y=\"{y}\" width=\"{cell}\" height=\"{cell}\"/>"
                );
            }
        }
    }
    let _ = writeln!(out, "</g>");
    legend(&mut out, left, bottom + 40);
    let _ = writeln!(out, "</svg>");
    out
}

/// Cell colours and the grid's frame.
const P_FILL: &str = "#222222";
const N_FILL: &str = "#eeeeee";
const FRAME: &str = "#888888";

/// A legend entry's width: its swatch, a gap, its text and the space before the next.
fn entry_width(name: &str) -> u32 {
    10 + 4 + name.chars().count() as u32 * CHAR_WIDTH + 12
}

fn legend_width() -> u32 {
    LEGEND.iter().map(|name| entry_width(name)).sum()
}

/// The legend, one row of framed swatches and their meanings, its top at `y`.
fn legend(out: &mut String, mut x: u32, y: u32) {
    for (fill, name) in [P_FILL, N_FILL].into_iter().zip(LEGEND) {
        let _ = writeln!(
            out,
            "<rect x=\"{x}\" y=\"{y}\" width=\"10\" height=\"10\" fill=\"{fill}\" \
             stroke=\"{FRAME}\" stroke-width=\"0.5\"/>"
        );
        let _ = writeln!(out, "<text x=\"{}\" y=\"{}\">{}</text>", x + 14, y + 9, escape(name));
        x += entry_width(name);
    }
}
