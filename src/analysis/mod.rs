//! Analysis of labels: criteria (the quotient's too) and claims compared with the DP, winning moves, misère
//! classes, the split game and play-outs.

pub mod claim;
pub mod classes;
mod columns;
mod comparer;
pub mod criteria;
pub mod error;
pub mod expr;
mod finding;
pub mod moves;
pub mod play;
mod predictor;
pub mod quotient_criterion;
pub mod split;
pub mod steps;
pub mod tally;
pub mod verify;
