//! Generators, normal forms, numbering and relations of a computed quotient.
//!
//! The generators are the classes of the heaps that bring a new element: heap `h` is a
//! generator when its class is not a product of the classes of smaller heaps; they are
//! named `a`, `b`, `c`, … in order of heap size (`x1`, `x2`, … beyond 26). Words in the
//! generators are ordered by degree, then by the exponent of the last generator, then of
//! the one before, and so on (a word with fewer of the later generators comes first).
//! This order is compatible with products, so every element has a least word, its
//! *normal form*; elements are numbered by their normal forms in this order (0 is the
//! identity, the empty word). The words that are not normal forms form an ideal; its
//! least words `u` give the relations `u = normal form of u`, which present the monoid
//! (a Gröbner basis of its congruence).

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

use crate::quotient::memory::{Hold, Result};
use crate::quotient::monoid::HeapMonoid;

/// A word as exponents of the generators.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Word(pub Vec<u32>);

impl Word {
    fn degree(&self) -> u32 {
        self.0.iter().sum()
    }
}

impl Ord for Word {
    fn cmp(&self, other: &Word) -> Ordering {
        self.degree()
            .cmp(&other.degree())
            .then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
    }
}

impl PartialOrd for Word {
    fn partial_cmp(&self, other: &Word) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The structure of a computed quotient in its final numbering.
#[derive(Clone, Debug)]
pub(crate) struct Presentation {
    /// The heap whose class each generator is.
    pub generator_heaps: Vec<u32>,
    /// Each element's normal form, in numbering order.
    pub words: Vec<Word>,
    /// `renumber[x]`: the final number of the working element `x`.
    pub renumber: Vec<u32>,
    /// The relations `(left, right)`, left sides ascending.
    pub relations: Vec<(Word, Word)>,
}

/// The generators, normal forms, numbering and relations of `monoid`, counted in `hold`
/// (its search's own tables while it runs).
pub(crate) fn present(monoid: &HeapMonoid, hold: &mut Hold<'_>) -> Result<Presentation> {
    let generator_heaps = generators(monoid, hold)?;
    let k = generator_heaps.len();
    let word_bytes = (k * std::mem::size_of::<u32>()) as u64;
    // Least words by Dijkstra's search: the least word of an element is a least word of
    // another times one generator, and multiplying keeps the order. A word's cells are
    // counted while it is queued or kept.
    let mut scratch = hold.meter().hold(0)?;
    let mut best: Vec<Option<Word>> = scratch.vec(monoid.size, None)?;
    let mut queue = BinaryHeap::new();
    queue_word(&mut queue, (Word(vec![0; k]), 0u32), word_bytes, &mut scratch)?;
    let mut order = scratch.with_capacity(monoid.size)?;
    while let Some(Reverse((word, x))) = queue.pop() {
        if best[x as usize].is_some() {
            scratch.shrink(word_bytes);
            continue;
        }
        order.push(x);
        best[x as usize] = Some(word);
        for (i, &h) in generator_heaps.iter().enumerate() {
            let y = monoid.apply(x, h);
            if best[y as usize].is_none() {
                let mut next = best[x as usize].clone().expect("the word just found");
                next.0[i] += 1;
                queue_word(&mut queue, (next, y), word_bytes, &mut scratch)?;
            }
        }
    }
    let mut renumber = hold.vec(monoid.size, u32::MAX)?;
    for (i, &x) in order.iter().enumerate() {
        renumber[x as usize] = i as u32;
    }
    let mut words: Vec<Word> = hold.with_capacity(order.len())?;
    hold.grow((order.len() as u64).saturating_mul(word_bytes))?;
    words.extend(order.iter().map(|&x| best[x as usize].take().unwrap_or(Word(Vec::new()))));
    let relations = relations(monoid, &generator_heaps, &order, &words, &renumber, hold)?;
    Ok(Presentation { generator_heaps, words, renumber, relations })
}

/// Queues a word and its element, its cells and any growth of the queue counted first.
fn queue_word(
    queue: &mut BinaryHeap<Reverse<(Word, u32)>>,
    item: (Word, u32),
    word_bytes: u64,
    hold: &mut Hold<'_>,
) -> Result<()> {
    if queue.len() == queue.capacity() {
        let more = queue.capacity().max(4);
        let bytes = (more * std::mem::size_of::<Reverse<(Word, u32)>>()) as u64;
        hold.grow(bytes)?;
        queue.try_reserve_exact(more).map_err(|_| hold.refused(bytes))?;
    }
    hold.grow(word_bytes)?;
    queue.push(Reverse(item));
    Ok(())
}

/// The heaps whose class is not a product of smaller heaps' classes.
fn generators(monoid: &HeapMonoid, hold: &mut Hold<'_>) -> Result<Vec<u32>> {
    let mut generator_heaps = Vec::new();
    let mut scratch = hold.meter().hold(0)?;
    let mut inside = scratch.vec(monoid.size, false)?;
    inside[0] = true;
    let mut members = scratch.with_capacity(monoid.size)?;
    members.push(0u32);
    for h in 1..=monoid.max_heap() {
        let x = monoid.apply(0, h);
        if inside[x as usize] {
            continue;
        }
        generator_heaps.push(h);
        // Close the members under the new generator (and the old ones).
        let mut next = 0;
        while next < members.len() {
            let y = members[next];
            next += 1;
            for &g in &generator_heaps {
                let z = monoid.apply(y, g);
                if !inside[z as usize] {
                    inside[z as usize] = true;
                    members.push(z);
                }
            }
        }
    }
    Ok(generator_heaps)
}

/// The least words that are not normal forms, each with the normal form of its element.
fn relations(
    monoid: &HeapMonoid,
    generator_heaps: &[u32],
    order: &[u32],
    words: &[Word],
    renumber: &[u32],
    hold: &mut Hold<'_>,
) -> Result<Vec<(Word, Word)>> {
    let mut found: Vec<(Word, Word)> = Vec::new();
    let word_bytes = std::mem::size_of_val(generator_heaps) as u64;
    for (i, &x) in order.iter().enumerate() {
        for (g, &h) in generator_heaps.iter().enumerate() {
            let y = monoid.apply(x, h);
            let mut product = words[i].clone();
            product.0[g] += 1;
            let normal = &words[renumber[y as usize] as usize];
            if *normal == product {
                continue;
            }
            // Least when every word one generator shorter is a normal form.
            let least = (0..generator_heaps.len()).filter(|&j| product.0[j] > 0).all(|j| {
                let mut shorter = product.clone();
                shorter.0[j] -= 1;
                let element = element_of_word(monoid, generator_heaps, &shorter);
                words[renumber[element as usize] as usize] == shorter
            });
            if least && !found.iter().any(|(u, _)| *u == product) {
                hold.grow(2 * word_bytes)?;
                hold.push(&mut found, (product, normal.clone()))?;
            }
        }
    }
    found.sort();
    Ok(found)
}

/// The working element of a word.
pub(crate) fn element_of_word(monoid: &HeapMonoid, generator_heaps: &[u32], word: &Word) -> u32 {
    let mut x = 0;
    for (g, &e) in word.0.iter().enumerate() {
        for _ in 0..e {
            x = monoid.apply(x, generator_heaps[g]);
        }
    }
    x
}

/// The name of generator `g` of `count`.
fn generator_name(g: usize, count: usize) -> String {
    if count <= 26 {
        ((b'a' + g as u8) as char).to_string()
    } else {
        format!("x{}", g + 1)
    }
}

/// A word as text: `1` for the empty word, else `ab^2c` (`x1*x2^2` beyond 26 generators).
pub(crate) fn word_text(word: &Word) -> String {
    let count = word.0.len();
    let parts: Vec<String> = word
        .0
        .iter()
        .enumerate()
        .filter(|(_, &e)| e > 0)
        .map(|(g, &e)| {
            let name = generator_name(g, count);
            if e == 1 {
                name
            } else {
                format!("{name}^{e}")
            }
        })
        .collect();
    if parts.is_empty() {
        "1".to_string()
    } else if count <= 26 {
        parts.concat()
    } else {
        parts.join("*")
    }
}

/// The presentation as one line: `<a, b | a^2 = 1, b^3 = b>` (`<>` for the trivial one).
pub(crate) fn presentation_text(presentation: &Presentation) -> String {
    let count = presentation.generator_heaps.len();
    let names: Vec<String> = (0..count).map(|g| generator_name(g, count)).collect();
    let relations: Vec<String> = presentation
        .relations
        .iter()
        .map(|(u, v)| format!("{} = {}", word_text(u), word_text(v)))
        .collect();
    match (names.is_empty(), relations.is_empty()) {
        (true, _) => "<>".to_string(),
        (false, true) => format!("<{}>", names.join(", ")),
        (false, false) => format!("<{} | {}>", names.join(", "), relations.join(", ")),
    }
}
