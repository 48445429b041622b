//! One heap's value by the rare/common mex: exact for any mask, fast when rare heaps are
//! few.
//!
//! Call a value `v` *rare* when `popcount(v & mask)` is even, *common* otherwise. Rare
//! values are a subgroup under XOR and common values its other coset, so a split's value
//! `G(a) ^ G(b)` is common exactly when one part is rare. Per heap `n`:
//! 1. mark the values of the one-heap options and of every split with a rare part
//!    (through the short list of rare heaps);
//! 2. `c` = the least common value not marked; if every rare value below `c` is marked,
//!    `G(n) = c` (a common value can only come from a split with a rare part);
//! 3. otherwise search the other splits until every rare value below `c` is seen
//!    (`G(n) = c`), or to the end (`G(n)` = the least rare value still missing).
//!
//! Every branch computes the mex of the whole option set; the mask, the witness list and
//! the order of the search only decide the speed. Marks are bytes of a row (a store per
//! mark, no read-modify-write), packed into a bitset once per heap.

use crate::sequence::engine::ring::Ring;
use crate::sequence::engine::witness::coprime_stride;
use crate::sequence::engine::{Engine, MarkList, Moves, Recorded, ROW, SAMPLE};
use crate::sequence::error::SequenceError;
use crate::sequence::values::cell::{Cell, SharedCell};
use crate::sequence::values::store::Store;

/// Consecutive smaller parts a block scan probes before jumping elsewhere.
const SCAN_BLOCK: u64 = 64;
/// Splits whose values are looked up together before any is checked one by one.
const CHUNK: usize = 64;
/// Bit words of a heap's marks (values below 2 h; up to 2^16 values here, more by
/// `Vec` for the rare games with larger values).
pub(crate) type Words = Vec<u64>;

/// Packs bytes that are 0 or 1 into bits: byte `i` of `x` becomes bit `i`.
#[inline]
fn pack8(x: u64) -> u64 {
    x.wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// Bit words of the first `width` bytes of `row` (bytes 0 or 1).
#[inline]
pub(crate) fn pack_row(row: &[u8], width: usize, words: &mut Words) {
    words.clear();
    for chunk in row[..width.max(64)].chunks_exact(64).take(width.div_ceil(64)) {
        let mut word = 0u64;
        for (b, bytes) in chunk.chunks_exact(8).enumerate() {
            let x = u64::from_le_bytes(bytes.try_into().expect("eight bytes"));
            word |= pack8(x) << (8 * b);
        }
        words.push(word);
    }
}

/// The bits of word `w` that stand for values below `width`.
#[inline]
fn valid_bits(w: usize, width: usize) -> u64 {
    if (w + 1) * 64 <= width {
        u64::MAX
    } else {
        (1u64 << (width % 64)) - 1
    }
}

/// Marks into `row` (at least [`ROW`] bytes, or `2 h`) the values of every split
/// `(a, rest - a)` of heap `n` with `a` among `parts` (the heaps, ascending, and their ring
/// offsets; values `values`): those with `a < rest`, and for unequal splits not
/// `a = rest - a`. Partners come from `ring`.
#[inline]
pub(crate) fn mark_parts<C: Cell>(
    row: &mut [u8],
    n: u64,
    moves: &Moves,
    ring: &Ring<C>,
    parts: (&[u32], &[u32]),
    values: &[C],
) {
    let (parts, offsets) = parts;
    for &k in &moves.split {
        if k + 2 > n {
            break;
        }
        let rest = n - k;
        let end = if parts.last().is_some_and(|&last| u64::from(last) >= rest) {
            parts.partition_point(|&x| u64::from(x) < rest)
        } else {
            parts.len()
        };
        let (parts, offsets, values) = (&parts[..end], &offsets[..end], &values[..end]);
        if moves.unequal && rest.is_multiple_of(2) {
            for (&a, &g) in parts.iter().zip(values) {
                if 2 * u64::from(a) != rest {
                    row[(g.value() ^ ring.get(rest - u64::from(a)).value()) as usize] = 1;
                }
            }
        } else if C::MAX <= 0xFFFF {
            let row: &mut [u8; ROW] = (&mut row[..ROW]).try_into().expect("a row of ROW slots");
            mark_narrow(row, rest, ring, offsets, values);
        } else {
            for (&a, &g) in parts.iter().zip(values) {
                row[(g.value() ^ ring.get(rest - u64::from(a)).value()) as usize] = 1;
            }
        }
    }
}

/// The marking loop for cells of at most two bytes, four parts at a time: the four
/// indices are computed before the four stores. A part's partner is in ring cell
/// `(rest + off) & (capacity - 1)` (one addition); masking by the ring's length (a power
/// of two) and the row index by the row's size (a no-op: every XOR fits) lets every access
/// go unchecked.
#[inline]
fn mark_narrow<C: Cell>(
    row: &mut [u8; ROW],
    rest: u64,
    ring: &Ring<C>,
    offsets: &[u32],
    values: &[C],
) {
    let (cells, last) = ring.masked_cells();
    let rest = rest as usize;
    let partner = |off: u32| cells[rest.wrapping_add(off as usize) & last].load().value();
    let mut chunks = offsets.chunks_exact(4).zip(values.chunks_exact(4));
    for (o4, g4) in &mut chunks {
        let i0 = (g4[0].value() ^ partner(o4[0])) as usize;
        let i1 = (g4[1].value() ^ partner(o4[1])) as usize;
        let i2 = (g4[2].value() ^ partner(o4[2])) as usize;
        let i3 = (g4[3].value() ^ partner(o4[3])) as usize;
        row[i0 & (ROW - 1)] = 1;
        row[i1 & (ROW - 1)] = 1;
        row[i2 & (ROW - 1)] = 1;
        row[i3 & (ROW - 1)] = 1;
    }
    let done = offsets.len() / 4 * 4;
    for (&off, &g) in offsets[done..].iter().zip(&values[done..]) {
        row[(g.value() ^ partner(off)) as usize & (ROW - 1)] = 1;
    }
}

impl<C: Cell> Engine<C> {
    /// Heaps up to `end` (exclusive) with the mark list `list`; `premarked(n, bits)` puts
    /// into `bits` heap `n`'s bits from another thread, if there are any, and gives the
    /// parts of the list left to this one (sampled heaps ignore them); stops early after a
    /// value that asks the run for more.
    ///
    /// # Errors
    /// A store's read or write error.
    pub(crate) fn heaps_until(
        &mut self,
        end: u64,
        store: &mut Store,
        list: &MarkList<C>,
        mut premarked: impl FnMut(u64, &mut Words) -> Option<usize>,
        words: &mut Words,
    ) -> Result<Recorded, SequenceError> {
        let mut bits = Words::new();
        while self.len < end {
            let split = premarked(self.len, &mut bits);
            let value =
                self.heap_value(store, list, split.map(|split| (split, &bits[..])), words)?;
            let recorded = self.record(value, store)?;
            if recorded != Recorded::Steady {
                return Ok(recorded);
            }
        }
        Ok(Recorded::Steady)
    }

    /// `G(n)` for `n = len`. A sampled heap (one in [`SAMPLE`]) marks its rare parts and
    /// checks every witness one by one, scoring them; any other marks `list` (all of it,
    /// or its first `split` parts when another thread marked the rest into `premarked`),
    /// the rare parts found since the list was made and the deep parts, then checks the
    /// witnesses after those the list marked.
    ///
    /// # Errors
    /// A disk store's read error.
    pub(crate) fn heap_value(
        &mut self,
        store: &mut Store,
        list: &MarkList<C>,
        premarked: Option<(usize, &[u64])>,
        words: &mut Words,
    ) -> Result<u32, SequenceError> {
        let n = self.len;
        let width = self.width();
        let sampled = n.is_multiple_of(SAMPLE);
        let mut row = std::mem::take(&mut self.row);
        row[..width.max(64)].fill(0);
        if self.moves.vanish.binary_search(&n).is_ok() {
            row[0] = 1;
        }
        for &k in &self.moves.shrink {
            if k >= n {
                break;
            }
            row[self.ring.get(n - k).value() as usize] = 1;
        }
        if sampled {
            let parts = (&self.parts.a[..], &self.parts.off[..]);
            mark_parts(&mut row, n, &self.moves, &self.ring, parts, &self.parts.g);
        } else {
            let split = premarked.map_or(list.a.len(), |(split, _)| split);
            let parts = (&list.a[..split], &list.off[..split]);
            mark_parts(&mut row, n, &self.moves, &self.ring, parts, &list.g[..split]);
            let late = list.late_from.min(self.parts.a.len());
            let parts = (&self.parts.a[late..], &self.parts.off[late..]);
            mark_parts(&mut row, n, &self.moves, &self.ring, parts, &self.parts.g[late..]);
        }
        let deep = self.mark_deep_parts(&mut row, n, store);
        self.row = row;
        deep?;
        pack_row(&self.row, width, words);
        match premarked {
            Some((_, bits)) if !sampled => {
                for (word, extra) in words.iter_mut().zip(bits) {
                    *word |= extra;
                }
            }
            _ => {}
        }
        let first_probe = if sampled { 0 } else { list.witnesses };
        self.finish_mex(n, width, words, first_probe, store)
    }

    /// Marks the splits whose rare part is beyond the ring's reach.
    fn mark_deep_parts(
        &self,
        row: &mut [u8],
        n: u64,
        store: &mut Store,
    ) -> Result<(), SequenceError> {
        for &k in &self.moves.split {
            if k + 2 > n {
                break;
            }
            let rest = n - k;
            for &(a, g) in &self.parts.deep {
                if a >= rest {
                    break;
                }
                if !(self.moves.unequal && 2 * a == rest) {
                    row[(g ^ self.value_at(rest - a, store)?) as usize] = 1;
                }
            }
        }
        Ok(())
    }

    /// Steps 2 and 3 from the marks' bits.
    fn finish_mex(
        &mut self,
        n: u64,
        width: usize,
        seen: &[u64],
        first_probe: usize,
        store: &mut Store,
    ) -> Result<u32, SequenceError> {
        let mut count = 0u32;
        for (w, &word) in seen.iter().enumerate() {
            let unseen = !word & valid_bits(w, width);
            let common = unseen & !self.rare_bits[w];
            let below = if common != 0 { (1u64 << common.trailing_zeros()) - 1 } else { u64::MAX };
            count += (unseen & self.rare_bits[w] & below).count_ones();
            if common != 0 {
                let candidate = 64 * w as u32 + common.trailing_zeros();
                if count == 0 {
                    return Ok(candidate);
                }
                let missing: Vec<u64> = (0..=w)
                    .map(|x| {
                        let unseen = !seen[x] & valid_bits(x, width) & self.rare_bits[x];
                        if x == w {
                            unseen & below
                        } else {
                            unseen
                        }
                    })
                    .collect();
                return self.search_rare(n, candidate, &missing, count, first_probe, store);
            }
        }
        // A mask with a common value below the width (what a run chooses, and what a
        // resumed checkpoint is checked for) never gets here.
        Err(SequenceError::Inconsistent {
            heap: n,
            reason: format!("the mask {} leaves no common value below {width}", self.mask),
        })
    }

    /// Step 3: the splits with no rare part are searched for the rare values below
    /// `candidate` not marked yet (`missing_bits`, `count` of them).
    fn search_rare(
        &mut self,
        n: u64,
        candidate: u32,
        missing_bits: &[u64],
        mut count: u32,
        first_probe: usize,
        store: &mut Store,
    ) -> Result<u32, SequenceError> {
        for (w, &bits) in missing_bits.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                self.missing[64 * w + bits.trailing_zeros() as usize] = 1;
                bits &= bits - 1;
            }
        }
        let rests: Vec<u64> =
            self.moves.split.iter().take_while(|&&k| k + 2 <= n).map(|&k| n - k).collect();
        let sampled = first_probe == 0 && n.is_multiple_of(SAMPLE);
        let found = self.probe_witnesses(&rests, &mut count, first_probe, sampled)
            || self.scan_blocks(&rests, &mut count, store)?;
        let value = if found {
            candidate
        } else {
            (0..candidate).find(|&v| self.missing[v as usize] != 0).unwrap_or(candidate)
        };
        self.missing[..candidate as usize].fill(0);
        Ok(value)
    }

    /// Checks the split `(rest - a, a)` of values `ga ^ gb`; true once nothing is missing.
    #[inline]
    fn check(&mut self, a: u64, rest: u64, value: u32, count: &mut u32) -> bool {
        let v = value as usize;
        if v < self.missing.len() && self.missing[v] != 0 && !(self.moves.unequal && 2 * a == rest)
        {
            self.missing[v] = 0;
            self.witnesses.credit(a);
            *count -= 1;
            return *count == 0;
        }
        false
    }

    /// Probes the splits whose smaller part is on the witness list, from `first` on, in
    /// chunks: a chunk's values are looked up in the missing table branch-free, and only a
    /// chunk that holds a missing value is checked one by one. A sampled heap records how
    /// many probes it needed.
    fn probe_witnesses(
        &mut self,
        rests: &[u64],
        count: &mut u32,
        first: usize,
        sampled: bool,
    ) -> bool {
        let mut values = [0u32; CHUNK];
        for rest in rests.iter().copied() {
            let mut start = first;
            while start < self.probes.len() {
                let end = (start + CHUNK).min(self.probes.len());
                let (cells, last) = self.ring.masked_cells();
                for (slot, &(a, ga)) in values.iter_mut().zip(&self.probes[start..end]) {
                    let a = u64::from(a).min(rest);
                    *slot = ga ^ cells[(rest - a) as usize & last].load().value();
                }
                if self.any_missing(&values[..end - start]) {
                    for i in start..end {
                        let a = u64::from(self.probes[i].0);
                        if a <= rest / 2 && self.check(a, rest, values[i - start], count) {
                            if sampled {
                                self.witnesses.record_need(Some(i + 1));
                            }
                            return true;
                        }
                    }
                }
                start = end;
            }
        }
        if sampled {
            self.witnesses.record_need(None);
        }
        false
    }

    /// Whether some value of `values` is marked missing (branch-free: one OR a value).
    #[inline]
    fn any_missing(&self, values: &[u32]) -> bool {
        let last = self.missing.len() - 1;
        values.iter().fold(0u8, |hit, &v| hit | self.missing[(v as usize).min(last)]) != 0
    }

    /// Scans the splits by blocks of smaller parts, alternately bottom-up (the irregular
    /// small heaps) and spread out; complete whatever the order, since the bottom-up sweep
    /// alone covers every block. A block is checked one by one only if it holds a missing
    /// value.
    fn scan_blocks(
        &mut self,
        rests: &[u64],
        count: &mut u32,
        store: &mut Store,
    ) -> Result<bool, SequenceError> {
        let blocks = rests.iter().map(|&rest| (rest / 2).div_ceil(SCAN_BLOCK)).max().unwrap_or(0);
        let stride = coprime_stride(blocks);
        let (mut bottom, mut probe) = (0u64, 0u64);
        let (mut small, mut large, mut values) = ([0u32; CHUNK], [0u32; CHUNK], [0u32; CHUNK]);
        while bottom < blocks {
            let block = if probe <= bottom {
                bottom += 1;
                bottom - 1
            } else {
                ((u128::from(blocks) - 1 + u128::from(probe) * u128::from(stride))
                    % u128::from(blocks)) as u64
            };
            probe += 1;
            let first = 1 + block * SCAN_BLOCK;
            for &rest in rests {
                let last = (first + SCAN_BLOCK - 1).min(rest / 2);
                if last < first {
                    continue;
                }
                let len = (last - first + 1) as usize;
                self.values_from(first, &mut small[..len], store)?;
                self.values_from(rest - last, &mut large[..len], store)?;
                for i in 0..len {
                    values[i] = small[i] ^ large[len - 1 - i];
                }
                if !self.any_missing(&values[..len]) {
                    continue;
                }
                for (i, &value) in values[..len].iter().enumerate() {
                    if self.check(first + i as u64, rest, value, count) {
                        return Ok(true);
                    }
                }
            }
        }
        Ok(false)
    }
}
