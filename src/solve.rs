//! The retrograde DP engine: labels every position P or N, row by row, layer by layer.
//!
//! A *row* is every position sharing the first `n - 1` heaps (the *prefix*); its bits are
//! indexed by the last heap `hN`, padded to whole 64-bit words. Rows are processed in
//! *layers* of equal prefix sum: a move on a prefix heap lowers that sum, so all options of
//! a row lie in earlier layers or in the row itself, and the rows of one layer are
//! independent (rayon runs them in parallel). Within a row, moves on the last heap are
//! resolved left to right.
//!
//! Only the move rule produces the labels: a position is P iff it is not forced N by the
//! rule and no option is P. No criterion is consulted.

use bitvec::prelude::*;
use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::game::{Game, MoveRule};
use crate::rules::Rule;
use crate::space::{for_each_composition, for_each_sorted, multisets, CanonicalRanker, Space};

/// Receives progress from long work, in positions labelled; called between layers.
pub trait Progress: Sync {
    /// `positions` more positions are done.
    fn advance(&self, positions: u64);
}

/// A progress sink that ignores everything.
pub struct NoProgress;

impl Progress for NoProgress {
    fn advance(&self, _positions: u64) {}
}

/// One finished row, as handed to a [`RowVisitor`].
pub struct RowView<'a> {
    /// The first `n - 1` heaps (sorted in canonical mode).
    pub prefix: &'a [u32],
    /// The first last-heap value of the row: 0, or the prefix's largest heap in canonical mode.
    pub lo: u32,
    /// P-bits of the row: bit `hN` is set iff `(prefix, hN)` is P. Bits below `lo` are clear.
    pub bits: &'a [u64],
    /// Index of the position `(prefix, lo)`: mixed-radix, or canonical rank in canonical mode.
    /// Position `(prefix, h)` has index `first_index + (h - lo)`.
    pub first_index: u64,
}

/// Streams over the rows as they are labelled, with one accumulator per parallel task.
///
/// Rows arrive in no fixed order; `merge` must be associative for the result to be
/// deterministic (sums, and "the K smallest indices", are).
pub trait RowVisitor: Sync {
    /// Per-task accumulated state.
    type Acc: Send;
    /// A fresh, empty accumulator.
    fn start(&self) -> Self::Acc;
    /// Folds one finished row into `acc`.
    fn visit(&self, acc: &mut Self::Acc, row: &RowView<'_>);
    /// Combines two accumulators.
    fn merge(&self, left: Self::Acc, right: Self::Acc) -> Self::Acc;
}

impl RowVisitor for () {
    type Acc = ();
    fn start(&self) {}
    fn visit(&self, _acc: &mut (), _row: &RowView<'_>) {}
    fn merge(&self, _left: (), _right: ()) {}
}

/// The labels of every position of a space under one rule: one bit per position (P = 1).
pub struct Labels {
    space: Space,
    rule: Rule,
    canonical: bool,
    words_per_row: usize,
    prefix_ranker: Option<CanonicalRanker>,
    bits: BitVec<u64, Lsb0>,
}

impl Labels {
    /// The space labelled.
    pub fn space(&self) -> Space {
        self.space
    }

    /// The rule the labels are for.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// Whether only sorted tuples were labelled.
    pub fn is_canonical(&self) -> bool {
        self.canonical
    }

    /// Whether the position is P. In canonical tables the tuple may be in any order.
    ///
    /// # Panics
    /// If the tuple has the wrong length or a heap above the space's max.
    pub fn is_p(&self, tuple: &[u32]) -> bool {
        assert_eq!(tuple.len(), self.space.heaps(), "tuple length must equal the heap count");
        assert!(tuple.iter().all(|&h| h <= self.space.max()), "heap above the space's max");
        let mut sorted;
        let tuple = if self.canonical {
            sorted = tuple.to_vec();
            sorted.sort_unstable();
            &sorted[..]
        } else {
            tuple
        };
        let (prefix, last) = tuple.split_at(tuple.len() - 1);
        self.row(prefix)[last[0] as usize]
    }

    /// The `M + 1` bits of the row with this prefix (sorted, in canonical tables).
    pub fn row(&self, prefix: &[u32]) -> &BitSlice<u64, Lsb0> {
        let row = match &self.prefix_ranker {
            Some(ranker) => ranker.rank(prefix),
            None => prefix.iter().fold(0u64, |acc, &h| acc * self.space.radix() + u64::from(h)),
        };
        let start = row as usize * self.words_per_row * 64;
        &self.bits[start..start + self.space.radix() as usize]
    }
}

/// How a row is solved along its last heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RowKind {
    /// Options are all smaller sizes: a row holds at most one P, the first free column.
    Nim,
    /// Options are `h - s` with every `s <= 64`: bit `s - 1` of the mask for each `s`.
    Subtract(u64),
    /// Options read from explicit lists.
    General,
}

/// Labels the positions of one space of one game, in full or canonical mode.
pub struct Engine<'g> {
    game: &'g Game,
    space: Space,
    canonical: bool,
    options: Vec<Vec<u32>>,
    kind: RowKind,
    /// Heaps in a prefix: `n - 1`.
    k: usize,
    words_per_row: usize,
    /// Rows in the table: `(M+1)^k`, or `C(M+k, k)` in canonical mode.
    rows: u64,
    /// Canonical mode: ranks sorted prefixes (length k) and sorted tuples (length n).
    prefix_ranker: Option<CanonicalRanker>,
    tuple_ranker: Option<CanonicalRanker>,
    /// Canonical Nim: ranks a prefix with one heap removed (length k - 1).
    short_ranker: Option<CanonicalRanker>,
    /// Canonical general games: `reach_below[m]` is the least size below `m` that some heap
    /// of size `>= m` can move to (`m` if none); it bounds the columns to preload.
    reach_below: Vec<u32>,
}

/// Bytes used by the tables of one run, as planned before allocating.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryPlan {
    /// Bytes of one full label table (one rule).
    pub table_bytes: u64,
    /// Bytes of working state besides the tables kept.
    pub working_bytes: u64,
    /// Whether labelling needs a whole table as working state (general move rules).
    pub needs_table: bool,
}

impl MemoryPlan {
    /// Total bytes when `kept` tables are kept for output.
    pub fn total(&self, kept: usize) -> u64 {
        let tables = if self.needs_table { kept.max(1) } else { kept };
        self.working_bytes.saturating_add(self.table_bytes.saturating_mul(tables as u64))
    }
}

const GIB: f64 = (1u64 << 30) as f64;

impl<'g> Engine<'g> {
    /// Prepares the option lists and the row layout for a space.
    pub fn new(game: &'g Game, space: Space, canonical: bool) -> Engine<'g> {
        let max = space.max();
        let options = game.option_table(max);
        let kind = row_kind(game, &options, max);
        let k = space.heaps() - 1;
        let r = space.radix();
        let words_per_row = (r as usize).div_ceil(64);
        let rows = if canonical { multisets(max, k) } else { r.saturating_pow(k as u32) };
        let (prefix_ranker, tuple_ranker, short_ranker) = if canonical {
            let short = (kind == RowKind::Nim && k >= 1).then(|| CanonicalRanker::new(max, k - 1));
            (Some(CanonicalRanker::new(max, k)), Some(CanonicalRanker::new(max, k + 1)), short)
        } else {
            (None, None, None)
        };
        let mut reach_below = vec![0u32; r as usize + 1];
        if canonical && kind != RowKind::Nim {
            let mut least = u32::MAX;
            reach_below[r as usize] = max + 1;
            for m in (0..=max).rev() {
                least = least.min(options[m as usize].first().copied().unwrap_or(u32::MAX));
                reach_below[m as usize] = least.min(m);
            }
        }
        Engine {
            game,
            space,
            canonical,
            options,
            kind,
            k,
            words_per_row,
            rows,
            prefix_ranker,
            tuple_ranker,
            short_ranker,
            reach_below,
        }
    }

    /// The space labelled.
    pub fn space(&self) -> Space {
        self.space
    }

    /// Whether only sorted tuples are labelled.
    pub fn is_canonical(&self) -> bool {
        self.canonical
    }

    /// Whether rows are solved by the Nim fast path (at most one P per row).
    pub fn uses_nim_path(&self) -> bool {
        self.kind == RowKind::Nim
    }

    /// Memory the tables need, before anything is allocated.
    pub fn memory_plan(&self) -> MemoryPlan {
        let row_bytes = self.words_per_row as u64 * 8;
        let table_bytes = self.rows.saturating_mul(row_bytes);
        let (working_bytes, needs_table) = match self.kind {
            RowKind::Nim => (self.accumulator_rows().saturating_mul(row_bytes), false),
            _ => (0, true),
        };
        MemoryPlan { table_bytes, working_bytes, needs_table }
    }

    /// Refuses the run if `kept` tables plus working state exceed `limit` bytes.
    pub fn check_memory(&self, kept: usize, limit: u64) -> Result<()> {
        let need = self.memory_plan().total(kept);
        if need <= limit {
            return Ok(());
        }
        let hint = if self.canonical || self.space.heaps() < 3 {
            String::new()
        } else {
            ", or use --canonical".to_string()
        };
        Err(Error::TooLarge {
            what: format!(
                "{}, {} heaps, max {}",
                self.game.spec(),
                self.space.heaps(),
                self.space.max()
            ),
            need_gib: need as f64 / GIB,
            limit_gib: limit as f64 / GIB,
            hint,
        })
    }

    /// Rows of Nim's accumulators: per prefix heap, one row per prefix without that heap.
    fn accumulator_rows(&self) -> u64 {
        if self.k == 0 {
            return 0;
        }
        if self.canonical {
            multisets(self.space.max(), self.k - 1)
        } else {
            (self.k as u64).saturating_mul(self.space.radix().saturating_pow(self.k as u32 - 1))
        }
    }

    /// Labels every position under `rule`, streaming finished rows to `visitor`.
    ///
    /// Returns the label table if `keep` is set, and the visitor's accumulated result.
    /// Call [`Engine::check_memory`] first: this allocates the planned tables.
    pub fn run<V: RowVisitor>(
        &self,
        rule: Rule,
        keep: bool,
        visitor: &V,
        progress: &dyn Progress,
    ) -> (Option<Labels>, V::Acc) {
        let terminal = rule.terminal_sizes(self.game, self.space.max());
        let mut terminal_mask = vec![0u64; self.words_per_row];
        for (h, &t) in terminal.iter().enumerate() {
            if t {
                terminal_mask[h / 64] |= 1 << (h % 64);
            }
        }
        let table_words = if keep || self.kind != RowKind::Nim {
            self.rows as usize * self.words_per_row
        } else {
            0
        };
        let acc_words = if self.kind == RowKind::Nim {
            self.accumulator_rows() as usize * self.words_per_row
        } else {
            0
        };
        let mut table = vec![0u64; table_words];
        let mut accumulators = vec![0u64; acc_words];
        let result = {
            let pass = Pass {
                engine: self,
                terminal: &terminal,
                terminal_mask: &terminal_mask,
                table: SharedRows::new(&mut table, self.words_per_row),
                accumulators: SharedRows::new(&mut accumulators, self.words_per_row),
            };
            pass.run(visitor, progress)
        };
        let labels = keep.then(|| Labels {
            space: self.space,
            rule,
            canonical: self.canonical,
            words_per_row: self.words_per_row,
            prefix_ranker: self.prefix_ranker.clone(),
            bits: BitVec::from_vec(table),
        });
        (labels, result)
    }
}

fn row_kind(game: &Game, options: &[Vec<u32>], max: u32) -> RowKind {
    let is_nim = options
        .iter()
        .enumerate()
        .all(|(h, opts)| opts.len() == h && opts.iter().enumerate().all(|(i, &o)| o as usize == i));
    if is_nim {
        return RowKind::Nim;
    }
    if let MoveRule::Subtract(set) = game.rule() {
        let used: Vec<u32> = set.iter().copied().filter(|&s| s <= max).collect();
        if used.iter().all(|&s| s <= 64) {
            return RowKind::Subtract(used.iter().fold(0u64, |m, &s| m | 1 << (s - 1)));
        }
    }
    RowKind::General
}

/// A row-major table of words that the tasks of one layer share.
///
/// Invariant that makes the unsynchronised access sound: during a layer, each row is
/// written by at most one task (the one labelling that row, or the one row whose P-bit
/// lands in that accumulator row), and rows read are either written only in earlier
/// layers (rayon's join between layers orders those writes before the reads) or are the
/// task's own row.
struct SharedRows {
    ptr: *mut u64,
    len: usize,
    words_per_row: usize,
}

// SAFETY: see the invariant on the type; the pointer outlives every pass that uses it.
unsafe impl Sync for SharedRows {}
unsafe impl Send for SharedRows {}

impl SharedRows {
    fn new(words: &mut [u64], words_per_row: usize) -> SharedRows {
        SharedRows { ptr: words.as_mut_ptr(), len: words.len(), words_per_row }
    }

    /// # Safety
    /// No task may be writing row `row` during this layer, except the caller itself.
    #[inline]
    unsafe fn row(&self, row: usize) -> &[u64] {
        let start = row * self.words_per_row;
        debug_assert!(start + self.words_per_row <= self.len);
        std::slice::from_raw_parts(self.ptr.add(start), self.words_per_row)
    }

    /// # Safety
    /// Only the caller's task touches row `row` during this layer.
    #[inline]
    #[allow(clippy::mut_from_ref)]
    unsafe fn row_mut(&self, row: usize) -> &mut [u64] {
        let start = row * self.words_per_row;
        debug_assert!(start + self.words_per_row <= self.len);
        std::slice::from_raw_parts_mut(self.ptr.add(start), self.words_per_row)
    }
}

/// One labelling pass: a rule's terminal sizes plus the tables being filled.
struct Pass<'e, 'g> {
    engine: &'e Engine<'g>,
    terminal: &'e [bool],
    terminal_mask: &'e [u64],
    table: SharedRows,
    accumulators: SharedRows,
}

/// Per-task scratch buffers, allocated once per task, never per position.
struct Scratch {
    prefix: Vec<u32>,
    other: Vec<u32>,
    blocked: Vec<u64>,
    row: Vec<u64>,
}

impl<'e, 'g> Pass<'e, 'g> {
    fn run<V: RowVisitor>(&self, visitor: &V, progress: &dyn Progress) -> V::Acc {
        let e = self.engine;
        let max = e.space.max();
        let layers = e.k as u64 * u64::from(max) + 1;
        let positions =
            if e.canonical { e.space.canonical_positions() } else { e.space.positions() };
        // Small layers are not worth rayon's fork-join overhead.
        let sequential = positions / layers < (1 << 14) || rayon::current_num_threads() == 1;
        let mut total = visitor.start();
        for sum in 0..layers {
            let (acc, done) = if e.k == 0 {
                let mut scratch = self.scratch();
                let mut acc = visitor.start();
                let done = self.row(&mut scratch, visitor, &mut acc);
                (acc, done)
            } else if sequential {
                self.first_heaps(sum).fold((visitor.start(), 0), |state, first| {
                    self.task(visitor, first, sum, state)
                })
            } else {
                self.first_heaps(sum)
                    .into_par_iter()
                    .fold(
                        || (visitor.start(), 0u64),
                        |state, first| self.task(visitor, first, sum, state),
                    )
                    .reduce(|| (visitor.start(), 0), |a, b| (visitor.merge(a.0, b.0), a.1 + b.1))
            };
            total = visitor.merge(total, acc);
            progress.advance(done);
        }
        total
    }

    /// Values of the prefix's first heap in a layer (the smallest heap, in canonical mode).
    fn first_heaps(&self, sum: u64) -> std::ops::RangeInclusive<u32> {
        let e = self.engine;
        let max = u64::from(e.space.max());
        let rest = (e.k as u64 - 1) * max;
        let lo = sum.saturating_sub(rest);
        let hi = if e.canonical { sum / e.k as u64 } else { sum }.min(max);
        if lo > hi {
            #[allow(clippy::reversed_empty_ranges)]
            return 1..=0;
        }
        lo as u32..=hi as u32
    }

    fn scratch(&self) -> Scratch {
        let e = self.engine;
        Scratch {
            prefix: vec![0; e.k],
            other: vec![0; e.k],
            blocked: vec![0; e.words_per_row],
            row: vec![0; e.words_per_row],
        }
    }

    /// Labels every row of the layer `sum` whose first heap is `first`.
    fn task<V: RowVisitor>(
        &self,
        visitor: &V,
        first: u32,
        sum: u64,
        (mut acc, mut done): (V::Acc, u64),
    ) -> (V::Acc, u64) {
        let e = self.engine;
        let mut scratch = self.scratch();
        let mut prefix = std::mem::take(&mut scratch.prefix);
        prefix[0] = first;
        let rest = sum - u64::from(first);
        let mut visit = |p: &[u32]| {
            scratch.prefix.clear();
            scratch.prefix.extend_from_slice(p);
            done += self.row(&mut scratch, visitor, &mut acc);
        };
        if e.canonical {
            for_each_sorted(&mut prefix, 1, rest, first, e.space.max(), &mut visit);
        } else {
            for_each_composition(&mut prefix, 1, rest, e.space.max(), &mut visit);
        }
        (acc, done)
    }

    /// Labels the row of `scratch.prefix`; returns the number of positions labelled.
    fn row<V: RowVisitor>(&self, scratch: &mut Scratch, visitor: &V, acc: &mut V::Acc) -> u64 {
        let e = self.engine;
        let r = e.space.radix() as usize;
        let lo = if e.canonical { scratch.prefix.last().copied().unwrap_or(0) } else { 0 };
        scratch.blocked.fill(0);
        scratch.row.fill(0);
        if scratch.prefix.iter().all(|&h| self.terminal[h as usize]) {
            or_into(&mut scratch.blocked, self.terminal_mask);
        }
        let row_index = self.row_index(&scratch.prefix);
        // SAFETY (all blocks below): rows read belong to earlier layers; the rows written
        // are this row's own table row and accumulator rows no other row of the layer owns.
        match (e.kind, e.canonical) {
            (RowKind::Nim, false) => {
                unsafe { self.nim_blocked_full(scratch) };
                solve_nim_row(lo as usize, r, false, &scratch.blocked, &mut scratch.row);
                unsafe { self.nim_record_full(scratch) };
            }
            (RowKind::Nim, true) => {
                let below = unsafe { self.nim_blocked_canonical(scratch) };
                solve_nim_row(lo as usize, r, below, &scratch.blocked, &mut scratch.row);
                unsafe { self.nim_record_canonical(scratch) };
            }
            (kind, canonical) => {
                unsafe {
                    if canonical {
                        self.general_blocked_canonical(scratch);
                    } else {
                        self.general_blocked_full(scratch, row_index);
                    }
                }
                match kind {
                    RowKind::Subtract(mask) => {
                        solve_subtract_row(mask, lo as usize, r, &scratch.blocked, &mut scratch.row)
                    }
                    _ => solve_general_row(
                        &e.options,
                        lo as usize,
                        r,
                        &scratch.blocked,
                        &mut scratch.row,
                    ),
                }
            }
        }
        clear_below(&mut scratch.row, lo as usize);
        if self.table.len > 0 {
            unsafe { self.table.row_mut(row_index as usize) }.copy_from_slice(&scratch.row);
        }
        let first_index = match &e.tuple_ranker {
            Some(ranker) => {
                scratch.other.clear();
                scratch.other.extend_from_slice(&scratch.prefix);
                scratch.other.push(lo);
                ranker.rank(&scratch.other)
            }
            None => row_index * r as u64,
        };
        let view = RowView { prefix: &scratch.prefix, lo, bits: &scratch.row, first_index };
        visitor.visit(acc, &view);
        (r - lo as usize) as u64
    }

    fn row_index(&self, prefix: &[u32]) -> u64 {
        let e = self.engine;
        match &e.prefix_ranker {
            Some(ranker) => ranker.rank(prefix),
            None => prefix.iter().fold(0u64, |acc, &h| acc * e.space.radix() + u64::from(h)),
        }
    }

    /// Accumulator row of Nim (full mode) for prefix heap `i`: the prefix without heap `i`.
    fn nim_slot_full(&self, prefix: &[u32], i: usize) -> usize {
        let e = self.engine;
        let r = e.space.radix();
        let inner = prefix
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .fold(0u64, |acc, (_, &h)| acc * r + u64::from(h));
        (i as u64 * r.pow(e.k as u32 - 1) + inner) as usize
    }

    /// Full-mode Nim: a prefix heap can drop to any smaller size, so the accumulator of the
    /// line (all P-rows with a smaller value of that heap) is exactly what blocks this row.
    unsafe fn nim_blocked_full(&self, scratch: &mut Scratch) {
        for i in 0..self.engine.k {
            let slot = self.nim_slot_full(&scratch.prefix, i);
            or_into(&mut scratch.blocked, self.accumulators.row(slot));
        }
    }

    unsafe fn nim_record_full(&self, scratch: &Scratch) {
        if let Some(column) = first_set(&scratch.row) {
            for i in 0..self.engine.k {
                let slot = self.nim_slot_full(&scratch.prefix, i);
                self.accumulators.row_mut(slot)[column / 64] |= 1 << (column % 64);
            }
        }
    }

    /// Canonical Nim: for each distinct prefix value `a`, the accumulator of the prefix
    /// without one `a` holds the P-rows of every prefix with `a` lowered. Returns whether the
    /// last heap can drop below the prefix's largest heap `m` onto a P-position, which is
    /// bit `m` of the accumulator of the prefix without `m`.
    unsafe fn nim_blocked_canonical(&self, scratch: &mut Scratch) -> bool {
        let Some(ranker) = &self.engine.short_ranker else { return false };
        let k = self.engine.k;
        let m = scratch.prefix[k - 1] as usize;
        let mut below = false;
        for i in 0..k {
            if i + 1 < k && scratch.prefix[i] == scratch.prefix[i + 1] {
                continue;
            }
            let slot = short_rank(ranker, &scratch.prefix, i, &mut scratch.other);
            let acc = self.accumulators.row(slot);
            or_into(&mut scratch.blocked, acc);
            if i == k - 1 {
                below = acc[m / 64] >> (m % 64) & 1 == 1;
            }
        }
        below
    }

    unsafe fn nim_record_canonical(&self, scratch: &mut Scratch) {
        let Some(ranker) = &self.engine.short_ranker else { return };
        let Some(column) = first_set(&scratch.row) else { return };
        let k = self.engine.k;
        for i in 0..k {
            if i + 1 < k && scratch.prefix[i] == scratch.prefix[i + 1] {
                continue;
            }
            let slot = short_rank(ranker, &scratch.prefix, i, &mut scratch.other);
            self.accumulators.row_mut(slot)[column / 64] |= 1 << (column % 64);
        }
    }

    /// Full mode, any rule: OR the rows reached by moving one prefix heap.
    unsafe fn general_blocked_full(&self, scratch: &mut Scratch, row_index: u64) {
        let e = self.engine;
        let r = e.space.radix();
        let mut stride = 1u64;
        for i in (0..e.k).rev() {
            let h = scratch.prefix[i];
            for &o in &e.options[h as usize] {
                let target = row_index - u64::from(h - o) * stride;
                or_into(&mut scratch.blocked, self.table.row(target as usize));
            }
            stride *= r;
        }
    }

    /// Canonical mode, any rule: OR the rows reached by moving one prefix heap (re-sorted),
    /// and preload, below the largest prefix heap `m`, the columns reached by moving the last
    /// heap under `m`: column `h` holds the label of `(prefix - m + h, m)`.
    unsafe fn general_blocked_canonical(&self, scratch: &mut Scratch) {
        let e = self.engine;
        let ranker = e.prefix_ranker.as_ref().expect("canonical engine has a ranker");
        let k = e.k;
        if k == 0 {
            return;
        }
        for i in 0..k {
            if i + 1 < k && scratch.prefix[i] == scratch.prefix[i + 1] {
                continue;
            }
            for &o in &e.options[scratch.prefix[i] as usize] {
                let slot = replaced_rank(ranker, &scratch.prefix, i, o, &mut scratch.other);
                or_into(&mut scratch.blocked, self.table.row(slot));
            }
        }
        let m = scratch.prefix[k - 1];
        for h in e.reach_below[m as usize]..m {
            let slot = replaced_rank(ranker, &scratch.prefix, k - 1, h, &mut scratch.other);
            let bit = self.table.row(slot)[m as usize / 64] >> (m % 64) & 1;
            scratch.row[h as usize / 64] |= bit << (h % 64);
        }
    }
}

/// Rank of `sorted` with element `i` removed, using `buf` as scratch.
fn short_rank(ranker: &CanonicalRanker, sorted: &[u32], i: usize, buf: &mut Vec<u32>) -> usize {
    buf.clear();
    buf.extend(sorted.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &h)| h));
    ranker.rank(buf) as usize
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

#[inline]
fn or_into(dst: &mut [u64], src: &[u64]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d |= *s;
    }
}

#[inline]
fn first_set(words: &[u64]) -> Option<usize> {
    words.iter().position(|&w| w != 0).map(|i| i * 64 + words[i].trailing_zeros() as usize)
}

fn clear_below(row: &mut [u64], lo: usize) {
    for (i, word) in row.iter_mut().enumerate() {
        let start = i * 64;
        if start + 64 <= lo {
            *word = 0;
        } else if start < lo {
            *word &= !0u64 << (lo - start);
        }
    }
}

/// Nim row: every column can reach every smaller one, so the row's only possible P is the
/// first column `>= lo` not blocked from outside, and only if nothing below `lo` is P.
fn solve_nim_row(lo: usize, r: usize, below: bool, blocked: &[u64], row: &mut [u64]) {
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

/// Subtraction row: a 64-bit history of the last labels (bit j = column h-1-j) ANDed with
/// the subtraction mask tells whether column h has an in-row P option.
fn solve_subtract_row(mask: u64, lo: usize, r: usize, blocked: &[u64], row: &mut [u64]) {
    let mut history = 0u64;
    for j in 0..lo.min(64) {
        let column = lo - 1 - j;
        history |= (row[column / 64] >> (column % 64) & 1) << j;
    }
    for h in lo..r {
        let outside = blocked[h / 64] >> (h % 64) & 1;
        let p = (outside == 0 && history & mask == 0) as u64;
        history = history << 1 | p;
        row[h / 64] |= p << (h % 64);
    }
}

/// General row: column h is P iff not blocked and none of its options in the row is P.
fn solve_general_row(options: &[Vec<u32>], lo: usize, r: usize, blocked: &[u64], row: &mut [u64]) {
    for h in lo..r {
        if blocked[h / 64] >> (h % 64) & 1 == 1 {
            continue;
        }
        let reaches_p = options[h].iter().any(|&o| row[o as usize / 64] >> (o % 64) & 1 == 1);
        if !reaches_p {
            row[h / 64] |= 1 << (h % 64);
        }
    }
}
