//! The one schedule of the plane solvers: Nim's planes and sorted table rows' planes.
//!
//! A *plane* is every row sharing the prefix's first `k - 1` heaps (the outer prefix); its
//! rows differ in the last prefix heap. A plane's sources lie in planes of smaller outer
//! sum or in the plane itself, so planes of equal outer sum are independent, as rows of
//! equal prefix sum are (`tuples/shared_rows.rs` holds the argument for the accumulators they
//! share): they run in layers of equal outer sum, the planes of a layer in parallel, and
//! each plane labels its rows in order of the last prefix heap.

use crate::engine::error::Result;
use crate::engine::memory::Lease;
use crate::engine::tuples::labelling::Labelling;
use crate::engine::tuples::layout::first_values;
use crate::engine::tuples::rows::row_kind::RowKind;
use crate::engine::tuples::schedule::{run_layers, Schedule};
use crate::engine::visitor::{Progress, RowVisitor};
use crate::model::space::Mode;

/// One plane's work: its outer prefix, the task's scratch, and where its finished rows go.
pub(crate) struct PlaneJob<'p, V: RowVisitor, S> {
    pub outer: &'p [u32],
    pub scratch: &'p mut S,
    pub visitor: &'p V,
    pub acc: &'p mut V::Acc,
}

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
                // The job's parts as arguments: with the job passed whole, the full plane
                // ran about 1% more instructions (callgrind, Nim 4 x 255).
                let solve = |job: PlaneJob<'_, V, _>| {
                    self.plane(job.outer, job.scratch, job.visitor, job.acc)
                };
                self.for_each_plane(visitor, progress, || self.plane_rows(lease), solve)
            }
            (RowKind::Nim, Mode::Canonical) => {
                let solve = |job: PlaneJob<'_, V, _>| self.sorted_plane(job);
                self.for_each_plane(visitor, progress, || self.plane_scratch(lease), solve)
            }
            (RowKind::Subtract(_) | RowKind::General, Mode::Canonical) => {
                let solve = |job: PlaneJob<'_, V, _>| self.sorted_table_plane(job);
                self.for_each_plane(visitor, progress, || self.scratch(lease), solve)
            }
            _ => return None,
        })
    }

    /// Runs `plane` on every outer prefix of the space's mode, in layers of equal outer
    /// sum, the planes of a layer in parallel; `plane` returns the positions it labelled.
    fn for_each_plane<V: RowVisitor, S: Send>(
        &self,
        visitor: &V,
        progress: &dyn Progress,
        new_scratch: impl Fn() -> Result<S> + Sync,
        plane: impl Fn(PlaneJob<'_, V, S>) -> u64 + Sync,
    ) -> Result<V::Acc> {
        let e = self.engine;
        let space = e.layout.space();
        let (outer, max, mode) = (e.layout.prefix_len() - 1, space.max(), e.layout.mode());
        let schedule = Schedule {
            layers: outer as u64 * u64::from(max) + 1,
            positions: space.positions(),
            parallel_threshold: e.parallel_threshold,
        };
        let firsts = |sum| first_values(sum, outer, max, mode);
        // A task's outer prefix buffer lives beside its scratch, allocated once per task.
        let work = |(buf, scratch): &mut (Vec<u32>, S), acc: &mut V::Acc, first, sum: u64| {
            let mut job = |o: &[u32]| plane(PlaneJob { outer: o, scratch, visitor, acc });
            if outer == 0 {
                return job(&[]);
            }
            let mut done = 0;
            e.layout.for_each_prefix(buf, first, sum, &mut |o| done += job(o));
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
