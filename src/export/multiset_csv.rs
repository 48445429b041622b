//! The `solve --total` table: every multiset of heaps with its Grundy XOR and labels.

use std::io::{self, Write};

use crate::engine::multiset::MultisetLabels;
use crate::export::labels_csv::RowFilter;
use crate::export::lines::push_decimal;
use crate::model::game::Game;
use crate::model::multiset::Walk;

/// Writes `heaps,total,gxor,<rule>…`: one row per position in rank order (by total, then
/// reverse lexicographic order of the heaps), heaps non-increasing and separated by
/// spaces (empty for the empty position), values `P`/`N`. Returns the rows written.
///
/// # Panics
/// If a filter other than [`RowFilter::All`] is asked for with several endings.
///
/// # Errors
/// The writer's I/O error.
pub fn write_multiset_table<W: Write + ?Sized>(
    out: &mut W,
    game: &Game,
    labels: &MultisetLabels,
    filter: RowFilter,
) -> io::Result<u64> {
    let endings = labels.endings();
    assert!(filter == RowFilter::All || endings.len() == 1, "a filter needs one ending");
    let grundy = game.grundy(labels.space().total());
    let mut header = vec!["heaps", "total", "gxor"];
    header.extend(endings.iter().map(|e| e.name()));
    writeln!(out, "{}", header.join(","))?;
    let mut walk = Walk::at(&[]);
    let (mut rows, mut line) = (0u64, Vec::with_capacity(256));
    for rank in 0..labels.space().positions() {
        let keep = match filter {
            RowFilter::All => true,
            RowFilter::OnlyP => labels.is_p(0, rank),
            RowFilter::OnlyN => !labels.is_p(0, rank),
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
            for j in 0..endings.len() {
                line.extend_from_slice(if labels.is_p(j, rank) { b",P" } else { b",N" });
            }
            line.push(b'\n');
            out.write_all(&line)?;
            rows += 1;
        }
        walk.advance();
    }
    Ok(rows)
}
