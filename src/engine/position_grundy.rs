//! The Grundy value of every position of a space, by the mex rule, one value at a time.
//!
//! A position has value `u` exactly when it has no value below `u` and none of its
//! options has value `u`: it is not of a smaller value, so for each `v < u` some option
//! has value `v`, and `u` is the least value its options miss (their mex). So the
//! positions of value 0 are the P-positions of normal play, and those of value `u` are
//! labelled by the same engine run with the positions of smaller values excluded (never
//! candidates, and no option of theirs counts). Every round gives at least one position
//! its value (an unvalued position whose options all have values), so the rounds end;
//! there are as many as the largest value plus one. Multi-heap games in full mode find a
//! band of values per run instead (`tuples/rows/bands.rs`).

use crate::engine::error::Result;
use crate::engine::memory::{Grant, Keep, Work};
use crate::engine::tuples::label_table::TableWords;
use crate::engine::tuples::layout::Layout;
use crate::engine::visitor::{NoProgress, Progress};
use crate::engine::{Engine, TupleEngine};
use crate::model::ending::Ending;
use crate::model::position::PassState;
use crate::model::space::Mode;

/// The normal-play Grundy value of every position of a space.
#[derive(Clone, Debug)]
pub struct GrundyValues {
    layout: Layout,
    pass: bool,
    /// In state-index order: the position's index, or `2 × index + pass` with a pass.
    values: Vec<u32>,
}

impl GrundyValues {
    /// The value of a position as a game starts it (with a pass: the pass available). In
    /// canonical mode the tuple may be in any order.
    ///
    /// # Panics
    /// If the tuple has the wrong length or a heap above the space's max.
    pub fn value(&self, tuple: &[u32]) -> u32 {
        self.value_in(tuple, PassState::of(self.pass))
    }

    /// The value of a position in the pass state `pass`.
    ///
    /// # Panics
    /// As [`GrundyValues::value`], and for [`PassState::Available`] in a game without a
    /// pass.
    pub fn value_in(&self, tuple: &[u32], pass: PassState) -> u32 {
        let pass_available = pass.is_available();
        assert!(self.pass || !pass_available, "a game without a pass has no pass state");
        let space = self.layout.space();
        assert_eq!(tuple.len(), space.heaps(), "tuple length must equal the heap count");
        assert!(tuple.iter().all(|&h| h <= space.max()), "heap above the space's max");
        let mut sorted = tuple.to_vec();
        if self.layout.mode() == Mode::Canonical {
            sorted.sort_unstable();
        }
        let (prefix, last) = sorted.split_at(sorted.len() - 1);
        let index = self.layout.first_index(self.layout.row_index(prefix), prefix, &mut Vec::new())
            + u64::from(last[0] - self.layout.lo(prefix));
        let state = if self.pass { 2 * index + u64::from(pass_available) } else { index };
        self.values[state as usize]
    }

    /// Every value in state-index order: positions in index order (lexicographic, or
    /// sorted tuples only), and with a pass each position's pass-used value then its
    /// pass-available value.
    pub fn values(&self) -> &[u32] {
        &self.values
    }

    /// The largest value.
    pub fn largest(&self) -> u32 {
        self.values.iter().copied().max().unwrap_or(0)
    }
}

impl Engine<'_> {
    /// The normal-play Grundy value of every position of a tuple space (with a pass, of
    /// both pass states), computed by the mex rule from the options: one labelling run
    /// per value.
    ///
    /// # Errors
    /// [`crate::EngineError::NeedsTuples`] over multisets; [`crate::EngineError::TooLarge`] if the
    /// tables (the run's, the excluded positions, a value per position) do not fit;
    /// [`crate::EngineError::OutOfMemory`] if the system refuses them anyway; the errors of
    /// [`Engine::ensure_supported`].
    pub fn grundy_values(&self, progress: &dyn Progress) -> Result<GrundyValues> {
        self.tuples_for("Grundy values of positions")?;
        self.ensure_supported(&[Ending::Normal])?;
        self.reserve(&[Work::Grundy])?.grundy_values(progress)
    }
}

impl TupleEngine<'_> {
    /// Every state's value, by bands where they apply (`tuples/rows/bands.rs`), else by rounds,
    /// drawn from `grant`.
    pub(crate) fn values(&self, grant: &Grant, progress: &dyn Progress) -> Result<GrundyValues> {
        let values = match self.band_width() {
            Some(width) => {
                let values = self.band_values(grant, width)?;
                progress.advance(self.positions());
                values
            }
            None => self.values_in_rounds(grant, progress)?,
        };
        let pass = self.game.has_pass();
        Ok(GrundyValues { layout: self.layout.clone(), pass, values })
    }

    /// Every state's value, one labelling run per value; the run's tables and the
    /// excluded positions are allocated once, the values kept.
    pub(crate) fn values_in_rounds(
        &self,
        grant: &Grant,
        progress: &dyn Progress,
    ) -> Result<Vec<u32>> {
        let (kept, lease) = (grant.lease(), grant.lease());
        let total = self.positions();
        let mut values = kept.vec(total as usize, 0u32)?;
        let words = crate::engine::tuples::label_table::words_for(self.layout.positions()) as usize;
        let mut excluded: Vec<Vec<u64>> =
            (0..self.pass_states()).map(|_| lease.zeroed_words(words)).collect::<Result<_>>()?;
        let mut buffers = self.buffers(&lease, &lease, 1, Keep::Tables)?;
        let (mut valued, mut value) = (0u64, 0u32);
        while valued < total {
            if value > 0 {
                buffers.clear();
            }
            let endings = [Ending::Normal];
            let () =
                self.label_once(grant, &mut buffers, &endings, Some(&excluded), &(), &NoProgress)?;
            let found = self.give_value(&mut buffers.tables, value, &mut values);
            for (excluded, table) in excluded.iter_mut().zip(&mut buffers.tables) {
                table.for_each_word(|i, word| excluded[i] |= word);
            }
            valued += found;
            value += 1;
            progress.advance(found);
        }
        kept.keep();
        Ok(values)
    }

    /// Gives `value` to every position set in the round's tables (one per track, bit `i`
    /// for position `i`); returns how many.
    fn give_value(&self, tables: &mut [TableWords], value: u32, values: &mut [u32]) -> u64 {
        let states = tables.len();
        let mut found = 0;
        for (state, table) in tables.iter_mut().enumerate() {
            table.for_each_word(|q, word| {
                let mut rest = word;
                while rest != 0 {
                    let index = q * 64 + rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    values[index * states + state] = value;
                    found += 1;
                }
            });
        }
        found
    }
}
