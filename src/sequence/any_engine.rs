//! The engine at the cell width the values need: one byte while every value fits, two
//! bytes, then four; rebuilt wider from the store when a larger value appears.

use super::engine::heap::Words;
use super::engine::{Engine, Moves, Recorded, RingLimit, Tallies, STRETCH};
use super::error::SequenceError;
use super::freq::Frequencies;
use super::two_threads::parallel::Tuning;
use super::two_threads::pipeline;
use super::values::store::Store;

/// The engine, by cell width.
pub(crate) enum AnyEngine {
    One(Engine<u8>),
    Two(Engine<u16>),
    Four(Engine<u32>),
}

impl AnyEngine {
    /// The engine after the values of `store` (empty for a new run), as narrow as their
    /// largest value allows.
    pub fn resume(
        moves: Moves,
        store: &mut Store,
        tallies: Tallies,
        ring_limit: RingLimit,
    ) -> Result<AnyEngine, SequenceError> {
        let largest = tallies.freq.largest().max(store.get_or_zero(0)?);
        Ok(if largest <= u32::from(u8::MAX) {
            AnyEngine::One(Engine::resume(moves, store, tallies, ring_limit)?)
        } else if largest <= u32::from(u16::MAX) {
            AnyEngine::Two(Engine::resume(moves, store, tallies, ring_limit)?)
        } else {
            AnyEngine::Four(Engine::resume(moves, store, tallies, ring_limit)?)
        })
    }

    /// Rebuilds the engine from the store: wider if a value needs it, with a ring sized
    /// for the rare heaps now.
    pub fn rebuilt(
        &self,
        store: &mut Store,
        ring_limit: RingLimit,
    ) -> Result<AnyEngine, SequenceError> {
        let moves = match self {
            AnyEngine::One(e) => e.moves.clone(),
            AnyEngine::Two(e) => e.moves.clone(),
            AnyEngine::Four(e) => e.moves.clone(),
        };
        let (mask, rare, freq) = self.tallies();
        let tallies = Tallies { mask, rare: rare.to_vec(), freq: freq.clone() };
        AnyEngine::resume(moves, store, tallies, ring_limit)
    }

    /// Values computed.
    pub fn len(&self) -> u64 {
        match self {
            AnyEngine::One(e) => e.len,
            AnyEngine::Two(e) => e.len,
            AnyEngine::Four(e) => e.len,
        }
    }

    /// The mask, the rare heaps and the frequencies.
    pub fn tallies(&self) -> (u32, &[(u64, u32)], &Frequencies) {
        match self {
            AnyEngine::One(e) => (e.mask, &e.rare, &e.freq),
            AnyEngine::Two(e) => (e.mask, &e.rare, &e.freq),
            AnyEngine::Four(e) => (e.mask, &e.rare, &e.freq),
        }
    }

    /// Whether some rare heap lies beyond the ring's reach while a larger ring is allowed.
    pub fn ring_too_small(&self, limit: RingLimit) -> bool {
        match self {
            AnyEngine::One(e) => e.ring_too_small(limit),
            AnyEngine::Two(e) => e.ring_too_small(limit),
            AnyEngine::Four(e) => e.ring_too_small(limit),
        }
    }

    /// Makes `mask` the mask.
    pub fn set_mask(&mut self, mask: u32, store: &mut Store) -> Result<(), SequenceError> {
        match self {
            AnyEngine::One(e) => e.set_mask(mask, store),
            AnyEngine::Two(e) => e.set_mask(mask, store),
            AnyEngine::Four(e) => e.set_mask(mask, store),
        }
    }

    /// Computes heaps up to `end` (exclusive), stopping early after a value that widens
    /// the cells or raises `h`.
    pub fn run_to(
        &mut self,
        end: u64,
        store: &mut Store,
        threads: usize,
        tuning: Tuning,
    ) -> Result<Recorded, SequenceError> {
        match self {
            AnyEngine::One(e) => run_heaps(e, end, store, threads, tuning),
            AnyEngine::Two(e) => run_heaps(e, end, store, threads, tuning),
            AnyEngine::Four(e) => run_heaps(e, end, store, threads, tuning),
        }
    }
}

/// Heaps up to `end` on one thread, or with a second thread marking ahead when the mark
/// list has enough parts large enough for it; by stretches, the witness list rebuilt (and
/// the mark list made from it) before each.
fn run_heaps<C: super::values::cell::Cell>(
    engine: &mut Engine<C>,
    end: u64,
    store: &mut Store,
    threads: usize,
    tuning: Tuning,
) -> Result<Recorded, SequenceError> {
    let smallest = tuning.min_marker_part();
    let parts = engine.parts.a.len() - engine.parts.a.partition_point(|&a| a < smallest);
    if threads >= 2 && tuning.marker_pays(parts) {
        return pipeline::run_heaps(engine, end, store, tuning);
    }
    run_alone(engine, end, store)
}

/// Heaps up to `end` on the calling thread.
fn run_alone<C: super::values::cell::Cell>(
    engine: &mut Engine<C>,
    end: u64,
    store: &mut Store,
) -> Result<Recorded, SequenceError> {
    let mut words = Words::new();
    while engine.len < end {
        engine.rebuild_witnesses(store)?;
        let list = engine.mark_list();
        let stretch_end = end.min((engine.len / STRETCH + 1) * STRETCH);
        let recorded = engine.heaps_until(stretch_end, store, &list, |_, _| None, &mut words)?;
        if recorded != Recorded::Steady {
            return Ok(recorded);
        }
    }
    Ok(Recorded::Steady)
}
