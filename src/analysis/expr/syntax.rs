//! The claim language's syntax: features, operators with their precedence and typing,
//! and the typed tree.

use super::Type;

/// A feature of a position, as named in expressions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    /// `hK`: the size of heap K (1-based).
    Heap(usize),
    /// `gK`: the Grundy value of heap K (1-based).
    Grundy(usize),
    /// `n`: the number of heaps.
    Heaps,
    /// `sum` of heap sizes.
    Sum,
    /// `max` heap size.
    Max,
    /// `min` heap size.
    Min,
    /// `xor` of heap sizes.
    Xor,
    /// `gxor`: xor of Grundy values.
    Gxor,
    /// `gmax`: largest Grundy value.
    Gmax,
    /// `ones`: heaps of size 1.
    Ones,
    /// `rich`: heaps of size above 1.
    Rich,
    /// `zeros`: empty heaps.
    Zeros,
    /// `nonzero`: non-empty heaps.
    Nonzero,
    /// `pass`: 1 if the pass is still available, 0 if used (or the game has none).
    Pass,
    /// `grundy`: the whole position's Grundy value (normal play, by the mex rule), when
    /// the check computes it.
    Value,
}

pub(super) const FEATURE_NAMES: &str = "h1..hN, g1..gN, n, sum, max, min, xor, gxor, gmax, \
                                        ones, rich, zeros, nonzero, pass, grundy, true, false";

impl Feature {
    pub(super) fn from_name(name: &str) -> Option<Feature> {
        let indexed = |prefix: char| {
            let digits = name.strip_prefix(prefix)?;
            (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
                .then(|| digits.parse::<usize>().unwrap_or(usize::MAX))
        };
        if let Some(k) = indexed('h') {
            return Some(Feature::Heap(k));
        }
        if let Some(k) = indexed('g') {
            return Some(Feature::Grundy(k));
        }
        Some(match name {
            "n" => Feature::Heaps,
            "sum" => Feature::Sum,
            "max" => Feature::Max,
            "min" => Feature::Min,
            "xor" => Feature::Xor,
            "gxor" => Feature::Gxor,
            "gmax" => Feature::Gmax,
            "ones" => Feature::Ones,
            "rich" => Feature::Rich,
            "zeros" => Feature::Zeros,
            "nonzero" => Feature::Nonzero,
            "pass" => Feature::Pass,
            "grundy" => Feature::Value,
            _ => return None,
        })
    }

    /// Whether the feature reads the heaps' Grundy values (`gK`, `gxor`, `gmax`), which
    /// only sums of heaps have.
    pub fn reads_heap_grundy(self) -> bool {
        matches!(self, Feature::Grundy(_) | Feature::Gxor | Feature::Gmax)
    }

    /// The heap this feature reads alone (`hK`, `gK`), if any.
    pub(super) fn heap_index(self) -> Option<usize> {
        match self {
            Feature::Heap(k) | Feature::Grundy(k) => Some(k),
            _ => None,
        }
    }
}

/// A prefix operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// `-a`.
    Neg,
    /// `!a`.
    Not,
}

/// A binary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    BitOr,
    BitXor,
    BitAnd,
    Shl,
    Shr,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

impl BinOp {
    pub(super) fn symbol(self) -> &'static str {
        match self {
            BinOp::Or => "||",
            BinOp::And => "&&",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::BitAnd => "&",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
        }
    }

    /// Precedence level (higher binds tighter); see the module documentation.
    pub(super) fn level(self) -> u8 {
        match self {
            BinOp::Or => 1,
            BinOp::And => 2,
            BinOp::Eq | BinOp::Ne => 3,
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => 4,
            BinOp::BitOr => 5,
            BinOp::BitXor => 6,
            BinOp::BitAnd => 7,
            BinOp::Shl | BinOp::Shr => 8,
            BinOp::Add | BinOp::Sub => 9,
            BinOp::Mul | BinOp::Div | BinOp::Rem => 10,
        }
    }

    pub(super) fn from_symbol(symbol: &str) -> Option<BinOp> {
        const ALL: [BinOp; 18] = [
            BinOp::Or,
            BinOp::And,
            BinOp::Eq,
            BinOp::Ne,
            BinOp::Lt,
            BinOp::Le,
            BinOp::Gt,
            BinOp::Ge,
            BinOp::BitOr,
            BinOp::BitXor,
            BinOp::BitAnd,
            BinOp::Shl,
            BinOp::Shr,
            BinOp::Add,
            BinOp::Sub,
            BinOp::Mul,
            BinOp::Div,
            BinOp::Rem,
        ];
        ALL.into_iter().find(|op| op.symbol() == symbol)
    }

    /// The result type for operands of types `left` and `right`, or what is wrong and
    /// where to point: the operand of the wrong type, or the operator for a mismatch.
    pub(super) fn result_type(self, left: Type, right: Type) -> Result<Type, (Culprit, String)> {
        let symbol = self.symbol();
        let want = |t: Type| {
            let wrong = |culprit: Culprit, side: &str, got: Type| {
                (culprit, format!("'{symbol}' needs {t} on the {side}, but this is {got}"))
            };
            if left != t {
                Err(wrong(Culprit::Left, "left", left))
            } else if right != t {
                Err(wrong(Culprit::Right, "right", right))
            } else {
                Ok(())
            }
        };
        let mismatch =
            |verb: &str| (Culprit::Operator, format!("'{symbol}' {verb} {left} with {right}"));
        match self {
            BinOp::Or | BinOp::And => want(Type::Bool).map(|()| Type::Bool),
            BinOp::Eq | BinOp::Ne if left == right => Ok(Type::Bool),
            BinOp::Eq | BinOp::Ne => Err(mismatch("compares")),
            BinOp::BitOr | BinOp::BitXor | BinOp::BitAnd if left == right => Ok(left),
            BinOp::BitOr | BinOp::BitXor | BinOp::BitAnd => Err(mismatch("combines")),
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => want(Type::Int).map(|()| Type::Bool),
            _ => want(Type::Int).map(|()| Type::Int),
        }
    }
}

/// Which part of a binary operation a type error points at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Culprit {
    Left,
    Right,
    Operator,
}

/// A typed syntax tree. Booleans are the integers 0 and 1 at run time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Node {
    Literal(i64),
    /// A feature, with the column of its name (for heap-range errors).
    Feature(Feature, usize),
    Unary(UnOp, Box<Node>),
    Binary(BinOp, Box<Node>, Box<Node>),
    If(Box<Node>, Box<Node>, Box<Node>),
}

impl Node {
    pub(super) fn features(&self, visit: &mut impl FnMut(Feature, usize)) {
        match self {
            Node::Literal(_) => {}
            Node::Feature(f, column) => visit(*f, *column),
            Node::Unary(_, a) => a.features(visit),
            Node::Binary(_, a, b) => {
                a.features(visit);
                b.features(visit);
            }
            Node::If(c, a, b) => {
                c.features(visit);
                a.features(visit);
                b.features(visit);
            }
        }
    }

    pub(super) fn operators(&self) -> usize {
        match self {
            Node::Literal(_) | Node::Feature(..) => 0,
            Node::Unary(_, a) => 1 + a.operators(),
            Node::Binary(_, a, b) => 1 + a.operators() + b.operators(),
            Node::If(c, a, b) => 1 + c.operators() + a.operators() + b.operators(),
        }
    }
}
