//! Grundy values of multi-heap games in full mode, a band of values per run.
//!
//! The rounds of `position_grundy.rs` find one value per labelling run. Here a run finds every
//! value of a band `base..base + B` at once: each column carries, instead of a P bit, a
//! *lane* of `B` bits, bit `b` set when some option has value `base + b`. The
//! accumulators of `tuples/rows/lines.rs` gather the lanes of the source rows (a union instead of
//! an OR of P bits, the same transforms); along the row, the options of a column are every smaller
//! column (a heap alone moves as in Nim), so a running union of the lanes of the columns before
//! does; the pass adds the pass-used column's lane.
//!
//! A position not valued by an earlier run has value at least `base`, so every smaller
//! value is among its options, and its value is `base` plus the first bit its options'
//! lane misses (their mex); a lane that holds the whole band means a larger value, left
//! to a later run. Positions valued by earlier runs are skipped: their values lie below
//! the band and count for nothing in it. `B` is 64, or 16 when 64-bit lanes would take
//! too much memory: a few runs instead of one per value.
//!
//! A run visits the rows on one thread in index order (a row's options all have smaller
//! indices): the box reads `A(p - e_i)` are then a few rows or blocks behind the row
//! being written, in cache, where the layers' order jumps across the whole table. On
//! `circular:2`, 5 heaps, max 31 with a pass this took 3.5 times less CPU time than the
//! parallel layers on 2 cores.

use std::ops::{BitOr, BitOrAssign};

use crate::engine::error::Result;
use crate::engine::memory::{Grant, Lease};
use crate::engine::tuples::rows::lines::{Accumulator, LinePlan};
use crate::engine::TupleEngine;
use crate::model::enumerate::Tuples;

/// A value not found yet.
pub(crate) const UNKNOWN: u32 = u32::MAX;

/// Rows of lanes a band run keeps besides its boxes' and tracks': blocked and below.
pub(crate) const BAND_SCRATCH_LANES: u64 = 2;

/// Band tables above this many bytes use 16-bit lanes instead of 64-bit ones.
const WIDE_LANES_BUDGET: u64 = 1 << 32;

/// A lane: one bit per value of a band.
pub(crate) trait Lane: Copy + Send + Sync + Eq + BitOr<Output = Self> + BitOrAssign {
    /// Values per band.
    const BITS: u32;
    /// No value.
    const NONE: Self;
    /// The lane of value `base + b`.
    fn one(b: u32) -> Self;
    /// The first value the lane misses (`BITS` if none).
    fn first_missing(self) -> u32;
}

macro_rules! lane {
    ($t:ty) => {
        impl Lane for $t {
            const BITS: u32 = <$t>::BITS;
            const NONE: Self = 0;
            fn one(b: u32) -> Self {
                1 << b
            }
            fn first_missing(self) -> u32 {
                self.trailing_ones()
            }
        }
    };
}
lane!(u16);
lane!(u64);

impl TupleEngine<'_> {
    /// Bytes of the band tables with lanes of type `L`, of a run's row buffers, and of the
    /// values.
    pub(crate) fn band_bytes<L: Lane>(&self) -> u64 {
        let rows = self.lines.as_ref().map_or(0, LinePlan::rows);
        let lanes =
            rows.saturating_mul(self.space().radix()).saturating_mul(self.pass_states() as u64);
        let lane = std::mem::size_of::<L>() as u64;
        let scratch = self.band_scratch_bytes(lane);
        lanes.saturating_mul(lane).saturating_add(scratch).saturating_add(self.positions() * 4)
    }

    /// The lane width bands use here: 64 bits if the tables stay within a budget, else
    /// 16 if they fit in memory; `None` for rows without line accumulators or when even
    /// 16-bit lanes do not fit.
    pub(crate) fn band_width(&self) -> Option<u32> {
        let limit = self.memory_limit;
        if self.lines.is_none() {
            None
        } else if self.band_bytes::<u64>() <= WIDE_LANES_BUDGET.min(limit / 4) {
            Some(64)
        } else if self.band_bytes::<u16>() <= limit {
            Some(16)
        } else {
            None
        }
    }

    /// The Grundy value of every state by bands of `width` values (multi-heap games in
    /// full mode, [`TupleEngine::band_width`]), drawn from `grant`.
    pub(crate) fn band_values(&self, grant: &Grant, width: u32) -> Result<Vec<u32>> {
        match width {
            64 => self.values_in_bands::<u64>(grant),
            _ => self.values_in_bands::<u16>(grant),
        }
    }

    /// Runs band after band until every state has its value.
    pub(crate) fn values_in_bands<L: Lane>(&self, grant: &Grant) -> Result<Vec<u32>> {
        let plan = self.lines.as_ref().expect("bands are for multi-heap rows in full mode");
        let (kept, lease) = (grant.lease(), grant.lease());
        let states = self.pass_states();
        let r = self.space().radix() as usize;
        let values = kept.vec(self.positions() as usize, UNKNOWN)?;
        let mut base = 0u32;
        // Allocated once: a fresh table per run would fault in its pages every time.
        let lanes = plan.rows() as usize * r;
        let tracks = (0..states).map(|_| lease.vec(lanes, L::NONE)).collect::<Result<_>>()?;
        let mut band = Band { engine: self, plan, base, tracks, values, r };
        let mut scratch = band.scratch(&lease)?;
        while band.values.contains(&UNKNOWN) {
            if base > 0 {
                band.tracks.iter_mut().for_each(|t| t.fill(L::NONE));
            }
            band.base = base;
            band.run(&mut scratch);
            base += L::BITS;
        }
        kept.keep();
        Ok(band.values)
    }
}

/// The runs over the rows; each finds the values `base..base + L::BITS`.
struct Band<'e, 'g, L> {
    engine: &'e TupleEngine<'g>,
    plan: &'e LinePlan,
    base: u32,
    /// Per pass state, the accumulators' lanes: `r` lanes per accumulator row.
    tracks: Vec<Vec<L>>,
    /// Every state's value in state-index order (`r × states` per row).
    values: Vec<u32>,
    /// Columns per row.
    r: usize,
}

/// The buffers of a band run.
struct BandScratch<L> {
    slots: Vec<(usize, usize)>,
    values: Vec<u32>,
    blocked: Vec<L>,
    below: Vec<L>,
    box_reads: Vec<L>,
    /// The lanes of the row, per pass state.
    rows: Vec<L>,
}

impl<L: Lane> Band<'_, '_, L> {
    /// The row buffers of the runs, drawn from `lease` (`memory/plan.rs` counts
    /// [`BAND_SCRATCH_LANES`] rows of lanes, a row per box and per track, and the values).
    fn scratch(&self, lease: &Lease<'_>) -> Result<BandScratch<L>> {
        let (r, tracks) = (self.r, self.tracks.len());
        Ok(BandScratch {
            slots: Vec::new(),
            values: lease.capacity(r * tracks)?,
            blocked: lease.vec(r, L::NONE)?,
            below: lease.vec(r, L::NONE)?,
            box_reads: lease.vec(self.plan.boxes() * r, L::NONE)?,
            rows: lease.vec(r * tracks, L::NONE)?,
        })
    }

    fn run(&mut self, scratch: &mut BandScratch<L>) {
        let layout = &self.engine.layout;
        let k = layout.prefix_len();
        Tuples::new(k, 0, layout.space().max()).for_each(|prefix| self.row(scratch, prefix));
    }

    /// Values the row of `prefix` in every pass state.
    fn row(&mut self, scratch: &mut BandScratch<L>, prefix: &[u32]) {
        let e = self.engine;
        let (r, states) = (self.r, self.tracks.len());
        let row = e.layout.row_index(prefix) as usize;
        self.plan.slots(prefix, row, &mut scratch.slots);
        scratch.values.clear();
        scratch.values.extend_from_slice(&self.values[row * r * states..(row + 1) * r * states]);
        let stuck = prefix.iter().all(|&h| e.no_move[h as usize]);
        for state in 0..states {
            self.read(state, prefix, scratch);
            if state == 1 {
                // The pass: to the pass-used position of the same heaps, if it has a move.
                for c in (0..r).filter(|&c| !(stuck && e.no_move[c])) {
                    let used = scratch.rows[c];
                    scratch.blocked[c] |= used;
                }
            }
            let out = &mut scratch.rows[state * r..(state + 1) * r];
            let mut running = L::NONE;
            for (c, lane) in out.iter_mut().enumerate() {
                let value = &mut scratch.values[c * states + state];
                *lane = L::NONE;
                if *value != UNKNOWN {
                    continue;
                }
                let missing = (scratch.blocked[c] | running).first_missing();
                if missing < L::BITS {
                    *value = self.base + missing;
                    *lane = L::one(missing);
                    running |= *lane;
                }
            }
            self.update(state, scratch);
        }
        self.values[row * r * states..(row + 1) * r * states].copy_from_slice(&scratch.values);
    }

    /// The union of the lanes every prefix move reaches, per column, into `blocked`.
    fn read(&mut self, state: usize, prefix: &[u32], scratch: &mut BandScratch<L>) {
        let r = self.r;
        let acc = &mut self.tracks[state];
        scratch.blocked.fill(L::NONE);
        scratch.below.fill(L::NONE);
        let mut boxes = scratch.box_reads.chunks_exact_mut(r);
        for (family, &(slot, own)) in self.plan.families().zip(&scratch.slots) {
            let lanes = slot * r..(slot + 1) * r;
            match family {
                Accumulator::Line { any_amount: false, .. } | Accumulator::Diagonal { .. } => {
                    union_into(&mut scratch.blocked, &acc[lanes])
                }
                Accumulator::Line { any_amount: true, .. } => {
                    union_into(&mut scratch.below, &acc[lanes])
                }
                Accumulator::Slant { .. } => {
                    // One column further along the diagonal through the last heap.
                    acc.copy_within(lanes.start..lanes.end - 1, lanes.start + 1);
                    acc[lanes.start] = L::NONE;
                    union_into(&mut scratch.blocked, &acc[lanes]);
                }
                Accumulator::Box { heaps, any_amount } => {
                    let read = boxes.next().expect("one scratch row per box");
                    read.fill(L::NONE);
                    for &i in heaps.iter().filter(|&&i| prefix[i] > 0) {
                        let source = own - self.plan.stride(i);
                        union_into(read, &acc[source * r..(source + 1) * r]);
                    }
                    let into = if *any_amount { &mut scratch.below } else { &mut scratch.blocked };
                    union_into(into, read);
                }
            }
        }
        // A move that may lower the last heap any amount reaches every column at or below.
        let mut running = L::NONE;
        for (blocked, &below) in scratch.blocked.iter_mut().zip(&scratch.below) {
            running |= below;
            *blocked |= running;
        }
    }

    /// Adds the row's lanes in `state` to every accumulator.
    fn update(&mut self, state: usize, scratch: &mut BandScratch<L>) {
        let r = self.r;
        let acc = &mut self.tracks[state];
        let out = &scratch.rows[state * r..(state + 1) * r];
        let mut boxes = scratch.box_reads.chunks_exact_mut(r);
        for (family, &(slot, own)) in self.plan.families().zip(&scratch.slots) {
            if let Accumulator::Box { .. } = family {
                let read = boxes.next().expect("one scratch row per box");
                union_into(read, out);
                acc[own * r..(own + 1) * r].copy_from_slice(read);
            } else {
                union_into(&mut acc[slot * r..(slot + 1) * r], out);
            }
        }
    }
}

/// `dst |= src`, lane by lane.
fn union_into<L: Lane>(dst: &mut [L], src: &[L]) {
    for (d, &s) in dst.iter_mut().zip(src) {
        *d |= s;
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::memory::Grant;
    use crate::engine::Engine;
    use crate::model::game::Game;
    use crate::model::space::{Mode, TupleSpace};
    use crate::NoProgress;

    #[test]
    fn narrow_and_wide_lanes_and_rounds_give_the_same_values() {
        let games = [Game::wythoff(), Game::moore(2).unwrap(), Game::circular(2).unwrap()];
        for game in games.iter().flat_map(|g| [g.clone(), g.clone().with_pass()]) {
            for (n, max) in [(2, 30), (3, 7), (4, 4)] {
                let space = TupleSpace::new(n, max).unwrap();
                let engine = Engine::builder(&game, space.into()).parallel_threshold(0).build();
                let engine = engine.tuples().unwrap();
                let grant = Grant::new(engine.describe(), u64::MAX);
                let wide = engine.values_in_bands::<u64>(&grant).unwrap();
                let narrow = engine.values_in_bands::<u16>(&grant).unwrap();
                let rounds = engine.values_in_rounds(&grant, &NoProgress).unwrap();
                assert_eq!(wide, narrow, "{} {n} {max}", game.spec());
                assert_eq!(wide, rounds, "{} {n} {max}", game.spec());
                assert_eq!(engine.mode(), Mode::Full);
            }
        }
    }
}
