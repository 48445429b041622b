//! What the engine hands out while it runs: finished rows to a visitor, progress to a sink.

/// Receives progress from long work, in positions labelled; called between layers.
pub trait Progress: Sync {
    /// `positions` more positions are done.
    fn advance(&self, positions: u64);
}

/// A progress sink that ignores everything.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoProgress;

impl Progress for NoProgress {
    fn advance(&self, _positions: u64) {}
}

/// One finished row, as handed to a [`RowVisitor`].
#[derive(Clone, Copy, Debug)]
pub struct RowView<'a> {
    /// The first `n - 1` heaps (sorted in canonical mode).
    pub prefix: &'a [u32],
    /// The first last-heap value of the row: 0, or the prefix's largest heap in canonical mode.
    pub lo: u32,
    /// P-bits of the row: bit `hN` is set iff `(prefix, hN)` is P; bits below `lo` are
    /// clear. In a run over several endings, the endings' rows follow one another,
    /// `words_per_row` words each, in the order the endings were given; with a pass, each
    /// ending has two rows, the pass used then the pass available.
    pub bits: &'a [u64],
    /// Words in one ending's row: `ceil((M + 1) / 64)`.
    pub words_per_row: usize,
    /// Index of the position `(prefix, lo)`: mixed-radix, or canonical rank in canonical mode.
    /// Position `(prefix, h)` has index `first_index + (h - lo)`.
    pub first_index: u64,
    /// Whether the game has a pass (two rows per ending).
    pub pass: bool,
}

impl RowView<'_> {
    /// The row of the `j`-th ending of the run (with a pass: the pass used).
    pub fn ending_bits(&self, j: usize) -> &[u64] {
        self.state_bits(j, false)
    }

    /// The row of the `j`-th ending with the pass available (`true`) or used.
    ///
    /// # Panics
    /// For `pass_available` in a game without a pass.
    #[inline]
    pub fn state_bits(&self, j: usize, pass_available: bool) -> &[u64] {
        debug_assert!(self.pass || !pass_available, "a game without a pass has one row per ending");
        let track = if self.pass { 2 * j + usize::from(pass_available) } else { j };
        &self.bits[track * self.words_per_row..(track + 1) * self.words_per_row]
    }

    /// The pass states of the row: `[None]` without a pass, else used then available.
    pub fn pass_states(&self) -> &'static [Option<bool>] {
        if self.pass {
            &[Some(false), Some(true)]
        } else {
            &[None]
        }
    }

    /// The index of position `(prefix, h)` for a column `h >= lo`.
    pub fn index_of(&self, h: usize) -> u64 {
        self.first_index + (h - self.lo as usize) as u64
    }

    /// The index of a state: the position's index, or with a pass `2 × index + pass`
    /// (the pass state varies fastest, as in `solve` tables).
    pub fn state_index(&self, h: usize, pass: Option<bool>) -> u64 {
        match pass {
            None => self.index_of(h),
            Some(available) => 2 * self.index_of(h) + u64::from(available),
        }
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
