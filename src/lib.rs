//! nimtab: exhaustive, verified P/N position tables for Nim-like impartial games.
//!
//! The library labels every position of a bounded heap space by retrograde dynamic
//! programming ([`solve`]), compares the labels with closed-form criteria and writes
//! tables. It does no terminal I/O: progress is reported through [`solve::Progress`].
#![warn(missing_docs)]

pub mod check;
pub mod error;
pub mod export;
pub mod expr;
pub mod game;
pub mod plot;
pub mod rules;
pub mod solve;
pub mod space;

pub use error::{Error, Result};
pub use game::{Game, MoveRule};
pub use rules::Rule;
pub use solve::{Engine, Labels, NoProgress, Progress, RowView, RowVisitor};
pub use space::Space;
