//! The SVG drawing of a grid of cells: title, axis names, tick labels, one rect per P.

use std::fmt::Write as _;

use super::{Cells, Layout};

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

pub(super) fn svg(cells: &Cells, layout: &Layout, title: &str) -> String {
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
