//! Solving one code: its Grundy sequence to a certified period or to the budget, the
//! statistics of the computed values, and its misère quotient.

use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

use super::code::AtlasCode;
use super::entry::{ArithmeticEvidence, AtlasSettings, CertifiedPeriod, Entry, RareSplit, Stop};
use super::quotient_cell::quotient_of;
use super::work::WorkDir;
use super::AtlasError;
use crate::engine::NoProgress;
use crate::model::error::ModelError;
use crate::model::game::Game;
use crate::model::grundy_sequence::MAX_THREE_HEAP_SEQUENCE;
use crate::sequence::period::{Certificate, PeriodOutcome, Periodicity, Uncertified};
use crate::sequence::values::disk_store::hex;
use crate::sequence::{
    is_rare, Goal, Histogram, Observer, Sequence, SequenceError, Settings, Start, Store,
};

/// Values the entry keeps from the start of the sequence.
pub const FIRST_VALUES: usize = 100;

/// A split is reported when at most one heap in this many is rare: the sparse-space
/// method pays only when the rare heaps are few (a code computed to `2^20` costs about
/// its rare heaps times `2^20`; at one heap in 32 rare at `2^16`, a few seconds).
const RARE_SHARE: u64 = 32;

/// Asks a long computation to stop.
pub trait Cancel: Sync {
    /// Whether to stop now.
    fn cancelled(&self) -> bool;
}

/// Never stops.
impl Cancel for NoProgress {
    fn cancelled(&self) -> bool {
        false
    }
}

/// How one code's sequence runs go: the caller's cancel flag, the deadline of the time
/// budget, and the work directory for runs too long to keep in memory.
struct Runs<'a> {
    code: &'a AtlasCode,
    game: Game,
    cancel: &'a dyn Cancel,
    deadline: Option<Instant>,
    work: Option<&'a WorkDir>,
}

/// A sequence run's observer: the cancel flag, the deadline, and the checkpoints of a run
/// with its values on disk.
struct RunObserver<'r, 'a> {
    runs: &'r Runs<'a>,
}

impl Observer for RunObserver<'_, '_> {
    fn cancelled(&self) -> bool {
        self.runs.cancel.cancelled()
    }

    fn stop_here(&self) -> bool {
        self.runs.out_of_time()
    }

    fn save_checkpoint(&mut self, checkpoint: &[u8]) -> Result<(), SequenceError> {
        match self.runs.work {
            Some(work) => work.save_checkpoint(self.runs.code, checkpoint),
            None => Ok(()),
        }
    }
}

/// Everything the atlas states about `code`, computed under `settings`; `horizons` are
/// the heaps at which the classes compare sequences (a fingerprint is kept for each one
/// the values reach). A run to more than [`super::DISK_FROM`] heaps (or the work
/// directory's own bound) keeps its values in `work` when there is one, with checkpoints
/// from which it resumes; the caller removes them ([`WorkDir::discard`]) once the entry
/// is kept. A hexadecimal code's values are computed in memory to the dense budget at
/// most (no sparse-space engine takes moves that leave three heaps), with checkpoints
/// holding them in `work` past `THREE_HEAP_CHECKPOINT_FROM` heaps.
///
/// # Errors
/// [`AtlasError::Cancelled`] when `cancel` asks; a sequence run's error.
pub fn solve_code(
    code: &AtlasCode,
    settings: &AtlasSettings,
    horizons: &[u64],
    work: Option<&WorkDir>,
    cancel: &dyn Cancel,
) -> Result<Entry, AtlasError> {
    // A time too far to represent is no bound.
    let deadline =
        settings.seconds.and_then(|s| Instant::now().checked_add(Duration::from_secs(s)));
    let runs = Runs { code, game: code.game(), cancel, deadline, work };
    let (mut sequence, stopped) = runs.sequence(settings)?;
    // The atlas's certified periods are ordinary ones (its classes continue a sequence by
    // its period); a proved arithmetic period is kept with the arithmetic evidence.
    let (period, arithmetic) = match sequence.period() {
        Some(PeriodOutcome::Certified(found)) if found.saltus > 0 => {
            let (preperiod, period, saltus) = (found.preperiod, found.period, found.saltus);
            let through = found.checked_through;
            (None, Some(ArithmeticEvidence { preperiod, period, saltus, through, proved: true }))
        }
        Some(PeriodOutcome::Certified(found)) => (Some(*found), None),
        Some(PeriodOutcome::NotCertified {
            reason: Uncertified::Arithmetic { found, through, .. },
            ..
        }) => {
            let (preperiod, period, saltus) = (found.preperiod, found.period, found.saltus);
            let through = *through;
            (None, Some(ArithmeticEvidence { preperiod, period, saltus, through, proved: false }))
        }
        _ => (None, None),
    };
    // Past the computed values, a certified period (saltus 0) or a proved arithmetic
    // period gives every value: `G(e + qp + r) = G(e + r) + qs`.
    let rule = match sequence.period() {
        Some(PeriodOutcome::Certified(found)) => {
            Some((found.preperiod, found.period, found.saltus))
        }
        _ => None,
    };
    let stats = Stats::of(&mut sequence, rule, horizons)?;
    let rare = stats.rare_split(&mut sequence, period.is_none())?;
    drop(sequence);
    let quotient = quotient_of(&runs.game, settings, &|| cancel.cancelled())?;
    Ok(Entry {
        code: code.to_string(),
        settings: *settings,
        period: period.map(|p| certified(&p)),
        arithmetic,
        computed_to: stats.computed - 1,
        stopped,
        largest_value: stats.largest.0,
        largest_at: stats.largest.1,
        rare: rare.as_ref().map(|(split, _)| *split),
        rare_heaps: rare.map_or(Vec::new(), |(_, heaps)| heaps),
        quotient,
        first_values: stats.first_values,
        block: stats.block,
        fingerprints: stats.fingerprints,
    })
}

impl Runs<'_> {
    fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|deadline| Instant::now() >= deadline)
    }

    /// The sequence to a certified period, or to the dense budget when the values there do
    /// not split into common and rare, or to the budget, or as far as the time budget
    /// allows.
    fn sequence(&self, settings: &AtlasSettings) -> Result<(Sequence, Stop), AtlasError> {
        let first = settings.dense_budget.min(settings.budget);
        // The first run is always in memory (the dense budget is at most `DISK_FROM`): its
        // values are read whole to decide what comes next, and it must never cut short the
        // values file of a longer run of the code that was stopped.
        let mut sequence = self.period_run(first, false)?;
        if let Some(stop) = ended(&sequence, first) {
            return Ok((sequence, stop));
        }
        let Some((max, stop)) = self.continuation(&mut sequence, settings)? else {
            let stop = if first == settings.budget { Stop::Budget } else { Stop::Dense };
            return Ok((sequence, stop));
        };
        drop(sequence);
        let sequence = self.period_run(max, true)?;
        let stop = ended(&sequence, max).unwrap_or(stop);
        Ok((sequence, stop))
    }

    /// Where the run goes on after the dense budget: to the budget when the values split
    /// into common and rare, to the heap a period's certificate needs when the values
    /// already repeat with one (up to twice the dense budget), else nowhere.
    fn continuation(
        &self,
        sequence: &mut Sequence,
        settings: &AtlasSettings,
    ) -> Result<Option<(u64, Stop)>, AtlasError> {
        let first = settings.dense_budget.min(settings.budget);
        if first == settings.budget {
            return Ok(None);
        }
        let values = read_values(sequence)?;
        // The sparse-space engine that makes a split worth a longer run takes moves that
        // leave at most two heaps; a hexadecimal code stays within what memory holds.
        if !self.code.is_hex() && splits(&values) {
            return Ok(Some((settings.budget, Stop::Budget)));
        }
        let mut longest = (2 * first).min(settings.budget);
        if self.code.is_hex() {
            longest = longest.min(u64::from(MAX_THREE_HEAP_SEQUENCE));
        }
        Ok(match candidate_end(&self.game, &values) {
            Some(end) if end <= longest => Some((end, Stop::Dense)),
            _ => None,
        })
    }

    /// A period search of the code to heap `max` on the calling thread: in memory, or (when
    /// `on_disk` allows) in the work directory's values file past its bound
    /// ([`super::DISK_FROM`] heaps).
    fn period_run(&self, max: u64, on_disk: bool) -> Result<Sequence, AtlasError> {
        let mut settings = Settings::new(Goal::Period, max).threads(1);
        // A hexadecimal code's values are computed in memory, whatever the store; a long
        // run of one checkpoints them (its checkpoint never cuts another run's values).
        let start = match (self.work, self.game.heap_rule(), self.game.three_heap_rule()) {
            (Some(work), Some(rule), _) if on_disk && work.takes(max) => {
                settings = settings.checkpoint_every(Some(work.checkpoint_every()));
                work.start(self.code, self.game.spec(), &rule, max)?
            }
            (Some(work), None, Some(rule)) if work.checkpoints_three_heaps(max) => {
                settings = settings.checkpoint_every(Some(work.checkpoint_every()));
                work.start_three_heaps(self.code, self.game.spec(), &rule)?
            }
            (_, Some(_), _) => Start::Fresh(Store::in_memory(max + 1)),
            (_, None, _) => Start::Fresh(Store::in_memory(0)),
        };
        match self.game.grundy_sequence(&settings, start, &mut RunObserver { runs: self }) {
            Err(ModelError::Sequence(SequenceError::Cancelled)) => Err(AtlasError::Cancelled),
            ran => Ok(ran?),
        }
    }
}
/// Periods a dense code's values are searched for at its dense budget.
const LONGEST_CANDIDATE: usize = 1 << 12;
/// A candidate period must have repeated this many times in the values.
const CANDIDATE_REPEATS: usize = 8;

/// The heap through which the values must be computed to certify the period the values
/// already repeat with, if there is one: the least `p` (up to [`LONGEST_CANDIDATE`]) with
/// `G(n) = G(n + p)` on at least [`CANDIDATE_REPEATS`] periods at the end of the values. A
/// code whose values do not split may still have a period whose certificate needs a
/// little more than the dense budget.
fn candidate_end(game: &Game, values: &[u32]) -> Option<u64> {
    let last = values.len() - 1;
    let (e, p) = (1..=LONGEST_CANDIDATE.min(last / CANDIDATE_REPEATS)).find_map(|p| {
        let mut e = last - p + 1;
        while e > 0 && values[e - 1] == values[e - 1 + p] {
            e -= 1;
        }
        (last + 1 - e >= CANDIDATE_REPEATS * p + p).then_some((e as u64, p as u64))
    })?;
    let theorem = Certificate::for_game(game)?;
    Some(theorem.window_end(e, p) + p - 1)
}

fn certified_in(sequence: &Sequence) -> bool {
    matches!(sequence.period(), Some(PeriodOutcome::Certified(_)))
}

/// Why a run to `max` ended where it did: a certificate, or the time budget short of
/// `max`; `None` when it reached `max` without a certificate.
fn ended(sequence: &Sequence, max: u64) -> Option<Stop> {
    if certified_in(sequence) {
        Some(Stop::Certified)
    } else if sequence.computed() < max + 1 {
        Some(Stop::Time)
    } else {
        None
    }
}

/// The computed values (a period search stops at its certificate: heaps up to there).
/// Only for runs kept in memory (at most the dense budget's).
fn read_values(sequence: &mut Sequence) -> Result<Vec<u32>, AtlasError> {
    let computed = sequence.computed();
    let mut values = Vec::with_capacity(computed as usize);
    sequence.for_each(0..=computed - 1, &mut |_, v| values.push(v as u32))?;
    Ok(values)
}

/// Whether the values split into common and rare: at most one heap in [`RARE_SHARE`] rare
/// under the mask with the fewest.
fn splits(values: &[u32]) -> bool {
    let mut histogram = Histogram::default();
    values.iter().for_each(|&v| histogram.add(v));
    histogram.rare_count(histogram.fewest_rare_mask()) * RARE_SHARE <= values.len() as u64
}

fn certified(found: &Periodicity) -> CertifiedPeriod {
    let end = found.certificate.window_end(found.preperiod, found.period);
    CertifiedPeriod {
        preperiod: found.preperiod,
        period: found.period,
        checked_through: found.checked_through,
        theorem: found.certificate.name().to_string(),
        window: (found.preperiod, end),
    }
}

/// Every rare heap with its value.
type RareHeaps = Vec<(u64, u32)>;

/// What one pass over the computed values gives: without holding them, so that a run
/// with its values on disk stays within its plan's memory.
struct Stats {
    /// Values computed.
    computed: u64,
    /// The largest value and its first heap.
    largest: (u32, u64),
    /// How many heaps have each value.
    histogram: Histogram,
    first_values: Vec<u32>,
    /// With a certified period, `G(0..preperiod + period)`.
    block: Vec<u32>,
    fingerprints: Vec<(u64, String)>,
}

impl Stats {
    /// The statistics of `sequence`'s computed values; the fingerprints at `horizons` and
    /// at the last computed heap (past it, with `rule = (e, p, s)`, the values follow
    /// `G(n + p) = G(n) + s`); the block is kept for an ordinary certified period (`s = 0`).
    fn of(
        sequence: &mut Sequence,
        rule: Option<(u64, u64, u64)>,
        horizons: &[u64],
    ) -> Result<Stats, AtlasError> {
        let computed = sequence.computed();
        let mut horizons: Vec<u64> = horizons.to_vec();
        horizons.push(computed - 1);
        horizons.sort_unstable();
        horizons.dedup();
        let block_len = rule.map_or(0, |(e, p, _)| e + p);
        let mut stats = Stats {
            computed,
            largest: (0, 0),
            histogram: Histogram::default(),
            first_values: Vec::new(),
            block: Vec::new(),
            fingerprints: Vec::new(),
        };
        let mut hasher = Sha256::new();
        let mut pending = horizons.iter().copied().peekable();
        sequence.for_each(0..=computed - 1, &mut |n, v| {
            let v = v as u32;
            if v > stats.largest.0 {
                stats.largest = (v, n);
            }
            stats.histogram.add(v);
            if stats.first_values.len() < FIRST_VALUES {
                stats.first_values.push(v);
            }
            if n < block_len {
                stats.block.push(v);
            }
            hasher.update(v.to_le_bytes());
            if pending.next_if_eq(&n).is_some() {
                stats.fingerprints.push((n, hex(&hasher.clone().finalize())));
            }
        })?;
        if let Some((e, p, s)) = rule {
            stats.continue_fingerprints(&mut hasher, pending, (e, p, s));
            if s > 0 {
                stats.block.clear();
            }
        }
        Ok(stats)
    }

    /// The fingerprints at the horizons `pending` past the computed values, whose values
    /// the block and `G(e + qp + r) = G(e + r) + qs` give. A fingerprint hashes values as
    /// 4 bytes, so the horizons from the first value above `u32::MAX` on get none: such a
    /// sequence agrees there with no computed one, and is compared only below.
    fn continue_fingerprints(
        &mut self,
        hasher: &mut Sha256,
        pending: impl Iterator<Item = u64>,
        (e, p, s): (u64, u64, u64),
    ) {
        let mut next = self.computed;
        for h in pending {
            while next <= h {
                let (q, r) = ((next - e) / p, (next - e) % p);
                let value = q.checked_mul(s).and_then(|qs| {
                    u32::try_from(u64::from(self.block[(e + r) as usize]) + qs).ok()
                });
                let Some(value) = value else { return };
                hasher.update(value.to_le_bytes());
                next += 1;
            }
            self.fingerprints.push((h, hex(&hasher.clone().finalize())));
        }
    }

    /// The rare/common split of the values, when at most one heap in [`RARE_SHARE`] is
    /// rare, with every rare heap when `with_heaps` (then a second pass over the values).
    fn rare_split(
        &self,
        sequence: &mut Sequence,
        with_heaps: bool,
    ) -> Result<Option<(RareSplit, RareHeaps)>, AtlasError> {
        let mask = self.histogram.fewest_rare_mask();
        // Decided from the histogram first: a code whose values do not split never
        // gathers its rare heaps (half of them, or more).
        if self.histogram.rare_count(mask) * RARE_SHARE > self.computed {
            return Ok(None);
        }
        let (mut count, mut last, mut heaps) = (0, 0, Vec::new());
        sequence.for_each(0..=self.computed - 1, &mut |n, v| {
            if is_rare(v as u32, mask) {
                count += 1;
                last = n;
                if with_heaps {
                    heaps.push((n, v as u32));
                }
            }
        })?;
        Ok(Some((RareSplit { mask, count, last }, heaps)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sequence::Extension;

    fn stats_of(values: &[u32], rule: (u64, u64, u64), horizons: &[u64]) -> Stats {
        let store = Store::from_values(values).unwrap();
        let mut sequence = Sequence::new(store, Extension::None, values.len() as u64 - 1, None);
        Stats::of(&mut sequence, Some(rule), horizons).unwrap()
    }

    #[test]
    fn an_arithmetic_continuation_hashes_the_values_its_relation_gives_and_keeps_no_block() {
        // G(n + 2) = G(n) + 1 from heap 0: 0 1 1 2 2 3 3 4.
        let continued = stats_of(&[0, 1, 1, 2], (0, 2, 1), &[7]);
        let computed = stats_of(&[0, 1, 1, 2, 2, 3, 3, 4], (0, 2, 1), &[7]);
        assert_eq!(continued.fingerprints.last(), computed.fingerprints.last());
        assert_eq!(continued.fingerprints.last().map(|(h, _)| *h), Some(7));
        assert!(continued.block.is_empty());
    }

    #[test]
    fn a_continued_sequence_has_no_fingerprint_from_its_first_value_above_u32_max() {
        // G(n) = n * 2^31: G(2) = 2^32 does not fit a fingerprint's four bytes.
        let stats = stats_of(&[0, 1 << 31], (0, 1, 1 << 31), &[1, 5]);
        let horizons: Vec<u64> = stats.fingerprints.iter().map(|(h, _)| *h).collect();
        assert_eq!(horizons, vec![1]);
    }
}
