//! The per-position evaluator: one position from the syntax tree, the reference the row
//! evaluator (`row.rs`) is tested against.

use super::{BinOp, EvalError, EvalErrorKind, Feature, Node, Type, UnOp};

/// What a position's state adds to its heaps: whether the pass is still available and,
/// when computed, the whole position's Grundy value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StateFeatures {
    /// `pass`: 1 if the pass is still available, else 0.
    pub pass: i64,
    /// `grundy`: the whole position's Grundy value.
    pub value: i64,
}

/// The aggregate features of some heaps (a whole position, or a row's prefix).
#[derive(Clone, Debug)]
pub(super) struct Aggregate {
    pub(super) sum: i64,
    pub(super) max: i64,
    pub(super) min: i64,
    pub(super) xor: i64,
    pub(super) gxor: i64,
    pub(super) gmax: i64,
    pub(super) ones: i64,
    pub(super) rich: i64,
    pub(super) zeros: i64,
    pub(super) nonzero: i64,
    /// Heaps added.
    pub(super) count: i64,
}

impl Aggregate {
    /// The aggregate of no heaps; `min` is the identity `i64::MAX` until a heap is added.
    pub(super) const EMPTY: Aggregate = Aggregate {
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
        count: 0,
    };

    pub(super) fn add(&mut self, h: i64, g: i64) {
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
        self.count += 1;
    }
}

/// An expression compiled for one heap count and one game's Grundy values.
#[derive(Clone, Debug)]
pub struct Program {
    pub(super) root: Node,
    pub(super) ty: Type,
    pub(super) heaps: usize,
    /// `0..=max`, the values the last heap takes along a row.
    pub(super) sizes: Vec<i64>,
    /// Grundy values of sizes `0..=max`.
    pub(super) grundy: Vec<i64>,
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
pub(super) fn apply(op: BinOp, x: i64, y: i64) -> i64 {
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
pub(super) fn operand_error(op: BinOp, y: i64) -> Option<EvalErrorKind> {
    match op {
        BinOp::Div if y == 0 => Some(EvalErrorKind::DivisionByZero),
        BinOp::Rem if y == 0 => Some(EvalErrorKind::RemainderByZero),
        BinOp::Shl | BinOp::Shr if y < 0 => Some(EvalErrorKind::NegativeShift),
        _ => None,
    }
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

    /// Binary, unary and conditional operators in the expression.
    pub fn operators(&self) -> usize {
        self.root.operators()
    }

    /// The largest heap size the program knows Grundy values for.
    pub fn max(&self) -> u32 {
        (self.sizes.len() - 1) as u32
    }

    /// Evaluates the expression at one position, directly from the syntax tree (no pass,
    /// and a Grundy value of 0).
    ///
    /// Booleans come back as 0 and 1. This is the reference the row evaluator is tested
    /// against, and the exact path for rows the row evaluator cannot do lane-wise.
    ///
    /// # Panics
    /// If the position has the wrong length or a heap above the max.
    ///
    /// # Errors
    /// An [`EvalError`] naming the position for a zero divisor or a negative shift that
    /// the expression really evaluates.
    pub fn eval_position(&self, position: &[u32]) -> Result<i64, EvalError> {
        self.eval_state(position, StateFeatures::default())
    }

    /// As [`Program::eval_position`], for a position in a given state (pass, value).
    ///
    /// # Panics
    /// As [`Program::eval_position`].
    ///
    /// # Errors
    /// As [`Program::eval_position`].
    pub fn eval_state(&self, position: &[u32], state: StateFeatures) -> Result<i64, EvalError> {
        assert_eq!(position.len(), self.heaps, "position length must equal the heap count");
        let mut all = Aggregate::EMPTY;
        for &h in position {
            all.add(i64::from(h), self.grundy[h as usize]);
        }
        self.eval_at(&self.root, position, &all, state)
            .map_err(|kind| EvalError { kind, position: position.to_vec() })
    }

    fn feature_at(
        &self,
        f: Feature,
        position: &[u32],
        all: &Aggregate,
        state: StateFeatures,
    ) -> i64 {
        match f {
            Feature::Pass => state.pass,
            Feature::Value => state.value,
            Feature::Heap(k) => i64::from(position[k - 1]),
            Feature::Grundy(k) => self.grundy[position[k - 1] as usize],
            Feature::Heaps => all.count,
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

    pub(super) fn eval_at(
        &self,
        node: &Node,
        position: &[u32],
        all: &Aggregate,
        state: StateFeatures,
    ) -> Result<i64, EvalErrorKind> {
        let eval = |n: &Node| self.eval_at(n, position, all, state);
        Ok(match node {
            Node::Literal(v) => *v,
            Node::Feature(f, _) => self.feature_at(*f, position, all, state),
            Node::Unary(UnOp::Neg, a) => eval(a)?.wrapping_neg(),
            Node::Unary(UnOp::Not, a) => 1 - eval(a)?,
            Node::Binary(op @ (BinOp::And | BinOp::Or), a, b) => {
                let x = eval(a)?;
                // Short-circuit: the right side is not evaluated when the left decides.
                if (x == 0) == (*op == BinOp::And) {
                    x
                } else {
                    eval(b)?
                }
            }
            Node::Binary(op, a, b) => {
                let x = eval(a)?;
                let y = eval(b)?;
                if let Some(kind) = operand_error(*op, y) {
                    return Err(kind);
                }
                apply(*op, x, y)
            }
            Node::If(c, a, b) => {
                if eval(c)? != 0 {
                    eval(a)?
                } else {
                    eval(b)?
                }
            }
        })
    }
}
