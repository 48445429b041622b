//! Sorted tuples (canonical mode): the row solvers that label only `h1 ≤ … ≤ hn`, by planes
//! of one sorted outer prefix, by accumulators keyed by what a move leaves untouched, or by
//! each position's options sorted and looked up.

pub(crate) mod explicit;
pub(crate) mod lines;
pub(crate) mod lines_row;
pub(crate) mod planes;
pub(crate) mod slots;
pub(crate) mod table_planes;
