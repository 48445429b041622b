//! A sweep's game over a multiset space: its memory checked, its rows as `verify --total`
//! (or `check --total`) finds them.

use super::error::Result;
use super::run::{in_game, Slot};
use super::{Sweep, SweepError, SweepRow, Test};
use crate::analysis::multisets::test_claim_multisets;
use crate::analysis::verify::verify;
use crate::engine::{Engine, Progress, Work};
use crate::export::summary::NO_CRITERION;
use crate::model::game::Game;
use crate::model::multiset::MultisetSpace;
use crate::model::space::Space;

impl Sweep {
    /// Where a game's multiset run goes; an error if it does not fit even alone.
    pub(super) fn multiset_slot(
        &self,
        game: &Game,
        space: &MultisetSpace,
        limit: u64,
        share: u64,
    ) -> Result<Slot> {
        let endings = self.endings_per_run();
        let space = Space::Multisets(space.clone());
        let engine = Engine::builder(game, space).memory_limit(limit).build();
        let need = engine.reserve(&[Work::Tables { endings }])?.grant().bytes();
        Ok(if need > share { Slot::Alone } else { Slot::Shared })
    }

    /// Every row of one game over the multiset space: ending by ending, criterion by
    /// criterion, as `verify` writes them for the same space.
    pub(super) fn run_multiset_game(
        &self,
        game: &Game,
        space: &MultisetSpace,
        memory_limit: u64,
        cancel: &dyn Progress,
    ) -> Result<Vec<SweepRow>> {
        let total = space.total();
        let space = Space::Multisets(space.clone());
        let engine = Engine::builder(game, space).memory_limit(memory_limit).build();
        match &self.test {
            Test::Criteria(criteria) => {
                // Only the first counterexample is reported.
                let run = verify(&engine, &self.endings, criteria, 1, cancel)?;
                Ok(run
                    .findings
                    .into_iter()
                    .map(|f| SweepRow {
                        game: f.game,
                        heaps: f.heaps,
                        max: f.max,
                        total: f.total,
                        ending: f.ending,
                        test: f.criterion.map_or(NO_CRITERION, |c| c.name()).to_string(),
                        theorem: f.theorem,
                        tally: f.tally,
                    })
                    .collect())
            }
            Test::Claim(expr) => {
                let grundy = game.grundy(total);
                let program = expr.compile_multisets(total, &grundy).map_err(SweepError::Claim)?;
                let mut rows = Vec::with_capacity(self.endings.len());
                for &ending in &self.endings {
                    let tally = test_claim_multisets(&engine, ending, &program, 1, cancel)
                        .map_err(|e| in_game(game, e))?;
                    rows.push(SweepRow {
                        game: game.spec().to_string(),
                        heaps: 0,
                        max: total,
                        total: Some(total),
                        ending,
                        test: expr.text().to_string(),
                        theorem: false,
                        tally,
                    });
                }
                Ok(rows)
            }
        }
    }
}
