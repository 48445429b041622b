//! The evaluators: one position from the syntax tree, or a whole row lane-wise.

use super::{BinOp, EvalError, EvalErrorKind, Feature, Node, Type, UnOp};

/// The aggregate features of some heaps (a whole position, or a row's prefix).
#[derive(Clone, Debug)]
struct Aggregate {
    sum: i64,
    max: i64,
    min: i64,
    xor: i64,
    gxor: i64,
    gmax: i64,
    ones: i64,
    rich: i64,
    zeros: i64,
    nonzero: i64,
}

impl Aggregate {
    /// The aggregate of no heaps; `min` is the identity `i64::MAX` until a heap is added.
    const EMPTY: Aggregate = Aggregate {
        sum: 0,
        max: 0,
        min: i64::MAX,
        xor: 0,
        gxor: 0,
        gmax: 0,
        ones: 0,
        rich: 0,
        zeros: 0,
        nonzero: 0,
    };

    fn add(&mut self, h: i64, g: i64) {
        self.sum += h;
        self.max = self.max.max(h);
        self.min = self.min.min(h);
        self.xor ^= h;
        self.gxor ^= g;
        self.gmax = self.gmax.max(g);
        self.ones += i64::from(h == 1);
        self.rich += i64::from(h > 1);
        self.zeros += i64::from(h == 0);
        self.nonzero += i64::from(h != 0);
    }
}

/// Why a row could not be evaluated column-wise: an operand shared by the whole row
/// divides by zero or shifts by a negative amount (perhaps where `&&`, `||` or `if` would
/// not evaluate it), so every position of the row must be evaluated exactly.
struct NeedsExactPath;

/// A value of the row evaluator: one value for the whole row, or one per column.
enum Lanes {
    Same(i64),
    Each(Vec<i64>),
}

/// Per-task buffers of the row evaluator, reused across rows.
#[derive(Debug, Default)]
pub struct RowScratch {
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

/// An expression compiled for one heap count and one game's Grundy values.
#[derive(Clone, Debug)]
pub struct Program {
    root: Node,
    ty: Type,
    heaps: usize,
    /// `0..=max`, the values the last heap takes along a row.
    sizes: Vec<i64>,
    /// Grundy values of sizes `0..=max`.
    grundy: Vec<i64>,
}

/// Shift semantics shared by both evaluators (the amount is known to be non-negative).
#[inline(always)]
fn shl(x: i64, amount: i64) -> i64 {
    if amount >= 64 {
        0
    } else {
        x.wrapping_shl(amount as u32)
    }
}

#[inline(always)]
fn shr(x: i64, amount: i64) -> i64 {
    x >> amount.min(63)
}

/// Applies a binary operator whose operands are valid (no zero divisor, no negative shift).
#[inline(always)]
fn apply(op: BinOp, x: i64, y: i64) -> i64 {
    match op {
        BinOp::Or | BinOp::BitOr => x | y,
        BinOp::And | BinOp::BitAnd => x & y,
        BinOp::BitXor => x ^ y,
        BinOp::Eq => i64::from(x == y),
        BinOp::Ne => i64::from(x != y),
        BinOp::Lt => i64::from(x < y),
        BinOp::Le => i64::from(x <= y),
        BinOp::Gt => i64::from(x > y),
        BinOp::Ge => i64::from(x >= y),
        BinOp::Shl => shl(x, y),
        BinOp::Shr => shr(x, y),
        BinOp::Add => x.wrapping_add(y),
        BinOp::Sub => x.wrapping_sub(y),
        BinOp::Mul => x.wrapping_mul(y),
        BinOp::Div => x.wrapping_div(y),
        BinOp::Rem => x.wrapping_rem(y),
    }
}

/// The error an operand would raise, if any.
fn operand_error(op: BinOp, y: i64) -> Option<EvalErrorKind> {
    match op {
        BinOp::Div if y == 0 => Some(EvalErrorKind::DivisionByZero),
        BinOp::Rem if y == 0 => Some(EvalErrorKind::RemainderByZero),
        BinOp::Shl | BinOp::Shr if y < 0 => Some(EvalErrorKind::NegativeShift),
        _ => None,
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
    pub(super) fn new(root: Node, ty: Type, heaps: usize, grundy: &[u32]) -> Program {
        Program {
            root,
            ty,
            heaps,
            sizes: (0..grundy.len() as i64).collect(),
            grundy: grundy.iter().map(|&g| i64::from(g)).collect(),
        }
    }

    /// The number of heaps of the positions this program reads.
    pub fn heaps(&self) -> usize {
        self.heaps
    }

    /// The largest heap size the program knows Grundy values for.
    pub fn max(&self) -> u32 {
        (self.sizes.len() - 1) as u32
    }

    /// Evaluates the expression at one position, directly from the syntax tree.
    ///
    /// Booleans come back as 0 and 1. This is the reference the row evaluator is tested
    /// against, and the exact path for rows the row evaluator cannot do lane-wise.
    ///
    /// # Panics
    /// If the position has the wrong length or a heap above the max.
    pub fn eval_position(&self, position: &[u32]) -> Result<i64, EvalError> {
        assert_eq!(position.len(), self.heaps, "position length must equal the heap count");
        let mut all = Aggregate::EMPTY;
        for &h in position {
            all.add(i64::from(h), self.grundy[h as usize]);
        }
        self.eval_at(&self.root, position, &all)
            .map_err(|kind| EvalError { kind, position: position.to_vec() })
    }

    fn feature_at(&self, f: Feature, position: &[u32], all: &Aggregate) -> i64 {
        match f {
            Feature::Heap(k) => i64::from(position[k - 1]),
            Feature::Grundy(k) => self.grundy[position[k - 1] as usize],
            Feature::Heaps => self.heaps as i64,
            Feature::Sum => all.sum,
            Feature::Max => all.max,
            Feature::Min => all.min,
            Feature::Xor => all.xor,
            Feature::Gxor => all.gxor,
            Feature::Gmax => all.gmax,
            Feature::Ones => all.ones,
            Feature::Rich => all.rich,
            Feature::Zeros => all.zeros,
            Feature::Nonzero => all.nonzero,
        }
    }

    fn eval_at(
        &self,
        node: &Node,
        position: &[u32],
        all: &Aggregate,
    ) -> Result<i64, EvalErrorKind> {
        Ok(match node {
            Node::Literal(v) => *v,
            Node::Feature(f, _) => self.feature_at(*f, position, all),
            Node::Unary(UnOp::Neg, a) => self.eval_at(a, position, all)?.wrapping_neg(),
            Node::Unary(UnOp::Not, a) => 1 - self.eval_at(a, position, all)?,
            Node::Binary(op @ (BinOp::And | BinOp::Or), a, b) => {
                let x = self.eval_at(a, position, all)?;
                // Short-circuit: the right side is not evaluated when the left decides.
                if (x == 0) == (*op == BinOp::And) {
                    x
                } else {
                    self.eval_at(b, position, all)?
                }
            }
            Node::Binary(op, a, b) => {
                let x = self.eval_at(a, position, all)?;
                let y = self.eval_at(b, position, all)?;
                if let Some(kind) = operand_error(*op, y) {
                    return Err(kind);
                }
                apply(*op, x, y)
            }
            Node::If(c, a, b) => {
                if self.eval_at(c, position, all)? != 0 {
                    self.eval_at(a, position, all)?
                } else {
                    self.eval_at(b, position, all)?
                }
            }
        })
    }

    /// Evaluates a boolean program on every position `(prefix, h)` with `lo <= h <= max`
    /// and sets bit `h` of `out` where it is true (bits below `lo` stay clear).
    ///
    /// `out` must hold `max + 1` bits, zeroed. Features of the prefix are computed once;
    /// the operators run lane-wise over the row. Lanes that divide by zero or shift by a
    /// negative amount are redone position by position (the whole row, if the operand is
    /// shared by the row), so short-circuiting decides whether the error is real.
    pub fn eval_row(
        &self,
        prefix: &[u32],
        lo: u32,
        out: &mut [u64],
        scratch: &mut RowScratch,
    ) -> Result<(), EvalError> {
        debug_assert_eq!(prefix.len() + 1, self.heaps);
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
                return self.eval_columns_exactly(prefix, lo..=self.max(), out, scratch);
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
        let result = self.eval_columns_exactly(prefix, columns, out, scratch);
        scratch.troubled = troubled;
        result
    }

    /// Evaluates the claim position by position on the given last-heap columns (in
    /// increasing order) and sets or clears their bits; stops at the first error.
    fn eval_columns_exactly(
        &self,
        prefix: &[u32],
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
            match self.eval_position(&position) {
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
