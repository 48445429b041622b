//! Contest problems: their judges (answers by a criterion checked against the DP) and
//! exhaustive cross-checks of contest solutions.

pub mod crosscheck;
pub mod judge;
