//! Solving one code: its Grundy sequence to a certified period or to the budget, the
//! statistics of the computed values, and its misère quotient.

use sha2::{Digest, Sha256};

use super::entry::{
    AtlasSettings, CertifiedPeriod, Entry, QuotientCell, QuotientOutcome, RareSplit, Stop,
};
use super::AtlasError;
use crate::engine::NoProgress;
use crate::model::game::Game;
use crate::model::octal::OctalCode;
use crate::quotient::{compute, QuotientConfig, QuotientError, QuotientProgress};
use crate::sequence::period::{Certificate, PeriodOutcome, Periodicity};
use crate::sequence::values::disk_store::hex;
use crate::sequence::{
    fewest_rare_mask, is_rare, run, Goal, Observer, Sequence, Settings, Start, Store,
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

/// The sequence run's observer: only the cancel flag.
struct Stopper<'c>(&'c dyn Cancel);

impl Observer for Stopper<'_> {
    fn cancelled(&self) -> bool {
        self.0.cancelled()
    }
}

/// The quotient's progress: only the cancel flag.
struct QuotientStopper<'c>(&'c dyn Cancel);

impl QuotientProgress for QuotientStopper<'_> {
    fn heap_done(&self, _heap: u32, _order: usize) {}
    fn cancelled(&self) -> bool {
        self.0.cancelled()
    }
}

/// Everything the atlas states about `code`, computed under `settings`; `horizons` are
/// the heaps at which the classes compare sequences (a fingerprint is kept for each one
/// the values reach).
///
/// # Errors
/// [`AtlasError::Cancelled`] when `cancel` asks; a sequence run's error.
pub fn solve_code(
    code: &OctalCode,
    settings: &AtlasSettings,
    horizons: &[u64],
    cancel: &dyn Cancel,
) -> Result<Entry, AtlasError> {
    let (mut sequence, stopped) = sequence_of(code, settings, cancel)?;
    let values = read_values(&mut sequence)?;
    let period = match sequence.period() {
        Some(PeriodOutcome::Certified(found)) => Some(*found),
        _ => None,
    };
    let computed_to = values.len() as u64 - 1;
    let (largest_value, largest_at) = largest(&values);
    let rare = rare_split(&values);
    let rare_heaps = match (period, rare) {
        (None, Some(split)) => rare_heaps_of(&values, split.mask),
        _ => Vec::new(),
    };
    let block = period.map_or(Vec::new(), |p| values[..(p.preperiod + p.period) as usize].to_vec());
    let fingerprints = fingerprints(&values, period.as_ref(), horizons);
    let quotient = quotient_of(code, settings, cancel)?;
    Ok(Entry {
        code: code.to_string(),
        settings: *settings,
        period: period.map(|p| certified(&p)),
        computed_to,
        stopped,
        largest_value,
        largest_at,
        rare,
        rare_heaps,
        quotient,
        first_values: values.iter().take(FIRST_VALUES).copied().collect(),
        block,
        fingerprints,
    })
}

/// The sequence to a certified period, or to the dense budget when the values there do
/// not split into common and rare, or to the budget.
fn sequence_of(
    code: &OctalCode,
    settings: &AtlasSettings,
    cancel: &dyn Cancel,
) -> Result<(Sequence, Stop), AtlasError> {
    let first = settings.dense_budget.min(settings.budget);
    let sequence = period_run(code, first, cancel)?;
    if certified_in(&sequence) {
        return Ok((sequence, Stop::Certified));
    }
    if first == settings.budget {
        return Ok((sequence, Stop::Budget));
    }
    let mut sequence = sequence;
    let values = read_values(&mut sequence)?;
    let (max, stop) = if rare_split(&values).is_some() {
        (settings.budget, Stop::Budget)
    } else {
        match candidate_end(code, &values) {
            Some(end) if end <= (2 * first).min(settings.budget) => (end, Stop::Dense),
            _ => return Ok((sequence, Stop::Dense)),
        }
    };
    drop(values);
    let sequence = period_run(code, max, cancel)?;
    let stop = if certified_in(&sequence) { Stop::Certified } else { stop };
    Ok((sequence, stop))
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
fn candidate_end(code: &OctalCode, values: &[u32]) -> Option<u64> {
    let last = values.len() - 1;
    let (e, p) = (1..=LONGEST_CANDIDATE.min(last / CANDIDATE_REPEATS)).find_map(|p| {
        let mut e = last - p + 1;
        while e > 0 && values[e - 1] == values[e - 1 + p] {
            e -= 1;
        }
        (last + 1 - e >= CANDIDATE_REPEATS * p + p).then_some((e as u64, p as u64))
    })?;
    let theorem = Certificate::for_rule(&code.heap_rule())?;
    Some(theorem.window_end(e, p) + p - 1)
}

fn certified_in(sequence: &Sequence) -> bool {
    matches!(sequence.period(), Some(PeriodOutcome::Certified(_)))
}

/// A period search of `code` to heap `max`, in memory, on the calling thread.
fn period_run(code: &OctalCode, max: u64, cancel: &dyn Cancel) -> Result<Sequence, AtlasError> {
    let settings = Settings::new(Goal::Period, max).threads(1);
    let start = Start::Fresh(Store::in_memory(max + 1));
    let spec = format!("octal:{code}");
    Ok(run(&code.heap_rule(), &spec, &settings, start, &mut Stopper(cancel))?)
}

/// The computed values (a period search stops at its certificate: heaps up to there).
fn read_values(sequence: &mut Sequence) -> Result<Vec<u32>, AtlasError> {
    let computed = sequence.computed();
    let mut values = Vec::with_capacity(computed as usize);
    sequence.for_each(0..=computed - 1, &mut |_, v| values.push(v as u32))?;
    Ok(values)
}

/// The largest value and its first heap.
fn largest(values: &[u32]) -> (u32, u64) {
    let mut best = (0, 0);
    for (n, &v) in values.iter().enumerate() {
        if v > best.0 {
            best = (v, n as u64);
        }
    }
    best
}

/// The mask with the fewest rare heaps, when at most one heap in [`RARE_SHARE`] is rare.
pub(super) fn rare_split(values: &[u32]) -> Option<RareSplit> {
    let width = values.iter().max().map_or(1, |&v| (v as usize + 1).next_power_of_two()).max(2);
    let mut histogram = vec![0u64; width];
    values.iter().for_each(|&v| histogram[v as usize] += 1);
    let mask = fewest_rare_mask(&histogram);
    let mut count = 0;
    let mut last = 0;
    for (n, &v) in values.iter().enumerate() {
        if is_rare(v, mask) {
            count += 1;
            last = n as u64;
        }
    }
    (count * RARE_SHARE <= values.len() as u64).then_some(RareSplit { mask, count, last })
}

fn rare_heaps_of(values: &[u32], mask: u32) -> Vec<(u64, u32)> {
    let rare = values.iter().enumerate().filter(|(_, &v)| is_rare(v, mask));
    rare.map(|(n, &v)| (n as u64, v)).collect()
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

/// The fingerprint of `G(0..=h)` for every horizon the values reach: the computed ones,
/// and with a period every horizon (the values beyond follow the period).
fn fingerprints(
    values: &[u32],
    period: Option<&Periodicity>,
    horizons: &[u64],
) -> Vec<(u64, String)> {
    let mut horizons: Vec<u64> = horizons.to_vec();
    horizons.push(values.len() as u64 - 1);
    horizons.sort_unstable();
    horizons.dedup();
    let value = |n: u64| -> Option<u32> {
        if let Some(&v) = values.get(n as usize) {
            return Some(v);
        }
        let p = period?;
        Some(values[(p.preperiod + (n - p.preperiod) % p.period) as usize])
    };
    let mut hasher = Sha256::new();
    let mut next = 0u64;
    let mut out = Vec::new();
    for h in horizons {
        if value(h).is_none() {
            break;
        }
        while next <= h {
            hasher.update(value(next).unwrap_or(0).to_le_bytes());
            next += 1;
        }
        let digest = hasher.clone().finalize();
        out.push((h, hex(&digest)));
    }
    out
}

/// The misère quotient at the heap bound, or at the last heap below where it outgrew the
/// order bound.
fn quotient_of(
    code: &OctalCode,
    settings: &AtlasSettings,
    cancel: &dyn Cancel,
) -> Result<QuotientCell, AtlasError> {
    let game = Game::octal(&code.to_string())?;
    let mut max_heap = settings.quotient_heap;
    loop {
        let mut config = QuotientConfig::new(max_heap);
        config.max_order = settings.quotient_order;
        let outgrew_at = match compute(&game, &config, &QuotientStopper(cancel)) {
            Ok(q) => {
                let names = q.elements();
                let outcome = QuotientOutcome::Proved {
                    order: q.order(),
                    p_portion: q.p_portion().iter().map(|&x| names[x as usize].clone()).collect(),
                    presentation: q.presentation().to_string(),
                    period: q.period().map(|p| (p.preperiod, p.period)),
                };
                return Ok(QuotientCell { max_heap, outcome });
            }
            Err(QuotientError::Cancelled) => return Err(AtlasError::Cancelled),
            Err(QuotientError::GrewPastLimit { heap, .. })
            | Err(QuotientError::CandidateTooLarge { heap, .. }) => heap,
            Err(e) => return Ok(QuotientCell { max_heap, outcome: not_computed(&e) }),
        };
        if outgrew_at <= 1 {
            let why = format!("outgrew {} elements at heap 1", settings.quotient_order);
            return Ok(QuotientCell { max_heap: 0, outcome: QuotientOutcome::NotComputed(why) });
        }
        max_heap = outgrew_at - 1;
    }
}

fn not_computed(error: &QuotientError) -> QuotientOutcome {
    QuotientOutcome::NotComputed(error.to_string())
}
