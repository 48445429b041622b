//! Source rows: the rows a row's positions reach by moving a prefix heap.
//!
//! A move on a prefix heap lands in the row of the prefix with that heap lowered, in the
//! same column, so "some option on a prefix heap is P" is an OR of whole source rows.

use crate::engine::tuples::labelling::Scratch;
use crate::engine::TupleEngine;
use crate::model::canonical::CanonicalRanker;

/// Full mode, any move rule: the starts of the rows reached by moving one prefix heap.
pub(crate) fn general_sources_full(e: &TupleEngine<'_>, scratch: &mut Scratch, row: u64) {
    let r = e.layout.space().radix();
    scratch.sources.clear();
    scratch.preload.clear();
    // Lowering heap i by d moves the mixed-radix index down by d * r^(k-1-i), and a row
    // of full mode starts at its index times r.
    let mut stride = r;
    let start = row * r;
    for i in (0..e.layout.prefix_len()).rev() {
        let h = scratch.prefix[i];
        for &o in e.options.of(h as usize) {
            scratch.sources.push((start - u64::from(h - o) * stride) as usize);
        }
        stride *= r;
    }
}

/// Positions of the last copy of each value of a sorted tuple: lowering any copy of a
/// value gives the same sorted tuple, so one copy stands for all.
pub(crate) fn distinct_values(sorted: &[u32]) -> impl Iterator<Item = usize> + '_ {
    (0..sorted.len()).filter(|&i| i + 1 == sorted.len() || sorted[i] != sorted[i + 1])
}

/// The start in a packed table (`tuples/label_table.rs`) of the row of the sorted prefix
/// `sorted` with element `i` replaced by the smaller `value`, re-sorted: the rank of its
/// first sorted tuple (the prefix and its largest value again) minus that value.
pub(crate) fn replaced_start(
    tuples: &CanonicalRanker,
    sorted: &[u32],
    i: usize,
    value: u32,
    buf: &mut Vec<u32>,
) -> usize {
    buf.clear();
    buf.extend_from_slice(sorted);
    buf[i] = value;
    // `value` is smaller than its neighbours on the right only: bubble it left.
    let mut j = i;
    while j > 0 && buf[j - 1] > buf[j] {
        buf.swap(j - 1, j);
        j -= 1;
    }
    let lo = buf.last().copied().unwrap_or(0);
    buf.push(lo);
    (tuples.rank(buf) - u64::from(lo)) as usize
}
