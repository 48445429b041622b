//! Nim's rows: a line holds at most one P, so a row's P is its first free column.
//!
//! Along any axis line of Nim (all heaps but one fixed) the larger position reaches every
//! smaller one, so a line holds at most one P-position. Instead of a table, the engine
//! keeps one *accumulator* row per line: the P-columns found on it so far. A row's
//! blocked columns are the OR of its lines' accumulators; its P is the first column not
//! blocked (if no smaller column of the row is P, in canonical rows). With a pass each
//! track has its own lines.

use crate::engine::bits::{first_set, or_into};
use crate::engine::error::Result;
use crate::engine::memory::Lease;
use crate::engine::tuples::labelling::{block_pass_columns, Labelling, Scratch};
use crate::engine::visitor::{RowView, RowVisitor};

/// A task's row buffers for full-mode planes, `words_per_row` words per track each.
pub(crate) struct PlaneRows {
    /// The P-columns of the plane's earlier rows (the line along the last prefix heap).
    line: Vec<u64>,
    /// The blocked columns and the labels of the row.
    blocked: Vec<u64>,
    rows: Vec<u64>,
}

impl Labelling<'_, '_, '_> {
    /// The one row of a single heap (no prefix, so no sources), on every track.
    pub(crate) fn nim_row(&self, scratch: &mut Scratch) {
        let e = self.engine;
        let (w, r) = (e.layout.words_per_row(), e.layout.space().radix() as usize);
        for j in 0..self.tracks.len() {
            self.block_pass(j, scratch);
            let (blocked, row) =
                (&scratch.blocked[j * w..(j + 1) * w], &mut scratch.rows[j * w..(j + 1) * w]);
            solve_nim_row(0, r, false, blocked, row);
        }
    }

    /// A task's row buffers for full-mode planes, drawn from `lease` (`memory/plan.rs` counts
    /// them).
    pub(crate) fn plane_rows(&self, lease: &Lease<'_>) -> Result<PlaneRows> {
        let words = self.engine.layout.words_per_row() * self.tracks.len();
        Ok(PlaneRows {
            line: lease.vec(words, 0)?,
            blocked: lease.vec(words, 0)?,
            rows: lease.vec(words, 0)?,
        })
    }

    /// Labels the full-mode plane of `outer` (all values of the last prefix heap) on every
    /// track. The line along the last prefix heap `hk` lives in a local buffer, and the
    /// other lines' accumulators are read and written sequentially (indexed with `hk`
    /// last), which keeps the labelling streaming through memory instead of missing the cache.
    pub(crate) fn plane<V: RowVisitor>(
        &self,
        outer: &[u32],
        buffers: &mut PlaneRows,
        visitor: &V,
        acc: &mut V::Acc,
    ) -> u64 {
        let e = self.engine;
        let space = e.layout.space();
        let (w, r, k) = (e.layout.words_per_row(), space.radix(), e.layout.prefix_len());
        let mut prefix = outer.to_vec();
        prefix.push(0);
        let bases = line_bases(outer.len(), r, |skip| {
            space.index_of(outer.iter().enumerate().filter(|&(j, _)| j != skip).map(|(_, &h)| h))
        });
        let first_row = space.index(outer) * r;
        let outer_terminal: Vec<bool> = self
            .tracks
            .iter()
            .map(|track| outer.iter().all(|&h| track.terminal[h as usize]))
            .collect();
        let outer_stuck = outer.iter().all(|&h| e.no_move[h as usize]);
        // P-columns of earlier rows of this plane: the line along hk, per track.
        let PlaneRows { line, blocked, rows } = buffers;
        line.fill(0);
        for hk in 0..r as usize {
            prefix[k - 1] = hk as u32;
            let table_row = first_row as usize + hk;
            rows.fill(0);
            for (j, track) in self.tracks.iter().enumerate() {
                let (done, rest) = rows.split_at_mut(j * w);
                let row = &mut rest[..w];
                let blocked = &mut blocked[j * w..(j + 1) * w];
                // The row's sources: the plane's earlier rows (the line along hk) and the
                // other lines through the row.
                track.accumulators.or_rows_into(&bases, hk, &line[j * w..(j + 1) * w], blocked);
                if outer_terminal[j] && track.terminal[hk] {
                    or_into(blocked, &track.terminal_mask);
                }
                // Full mode: a row starts at its index times `r`.
                track.block_excluded(table_row * r as usize, 0, r as usize, blocked);
                if track.pass_available {
                    let stuck = outer_stuck && e.no_move[hk];
                    block_pass_columns(blocked, &done[(j - 1) * w..], stuck, &e.no_move_mask);
                }
                solve_nim_row(0, r as usize, false, blocked, row);
                if let Some(column) = first_set(row) {
                    line[j * w + column / 64] |= 1 << (column % 64);
                    for &base in &bases {
                        track.accumulators.set_bit(base + hk, column);
                    }
                }
                if !track.table.is_empty() {
                    track.table.store(table_row * r as usize, 0, row);
                }
            }
            let first_index = table_row as u64 * r;
            let pass = e.game.has_pass();
            let (end, bits, ranks) = (r as usize, &rows[..], &[][..]);
            let view = RowView {
                prefix: &prefix,
                lo: 0,
                end,
                bits,
                words_per_row: w,
                first_index,
                ranks,
                pass,
            };
            visitor.visit(acc, &view);
        }
        r * r * e.pass_states() as u64
    }
}

/// The accumulator row of each line through a plane at `hk = 0`: line `i` (one per outer
/// heap) is the outer prefix without heap `i`; its rows for other `hk` follow. Lines of
/// heap `i` occupy the block `i * r^(k-1)`.
fn line_bases(outer_len: usize, r: u64, without: impl Fn(usize) -> u64) -> Vec<usize> {
    let block = r.pow(outer_len as u32);
    (0..outer_len).map(|i| (i as u64 * block + without(i) * r) as usize).collect()
}

/// Nim row: every column can reach every smaller one, so the row's only possible P is the
/// first column `>= lo` not blocked from outside, and only if nothing below `lo` is P.
pub(crate) fn solve_nim_row(lo: usize, r: usize, below: bool, blocked: &[u64], row: &mut [u64]) {
    if below {
        return;
    }
    for (i, &word) in blocked.iter().enumerate().skip(lo / 64) {
        let mut free = !word;
        if i == lo / 64 {
            free &= !0u64 << (lo % 64);
        }
        if free != 0 {
            let column = i * 64 + free.trailing_zeros() as usize;
            if column < r {
                row[i] |= 1 << (column % 64);
            }
            return;
        }
    }
}
