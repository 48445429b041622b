//! nimtab: exhaustive, verified P/N position tables for Nim-like impartial games.
//!
//! The library labels every position of a bounded heap space by retrograde dynamic
//! programming ([`solve`]), compares the labels with closed-form criteria and writes
//! tables. It does no terminal I/O: progress is reported through [`solve::Progress`].
#![warn(missing_docs)]

pub mod check;
pub mod classes;
pub mod criteria;
pub mod crosscheck;
pub mod error;
pub mod export;
pub mod expr;
pub mod game;
pub mod judge;
pub mod moves;
pub mod play;
pub mod plot;
pub mod report;
pub mod rules;
pub mod solve;
pub mod space;
pub mod split;
pub mod suite;
pub mod verify;

pub use criteria::Criterion;
pub use error::{Error, Result};
pub use game::{Game, MoveRule};
pub use rules::Rule;
pub use solve::{Engine, Labels, NoProgress, Progress, RowView, RowVisitor};
pub use space::Space;
