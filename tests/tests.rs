//! The one integration-test binary: shared helpers plus one module per capability.

#[path = "suite/reference.rs"]
mod reference;

#[path = "suite/helpers.rs"]
mod helpers;

#[path = "suite/engine.rs"]
mod engine;

#[path = "suite/cli.rs"]
mod cli;

#[path = "suite/verify.rs"]
mod verify;

#[path = "suite/seeds.rs"]
mod seeds;

#[path = "suite/check.rs"]
mod check;

#[path = "suite/plot.rs"]
mod plot;
