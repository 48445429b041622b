//! The `solve` table: every position with its Grundy XOR or value and its label under each
//! ending, for a space of tuples or of multisets.

use std::io::{self, Write};

use crate::engine::{GrundyValues, Labels};
use crate::export::label_lines::LabelLines;
pub use crate::export::label_lines::RowFilter;
use crate::export::lines::{push_decimal, write_chunks};
use crate::export::table_memory;
use crate::model::game::Game;
use crate::model::multiset::{MultisetSpace, Walk};
use crate::model::space::Space;

/// Writes the `solve` table of [`write_table`] without the positions' Grundy values.
///
/// `labels` are the tables of the requested endings in column order, all of one space.
/// Returns the number of data rows written.
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

/// Writes the `solve` table, values `P`/`N`, one column per ending in column order.
///
/// Over tuples: header `h1,…,hN`, then `pass` for a game with a pass (`1` = still
/// available, `0` = used; two rows per position, pass varying fastest), `gxor` for a sum
/// of heaps, `grundy` with `values` (the whole position's Grundy value), then the endings;
/// rows in lexicographic order of the tuple (sorted tuples only for canonical labels).
///
/// Over multisets: header `heaps,total,gxor`, then the endings; one row per position in
/// rank order (by total, then reverse lexicographic order of the heaps), heaps
/// non-increasing and separated by spaces (empty for the empty position).
///
/// Returns the number of data rows written.
///
/// # Panics
/// If `labels` is empty; if a filter other than [`RowFilter::All`] is asked for with
/// several endings, or `values` are given, over multisets.
///
/// # Errors
/// The writer's I/O error; [`io::ErrorKind::OutOfMemory`] if the system refuses the
/// buffers ([`table_bytes`]).
pub fn write_table<W: Write + ?Sized>(
    out: &mut W,
    game: &Game,
    labels: &[Labels],
    values: Option<&GrundyValues>,
    filter: RowFilter,
) -> io::Result<u64> {
    let first = labels.first().expect("at least one ending");
    if let Space::Multisets(space) = first.space() {
        assert!(values.is_none(), "a multiset space has no Grundy values of positions");
        return write_multiset_table(out, game, space, labels, filter);
    }
    let n = first.space().heaps();
    writeln!(out, "{}", header(n, game, values.is_some(), labels).join(","))?;
    // Chunks of rows are formatted in parallel and written in order (`export::lines`).
    let lines = LabelLines::new(game, labels, values, filter)?;
    let (rows, per_chunk, buffer) = (lines.rows(), lines.rows_per_chunk(), lines.buffer_bytes());
    write_chunks(out, rows, per_chunk, buffer, |rows, buf| lines.format(rows, buf))
}

/// At least the bytes [`write_table`] allocates for a table of `space` with `endings`
/// endings, and with the positions' Grundy values if `values` bounds the largest
/// ([`crate::Engine::grundy_bound`]): its digit table, the heaps' Grundy values and the
/// buffers of the chunks it formats at once (on rayon's current pool). A run reserves
/// them with its tables (`Work::Bytes`). A multiset table is written a line at a time,
/// with the heaps' Grundy values the engine's run already holds: nothing to reserve.
pub fn table_bytes(game: &Game, space: &Space, endings: usize, values: Option<u64>) -> u64 {
    match space {
        Space::Tuples(tuples) => table_memory::table_bytes(game, *tuples, endings, values),
        Space::Multisets(_) => 0,
    }
}

/// The table's header: heaps, pass, gxor, grundy, endings (each where it applies).
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

/// The table of a multiset space (see [`write_table`]), a line at a time.
fn write_multiset_table<W: Write + ?Sized>(
    out: &mut W,
    game: &Game,
    space: &MultisetSpace,
    labels: &[Labels],
    filter: RowFilter,
) -> io::Result<u64> {
    assert!(filter == RowFilter::All || labels.len() == 1, "a filter needs one ending");
    let grundy = game.grundy(space.total());
    let mut header = vec!["heaps", "total", "gxor"];
    header.extend(labels.iter().map(|l| l.ending().name()));
    writeln!(out, "{}", header.join(","))?;
    let mut walk = Walk::at(&[]);
    let (mut rows, mut line) = (0u64, Vec::with_capacity(256));
    for rank in 0..space.positions() {
        let keep = match filter {
            RowFilter::All => true,
            RowFilter::OnlyP => labels[0].is_p_at(rank),
            RowFilter::OnlyN => !labels[0].is_p_at(rank),
        };
        if keep {
            line.clear();
            let mut gxor = 0;
            for &(part, count) in walk.runs() {
                for _ in 0..count {
                    if !line.is_empty() {
                        line.push(b' ');
                    }
                    push_decimal(&mut line, u64::from(part));
                }
                gxor ^= if count % 2 == 1 { grundy[part as usize] } else { 0 };
            }
            line.push(b',');
            push_decimal(&mut line, u64::from(walk.total()));
            line.push(b',');
            push_decimal(&mut line, u64::from(gxor));
            for ending in labels {
                line.extend_from_slice(if ending.is_p_at(rank) { b",P" } else { b",N" });
            }
            line.push(b'\n');
            out.write_all(&line)?;
            rows += 1;
        }
        walk.advance();
    }
    Ok(rows)
}
