//! Running a sweep: games in parallel (work stealing), each game's spaces through the
//! engine (itself parallel inside), rows collected in the family's order.

use std::io::{self, Write};
use std::ops::Range;

use rayon::prelude::*;

use super::error::Result;
use super::parts::{csv_bytes, write_header};
use super::{Shard, Sweep, SweepError, SweepOutput, SweepRow, Test};
use crate::analysis::claim::{claim_work, test_claim, ClaimError};
use crate::analysis::verify::{prepare, verify};
use crate::engine::{Engine, Progress};
use crate::export::summary::NO_CRITERION;
use crate::export::sweep_part::PartLines;
use crate::model::game::Game;
use crate::model::space::Space;

/// Whether a game's run may share the memory limit with runs of other games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    /// Every space fits in the limit divided by the threads: runs beside other games.
    Shared,
    /// A space needs more: the game runs alone afterwards, with the whole limit.
    Alone,
}

/// Games per batch of [`SweepOutput::run_batches`]: a batch's rows are all that is kept in
/// memory at once, whatever the family's size.
pub const BATCH_GAMES: usize = 1024;

impl SweepOutput for Sweep {
    type Row = SweepRow;

    fn games_of(&self, shard: Option<Shard>) -> Range<usize> {
        shard.map_or(0..self.games(), |shard| self.shard_games(shard))
    }

    fn start(&self, out: &mut dyn Write, shard: Option<Shard>) -> io::Result<Option<PartLines>> {
        match shard {
            Some(shard) => PartLines::start(out, &self.part_head(shard)).map(Some),
            None => write_header(out).map(|()| None),
        }
    }

    /// Checks the games `games` like [`Sweep::run`], a batch of [`BATCH_GAMES`] games at a
    /// time, and hands each batch's rows to `each` in the family's order. Every game is
    /// checked to fit in memory before the first batch starts.
    fn run_batches(
        &self,
        games: Range<usize>,
        memory_limit: u64,
        progress: &dyn Progress,
        each: &mut dyn FnMut(Vec<SweepRow>) -> Result<()>,
    ) -> Result<()> {
        let slots = self.slots(games.clone(), memory_limit)?;
        let mut start = games.start;
        while start < games.end {
            let end = games.end.min(start + BATCH_GAMES);
            let batch = &slots[start - games.start..end - games.start];
            each(self.run_in(start..end, batch, memory_limit, progress)?)?;
            start = end;
        }
        Ok(())
    }

    fn csv(rows: &[SweepRow]) -> io::Result<Vec<u8>> {
        csv_bytes(rows)
    }
}

impl Sweep {
    /// Where each game of `games` runs; an error if one does not fit even alone.
    fn slots(&self, games: Range<usize>, memory_limit: u64) -> Result<Vec<Slot>> {
        assert!(games.end <= self.games(), "games {games:?} of a family of {}", self.games());
        let share = memory_limit / rayon::current_num_threads().max(1) as u64;
        games.map(|i| self.slot(&self.games[i], memory_limit, share)).collect()
    }

    /// Checks the games `games` (indices into the family) and returns their rows in the
    /// family's order: per game, heap count by heap count, ending by ending, criterion by
    /// criterion. Games run in parallel on the current rayon pool; progress advances by
    /// one per finished game.
    ///
    /// Runs share `memory_limit`: a game whose tables fit in its share (the limit divided
    /// by the threads) runs beside others, a larger one alone with the whole limit.
    ///
    /// # Errors
    /// [`crate::EngineError::TooLarge`] before any work if a game does not fit even alone;
    /// [`SweepError::InGame`] for the first game, in family order, whose claim cannot be
    /// evaluated somewhere.
    ///
    /// # Panics
    /// If `games` reaches past the family.
    pub fn run(
        &self,
        games: Range<usize>,
        memory_limit: u64,
        progress: &dyn Progress,
    ) -> Result<Vec<SweepRow>> {
        let slots = self.slots(games.clone(), memory_limit)?;
        self.run_in(games, &slots, memory_limit, progress)
    }

    /// [`Sweep::run`] of the games `games` whose places `slots` are planned already.
    fn run_in(
        &self,
        games: Range<usize>,
        slots: &[Slot],
        memory_limit: u64,
        progress: &dyn Progress,
    ) -> Result<Vec<SweepRow>> {
        let share = memory_limit / rayon::current_num_threads().max(1) as u64;
        let mut results: Vec<Option<Result<Vec<SweepRow>>>> = games
            .clone()
            .into_par_iter()
            .zip(slots.par_iter())
            .map(|(i, &slot)| {
                (slot == Slot::Shared).then(|| {
                    let rows = self.run_game(&self.games[i], share, progress);
                    progress.advance(1);
                    rows
                })
            })
            .collect();
        for (result, i) in results.iter_mut().zip(games) {
            if result.is_none() {
                *result = Some(self.run_game(&self.games[i], memory_limit, progress));
                progress.advance(1);
            }
        }
        let mut rows = Vec::with_capacity(results.len() * self.rows_per_game());
        for result in results {
            rows.extend(result.expect("every game ran")?);
        }
        Ok(rows)
    }

    /// Where a game runs; an error if one of its spaces does not fit even alone. Each
    /// space is prepared as its run will be (the same memory check), and the game shares
    /// the pool if every space fits in `share`.
    fn slot(&self, game: &Game, limit: u64, share: u64) -> Result<Slot> {
        let mut slot = Slot::Shared;
        for space in self.space.spaces() {
            let engine = Engine::builder(game, space.clone()).memory_limit(limit).build();
            let need = match &self.test {
                Test::Criteria(criteria) => prepare(&engine, &self.endings, criteria, 1)?.bytes(),
                Test::Claim(expr) => {
                    let work = claim_work(&engine, expr.operators(), 1);
                    self.endings.iter().try_for_each(|&e| engine.ensure_supported(&[e]))?;
                    engine.reserve(&work)?.grant().bytes()
                }
            };
            if need > share {
                slot = Slot::Alone;
            }
        }
        Ok(slot)
    }

    /// Every row of one game.
    fn run_game(
        &self,
        game: &Game,
        memory_limit: u64,
        progress: &dyn Progress,
    ) -> Result<Vec<SweepRow>> {
        // A game's own runs report no progress (the sweep counts games), but they stop
        // when the sweep is cancelled.
        let cancel = &CancelOnly(progress);
        if cancel.cancelled() {
            return Err(crate::EngineError::Cancelled.into());
        }
        let mut rows = Vec::with_capacity(self.rows_per_game());
        for space in self.space.spaces() {
            let engine = Engine::builder(game, space.clone()).memory_limit(memory_limit).build();
            match &self.test {
                Test::Criteria(criteria) => {
                    // Only the first counterexample is reported.
                    let run = verify(&engine, &self.endings, criteria, 1, cancel)?;
                    rows.extend(run.findings.into_iter().map(|f| SweepRow {
                        game: f.game,
                        heaps: f.heaps,
                        max: f.max,
                        total: f.total,
                        ending: f.ending,
                        test: f.criterion.map_or(NO_CRITERION, |c| c.name()).to_string(),
                        theorem: f.theorem,
                        tally: f.tally,
                    }));
                }
                Test::Claim(expr) => {
                    let grundy = game.grundy(space.max());
                    let program = expr.compile(space, &grundy).map_err(SweepError::Claim)?;
                    // A multiset space's rows name it by its total, as `verify` does.
                    let (heaps, total) = match space {
                        Space::Tuples(tuples) => (tuples.heaps(), None),
                        Space::Multisets(multisets) => (0, Some(multisets.total())),
                    };
                    for &ending in &self.endings {
                        let tally = test_claim(&engine, ending, &program, 1, cancel)
                            .map_err(|e| in_game(game, e))?;
                        rows.push(SweepRow {
                            game: game.spec().to_string(),
                            heaps,
                            max: space.max(),
                            total,
                            ending,
                            test: expr.text().to_string(),
                            theorem: false,
                            tally,
                        });
                    }
                }
            }
        }
        Ok(rows)
    }
}

/// A claim's evaluation error, with the game named.
fn in_game(game: &Game, e: ClaimError) -> SweepError {
    match e {
        ClaimError::Eval(eval) => {
            SweepError::InGame { game: game.spec().to_string(), message: eval.to_string() }
        }
        ClaimError::Space(other) => other.into(),
    }
}

/// Forwards a sweep's cancellation to the runs of one game, and none of their progress.
struct CancelOnly<'a>(&'a dyn Progress);

impl Progress for CancelOnly<'_> {
    fn advance(&self, _positions: u64) {}

    fn cancelled(&self) -> bool {
        self.0.cancelled()
    }
}
