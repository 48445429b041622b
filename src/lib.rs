//! nimtab: exhaustive, verified P/N position tables for Nim-like impartial games.
//!
//! A [`Game`] gives the move rule of every heap (a sum), or moves several heaps at once
//! (Wythoff's game, Moore's Nim_K, circular Nim), with or without a pass; a [`Space`] is
//! every tuple of `n` heaps of at most `M` stones. An [`Engine`] labels every position of a space P (the player
//! to move loses) or N by retrograde dynamic programming under an [`Ending`] (normal
//! play, misère play or the SJ rule), from the move rule alone, and hands back the
//! [`Labels`] or streams finished rows to a [`RowVisitor`]. The [`analysis`] modules
//! compare labels with closed-form criteria and claims; [`export`] writes tables,
//! reports and pictures to any `io::Write`. The library does no terminal I/O: progress
//! goes through [`Progress`].
//!
//! # Example
//!
//! Label every position of Nim with 3 heaps of at most 7 stones under normal play, and
//! read labels back:
//!
//! ```
//! use nimtab::{Ending, Engine, Game, Space};
//!
//! let nim = Game::nim();
//! let space = Space::new(3, 7)?; // every (h1, h2, h3) with 0 <= hi <= 7
//! let labels = Engine::new(&nim, space).label(Ending::Normal)?;
//! assert!(labels.is_p(&[1, 2, 3])); // 1 ^ 2 ^ 3 = 0: the player to move loses
//! assert!(!labels.is_p(&[1, 2, 4]));
//! assert_eq!(labels.p_count(), 64); // Bouton: P exactly where the XOR is 0
//! assert_eq!(labels.iter().filter(|(_, is_p)| *is_p).count(), 64);
//! # Ok::<(), nimtab::Error>(())
//! ```
//!
//! A space of sorted tuples only ([`Mode::Canonical`], judged by their count), a memory
//! limit, or a fused run over several endings:
//!
//! ```
//! use nimtab::{Ending, Engine, Game, Mode, NoProgress, Space};
//!
//! let game = Game::parse("subtract:1,3,4")?;
//! let engine = Engine::builder(&game, Space::in_mode(4, 20, Mode::Canonical)?)
//!     .memory_limit(1 << 30)
//!     .build();
//! let tables = engine.label_all(&[Ending::Normal, Ending::Misere], &NoProgress)?;
//! assert_eq!(tables[0].positions(), 10626); // C(24, 4) sorted tuples
//! assert!(tables[1].is_p(&[0, 0, 0, 1])); // misère: taking the last stone loses
//! # Ok::<(), nimtab::Error>(())
//! ```
//!
//! Take-and-break games (`octal:0.77` is Kayles) split heaps, so their positions are
//! multisets of heaps: the same engine labels every multiset of a bounded total, and the
//! labels answer for heaps in any order:
//!
//! ```
//! use nimtab::{Ending, Engine, Game, NoProgress, Space};
//!
//! let kayles = Game::octal("0.77")?;
//! let space = Space::multisets(20)?; // every multiset of heaps of total at most 20
//! let labels = Engine::new(&kayles, space).label_all(&[Ending::Misere], &NoProgress)?;
//! assert!(labels[0].is_p(&[2, 2]));
//! assert!(!labels[0].is_p(&[1, 3]));
//! # Ok::<(), nimtab::Error>(())
//! ```
//!
//! # Errors
//!
//! Every fallible call returns [`Error`], whose messages name the bad value: an unknown
//! game, a space with no heaps or beyond any index, a run whose tables do not fit in the
//! memory limit ([`Error::TooLarge`], before anything is allocated), a bad move graph.
#![warn(missing_docs)]
#![warn(missing_debug_implementations)]
#![warn(clippy::missing_errors_doc, clippy::missing_panics_doc)]

pub mod analysis;
pub mod contest;
mod engine;
mod error;
pub mod export;
pub mod host;
pub mod input;
mod model;
pub mod quotient;
mod random;
pub mod sequence;
pub mod suite;
pub mod sweep;

pub use analysis::criteria::Criterion;
pub use engine::{
    Engine, EngineBuilder, Grant, GrundyValues, Labels, MemoryPlan, MultiHeapPath, NoProgress,
    Progress, Reservation, RowView, RowVisitor, Work,
};
pub use error::{Error, Result};
pub use model::canonical::{multisets, CanonicalRanker};
pub use model::ending::Ending;
pub use model::enumerate::Tuples;
pub use model::game::{Game, GameKind, MoveRule};
pub use model::multiset::{MultisetSpace, Walk, MAX_TOTAL};
pub use model::octal::{HeapRule, OctalCode};
pub use model::options::{LastHeap, PositionOptions};
pub use model::position::{parse_size, Label, PassState, SizeError, Spaced, SpacedState, Tuple};
pub use model::space::{
    tuple_count, validate_max, Mode, Space, TupleSpace, MAX_HEAPS, MAX_HEAP_SIZE,
};
pub use random::SplitMix64;
