//! The second thread of a long sequence: a marker that marks the rare heaps' partners
//! ahead of the thread that finishes each heap (`pipeline.rs`), the claims that divide the
//! heaps between them (`claims.rs`), the marker's groups (`group.rs`) and when the marker
//! runs (`parallel.rs`). Nothing outside `sequence/` sees this room but the thread count.

pub(crate) mod claims;
pub(crate) mod group;
pub(crate) mod parallel;
pub(crate) mod pipeline;
