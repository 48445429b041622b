//! What a sweep says about its family on stderr: the games listed more than once.

use nimtab::sweep::Family;

use crate::cli::output::note;

/// Notes the games of a family listed more than once (the first five pairs, and how many
/// more): each runs once, under its first spelling.
pub fn note_repeated_entries(family: &Family, repeats: &[(usize, usize)]) {
    if repeats.is_empty() {
        return;
    }
    let entry = |i: usize| format!("{} ({})", family.specs()[i], family.origin(i));
    let mut pairs: Vec<String> = repeats
        .iter()
        .take(5)
        .map(|&(repeat, first)| format!("{} is {}", entry(repeat), entry(first)))
        .collect();
    if repeats.len() > pairs.len() {
        pairs.push(format!("and {} more", repeats.len() - pairs.len()));
    }
    note(&format!(
        "nimtab: the same game listed twice runs once, under its first spelling: {}",
        pairs.join("; ")
    ));
}
