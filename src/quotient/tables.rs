//! The check of a quotient against exhaustive tables: every multiset of heaps of size at
//! most `N` and total at most `T`, labelled by the multiset engine from the move rule
//! alone, against the quotient's prediction. It shares nothing with the computation.

use crate::engine::error::Result;
use crate::engine::{Engine, Progress};
use crate::model::game::Game;
use crate::model::space::Space;
use crate::quotient::Quotient;

/// What the check found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableCheck {
    /// The total `T`.
    pub total: u64,
    /// Positions compared: the multisets of total at most `T` with every heap at most `N`.
    pub positions: u64,
    /// Positions where the table and the quotient disagree.
    pub disagreements: u64,
    /// The first disagreement in rank order: the heaps (non-increasing) and the table's
    /// label (true for P).
    pub first_disagreement: Option<(Vec<u32>, bool)>,
    /// How many of the quotient's elements the positions compared reach: all of them
    /// when the total is large enough for every element's least position.
    pub elements_reached: usize,
}

/// Labels every multiset of total at most `total` (under the quotient's play) and
/// compares those with heaps up to the quotient's `N` with its prediction.
///
/// # Errors
/// The multiset engine's refusals: a total above the limit, tables beyond `memory_limit`
/// (default: what the process can have).
pub fn check_against_tables(
    game: &Game,
    quotient: &Quotient,
    total: u64,
    memory_limit: Option<u64>,
    progress: &dyn Progress,
) -> Result<TableCheck> {
    let space = Space::multisets(total)?;
    let mut builder = Engine::builder(game, space.clone());
    if let Some(bytes) = memory_limit {
        builder = builder.memory_limit(bytes);
    }
    let ending = quotient.play();
    let labels = builder.build().label_all(&[ending], progress)?.remove(0);
    let mut found = TableCheck {
        total,
        positions: 0,
        disagreements: 0,
        first_disagreement: None,
        elements_reached: 0,
    };
    let mut reached = vec![false; quotient.order()];
    for (rank, heaps) in space.iter().enumerate() {
        let Some(element) = quotient.element_of(&heaps) else { continue };
        let predicted = quotient.is_p_element(element);
        reached[element as usize] = true;
        found.positions += 1;
        let label = labels.is_p_at(rank as u64);
        if label != predicted {
            found.disagreements += 1;
            if found.first_disagreement.is_none() {
                found.first_disagreement = Some((heaps, label));
            }
        }
    }
    found.elements_reached = reached.iter().filter(|&&r| r).count();
    Ok(found)
}
