//! Canonical Nim by sorted planes: the rows of one sorted outer prefix, last prefix heap rising.
//!
//! A *sorted plane* is every canonical row `(O, hk)` sharing the first `k - 1` prefix heaps
//! `O` (sorted), with `hk` from `max(O)` to `M`. A row's sources are the accumulators of its
//! prefix without one distinct value: without `hk` that is `O` itself, the same for the
//! whole plane, kept in a local buffer; without a value `o` of `O` it is `(O - o, hk)`,
//! which is sorted as written, so its rank rises by one with `hk`. The rows, their
//! indices and every source of a plane therefore step by constants: ranks are computed
//! once per plane, and the accumulators are read and written sequentially.
//!
//! Planes run in layers of equal outer sum (`tuples/shared_rows.rs` gives the argument): an
//! accumulator `O` only receives rows `O + a` with `a < max(O)` from planes of smaller
//! outer sum, and is read by no plane after `O`'s own, so its local buffer is not stored
//! back.

use crate::engine::bits::{bit, set_bit};
use crate::engine::error::Result;
use crate::engine::memory::Lease;
use crate::engine::tuples::labelling::Labelling;
use crate::engine::tuples::planes::PlaneJob;
use crate::engine::tuples::sources::distinct_values;
use crate::engine::visitor::{PlaneView, RowView, RowVisitor, NO_P};
use crate::model::canonical::CanonicalRanker;

/// Per-task buffers of the sorted planes, allocated once per task.
pub(crate) struct PlaneScratch {
    /// The row's prefix, and scratch for a rank.
    prefix: Vec<u32>,
    other: Vec<u32>,
    /// Per distinct value `o` of the outer prefix: the accumulator row of `(O - o, max(O))`
    /// and `o`.
    streams: Vec<(usize, u32)>,
    /// Per track, `words_per_row` words each: the line of `O`, the rows.
    line: Vec<u64>,
    rows: Vec<u64>,
    /// Per row of the plane and track: its P column, or [`NO_P`].
    p_columns: Vec<u32>,
    /// Grundy rounds: one row's excluded columns.
    excluded: Vec<u64>,
}

impl Labelling<'_, '_, '_> {
    /// A task's buffers, its rows drawn from `lease` (`memory/plan.rs` counts them).
    pub(crate) fn plane_scratch(&self, lease: &Lease<'_>) -> Result<PlaneScratch> {
        let layout = &self.engine.layout;
        let (k, w, tracks) = (layout.prefix_len(), layout.words_per_row(), self.tracks.len());
        Ok(PlaneScratch {
            prefix: Vec::with_capacity(k),
            other: Vec::with_capacity(k + 1),
            streams: Vec::with_capacity(k),
            line: lease.vec(w * tracks, 0)?,
            rows: lease.vec(w * tracks, 0)?,
            p_columns: lease.capacity(layout.space().radix() as usize * tracks)?,
            excluded: lease.vec(w, 0)?,
        })
    }

    /// Labels the sorted plane of the job's `outer` on every track; returns the positions
    /// labelled.
    /// Rows go to `visitor` one by one, or all at once by their P columns if it wants
    /// planes.
    pub(crate) fn sorted_plane<V: RowVisitor>(&self, job: PlaneJob<'_, V, PlaneScratch>) -> u64 {
        let PlaneJob { outer, scratch: s, visitor, acc } = job;
        let e = self.engine;
        let ranker = e.short_ranker.as_ref().expect("canonical Nim has a short ranker");
        let (w, max) = (e.layout.words_per_row(), e.layout.space().max());
        let top = outer.last().copied().unwrap_or(0);
        s.prefix.clear();
        s.prefix.extend_from_slice(outer);
        s.prefix.push(top);
        let plane_first_index = e.layout.sorted_first_index(&s.prefix, &mut s.other);
        let line_row = ranker.rank(outer) as usize;
        for (track, line) in self.tracks.iter().zip(s.line.chunks_exact_mut(w)) {
            line.copy_from_slice(track.accumulators.row(line_row));
        }
        stream_starts(ranker, outer, top, &mut s.other, &mut s.streams);
        let edge = PlaneEdge {
            outer_terminal: self
                .tracks
                .iter()
                .map(|t| outer.iter().all(|&h| t.terminal[h as usize]))
                .collect(),
            outer_stuck: outer.iter().all(|&h| e.no_move[h as usize]),
        };
        let planes = visitor.wants_planes();
        s.p_columns.clear();
        let (mut first_index, mut done) = (plane_first_index, 0);
        for hk in top..=max {
            let step = (hk - top) as usize;
            *s.prefix.last_mut().expect("a prefix heap") = hk;
            let start = (first_index - u64::from(hk)) as usize;
            self.sorted_row(s, &edge, start, step, hk, planes);
            if !planes {
                let view = RowView {
                    prefix: &s.prefix,
                    lo: hk,
                    end: max as usize + 1,
                    bits: &s.rows,
                    words_per_row: w,
                    first_index,
                    ranks: &[],
                    pass: e.game.has_pass(),
                };
                visitor.visit(acc, &view);
            }
            // The row of `hk` holds the sorted tuples `(O, hk, h)` for `h` in `hk..=M`.
            let columns = u64::from(max - hk) + 1;
            first_index += columns;
            done += columns * e.pass_states() as u64;
        }
        if planes {
            let plane = PlaneView {
                outer,
                top,
                max,
                tracks: self.tracks.len(),
                p_columns: &s.p_columns,
                words_per_row: w,
                first_index: plane_first_index,
                pass: e.game.has_pass(),
            };
            visitor.visit_plane(acc, &plane);
        }
        done
    }

    /// Labels the row `(O, hk)` (table row `row`, `step` rows into its plane) on every
    /// track into `s.rows`; with `planes`, also appends its P columns to `s.p_columns`.
    #[inline]
    fn sorted_row(
        &self,
        s: &mut PlaneScratch,
        edge: &PlaneEdge,
        start: usize,
        step: usize,
        hk: u32,
        planes: bool,
    ) {
        let e = self.engine;
        let (w, r) = (e.layout.words_per_row(), e.layout.space().radix() as usize);
        s.rows.fill(0);
        for (j, track) in self.tracks.iter().enumerate() {
            let (earlier, rest) = s.rows.split_at_mut(j * w);
            let out = &mut rest[..w];
            let line = &mut s.line[j * w..(j + 1) * w];
            // The last heap dropping below `hk` lands on the line at column `hk`: with a P
            // there every column of the row reaches it, so the row has no P, whatever else
            // blocks it, and its sources need not be read.
            let p_column = if bit(line, hk as usize) {
                None
            } else {
                let terminal = edge.outer_terminal[j] && track.terminal[hk as usize];
                let stuck = edge.outer_stuck && e.no_move[hk as usize];
                let used = track.pass_available.then(|| &earlier[(j - 1) * w..j * w]);
                // Grundy rounds: the row's excluded columns, out of their packed table.
                let excluded = track.excluded.is_some().then(|| {
                    let excluded = &mut s.excluded[..w];
                    excluded.fill(0);
                    track.block_excluded(start, hk, r, excluded);
                    &*excluded
                });
                // Word `i` of the row's blocked columns, built only as far as it is read.
                let blocked = |i: usize| {
                    let mut word = line[i];
                    if terminal {
                        word |= track.terminal_mask[i];
                    }
                    if let Some(excluded) = excluded {
                        word |= excluded[i];
                    }
                    // Lowering the copy of `hk` in `O` is lowering `hk`: the line already.
                    for &(start, _) in s.streams.iter().filter(|&&(_, o)| o != hk) {
                        word |= track.accumulators.row(start + step)[i];
                    }
                    if let Some(used) = used {
                        // A position P with the pass used blocks passing into it, except
                        // from a position without moves, which may not pass.
                        word |= if stuck { used[i] & !e.no_move_mask[i] } else { used[i] };
                    }
                    word
                };
                let column = first_free_column(hk as usize, r, w, blocked);
                if let Some(column) = column {
                    set_bit(out, column);
                }
                column
            };
            if let Some(column) = p_column {
                set_bit(line, column);
                for &(start, _) in s.streams.iter().filter(|&&(_, o)| o != hk) {
                    track.accumulators.set_bit(start + step, column);
                }
            }
            if planes {
                s.p_columns.push(p_column.map_or(NO_P, |c| c as u32));
            }
            if !track.table.is_empty() {
                track.table.store(start, hk as usize, out);
            }
        }
    }
}

/// A Nim row's only possible P, as `solve_nim_row` finds it when nothing below `lo` is
/// P: the first column from `lo` on not blocked, if it is below `r`. Word `i` of the
/// blocked columns is `blocked(i)`, asked for from `lo`'s word up to the first word with a
/// free column only.
#[inline]
fn first_free_column(
    lo: usize,
    r: usize,
    words: usize,
    blocked: impl Fn(usize) -> u64,
) -> Option<usize> {
    for i in lo / 64..words {
        let mut free = !blocked(i);
        if i == lo / 64 {
            free &= !0u64 << (lo % 64);
        }
        if free != 0 {
            let column = i * 64 + free.trailing_zeros() as usize;
            return (column < r).then_some(column);
        }
    }
    None
}

/// What the rows of a plane share about its outer prefix: per track, whether every outer
/// heap is terminal; whether no outer heap has a move.
struct PlaneEdge {
    outer_terminal: Vec<bool>,
    outer_stuck: bool,
}

/// Per distinct value `o` of the sorted `outer` (its last copy stands for all), the rank of
/// `(outer - o, top)`, the accumulator of the plane's first row without `o`; and `o`.
fn stream_starts(
    ranker: &CanonicalRanker,
    outer: &[u32],
    top: u32,
    buf: &mut Vec<u32>,
    streams: &mut Vec<(usize, u32)>,
) {
    streams.clear();
    for i in distinct_values(outer) {
        buf.clear();
        buf.extend(outer.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &h)| h));
        buf.push(top);
        streams.push((ranker.rank(buf) as usize, outer[i]));
    }
}
