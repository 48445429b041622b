//! A sweep of misère quotients: every game of a family, its quotient for heaps up to `N`
//! computed (with its proof) in parallel over games, each within its limits (the order
//! bound, its time, its memory) and kept as far as it got, one CSV row per game in the
//! family's order; shards and parts as for other sweeps.

use std::io::{self, Write};
use std::ops::Range;
use std::time::Duration;

use rayon::prelude::*;

use super::error::Result;
use super::part_format::Fingerprint;
use super::quotient_bounds::QuotientBounds;
use super::quotient_game::{attempt, Attempt, Limits};
use super::quotient_rows::{quotient_csv_bytes, QuotientRow};
use super::run::BATCH_GAMES;
use super::{check_text, once_each, Family, Params, Shard, SweepError, SweepOutput};
use crate::engine::{NoProgress, Progress};
use crate::export::sweep_part::{write_quotient_header, PartHead, PartLines, QUOTIENT_HEADER};
use crate::model::ending::Ending;
use crate::model::game::Game;
use crate::quotient::{
    max_quotient_heap, order_bound_for, QuotientConfig, QuotientError, DEFAULT_MAX_ORDER,
    MAX_ORDER, MAX_QUOTIENT_HEAP,
};

/// The limits of each game as a front end asks for them, each optional.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QuotientLimits {
    /// The order bound; by default the largest whose tables fit `game_memory`
    /// ([`order_bound_for`]) when that is given, else [`DEFAULT_MAX_ORDER`].
    pub max_order: Option<usize>,
    /// The time each game may take (a `timeout` row past it); none by default.
    pub game_timeout: Option<Duration>,
    /// The bytes each game may hold (a `memory` row past them); by default a share of the
    /// sweep's memory, and the whole of it for a game that passes its share.
    pub game_memory: Option<u64>,
}

impl QuotientLimits {
    /// The bounds of a sweep of heaps up to `max_heap` under these limits.
    pub fn bounds(&self, max_heap: u32) -> QuotientBounds {
        let default_order = self.game_memory.map_or(DEFAULT_MAX_ORDER, order_bound_for);
        QuotientBounds {
            max_heap,
            max_order: self.max_order.unwrap_or(default_order),
            game_timeout: self.game_timeout,
            game_memory: self.game_memory,
        }
    }
}

/// A family of games and the bounds of their quotients, validated.
#[derive(Clone, Debug)]
pub struct QuotientSweep {
    family: Family,
    games: Vec<Game>,
    repeats: Vec<(usize, usize)>,
    bounds: QuotientBounds,
}

impl QuotientSweep {
    /// Parses every game of the family (a game that is not a sum stays, for a
    /// `not_a_sum` row) and checks the bounds, before any work.
    ///
    /// # Errors
    /// [`QuotientError::MaxHeap`], [`QuotientError::MaxOrder`] for bounds out of range;
    /// [`SweepError::ZeroGameLimit`] for a game time or memory of nothing;
    /// [`SweepError::BadGame`] naming the first spec that is not a game, or a game with
    /// three-heap moves when `max_heap` is above
    /// [`crate::quotient::MAX_THREE_HEAP_QUOTIENT_HEAP`].
    pub fn new(family: Family, max_heap: u32, limits: QuotientLimits) -> Result<QuotientSweep> {
        let bounds = limits.bounds(max_heap);
        if max_heap == 0 || max_heap > MAX_QUOTIENT_HEAP {
            return Err(QuotientError::MaxHeap { max_heap, limit: MAX_QUOTIENT_HEAP }.into());
        }
        if bounds.max_order == 0 || bounds.max_order > MAX_ORDER {
            let max_order = bounds.max_order;
            return Err(QuotientError::MaxOrder { max_order, limit: MAX_ORDER }.into());
        }
        if bounds.game_timeout == Some(Duration::ZERO) {
            return Err(SweepError::ZeroGameLimit { what: "time" });
        }
        if bounds.game_memory == Some(0) {
            return Err(SweepError::ZeroGameLimit { what: "memory" });
        }
        let parsed = family
            .specs()
            .iter()
            .enumerate()
            .map(|(i, spec)| {
                let bad =
                    |message: String| SweepError::BadGame { origin: family.origin(i), message };
                check_text(spec).map_err(bad)?;
                let game = Game::parse(spec).map_err(|e| bad(e.to_string()))?;
                let limit = max_quotient_heap(&game);
                if max_heap > limit {
                    return Err(bad(QuotientError::MaxHeap { max_heap, limit }.to_string()));
                }
                Ok(game)
            })
            .collect::<Result<Vec<Game>>>()?;
        let (games, repeats) = once_each(parsed);
        Ok(QuotientSweep { family, games, repeats, bounds })
    }

    /// The family.
    pub fn family(&self) -> &Family {
        &self.family
    }

    /// The bounds every game is computed within.
    pub fn bounds(&self) -> &QuotientBounds {
        &self.bounds
    }

    /// Games run (each game once).
    pub fn games(&self) -> usize {
        self.games.len()
    }

    /// Entries naming a game an earlier entry names, each with that entry.
    pub fn repeats(&self) -> &[(usize, usize)] {
        &self.repeats
    }

    /// The games of one shard.
    pub fn shard_games(&self, shard: Shard) -> Range<usize> {
        shard.games(self.games())
    }

    /// The parameter lines of a part: the bounds ([`QuotientBounds::describe`]),
    /// `rules misere`, `quotients`.
    pub fn params(&self) -> Params {
        Params {
            space: self.bounds.describe(),
            endings: "misere".to_string(),
            test: "quotients".to_string(),
        }
    }

    /// The digest of the parameters and the games, as for other sweeps.
    pub fn fingerprint(&self) -> String {
        let mut fingerprint = Fingerprint::new(&self.params());
        for game in &self.games {
            fingerprint.add_game(game.spec());
        }
        fingerprint.finish()
    }

    /// The head of shard `shard`'s part.
    pub fn part_head(&self, shard: Shard) -> PartHead {
        let games = self.shard_games(shard);
        PartHead {
            fingerprint: self.fingerprint(),
            shard: shard.to_string(),
            rows: games.len() as u64,
            games,
            total_games: self.games(),
            family: self.family.describe(),
            params: self.params(),
            header: QUOTIENT_HEADER.join(","),
        }
    }

    /// The rows of the games `games`, in the family's order (games run in parallel);
    /// progress advances by one per game.
    ///
    /// With a game memory each game holds at most that, and the games run at once must
    /// fit `memory_limit` together. Without one, games share `memory_limit`: each runs
    /// beside the others within the limit divided by the threads, and one that needs more
    /// runs again alone with the whole limit (and what is left of its time), so a row's
    /// status does not depend on the threads.
    ///
    /// # Errors
    /// [`crate::EngineError::Cancelled`] when `progress` is cancelled;
    /// [`SweepError::GameMemoryBeyondBudget`] when the games run at once cannot each have
    /// their memory.
    ///
    /// # Panics
    /// If `games` reaches past the family.
    pub fn run(
        &self,
        games: Range<usize>,
        memory_limit: u64,
        progress: &dyn Progress,
    ) -> Result<Vec<QuotientRow>> {
        let mut rows = Vec::with_capacity(games.len());
        self.run_batches(games, memory_limit, progress, &mut |batch| {
            rows.extend(batch);
            Ok(())
        })?;
        Ok(rows)
    }

    /// Whether `games` games run at once can each hold the game memory within
    /// `memory_limit` (a front end asks before it writes anything).
    ///
    /// # Errors
    /// [`SweepError::GameMemoryBeyondBudget`] when they cannot.
    pub fn check_memory(&self, games: usize, memory_limit: u64) -> Result<()> {
        let Some(per_game) = self.bounds.game_memory else { return Ok(()) };
        let at_once = rayon::current_num_threads().max(1).min(games);
        if per_game.saturating_mul(at_once as u64) > memory_limit {
            let available = memory_limit;
            return Err(SweepError::GameMemoryBeyondBudget { per_game, at_once, available });
        }
        Ok(())
    }

    /// How a game's first attempt runs within `memory_limit` (threads sharing it), and
    /// the memory of an attempt alone after one that needed more (none with a game
    /// memory).
    fn first_limits(&self, games: usize, memory_limit: u64) -> Result<(Limits, Option<u64>)> {
        let threads = rayon::current_num_threads().max(1);
        let config = QuotientConfig {
            max_heap: self.bounds.max_heap,
            max_order: self.bounds.max_order,
            play: Ending::Misere,
            memory_limit: None,
            until_certified: true,
        };
        let time = self.bounds.game_timeout;
        let Some(per_game) = self.bounds.game_memory else {
            let memory = memory_limit / threads as u64;
            return Ok((Limits { config, memory, time, may_ask_more: true }, Some(memory_limit)));
        };
        self.check_memory(games, memory_limit)?;
        Ok((Limits { config, memory: per_game, time, may_ask_more: false }, None))
    }

    /// Game `i`'s row after an attempt within `first` gave `tried`: a game that needed more
    /// runs again alone with `alone` bytes and the rest of its time.
    fn row_of(
        &self,
        i: usize,
        first: &Limits,
        tried: Attempt,
        alone: Option<u64>,
        progress: &dyn Progress,
    ) -> Result<QuotientRow> {
        let (spent, memory) = match (tried, alone) {
            (Attempt::Row(row), _) => return Ok(row),
            (Attempt::NeedsMore { spent }, Some(memory)) => (spent, memory),
            (Attempt::NeedsMore { .. }, None) => {
                unreachable!("with no memory to run alone in, a memory stop is a row")
            }
        };
        let time = first.time.map(|t| t.saturating_sub(spent));
        let again = Limits { config: first.config.clone(), memory, time, may_ask_more: false };
        match attempt(&self.games[i], &again, progress) {
            Some(Attempt::Row(row)) => Ok(row),
            Some(Attempt::NeedsMore { .. }) => unreachable!("a memory stop is final alone"),
            None => Err(crate::EngineError::Cancelled.into()),
        }
    }
}

impl SweepOutput for QuotientSweep {
    type Row = QuotientRow;

    fn games_of(&self, shard: Option<Shard>) -> Range<usize> {
        shard.map_or(0..self.games(), |shard| self.shard_games(shard))
    }

    fn start(&self, out: &mut dyn Write, shard: Option<Shard>) -> io::Result<Option<PartLines>> {
        let Some(shard) = shard else {
            return write_quotient_header(out).map(|()| None);
        };
        PartLines::start(out, &self.part_head(shard)).map(Some)
    }

    /// [`QuotientSweep::run`] a batch of [`BATCH_GAMES`] games at a time, each batch's rows
    /// handed to `each`. Once `progress` is cancelled no further game is started, and the
    /// games running stop within a few thousand steps of their search
    /// ([`crate::EngineError::Cancelled`]).
    fn run_batches(
        &self,
        games: Range<usize>,
        memory_limit: u64,
        progress: &dyn Progress,
        each: &mut dyn FnMut(Vec<QuotientRow>) -> Result<()>,
    ) -> Result<()> {
        assert!(games.end <= self.games(), "games {games:?} of a family of {}", self.games());
        let (first, alone) = self.first_limits(games.len(), memory_limit)?;
        let mut start = games.start;
        while start < games.end {
            let end = games.end.min(start + BATCH_GAMES);
            // A game skipped after a cancel has no row: the whole batch is dropped.
            let tried: Option<Vec<Attempt>> = (start..end)
                .into_par_iter()
                .map(|i| attempt(&self.games[i], &first, progress))
                .collect();
            let mut rows = Vec::with_capacity(end - start);
            for (tried, i) in tried.ok_or(crate::EngineError::Cancelled)?.into_iter().zip(start..) {
                rows.push(self.row_of(i, &first, tried, alone, progress)?);
                progress.advance(1);
            }
            each(rows)?;
            start = end;
        }
        Ok(())
    }

    fn csv(rows: &[QuotientRow]) -> io::Result<Vec<u8>> {
        quotient_csv_bytes(rows)
    }
}

/// The family's games, each once, with the quotient rows a sweep of them writes within
/// the memory the process may use (for tests and callers that want them without a file).
///
/// # Errors
/// As [`QuotientSweep::new`] and [`QuotientSweep::run`].
pub fn quotient_rows(
    family: Family,
    max_heap: u32,
    limits: QuotientLimits,
) -> Result<Vec<QuotientRow>> {
    let sweep = QuotientSweep::new(family, max_heap, limits)?;
    sweep.run(0..sweep.games(), crate::host::memory_limit(), &NoProgress)
}
