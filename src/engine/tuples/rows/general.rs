//! Rows of any move rule, from explicit option lists.

use crate::engine::bits::valid_columns;
use crate::model::game::Game;

/// Option lists of every heap size in one array: `targets[starts[h]..starts[h + 1]]`.
#[derive(Clone, Debug, Default)]
pub(crate) struct FlatOptions {
    starts: Vec<usize>,
    targets: Vec<u32>,
}

impl FlatOptions {
    /// The option lists of every size `0..=max`, listed one size at a time (no list of
    /// lists: with millions of sizes its per-list overhead would dwarf the options);
    /// `None` if the system refuses the lists' memory (their length is counted first).
    pub(crate) fn try_of_game(game: &Game, max: u32) -> Option<FlatOptions> {
        let (mut starts, mut targets) = (Vec::new(), Vec::new());
        starts.try_reserve_exact(max as usize + 2).ok()?;
        targets.try_reserve_exact(usize::try_from(game.option_count(max)).ok()?).ok()?;
        starts.push(0);
        for h in 0..=max {
            targets.extend_from_slice(&game.options(h));
            starts.push(targets.len());
        }
        Some(FlatOptions { starts, targets })
    }

    /// The option lists of sizes `0, 1, 2, ...` in turn (cheaper than [`FlatOptions::of`]
    /// size by size: each list's end is the next one's start).
    pub(crate) fn lists(&self) -> impl Iterator<Item = &[u32]> {
        self.starts.windows(2).map(|ends| &self.targets[ends[0]..ends[1]])
    }

    /// The options of a heap of size `h`, ascending.
    #[inline]
    pub(crate) fn of(&self, h: usize) -> &[u32] {
        &self.targets[self.starts[h]..self.starts[h + 1]]
    }
}

/// General row: column h is P iff not blocked and none of its options in the row is P.
/// Only free columns are visited; their options are one slice of a flat array.
pub(crate) fn solve_general_row(
    options: &FlatOptions,
    lo: usize,
    r: usize,
    blocked: &[u64],
    row: &mut [u64],
) {
    for i in lo / 64..blocked.len() {
        let mut free = !blocked[i] & valid_columns(i, lo, r);
        while free != 0 {
            let bit = free.trailing_zeros() as usize;
            free &= free - 1;
            let reaches_p =
                options.of(i * 64 + bit).iter().any(|&o| row[o as usize / 64] >> (o % 64) & 1 == 1);
            // Options are smaller columns, so bits set earlier in this word are seen.
            row[i] |= u64::from(!reaches_p) << bit;
        }
    }
}
