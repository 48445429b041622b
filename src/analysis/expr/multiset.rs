//! Claims over multisets of heaps: `n` counts the heaps, `h1`, `h2`, … are the heaps in
//! non-increasing order, and a heap beyond the `n`-th reads as an empty heap (0).

use super::eval::{Aggregate, StateFeatures};
use super::{EvalError, Expr, ExprError, Program};

impl Expr {
    /// [`Expr::compile`] for the positions of a multiset space of total at most `total`
    /// (so at most `total` heaps), with Grundy values `grundy` for sizes `0..=total`:
    /// refuses `hK`/`gK` with `K > total`.
    pub(super) fn compile_multisets(
        &self,
        total: u32,
        grundy: &[u32],
    ) -> Result<Program, ExprError> {
        self.check_multiset_heaps(total)?;
        let heaps = total as usize;
        Ok(Program::new(self.root.clone(), self.ty, heaps, &grundy[..=heaps]))
    }

    /// Refuses `hK`/`gK` with `K > total`: no multiset of total at most `total` has more
    /// heaps.
    pub(super) fn check_multiset_heaps(&self, total: u32) -> Result<(), ExprError> {
        let positions = format!("positions of total at most {total} have at most {total} heaps");
        self.refuse_heaps_beyond(total as usize, &positions)
    }
}

impl Program {
    /// Evaluates a program compiled by [`Expr::compile`] for a multiset space at the position with
    /// these heaps (non-increasing, non-empty); `padded` is scratch. The empty position
    /// has `min` and `max` 0.
    ///
    /// # Errors
    /// An [`EvalError`] naming the position, as [`Program::eval_position`].
    pub fn eval_multiset(&self, heaps: &[u32], padded: &mut Vec<u32>) -> Result<i64, EvalError> {
        let mut all = Aggregate::EMPTY;
        for &h in heaps {
            all.add(i64::from(h), self.grundy[h as usize]);
        }
        if heaps.is_empty() {
            all.min = 0;
        }
        padded.clear();
        padded.extend_from_slice(heaps);
        padded.resize(self.heaps.max(heaps.len()), 0);
        // No pass and no whole-position Grundy value: a multiset game has neither.
        self.eval_at(&self.root, padded, &all, StateFeatures { pass: 0, value: 0 })
            .map_err(|kind| EvalError { kind, position: heaps.to_vec() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(text: &str, heaps: &[u32]) -> i64 {
        let grundy = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4];
        let program = Expr::parse(text).unwrap().compile_multisets(9, &grundy).unwrap();
        program.eval_multiset(heaps, &mut Vec::new()).unwrap()
    }

    #[test]
    fn features_count_the_heaps_present() {
        assert_eq!(eval("n", &[5, 2, 2]), 3);
        assert_eq!(eval("h1 * 100 + h3 * 10 + h4", &[5, 2, 2]), 520);
        assert_eq!(eval("gxor", &[5, 2, 2]), 4);
        assert_eq!(eval("zeros * 10 + nonzero", &[5, 2, 2]), 3);
        assert_eq!(eval("min + max + n + g1", &[]), 0);
    }

    #[test]
    fn heaps_beyond_the_total_are_refused_at_their_column() {
        let err = Expr::parse("n > 0 && h5 == 1").unwrap().compile_multisets(4, &[0; 5]);
        let err = err.unwrap_err();
        assert_eq!(err.column, 10);
        assert!(err.message.contains("at most 4 heaps"), "{}", err.message);
    }
}
