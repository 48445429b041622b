//! The two pictures of a class page, as inline SVG: the values heap by heap, and how
//! often each value occurs.

use std::fmt::Write;

use super::html::escape;

/// The picture's size and the room left around the plot for the axes' labels.
const WIDTH: f64 = 800.0;
const HEIGHT: f64 = 260.0;
const LEFT: f64 = 72.0;
const RIGHT: f64 = 12.0;
const TOP: f64 = 12.0;
const BOTTOM: f64 = 40.0;
const PLOT_W: f64 = WIDTH - LEFT - RIGHT;
const PLOT_H: f64 = HEIGHT - TOP - BOTTOM;

/// A plot of `values[n]` against the heap `n`, one dot per heap, with the heaps of the
/// first period (`start`, `length`) shaded when given.
pub(super) fn values_plot(values: &[u32], period: Option<(usize, usize)>, title: &str) -> String {
    let n = values.len().max(1);
    let top = values.iter().copied().max().unwrap_or(0).max(1);
    let step = PLOT_W / n as f64;
    let x_edge = |i: usize| LEFT + i as f64 * step;
    let y = |v: u64| TOP + PLOT_H - v as f64 * PLOT_H / f64::from(top);
    let mut out = open(title, "values");
    if let Some((start, length)) = period.filter(|(start, _)| *start < n) {
        let (from, to) = (x_edge(start), x_edge((start + length).min(n)));
        let _ = writeln!(
            out,
            "<rect class=\"period\" x=\"{from:.1}\" y=\"{TOP}\" width=\"{:.1}\" height=\"{PLOT_H}\"/>",
            to - from
        );
    }
    let side = step.clamp(1.5, 4.0);
    let mut dots = String::with_capacity(values.len() * 24);
    for (i, &v) in values.iter().enumerate() {
        let (cx, cy) = (x_edge(i) + step / 2.0 - side / 2.0, y(u64::from(v)) - side / 2.0);
        let _ = write!(dots, "M{cx:.1} {cy:.1}h{side:.1}v{side:.1}h-{side:.1}z");
    }
    let _ = writeln!(out, "<path class=\"dots\" d=\"{dots}\"/>");
    axes(&mut out, n as u64 - 1, |i| x_edge(i as usize) + step / 2.0, u64::from(top), y);
    labels(&mut out, "heap n", "G(n)");
    out.push_str("</svg>\n");
    out
}

/// A bar chart of `counts[v]`, the number of heaps of value `v`, each bar titled with
/// its value and count.
pub(super) fn frequency_chart(counts: &[u64], title: &str) -> String {
    let n = counts.len().max(1);
    let top = counts.iter().copied().max().unwrap_or(0).max(1);
    let step = PLOT_W / n as f64;
    let y = |c: u64| TOP + PLOT_H - c as f64 * PLOT_H / top as f64;
    let mut out = open(title, "frequencies");
    for (v, &count) in counts.iter().enumerate() {
        let (x, height) = (LEFT + v as f64 * step, PLOT_H * count as f64 / top as f64);
        let width = (step * 0.8).max(0.5);
        let _ = writeln!(
            out,
            "<rect class=\"bar\" x=\"{x:.1}\" y=\"{:.1}\" width=\"{width:.1}\" \
             height=\"{height:.1}\"><title>value {v}: {count} heaps</title></rect>",
            y(count)
        );
    }
    axes(&mut out, n as u64 - 1, |v| LEFT + (v as f64 + 0.4) * step, top, y);
    labels(&mut out, "value", "heaps");
    out.push_str("</svg>\n");
    out
}

/// The opening tag and title of a picture.
fn open(title: &str, class: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg class=\"{class}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" role=\"img\">\
         <title>{}</title>",
        escape(title)
    );
    out
}

/// The two axes with their ticks: `x_last` is the last mark on the horizontal axis,
/// `y_top` the top of the vertical one.
fn axes(out: &mut String, x_last: u64, x: impl Fn(u64) -> f64, y_top: u64, y: impl Fn(u64) -> f64) {
    let (bottom, right) = (TOP + PLOT_H, LEFT + PLOT_W);
    let _ = writeln!(out, "<path class=\"axis\" d=\"M{LEFT} {TOP}V{bottom}H{right}\"/>");
    for t in ticks(x_last) {
        let at = x(t);
        let _ = writeln!(
            out,
            "<path class=\"axis\" d=\"M{at:.1} {bottom}v4\"/><text x=\"{at:.1}\" y=\"{:.1}\" \
             text-anchor=\"middle\">{t}</text>",
            bottom + 16.0
        );
    }
    for t in ticks(y_top) {
        let at = y(t);
        let _ = writeln!(
            out,
            "<path class=\"axis\" d=\"M{LEFT} {at:.1}h-4\"/><text x=\"{:.1}\" y=\"{:.1}\" \
             text-anchor=\"end\">{t}</text>",
            LEFT - 6.0,
            at + 4.0
        );
    }
}

/// The names of the axes.
fn labels(out: &mut String, x_name: &str, y_name: &str) {
    let _ = writeln!(
        out,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{x_name}</text>\
         <text x=\"12\" y=\"{TOP}\" text-anchor=\"start\" dominant-baseline=\"hanging\" \
         transform=\"rotate(90 12 {TOP})\">{y_name}</text>",
        LEFT + PLOT_W / 2.0,
        HEIGHT - 4.0
    );
}

/// Round marks from 0 to `last`: steps of 1, 2 or 5 times a power of ten, at most six
/// marks, and `last` itself.
fn ticks(last: u64) -> Vec<u64> {
    let mut step = 1;
    'find: for scale in (0..19).map(|k| 10u64.pow(k)) {
        for m in [1, 2, 5] {
            step = m * scale;
            if last / step < 6 {
                break 'find;
            }
        }
    }
    let mut marks: Vec<u64> = (0..=last / step).map(|k| k * step).collect();
    if marks.last() != Some(&last) {
        // A last mark too close to the one before would overlap its label.
        if marks.last().is_some_and(|&m| (last - m) * 4 < step) {
            marks.pop();
        }
        marks.push(last);
    }
    marks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_end_at_the_last_mark() {
        assert_eq!(ticks(99), vec![0, 20, 40, 60, 80, 99]);
        assert_eq!(ticks(3), vec![0, 1, 2, 3]);
        assert_eq!(ticks(0), vec![0]);
        assert_eq!(ticks(1000), vec![0, 200, 400, 600, 800, 1000]);
        assert_eq!(ticks(1003), vec![0, 200, 400, 600, 800, 1003]);
    }

    #[test]
    fn every_value_has_a_dot_and_every_count_a_titled_bar() {
        let plot = values_plot(&[0, 1, 1, 2], Some((1, 2)), "G of <x>");
        assert_eq!(plot.matches('z').count(), 4);
        assert!(plot.contains("<title>G of &lt;x&gt;</title>"));
        assert!(plot.contains("class=\"period\""));
        let chart = frequency_chart(&[1, 2, 1], "counts");
        assert!(chart.contains("<title>value 1: 2 heaps</title>"));
        assert_eq!(chart.matches("class=\"bar\"").count(), 3);
    }
}
