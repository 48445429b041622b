//! The row evaluator: every position of a row at once, lane by lane over the last heap.

use super::eval::{apply, operand_error, Aggregate, StateFeatures};
use super::{BinOp, EvalError, Feature, Node, Program, Type, UnOp};

/// Why a row could not be evaluated column-wise: an operand shared by the whole row
/// divides by zero or shifts by a negative amount (perhaps where `&&`, `||` or `if` would
/// not evaluate it), so every position of the row must be evaluated exactly.
struct NeedsExactPath;

/// A value of the row evaluator: one value for the whole row, or one per column.
enum Lanes {
    Same(i64),
    Each(Vec<i64>),
}

/// What a row's state adds to its heaps: the pass (1 = still available) for the whole
/// row, and the whole positions' Grundy values of its columns `lo..=max` (empty when the
/// claim does not read `grundy`).
#[derive(Clone, Copy, Debug, Default)]
pub struct RowState<'a> {
    /// `pass` for every column of the row.
    pub pass: i64,
    /// `grundy` of columns `lo..=max`, in order.
    pub values: &'a [i64],
}

/// Per-task buffers of the row evaluator, reused across rows.
#[derive(Debug, Default)]
pub struct RowScratch {
    /// The state of the row being evaluated.
    pass: i64,
    values: Vec<i64>,
    free: Vec<Vec<i64>>,
    position: Vec<u32>,
    /// Lanes where some operand was invalid (replaced by 1 to go on lane-wise); their
    /// values are recomputed exactly.
    troubled: Vec<bool>,
    any_troubled: bool,
}

impl RowScratch {
    /// A buffer of `len` lanes with unspecified contents: every caller writes all lanes,
    /// so clearing it would be a wasted pass per node and row.
    fn take(&mut self, len: usize) -> Vec<i64> {
        let mut buffer = self.free.pop().unwrap_or_default();
        buffer.resize(len, 0);
        buffer
    }

    fn give(&mut self, lanes: Lanes) {
        if let Lanes::Each(buffer) = lanes {
            self.free.push(buffer);
        }
    }
}

/// Combines `a` and `b` lane by lane into whichever is a buffer; `f` is inlined per operator.
#[inline(always)]
fn zip_lanes(a: Lanes, b: Lanes, scratch: &mut RowScratch, f: impl Fn(i64, i64) -> i64) -> Lanes {
    match (a, b) {
        (Lanes::Same(x), Lanes::Same(y)) => Lanes::Same(f(x, y)),
        (Lanes::Each(mut xs), Lanes::Same(y)) => {
            xs.iter_mut().for_each(|x| *x = f(*x, y));
            Lanes::Each(xs)
        }
        (Lanes::Same(x), Lanes::Each(mut ys)) => {
            ys.iter_mut().for_each(|y| *y = f(x, *y));
            Lanes::Each(ys)
        }
        (Lanes::Each(mut xs), Lanes::Each(ys)) => {
            xs.iter_mut().zip(&ys).for_each(|(x, &y)| *x = f(*x, y));
            scratch.give(Lanes::Each(ys));
            Lanes::Each(xs)
        }
    }
}

/// Dispatches on the operator once, outside the lane loop.
fn zip_op(op: BinOp, a: Lanes, b: Lanes, scratch: &mut RowScratch) -> Lanes {
    macro_rules! each {
        ($($op:ident),*) => {
            match op {
                $(BinOp::$op => zip_lanes(a, b, scratch, |x, y| apply(BinOp::$op, x, y)),)*
            }
        };
    }
    each!(Or, And, Eq, Ne, Lt, Le, Gt, Ge, BitOr, BitXor, BitAnd, Shl, Shr, Add, Sub, Mul, Div, Rem)
}

impl Program {
    /// Evaluates a boolean program on every position `(prefix, h)` with `lo <= h <= max`
    /// and sets bit `h` of `out` where it is true (bits below `lo` stay clear).
    ///
    /// `out` must hold `max + 1` bits, zeroed. Features of the prefix are computed once;
    /// the operators run lane-wise over the row. Lanes that divide by zero or shift by a
    /// negative amount are redone position by position (the whole row, if the operand is
    /// shared by the row), so short-circuiting decides whether the error is real.
    ///
    /// # Errors
    /// The [`EvalError`] of the smallest column, where the claim cannot be evaluated.
    pub fn eval_row(
        &self,
        prefix: &[u32],
        lo: u32,
        out: &mut [u64],
        scratch: &mut RowScratch,
    ) -> Result<(), EvalError> {
        self.eval_row_in(prefix, lo, RowState::default(), out, scratch)
    }

    /// As [`Program::eval_row`], for a row in a given state: its pass, and the Grundy
    /// values of its columns (needed when the claim reads `grundy`).
    ///
    /// # Panics
    /// If the claim reads `grundy` and `state.values` does not hold a value per column.
    ///
    /// # Errors
    /// As [`Program::eval_row`].
    pub fn eval_row_in(
        &self,
        prefix: &[u32],
        lo: u32,
        state: RowState<'_>,
        out: &mut [u64],
        scratch: &mut RowScratch,
    ) -> Result<(), EvalError> {
        debug_assert_eq!(prefix.len() + 1, self.heaps);
        scratch.pass = state.pass;
        scratch.values.clear();
        scratch.values.extend_from_slice(state.values);
        debug_assert_eq!(self.ty, Type::Bool);
        let mut agg = Aggregate::EMPTY;
        for &h in prefix {
            agg.add(i64::from(h), self.grundy[h as usize]);
        }
        scratch.troubled.clear();
        scratch.troubled.resize(self.sizes.len() - lo as usize, false);
        scratch.any_troubled = false;
        match self.row_lanes(&self.root, prefix, lo as usize, &agg, scratch) {
            Ok(Lanes::Same(v)) => {
                if v != 0 {
                    set_range(out, lo as usize, self.sizes.len());
                }
            }
            Ok(Lanes::Each(values)) => {
                pack_bits(&values, lo as usize, out);
                scratch.give(Lanes::Each(values));
            }
            Err(NeedsExactPath) => {
                return self.eval_columns_exactly(prefix, lo, lo..=self.max(), out, scratch);
            }
        }
        if !scratch.any_troubled {
            return Ok(());
        }
        // Recompute exactly the lanes where an operand was invalid: short-circuiting
        // decides whether the error is real. Other lanes never met an invalid operand, so
        // their lane-wise values are exact. Lanes go in index order, so an error is the
        // first.
        let troubled = std::mem::take(&mut scratch.troubled);
        let columns = troubled.iter().enumerate().filter(|(_, &t)| t).map(|(i, _)| lo + i as u32);
        let result = self.eval_columns_exactly(prefix, lo, columns, out, scratch);
        scratch.troubled = troubled;
        result
    }

    /// Evaluates the claim position by position on the given last-heap columns (in
    /// increasing order, none below the row's first column `lo`) and sets or clears their
    /// bits; stops at the first error.
    fn eval_columns_exactly(
        &self,
        prefix: &[u32],
        lo: u32,
        columns: impl Iterator<Item = u32>,
        out: &mut [u64],
        scratch: &mut RowScratch,
    ) -> Result<(), EvalError> {
        let mut position = std::mem::take(&mut scratch.position);
        position.clear();
        position.extend_from_slice(prefix);
        position.push(0);
        let mut result = Ok(());
        for h in columns {
            *position.last_mut().expect("at least one heap") = h;
            let value = scratch.values.get((h - lo) as usize).copied().unwrap_or(0);
            let state = StateFeatures { pass: scratch.pass, value };
            match self.eval_state(&position, state) {
                Ok(v) => {
                    let (word, bit) = (&mut out[h as usize / 64], 1u64 << (h % 64));
                    if v != 0 {
                        *word |= bit;
                    } else {
                        *word &= !bit;
                    }
                }
                Err(error) => {
                    result = Err(error);
                    break;
                }
            }
        }
        scratch.position = position;
        result
    }

    fn row_lanes(
        &self,
        node: &Node,
        prefix: &[u32],
        lo: usize,
        agg: &Aggregate,
        scratch: &mut RowScratch,
    ) -> Result<Lanes, NeedsExactPath> {
        Ok(match node {
            Node::Literal(v) => Lanes::Same(*v),
            Node::Feature(f, _) => self.feature_lanes(*f, prefix, lo, agg, scratch),
            Node::Unary(op, a) => {
                let a = self.row_lanes(a, prefix, lo, agg, scratch)?;
                let f = |x: i64| if *op == UnOp::Neg { x.wrapping_neg() } else { 1 - x };
                match a {
                    Lanes::Same(x) => Lanes::Same(f(x)),
                    Lanes::Each(mut xs) => {
                        xs.iter_mut().for_each(|x| *x = f(*x));
                        Lanes::Each(xs)
                    }
                }
            }
            Node::Binary(op @ (BinOp::And | BinOp::Or), a, b) => {
                let x = self.row_lanes(a, prefix, lo, agg, scratch)?;
                if let Lanes::Same(v) = x {
                    // The left side decides the whole row: the right is not evaluated.
                    if (v == 0) == (*op == BinOp::And) {
                        return Ok(x);
                    }
                    return self.row_lanes(b, prefix, lo, agg, scratch);
                }
                let y = self.row_lanes(b, prefix, lo, agg, scratch)?;
                zip_op(*op, x, y, scratch)
            }
            Node::Binary(op, a, b) => {
                let x = self.row_lanes(a, prefix, lo, agg, scratch)?;
                let mut y = self.row_lanes(b, prefix, lo, agg, scratch)?;
                if matches!(op, BinOp::Div | BinOp::Rem | BinOp::Shl | BinOp::Shr) {
                    match &mut y {
                        Lanes::Same(v) if operand_error(*op, *v).is_some() => {
                            scratch.give(x);
                            return Err(NeedsExactPath);
                        }
                        Lanes::Same(_) => {}
                        Lanes::Each(vs) => mark_troubled(*op, vs, scratch),
                    }
                }
                zip_op(*op, x, y, scratch)
            }
            Node::If(c, a, b) => match self.row_lanes(c, prefix, lo, agg, scratch)? {
                Lanes::Same(v) => {
                    let chosen = if v != 0 { a } else { b };
                    self.row_lanes(chosen, prefix, lo, agg, scratch)?
                }
                Lanes::Each(cs) => {
                    let x = self.row_lanes(a, prefix, lo, agg, scratch)?;
                    let y = self.row_lanes(b, prefix, lo, agg, scratch)?;
                    let mut out = scratch.take(cs.len());
                    for (i, slot) in out.iter_mut().enumerate() {
                        let pick = |v: &Lanes| match v {
                            Lanes::Same(s) => *s,
                            Lanes::Each(vs) => vs[i],
                        };
                        *slot = if cs[i] != 0 { pick(&x) } else { pick(&y) };
                    }
                    scratch.give(Lanes::Each(cs));
                    scratch.give(x);
                    scratch.give(y);
                    Lanes::Each(out)
                }
            },
        })
    }

    /// A feature along the row: the same for every column unless it reads the last heap.
    fn feature_lanes(
        &self,
        f: Feature,
        prefix: &[u32],
        lo: usize,
        agg: &Aggregate,
        scratch: &mut RowScratch,
    ) -> Lanes {
        let last = self.heaps;
        let (sizes, grundy) = (&self.sizes[lo..], &self.grundy[lo..]);
        // A macro rather than a closure taking `&dyn Fn`: each loop is inlined, not a call
        // per lane.
        macro_rules! fill {
            (|$h:pat_param, $g:pat_param| $value:expr) => {{
                let mut out = scratch.take(sizes.len());
                for ((slot, &$h), &$g) in out.iter_mut().zip(sizes).zip(grundy) {
                    *slot = $value;
                }
                Lanes::Each(out)
            }};
        }
        match f {
            Feature::Pass => Lanes::Same(scratch.pass),
            Feature::Value => {
                assert_eq!(scratch.values.len(), sizes.len(), "a Grundy value per column");
                let mut out = scratch.take(sizes.len());
                out.copy_from_slice(&scratch.values);
                Lanes::Each(out)
            }
            Feature::Heap(k) if k < last => Lanes::Same(i64::from(prefix[k - 1])),
            Feature::Grundy(k) if k < last => Lanes::Same(self.grundy[prefix[k - 1] as usize]),
            Feature::Heaps => Lanes::Same(self.heaps as i64),
            Feature::Heap(_) => fill!(|h, _| h),
            Feature::Grundy(_) => fill!(|_, g| g),
            Feature::Sum => fill!(|h, _| agg.sum + h),
            Feature::Max => fill!(|h, _| agg.max.max(h)),
            Feature::Min => fill!(|h, _| agg.min.min(h)),
            Feature::Xor => fill!(|h, _| agg.xor ^ h),
            Feature::Gxor => fill!(|_, g| agg.gxor ^ g),
            Feature::Gmax => fill!(|_, g| agg.gmax.max(g)),
            Feature::Ones => fill!(|h, _| agg.ones + i64::from(h == 1)),
            Feature::Rich => fill!(|h, _| agg.rich + i64::from(h > 1)),
            Feature::Zeros => fill!(|h, _| agg.zeros + i64::from(h == 0)),
            Feature::Nonzero => fill!(|h, _| agg.nonzero + i64::from(h != 0)),
        }
    }
}

/// Marks the lanes whose operand `op` refuses, and replaces that operand by 1 (a valid
/// divisor and shift) so the row can go on lane-wise.
fn mark_troubled(op: BinOp, operands: &mut [i64], scratch: &mut RowScratch) {
    for (v, troubled) in operands.iter_mut().zip(scratch.troubled.iter_mut()) {
        if operand_error(op, *v).is_some() {
            *v = 1;
            *troubled = true;
            scratch.any_troubled = true;
        }
    }
}

/// Sets bits `lo..end` of `out`.
fn set_range(out: &mut [u64], lo: usize, end: usize) {
    for h in lo..end {
        out[h / 64] |= 1 << (h % 64);
    }
}

/// Sets bit `lo + i` of `out` for every non-zero `values[i]`.
fn pack_bits(values: &[i64], lo: usize, out: &mut [u64]) {
    for (i, &v) in values.iter().enumerate() {
        let h = lo + i;
        out[h / 64] |= u64::from(v != 0) << (h % 64);
    }
}
