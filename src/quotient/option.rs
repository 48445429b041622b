//! One option of a heap as the quotient computation holds it: up to three smaller heaps,
//! packed in one word so that an option costs eight bytes whatever the game.

/// Bits of the first two heaps: enough for every heap up to [`crate::quotient::MAX_QUOTIENT_HEAP`].
const WIDE: u32 = 25;
/// Bits of the third heap, the rest of the word.
const NARROW: u32 = 64 - 2 * WIDE;

/// The largest heap of a game whose moves may leave three heaps: the third heap of an
/// option is at most a third of the heap it came from, so below `2^NARROW` for heaps up to
/// this. The options of such heaps are far beyond any memory budget long before.
pub const MAX_THREE_HEAP_QUOTIENT_HEAP: u32 = 1 << NARROW;

/// What a heap may become: heaps `a >= b >= c >= 0`, 0 standing for no heap (`[0, 0, 0]`:
/// the heap is taken whole; `[a, b, 0]` with `b >= 1`: two heaps remain).
///
/// Octal games, subtraction games, Nim and move graphs leave at most two heaps, so their
/// options cost what a pair of `u32` did; a hexadecimal code's bit 8 adds the third heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct HeapOption(u64);

impl HeapOption {
    /// The option leaving heaps `a` and `b` (either may be 0).
    #[inline]
    pub fn pair(a: u32, b: u32) -> HeapOption {
        HeapOption::triple(a, b, 0)
    }

    /// The option leaving heaps `a`, `b` and `c` (any may be 0); `c` must be below
    /// [`MAX_THREE_HEAP_QUOTIENT_HEAP`], as it is for the third heap of a heap up to it.
    #[inline]
    pub fn triple(a: u32, b: u32, c: u32) -> HeapOption {
        debug_assert!(a < 1 << WIDE && b < 1 << WIDE && c < 1 << NARROW, "({a}, {b}, {c})");
        HeapOption(u64::from(a) | u64::from(b) << WIDE | u64::from(c) << (2 * WIDE))
    }

    /// The heaps left, as the option was made (0 for no heap).
    #[inline]
    pub fn heaps(self) -> [u32; 3] {
        let mask = (1u64 << WIDE) - 1;
        let (a, b) = (self.0 & mask, self.0 >> WIDE & mask);
        [a as u32, b as u32, (self.0 >> (2 * WIDE)) as u32]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quotient::MAX_QUOTIENT_HEAP;

    #[test]
    fn options_hold_the_largest_heaps_of_every_game_they_stand_for() {
        let wide = MAX_QUOTIENT_HEAP;
        assert_eq!(HeapOption::pair(wide, wide - 1).heaps(), [wide, wide - 1, 0]);
        assert_eq!(HeapOption::pair(0, 0).heaps(), [0, 0, 0]);
        let third = MAX_THREE_HEAP_QUOTIENT_HEAP / 3;
        let option = HeapOption::triple(MAX_THREE_HEAP_QUOTIENT_HEAP - 2 * third, third, third);
        assert_eq!(option.heaps(), [MAX_THREE_HEAP_QUOTIENT_HEAP - 2 * third, third, third]);
        assert_eq!(std::mem::size_of::<HeapOption>(), std::mem::size_of::<(u32, u32)>());
    }
}
