//! The row solvers of the tuple engine: which one a game's rows get, and how each labels a
//! row along the last heap (Nim, small subtraction sets, option lists, multi-heap lines).

pub(crate) mod bands;
pub(crate) mod general;
pub(crate) mod lines;
pub(crate) mod nim;
pub(crate) mod prefix_moves;
pub(crate) mod row_kind;
pub(crate) mod subtract;
