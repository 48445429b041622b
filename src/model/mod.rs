//! The model: games and their move rules, their options, spaces and their indexing, ending rules, positions.

pub mod canonical;
pub mod ending;
pub mod enumerate;
pub mod error;
pub mod game;
mod graph_file;
pub mod grundy_sequence;
pub mod hex;
pub mod multiset;
pub mod octal;
pub mod options;
pub mod position;
pub mod space;
pub mod take_break;

/// Parses a comma list with `parse`; the result is deduplicated and sorted (column order
/// for endings and criteria).
pub(crate) fn parse_list<T: Ord, E>(
    list: &str,
    parse: impl Fn(&str) -> Result<T, E>,
) -> Result<Vec<T>, E> {
    let mut items = list.split(',').map(parse).collect::<Result<Vec<_>, E>>()?;
    items.sort();
    items.dedup();
    Ok(items)
}
