//! Which row solver and which sources a game's rows get.

use crate::engine::tuples::rows::general::FlatOptions;
use crate::engine::tuples::rows::subtract;
use crate::model::game::{Game, GameKind, MoveRule};
use crate::model::space::{Mode, TupleSpace};

/// How a row is solved: where its prefix moves are read, and how the last heap moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RowKind {
    /// Options are all smaller sizes: a row holds at most one P, the first free column.
    Nim,
    /// Options are `h - s` with every `s <= 64`: bit `s - 1` of the mask for each `s`.
    Subtract(u64),
    /// Options read from explicit lists.
    General,
    /// Multi-heap moves in full mode from line and box accumulators; Nim along the row.
    Lines,
    /// Multi-heap moves in full mode, every source row read (the general path).
    Sources,
    /// Multi-heap moves on sorted tuples from accumulators keyed by sorted rests.
    SortedLines,
    /// Multi-heap moves on sorted tuples: explicit options, re-sorted and ranked (the
    /// general path).
    Explicit,
}

impl RowKind {
    /// Whether the rows read explicit per-size option lists (sums other than Nim's rows).
    pub(crate) fn needs_option_lists(self) -> bool {
        matches!(self, RowKind::Subtract(_) | RowKind::General)
    }
}

/// How the rows of a game whose moves change several heaps (Wythoff, Moore's Nim_K,
/// circular Nim) are labelled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MultiHeapPath {
    /// The game's own accumulators (lines, diagonals, boxes): the fast path.
    #[default]
    Accumulators,
    /// Every source row of a row's prefix moves read one by one in full mode, every option
    /// of a sorted tuple listed and looked up: the path any multi-heap rule can take.
    General,
}

/// The row solver of a game in a space and mode; [`MultiHeapPath::General`] forces the
/// general path for multi-heap games.
pub(crate) fn row_kind(game: &Game, space: TupleSpace, mode: Mode, path: MultiHeapPath) -> RowKind {
    if game.kind() != GameKind::Sum {
        return match (mode, path) {
            (Mode::Canonical, MultiHeapPath::Accumulators) => RowKind::SortedLines,
            (Mode::Canonical, MultiHeapPath::General) => RowKind::Explicit,
            (Mode::Full, MultiHeapPath::Accumulators) => RowKind::Lines,
            (Mode::Full, MultiHeapPath::General) => RowKind::Sources,
        };
    }
    let (max, k) = (space.max(), space.heaps() - 1);
    let kind = match game.move_rule() {
        MoveRule::Nim => RowKind::Nim,
        MoveRule::Subtract(set) => {
            subtract::history_mask(set, max).map_or(RowKind::General, RowKind::Subtract)
        }
        MoveRule::Octal(_) | MoveRule::Hex(_) | MoveRule::GrundysGame => RowKind::General,
        MoveRule::Graph(moves) => {
            // A graph that lets every size up to max drop to every smaller one is Nim.
            let is_nim = (0..=max as usize).all(|h| {
                let list = moves.get(h).map_or(&[][..], |l| &l[..]);
                list.len() == h && list.iter().enumerate().all(|(i, &o)| o as usize == i)
            });
            if is_nim {
                RowKind::Nim
            } else {
                RowKind::General
            }
        }
    };
    // Full-mode Nim keeps (k - 1) accumulator rows per value of a prefix heap, which
    // outgrows a whole table when k - 1 > M + 1 (many heaps, tiny max): use the table.
    if kind == RowKind::Nim && mode == Mode::Full && k >= 2 && (k - 1) as u64 > space.radix() {
        return RowKind::General;
    }
    kind
}

/// `reach[m]`: the least size below `m` that a heap of size `>= m` can move to, or `m`;
/// `None` if the system refuses its memory.
pub(crate) fn reach_below(options: &FlatOptions, max: u32) -> Option<Vec<u32>> {
    let mut reach = Vec::new();
    reach.try_reserve_exact(max as usize + 2).ok()?;
    reach.resize(max as usize + 2, 0u32);
    reach[max as usize + 1] = max + 1;
    let mut least = u32::MAX;
    for m in (0..=max).rev() {
        least = least.min(options.of(m as usize).first().copied().unwrap_or(u32::MAX));
        reach[m as usize] = least.min(m);
    }
    Some(reach)
}
