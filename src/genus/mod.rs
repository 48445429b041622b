//! The genus of heaps and sums of heaps in take-and-break games, exact, from their misère canonical forms.
//!
//! The genus of G is g^{γ0 γ1 …} with g = G+(G) and γk = G−(G + k·*2) (Winning Ways,
//! chapter 13). It depends on G only through G's misère simplest form, and is computed
//! from the genera of the options alone ([`Genus::from_options`]), so each heap's form is
//! made from the forms of its options, which are sums of smaller heaps ([`Forms::add`],
//! memoised). Nothing is sampled: every value is the mex over a form's options.

mod error;
mod forms;
mod hasher;
mod period;
mod value;

pub use error::GenusError;
pub use forms::{FormId, Forms, ZERO};
pub use period::{apparent_period, Periodicity};
pub use value::Genus;

use crate::engine::Progress;
use crate::model::game::Game;
use crate::sequence::ThreeHeapRule;

/// The largest heap a genus table may reach: the options of heap N number about N²/2 for
/// an octal game, and their sums' forms are held together.
pub const MAX_GENUS_HEAP: u32 = 1 << 16;

/// The most heaps a position may have.
pub const MAX_POSITION_HEAPS: usize = 64;

/// What a heap of `n` tokens may become, as lists of the non-empty heaps left (up to
/// three, for a hexadecimal code's moves): read from the rule's options.
pub fn heap_options(rule: &ThreeHeapRule, n: u32) -> Vec<Vec<u32>> {
    rule.options(n)
        .into_iter()
        .map(|parts| parts.into_iter().filter(|&h| h > 0).collect())
        .collect()
}

/// The canonical forms of a game's heaps from 0 up, and the forms their sums need.
#[derive(Debug)]
pub struct HeapForms {
    spec: String,
    rule: ThreeHeapRule,
    forms: Forms,
    heaps: Vec<FormId>,
}

impl HeapForms {
    /// The forms of `game`'s empty heap, within a budget of `memory_limit` bytes.
    ///
    /// # Errors
    /// [`GenusError::NoHeapRule`] for a game that is not a take-and-break game of heaps.
    pub fn new(game: &Game, memory_limit: u64) -> Result<HeapForms, GenusError> {
        let no_rule = || GenusError::NoHeapRule { spec: game.spec().to_string() };
        let rule = game.take_break_rule().filter(|_| game.is_sum()).ok_or_else(no_rule)?;
        Ok(HeapForms {
            spec: game.spec().to_string(),
            rule,
            forms: Forms::new(memory_limit),
            heaps: vec![ZERO],
        })
    }

    /// The game's specification.
    pub fn spec(&self) -> &str {
        &self.spec
    }

    /// The largest heap whose form is made.
    pub fn max_heap(&self) -> u32 {
        self.heaps.len() as u32 - 1
    }

    /// How many distinct canonical forms the heaps and their sums needed.
    pub fn form_count(&self) -> usize {
        self.forms.len()
    }

    /// The bytes the forms hold, as counted against the budget.
    pub fn held_bytes(&self) -> u64 {
        self.forms.held_bytes()
    }

    /// Makes the forms of every heap up to `max_heap`, reporting each heap to `progress`.
    ///
    /// # Errors
    /// [`GenusError::MaxHeap`] above [`MAX_GENUS_HEAP`], [`GenusError::BeyondMemory`] past
    /// the budget, [`GenusError::Cancelled`] when `progress` asks the work to stop.
    pub fn extend_to(&mut self, max_heap: u32, progress: &dyn Progress) -> Result<(), GenusError> {
        if max_heap > MAX_GENUS_HEAP {
            return Err(GenusError::MaxHeap { max_heap, limit: MAX_GENUS_HEAP });
        }
        while self.max_heap() < max_heap {
            if progress.cancelled() {
                return Err(GenusError::Cancelled);
            }
            let n = self.max_heap() + 1;
            let mut options = Vec::new();
            for option in heap_options(&self.rule, n) {
                options.push(self.sum_of(&option, progress)?);
            }
            let form = self.forms.make(options, progress)?;
            self.heaps.push(form);
            progress.advance(1);
        }
        Ok(())
    }

    /// The form of the sum of heaps `heaps`, each at most [`HeapForms::max_heap`].
    fn sum_of(&mut self, heaps: &[u32], progress: &dyn Progress) -> Result<FormId, GenusError> {
        let mut sum = ZERO;
        for &h in heaps {
            sum = self.forms.add(sum, self.heaps[h as usize], progress)?;
        }
        Ok(sum)
    }

    /// The genus of heap `n` (made by [`HeapForms::extend_to`]).
    pub fn heap_genus(&self, n: u32) -> &Genus {
        self.forms.genus(self.heaps[n as usize])
    }

    /// The genus of the sum of `heaps`, making the forms of heaps it needs first.
    ///
    /// # Errors
    /// [`GenusError::PositionHeaps`] for no heaps or too many, else as
    /// [`HeapForms::extend_to`].
    pub fn position_genus(
        &mut self,
        heaps: &[u32],
        progress: &dyn Progress,
    ) -> Result<Genus, GenusError> {
        if heaps.is_empty() || heaps.len() > MAX_POSITION_HEAPS {
            return Err(GenusError::PositionHeaps {
                count: heaps.len(),
                limit: MAX_POSITION_HEAPS,
            });
        }
        let largest = heaps.iter().copied().max().unwrap_or(0);
        self.extend_to(largest, progress)?;
        let sum = self.sum_of(heaps, progress)?;
        Ok(self.forms.genus(sum).clone())
    }
}

/// The genus of every heap of `game` from 0 to `max_heap`.
///
/// # Errors
/// As [`HeapForms::new`] and [`HeapForms::extend_to`].
pub fn heap_genera(
    game: &Game,
    max_heap: u32,
    memory_limit: u64,
    progress: &dyn Progress,
) -> Result<Vec<Genus>, GenusError> {
    let mut forms = HeapForms::new(game, memory_limit)?;
    forms.extend_to(max_heap, progress)?;
    Ok((0..=max_heap).map(|n| forms.heap_genus(n).clone()).collect())
}
