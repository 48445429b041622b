//! nimtab: exhaustive, verified P/N position tables for Nim-like impartial games.
//!
//! A [`Game`] gives the move rule of every heap (a sum), or moves several heaps at once
//! (Wythoff's game, Moore's Nim_K, circular Nim), with or without a pass; a [`Space`] is
//! every tuple of `n` heaps of at most `M` stones. An [`Engine`] labels every position of a space P (the player
//! to move loses) or N by retrograde dynamic programming under an [`Ending`] (normal
//! play, misère play or the SJ ending), from the move rule alone, and hands back the
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
//! [`verify`] compares the labels of every ending with closed-form criteria in one run, and
//! [`test_claim`] tests a claim written in the claim language
//! ([`analysis::expr::Expr`]) on every position:
//!
//! ```
//! use nimtab::analysis::expr::Expr;
//! use nimtab::{test_claim, verify, Criterion, Ending, Engine, Game, NoProgress, Space};
//!
//! let nim = Game::nim();
//! let engine = Engine::new(&nim, Space::new(3, 15)?);
//! let endings = [Ending::Normal, Ending::Misere];
//! let criteria = [Criterion::Xor, Criterion::AntiNim];
//! let verification = verify(&engine, &endings, &criteria, 5, &NoProgress)?;
//! // Bouton's XOR rule holds under normal play, Anti-Nim under misère play.
//! let holds = |ending, criterion| {
//!     let finding = verification.findings.iter().find(|f| {
//!         f.ending == ending && f.criterion == Some(criterion)
//!     });
//!     finding.unwrap().tally.holds()
//! };
//! assert!(holds(Ending::Normal, Criterion::Xor));
//! assert!(holds(Ending::Misere, Criterion::AntiNim));
//! assert!(!holds(Ending::Misere, Criterion::Xor));
//!
//! let claim = Expr::parse_claim("xor == 0")?.compile(engine.space(), &nim.grundy(15))?;
//! let tally = test_claim(&engine, Ending::Normal, &claim, 5, &NoProgress)?;
//! assert_eq!((tally.positions, tally.disagree), (4096, 0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Where names live
//!
//! The crate root holds what a first program needs (above). Everything else lives under
//! the module that says what it is: a folder whose files are separate concepts exposes
//! them as modules ([`model::space::TupleSpace`], [`model::position::PassState`],
//! [`analysis::verify::Verification`], [`export::labels_csv`]); a folder whose files are
//! the parts of one algorithm gathers its public names at the folder ([`engine::Work`],
//! [`engine::GrundyValues`], [`sweep::Sweep`], [`sequence::HeapRule`],
//! [`quotient::Quotient`]).
//!
//! # Errors
//!
//! Each layer has its own error, and a layer above wraps the errors of the layers it calls:
//! the model's [`ModelError`] (an unknown game, a space with no heaps or beyond any index,
//! a bad move graph), the engine's [`EngineError`] (a run whose tables do not fit in the
//! memory limit, [`EngineError::TooLarge`], refused before anything is allocated; a
//! cancelled run) and, on top, [`Error`], which the analysis and every tool above it
//! return. Messages name the bad value. `?` turns a lower layer's error into a higher
//! one's, and [`Error`] holds a model or engine refusal as [`Error::Model`] or
//! [`Error::Engine`] whichever way it came up, so one pattern matches it:
//!
//! ```
//! use nimtab::{EngineError, Ending, Engine, Error, Game, Space};
//!
//! let nim = Game::nim();
//! let too_small = Engine::builder(&nim, Space::new(3, 255)?).memory_limit(1 << 10);
//! let refused: Error = too_small.build().label(Ending::Normal).unwrap_err().into();
//! assert!(matches!(refused, Error::Engine(EngineError::TooLarge { .. })));
//! assert!(refused.to_string().starts_with("space too large: nim, 3 heaps, max 255"));
//! # Ok::<(), nimtab::Error>(())
//! ```
#![warn(missing_docs)]
#![warn(missing_debug_implementations)]
#![warn(clippy::missing_errors_doc, clippy::missing_panics_doc)]

pub mod analysis;
pub mod atlas;
pub mod contest;
pub mod engine;
pub mod export;
pub mod genus;
pub mod host;
pub mod input;
pub mod model;
pub mod quotient;
pub mod random;
pub mod sequence;
pub mod suite;
pub mod sweep;

pub use analysis::claim::test_claim;
pub use analysis::criteria::Criterion;
pub use analysis::error::{Error, Result};
pub use analysis::verify::verify;
pub use engine::EngineError;
pub use engine::{Engine, EngineBuilder, Labels, NoProgress, Progress, RowVisitor};
pub use model::ending::Ending;
pub use model::error::ModelError;
pub use model::game::Game;
pub use model::position::Label;
pub use model::space::{Mode, Space};
