//! The `solve` table: every position with its Grundy XOR or value and its label under each
//! ending.

use std::io::{self, Write};

use crate::engine::{GrundyValues, Labels};
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

/// Appends the decimal digits of `value` to `buf`, a byte at a time: the numbers are a few
/// digits long, and a copy call per number would cost more than the digits.
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
    for &digit in &digits[i..] {
        buf.push(digit);
    }
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
    write_table(out, game, labels, None, filter)
}

/// Writes the `solve` table with its optional columns: header `h1,…,hN`, then `pass`
/// for a game with a pass (`1` = still available, `0` = used; two rows per position,
/// pass varying fastest), `gxor` for a sum of heaps, `grundy` with `values` (the whole
/// position's Grundy value), then one column per rule in column order. Rows in
/// lexicographic order of the tuple (sorted tuples only for canonical labels).
///
/// Returns the number of data rows written.
///
/// # Panics
/// If `labels` is empty.
///
/// # Errors
/// The writer's I/O error.
pub fn write_table<W: Write + ?Sized>(
    out: &mut W,
    game: &Game,
    labels: &[Labels],
    values: Option<&GrundyValues>,
    filter: RowFilter,
) -> io::Result<u64> {
    let first = labels.first().expect("at least one ending");
    let space = first.space();
    let (n, max) = (space.heaps(), space.max());
    let canonical = first.mode() == Mode::Canonical;
    let grundy = game.is_sum().then(|| game.grundy(max));
    let states: &[bool] = if game.has_pass() { &[false, true] } else { &[false] };
    writeln!(out, "{}", header(n, game, values.is_some(), labels).join(","))?;

    let mut rows = 0u64;
    let mut index = 0u64;
    let mut line = Vec::with_capacity(16 * (n + 4));
    let mut result = Ok(());
    let prefixes =
        if canonical { Tuples::sorted(n - 1, 0, max) } else { Tuples::new(n - 1, 0, max) };
    prefixes.for_each(|prefix| {
        if result.is_err() {
            return;
        }
        let lo = if canonical { prefix.last().copied().unwrap_or(0) } else { 0 };
        let prefix_gxor = grundy.as_ref().map(|g| prefix.iter().fold(0, |x, &h| x ^ g[h as usize]));
        let bits: Vec<Vec<_>> =
            states.iter().map(|&s| labels.iter().map(|l| l.row_in(prefix, s)).collect()).collect();
        for h in lo..=max {
            for (s, &pass) in states.iter().enumerate() {
                let keep = match filter {
                    RowFilter::All => true,
                    RowFilter::OnlyP => bits[s][0][h as usize],
                    RowFilter::OnlyN => !bits[s][0][h as usize],
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
                if game.has_pass() {
                    line.extend_from_slice(if pass { b",1" } else { b",0" });
                }
                if let (Some(g), Some(x)) = (&grundy, prefix_gxor) {
                    line.push(b',');
                    push_number(&mut line, u64::from(x ^ g[h as usize]));
                }
                if let Some(values) = values {
                    let state = index * states.len() as u64 + s as u64;
                    line.push(b',');
                    push_number(&mut line, u64::from(values.values()[state as usize]));
                }
                for row in &bits[s] {
                    line.extend_from_slice(if row[h as usize] { b",P" } else { b",N" });
                }
                line.push(b'\n');
                rows += 1;
                if let Err(e) = out.write_all(&line) {
                    result = Err(e);
                    return;
                }
            }
            index += 1;
        }
    });
    result.map(|()| rows)
}

/// The table's header: heaps, pass, gxor, grundy, rules (each where it applies).
fn header(n: usize, game: &Game, values: bool, labels: &[Labels]) -> Vec<String> {
    let mut header: Vec<String> = (1..=n).map(|i| format!("h{i}")).collect();
    if game.has_pass() {
        header.push("pass".into());
    }
    if game.is_sum() {
        header.push("gxor".into());
    }
    if values {
        header.push("grundy".into());
    }
    header.extend(labels.iter().map(|l| l.ending().name().to_string()));
    header
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
