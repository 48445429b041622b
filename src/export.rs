//! CSV exporters: label tables and Grundy sequences, written to any `io::Write`.

use std::io::{self, Write};

use crate::game::Game;
use crate::rules::Rule;
use crate::solve::Labels;
use crate::verify::{position_text, Counterexample, Finding};

/// Which rows of a label table to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowFilter {
    /// Every position.
    All,
    /// Only positions labelled P (the table must have exactly one rule).
    OnlyP,
    /// Only positions labelled N (the table must have exactly one rule).
    OnlyN,
}

/// Appends the decimal digits of `value` to `buf`.
fn push_number(buf: &mut Vec<u8>, mut value: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            break;
        }
    }
    buf.extend_from_slice(&digits[i..]);
}

/// Calls `visit` on every prefix of `len` heaps over `0..=max` in lexicographic order;
/// with `sorted`, only non-decreasing prefixes.
pub fn for_each_prefix(len: usize, max: u32, sorted: bool, visit: &mut impl FnMut(&[u32])) {
    let mut digits = vec![0u32; len];
    loop {
        visit(&digits);
        // Odometer step: bump the last digit that can grow, reset the ones after it.
        let Some(i) = (0..len).rev().find(|&i| digits[i] < max) else { return };
        digits[i] += 1;
        let reset = if sorted { digits[i] } else { 0 };
        for d in &mut digits[i + 1..] {
            *d = reset;
        }
    }
}

/// Writes the `solve` table: header `h1,…,hN,gxor,<rule>…`, one row per position in
/// lexicographic order (sorted tuples only for canonical labels), values `P`/`N`.
///
/// `labels` are the tables of the requested rules in column order, all of one space and
/// mode. Returns the number of data rows written.
pub fn write_label_table<W: Write + ?Sized>(
    out: &mut W,
    game: &Game,
    labels: &[Labels],
    filter: RowFilter,
) -> io::Result<u64> {
    let first = labels.first().expect("at least one rule");
    let space = first.space();
    let (n, max) = (space.heaps(), space.max());
    let canonical = first.is_canonical();
    let grundy = game.grundy(max);
    let mut header: Vec<String> = (1..=n).map(|i| format!("h{i}")).collect();
    header.push("gxor".into());
    header.extend(labels.iter().map(|l| l.rule().name().to_string()));
    writeln!(out, "{}", header.join(","))?;

    let mut rows = 0u64;
    let mut line = Vec::with_capacity(16 * (n + 2));
    let mut result = Ok(());
    for_each_prefix(n - 1, max, canonical, &mut |prefix| {
        if result.is_err() {
            return;
        }
        let lo = if canonical { prefix.last().copied().unwrap_or(0) } else { 0 };
        let prefix_gxor = prefix.iter().fold(0, |x, &h| x ^ grundy[h as usize]);
        let bits: Vec<_> = labels.iter().map(|l| l.row(prefix)).collect();
        for h in lo..=max {
            let keep = match filter {
                RowFilter::All => true,
                RowFilter::OnlyP => bits[0][h as usize],
                RowFilter::OnlyN => !bits[0][h as usize],
            };
            if !keep {
                continue;
            }
            line.clear();
            for &p in prefix {
                push_number(&mut line, u64::from(p));
                line.push(b',');
            }
            push_number(&mut line, u64::from(h));
            line.push(b',');
            push_number(&mut line, u64::from(prefix_gxor ^ grundy[h as usize]));
            for row in &bits {
                line.extend_from_slice(if row[h as usize] { b",P" } else { b",N" });
            }
            line.push(b'\n');
            rows += 1;
            if let Err(e) = out.write_all(&line) {
                result = Err(e);
                return;
            }
        }
    });
    result.map(|()| rows)
}

/// Writes `heap,grundy` for heap sizes `0..=max`.
pub fn write_grundy<W: Write + ?Sized>(out: &mut W, game: &Game, max: u32) -> io::Result<()> {
    writeln!(out, "heap,grundy")?;
    for (h, g) in game.grundy(max).iter().enumerate() {
        writeln!(out, "{h},{g}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_come_in_lexicographic_order() {
        let mut seen = Vec::new();
        for_each_prefix(2, 2, true, &mut |p| seen.push(p.to_vec()));
        let expected: Vec<Vec<u32>> =
            vec![vec![0, 0], vec![0, 1], vec![0, 2], vec![1, 1], vec![1, 2], vec![2, 2]];
        assert_eq!(seen, expected);
        let mut count = 0;
        for_each_prefix(0, 5, false, &mut |p| {
            assert!(p.is_empty());
            count += 1;
        });
        assert_eq!(count, 1);
    }

    #[test]
    fn numbers_are_written_in_decimal() {
        let mut buf = Vec::new();
        push_number(&mut buf, 0);
        buf.push(b' ');
        push_number(&mut buf, 1234567);
        assert_eq!(buf, b"0 1234567");
    }
}

/// Header of `summary.csv`.
pub const SUMMARY_HEADER: [&str; 10] = [
    "game",
    "heaps",
    "max",
    "rule",
    "criterion",
    "positions",
    "p_positions",
    "agree",
    "disagree",
    "first_counterexample",
];

/// Header of `counterexamples.csv`.
pub const COUNTEREXAMPLE_HEADER: [&str; 8] =
    ["game", "heaps", "max", "rule", "criterion", "position", "dp", "predicted"];

fn label_text(is_p: bool) -> &'static str {
    if is_p {
        "P"
    } else {
        "N"
    }
}

/// The cells of one finding, in `summary.csv` column order, ending with `first`.
fn finding_cells(f: &Finding, first: String) -> Vec<String> {
    vec![
        f.game.clone(),
        f.heaps.to_string(),
        f.max.to_string(),
        f.rule.name().to_string(),
        f.criterion.name().to_string(),
        f.positions.to_string(),
        f.p_positions.to_string(),
        f.agree.to_string(),
        f.disagree.to_string(),
        first,
    ]
}

/// Writes `summary.csv`: one row per (heaps, rule, criterion).
pub fn write_summary<W: Write + ?Sized>(out: &mut W, findings: &[Finding]) -> io::Result<()> {
    let mut csv = csv::Writer::from_writer(out);
    csv.write_record(SUMMARY_HEADER)?;
    for f in findings {
        let first = f.counterexamples.first().map(|c| position_text(&c.position));
        csv.write_record(finding_cells(f, first.unwrap_or_default()))?;
    }
    csv.flush()
}

/// Writes `counterexamples.csv`: every kept counterexample, in finding and index order.
pub fn write_counterexamples<W: Write + ?Sized>(
    out: &mut W,
    findings: &[Finding],
) -> io::Result<()> {
    writeln!(out, "{}", COUNTEREXAMPLE_HEADER.join(","))?;
    for f in findings {
        let criterion = f.criterion.name();
        write_counterexample_rows(out, &f.game, f.max, f.rule, criterion, &f.counterexamples)?;
    }
    Ok(())
}

/// Writes counterexample rows (no header) of one space, rule and criterion (a criterion
/// name, or a claim's expression), in the `counterexamples.csv` format.
pub fn write_counterexample_rows<W: Write + ?Sized>(
    out: &mut W,
    game: &str,
    max: u32,
    rule: Rule,
    criterion: &str,
    counterexamples: &[Counterexample],
) -> io::Result<()> {
    let mut csv = csv::WriterBuilder::new().has_headers(false).from_writer(out);
    for c in counterexamples {
        csv.write_record([
            game,
            &c.position.len().to_string(),
            &max.to_string(),
            rule.name(),
            criterion,
            &position_text(&c.position),
            label_text(c.dp_is_p),
            label_text(!c.dp_is_p),
        ])?;
    }
    csv.flush()
}

/// Renders findings as an aligned text table (one line per finding).
pub fn summary_table(findings: &[Finding]) -> String {
    let mut rows: Vec<Vec<String>> = vec![[
        "game",
        "heaps",
        "max",
        "rule",
        "criterion",
        "positions",
        "P",
        "agree",
        "disagree",
        "first counterexample",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()];
    for f in findings {
        let first = f.counterexamples.first().map_or("-".to_string(), |c| {
            format!("({}) dp {}", position_text(&c.position), label_text(c.dp_is_p))
        });
        let theorem_note = if f.theorem_failed() { "  THEOREM FAILED" } else { "" };
        rows.push(finding_cells(f, format!("{first}{theorem_note}")));
    }
    let widths: Vec<usize> =
        (0..rows[0].len()).map(|c| rows.iter().map(|r| r[c].len()).max().unwrap_or(0)).collect();
    let mut text = String::new();
    for row in &rows {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(c, (cell, &w))| {
                // Numbers right-aligned, words left-aligned; the last column unpadded.
                if c + 1 == row.len() {
                    cell.clone()
                } else if (1..=2).contains(&c) || (5..=8).contains(&c) {
                    format!("{cell:>w$}")
                } else {
                    format!("{cell:<w$}")
                }
            })
            .collect();
        text.push_str(cells.join("  ").trim_end());
        text.push('\n');
    }
    text
}

/// One generated file for `MANIFEST.csv`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManifestEntry {
    /// Path as named in the manifest (for example `data/summary.csv`).
    pub file: String,
    /// The file's bytes.
    pub bytes: u64,
    /// Lower-case hex SHA-256 of the bytes.
    pub sha256: String,
    /// A command that generates the file.
    pub command: String,
}

impl ManifestEntry {
    /// Describes `content`, generated by `command`, as `file`.
    pub fn new(file: &str, content: &[u8], command: &str) -> ManifestEntry {
        use sha2::{Digest, Sha256};
        let digest = Sha256::digest(content);
        let sha256 = digest.iter().map(|b| format!("{b:02x}")).collect();
        ManifestEntry {
            file: file.to_string(),
            bytes: content.len() as u64,
            sha256,
            command: command.to_string(),
        }
    }
}

/// Writes `MANIFEST.csv`: header `file,bytes,sha256,command`, one row per file.
pub fn write_manifest<W: Write + ?Sized>(out: &mut W, entries: &[ManifestEntry]) -> io::Result<()> {
    let mut csv = csv::Writer::from_writer(out);
    csv.write_record(["file", "bytes", "sha256", "command"])?;
    for e in entries {
        csv.write_record([&e.file, &e.bytes.to_string(), &e.sha256, &e.command])?;
    }
    csv.flush()
}
