//! What the engine hands out while it runs: finished rows to a visitor, progress to a sink.

use crate::model::position::PassState;

/// Receives progress from long work, in positions labelled; called between layers.
pub trait Progress: Sync {
    /// `positions` more positions are done.
    fn advance(&self, positions: u64);

    /// Whether the caller wants the work stopped; polled between layers. Once true it
    /// must stay true: the work then ends with [`crate::EngineError::Cancelled`] and hands back
    /// nothing it computed.
    fn cancelled(&self) -> bool {
        false
    }
}

/// A progress sink that ignores everything.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoProgress;

impl Progress for NoProgress {
    fn advance(&self, _positions: u64) {}
}

/// One finished row, as handed to a [`RowVisitor`]: the positions `(prefix, h)` for the
/// columns `h` in `lo..end`.
///
/// Over multisets a row is a multiset `prefix` (non-increasing) with one more heap `h`,
/// the largest, from the prefix's largest heap to the space's total less the prefix's
/// tokens; the empty prefix's column 0 is the empty position. Every multiset lies in one
/// row, and ranks are not consecutive along a row: [`RowView::ranks`] holds them.
#[derive(Clone, Copy, Debug)]
pub struct RowView<'a> {
    /// The first `n - 1` heaps (sorted in canonical mode; over multisets, every heap but
    /// the largest, non-increasing).
    pub prefix: &'a [u32],
    /// The first last-heap value of the row: 0, or the prefix's largest heap in canonical
    /// mode and over multisets.
    pub lo: u32,
    /// One past the row's last column: `M + 1` over tuples; over multisets of total at
    /// most `T`, `T + 1` less the prefix's tokens.
    pub end: usize,
    /// P-bits of the row: bit `hN` is set iff `(prefix, hN)` is P; bits below `lo` are
    /// clear. In a run over several endings, the endings' rows follow one another,
    /// `words_per_row` words each, in the order the endings were given; with a pass, each
    /// ending has two rows, the pass used then the pass available.
    pub bits: &'a [u64],
    /// Words in one ending's row: `ceil(end / 64)` (over tuples `ceil((M + 1) / 64)`).
    pub words_per_row: usize,
    /// Index of the position `(prefix, lo)`: mixed-radix, canonical rank in canonical mode,
    /// or a multiset's rank. Over tuples, position `(prefix, h)` has index
    /// `first_index + (h - lo)`.
    pub first_index: u64,
    /// Over multisets, the rank of each column's position from `lo` on; empty over tuples.
    pub ranks: &'a [u64],
    /// Whether the game has a pass (two rows per ending).
    pub pass: bool,
}

impl RowView<'_> {
    /// The row of the `j`-th ending of the run (with a pass: the pass used).
    pub fn ending_bits(&self, j: usize) -> &[u64] {
        self.state_bits(j, PassState::Used)
    }

    /// The row of the `j`-th ending in the pass state `pass`.
    ///
    /// # Panics
    /// For [`PassState::Available`] in a game without a pass.
    #[inline]
    pub fn state_bits(&self, j: usize, pass: PassState) -> &[u64] {
        let pass_available = pass.is_available();
        debug_assert!(self.pass || !pass_available, "a game without a pass has one row per ending");
        let track = if self.pass { 2 * j + usize::from(pass_available) } else { j };
        &self.bits[track * self.words_per_row..(track + 1) * self.words_per_row]
    }

    /// The pass states of the row, in the order of its tracks: `[None]` in a game without
    /// a pass, else [`PassState::Used`] then [`PassState::Available`].
    pub fn pass_states(&self) -> &'static [Option<PassState>] {
        if self.pass {
            &[Some(PassState::Used), Some(PassState::Available)]
        } else {
            &[None]
        }
    }

    /// The index of position `(prefix, h)` for a column `h` in `lo..end`.
    #[inline]
    pub fn index_of(&self, h: usize) -> u64 {
        debug_assert!(self.ranks.is_empty() || h < self.end, "column {h} beyond the row");
        let column = h - self.lo as usize;
        match self.ranks.get(column) {
            Some(&rank) => rank,
            None => self.first_index + column as u64,
        }
    }

    /// The index of a state: the position's index in a game without a pass (`pass` is
    /// `None`), else `2 × index` with the pass used and `2 × index + 1` with it available
    /// (the pass state varies fastest, as in `solve` tables).
    #[inline]
    pub fn state_index(&self, h: usize, pass: Option<PassState>) -> u64 {
        match pass {
            None => self.index_of(h),
            Some(pass) => 2 * self.index_of(h) + u64::from(pass.is_available()),
        }
    }
}

/// The P column of no position: a row of a [`PlaneView`] track without a P.
pub const NO_P: u32 = u32::MAX;

/// One finished sorted plane of canonical Nim, as handed to [`RowVisitor::visit_plane`]:
/// the rows `(outer, hk)` for `hk` from `top` to `max`, each row holding the columns
/// `hk..=max`. A Nim row holds at most one P per track (every column reaches every
/// smaller one), so the plane is told by its P columns alone, not by rows of bits.
#[derive(Clone, Copy, Debug)]
pub struct PlaneView<'a> {
    /// The first `n - 2` heaps, sorted.
    pub outer: &'a [u32],
    /// The last prefix heap of the first row: the outer prefix's largest heap, or 0.
    pub top: u32,
    /// The largest heap size.
    pub max: u32,
    /// Tracks per row, as the rows of a [`RowView`]: endings in order, with a pass the
    /// pass used then the pass available.
    pub tracks: usize,
    /// Per row (from `top`) and track, at `row * tracks + track`: the P column, or [`NO_P`].
    pub p_columns: &'a [u32],
    /// Words in one track's row of bits, as [`RowView::words_per_row`].
    pub words_per_row: usize,
    /// Index (canonical rank) of the plane's first position `(outer, top, top)`.
    pub first_index: u64,
    /// Whether the game has a pass (two tracks per ending).
    pub pass: bool,
}

impl PlaneView<'_> {
    /// Rows in the plane.
    pub fn rows(&self) -> usize {
        self.p_columns.len() / self.tracks
    }

    /// The P columns of row `i` (last prefix heap `top + i`), one per track.
    #[inline]
    pub fn row_p_columns(&self, i: usize) -> &[u32] {
        &self.p_columns[i * self.tracks..(i + 1) * self.tracks]
    }

    /// Row `i` of the plane as a [`RowView`], its prefix and bits written into the buffers
    /// `prefix` and `bits`.
    pub fn row<'b>(
        &self,
        i: usize,
        prefix: &'b mut Vec<u32>,
        bits: &'b mut Vec<u64>,
    ) -> RowView<'b> {
        let (w, hk) = (self.words_per_row, self.top + i as u32);
        prefix.clear();
        prefix.extend_from_slice(self.outer);
        prefix.push(hk);
        bits.clear();
        bits.resize(self.tracks * w, 0);
        for (t, &column) in self.row_p_columns(i).iter().enumerate() {
            if column != NO_P {
                bits[t * w + column as usize / 64] |= 1 << (column % 64);
            }
        }
        // Row `top + j` holds `max - top - j + 1` positions: the rows before row `i` hold
        // `i` times `max - top + 1` less `0 + 1 + ... + (i - 1)`.
        let (i, width) = (i as u64, u64::from(self.max - self.top) + 1);
        let first_index = self.first_index + i * width - i * i.saturating_sub(1) / 2;
        let end = self.max as usize + 1;
        let ranks = &[];
        RowView { prefix, lo: hk, end, bits, words_per_row: w, first_index, ranks, pass: self.pass }
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

    /// Whether an engine that labels whole planes of single-P rows (canonical Nim) should
    /// hand them to [`RowVisitor::visit_plane`] instead of row by row to `visit`.
    fn wants_planes(&self) -> bool {
        false
    }

    /// Folds one finished plane into `acc`; by default, row by row through `visit`.
    fn visit_plane(&self, acc: &mut Self::Acc, plane: &PlaneView<'_>) {
        let (mut prefix, mut bits) = (Vec::new(), Vec::new());
        for i in 0..plane.rows() {
            self.visit(acc, &plane.row(i, &mut prefix, &mut bits));
        }
    }
}

impl RowVisitor for () {
    type Acc = ();
    fn start(&self) {}
    fn visit(&self, _acc: &mut (), _row: &RowView<'_>) {}
    fn merge(&self, _left: (), _right: ()) {}
}

/// A visitor for tests that collects what its function adds to a list for each row.
#[cfg(test)]
pub(crate) struct Collect<T, F>(pub F, pub std::marker::PhantomData<fn() -> T>);

#[cfg(test)]
impl<T: Send, F: Fn(&mut Vec<T>, &RowView<'_>) + Sync> Collect<T, F> {
    /// The visitor that collects what `each` adds for each row.
    pub(crate) fn new(each: F) -> Collect<T, F> {
        Collect(each, std::marker::PhantomData)
    }
}

#[cfg(test)]
impl<T: Send, F: Fn(&mut Vec<T>, &RowView<'_>) + Sync> RowVisitor for Collect<T, F> {
    type Acc = Vec<T>;
    fn start(&self) -> Vec<T> {
        Vec::new()
    }
    fn visit(&self, acc: &mut Vec<T>, row: &RowView<'_>) {
        (self.0)(acc, row);
    }
    fn merge(&self, mut left: Vec<T>, right: Vec<T>) -> Vec<T> {
        left.extend(right);
        left
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ending::Ending;
    use crate::model::game::Game;
    use crate::model::space::{Mode, TupleSpace};
    use crate::Engine;

    /// Every row it is handed: first index, first column, prefix and bits.
    struct Recorder {
        planes: bool,
    }

    type Row = (u64, u32, Vec<u32>, Vec<u64>);

    impl RowVisitor for Recorder {
        type Acc = Vec<Row>;
        fn start(&self) -> Vec<Row> {
            Vec::new()
        }
        fn visit(&self, acc: &mut Vec<Row>, row: &RowView<'_>) {
            acc.push((row.first_index, row.lo, row.prefix.to_vec(), row.bits.to_vec()));
        }
        fn merge(&self, mut left: Vec<Row>, right: Vec<Row>) -> Vec<Row> {
            left.extend(right);
            left
        }
        fn wants_planes(&self) -> bool {
            self.planes
        }
    }

    type State = (u64, Vec<u32>, Option<PassState>);

    /// Every state of every row: its state index, position and pass state.
    fn every_state(acc: &mut Vec<State>, row: &RowView<'_>) {
        for &pass in row.pass_states() {
            for h in row.lo as usize..row.end {
                let mut position = row.prefix.to_vec();
                position.push(h as u32);
                acc.push((row.state_index(h, pass), position, pass));
            }
        }
    }

    #[test]
    fn state_indices_number_every_state_once_and_the_engine_reads_them_back() {
        for (game, states) in [(Game::nim(), 1), (Game::nim().with_pass(), 2)] {
            for mode in [Mode::Full, Mode::Canonical] {
                // A max of 63 fills the row's one word, so every column is a position.
                let space = TupleSpace::in_mode(3, 63, mode).unwrap();
                let engine = Engine::new(&game, space.into());
                let visitor = Collect::new(every_state);
                let mut seen = engine.stream(&[Ending::Normal], &visitor, &NoProgress).unwrap();
                seen.sort_by_key(|(index, _, _)| *index);
                let indices: Vec<u64> = seen.iter().map(|(index, _, _)| *index).collect();
                let count = space.positions() * states;
                assert_eq!(indices, (0..count).collect::<Vec<_>>(), "{} {mode:?}", game.spec());
                for (index, position, pass) in seen {
                    assert_eq!(engine.state(index), (position, pass), "state {index}");
                }
            }
        }
    }

    #[test]
    fn planes_hand_out_the_rows_of_row_by_row_visits() {
        for game in [Game::nim(), Game::nim().with_pass()] {
            for (heaps, max) in [(2, 130), (3, 20), (5, 6)] {
                let space = TupleSpace::in_mode(heaps, max, Mode::Canonical).unwrap();
                let engine = Engine::new(&game, space.into());
                let endings = [Ending::Normal, Ending::Misere];
                let [mut planes, mut rows] = [true, false].map(|planes| {
                    engine.stream(&endings, &Recorder { planes }, &NoProgress).unwrap()
                });
                planes.sort();
                rows.sort();
                assert!(!rows.is_empty());
                assert_eq!(planes, rows, "{} {heaps} heaps, max {max}", game.spec());
            }
        }
    }
}
