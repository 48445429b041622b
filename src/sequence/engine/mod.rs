//! The rare/common engine's state: the window of recent values, the rare parts, the mask,
//! the witness list and the value-frequency table; what one heap's value changes in them.
//!
//! The values themselves live in a [`Store`] (memory or disk). The engine reads them from
//! three places: the first `HEAD` values (small parts), a ring of the most recent values
//! (the partners of every part up to the ring's *reach*), and the store for anything else
//! (parts beyond the reach, the middle of a block scan).

pub(crate) mod heap;
pub(crate) mod mask;
pub(crate) mod ring;
pub(crate) mod witness;

use std::sync::Arc;

use crate::sequence::engine::mask::{is_rare, rare_bits};
use crate::sequence::engine::ring::Ring;
use crate::sequence::engine::witness::WitnessList;
use crate::sequence::error::SequenceError;
use crate::sequence::freq::Frequencies;
use crate::sequence::rule::HeapRule;
use crate::sequence::values::cell::Cell;
use crate::sequence::values::store::Store;

/// Heaps between two rebuilds of the witness list (and of the mark list), alone or with
/// the marker thread: whole blocks of either.
pub(crate) const STRETCH: u64 = 4096;
/// Slots of a row of marks for cells of at most two bytes: every XOR of two values fits.
pub(crate) const ROW: usize = 1 << 16;

/// Values kept in memory from heap 0 on, for the smaller parts of a block scan.
const HEAD: u64 = 1 << 16;
/// Smallest ring: 64 Ki values.
const MIN_RING: u64 = 1 << 16;

/// What the run's resident memory may give the ring, by where the values are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RingLimit(pub u64);

/// The removal counts of a rule, as heap-size arithmetic wants them.
#[derive(Clone, Debug)]
pub(crate) struct Moves {
    pub vanish: Vec<u64>,
    pub shrink: Vec<u64>,
    pub split: Vec<u64>,
    pub unequal: bool,
    /// The most tokens a move removes.
    pub max_removal: u64,
}

impl Moves {
    pub fn of(rule: &HeapRule) -> Moves {
        let wide = |set: &[u32]| set.iter().map(|&k| u64::from(k)).collect();
        Moves {
            vanish: wide(&rule.vanish),
            shrink: wide(&rule.shrink),
            split: wide(&rule.split),
            unequal: rule.unequal_split,
            max_removal: u64::from(rule.max_removal()),
        }
    }
}

/// Heaps whose value is rare under the mask, as the marking loops read them.
#[derive(Debug, Default)]
pub(crate) struct Parts<C> {
    /// Rare heaps within the ring's reach, ascending.
    pub a: Vec<u32>,
    /// `capacity - a` for each, with the ring's capacity: the partner of `a` in a split of
    /// `rest` tokens is in cell `(rest + off) mod capacity`, one addition.
    pub off: Vec<u32>,
    /// Their values.
    pub g: Vec<C>,
    /// Rare heaps beyond the reach, ascending, with their values.
    pub deep: Vec<(u64, u32)>,
}

/// The parts marked for every heap of a segment (except sampled ones): the rare parts in
/// the ring's reach and the best witness probes, merged in ascending order. Rare heaps
/// found during the segment (ring parts from `late_from` on) are marked besides.
#[derive(Debug, Default)]
pub(crate) struct MarkList<C> {
    pub a: Vec<u32>,
    /// `capacity - a`, as in [`Parts`].
    pub off: Vec<u32>,
    pub g: Vec<C>,
    /// Ring parts found after the list was made: `parts.a[late_from..]`.
    pub late_from: usize,
    /// Witness probes in the list (the first ones of the probe order).
    pub witnesses: usize,
}

/// One heap in this many is computed with the rare parts alone and every witness checked
/// one by one, to score the witnesses; the others mark the best witnesses outright. A
/// sampled heap costs about two others on one thread, and four times the finisher's share
/// of one on two (it marks alone): 64 rather than 16 made two threads on `octal:0.161` and
/// `octal:0.014` some 5-10% faster, one thread the same within noise (0.161, 0.014, 0.172).
pub(crate) const SAMPLE: u64 = 64;

/// The engine after heaps `0..len`.
pub(crate) struct Engine<C: Cell> {
    pub moves: Moves,
    pub len: u64,
    pub ring: Arc<Ring<C>>,
    pub head: Vec<u32>,
    pub parts: Parts<C>,
    /// Every rare heap under `mask`, ascending, with its value (what a checkpoint keeps).
    pub rare: Vec<(u64, u32)>,
    pub mask: u32,
    /// A power of two above every value so far: option values are below it, the mex at
    /// most it.
    pub h: u32,
    pub rare_bits: Vec<u64>,
    pub row: Vec<u8>,
    pub missing: Vec<u8>,
    pub witnesses: WitnessList,
    /// The witness probes with their values.
    pub probes: Vec<(u32, u32)>,
    pub freq: Frequencies,
}

/// What recording a value asks of the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Recorded {
    /// Nothing.
    Steady,
    /// The value needs a wider cell than `C`: the engine must be rebuilt wider.
    Widen,
    /// The value raised `h`: the mask is chosen again.
    Grew,
}

/// What a run carries over from its values: the mask, the rare heaps under it and the
/// value frequencies (what a checkpoint keeps besides the values).
#[derive(Clone, Debug)]
pub(crate) struct Tallies {
    pub mask: u32,
    pub rare: Vec<(u64, u32)>,
    pub freq: Frequencies,
}

impl<C: Cell> Engine<C> {
    /// An engine continuing after the values of `store`, with the tallies they had; the
    /// ring is filled from the store.
    ///
    /// # Errors
    /// A disk store's read error.
    pub fn resume(
        moves: Moves,
        store: &mut Store,
        tallies: Tallies,
        ring_limit: RingLimit,
    ) -> Result<Engine<C>, SequenceError> {
        let Tallies { mask, rare, freq } = tallies;
        let len = store.len();
        let largest = freq.largest().max(store.get_or_zero(0)?);
        let h = (largest + 1).next_power_of_two().max(2);
        let ring = Arc::new(Ring::new(ring_capacity(&rare, &moves, ring_limit)));
        let mut engine = Engine {
            moves,
            len,
            ring,
            head: store.read(0, len.min(HEAD))?,
            parts: Parts::default(),
            rare,
            mask,
            h,
            rare_bits: Vec::new(),
            row: Vec::new(),
            missing: Vec::new(),
            witnesses: WitnessList::default(),
            probes: Vec::new(),
            freq,
        };
        let from = len.saturating_sub(engine.ring.capacity());
        let ring = &engine.ring;
        store.for_each(from, len, &mut |n, v| ring.set(n, C::from_value(v)))?;
        engine.resize_for_h();
        engine.split_parts();
        Ok(engine)
    }

    /// The most a part may be and still find its partners in the ring.
    pub fn reach(&self) -> u64 {
        self.ring.capacity().saturating_sub(self.moves.max_removal + 2)
    }

    /// Sorts the rare heaps into ring parts and deep parts.
    pub fn split_parts(&mut self) {
        let reach = self.reach();
        let mut parts = Parts::default();
        for &(a, g) in &self.rare {
            if a <= reach {
                parts.a.push(a as u32);
                parts.off.push((self.ring.capacity() - a) as u32);
                parts.g.push(C::from_value(g));
            } else {
                parts.deep.push((a, g));
            }
        }
        self.parts = parts;
    }

    /// The values a heap's marks must cover, in whole words of 64: every option value is
    /// below `h`, so the least common value not marked is at most `h + b`, `b` the mask's
    /// lowest bit (a mask below `h` gives `h + b` the parity of `b`: common). A mask not
    /// below `h` (the first one) takes `2 h`.
    pub fn width(&self) -> usize {
        let h = self.h as usize;
        if self.mask >= self.h {
            return (2 * h).div_ceil(64) * 64;
        }
        let lowest = 1usize << self.mask.trailing_zeros();
        (h + lowest + 1).div_ceil(64) * 64
    }

    /// Sizes the per-heap tables for `h` and the mask.
    pub fn resize_for_h(&mut self) {
        let width = self.width();
        self.rare_bits = rare_bits(self.mask, width);
        self.row.resize(width.max(ROW), 0);
        self.missing.resize(width, 0);
    }

    /// Value `index < len`, from the head, the ring or the store.
    pub fn value_at(&self, index: u64, store: &mut Store) -> Result<u32, SequenceError> {
        if index < self.head.len() as u64 {
            Ok(self.head[index as usize])
        } else if index + self.ring.capacity() > self.len {
            Ok(self.ring.get(index).value())
        } else {
            store.get(index)
        }
    }

    /// Values `start..start + out.len()` (all below `len`) into `out`: from the head, the
    /// ring or one read of the store.
    pub fn values_from(
        &self,
        start: u64,
        out: &mut [u32],
        store: &mut Store,
    ) -> Result<(), SequenceError> {
        let end = start + out.len() as u64;
        if end <= self.head.len() as u64 {
            out.copy_from_slice(&self.head[start as usize..end as usize]);
        } else if start + self.ring.capacity() > self.len {
            for (i, slot) in out.iter_mut().enumerate() {
                *slot = self.ring.get(start + i as u64).value();
            }
        } else {
            let mut i = 0;
            store.for_each(start, end, &mut |_, v| {
                out[i] = v;
                i += 1;
            })?;
        }
        Ok(())
    }

    /// Appends `G(len) = value` to the store, the window and the tallies.
    ///
    /// # Errors
    /// A disk store's write error.
    pub fn record(&mut self, value: u32, store: &mut Store) -> Result<Recorded, SequenceError> {
        let n = self.len;
        store.push(value)?;
        self.len += 1;
        if n < HEAD {
            self.head.push(value);
        }
        if n >= 1 {
            self.freq.add(value);
        }
        let rare = n >= 1 && is_rare(value, self.mask);
        if rare {
            self.rare.push((n, value));
        }
        if value > C::MAX {
            return Ok(Recorded::Widen);
        }
        self.ring.set(n, C::from_value(value));
        if rare {
            if n <= self.reach() {
                self.parts.a.push(n as u32);
                self.parts.off.push((self.ring.capacity() - n) as u32);
                self.parts.g.push(C::from_value(value));
            } else {
                self.parts.deep.push((n, value));
            }
        }
        if value >= self.h {
            self.h = (value + 1).next_power_of_two();
            self.resize_for_h();
            return Ok(Recorded::Grew);
        }
        Ok(Recorded::Steady)
    }

    /// Makes `mask` the mask, re-sorting every heap of the store into rare or not.
    ///
    /// # Errors
    /// A disk store's read error.
    pub fn set_mask(&mut self, mask: u32, store: &mut Store) -> Result<(), SequenceError> {
        if mask == self.mask {
            return Ok(());
        }
        self.mask = mask;
        let mut rare = Vec::new();
        store.for_each(1, self.len, &mut |n, v| {
            if is_rare(v, mask) {
                rare.push((n, v));
            }
        })?;
        self.rare = rare;
        self.resize_for_h();
        self.split_parts();
        Ok(())
    }

    /// The mark list of the next segment.
    pub fn mark_list(&self) -> MarkList<C> {
        let witnesses = self.witnesses.premarked().min(self.probes.len());
        let mut extra: Vec<(u32, u32)> = self.probes[..witnesses].to_vec();
        extra.sort_unstable();
        let mut list = MarkList { late_from: self.parts.a.len(), witnesses, ..MarkList::default() };
        let (mut i, mut j) = (0, 0);
        while i < self.parts.a.len() || j < extra.len() {
            let take_part =
                j == extra.len() || (i < self.parts.a.len() && self.parts.a[i] <= extra[j].0);
            if take_part {
                if j < extra.len() && extra[j].0 == self.parts.a[i] {
                    j += 1;
                }
                list.a.push(self.parts.a[i]);
                list.off.push(self.parts.off[i]);
                list.g.push(self.parts.g[i]);
                i += 1;
            } else {
                list.a.push(extra[j].0);
                list.off.push((self.ring.capacity() - u64::from(extra[j].0)) as u32);
                list.g.push(C::from_value(extra[j].1));
                j += 1;
            }
        }
        list
    }

    /// Rebuilds the witness probes (and their values) from the scores.
    ///
    /// # Errors
    /// A disk store's read error.
    pub fn rebuild_witnesses(&mut self, store: &mut Store) -> Result<(), SequenceError> {
        let reach = self.reach().min(self.len);
        self.witnesses.rebuild(reach);
        let mut probes = Vec::with_capacity(self.witnesses.probes().len());
        for &a in self.witnesses.probes() {
            probes.push((a, self.value_at(u64::from(a), store)?));
        }
        self.probes = probes;
        Ok(())
    }

    /// Whether some rare heap lies beyond the ring's reach while `limit` allows a ring
    /// that reaches it.
    pub fn ring_too_small(&self, limit: RingLimit) -> bool {
        !self.parts.deep.is_empty()
            && ring_capacity(&self.rare, &self.moves, limit) > self.ring.capacity()
    }
}

/// Ring slots for the rare heaps: twice the largest rare heap's reach, at least
/// `MIN_RING`, at most what the limit allows.
pub(crate) fn ring_capacity(rare: &[(u64, u32)], moves: &Moves, limit: RingLimit) -> u64 {
    let largest = rare.last().map_or(0, |&(a, _)| a);
    let wanted = (2 * (largest + moves.max_removal + 2)).max(MIN_RING).next_power_of_two();
    wanted.min(limit.0.max(MIN_RING).next_power_of_two())
}

impl Store {
    /// Value `index`, or 0 for an empty store.
    pub(crate) fn get_or_zero(&mut self, index: u64) -> Result<u32, SequenceError> {
        if index < self.len() {
            self.get(index)
        } else {
            Ok(0)
        }
    }
}
