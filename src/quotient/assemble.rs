//! The computed monoid as a [`Quotient`]: its final numbering, the product table, the
//! presentation, tameness and period, counted against the computation's budget.

use crate::model::game::Game;
use crate::quotient::memory::{Hold, Result};
use crate::quotient::presentation::{present, presentation_text, word_text};
use crate::quotient::solver::Solved;
use crate::quotient::{period, tame, Quotient, QuotientConfig};

/// The quotient in its final numbering, its tables counted in `hold`.
pub(super) fn assemble(
    game: &Game,
    config: &QuotientConfig,
    solved: &Solved,
    hold: &mut Hold<'_>,
) -> Result<Quotient> {
    let monoid = &solved.monoid;
    let mut scratch = hold.meter().hold(0)?;
    let presentation = present(monoid, &mut scratch)?;
    let order = monoid.size;
    let mut by_number = scratch.vec(order, 0u32)?;
    for (x, &n) in presentation.renumber.iter().enumerate() {
        by_number[n as usize] = x as u32;
    }
    let heaps_of_word = |n: usize| -> Vec<u32> {
        let word = &presentation.words[n];
        let mut heaps = Vec::new();
        for (g, &e) in word.0.iter().enumerate() {
            heaps.extend(std::iter::repeat_n(presentation.generator_heaps[g], e as usize));
        }
        heaps
    };
    let mut product = hold.vec(order.saturating_mul(order), 0u32)?;
    for j in 0..order {
        let word = heaps_of_word(j);
        for i in 0..order {
            let x = monoid.times_heaps(by_number[i], &word);
            product[i * order + j] = presentation.renumber[x as usize];
        }
    }
    let mut p = hold.with_capacity(order)?;
    p.extend(by_number.iter().map(|&x| solved.p[x as usize]));
    let phi: Vec<u32> =
        (0..=config.max_heap).map(|h| presentation.renumber[monoid.apply(0, h) as usize]).collect();
    let mut elements = hold.with_capacity(order)?;
    for word in &presentation.words {
        let text = word_text(word);
        hold.grow(text.capacity() as u64)?;
        elements.push(text);
    }
    let mut relations = hold.with_capacity(presentation.relations.len())?;
    for (u, v) in &presentation.relations {
        let (u, v) = (word_text(u), word_text(v));
        hold.grow((u.capacity() + v.capacity()) as u64)?;
        relations.push((u, v));
    }
    let tame = tame::is_tame(order, &product, &p, &mut scratch)?;
    let period = period::certified_period(game, &phi);
    Ok(Quotient {
        game: game.spec().to_string(),
        max_heap: config.max_heap,
        play: config.play,
        order,
        product,
        p,
        phi,
        elements,
        generator_heaps: presentation.generator_heaps.clone(),
        relations,
        presentation: presentation_text(&presentation),
        tame,
        period,
        certified_at: None,
    })
}
