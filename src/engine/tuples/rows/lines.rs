//! Multi-heap rows in full mode: line and box accumulators instead of source rows.
//!
//! A move that changes prefix heaps reaches a source row `p'` below the row's prefix `p`,
//! read through a column transform. Instead of reading every source row, the engine keeps
//! one accumulator per family of sources, updated as rows are labelled:
//! - a *line* along prefix heap `i` (Wythoff's single-heap moves; a Moore or circular
//!   window of `i` and the last heap): the OR of the rows `p - t e_i`, `t >= 1`, one row
//!   per line, read as is or "at or above its first P";
//! - a *slant* along prefix heap `i` (Wythoff's diagonal through the last heap): the rows
//!   `p - t e_i` shifted up by `t`, kept shifted in place, one row per line;
//! - a *diagonal* through prefix heaps `i` and `j` (Wythoff): the rows `p - t (e_i + e_j)`;
//! - a *box* over a set `W` of prefix heaps (a Moore or circular window): the OR of the
//!   rows `p' <= p` on `W` (the others equal), one row per prefix, built as
//!   `A(p) = row(p) | OR_i A(p - e_i)`: a dominance OR, never a scan of the box.
//!
//! The row itself is a Nim row: a heap alone moves as in Nim in all these games.

use crate::engine::bits::{block_at_or_above_first, first_set, or_into, shift_up_one};
use crate::engine::tuples::labelling::{Labelling, Scratch, Track};
use crate::engine::tuples::rows::nim::solve_nim_row;
use crate::model::game::GameKind;
use crate::model::options::windowed_sets;
use crate::model::space::TupleSpace;

/// A family of source rows and how the row reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Accumulator {
    /// Along prefix heap `heap`; `any_amount`: the last heap may drop any amount too.
    Line { heap: usize, any_amount: bool },
    /// Along prefix heap `heap`, the last heap dropping by the same amount.
    Slant { heap: usize },
    /// Along two prefix heaps lowered by the same amount.
    Diagonal { first: usize, second: usize },
    /// Every lowering of the prefix heaps `heaps` (at least two).
    Box { heaps: Vec<usize>, any_amount: bool },
}

/// The accumulators of one game and space, and where each starts in a track's rows.
#[derive(Clone, Debug)]
pub(crate) struct LinePlan {
    accumulators: Vec<(Accumulator, usize)>,
    rows: u64,
    boxes: usize,
    space: TupleSpace,
    /// Row-index distance of one stone on each prefix heap: `r^(k - 1 - i)`.
    strides: Vec<usize>,
}

impl LinePlan {
    /// The accumulators of a multi-heap game over `space` (full mode).
    pub(crate) fn new(kind: GameKind, space: TupleSpace) -> LinePlan {
        let k = space.heaps() - 1;
        let families = match kind {
            GameKind::Wythoff => wythoff_lines(k),
            _ => windows(kind, space.heaps()),
        };
        let (r, mut next, mut boxes) = (space.radix(), 0u64, 0);
        let mut accumulators = Vec::with_capacity(families.len());
        for family in families {
            let rows = match &family {
                Accumulator::Line { .. } | Accumulator::Slant { .. } => r.pow(k as u32 - 1),
                Accumulator::Diagonal { .. } => r.pow(k as u32 - 2) * (2 * r - 1),
                Accumulator::Box { .. } => {
                    boxes += 1;
                    r.pow(k as u32)
                }
            };
            accumulators.push((family, next as usize));
            next += rows;
        }
        let strides = (0..k).map(|i| r.pow((k - 1 - i) as u32) as usize).collect();
        LinePlan { accumulators, rows: next, boxes, space, strides }
    }

    /// Rows of one track's accumulators.
    pub(crate) fn rows(&self) -> u64 {
        self.rows
    }

    /// Box accumulators (each needs a row of scratch).
    pub(crate) fn boxes(&self) -> usize {
        self.boxes
    }

    /// The families, in the order of [`LinePlan::slots`].
    pub(crate) fn families(&self) -> impl Iterator<Item = &Accumulator> {
        self.accumulators.iter().map(|(family, _)| family)
    }

    /// Row-index distance of one stone on prefix heap `i`.
    pub(crate) fn stride(&self, i: usize) -> usize {
        self.strides[i]
    }

    /// For each family, the accumulator row it reads for `prefix` (table row `row`) and
    /// the row a box writes; the same for every track.
    pub(crate) fn slots(&self, prefix: &[u32], row: usize, out: &mut Vec<(usize, usize)>) {
        let (space, r) = (self.space, self.space.radix());
        let without = |skip: &[usize]| {
            let kept = prefix.iter().enumerate().filter(|(i, _)| !skip.contains(i));
            space.index_of(kept.map(|(_, &h)| h)) as usize
        };
        out.clear();
        for (family, base) in &self.accumulators {
            let slot = match family {
                Accumulator::Line { heap, .. } | Accumulator::Slant { heap } => without(&[*heap]),
                Accumulator::Diagonal { first, second } => {
                    // p_first - p_second, from -M to M, offset by M.
                    let offset = u64::from(prefix[*first]) + r - 1 - u64::from(prefix[*second]);
                    without(&[*first, *second]) * (2 * r as usize - 1) + offset as usize
                }
                Accumulator::Box { .. } => row,
            };
            out.push((base + slot, base + row));
        }
    }
}

/// Wythoff's accumulators with `k` prefix heaps: a line and a slant per heap, a diagonal
/// per pair.
fn wythoff_lines(k: usize) -> Vec<Accumulator> {
    let mut out = Vec::new();
    for i in 0..k {
        out.push(Accumulator::Line { heap: i, any_amount: false });
        out.push(Accumulator::Slant { heap: i });
        for j in i + 1..k {
            out.push(Accumulator::Diagonal { first: i, second: j });
        }
    }
    out
}

/// The accumulators of Moore's or circular Nim's windows of `heaps` heaps: for each
/// largest set of prefix heaps one move may lower, a box (a line for one heap), read "at
/// or above its first P" when the same move may lower the last heap too.
fn windows(kind: GameKind, heaps: usize) -> Vec<Accumulator> {
    let sets = windowed_sets(kind, heaps);
    let strictly_inside =
        |a: &[usize], b: &[usize]| a.len() < b.len() && a.iter().all(|i| b.contains(i));
    let mut out = Vec::new();
    for (set, with_last) in &sets {
        // A set inside a larger one that reaches as far is read through the larger one's
        // accumulator (a box includes every lowering of fewer of its heaps).
        let covered = sets
            .iter()
            .any(|(other, other_last)| strictly_inside(set, other) && (*other_last || !with_last));
        if covered {
            continue;
        }
        out.push(match set.len() {
            1 => Accumulator::Line { heap: set[0], any_amount: *with_last },
            _ => Accumulator::Box { heaps: set.clone(), any_amount: *with_last },
        });
    }
    out
}

impl Labelling<'_, '_, '_> {
    /// A multi-heap row in full mode (table row `row`), on every track.
    pub(crate) fn lines_row(&self, scratch: &mut Scratch, row: usize) {
        let e = self.engine;
        let plan = e.lines.as_ref().expect("a line plan for multi-heap rows");
        let (w, r) = (e.layout.words_per_row(), e.layout.space().radix() as usize);
        plan.slots(&scratch.prefix, row, &mut scratch.slots);
        for (j, track) in self.tracks.iter().enumerate() {
            self.read_accumulators(plan, track, j, scratch);
            self.block_pass(j, scratch);
            let (blocked, out) =
                (&scratch.blocked[j * w..(j + 1) * w], &mut scratch.rows[j * w..(j + 1) * w]);
            solve_nim_row(0, r, false, blocked, out);
            update(plan, track, &scratch.slots, &mut scratch.box_reads, out, w);
        }
    }

    /// Blocks, on track `j`, every column some accumulator says reaches a P; keeps each
    /// box's read in `scratch.box_reads` for its update.
    fn read_accumulators(
        &self,
        plan: &LinePlan,
        track: &Track<'_>,
        j: usize,
        scratch: &mut Scratch,
    ) {
        let w = self.engine.layout.words_per_row();
        let acc = &track.accumulators;
        let blocked = &mut scratch.blocked[j * w..(j + 1) * w];
        let below = &mut scratch.at_or_below;
        below.fill(0);
        let mut boxes = scratch.box_reads.chunks_exact_mut(w);
        for ((family, _), &(slot, own)) in plan.accumulators.iter().zip(&scratch.slots) {
            match family {
                Accumulator::Line { any_amount: false, .. } | Accumulator::Diagonal { .. } => {
                    acc.or_into(slot, blocked)
                }
                Accumulator::Line { any_amount: true, .. } => acc.or_into(slot, below),
                Accumulator::Slant { .. } => {
                    acc.update(slot, shift_up_one);
                    acc.or_into(slot, blocked);
                }
                Accumulator::Box { heaps, any_amount } => {
                    let read = boxes.next().expect("one scratch row per box");
                    read.fill(0);
                    for &i in heaps.iter().filter(|&&i| scratch.prefix[i] > 0) {
                        acc.or_into(own - plan.strides[i], read);
                    }
                    or_into(if *any_amount { &mut *below } else { &mut *blocked }, read);
                }
            }
        }
        block_at_or_above_first(blocked, below);
    }
}

/// Adds the labelled row `out` to every accumulator of `track`.
fn update(
    plan: &LinePlan,
    track: &Track<'_>,
    slots: &[(usize, usize)],
    box_reads: &mut [u64],
    out: &[u64],
    w: usize,
) {
    let column = first_set(out);
    let mut boxes = box_reads.chunks_exact_mut(w);
    for ((family, _), &(slot, own)) in plan.accumulators.iter().zip(slots) {
        match family {
            Accumulator::Box { .. } => {
                let read = boxes.next().expect("one scratch row per box");
                or_into(read, out);
                track.accumulators.store(own, read);
            }
            _ => {
                if let Some(column) = column {
                    track.accumulators.set_bit(slot, column);
                }
            }
        }
    }
}
