//! The general path of multi-heap games in full mode: every source row of a row's prefix
//! moves, read through its column transform.
//!
//! Any rule that can list its prefix moves (`model::options`) is labelled this way: a
//! whole row of positions per source row, instead of one position per option as a plain
//! DP scans them, and a track stops reading once every column of its row is blocked.

use crate::engine::bits::{block_at_or_above_first, first_set, or_shifted_into};
use crate::engine::tuples::label_table::LabelTable;
use crate::engine::tuples::labelling::{Labelling, Scratch};
use crate::engine::tuples::rows::nim::solve_nim_row;
use crate::model::options::LastHeap;

/// Sources read between two checks of whether the row is already all blocked.
const CHECK_EVERY: usize = 16;

impl Labelling<'_, '_, '_> {
    /// A multi-heap row in full mode through its source rows, on every track.
    pub(crate) fn sources_row(&self, scratch: &mut Scratch) {
        let e = self.engine;
        let options = e.position_options.as_ref().expect("options for the general path");
        let (w, r) = (e.layout.words_per_row(), e.layout.space().radix() as usize);
        let space = e.layout.space();
        let moves = &mut scratch.moves;
        moves.clear();
        // A row of full mode starts at its index times `r`.
        options.for_each_prefix_move(&scratch.prefix, &mut scratch.other, &mut |p, last| {
            moves.push((space.index(p) as usize * r, last));
        });
        for (j, track) in self.tracks.iter().enumerate() {
            let blocked = &mut scratch.blocked[j * w..(j + 1) * w];
            let buffers = (&mut scratch.at_or_below[..], &mut scratch.source_row[..]);
            read_sources(&track.table, &scratch.moves, blocked, buffers, r);
            self.block_pass(j, scratch);
            let (blocked, out) =
                (&scratch.blocked[j * w..(j + 1) * w], &mut scratch.rows[j * w..(j + 1) * w]);
            solve_nim_row(0, r, false, blocked, out);
        }
    }
}

/// Blocks every column of the row that some prefix move takes to a P of `table`.
/// `below` and `source` are one row of scratch each.
fn read_sources(
    table: &LabelTable<'_>,
    moves: &[(usize, LastHeap)],
    blocked: &mut [u64],
    (below, source): (&mut [u64], &mut [u64]),
    r: usize,
) {
    below.fill(0);
    for (n, &(start, last)) in moves.iter().enumerate() {
        match last {
            LastHeap::Kept => table.or_into(start, 0, blocked),
            LastHeap::LoweredBy(k) => {
                table.read(start, source);
                or_shifted_into(blocked, source, k as usize);
            }
            LastHeap::AnyAmount => table.or_into(start, 0, below),
        }
        if n % CHECK_EVERY == CHECK_EVERY - 1 && all_blocked(blocked, below, r) {
            break;
        }
    }
    block_at_or_above_first(blocked, below);
}

/// Whether every column `0..r` is blocked, or at or above the first set bit of `below`.
fn all_blocked(blocked: &[u64], below: &[u64], r: usize) -> bool {
    let end = first_set(below).map_or(r, |f| f.min(r));
    let full = end / 64;
    if blocked[..full].iter().any(|&word| word != !0) {
        return false;
    }
    let rest = end % 64;
    rest == 0 || blocked[full] | (!0u64 << rest) == !0
}
