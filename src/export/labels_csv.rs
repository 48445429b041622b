//! The `solve` table: every position with its Grundy XOR or value and its label under each
//! ending.

use std::io::{self, Write};

use crate::engine::{GrundyValues, Labels};
use crate::export::label_lines::LabelLines;
use crate::export::lines::write_chunks;
use crate::export::table_memory;
use crate::model::game::Game;
use crate::model::space::Space;

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
/// them with its tables (`Work::Bytes`).
pub fn table_bytes(game: &Game, space: Space, endings: usize, values: Option<u64>) -> u64 {
    table_memory::table_bytes(game, space, endings, values)
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
