//! One file per subcommand: its clap arguments, its validated `Config`, and `run`.

pub mod atlas;
pub mod atlas_state;
pub mod check;
pub mod classes;
pub mod crosscheck;
pub mod genus;
pub mod grundy;
pub mod info;
pub mod judge;
pub mod merge;
pub mod moves;
pub mod period;
pub mod play;
pub mod plot;
pub mod quotient;
pub mod quotient_checkpoint;
pub mod solve;
pub mod split;
pub mod suite;
pub mod suite_takebreak;
pub mod sweep;
pub mod sweep_family;
pub mod sweep_quotients;
pub mod verify;
