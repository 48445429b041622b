//! The `solve` table: every position with its Grundy XOR and its label under each ending.

use std::io::{self, Write};

use crate::engine::Labels;
use crate::model::enumerate::Tuples;
use crate::model::game::Game;
use crate::model::space::Mode;

/// Which rows of a label table to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowFilter {
    /// Every position.
    All,
    /// Only positions labelled P (the table must have exactly one ending).
    OnlyP,
    /// Only positions labelled N (the table must have exactly one ending).
    OnlyN,
}

/// Appends the decimal digits of `value` to `buf`.
pub(crate) fn push_number(buf: &mut Vec<u8>, mut value: u64) {
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

/// Writes the `solve` table: header `h1,…,hN,gxor,<rule>…`, one row per position in
/// lexicographic order (sorted tuples only for canonical labels), values `P`/`N`.
///
/// `labels` are the tables of the requested endings in column order, all of one space
/// and mode. Returns the number of data rows written.
///
/// # Panics
/// If `labels` is empty.
///
/// # Errors
/// The writer's I/O error.
pub fn write_label_table<W: Write + ?Sized>(
    out: &mut W,
    game: &Game,
    labels: &[Labels],
    filter: RowFilter,
) -> io::Result<u64> {
    let first = labels.first().expect("at least one ending");
    let space = first.space();
    let (n, max) = (space.heaps(), space.max());
    let canonical = first.mode() == Mode::Canonical;
    let grundy = game.grundy(max);
    let mut header: Vec<String> = (1..=n).map(|i| format!("h{i}")).collect();
    header.push("gxor".into());
    header.extend(labels.iter().map(|l| l.ending().name().to_string()));
    writeln!(out, "{}", header.join(","))?;

    let mut rows = 0u64;
    let mut line = Vec::with_capacity(16 * (n + 2));
    let mut result = Ok(());
    let prefixes =
        if canonical { Tuples::sorted(n - 1, 0, max) } else { Tuples::new(n - 1, 0, max) };
    prefixes.for_each(|prefix| {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_in_decimal() {
        let mut buf = Vec::new();
        push_number(&mut buf, 0);
        buf.push(b' ');
        push_number(&mut buf, 1234567);
        assert_eq!(buf, b"0 1234567");
    }
}
