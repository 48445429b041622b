//! The integration tests: one binary, one module per feature, and shared support (one CLI
//! runner, one reference solver).

mod support;

mod check;
mod classes;
mod crosscheck;
mod engine;
mod errors;
mod facts;
mod games_cli;
mod interrupt;
mod judge;
mod moves;
mod multi_heap;
mod multiset;
mod play;
mod plot;
mod probe;
mod resume;
mod sequence;
mod solve;
mod split;
mod suite;
mod sweep;
mod takebreak;
mod verify;
