//! Marking a few consecutive heaps at once: a part's partners in consecutive heaps sit side
//! by side in the ring, so one read of a cache line serves them all.
//!
//! The marker thread marks some 600 parts a heap on the long games, each partner far back
//! in the ring: more cache lines than the first-level cache holds, so one heap at a time
//! waits on the second level for every part. Two heaps at a time read each line once for
//! the two.

use super::cell::{Cell, SharedCell};
use super::engine::Moves;
use super::heap::ROW;
use super::ring::Ring;

/// Heaps a group: on `octal:0.161` to 2^24 the marker's time a heap fell by a tenth with
/// two, and by a few hundredths with four.
pub(crate) const GROUP: usize = 2;

/// Rows of marks for [`GROUP`] heaps, each of [`ROW`] slots (every XOR of two values of at
/// most two bytes fits, so a slot index needs no check).
pub(crate) struct GroupRows {
    rows: Vec<[u8; ROW]>,
}

impl GroupRows {
    /// Zeroed rows.
    pub fn new() -> GroupRows {
        GroupRows { rows: vec![[0u8; ROW]; GROUP] }
    }

    /// The rows, zeroed in their first `width` slots.
    pub fn cleared(&mut self, width: usize) -> &mut [[u8; ROW]; GROUP] {
        for row in &mut self.rows {
            row[..width].fill(0);
        }
        (&mut self.rows[..]).try_into().expect("GROUP rows")
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
    rows: &mut [[u8; ROW]; GROUP],
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
            let at = rest.wrapping_add(off as usize);
            let g = g.value();
            for (i, row) in rows.iter_mut().enumerate() {
                let value = g ^ cells[at.wrapping_add(i) & last].load().value();
                row[value as usize & (ROW - 1)] = 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sequence::heap::mark_parts;
    use crate::sequence::rule::HeapRule;

    /// `octal:0.161`: take 1 or 3 tokens as a whole heap; take 2 and leave one or two heaps.
    fn octal_0161() -> Moves {
        let rule =
            HeapRule { vanish: vec![1, 3], shrink: vec![2], split: vec![2], unequal_split: false };
        Moves::of(&rule)
    }

    #[test]
    fn a_group_marks_what_each_heap_marks_alone() {
        // Random values of one byte in a ring of 1024, parts spread below 300.
        let moves = octal_0161();
        let ring: Ring<u8> = Ring::new(1024);
        let mut seed = 12345u64;
        let mut random = move || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            seed >> 33
        };
        (0..2000).for_each(|n| ring.set(n, (random() % 200) as u8));
        let parts: Vec<u32> = (1..300).filter(|_| random() % 3 == 0).collect();
        let offsets: Vec<u32> =
            parts.iter().map(|&a| (ring.capacity() - u64::from(a)) as u32).collect();
        let values: Vec<u8> = parts.iter().map(|_| (random() % 200) as u8).collect();
        let first = 1500;
        assert!(groupable::<u8>(first, 256, &moves, &parts));
        let mut rows = GroupRows::new();
        let group = rows.cleared(256);
        mark_group(group, first, &moves, &ring, &offsets, &values);
        for (i, row) in group.iter().enumerate() {
            let mut alone = vec![0u8; ROW];
            let n = first + i as u64;
            mark_parts(&mut alone, n, &moves, &ring, (&parts, &offsets), &values);
            assert_eq!(&row[..256], &alone[..256], "heap {n}");
            assert!(row[..256].contains(&1), "heap {n} has marks");
        }
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
