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
use crate::model::space::Space;

mod eval;
mod multiset;
mod parse;
mod row;
mod syntax;

pub use eval::{Program, StateFeatures};
use parse::{tokenize, Parser, Token};
pub use row::{RowScratch, RowState};
pub use syntax::{BinOp, Feature, UnOp};
use syntax::{Culprit, Node};

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
    /// `indent` spaces (no trailing newline). Control characters in the expression are
    /// shown escaped (a tab as `\t`, a newline as `\n`), so the expression stays on one
    /// line, and the caret counts their escaped width.
    pub fn caret(&self, text: &str, indent: usize) -> String {
        let pad = " ".repeat(indent);
        let shown = |c: char| -> String {
            if c.is_control() {
                c.escape_debug().collect()
            } else {
                c.to_string()
            }
        };
        let line: String = text.chars().map(shown).collect();
        let before: usize = text
            .chars()
            .take(self.column.saturating_sub(1))
            .map(|c| shown(c).chars().count())
            .sum();
        format!("{pad}{line}\n{pad}{}^", " ".repeat(before))
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
    ///
    /// # Errors
    /// An [`ExprError`] with the column of the first problem (syntax, unknown name, type).
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
    ///
    /// # Errors
    /// An [`ExprError`] as for [`Expr::parse`], or at column of the expression when it is
    /// not boolean.
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

    /// The column of the first feature the expression reads that `wanted` accepts.
    pub fn feature_column(&self, wanted: impl Fn(Feature) -> bool) -> Option<usize> {
        let mut found = None;
        self.root.features(&mut |f, column| {
            if found.is_none() && wanted(f) {
                found = Some(column);
            }
        });
        found
    }

    /// Number of operators (unary, binary and `if`), the measure of the speed target.
    pub fn operators(&self) -> usize {
        self.root.operators()
    }

    /// Ties the expression to the positions of `space`, whose heaps have the Grundy
    /// values `grundy` for sizes `0..=space.max()` (the game's, up to the largest heap or
    /// the total); refuses `hK`/`gK` naming a heap no position of the space has.
    ///
    /// # Panics
    /// If `grundy` has fewer than `space.max() + 1` values.
    ///
    /// # Errors
    /// An [`ExprError`] at the column of an `hK` or `gK` no position can have.
    pub fn compile(&self, space: &Space, grundy: &[u32]) -> Result<Program, ExprError> {
        let max = space.max() as usize;
        assert!(grundy.len() > max, "Grundy values for sizes 0..=max are needed");
        match space {
            Space::Tuples(tuples) => self.compile_tuples(tuples.heaps(), &grundy[..=max]),
            Space::Multisets(multisets) => self.compile_multisets(multisets.total(), grundy),
        }
    }

    /// Refuses `hK`/`gK` naming a heap no position of `space` has, as [`Expr::compile`]
    /// does; it needs no Grundy values, so a command can check this before any work.
    ///
    /// # Errors
    /// An [`ExprError`] at the column of an `hK` or `gK` no position can have.
    pub fn check_space(&self, space: &Space) -> Result<(), ExprError> {
        match space {
            Space::Tuples(tuples) => self.check_tuple_heaps(tuples.heaps()),
            Space::Multisets(multisets) => self.check_multiset_heaps(multisets.total()),
        }
    }

    /// [`Expr::compile`] for positions of `heaps` heaps whose Grundy values for sizes
    /// `0..=max` are `grundy`: refuses `hK`/`gK` with `K > heaps`.
    fn compile_tuples(&self, heaps: usize, grundy: &[u32]) -> Result<Program, ExprError> {
        self.check_tuple_heaps(heaps)?;
        Ok(Program::new(self.root.clone(), self.ty, heaps, grundy))
    }

    /// Refuses `hK`/`gK` with `K > heaps` for positions of `heaps` heaps.
    fn check_tuple_heaps(&self, heaps: usize) -> Result<(), ExprError> {
        let plural = if heaps == 1 { "" } else { "s" };
        self.refuse_heaps_beyond(heaps, &format!("positions have {heaps} heap{plural}"))
    }

    /// Refuses the first `hK`/`gK` with `K > heaps`, saying why no position has heap `K`
    /// (`positions have 2 heaps`).
    fn refuse_heaps_beyond(&self, heaps: usize, positions: &str) -> Result<(), ExprError> {
        let mut error = None;
        self.root.features(&mut |f, column| {
            if let Some(k) = f.heap_index().filter(|&k| k > heaps) {
                let name = if matches!(f, Feature::Heap(_)) { "h" } else { "g" };
                // A number too large to read was stored as usize::MAX: do not print that.
                let named = if k == usize::MAX {
                    format!("this {name} names a heap beyond any count")
                } else {
                    format!("{name}{k} names heap {k}")
                };
                error.get_or_insert(ExprError::new(column, format!("{named}, but {positions}")));
            }
        });
        error.map_or(Ok(()), Err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precedence_puts_bitwise_above_comparison() {
        let program =
            Expr::parse("xor & 1 == 0").unwrap().compile_tuples(2, &[0, 1, 2, 3]).unwrap();
        assert_eq!(program.eval_position(&[1, 3]), Ok(1));
        assert_eq!(program.eval_position(&[1, 2]), Ok(0));
        let arithmetic = Expr::parse("1 + 2 * 3 - 8 / 2 % 3").unwrap().compile_tuples(1, &[0]);
        let arithmetic = arithmetic.unwrap();
        assert_eq!(arithmetic.eval_position(&[0]), Ok(1 + 6 - 1));
    }

    #[test]
    fn shifts_beyond_the_width_are_defined() {
        let program = Expr::parse("(1 << 64) + (-8 >> 70) + (8 >> 2)").unwrap();
        assert_eq!(program.compile_tuples(1, &[0]).unwrap().eval_position(&[0]), Ok(-1 + 2));
    }
}
