//! Marking a group of consecutive heaps at once: a part's partners in consecutive heaps
//! sit side by side in the ring, so one read of the part and of its partners' cache line
//! serves every heap of the group.
//!
//! The marker thread marks some 600 parts a heap on the long games. One heap at a time, a
//! mark costs a part's offset and value, its partner's index and the mark: about eight
//! instructions, and the marker runs at the core's limit on instructions. A group of
//! [`GROUP`] heaps reads the part once and its partners as one slice, about four
//! instructions a mark.

use crate::sequence::engine::ring::Ring;
use crate::sequence::engine::Moves;
use crate::sequence::engine::ROW;
use crate::sequence::values::cell::{Cell, SharedCell};

/// Heaps a group, aligned to multiples of it, so that a sampled heap (which the marker
/// skips) is the first of its group. On `octal:0.161` a group of sixteen marked a heap
/// in 0.67 of the time one heap alone took (a group of two: 0.94); one of 32 measured
/// slower than 16 end to end (its rows fill a quarter of the first-level cache).
pub(crate) const GROUP: usize = 16;

/// A row of marks and a few cache lines after it, so that the first slots of consecutive
/// rows fall in different sets of the first-level cache (rows of `ROW` alone would all
/// map their first slots to the same sets).
#[repr(C)]
pub(crate) struct PaddedRow {
    /// The marks: every XOR of two values of at most two bytes fits, so a slot index
    /// masked by `ROW - 1` needs no check.
    pub slots: [u8; ROW],
    pad: [u8; 256],
}

/// Rows of marks for the [`GROUP`] heaps of a group.
pub(crate) struct GroupRows {
    rows: Box<[PaddedRow; GROUP]>,
}

impl GroupRows {
    /// Zeroed rows.
    pub fn new() -> GroupRows {
        let rows: Vec<PaddedRow> =
            (0..GROUP).map(|_| PaddedRow { slots: [0; ROW], pad: [0; 256] }).collect();
        GroupRows { rows: rows.into_boxed_slice().try_into().ok().expect("GROUP rows") }
    }

    /// The rows, zeroed in their first `width` slots.
    pub fn cleared(&mut self, width: usize) -> &mut [PaddedRow; GROUP] {
        for row in self.rows.iter_mut() {
            row.slots[..width].fill(0);
        }
        &mut self.rows
    }
}

/// Whether [`mark_group`] may mark heaps from `first` on with `parts` (ascending) into
/// rows of `width` values: cells of at most two bytes and rows of at most [`ROW`] values,
/// equal splits allowed (no part is skipped for equalling its partner), and every part
/// smaller than the rest of every split of those heaps (none is cut off the list).
pub(crate) fn groupable<C: Cell>(first: u64, width: usize, moves: &Moves, parts: &[u32]) -> bool {
    C::MAX <= 0xFFFF
        && width <= ROW
        && !moves.unequal
        && first >= parts.last().map_or(0, |&last| u64::from(last)) + moves.max_removal + 2
}

/// Marks into `rows[i]` the values of every split of heap `first + i` with a part among
/// `offsets` (ring offsets, as in `Parts`; values `values`), partners from `ring`: what
/// `mark_parts` marks for each heap alone, when [`groupable`] holds.
pub(crate) fn mark_group<C: Cell>(
    rows: &mut [PaddedRow; GROUP],
    first: u64,
    moves: &Moves,
    ring: &Ring<C>,
    offsets: &[u32],
    values: &[C],
) {
    let (cells, last) = ring.masked_cells();
    for &k in &moves.split {
        let rest = (first - k) as usize;
        for (&off, &g) in offsets.iter().zip(values) {
            let at = rest.wrapping_add(off as usize) & last;
            let g = g.value();
            // The group's partners are one slice, except where it wraps round the ring's
            // end (one group in `capacity / GROUP` a part).
            if let Some(partners) = cells.get(at..at + GROUP) {
                let partners: &[C::Shared; GROUP] = partners.try_into().expect("GROUP cells");
                for (row, partner) in rows.iter_mut().zip(partners) {
                    row.slots[(g ^ partner.load().value()) as usize & (ROW - 1)] = 1;
                }
            } else {
                for (i, row) in rows.iter_mut().enumerate() {
                    let partner = cells[(at + i) & last].load().value();
                    row.slots[(g ^ partner) as usize & (ROW - 1)] = 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sequence::engine::heap::mark_parts;
    use crate::sequence::rule::HeapRule;

    /// `octal:0.161`: take 1 or 3 tokens as a whole heap; take 2 and leave one or two heaps.
    fn octal_0161() -> Moves {
        let rule =
            HeapRule { vanish: vec![1, 3], shrink: vec![2], split: vec![2], unequal_split: false };
        Moves::of(&rule)
    }

    /// Random values below `bound` of heaps up to 1300 in a ring of 1024, parts spread
    /// below 300 with their ring offsets and values.
    fn random_ring<C: Cell>(bound: u64) -> (Ring<C>, Vec<u32>, Vec<u32>, Vec<C>) {
        let ring: Ring<C> = Ring::new(1024);
        let mut seed = 12345u64;
        let mut random = move || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            seed >> 33
        };
        (0..1300).for_each(|n| ring.set(n, C::from_value((random() % bound) as u32)));
        let parts: Vec<u32> = (1..300).filter(|_| random() % 3 == 0).collect();
        let offsets: Vec<u32> =
            parts.iter().map(|&a| (ring.capacity() - u64::from(a)) as u32).collect();
        let values: Vec<C> =
            parts.iter().map(|_| C::from_value((random() % bound) as u32)).collect();
        (ring, parts, offsets, values)
    }

    /// Checks groups against `mark_parts` heap by heap (partners from heap 800 to 1200, so
    /// all in the ring); true if some group's partners wrapped round the ring's end.
    fn groups_match_each_heap_alone<C: Cell>(bound: u64, width: usize) -> bool {
        let moves = octal_0161();
        let (ring, parts, offsets, values) = random_ring::<C>(bound);
        let mut rows = GroupRows::new();
        let mut wrapped = false;
        for first in 1100..1160 {
            assert!(groupable::<C>(first, width, &moves, &parts));
            let group = rows.cleared(width);
            mark_group(group, first, &moves, &ring, &offsets, &values);
            for (i, row) in group.iter().enumerate() {
                let mut alone = vec![0u8; ROW];
                let n = first + i as u64;
                mark_parts(&mut alone, n, &moves, &ring, (&parts, &offsets), &values);
                assert_eq!(&row.slots[..width], &alone[..width], "heap {n}");
                assert!(row.slots[..width].contains(&1), "heap {n} has marks");
            }
            let at = |a: u32| (first - 2 - u64::from(a)) % ring.capacity();
            wrapped |= parts.iter().any(|&a| at(a) + GROUP as u64 > ring.capacity());
        }
        wrapped
    }

    #[test]
    fn a_group_marks_what_each_heap_marks_alone() {
        // One-byte values, and two-byte values whose XORs reach past one byte.
        assert!(groups_match_each_heap_alone::<u8>(200, 256), "some group wrapped");
        assert!(groups_match_each_heap_alone::<u16>(3000, 4096), "some group wrapped");
    }

    #[test]
    fn only_heaps_past_every_part_with_narrow_rows_and_equal_splits_are_grouped() {
        let moves = octal_0161();
        // 0.161 removes at most 3: a part of 100 fits every split from heap 105 on.
        assert!(groupable::<u8>(105, 256, &moves, &[5, 100]));
        assert!(!groupable::<u8>(104, 256, &moves, &[5, 100]));
        assert!(!groupable::<u32>(105, 256, &moves, &[5, 100]));
        assert!(!groupable::<u16>(105, ROW + 64, &moves, &[5, 100]));
        let grundy = Moves::of(&HeapRule::grundys_game());
        assert!(!groupable::<u8>(1000, 256, &grundy, &[5, 100]));
    }
}
