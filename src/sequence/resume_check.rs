//! What a resumed run checks of its checkpoint against the values file it names, before
//! trusting any of it: every field the values determine is recomputed from them.
//!
//! The digests prove the files are the ones written together; these checks prove the
//! fields agree with the values and the game, so that no edited field can lead the
//! engine where no run goes (a mask with no common value, a rare heap that is not rare, a
//! value above what a heap's options allow). Values that were themselves forged, with the
//! digests recomputed to match, are not caught here: a sample of heaps recomputed from
//! their options (`spot_check.rs`), or a run from heap 0, checks those.

use std::fs::File;
use std::path::Path;

use super::checkpoint::Checkpoint;
use super::engine::mask::is_rare;
use super::error::SequenceError;
use super::freq::Frequencies;
use super::period::{find_period_by, Certificate, PeriodOutcome};
use super::rule::HeapRule;
use super::values::disk_store::DiskStore;
use super::MAX_SEQUENCE_HEAP;

impl Checkpoint {
    /// The store of this checkpoint's values file (`file`, opened for reading and
    /// writing), the checkpoint being the file `path`: its first bytes must hash to the
    /// recorded digest (anything written after the checkpoint is cut off), and every
    /// field the values determine is recomputed from them and must agree (the heap count,
    /// each value against its heap's options, the frequencies, the mask, the rare heaps,
    /// the period).
    ///
    /// # Errors
    /// [`SequenceError::BadCheckpoint`] naming what does not agree;
    /// [`SequenceError::File`] when the values file cannot be read or cut.
    pub fn open_values(&self, file: File, path: &Path) -> Result<DiskStore, SequenceError> {
        let layout = self.layout.clone();
        let mut store =
            DiskStore::resume(file, &self.values_path, layout, &self.values_sha256, path)?;
        check_against_values(self, &mut store, path)?;
        store.cut_after_checkpoint()?;
        Ok(store)
    }
}

/// Checks `checkpoint` (the file `path`) against the values of `store`, its values file
/// already checked against its digest: the heap count, the mask, each value against its
/// heap's options, the frequencies, the rare heaps and the period. Nothing grows with a
/// field that does not match: the values are compared with the recorded fields as they
/// are read.
///
/// # Errors
/// [`SequenceError::BadCheckpoint`] naming the first field that does not agree;
/// [`SequenceError::File`] when the values cannot be read.
fn check_against_values(
    checkpoint: &Checkpoint,
    store: &mut DiskStore,
    path: &Path,
) -> Result<(), SequenceError> {
    let bad = |reason: String| SequenceError::BadCheckpoint { path: path.to_path_buf(), reason };
    let len = store.len();
    if len > MAX_SEQUENCE_HEAP + 1 {
        return Err(bad(format!("it records {len} heaps, more than a sequence has")));
    }
    let (rule, mask, recorded) = (&checkpoint.rule, checkpoint.mask, &checkpoint.frequencies);
    let mut scan = Scan { freq: Frequencies::new(), rare: 0, first_wrong: None, rare_wrong: false };
    store.for_each(0, len, &mut |n, v| scan.value(checkpoint, n, v))?;
    let frequencies = || bad("its frequencies do not match its values file".into());
    match scan.first_wrong {
        Some(Wrong::Value(n, v)) => Err(bad(format!(
            "its values file holds G({n}) = {v}, more than heap {n}'s options allow"
        ))),
        Some(Wrong::Frequencies) => Err(frequencies()),
        None if scan.freq != *recorded => Err(frequencies()),
        None => Ok(()),
    }?;
    // The frequencies now agree with the values, so the run's `h` (a power of two above
    // every value, at least 2) is known and the mask can be judged by it.
    let h = (recorded.largest() + 1).next_power_of_two().max(2);
    if mask != u32::MAX && !(1..h).contains(&mask) {
        return Err(bad(format!(
            "its mask {mask} is not one its values allow (1 to {}, or {} before the first \
             choice)",
            h - 1,
            u32::MAX
        )));
    }
    if scan.rare_wrong || scan.rare != checkpoint.rare.len() {
        return Err(bad("its rare heaps are not those of its values under its mask".into()));
    }
    if let Some(found) = checkpoint.period {
        let certificate = Certificate::for_rule(rule);
        let end = found.checked_through.saturating_add(1);
        let recomputed = (end <= len).then(|| recheck_period(store, certificate, end));
        if recomputed.transpose()? != Some(PeriodOutcome::Certified(found)) {
            return Err(bad("its period is not the one its values certify".into()));
        }
    }
    Ok(())
}

/// The first field found not to agree with the values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wrong {
    /// `G(n) = v` is more than heap `n`'s options allow.
    Value(u64, u32),
    /// A value beyond the largest the frequencies count.
    Frequencies,
}

/// The values read so far, compared with a checkpoint's fields.
struct Scan {
    /// Frequencies of heaps `1..` so far (values beyond the recorded table left out).
    freq: Frequencies,
    /// Rare heaps matched with the recorded list so far.
    rare: usize,
    /// The first value that stops the scan.
    first_wrong: Option<Wrong>,
    /// A rare heap missing from the list, or one listed that is not rare (the scan goes
    /// on counting frequencies, which are judged first).
    rare_wrong: bool,
}

impl Scan {
    fn value(&mut self, checkpoint: &Checkpoint, n: u64, v: u32) {
        if self.first_wrong.is_some() {
            return;
        }
        if u64::from(v) > n && exceeds(&checkpoint.rule, n, v) {
            self.first_wrong = Some(Wrong::Value(n, v));
        } else if n >= 1 && v as usize >= checkpoint.frequencies.counts().len() {
            self.first_wrong = Some(Wrong::Frequencies);
        } else if n >= 1 {
            self.freq.add(v);
            if is_rare(v, checkpoint.mask) {
                if checkpoint.rare.get(self.rare) != Some(&(n, v)) {
                    self.rare_wrong = true;
                }
                self.rare += 1;
            }
        }
    }
}

/// Whether `value` is more than the number of options of heap `n` (the mex of `k` values
/// is at most `k`).
fn exceeds(rule: &HeapRule, n: u64, value: u32) -> bool {
    let mut options = u64::from(rule.vanish.iter().any(|&k| u64::from(k) == n));
    for &k in &rule.shrink {
        options += u64::from(u64::from(k) < n);
    }
    for &k in &rule.split {
        let Some(rest) = n.checked_sub(u64::from(k)).filter(|&rest| rest >= 2) else { continue };
        options += rest / 2 - u64::from(rule.unequal_split && rest % 2 == 0);
    }
    u64::from(value) > options
}

/// The period search over the first `len` values of `store`.
fn recheck_period(
    store: &mut DiskStore,
    certificate: Option<Certificate>,
    len: u64,
) -> Result<PeriodOutcome, SequenceError> {
    let mut largest = 0u32;
    store.for_each(0, len, &mut |_, v| largest = largest.max(v))?;
    let mut failure = None;
    let outcome = find_period_by(certificate, len, u64::from(largest), |n| {
        store.get(n).unwrap_or_else(|e| {
            failure.get_or_insert(e);
            0
        })
    });
    failure.map_or(Ok(outcome), Err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_above_its_heaps_option_count_is_impossible() {
        // Kayles-like splits: heap 5 removing 1 or 2 leaves 4 or 3 tokens, split as
        // (3,1), (2,2), (2,1): with two shrinks and a vanish nothing, 2 + 3 options.
        let rule = HeapRule {
            vanish: vec![],
            shrink: vec![1, 2],
            split: vec![1, 2],
            unequal_split: false,
        };
        assert!(!exceeds(&rule, 5, 5));
        assert!(exceeds(&rule, 5, 6));
        assert!(exceeds(&rule, 0, 1));
        let grundy = HeapRule::grundys_game();
        // Heap 4 of Grundy's game splits only as (3, 1).
        assert!(!exceeds(&grundy, 4, 1) && exceeds(&grundy, 4, 2));
    }
}
