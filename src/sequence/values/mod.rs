//! The values of a sequence: packed cells of a fixed width, in memory or in a file on
//! disk, behind one `Store`.

pub(crate) mod cell;
pub mod disk_store;
pub(crate) mod layout;
pub mod store;
