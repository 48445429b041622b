//! Source rows: the rows a row's positions reach by moving a prefix heap.
//!
//! A move on a prefix heap lands in the row of the prefix with that heap lowered, in the
//! same column, so "some option on a prefix heap is P" is an OR of whole source rows.

use crate::engine::pass::Scratch;
use crate::engine::Engine;
use crate::model::canonical::CanonicalRanker;

/// Full mode, any move rule: the rows reached by moving one prefix heap.
pub(crate) fn general_sources_full(e: &Engine<'_>, scratch: &mut Scratch, row: u64) {
    let r = e.layout.space().radix();
    scratch.sources.clear();
    scratch.preload.clear();
    // Lowering heap i by d moves the mixed-radix index down by d * r^(k-1-i).
    let mut stride = 1u64;
    for i in (0..e.layout.prefix_len()).rev() {
        let h = scratch.prefix[i];
        for &o in e.options.of(h as usize) {
            scratch.sources.push((row - u64::from(h - o) * stride) as usize);
        }
        stride *= r;
    }
}

/// Canonical mode, any move rule: the rows reached by moving one prefix heap (re-sorted),
/// and the columns below the largest prefix heap `m` to preload: column `h` holds the
/// label of `(prefix - m + h, m)`, reached by moving the last heap under `m`.
pub(crate) fn general_sources_canonical(e: &Engine<'_>, scratch: &mut Scratch) {
    let ranker = e.layout.prefix_ranker().expect("canonical layout has a ranker");
    let k = e.layout.prefix_len();
    scratch.sources.clear();
    scratch.preload.clear();
    if k == 0 {
        return;
    }
    for i in distinct_values(&scratch.prefix) {
        for &o in e.options.of(scratch.prefix[i] as usize) {
            let slot = replaced_rank(ranker, &scratch.prefix, i, o, &mut scratch.other);
            scratch.sources.push(slot);
        }
    }
    let m = scratch.prefix[k - 1];
    for h in e.reach_below[m as usize]..m {
        let slot = replaced_rank(ranker, &scratch.prefix, k - 1, h, &mut scratch.other);
        scratch.preload.push((h, slot));
    }
}

/// Positions of the last copy of each value of a sorted tuple: lowering any copy of a
/// value gives the same sorted tuple, so one copy stands for all.
fn distinct_values(sorted: &[u32]) -> impl Iterator<Item = usize> + '_ {
    (0..sorted.len()).filter(|&i| i + 1 == sorted.len() || sorted[i] != sorted[i + 1])
}

/// Rank of `sorted` with element `i` replaced by the smaller `value`, re-sorted.
fn replaced_rank(
    ranker: &CanonicalRanker,
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
    ranker.rank(buf) as usize
}
