//! The model: games and their move rules, spaces and their indexing, ending rules, positions.

pub mod canonical;
pub mod ending;
pub mod enumerate;
pub mod game;
mod graph_file;
pub mod position;
pub mod space;
