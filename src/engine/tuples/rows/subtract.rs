//! Rows of subtraction games whose every element is at most 64: a 64-bit history.

use crate::engine::bits::valid_columns;

/// The mask of a subtraction set within `max`, if every element used is at most 64: bit
/// `s - 1` for each `s`.
pub(crate) fn history_mask(set: &[u32], max: u32) -> Option<u64> {
    let used: Vec<u32> = set.iter().copied().filter(|&s| s <= max).collect();
    used.iter().all(|&s| s <= 64).then(|| used.iter().fold(0u64, |m, &s| m | 1 << (s - 1)))
}

/// Subtraction row: a 64-bit history of the last labels (bit j = column h-1-j) ANDed with
/// the subtraction mask tells whether column h has an in-row P option. Columns blocked
/// from outside are N whatever the history says, so only the free columns are visited;
/// the history shifts over the skipped ones (their labels are 0).
pub(crate) fn solve_subtract_row(mask: u64, lo: usize, r: usize, blocked: &[u64], row: &mut [u64]) {
    // History of the columns below `next`, preloaded from the row below `lo`.
    let mut history = 0u64;
    for back in 0..lo.min(64) {
        let column = lo - 1 - back;
        history |= (row[column / 64] >> (column % 64) & 1) << back;
    }
    let mut next = lo;
    for (i, &b) in blocked.iter().enumerate().skip(lo / 64) {
        let mut free = !b & valid_columns(i, lo, r);
        let mut out = 0u64;
        while free != 0 {
            let bit = free.trailing_zeros() as usize;
            free &= free - 1;
            let h = i * 64 + bit;
            let gap = h - next;
            history = if gap >= 64 { 0 } else { history << gap };
            let p = u64::from(history & mask == 0);
            history = history << 1 | p;
            out |= p << bit;
            next = h + 1;
        }
        row[i] |= out;
    }
}
