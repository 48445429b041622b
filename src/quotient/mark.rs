//! The least position of every element, and the outcomes a candidate monoid forces.
//!
//! Positions are searched in [`Key`] order from the empty one, a heap at a time, as in
//! Dijkstra's algorithm: the first position found for an element is its least one (its
//! *representative*). A candidate's P-portion is *forced* by the representatives: an
//! element is P when its representative has no option whose element is P. Every option
//! of a position comes earlier in the order, so the options' elements are settled first.

use crate::model::ending::Ending;
use crate::quotient::bits;
use crate::quotient::heaps::{Counts, HeapOptions, Key, KeyQueue};
use crate::quotient::memory::{Hold, Result};
use crate::quotient::monoid::HeapMonoid;

/// No parent: the representative is the empty position.
const ROOT: u32 = u32::MAX;

/// Every element's least position, as a tree: the parent element and the heap added.
#[derive(Clone, Debug)]
pub(crate) struct Reps {
    /// The least position's key, `None` for an element no position reaches.
    pub key: Vec<Option<Key>>,
    /// `(parent element, heap)`; the identity's parent is [`ROOT`].
    pub parent: Vec<(u32, u32)>,
}

impl Reps {
    /// The representative of `x` as its list of heaps.
    pub fn heaps(&self, x: u32) -> Vec<u32> {
        let mut heaps = Vec::new();
        let mut at = x;
        while self.parent[at as usize].0 != ROOT {
            let (parent, heap) = self.parent[at as usize];
            heaps.push(heap);
            at = parent;
        }
        heaps
    }

    /// The representative of `x` as heap counts over heaps `0..=max_heap`.
    pub fn counts(&self, x: u32, max_heap: u32) -> Counts {
        let mut counts = vec![0; max_heap as usize + 1];
        let mut at = x;
        while self.parent[at as usize].0 != ROOT {
            let (parent, heap) = self.parent[at as usize];
            counts[heap as usize] += 1;
            at = parent;
        }
        counts
    }
}

/// Searches the positions of the active heaps of `options` in key order, calling
/// `settle(x, parent)` once per element when its least position is found (`parent` is
/// `None` for the empty position, else the parent element and the heap added). The
/// representatives are counted in `hold`, the search's own tables while it runs.
fn search(
    monoid: &HeapMonoid,
    options: HeapOptions<'_>,
    hold: &mut Hold<'_>,
    mut settle: impl FnMut(u32, Option<(u32, u32)>),
) -> Result<Reps> {
    let active = least_of_each_class(monoid, options);
    let mut reps =
        Reps { key: hold.vec(monoid.size, None)?, parent: hold.vec(monoid.size, (ROOT, 0))? };
    // The least (key, parent, heap) queued for each element not yet settled: anything
    // queued later for it is larger (it extends a position taken out later), so only
    // improvements are queued, and the first taken out is still the least.
    let mut scratch = hold.meter().hold(0)?;
    let mut best: Vec<Option<(Key, u32, u32)>> = scratch.vec(monoid.size, None)?;
    let mut queue = KeyQueue::new(hold.meter())?;
    queue.push(Key::EMPTY, (0u32, ROOT, 0u32))?;
    while let Some((key, (x, parent, heap))) = queue.pop() {
        if reps.key[x as usize].is_some() {
            continue;
        }
        reps.key[x as usize] = Some(key);
        reps.parent[x as usize] = (parent, heap);
        settle(x, (parent != ROOT).then_some((parent, heap)));
        for &h in &active {
            let y = monoid.apply(x, h);
            let entry = (key.plus(h), x, h);
            if reps.key[y as usize].is_none() && best[y as usize].is_none_or(|b| entry < b) {
                best[y as usize] = Some(entry);
                queue.push(entry.0, (y, x, h))?;
            }
        }
    }
    Ok(reps)
}

/// The least active heap of each class. A least position never holds a heap with a
/// smaller one of the same class (the smaller one gives the same element with a smaller
/// total), so the search adds only these: its work no longer grows with the heaps once
/// their classes repeat.
fn least_of_each_class(monoid: &HeapMonoid, options: HeapOptions<'_>) -> Vec<u32> {
    let mut seen = vec![false; monoid.size];
    let mut first = |h: &u32| !std::mem::replace(&mut seen[monoid.apply(0, *h) as usize], true);
    options.active().into_iter().filter(|h| first(h)).collect()
}

/// Every element's least position, counted in `hold`.
pub(crate) fn representatives(
    monoid: &HeapMonoid,
    options: HeapOptions<'_>,
    hold: &mut Hold<'_>,
) -> Result<Reps> {
    search(monoid, options, hold, |_, _| {})
}

/// The P-portion a candidate forces, with the representatives: the empty position is
/// P under normal play and N under misère play; any other representative is P exactly
/// when none of its options' elements is. Both are counted in `hold`.
pub(crate) fn forced_p_portion(
    monoid: &HeapMonoid,
    options: HeapOptions<'_>,
    play: Ending,
    hold: &mut Hold<'_>,
) -> Result<(Reps, Vec<bool>)> {
    let words = bits::words_for(monoid.size);
    // The elements of the options of each representative, end to end.
    let mut scratch = hold.meter().hold(0)?;
    let mut option_sets = scratch.vec(words.saturating_mul(monoid.size), 0u64)?;
    let mut p = hold.vec(monoid.size, false)?;
    let mut p_bits = vec![0u64; words];
    let mut set = vec![0u64; words];
    let reps = search(monoid, options, hold, |x, parent| {
        let is_p = match parent {
            None => play == Ending::Normal,
            Some((from, h)) => {
                set.fill(0);
                let from_set = &option_sets[from as usize * words..][..words];
                for t in bits::elements(from_set) {
                    bits::insert(&mut set, monoid.apply(t, h));
                }
                for &o in &options.options[h as usize] {
                    bits::insert(&mut set, monoid.apply_option(from, o));
                }
                option_sets[x as usize * words..][..words].copy_from_slice(&set);
                !bits::meets(&set, &p_bits)
            }
        };
        p[x as usize] = is_p;
        if is_p {
            bits::insert(&mut p_bits, x);
        }
    })?;
    Ok((reps, p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::game::Game;
    use crate::quotient::memory::Meter;
    use crate::quotient::monoid::Cycle;

    #[test]
    fn the_free_cycle_of_nim_heap_one_alternates() {
        let all = crate::quotient::heaps::all_options(&Game::nim(), 1);
        let options = HeapOptions::upto(&all, 1);
        let meter = Meter::new(1 << 20);
        let mut hold = meter.hold(0).unwrap();
        let cycle = Cycle { heap: 1, index: 2, period: 2 };
        let m = HeapMonoid::trivial(1).with_cycles(1, &[cycle], &mut hold).unwrap();
        let (reps, p) = forced_p_portion(&m, options, Ending::Misere, &mut hold).unwrap();
        assert_eq!(p, vec![false, true, false, true]);
        assert_eq!(reps.counts(3, 1), vec![0, 3]);
        let (_, normal) = forced_p_portion(&m, options, Ending::Normal, &mut hold).unwrap();
        assert_eq!(normal, vec![true, false, true, false]);
    }
}
