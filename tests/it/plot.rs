//! `plot`: the cells of the pictures (SVG parsed, PNG decoded) match the DP labels.

use std::collections::BTreeSet;

use embedded_graphics::mono_font::MonoFont;
use nimtab::export::plot::{cell_origin, cells, render, render_in, title, Format, Grid, LEGEND};
use nimtab::model::position::PassState;
use nimtab::{Ending, Game, Labels, Mode};

use crate::support::cli::{run, Run};

fn labels(game: &Game, n: usize, max: u32, ending: Ending) -> Labels {
    crate::support::label(game, n, max, ending, Mode::Full)
}

/// The expected P-cells `(h1, h2)` of a grid, read from the label table.
fn expected_cells(game: &Game, ending: Ending, max: u32, grid: Grid) -> BTreeSet<(u32, u32)> {
    let table = match grid {
        Grid::TwoHeaps => labels(game, 2, max, ending),
        Grid::ThreeHeapSlice(_) => labels(game, 3, max, ending),
    };
    let mut out = BTreeSet::new();
    for h1 in 0..=max {
        for h2 in 0..=max {
            let p = match grid {
                Grid::TwoHeaps => table.is_p(&[h1, h2]),
                Grid::ThreeHeapSlice(k) => table.is_p(&[h1, h2, k]),
            };
            if p {
                out.insert((h1, h2));
            }
        }
    }
    out
}

fn cases() -> Vec<(Game, Ending, u32, Grid)> {
    vec![
        (Game::nim(), Ending::Normal, 15, Grid::TwoHeaps),
        (Game::nim(), Ending::Misere, 15, Grid::TwoHeaps),
        (Game::parse("subtract:1,3,4").unwrap(), Ending::Normal, 20, Grid::TwoHeaps),
        (Game::nim(), Ending::Normal, 12, Grid::ThreeHeapSlice(5)),
        (Game::parse("subtract:1,2").unwrap(), Ending::Misere, 9, Grid::ThreeHeapSlice(0)),
    ]
}

/// The `x` and `y` attributes of every `<rect class="p" …>` of an SVG.
fn svg_p_rects(svg: &str) -> Vec<(u32, u32)> {
    let attribute = |line: &str, name: &str| -> u32 {
        let start = line.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        line[start..].split('"').next().unwrap().parse().unwrap()
    };
    svg.lines()
        .filter(|l| l.starts_with("<rect class=\"p\""))
        .map(|l| (attribute(l, "x"), attribute(l, "y")))
        .collect()
}

#[test]
fn cell_matrix_matches_the_labels() {
    for (game, ending, max, grid) in cases() {
        let matrix = cells(&game, ending, max, grid).unwrap();
        let mut found = BTreeSet::new();
        for (h1, row) in matrix.iter().enumerate() {
            assert_eq!(row.len(), max as usize + 1);
            for (h2, &p) in row.iter().enumerate() {
                if p {
                    found.insert((h1 as u32, h2 as u32));
                }
            }
        }
        assert_eq!(
            found,
            expected_cells(&game, ending, max, grid),
            "{} {ending} {grid:?}",
            game.spec()
        );
    }
}

#[test]
fn svg_cells_match_the_labels() {
    for (game, ending, max, grid) in cases() {
        let scale = 7;
        let svg = String::from_utf8(render(&game, ending, max, grid, Format::Svg, scale).unwrap())
            .unwrap();
        // The grid's top-left cell is (0, max): h1 across, h2 up.
        let (left, top) = cell_origin(Format::Svg, max, scale, 0, max).unwrap();
        let found: BTreeSet<(u32, u32)> = svg_p_rects(&svg)
            .into_iter()
            .map(|(x, y)| {
                assert_eq!(((x - left) % scale, (y - top) % scale), (0, 0));
                ((x - left) / scale, max - (y - top) / scale)
            })
            .collect();
        assert_eq!(
            found,
            expected_cells(&game, ending, max, grid),
            "{} {ending} {grid:?}",
            game.spec()
        );
    }
}

#[test]
fn pictures_put_the_origin_bottom_left_with_h1_across_and_h2_up() {
    for format in [Format::Svg, Format::Png] {
        let at = |h1, h2| cell_origin(format, 7, 4, h1, h2).unwrap();
        let (x, y) = at(0, 0);
        assert_eq!(at(1, 0), (x + 4, y), "{format:?}: h1 goes across");
        assert_eq!(at(0, 1), (x, y - 4), "{format:?}: h2 goes up");
        assert_eq!(at(7, 7), (x + 28, y - 28), "{format:?}");
    }
    // Nim's P-positions are the diagonal h1 = h2, so cell (0, 7) is N: dark only at the
    // bottom left and top right corners of the grid.
    let (width, _, pixels) =
        decode(render(&Game::nim(), Ending::Normal, 7, Grid::TwoHeaps, Format::Png, 4).unwrap());
    let gray = |(x, y): (u32, u32)| pixels[(y * width + x) as usize];
    let at = |h1, h2| cell_origin(Format::Png, 7, 4, h1, h2).unwrap();
    assert!(gray(at(0, 0)) < 128 && gray(at(7, 7)) < 128 && gray(at(0, 7)) > 128);
    let svg = String::from_utf8(
        render(&Game::nim(), Ending::Normal, 7, Grid::TwoHeaps, Format::Svg, 4).unwrap(),
    )
    .unwrap();
    let (x, y) = cell_origin(Format::Svg, 7, 4, 0, 0).unwrap();
    let rects = svg_p_rects(&svg);
    assert_eq!(rects.iter().map(|r| r.1).max(), Some(y), "the lowest P cell is (0, 0)");
    assert!(rects.contains(&(x, y)));
}

#[test]
fn the_axis_names_sit_below_and_beside_the_grid_in_both_formats() {
    use embedded_graphics::mono_font::iso_8859_1::FONT_6X13_ITALIC;
    let (game, max, scale) = (Game::nim(), 7, 10);
    let (left, bottom) = cell_origin(Format::Png, max, scale, 0, 0).unwrap();
    let png =
        decode(render(&game, Ending::Normal, max, Grid::TwoHeaps, Format::Png, scale).unwrap());
    let (x1, y1) = text_at(&png, "h1", &FONT_6X13_ITALIC).expect("h1 is drawn");
    let (x2, y2) = text_at(&png, "h2", &FONT_6X13_ITALIC).expect("h2 is drawn");
    assert!(y1 > bottom + scale && x1 > left, "h1 below the grid: {x1},{y1}");
    assert!(x2 < left && y2 < bottom, "h2 left of the grid: {x2},{y2}");
    let svg = String::from_utf8(
        render(&game, Ending::Normal, max, Grid::TwoHeaps, Format::Svg, scale).unwrap(),
    )
    .unwrap();
    let (left, bottom) = cell_origin(Format::Svg, max, scale, 0, 0).unwrap();
    let name = |n: &str| {
        let line = svg.lines().find(|l| l.ends_with(&format!(">{n}</text>"))).unwrap();
        let number = |a: &str| -> f64 {
            let start = line.find(&format!(" {a}=\"")).unwrap() + a.len() + 3;
            line[start..].split('"').next().unwrap().parse().unwrap()
        };
        (number("x"), number("y"))
    };
    assert!(name("h1").1 > f64::from(bottom + scale), "h1 below the grid");
    assert!(name("h2").0 < f64::from(left), "h2 left of the grid");
}

#[test]
fn both_formats_and_the_python_plot_share_the_legend() {
    let svg = String::from_utf8(
        render(&Game::nim(), Ending::Misere, 15, Grid::TwoHeaps, Format::Svg, 10).unwrap(),
    )
    .unwrap();
    let python = std::fs::read_to_string("python/nimtab/_plot.py").unwrap();
    for entry in LEGEND {
        assert!(svg.contains(&format!(">{entry}</text>")), "{entry} is not in the SVG");
        assert!(python.contains(&format!("\"{entry}\"")), "{entry} is not nimtab.plot's key");
    }
}

#[test]
fn svg_has_a_title_and_labelled_axes() {
    let svg = String::from_utf8(
        render(&Game::nim(), Ending::Misere, 15, Grid::TwoHeaps, Format::Svg, 10).unwrap(),
    )
    .unwrap();
    assert!(svg.contains("<title>P-positions (h1, h2) of nim, misère play</title>"), "{svg}");
    assert!(svg.contains(">h1</text>") && svg.contains(">h2</text>"));
    for tick in [0, 2, 14] {
        assert!(svg.contains(&format!(">{tick}</text>")), "tick {tick}");
    }
    let slice = title(&Game::parse("subtract:1,3,4").unwrap(), Ending::Sj, Grid::ThreeHeapSlice(4));
    assert_eq!(slice, "P-positions (h1, h2, 4) of subtract:1,3,4, SJ rule");
}

#[test]
fn png_pixels_match_the_labels() {
    for (game, ending, max, grid) in cases() {
        for scale in [1, 4] {
            let bytes = render(&game, ending, max, grid, Format::Png, scale).unwrap();
            let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
            let mut reader = decoder.read_info().unwrap();
            let mut pixels = vec![0; reader.output_buffer_size()];
            let info = reader.next_frame(&mut pixels).unwrap();
            assert_eq!(info.color_type, png::ColorType::Grayscale);
            let mut found = BTreeSet::new();
            for h1 in 0..=max {
                for h2 in 0..=max {
                    let (x, y) = cell_origin(Format::Png, max, scale, h1, h2).unwrap();
                    let cell: Vec<u8> = (0..scale * scale)
                        .map(|i| pixels[((y + i / scale) * info.width + x + i % scale) as usize])
                        .collect();
                    // Every pixel of a cell has the cell's colour.
                    assert!(cell.iter().all(|&g| g == cell[0]));
                    if cell[0] < 128 {
                        found.insert((h1, h2));
                    }
                }
            }
            assert_eq!(
                found,
                expected_cells(&game, ending, max, grid),
                "{} {ending} {grid:?}",
                game.spec()
            );
        }
    }
}

/// Decodes a grayscale PNG: width, height, pixels.
fn decode(bytes: Vec<u8>) -> (u32, u32, Vec<u8>) {
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes)).read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut pixels).unwrap();
    assert_eq!(info.color_type, png::ColorType::Grayscale);
    (info.width, info.height, pixels)
}

/// A text's ink: what `embedded-graphics` draws for it, as booleans.
struct Mask {
    width: u32,
    ink: Vec<bool>,
}

impl embedded_graphics::prelude::OriginDimensions for Mask {
    fn size(&self) -> embedded_graphics::prelude::Size {
        embedded_graphics::prelude::Size::new(self.width, self.ink.len() as u32 / self.width)
    }
}

impl embedded_graphics::prelude::DrawTarget for Mask {
    type Color = embedded_graphics::pixelcolor::BinaryColor;
    type Error = std::convert::Infallible;

    fn draw_iter<I>(&mut self, pixels: I) -> Result<(), Self::Error>
    where
        I: IntoIterator<Item = embedded_graphics::Pixel<Self::Color>>,
    {
        for embedded_graphics::Pixel(p, color) in pixels {
            let i = (p.y as u32 * self.width + p.x as u32) as usize;
            self.ink[i] = color.is_on();
        }
        Ok(())
    }
}

/// Whether `text` in `font` appears somewhere in the picture (see [`text_at`]).
fn shows_text(png: &(u32, u32, Vec<u8>), text: &str, font: &MonoFont<'_>) -> bool {
    text_at(png, text, font).is_some()
}

/// Where `text` in `font` first appears in the picture, pixel for pixel (the top-left
/// corner of its box): its glyphs' ink is black there and the rest of its box is not.
fn text_at(png: &(u32, u32, Vec<u8>), text: &str, font: &MonoFont<'_>) -> Option<(u32, u32)> {
    use embedded_graphics::mono_font::MonoTextStyle;
    use embedded_graphics::pixelcolor::BinaryColor;
    use embedded_graphics::prelude::{Drawable, Point};
    use embedded_graphics::text::{Baseline, Text};
    let w = font.character_size.width * text.chars().count() as u32;
    let h = font.character_size.height;
    let mut mask = Mask { width: w, ink: vec![false; (w * h) as usize] };
    let style = MonoTextStyle::new(font, BinaryColor::On);
    Text::with_baseline(text, Point::zero(), style, Baseline::Top).draw(&mut mask).unwrap();
    let (width, height, pixels) = png;
    let drawn_at = |x: u32, y: u32| {
        mask.ink.iter().enumerate().all(|(i, &on)| {
            let (dx, dy) = (i as u32 % w, i as u32 / w);
            (pixels[((y + dy) * width + x + dx) as usize] == 0) == on
        })
    };
    (0..=height.saturating_sub(h))
        .flat_map(|y| (0..=width.saturating_sub(w)).map(move |x| (x, y)))
        .find(|&(x, y)| drawn_at(x, y))
}

#[test]
fn png_has_the_title_axis_names_ticks_and_a_legend() {
    use embedded_graphics::mono_font::iso_8859_1::{FONT_6X10, FONT_6X13_ITALIC, FONT_7X13};
    let nim =
        decode(render(&Game::nim(), Ending::Misere, 7, Grid::TwoHeaps, Format::Png, 10).unwrap());
    let title = title(&Game::nim(), Ending::Misere, Grid::TwoHeaps);
    assert_eq!(title, "P-positions (h1, h2) of nim, misère play");
    for (text, font) in [
        (title.as_str(), &FONT_7X13),
        ("h1", &FONT_6X13_ITALIC),
        ("h2", &FONT_6X13_ITALIC),
        ("P (player to move loses)", &FONT_6X10),
        ("N (player to move wins)", &FONT_6X10),
        ("6", &FONT_6X10),
    ] {
        assert!(shows_text(&nim, text, font), "'{text}' is not drawn");
    }
    assert!(!shows_text(&nim, "normal play", &FONT_7X13), "the ending is misère");
    let game = Game::parse("subtract:1,3,4").unwrap();
    let slice = render(&game, Ending::Sj, 12, Grid::ThreeHeapSlice(4), Format::Png, 4).unwrap();
    let text = "P-positions (h1, h2, 4) of subtract:1,3,4, SJ rule";
    assert!(shows_text(&decode(slice), text, &FONT_7X13), "the slice is named");
}

#[test]
fn pictures_are_deterministic() {
    for format in [Format::Svg, Format::Png] {
        let draw = || render(&Game::nim(), Ending::Normal, 31, Grid::TwoHeaps, format, 3).unwrap();
        assert_eq!(draw(), draw());
    }
}

#[test]
fn bad_plot_settings_are_refused() {
    let nim = Game::nim();
    let slice = render(&nim, Ending::Normal, 7, Grid::ThreeHeapSlice(8), Format::Svg, 4);
    assert!(slice.unwrap_err().to_string().contains("slice h3=8 is above the largest heap size 7"));
    let wide = render(&nim, Ending::Normal, 1000, Grid::TwoHeaps, Format::Png, 20);
    assert!(wide.unwrap_err().to_string().contains("16384 pixels"));
    assert!(render(&nim, Ending::Normal, 7, Grid::TwoHeaps, Format::Png, 0).is_err());
}

#[test]
fn cli_writes_the_picture_the_library_renders() {
    let dir = tempfile::tempdir().unwrap();
    for (name, format) in [("nim.svg", Format::Svg), ("nim.png", Format::Png)] {
        let out = dir.path().join(name);
        let Run { status, stderr, .. } = run(&[
            "plot",
            "--game",
            "nim",
            "--max",
            "15",
            "--rule",
            "normal",
            "--heaps",
            "3",
            "--slice",
            "h3=3",
            "--scale",
            "5",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(status, 0, "{stderr}");
        let expected =
            render(&Game::nim(), Ending::Normal, 15, Grid::ThreeHeapSlice(3), format, 5).unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), expected);
    }
}

#[test]
fn a_pass_slice_draws_that_pass_state_and_the_pass_available_by_default() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("pass.svg");
    let out = out.to_str().unwrap();
    let base = ["plot", "--game", "nim", "--pass", "--max", "9", "--rule", "normal"];
    let drawn = |slice: &[&str]| {
        let args: Vec<&str> = base.iter().chain(slice).chain(&["--out", out]).copied().collect();
        let Run { status, stderr, .. } = run(&args);
        assert_eq!(status, 0, "{slice:?}: {stderr}");
        std::fs::read(out).unwrap()
    };
    let game = Game::nim().with_pass();
    let scale = (1024 / 10).clamp(1, 12);
    let expected = |pass| {
        render_in(&game, Ending::Normal, 9, (Grid::TwoHeaps, pass), Format::Svg, scale).unwrap()
    };
    let (used, available) = (expected(PassState::Used), expected(PassState::Available));
    assert_ne!(used, available);
    assert_eq!(drawn(&["--slice", "pass=0"]), used);
    assert_eq!(drawn(&["--slice", "pass=1"]), available);
    assert_eq!(drawn(&[]), available);
}

#[test]
fn cli_refuses_bad_plot_arguments_with_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("x.svg");
    let svg = svg.to_str().unwrap();
    let base = ["plot", "--game", "nim", "--max", "7", "--rule", "normal"];
    for (extra, message) in [
        (vec!["--heaps", "3", "--out", svg], "--heaps 3 needs --slice h3=K"),
        (vec!["--slice", "h3=1", "--out", svg], "--slice h3=K is for --heaps 3"),
        (vec!["--heaps", "3", "--slice", "h2=1", "--out", svg], "--slice must be h3=K"),
        (vec!["--heaps", "3", "--slice", "h3=9", "--out", svg], "above --max 7"),
        (vec!["--heaps", "4", "--out", svg], "must be 2 or 3"),
        (vec!["--out", "x.gif"], "must end in .svg or .png"),
        (vec!["--scale", "0", "--out", svg], "--scale must be at least 1"),
    ] {
        let args: Vec<&str> = base.iter().copied().chain(extra.iter().copied()).collect();
        let Run { status, stderr, .. } = run(&args);
        assert_eq!(status, 2, "{extra:?}: {stderr}");
        assert!(stderr.contains(message), "{extra:?}: {stderr}");
    }
    assert!(!std::path::Path::new(svg).exists());
}
