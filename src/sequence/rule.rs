//! How one heap moves in a take-and-break game: the removal counts that take it whole,
//! leave one heap or split it in two, as plain data the sequence engine reads.

/// How one heap may move in a take-and-break game: remove `k` tokens and leave zero, one
/// or two non-empty heaps. Octal games and Grundy's game are both described this way.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HeapRule {
    /// `k` (ascending) such that a heap of exactly `k` tokens may be taken whole.
    pub vanish: Vec<u32>,
    /// `k >= 1` (ascending) such that a heap of `n > k` tokens may become one heap of `n - k`.
    pub shrink: Vec<u32>,
    /// `k >= 0` (ascending) such that a heap of `n >= k + 2` tokens may become two
    /// non-empty heaps with `n - k` tokens in all.
    pub split: Vec<u32>,
    /// Whether the two heaps of a split must differ in size (Grundy's game).
    pub unequal_split: bool,
}

impl HeapRule {
    /// Grundy's game: split a heap into two non-empty heaps of different sizes.
    pub fn grundys_game() -> HeapRule {
        HeapRule { vanish: Vec::new(), shrink: Vec::new(), split: vec![0], unequal_split: true }
    }

    /// What a heap of `n` tokens may become, as pairs `(a, b)` with `a >= b >= 0` where 0
    /// is no heap: `(0, 0)` the heap is taken whole, `(a, 0)` one heap remains, `(a, b)`
    /// with `b >= 1` two remain. Without repeats, in ascending order.
    pub fn options(&self, n: u32) -> Vec<(u32, u32)> {
        let mut options = self.options_unordered(n);
        options.sort_unstable();
        options
    }

    /// The pairs of [`HeapRule::options`] in the order they are made, for a caller that
    /// reads them as a set (sorting them was most of the time of a long quotient run).
    /// There are no repeats: pairs `(a, 0)` of different removals differ in `a`, splits of
    /// different removals in `a + b`, and a split has `b >= 1`.
    pub fn options_unordered(&self, n: u32) -> Vec<(u32, u32)> {
        let mut options = Vec::new();
        if self.vanish.binary_search(&n).is_ok() {
            options.push((0, 0));
        }
        for &k in self.shrink.iter().take_while(|&&k| k < n) {
            options.push((n - k, 0));
        }
        for &k in self.split.iter().take_while(|&&k| k + 2 <= n) {
            let rest = n - k;
            for b in 1..=rest / 2 {
                if !(self.unequal_split && 2 * b == rest) {
                    options.push((rest - b, b));
                }
            }
        }
        options
    }

    /// Whether a heap of `n` tokens has a move (without listing them).
    pub fn has_moves(&self, n: u32) -> bool {
        let splits = |&k: &u32| {
            let rest = n.saturating_sub(k);
            k + 2 <= n && !(self.unequal_split && rest < 3)
        };
        self.vanish.binary_search(&n).is_ok()
            || self.shrink.first().is_some_and(|&k| k < n)
            || self.split.iter().any(splits)
    }

    /// `t`, the most tokens one move removes (0 when no move removes any).
    pub fn max_removal(&self) -> u32 {
        [&self.vanish, &self.shrink, &self.split]
            .iter()
            .filter_map(|set| set.last().copied())
            .max()
            .unwrap_or(0)
    }

    /// Whether some move leaves two heaps.
    pub fn splits(&self) -> bool {
        !self.split.is_empty()
    }

    /// Whether some move splits a heap without removing a token: such a move keeps the
    /// total and adds a heap (`D0 = 4`, Grundy's game).
    pub fn splits_in_place(&self) -> bool {
        self.split.first() == Some(&0)
    }
}
