//! The integration tests: one binary, one module per feature, and shared support (one CLI
//! runner, one reference solver).

mod support;

mod atlas;
mod atlas_site;
mod check;
mod checkpoint_saves;
mod classes;
mod crosscheck;
mod devices;
mod docs;
mod engine;
mod errors;
mod facts;
mod file_imports;
mod fresh_clone;
mod games_cli;
mod input_bounds;
mod interrupt;
mod judge;
mod layers;
mod long_runs;
mod memory_limits;
mod merge;
mod moves;
mod multi_heap;
mod multiset;
mod output_dirs;
mod play;
mod plot;
mod probe;
mod quotient;
mod quotient_criterion;
mod quotient_limits;
mod rare;
mod resume;
mod rule_words;
mod sequence;
mod solve;
mod split;
mod suite;
mod sweep;
mod sweep_edges;
mod sweep_quotients;
mod takebreak;
mod verify;
