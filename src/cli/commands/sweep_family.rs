//! What a sweep (or an atlas) says about its list on stderr: the entries listed more than once.

use nimtab::sweep::Family;

use crate::cli::output::note;

/// Notes the games of a family listed more than once (the first five pairs, and how many
/// more): each runs once, under its first spelling.
pub fn note_repeated_entries(family: &Family, repeats: &[(usize, usize)]) {
    let entry = |i: usize| format!("{} ({})", family.specs()[i], family.origin(i));
    let pairs: Vec<(String, String)> =
        repeats.iter().take(5).map(|&(repeat, first)| (entry(repeat), entry(first))).collect();
    note_repeats(
        "the same game listed twice runs once, under its first spelling",
        &pairs,
        repeats.len(),
    );
}

/// Notes `what` happens to entries listed more than once: the first five of `pairs`
/// (`repeat`, `first`), and how many more of `count` in all. Nothing when there are none.
pub fn note_repeats(what: &str, pairs: &[(String, String)], count: usize) {
    if count == 0 {
        return;
    }
    let mut said: Vec<String> =
        pairs.iter().take(5).map(|(repeat, first)| format!("{repeat} is {first}")).collect();
    if count > said.len() {
        said.push(format!("and {} more", count - said.len()));
    }
    note(&format!("nimtab: {what}: {}", said.join("; ")));
}
