//! Claim expressions: a small typed language over a position's features, parsed once and
//! evaluated either per position or a whole row (every value of the last heap) at a time.
//!
//! Grammar, lowest precedence first (all binary operators are left-associative):
//!
//! | level | operators            | operand types            | result |
//! |-------|----------------------|--------------------------|--------|
//! | 1     | `\|\|`               | bool, bool               | bool   |
//! | 2     | `&&`                 | bool, bool               | bool   |
//! | 3     | `==` `!=`            | int, int or bool, bool   | bool   |
//! | 4     | `<` `<=` `>` `>=`    | int, int                 | bool   |
//! | 5     | `\|`                 | int, int or bool, bool   | same   |
//! | 6     | `^`                  | int, int or bool, bool   | same   |
//! | 7     | `&`                  | int, int or bool, bool   | same   |
//! | 8     | `<<` `>>`            | int, int                 | int    |
//! | 9     | `+` `-`              | int, int                 | int    |
//! | 10    | `*` `/` `%`          | int, int                 | int    |
//! | 11    | prefix `-`, `!`      | int / bool               | same   |
//!
//! This is C's order except that the bitwise operators bind tighter than comparisons (as
//! in Rust and Python), so `xor & 1 == 0` means `(xor & 1) == 0`. Atoms are integer
//! literals, `true`, `false`, feature names, `( … )` and `if(cond, a, b)`.
//!
//! Integers are `i64` with wrapping arithmetic; `/` and `%` truncate toward zero (as in
//! C and Rust). A shift by 64 or more gives 0 (`>>` of a negative value gives -1); a
//! negative shift amount and a zero divisor are errors naming the position. `&&`, `||` and
//! `if` evaluate only what they need, so `h2 != 0 && h1 % h2 == 0` never divides by zero.

use std::fmt;

use crate::model::position::Spaced;

mod eval;
mod parse;

pub use eval::{Program, RowScratch};
use parse::{tokenize, Parser, Token};

/// The static type of an expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Type {
    /// A 64-bit signed integer.
    Int,
    /// A truth value.
    Bool,
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Type::Int => "an integer",
            Type::Bool => "a boolean",
        })
    }
}

/// A bad expression: what is wrong, and the 1-based column (in characters) where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: {message}")]
pub struct ExprError {
    /// 1-based column of the offending character.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl ExprError {
    fn new(column: usize, message: impl Into<String>) -> ExprError {
        ExprError { column, message: message.into() }
    }

    /// The expression with a caret under the error's column, as two lines indented by
    /// `indent` spaces (no trailing newline).
    pub fn caret(&self, text: &str, indent: usize) -> String {
        let pad = " ".repeat(indent);
        format!("{pad}{text}\n{pad}{}^", " ".repeat(self.column.saturating_sub(1)))
    }
}

/// Why evaluating an expression at a position failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalErrorKind {
    /// `a / 0`.
    DivisionByZero,
    /// `a % 0`.
    RemainderByZero,
    /// `a << b` or `a >> b` with `b < 0`.
    NegativeShift,
}

/// An expression that cannot be evaluated at a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{} at position ({})", kind_text(*.kind), Spaced(.position))]
pub struct EvalError {
    /// What went wrong.
    pub kind: EvalErrorKind,
    /// The position, as heap sizes.
    pub position: Vec<u32>,
}

fn kind_text(kind: EvalErrorKind) -> &'static str {
    match kind {
        EvalErrorKind::DivisionByZero => "division by zero",
        EvalErrorKind::RemainderByZero => "remainder by zero (% 0)",
        EvalErrorKind::NegativeShift => "negative shift amount",
    }
}

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
}

const FEATURE_NAMES: &str =
    "h1..hN, g1..gN, n, sum, max, min, xor, gxor, gmax, ones, rich, zeros, nonzero, true, false";

impl Feature {
    fn from_name(name: &str) -> Option<Feature> {
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
            _ => return None,
        })
    }

    /// The heap this feature reads alone (`hK`, `gK`), if any.
    fn heap_index(self) -> Option<usize> {
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
    fn symbol(self) -> &'static str {
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
    fn level(self) -> u8 {
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

    fn from_symbol(symbol: &str) -> Option<BinOp> {
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
    fn result_type(self, left: Type, right: Type) -> Result<Type, (Culprit, String)> {
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
enum Culprit {
    Left,
    Right,
    Operator,
}

/// A typed syntax tree. Booleans are the integers 0 and 1 at run time.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Node {
    Literal(i64),
    /// A feature, with the column of its name (for heap-range errors).
    Feature(Feature, usize),
    Unary(UnOp, Box<Node>),
    Binary(BinOp, Box<Node>, Box<Node>),
    If(Box<Node>, Box<Node>, Box<Node>),
}

impl Node {
    fn features(&self, visit: &mut impl FnMut(Feature, usize)) {
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

    fn operators(&self) -> usize {
        match self {
            Node::Literal(_) | Node::Feature(..) => 0,
            Node::Unary(_, a) => 1 + a.operators(),
            Node::Binary(_, a, b) => 1 + a.operators() + b.operators(),
            Node::If(c, a, b) => 1 + c.operators() + a.operators() + b.operators(),
        }
    }
}

/// A parsed and type-checked expression, not yet tied to a heap count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    text: String,
    root: Node,
    ty: Type,
}

/// The longest expression accepted; a left-associative chain of operators nests once per
/// operator in the tree the evaluators walk recursively, so length bounds that depth.
pub const MAX_CHARS: usize = 2000;

impl Expr {
    /// Parses and type-checks `text`; errors carry the column of the offending character.
    pub fn parse(text: &str) -> Result<Expr, ExprError> {
        if text.chars().count() > MAX_CHARS {
            let message = format!("the expression is longer than {MAX_CHARS} characters");
            return Err(ExprError::new(MAX_CHARS + 1, message));
        }
        let tokens = tokenize(text)?;
        if tokens.len() == 1 {
            return Err(ExprError::new(1, "the expression is empty"));
        }
        let mut parser = Parser::new(tokens);
        let typed = parser.binary(1)?;
        match parser.next() {
            (Token::End, _) => {}
            (Token::Close, at) => return Err(ExprError::new(at, "unmatched ')'")),
            (other, at) => {
                let message =
                    format!("expected an operator or the end, found {}", other.describe());
                return Err(ExprError::new(at, message));
            }
        }
        Ok(Expr { text: text.to_string(), root: typed.node, ty: typed.ty })
    }

    /// Parses a claim: an expression that must be boolean (true means "P").
    pub fn parse_claim(text: &str) -> Result<Expr, ExprError> {
        let expr = Expr::parse(text)?;
        if expr.ty != Type::Bool {
            let column = text.chars().position(|c| !c.is_whitespace()).unwrap_or(0) + 1;
            let message = "a claim must be a boolean (true where a position is P), but this is \
                           an integer; compare it, e.g. 'xor == 0'";
            return Err(ExprError::new(column, message));
        }
        Ok(expr)
    }

    /// The text as given.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The expression's type.
    pub fn ty(&self) -> Type {
        self.ty
    }

    /// Number of operators (unary, binary and `if`), the measure of the speed target.
    pub fn operators(&self) -> usize {
        self.root.operators()
    }

    /// Ties the expression to positions of `heaps` heaps whose Grundy values for sizes
    /// `0..=max` are `grundy`; refuses `hK`/`gK` with `K > heaps`.
    ///
    /// # Panics
    /// If `grundy` is empty.
    pub fn compile(&self, heaps: usize, grundy: &[u32]) -> Result<Program, ExprError> {
        assert!(!grundy.is_empty(), "Grundy values for sizes 0..=max are needed");
        let mut error = None;
        self.root.features(&mut |f, column| {
            if let Some(k) = f.heap_index().filter(|&k| k > heaps) {
                let name = if matches!(f, Feature::Heap(_)) { "h" } else { "g" };
                let plural = if heaps == 1 { "" } else { "s" };
                // A number too large to read was stored as usize::MAX: do not print that.
                let named = if k == usize::MAX {
                    format!("this {name} names a heap beyond any count")
                } else {
                    format!("{name}{k} names heap {k}")
                };
                error.get_or_insert(ExprError::new(
                    column,
                    format!("{named}, but positions have {heaps} heap{plural}"),
                ));
            }
        });
        if let Some(error) = error {
            return Err(error);
        }
        Ok(Program::new(self.root.clone(), self.ty, heaps, grundy))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precedence_puts_bitwise_above_comparison() {
        let program = Expr::parse("xor & 1 == 0").unwrap().compile(2, &[0, 1, 2, 3]).unwrap();
        assert_eq!(program.eval_position(&[1, 3]), Ok(1));
        assert_eq!(program.eval_position(&[1, 2]), Ok(0));
        let arithmetic = Expr::parse("1 + 2 * 3 - 8 / 2 % 3").unwrap().compile(1, &[0]).unwrap();
        assert_eq!(arithmetic.eval_position(&[0]), Ok(1 + 6 - 1));
    }

    #[test]
    fn shifts_beyond_the_width_are_defined() {
        let program = Expr::parse("(1 << 64) + (-8 >> 70) + (8 >> 2)").unwrap();
        assert_eq!(program.compile(1, &[0]).unwrap().eval_position(&[0]), Ok(-1 + 2));
    }
}
