//! A sweep of misère quotients: every game of a family, its quotient for heaps up to `N`
//! computed (with its proof) in parallel over games, one CSV row per game
//! (`game,max_heap,order,p_portion_size,tame,preperiod,period,status`) in the family's
//! order; shards and parts as for other sweeps.

use crate::model::ending::Ending;
use std::io::{self, Write};
use std::ops::Range;

use rayon::prelude::*;

use super::error::Result;
use super::part_format::Fingerprint;
use super::run::BATCH_GAMES;
use super::{check_text, once_each, Family, Params, Shard, SweepError, SweepOutput};
use crate::engine::{NoProgress, Progress};
use crate::export::sweep_part::{
    csv_lines, write_quotient_header, PartHead, PartLines, QUOTIENT_HEADER,
};
use crate::model::game::Game;
use crate::quotient::{
    compute, QuotientConfig, QuotientError, QuotientProgress, MAX_ORDER, MAX_QUOTIENT_HEAP,
};

/// What became of one game's quotient: the `status` column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuotientStatus {
    /// `ok`: computed and proved.
    Ok {
        /// The order of the quotient.
        order: usize,
        /// The number of P-portion elements.
        p_portion_size: usize,
        /// Whether it is a tame quotient.
        tame: bool,
        /// The certified period of `Φ` (preperiod, period), when a theorem gives one.
        period: Option<(u32, u32)>,
    },
    /// `grew_past_max_order`: the quotient, or a candidate its search needed, grew past
    /// the order bound.
    GrewPastMaxOrder,
    /// `memory`: the computation needed more memory than the sweep's budget (a game that
    /// passes its share beside the others is run again alone, with the whole budget).
    Memory,
    /// `not_a_sum`: the game is not a sum of heaps, so it has no quotient.
    NotASum,
    /// `proof_failed`: the computed quotient failed its final proof (a bug, never a result).
    ProofFailed,
}

impl QuotientStatus {
    /// The word in the `status` column.
    pub fn name(&self) -> &'static str {
        match self {
            QuotientStatus::Ok { .. } => "ok",
            QuotientStatus::GrewPastMaxOrder => "grew_past_max_order",
            QuotientStatus::Memory => "memory",
            QuotientStatus::NotASum => "not_a_sum",
            QuotientStatus::ProofFailed => "proof_failed",
        }
    }

    /// Every status word.
    pub const NAMES: [&'static str; 5] =
        ["ok", "grew_past_max_order", "memory", "not_a_sum", "proof_failed"];
}

/// One game's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuotientRow {
    /// The game's specification.
    pub game: String,
    /// The largest heap `N`.
    pub max_heap: u32,
    /// What was found.
    pub status: QuotientStatus,
}

impl QuotientRow {
    /// The row's cells, in the order of [`QUOTIENT_HEADER`]; the result cells are empty
    /// unless the status is `ok`, the period cells unless a period is certified.
    pub fn cells(&self) -> [String; 8] {
        let (mut order, mut size, mut tame, mut pre, mut period) = Default::default();
        if let QuotientStatus::Ok { order: o, p_portion_size, tame: t, period: p } = &self.status {
            (order, size, tame) = (o.to_string(), p_portion_size.to_string(), t.to_string());
            if let Some((p0, p)) = p {
                (pre, period) = (p0.to_string(), p.to_string());
            }
        }
        let status = self.status.name().to_string();
        [self.game.clone(), self.max_heap.to_string(), order, size, tame, pre, period, status]
    }
}

/// A family of games and the bound of their quotients, validated.
#[derive(Clone, Debug)]
pub struct QuotientSweep {
    family: Family,
    games: Vec<Game>,
    repeats: Vec<(usize, usize)>,
    max_heap: u32,
    max_order: usize,
}

impl QuotientSweep {
    /// Parses every game of the family (a game that is not a sum stays, for a
    /// `not_a_sum` row) and checks the bounds, before any work.
    ///
    /// # Errors
    /// [`QuotientError::MaxHeap`], [`QuotientError::MaxOrder`] for bounds out of range;
    /// [`SweepError::BadGame`] naming the first spec that is not a game.
    pub fn new(family: Family, max_heap: u32, max_order: usize) -> Result<QuotientSweep> {
        if max_heap == 0 || max_heap > MAX_QUOTIENT_HEAP {
            return Err(QuotientError::MaxHeap { max_heap, limit: MAX_QUOTIENT_HEAP }.into());
        }
        if max_order == 0 || max_order > MAX_ORDER {
            return Err(QuotientError::MaxOrder { max_order, limit: MAX_ORDER }.into());
        }
        let parsed = family
            .specs()
            .iter()
            .enumerate()
            .map(|(i, spec)| {
                let bad =
                    |message: String| SweepError::BadGame { origin: family.origin(i), message };
                check_text(spec).map_err(bad)?;
                Game::parse(spec).map_err(|e| bad(e.to_string()))
            })
            .collect::<Result<Vec<Game>>>()?;
        let (games, repeats) = once_each(parsed);
        Ok(QuotientSweep { family, games, repeats, max_heap, max_order })
    }

    /// The family.
    pub fn family(&self) -> &Family {
        &self.family
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

    /// The parameter lines of a part: `space quotients of heaps up to N, max order K`,
    /// `rules misere`, `quotients`.
    pub fn params(&self) -> Params {
        Params {
            space: format!(
                "quotients of heaps up to {}, max order {}",
                self.max_heap, self.max_order
            ),
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
    /// Games share `memory_limit`: each runs beside the others within the limit divided
    /// by the threads, and one that needs more runs again alone with the whole limit, so
    /// a row's status does not depend on the threads.
    ///
    /// # Errors
    /// [`crate::EngineError::Cancelled`] when `progress` is cancelled.
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

    /// One game's outcome within `memory_limit`; `None` once `progress` is cancelled.
    fn outcome(&self, game: &Game, memory_limit: u64, progress: &dyn Progress) -> Option<Outcome> {
        if progress.cancelled() {
            return None;
        }
        let config = QuotientConfig {
            max_heap: self.max_heap,
            max_order: self.max_order,
            play: Ending::Misere,
            memory_limit: Some(memory_limit),
            until_certified: false,
        };
        let status = match compute(game, &config, &Stopping(progress)) {
            Ok(q) => QuotientStatus::Ok {
                order: q.order(),
                p_portion_size: q.p_portion().len(),
                tame: q.tame(),
                period: q.period().map(|p| (p.preperiod, p.period)),
            },
            Err(QuotientError::GrewPastLimit { .. } | QuotientError::CandidateTooLarge { .. }) => {
                QuotientStatus::GrewPastMaxOrder
            }
            Err(QuotientError::BeyondMemory { .. } | QuotientError::OutOfMemory { .. }) => {
                return Some(Outcome::NeedsMore)
            }
            Err(QuotientError::Cancelled) => return None,
            Err(QuotientError::NotASum { .. }) => QuotientStatus::NotASum,
            // The bounds were checked when the sweep was built: only a failed proof is left.
            Err(_) => QuotientStatus::ProofFailed,
        };
        Some(Outcome::Row(self.row(game, status)))
    }

    /// A game's row of status `status`.
    fn row(&self, game: &Game, status: QuotientStatus) -> QuotientRow {
        QuotientRow { game: game.spec().to_string(), max_heap: self.max_heap, status }
    }
}

/// What a game's computation within some memory gave.
enum Outcome {
    /// Its row.
    Row(QuotientRow),
    /// It needed more memory.
    NeedsMore,
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
        let share = memory_limit / rayon::current_num_threads().max(1) as u64;
        let mut start = games.start;
        while start < games.end {
            let end = games.end.min(start + BATCH_GAMES);
            // A game skipped after a cancel has no row: the whole batch is dropped.
            let beside: Option<Vec<Outcome>> = (start..end)
                .into_par_iter()
                .map(|i| self.outcome(&self.games[i], share, progress))
                .collect();
            let mut rows = Vec::with_capacity(end - start);
            for (outcome, i) in
                beside.ok_or(crate::EngineError::Cancelled)?.into_iter().zip(start..)
            {
                let row = match outcome {
                    Outcome::Row(row) => row,
                    Outcome::NeedsMore => {
                        match self.outcome(&self.games[i], memory_limit, progress) {
                            Some(Outcome::Row(row)) => row,
                            Some(Outcome::NeedsMore) => {
                                self.row(&self.games[i], QuotientStatus::Memory)
                            }
                            None => return Err(crate::EngineError::Cancelled.into()),
                        }
                    }
                };
                progress.advance(1);
                rows.push(row);
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

/// A game's quotient search, stopped when the sweep is cancelled.
struct Stopping<'p>(&'p dyn Progress);

impl QuotientProgress for Stopping<'_> {
    fn heap_done(&self, _heap: u32, _order: usize) {}

    fn cancelled(&self) -> bool {
        self.0.cancelled()
    }
}

/// The rows as CSV lines (no header).
///
/// # Errors
/// The CSV writer's error.
pub fn quotient_csv_bytes(rows: &[QuotientRow]) -> io::Result<Vec<u8>> {
    csv_lines(rows.iter().map(QuotientRow::cells))
}

/// The largest heap of a part's space line `quotients of heaps up to N, max order K`,
/// read back only as written.
pub(super) fn parse_quotient_space(text: &str) -> Option<u32> {
    let rest = text.strip_prefix("quotients of heaps up to ")?;
    let (n, k) = rest.split_once(", max order ")?;
    let (n, k): (u32, usize) = (n.parse().ok()?, k.parse().ok()?);
    let valid = (1..=MAX_QUOTIENT_HEAP).contains(&n) && (1..=MAX_ORDER).contains(&k);
    (valid && format!("quotients of heaps up to {n}, max order {k}") == text).then_some(n)
}

/// Checks one row's cells (as many as [`QUOTIENT_HEADER`]) as a quotient sweep writes
/// them for largest heap `max_heap`.
pub(super) fn check_quotient_cells(
    cells: &[String],
    max_heap: u32,
) -> std::result::Result<(), String> {
    if cells[0].is_empty() {
        return Err("the game cell is empty".to_string());
    }
    if cells[1] != max_heap.to_string() {
        return Err(format!("max_heap '{}' where the sweep's is {max_heap}", cells[1]));
    }
    let status = cells[7].as_str();
    if !QuotientStatus::NAMES.contains(&status) {
        return Err(format!("status '{status}' is not one a quotient sweep writes"));
    }
    let results = &cells[2..7];
    if status != "ok" {
        return match results.iter().all(String::is_empty) {
            true => Ok(()),
            false => Err(format!("a row of status {status} with results")),
        };
    }
    let count = |i: usize| -> std::result::Result<u64, String> {
        match cells[i].parse::<u64>() {
            Ok(n) if n.to_string() == cells[i] => Ok(n),
            _ => Err(format!("{} '{}' is not a count", QUOTIENT_HEADER[i], cells[i])),
        }
    };
    let (order, size) = (count(2)?, count(3)?);
    if order == 0 || size == 0 || size > order {
        return Err(format!("order {order} and P-portion size {size} do not fit"));
    }
    if cells[4] != "true" && cells[4] != "false" {
        return Err(format!("tame '{}' is not true or false", cells[4]));
    }
    match (cells[5].is_empty(), cells[6].is_empty()) {
        (true, true) => Ok(()),
        (false, false) if count(5).is_ok() && count(6).is_ok_and(|p| p > 0) => Ok(()),
        _ => Err("the preperiod and period cells do not make a period".to_string()),
    }
}

/// The family's games, each once, with the quotient rows a sweep of them writes within
/// the memory the process may use (for tests and callers that want them without a file).
///
/// # Errors
/// As [`QuotientSweep::new`].
pub fn quotient_rows(family: Family, max_heap: u32, max_order: usize) -> Result<Vec<QuotientRow>> {
    let sweep = QuotientSweep::new(family, max_heap, max_order)?;
    sweep.run(0..sweep.games(), crate::host::memory_limit(), &NoProgress)
}
