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
    /// P-bits of the row: bit `hN` is set iff `(prefix, hN)` is P; bits below `lo` are
    /// clear. In a fused run over several rules, the rules' rows follow one another,
    /// `words_per_row` words each, in the order the rules were given.
    pub bits: &'a [u64],
    /// Words in one rule's row: `ceil((M + 1) / 64)`.
    pub words_per_row: usize,
    /// Index of the position `(prefix, lo)`: mixed-radix, or canonical rank in canonical mode.
    /// Position `(prefix, h)` has index `first_index + (h - lo)`.
    pub first_index: u64,
}

impl RowView<'_> {
    /// The row of the `j`-th rule of the run.
    pub fn rule_bits(&self, j: usize) -> &[u64] {
        &self.bits[j * self.words_per_row..(j + 1) * self.words_per_row]
    }
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
    /// Option lists of every heap size, one flat array (empty for Nim, which needs none).
    options: FlatOptions,
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
    /// Layers with fewer positions on average run on the calling thread.
    parallel_threshold: u64,
}

/// Below this many positions per layer (on average), a layer runs on one thread: rayon's
/// fork-join would cost more than it saves.
pub const PARALLEL_THRESHOLD: u64 = 1 << 14;

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
    /// Total bytes when rules are labelled one at a time and `kept` tables are kept.
    pub fn total(&self, kept: usize) -> u64 {
        let tables = if self.needs_table { kept.max(1) } else { kept };
        self.working_bytes.saturating_add(self.table_bytes.saturating_mul(tables as u64))
    }

    /// Total bytes when `rules` rules are labelled in one fused pass.
    pub fn fused(&self, rules: usize, keep: bool) -> u64 {
        let table = if self.needs_table || keep { self.table_bytes } else { 0 };
        self.working_bytes.saturating_add(table).saturating_mul(rules as u64)
    }
}

const GIB: f64 = (1u64 << 30) as f64;

impl<'g> Engine<'g> {
    /// Prepares the option lists and the row layout for a space.
    pub fn new(game: &'g Game, space: Space, canonical: bool) -> Engine<'g> {
        let max = space.max();
        let k = space.heaps() - 1;
        let mut kind = row_kind(game, max);
        // Full-mode Nim keeps (k - 1) accumulator rows per value of a prefix heap, which
        // outgrows a whole table when k - 1 > M + 1 (many heaps, tiny max): use the table.
        if kind == RowKind::Nim && !canonical && k >= 2 && (k - 1) as u64 > u64::from(max) + 1 {
            kind = RowKind::General;
        }
        // Nim's row solver needs no option lists, and listing them costs O(max^2).
        let options = if kind == RowKind::Nim { Vec::new() } else { game.option_table(max) };
        let options = FlatOptions::new(&options);
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
                least = least.min(options.of(m as usize).first().copied().unwrap_or(u32::MAX));
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
            parallel_threshold: PARALLEL_THRESHOLD,
        }
    }

    /// Sets the average positions per layer below which layers run on one thread; 0
    /// makes every layer parallel (tests use it to exercise the parallel path on small
    /// spaces).
    pub fn with_parallel_threshold(mut self, positions_per_layer: u64) -> Self {
        self.parallel_threshold = positions_per_layer;
        self
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
        self.refuse_above(self.memory_plan().total(kept), limit)
    }

    /// Refuses a fused run of `rules` rules ([`Engine::run_rules`]) above `limit` bytes.
    pub fn check_memory_fused(&self, rules: usize, keep: bool, limit: u64) -> Result<()> {
        self.refuse_above(self.memory_plan().fused(rules, keep), limit)
    }

    fn refuse_above(&self, need: u64, limit: u64) -> Result<()> {
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
            // The plane scheme keeps the last prefix heap's line locally.
            (self.k as u64 - 1).saturating_mul(self.space.radix().saturating_pow(self.k as u32 - 1))
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
        let (tables, acc) = self.run_rules(&[rule], keep, visitor, progress);
        (tables.into_iter().next(), acc)
    }

    /// Labels every position under each of `rules` in one fused pass: the rows of all
    /// rules are enumerated, indexed and handed to `visitor` together (see [`RowView`]).
    ///
    /// Returns one table per rule if `keep` is set. Call [`Engine::check_memory_fused`]
    /// first: this allocates the tables of every rule at once.
    pub fn run_rules<V: RowVisitor>(
        &self,
        rules: &[Rule],
        keep: bool,
        visitor: &V,
        progress: &dyn Progress,
    ) -> (Vec<Labels>, V::Acc) {
        let w = self.words_per_row;
        let table_words =
            if keep || self.kind != RowKind::Nim { self.rows as usize * w } else { 0 };
        let acc_words =
            if self.kind == RowKind::Nim { self.accumulator_rows() as usize * w } else { 0 };
        let mut tables: Vec<Vec<u64>> = rules.iter().map(|_| vec![0u64; table_words]).collect();
        let mut accumulators: Vec<Vec<u64>> = rules.iter().map(|_| vec![0u64; acc_words]).collect();
        let result = {
            let passes = rules
                .iter()
                .zip(tables.iter_mut().zip(accumulators.iter_mut()))
                .map(|(&rule, (table, acc))| {
                    let terminal = rule.terminal_sizes(self.game, self.space.max());
                    let mut terminal_mask = vec![0u64; w];
                    for (h, &t) in terminal.iter().enumerate() {
                        if t {
                            terminal_mask[h / 64] |= 1 << (h % 64);
                        }
                    }
                    RulePass {
                        terminal,
                        terminal_mask,
                        table: SharedRows::new(table, w),
                        accumulators: SharedRows::new(acc, w),
                    }
                })
                .collect();
            Pass { engine: self, rules: passes }.run(visitor, progress)
        };
        let labels = if keep {
            rules
                .iter()
                .zip(tables)
                .map(|(&rule, table)| Labels {
                    space: self.space,
                    rule,
                    canonical: self.canonical,
                    words_per_row: w,
                    prefix_ranker: self.prefix_ranker.clone(),
                    bits: BitVec::from_vec(table),
                })
                .collect()
        } else {
            Vec::new()
        };
        (labels, result)
    }
}

fn row_kind(game: &Game, max: u32) -> RowKind {
    match game.rule() {
        MoveRule::Nim => RowKind::Nim,
        MoveRule::Subtract(set) => {
            let used: Vec<u32> = set.iter().copied().filter(|&s| s <= max).collect();
            if used.iter().all(|&s| s <= 64) {
                RowKind::Subtract(used.iter().fold(0u64, |m, &s| m | 1 << (s - 1)))
            } else {
                RowKind::General
            }
        }
        MoveRule::Graph(moves) => {
            // A graph that lets every size up to max drop to every smaller one is Nim.
            let is_nim = (0..=max as usize).all(|h| {
                let list = moves.get(h).map_or(&[][..], |l| &l[..]);
                list.len() == h && list.iter().enumerate().all(|(i, &o)| o as usize == i)
            });
            if is_nim {
                RowKind::Nim
            } else {
                RowKind::General
            }
        }
    }
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
        assert!(start + self.words_per_row <= self.len, "row {row} outside the table");
        std::slice::from_raw_parts(self.ptr.add(start), self.words_per_row)
    }

    /// # Safety
    /// Only the caller's task touches row `row` during this layer.
    #[inline]
    #[allow(clippy::mut_from_ref)]
    unsafe fn row_mut(&self, row: usize) -> &mut [u64] {
        let start = row * self.words_per_row;
        assert!(start + self.words_per_row <= self.len, "row {row} outside the table");
        std::slice::from_raw_parts_mut(self.ptr.add(start), self.words_per_row)
    }
}

/// One rule's part of a pass: its terminal sizes and the tables it fills.
struct RulePass {
    terminal: Vec<bool>,
    terminal_mask: Vec<u64>,
    table: SharedRows,
    accumulators: SharedRows,
}

/// One labelling pass over a space, for one or several rules at once.
struct Pass<'e, 'g> {
    engine: &'e Engine<'g>,
    rules: Vec<RulePass>,
}

/// Per-task scratch buffers, allocated once per task, never per position.
struct Scratch {
    /// The enumerator's buffer; `prefix` is the copy the row is labelled from.
    enumeration: Vec<u32>,
    prefix: Vec<u32>,
    other: Vec<u32>,
    /// Rows (accumulator or table) that block this row; the same for every rule.
    sources: Vec<usize>,
    /// Canonical general games: `(column, row)` pairs to preload below the prefix max.
    preload: Vec<(u32, usize)>,
    /// Per rule, `words_per_row` words each.
    blocked: Vec<u64>,
    rows: Vec<u64>,
}

impl<'e, 'g> Pass<'e, 'g> {
    fn run<V: RowVisitor>(&self, visitor: &V, progress: &dyn Progress) -> V::Acc {
        let e = self.engine;
        if e.kind == RowKind::Nim && !e.canonical && e.k >= 1 {
            return self.run_planes(visitor, progress);
        }
        let positions =
            if e.canonical { e.space.canonical_positions() } else { e.space.positions() };
        let firsts = |sum| first_values(sum, e.k, e.space.max(), e.canonical);
        let work = |scratch: &mut Scratch, acc: &mut V::Acc, first, sum| {
            self.rows_from(scratch, visitor, acc, first, sum)
        };
        self.run_layers(visitor, progress, e.k, positions, firsts, || self.scratch(), work)
    }

    /// Runs the layers `0..=len * max` in order. Layer `sum` calls `work` once for every
    /// value of `firsts(sum)`, in parallel unless the layers are small, each task with its
    /// own scratch and accumulator; the accumulators are merged and progress is reported
    /// after every layer.
    #[allow(clippy::too_many_arguments)]
    fn run_layers<V: RowVisitor, S: Send>(
        &self,
        visitor: &V,
        progress: &dyn Progress,
        len: usize,
        positions: u64,
        firsts: impl Fn(u64) -> std::ops::RangeInclusive<u32> + Sync,
        new_scratch: impl Fn() -> S + Sync,
        work: impl Fn(&mut S, &mut V::Acc, u32, u64) -> u64 + Sync,
    ) -> V::Acc {
        let layers = len as u64 * u64::from(self.engine.space.max()) + 1;
        let sequential = positions / layers < self.engine.parallel_threshold
            || rayon::current_num_threads() == 1;
        let task = |(mut acc, done, mut scratch): (V::Acc, u64, S), first: u32, sum: u64| {
            let more = work(&mut scratch, &mut acc, first, sum);
            (acc, done + more, scratch)
        };
        let mut total = visitor.start();
        for sum in 0..layers {
            let (acc, done) = if sequential {
                let state = (visitor.start(), 0, new_scratch());
                let (acc, done, _) = firsts(sum).fold(state, |state, f| task(state, f, sum));
                (acc, done)
            } else {
                firsts(sum)
                    .into_par_iter()
                    .fold(|| (visitor.start(), 0u64, new_scratch()), |state, f| task(state, f, sum))
                    .map(|(acc, done, _)| (acc, done))
                    .reduce(|| (visitor.start(), 0), |a, b| (visitor.merge(a.0, b.0), a.1 + b.1))
            };
            total = visitor.merge(total, acc);
            progress.advance(done);
        }
        total
    }

    fn scratch(&self) -> Scratch {
        let e = self.engine;
        let words = e.words_per_row * self.rules.len();
        Scratch {
            enumeration: vec![0; e.k],
            prefix: vec![0; e.k],
            other: vec![0; e.k + 1],
            sources: Vec::new(),
            preload: Vec::new(),
            blocked: vec![0; words],
            rows: vec![0; words],
        }
    }

    /// Labels every row of the layer `sum` whose first heap is `first` (with no prefix,
    /// the one row); returns the positions labelled.
    fn rows_from<V: RowVisitor>(
        &self,
        scratch: &mut Scratch,
        visitor: &V,
        acc: &mut V::Acc,
        first: u32,
        sum: u64,
    ) -> u64 {
        let e = self.engine;
        if e.k == 0 {
            return self.row(scratch, visitor, acc);
        }
        let mut done = 0;
        let mut prefix = std::mem::take(&mut scratch.enumeration);
        prefix[0] = first;
        let rest = sum - u64::from(first);
        let mut visit = |p: &[u32]| {
            scratch.prefix.clear();
            scratch.prefix.extend_from_slice(p);
            done += self.row(scratch, visitor, acc);
        };
        if e.canonical {
            for_each_sorted(&mut prefix, 1, rest, first, e.space.max(), &mut visit);
        } else {
            for_each_composition(&mut prefix, 1, rest, e.space.max(), &mut visit);
        }
        scratch.enumeration = prefix;
        done
    }

    /// Labels the row of `scratch.prefix` under every rule; returns positions labelled.
    fn row<V: RowVisitor>(&self, scratch: &mut Scratch, visitor: &V, acc: &mut V::Acc) -> u64 {
        let e = self.engine;
        let w = e.words_per_row;
        let r = e.space.radix() as usize;
        let lo = if e.canonical { scratch.prefix.last().copied().unwrap_or(0) } else { 0 };
        scratch.blocked.fill(0);
        scratch.rows.fill(0);
        for (rule, blocked) in self.rules.iter().zip(scratch.blocked.chunks_exact_mut(w)) {
            if scratch.prefix.iter().all(|&h| rule.terminal[h as usize]) {
                or_into(blocked, &rule.terminal_mask);
            }
        }
        let row_index = self.row_index(&scratch.prefix);
        // SAFETY (all blocks below): rows read belong to earlier layers; the rows written
        // are this row's own table rows and accumulator rows no other row of the layer owns.
        match e.kind {
            RowKind::Nim => {
                // Full-mode Nim with a prefix runs by planes; here: canonical, or no prefix.
                let below = self.nim_sources_canonical(scratch);
                for (j, rule) in self.rules.iter().enumerate() {
                    let blocked = &mut scratch.blocked[j * w..(j + 1) * w];
                    for &slot in &scratch.sources {
                        or_into(blocked, unsafe { rule.accumulators.row(slot) });
                    }
                    let below_p = below != 0 && {
                        let acc = unsafe { rule.accumulators.row(below - 1) };
                        acc[lo as usize / 64] >> (lo % 64) & 1 == 1
                    };
                    let row = &mut scratch.rows[j * w..(j + 1) * w];
                    solve_nim_row(lo as usize, r, below_p, blocked, row);
                    if let Some(column) = first_set(row) {
                        for &slot in &scratch.sources {
                            let acc = unsafe { rule.accumulators.row_mut(slot) };
                            acc[column / 64] |= 1 << (column % 64);
                        }
                    }
                }
            }
            kind => {
                if e.canonical {
                    self.general_sources_canonical(scratch);
                } else {
                    self.general_sources_full(scratch, row_index);
                }
                for (j, rule) in self.rules.iter().enumerate() {
                    let blocked = &mut scratch.blocked[j * w..(j + 1) * w];
                    for &slot in &scratch.sources {
                        or_into(blocked, unsafe { rule.table.row(slot) });
                    }
                    let row = &mut scratch.rows[j * w..(j + 1) * w];
                    for &(h, slot) in &scratch.preload {
                        let bit =
                            unsafe { rule.table.row(slot) }[lo as usize / 64] >> (lo % 64) & 1;
                        row[h as usize / 64] |= bit << (h % 64);
                    }
                }
                match kind {
                    RowKind::Subtract(mask) => solve_subtract_rows(
                        mask,
                        lo as usize,
                        r,
                        w,
                        &scratch.blocked,
                        &mut scratch.rows,
                    ),
                    _ => {
                        for (blocked, row) in
                            scratch.blocked.chunks_exact(w).zip(scratch.rows.chunks_exact_mut(w))
                        {
                            solve_general_row(&e.options, lo as usize, r, blocked, row);
                        }
                    }
                }
            }
        }
        for (rule, row) in self.rules.iter().zip(scratch.rows.chunks_exact_mut(w)) {
            clear_below(row, lo as usize);
            if rule.table.len > 0 {
                unsafe { rule.table.row_mut(row_index as usize) }.copy_from_slice(row);
            }
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
        let view = RowView {
            prefix: &scratch.prefix,
            lo,
            bits: &scratch.rows,
            words_per_row: w,
            first_index,
        };
        visitor.visit(acc, &view);
        (r - lo as usize) as u64
    }

    /// Full-mode Nim by *planes*: a plane is every row sharing the prefix's first `k - 1`
    /// heaps (the outer prefix); its rows differ in the last prefix heap `hk`. Planes are
    /// run in layers of equal outer sum (independent, as rows are below), and each plane
    /// sweeps `hk` upwards. The line along `hk` then lives in a local buffer, and the other
    /// lines' accumulators are read and written sequentially (indexed with `hk` last),
    /// which keeps the pass streaming through memory instead of missing the cache.
    fn run_planes<V: RowVisitor>(&self, visitor: &V, progress: &dyn Progress) -> V::Acc {
        let e = self.engine;
        let (outer, max) = (e.k - 1, e.space.max());
        let firsts = |sum| first_values(sum, outer, max, false);
        let work = |buf: &mut Vec<u32>, acc: &mut V::Acc, first, sum: u64| {
            if outer == 0 {
                return self.plane(&[], visitor, acc);
            }
            let mut done = 0;
            buf[0] = first;
            for_each_composition(buf, 1, sum - u64::from(first), max, &mut |p| {
                done += self.plane(p, visitor, acc);
            });
            done
        };
        let positions = e.space.positions();
        self.run_layers(visitor, progress, outer, positions, firsts, || vec![0u32; outer], work)
    }

    /// Labels the plane of `outer` (all values of the last prefix heap) under every rule.
    fn plane<V: RowVisitor>(&self, outer: &[u32], visitor: &V, acc: &mut V::Acc) -> u64 {
        let e = self.engine;
        let (w, r, k) = (e.words_per_row, e.space.radix(), e.k);
        let rules = self.rules.len();
        let mut prefix = outer.to_vec();
        prefix.push(0);
        // Accumulator row of line i (i < k - 1) at hk = 0; rows for other hk follow.
        let block = r.pow(k as u32 - 1);
        let bases: Vec<usize> = (0..k - 1)
            .map(|i| {
                let inner = outer
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .fold(0u64, |acc, (_, &h)| acc * r + u64::from(h));
                (i as u64 * block + inner * r) as usize
            })
            .collect();
        let first_row = outer.iter().fold(0u64, |acc, &h| acc * r + u64::from(h)) * r;
        let outer_terminal: Vec<bool> = self
            .rules
            .iter()
            .map(|rule| outer.iter().all(|&h| rule.terminal[h as usize]))
            .collect();
        // P-columns of earlier rows of this plane: the line along hk, per rule.
        let mut line = vec![0u64; w * rules];
        let mut blocked = vec![0u64; w * rules];
        let mut rows = vec![0u64; w * rules];
        for hk in 0..r as usize {
            prefix[k - 1] = hk as u32;
            blocked.copy_from_slice(&line);
            rows.fill(0);
            for (j, rule) in self.rules.iter().enumerate() {
                let blocked = &mut blocked[j * w..(j + 1) * w];
                if outer_terminal[j] && rule.terminal[hk] {
                    or_into(blocked, &rule.terminal_mask);
                }
                // SAFETY: accumulator rows of this plane's lines are owned by this plane
                // during the layer (another plane with the same line would share every
                // other outer heap and the outer sum, so it would be this plane).
                for &base in &bases {
                    or_into(blocked, unsafe { rule.accumulators.row(base + hk) });
                }
                let row = &mut rows[j * w..(j + 1) * w];
                solve_nim_row(0, r as usize, false, blocked, row);
                if let Some(column) = first_set(row) {
                    line[j * w + column / 64] |= 1 << (column % 64);
                    for &base in &bases {
                        let acc = unsafe { rule.accumulators.row_mut(base + hk) };
                        acc[column / 64] |= 1 << (column % 64);
                    }
                }
                if rule.table.len > 0 {
                    let index = first_row as usize + hk;
                    unsafe { rule.table.row_mut(index) }.copy_from_slice(row);
                }
            }
            let first_index = (first_row + hk as u64) * r;
            let view =
                RowView { prefix: &prefix, lo: 0, bits: &rows, words_per_row: w, first_index };
            visitor.visit(acc, &view);
        }
        r * r
    }

    fn row_index(&self, prefix: &[u32]) -> u64 {
        let e = self.engine;
        match &e.prefix_ranker {
            Some(ranker) => ranker.rank(prefix),
            None => prefix.iter().fold(0u64, |acc, &h| acc * e.space.radix() + u64::from(h)),
        }
    }

    /// Canonical Nim: for each distinct prefix value `a`, the accumulator of the prefix
    /// without one `a` holds the P-rows of every prefix with `a` lowered. The last heap can
    /// also drop below the prefix's largest heap `m`; that reaches a P-position iff bit `m`
    /// of the accumulator of the prefix without `m` is set. Returns that accumulator's
    /// row + 1 (0 if there is no prefix).
    fn nim_sources_canonical(&self, scratch: &mut Scratch) -> usize {
        scratch.sources.clear();
        let Some(ranker) = &self.engine.short_ranker else { return 0 };
        let k = self.engine.k;
        for i in 0..k {
            if i + 1 < k && scratch.prefix[i] == scratch.prefix[i + 1] {
                continue;
            }
            let slot = short_rank(ranker, &scratch.prefix, i, &mut scratch.other);
            scratch.sources.push(slot);
        }
        scratch.sources.last().map_or(0, |&slot| slot + 1)
    }

    /// Full mode, any rule: the rows reached by moving one prefix heap.
    fn general_sources_full(&self, scratch: &mut Scratch, row_index: u64) {
        let e = self.engine;
        let r = e.space.radix();
        scratch.sources.clear();
        scratch.preload.clear();
        let mut stride = 1u64;
        for i in (0..e.k).rev() {
            let h = scratch.prefix[i];
            for &o in e.options.of(h as usize) {
                scratch.sources.push((row_index - u64::from(h - o) * stride) as usize);
            }
            stride *= r;
        }
    }

    /// Canonical mode, any rule: the rows reached by moving one prefix heap (re-sorted),
    /// and the columns below the largest prefix heap `m` to preload: column `h` holds the
    /// label of `(prefix - m + h, m)`, reached by moving the last heap under `m`.
    fn general_sources_canonical(&self, scratch: &mut Scratch) {
        let e = self.engine;
        let ranker = e.prefix_ranker.as_ref().expect("canonical engine has a ranker");
        let k = e.k;
        scratch.sources.clear();
        scratch.preload.clear();
        if k == 0 {
            return;
        }
        for i in 0..k {
            if i + 1 < k && scratch.prefix[i] == scratch.prefix[i + 1] {
                continue;
            }
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
}

/// Values of the first heap of the tuples of `len` heaps over `0..=max` (non-decreasing
/// if `sorted`) that sum to `sum`; just `0` when `len` is 0 (the empty tuple).
fn first_values(sum: u64, len: usize, max: u32, sorted: bool) -> std::ops::RangeInclusive<u32> {
    if len == 0 {
        return 0..=0;
    }
    let max = u64::from(max);
    let lo = sum.saturating_sub((len as u64 - 1) * max);
    // Sorted: the first heap is the smallest, so at most the average.
    let hi = if sorted { sum / len as u64 } else { sum }.min(max);
    if lo > hi {
        #[allow(clippy::reversed_empty_ranges)]
        return 1..=0;
    }
    lo as u32..=hi as u32
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

/// Subtraction rows: a 64-bit history of the last labels (bit j = column h-1-j) ANDed
/// with the subtraction mask tells whether column h has an in-row P option. Columns blocked
/// from outside are N whatever the history says, so only the free columns are visited;
/// the history shifts over the skipped ones (their labels are 0).
fn solve_subtract_rows(
    mask: u64,
    lo: usize,
    r: usize,
    w: usize,
    blocked: &[u64],
    rows: &mut [u64],
) {
    for (blocked, row) in blocked.chunks_exact(w).zip(rows.chunks_exact_mut(w)) {
        solve_subtract_row(mask, lo, r, blocked, row);
    }
}

fn solve_subtract_row(mask: u64, lo: usize, r: usize, blocked: &[u64], row: &mut [u64]) {
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

/// Bits of word `i` that are columns `lo..r`.
#[inline]
pub(crate) fn valid_columns(i: usize, lo: usize, r: usize) -> u64 {
    let start = i * 64;
    let mut mask = !0u64;
    if lo > start {
        mask = if lo - start >= 64 { 0 } else { mask << (lo - start) };
    }
    if r < start + 64 {
        mask &= if r <= start { 0 } else { !0u64 >> (start + 64 - r) };
    }
    mask
}

/// General row: column h is P iff not blocked and none of its options in the row is P.
/// Only free columns are visited; their options are one slice of a flat array.
fn solve_general_row(options: &FlatOptions, lo: usize, r: usize, blocked: &[u64], row: &mut [u64]) {
    for i in lo / 64..blocked.len() {
        let mut free = !blocked[i] & valid_columns(i, lo, r);
        while free != 0 {
            let bit = free.trailing_zeros() as usize;
            free &= free - 1;
            let reaches_p =
                options.of(i * 64 + bit).iter().any(|&o| row[o as usize / 64] >> (o % 64) & 1 == 1);
            // Options are smaller columns, so bits set earlier in this word are seen.
            row[i] |= u64::from(!reaches_p) << bit;
        }
    }
}

/// Option lists of every heap size in one array: `targets[starts[h]..starts[h + 1]]`.
struct FlatOptions {
    starts: Vec<usize>,
    targets: Vec<u32>,
}

impl FlatOptions {
    fn new(options: &[Vec<u32>]) -> FlatOptions {
        let mut starts = vec![0];
        let mut targets = Vec::new();
        for list in options {
            targets.extend_from_slice(list);
            starts.push(targets.len());
        }
        FlatOptions { starts, targets }
    }

    #[inline]
    fn of(&self, h: usize) -> &[u32] {
        &self.targets[self.starts[h]..self.starts[h + 1]]
    }
}
