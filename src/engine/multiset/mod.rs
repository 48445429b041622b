//! The multiset engine: P/N labels of every multiset of heaps of total at most `T`.
//!
//! A take-and-break move replaces one heap by at most two whose sizes sum to at most its
//! own, so tuples of a fixed heap count are not closed under moves; multisets of bounded
//! total are. Every move lowers the total, or keeps it and adds a heap (an in-place
//! split), so layers in order of (total, heap count descending) put every option of a
//! position in an earlier layer (`solve.rs`). Labels come from the move rule only: a
//! position is P iff the ending does not force it N and no option is P; Grundy values
//! only find the SJ ending's terminal positions.

mod moves;
mod rows;
mod solve;
mod table;

pub(crate) use table::MultisetTable;

use crate::engine::error::{EngineError, Result};
use crate::engine::memory::Grant;
use crate::engine::visitor::Progress;
use crate::engine::Settings;
use crate::model::ending::Ending;
use crate::model::game::Game;
use crate::model::multiset::MultisetSpace;
use moves::Predecessors;
use solve::Solver;
use table::Packing;

/// The most positions of a parallel task.
const CHUNK: u64 = 1 << 14;

/// Labels the positions of one multiset space of one game: the algorithm of an
/// [`super::Engine`] over multisets.
#[derive(Clone, Debug)]
pub(crate) struct MultisetEngine<'g> {
    game: &'g Game,
    space: MultisetSpace,
    parallel_threshold: u64,
    memory_limit: u64,
}

impl<'g> MultisetEngine<'g> {
    /// The engine over `space`, with the builder's settings.
    pub fn new(game: &'g Game, space: MultisetSpace, settings: &Settings) -> MultisetEngine<'g> {
        let (parallel_threshold, memory_limit) =
            (settings.parallel_threshold, settings.memory_limit);
        MultisetEngine { game, space, parallel_threshold, memory_limit }
    }

    /// The game labelled.
    pub fn game(&self) -> &'g Game {
        self.game
    }

    /// The space labelled.
    pub fn space(&self) -> &MultisetSpace {
        &self.space
    }

    /// Bytes a run may allocate.
    pub fn memory_limit(&self) -> u64 {
        self.memory_limit
    }

    /// Refuses a game that is not a sum (a multiset holds heaps, not a shared resource
    /// or an order), and a list of endings that is empty or repeats one.
    ///
    /// # Errors
    /// [`crate::ModelError::NotASum`] (as [`EngineError::Model`]);
    /// [`EngineError::BadEndings`] naming the endings.
    pub fn ensure_supported(&self, endings: &[Ending]) -> Result<()> {
        let mut distinct = endings.to_vec();
        distinct.sort();
        distinct.dedup();
        if endings.is_empty() || distinct.len() != endings.len() {
            return Err(EngineError::BadEndings { endings: format!("{endings:?}") });
        }
        Ok(self.game.require_sum("a space of multisets of heaps")?)
    }

    /// Bytes a run over `endings` endings needs: the packed bits (one per position and
    /// ending, `64 / endings` positions per word), the rank tables, the move tables and
    /// each ending's terminal sizes (with the Grundy values the SJ ending reads).
    pub fn memory_bytes(&self, endings: usize) -> u64 {
        let packing = Packing { endings: endings.clamp(1, 3) as u32 };
        let t = u64::from(self.space.total()) + 1;
        let rank_tables = 8 * (t * t + t + 1);
        let forces = endings as u64 * (t + self.game.grundy_bytes(self.space.total()));
        packing.words(self.space.positions()).saturating_mul(8)
            + rank_tables
            + Predecessors::bytes_bound(self.space.total())
            + forces
    }

    /// Bytes of the row buffers of streaming `endings` endings' rows (see
    /// [`MultisetTable::stream`]), per task of rayon's current pool: a row's prefix,
    /// ranks and bits.
    pub fn row_buffer_bytes(&self, endings: usize) -> u64 {
        let columns = u64::from(self.space.total()) + 1;
        let tasks = rayon::current_num_threads() as u64;
        tasks * (columns * (4 + 8) + columns.div_ceil(64) * 8 * endings as u64)
    }

    /// The one memory check of a run over `endings` endings while the caller holds
    /// `beside` bytes of its own, and its grant.
    ///
    /// # Errors
    /// [`crate::ModelError::NotASum`] (as [`EngineError::Model`]) for a game that is not a
    /// sum; [`EngineError::MultisetsTooLarge`] with the bytes needed and allowed.
    pub fn reserve(&self, endings: usize, beside: u64) -> Result<Grant> {
        self.game.require_sum("a space of multisets of heaps")?;
        let need = self.memory_bytes(endings).saturating_add(beside);
        if need <= self.memory_limit {
            return Ok(Grant::new(self.describe(), need));
        }
        let what = self.describe();
        Err(EngineError::MultisetsTooLarge {
            what,
            need_bytes: need,
            limit_bytes: self.memory_limit,
        })
    }

    /// The space as messages name it.
    fn describe(&self) -> String {
        format!(
            "{}, every multiset of heaps of total at most {} ({} positions)",
            self.game.spec(),
            self.space.total(),
            self.space.positions()
        )
    }

    /// Labels every position under each of `endings` (at most three, without repeats)
    /// in one labelling, on rayon's current pool, drawing from `grant` (of
    /// [`MultisetEngine::reserve`]).
    ///
    /// # Errors
    /// [`EngineError::OutOfMemory`] if the system refuses the marks;
    /// [`EngineError::BadEndings`] for no ending, a repeated one, or more than three.
    pub fn label_all(
        &self,
        grant: &Grant,
        endings: &[Ending],
        progress: &dyn Progress,
    ) -> Result<MultisetTable> {
        self.ensure_supported(endings)?;
        let total = self.space.total();
        let packing = Packing { endings: endings.len() as u32 };
        let words = packing.words(self.space.positions());
        let refused = || EngineError::OutOfMemory { what: self.describe(), bytes: words * 8 };
        let kept = grant.lease();
        let marks = kept.zeroed_atomics(usize::try_from(words).map_err(|_| refused())?)?;
        kept.keep();
        let forces = endings
            .iter()
            .map(|&e| (e != Ending::Normal).then(|| e.terminal_sizes(self.game, total)))
            .collect();
        let solver = Solver {
            space: &self.space,
            moves: Predecessors::of(self.game, total),
            forces,
            packing,
            marks,
            parallel_threshold: self.parallel_threshold,
            chunk: self.parallel_threshold.clamp(16, CHUNK),
        };
        solver.run(progress);
        if progress.cancelled() {
            return Err(EngineError::Cancelled);
        }
        let words = solver.into_p_words();
        Ok(MultisetTable { space: self.space.clone(), endings: endings.to_vec(), packing, words })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::MultiHeapPath;
    use crate::engine::NoProgress;
    use crate::model::multiset::Walk;

    /// The default settings with a memory limit of `bytes`.
    fn settings(bytes: u64) -> Settings {
        let path = MultiHeapPath::Accumulators;
        Settings { parallel_threshold: CHUNK, memory_limit: bytes, multi_heap_path: path }
    }

    fn labels(spec: &str, total: u64) -> MultisetTable {
        let game = Game::parse(spec).unwrap();
        let engine =
            MultisetEngine::new(&game, MultisetSpace::new(total).unwrap(), &settings(1 << 30));
        let grant = engine.reserve(3, 0).unwrap();
        engine.label_all(&grant, &Ending::ALL, &NoProgress).unwrap()
    }

    #[test]
    fn misere_kayles_single_heaps_that_are_p() {
        let table = labels("octal:0.77", 40);
        let rank = |heaps: &[u32]| table.space().rank(heaps).unwrap();
        let p: Vec<u32> = (1..=40).filter(|&h| table.is_p(1, rank(&[h]))).collect();
        assert_eq!(p, vec![1, 4, 9, 12, 20]);
        assert!(table.is_p(0, rank(&[])));
        assert!(!table.is_p(2, rank(&[])));
    }

    #[test]
    fn rank_after_ranks_the_changed_position() {
        let space = MultisetSpace::new(40).unwrap();
        let game = Game::octal("0.77").unwrap();
        let solver = Solver {
            space: &space,
            moves: Predecessors::of(&game, 40),
            forces: vec![None],
            packing: Packing { endings: 1 },
            marks: Vec::new(),
            parallel_threshold: 0,
            chunk: 16,
        };
        let walk = Walk::at(&[7, 7, 4, 2, 2, 2, 1]);
        for (b, c, a) in [(0, 0, 3), (0, 0, 7), (4, 0, 6), (7, 2, 10), (2, 2, 5), (1, 0, 2)] {
            let mut changed = walk.heaps();
            for gone in [b, c].into_iter().filter(|&h| h > 0) {
                let at = changed.iter().position(|&h| h == gone).unwrap();
                changed.remove(at);
            }
            changed.push(a);
            let total = changed.iter().sum();
            let expected = space.rank(&changed).unwrap();
            assert_eq!(solver.rank_after(walk.runs(), total, b, c, a), expected, "{b} {c} {a}");
        }
    }

    #[test]
    fn layer_prefixes_come_in_rank_order() {
        for total in 1..=12 {
            for heaps in 1..=total {
                let prefixes = solve::layer_prefixes(total, heaps);
                let mut sorted = prefixes.clone();
                sorted.sort_unstable_by(|a, b| b.cmp(a));
                assert_eq!(prefixes, sorted, "({total}, {heaps})");
            }
        }
    }

    #[test]
    fn counts_read_the_packed_bits_of_each_ending() {
        let table = labels("octal:0.137", 18);
        let positions = table.space().positions();
        for j in 0..3 {
            let ones = (0..positions).filter(|&rank| table.is_p(j, rank)).count();
            assert_eq!(ones as u64, table.p_count(j));
        }
    }

    #[test]
    fn runs_beyond_memory_and_bad_ending_lists_are_refused() {
        let game = Game::nim();
        let space = MultisetSpace::new(60).unwrap();
        let engine = MultisetEngine::new(&game, space, &settings(1 << 19));
        let err = engine.reserve(1, 0).unwrap_err().to_string();
        assert!(err.contains("total at most 60 (6639349 positions)"), "{err}");
        let small = MultisetEngine::new(&game, MultisetSpace::new(3).unwrap(), &settings(1 << 30));
        assert!(small.ensure_supported(&[Ending::Sj, Ending::Sj]).is_err());
    }
}
