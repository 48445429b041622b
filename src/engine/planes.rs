//! The one schedule of the plane solvers: Nim's planes and sorted table rows' planes.
//!
//! A *plane* is every row sharing the prefix's first `k - 1` heaps (the outer prefix); its
//! rows differ in the last prefix heap. A plane's sources lie in planes of smaller outer
//! sum or in the plane itself, so planes of equal outer sum are independent, as rows of
//! equal prefix sum are (`shared_rows.rs` holds the argument for the accumulators they
//! share): they run in layers of equal outer sum, the planes of a layer in parallel, and
//! each plane labels its rows in order of the last prefix heap.

use crate::engine::labelling::Labelling;
use crate::engine::layout::first_values;
use crate::engine::memory::Lease;
use crate::engine::nim::PlaneRows;
use crate::engine::row_kind::RowKind;
use crate::engine::schedule::{run_layers, Schedule};
use crate::engine::sorted_planes::PlaneScratch;
use crate::engine::visitor::{Progress, RowVisitor};
use crate::error::Result;
use crate::model::space::Mode;

impl Labelling<'_, '_, '_> {
    /// Labels every row plane by plane where the row kind has a plane solver (Nim, and
    /// table rows over sorted tuples, with at least one prefix heap); `None` where rows
    /// are labelled one by one.
    pub(crate) fn run_planes<V: RowVisitor>(
        &self,
        lease: &Lease<'_>,
        visitor: &V,
        progress: &dyn Progress,
    ) -> Option<Result<V::Acc>> {
        let e = self.engine;
        if e.layout.prefix_len() == 0 {
            return None;
        }
        Some(match (e.kind, e.layout.mode()) {
            (RowKind::Nim, Mode::Full) => {
                let plane = |outer: &[u32], rows: &mut PlaneRows, acc: &mut V::Acc| {
                    self.plane(outer, rows, visitor, acc)
                };
                self.for_each_plane(visitor, progress, || self.plane_rows(lease), plane)
            }
            (RowKind::Nim, Mode::Canonical) => {
                let plane = |outer: &[u32], scratch: &mut PlaneScratch, acc: &mut V::Acc| {
                    self.sorted_plane(outer, scratch, visitor, acc)
                };
                self.for_each_plane(visitor, progress, || self.plane_scratch(lease), plane)
            }
            (RowKind::Subtract(_) | RowKind::General, Mode::Canonical) => {
                let plane = |outer: &[u32], scratch: &mut _, acc: &mut V::Acc| {
                    self.sorted_table_plane(outer, scratch, visitor, acc)
                };
                self.for_each_plane(visitor, progress, || self.scratch(lease), plane)
            }
            _ => return None,
        })
    }

    /// Runs `plane(outer, scratch, acc)` on every outer prefix of the space's mode, in
    /// layers of equal outer sum, the planes of a layer in parallel; `plane` returns the
    /// positions it labelled.
    fn for_each_plane<V: RowVisitor, S: Send>(
        &self,
        visitor: &V,
        progress: &dyn Progress,
        new_scratch: impl Fn() -> Result<S> + Sync,
        plane: impl Fn(&[u32], &mut S, &mut V::Acc) -> u64 + Sync,
    ) -> Result<V::Acc> {
        let e = self.engine;
        let space = e.layout.space();
        let (outer, max, mode) = (e.layout.prefix_len() - 1, space.max(), e.layout.mode());
        let schedule = Schedule {
            layers: outer as u64 * u64::from(max) + 1,
            positions: space.positions(),
            parallel_threshold: e.parallel_threshold,
        };
        let firsts = |sum| first_values(sum, outer, max, mode.is_canonical());
        // A task's outer prefix buffer lives beside its scratch, allocated once per task.
        let work = |(buf, scratch): &mut (Vec<u32>, S), acc: &mut V::Acc, first, sum: u64| {
            if outer == 0 {
                return plane(&[], scratch, acc);
            }
            let mut done = 0;
            e.layout.for_each_prefix(buf, first, sum, &mut |o| done += plane(o, scratch, acc));
            done
        };
        // The scratch is allocated before the small prefix buffer: in the other order the
        // sorted Nim planes measured about a tenth slower on one thread (likely where the
        // scratch's rows then fall against cache lines).
        let scratch = || {
            let s = new_scratch()?;
            Ok((vec![0u32; outer], s))
        };
        run_layers(schedule, visitor, progress, firsts, scratch, work)
    }
}
