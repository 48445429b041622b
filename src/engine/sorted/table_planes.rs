//! Canonical table rows (subtraction sets, option lists) by sorted planes.
//!
//! As for Nim (`sorted/planes.rs`), the rows `(O, hk)` of one sorted outer prefix `O` run
//! together, `hk` rising from `max(O)`. Lowering a value `o` of `O` to `o'` reaches the
//! row `(O with o lowered to o', re-sorted, hk)`: its prefix is sorted as written, so the
//! rows of successive `hk` follow each other in the table, and these *streams* are ranked
//! once per plane and read in sequence. Lowering `hk` to `h` (and preloading the columns below it) reaches the row
//! of `O` and `h` re-sorted: for `h >= max(O)` an earlier row of the same plane, by
//! arithmetic; below it a row of an earlier plane, ranked directly (for a subtraction
//! set, only in the plane's first few rows).
//!
//! Planes run in layers of equal outer sum; every row a plane reads is its own earlier
//! row or belongs to a plane of smaller outer sum (`tuples/shared_rows.rs`).

use crate::engine::tuples::labelling::{Labelling, Scratch};
use crate::engine::tuples::planes::PlaneJob;
use crate::engine::tuples::sources::{distinct_values, replaced_start};
use crate::engine::visitor::RowVisitor;
use crate::engine::TupleEngine;
use crate::model::canonical::CanonicalRanker;

impl Labelling<'_, '_, '_> {
    /// Labels the sorted plane of the job's `outer` on every track; returns the positions
    /// labelled.
    pub(crate) fn sorted_table_plane<V: RowVisitor>(&self, job: PlaneJob<'_, V, Scratch>) -> u64 {
        let PlaneJob { outer, scratch, visitor, acc } = job;
        let e = self.engine;
        let tuples = e.layout.tuple_ranker().expect("a canonical layout");
        let max = e.layout.space().max();
        let top = outer.last().copied().unwrap_or(0);
        scratch.prefix.clear();
        scratch.prefix.extend_from_slice(outer);
        scratch.prefix.push(top);
        let mut first_index = e.layout.sorted_first_index(&scratch.prefix, &mut scratch.other);
        let plane_start = (first_index - u64::from(top)) as usize;
        plane_streams(e, tuples, outer, scratch);
        let mut done = 0;
        for hk in top..=max {
            *scratch.prefix.last_mut().expect("a prefix heap") = hk;
            let start = (first_index - u64::from(hk)) as usize;
            self.block_forced(scratch, start, hk);
            row_sources(e, tuples, plane_start, scratch);
            self.solve_table_row(scratch, e.kind, hk);
            done += self.finish_row(scratch, visitor, acc, hk, first_index);
            // The row of `hk` holds the sorted tuples `(O, hk, h)` for `h` in `hk..=M`.
            first_index += u64::from(max - hk) + 1;
        }
        done
    }
}

/// How far the start of the row `(X, hk)` lies past that of `(X, top)` in a packed table,
/// for a sorted `X` whose values are at most `top`: the rows in between are consecutive
/// sorted prefixes, the row of `j` holding `M + 1 - j` tuples from column `j`, so each
/// step from `j` to `j + 1` moves the start by `M - j`.
fn plane_offset(top: u32, hk: u32, max: u32) -> usize {
    let steps = u64::from(hk - top);
    // The sum of `max - j` for `j` in `top..hk`.
    (steps * u64::from(max) - (u64::from(top) * steps + steps * steps.saturating_sub(1) / 2))
        as usize
}

/// The streams of the plane whose first row's prefix is `scratch.prefix` (`outer` and its
/// largest value): per distinct value `o` of `outer` (its last copy stands for all) and
/// option `o'` of `o`, the start of the row `(outer with o lowered to o', re-sorted,
/// max(outer))`.
fn plane_streams(
    e: &TupleEngine<'_>,
    tuples: &CanonicalRanker,
    outer: &[u32],
    scratch: &mut Scratch,
) {
    let Scratch { prefix, other, streams, .. } = scratch;
    streams.clear();
    for i in distinct_values(outer) {
        for &lowered in e.options.of(outer[i] as usize) {
            streams.push((replaced_start(tuples, prefix, i, lowered, other), outer[i]));
        }
    }
}

/// The source rows and preloaded columns of the row `(outer, hk)` in `scratch.prefix`,
/// in the plane whose first row starts at `plane_start`.
fn row_sources(
    e: &TupleEngine<'_>,
    tuples: &CanonicalRanker,
    plane_start: usize,
    scratch: &mut Scratch,
) {
    let Scratch { prefix, other, streams, sources, preload, .. } = scratch;
    let k = prefix.len();
    let (hk, max) = (prefix[k - 1], e.layout.space().max());
    let top = if k >= 2 { prefix[k - 2] } else { 0 };
    let step = plane_offset(top, hk, max);
    sources.clear();
    preload.clear();
    // With `hk = max(outer)`, lowering that value in `outer` is lowering `hk`, below.
    sources.extend(streams.iter().filter(|&&(_, o)| o != hk).map(|&(start, _)| start + step));
    let lowered_row = |h: u32, other: &mut Vec<u32>| {
        if h >= top {
            plane_start + plane_offset(top, h, max)
        } else {
            replaced_start(tuples, prefix, k - 1, h, other)
        }
    };
    for &h in e.options.of(hk as usize) {
        sources.push(lowered_row(h, other));
    }
    // Column `h` below `hk` holds the label of `(outer, h, hk)`, in the row of `outer`
    // and `h` at column `hk`: the last heap dropping under the prefix's largest.
    for h in e.reach_below[hk as usize]..hk {
        preload.push((h, lowered_row(h, other)));
    }
}
