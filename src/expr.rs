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
#[error("{} at position ({})", kind_text(*.kind), join(.position))]
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

fn join(position: &[u32]) -> String {
    position.iter().map(u32::to_string).collect::<Vec<_>>().join(" ")
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

#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Int(i64),
    Name(String),
    Op(&'static str),
    Open,
    Close,
    Comma,
    End,
}

impl Token {
    fn describe(&self) -> String {
        match self {
            Token::Int(v) => format!("'{v}'"),
            Token::Name(name) => format!("'{name}'"),
            Token::Op(op) => format!("'{op}'"),
            Token::Open => "'('".to_string(),
            Token::Close => "')'".to_string(),
            Token::Comma => "','".to_string(),
            Token::End => "the end".to_string(),
        }
    }
}

/// Operator spellings, longest first so that `<=` wins over `<`.
const OPERATORS: [&str; 20] = [
    "||", "&&", "==", "!=", "<=", ">=", "<<", ">>", "<", ">", "|", "^", "&", "+", "-", "*", "/",
    "%", "!", "=",
];

fn tokenize(text: &str) -> Result<Vec<(Token, usize)>, ExprError> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let column = i + 1;
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_alphanumeric() {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let value = word.parse::<i64>().map_err(|_| {
                if word.bytes().all(|b| b.is_ascii_digit()) {
                    ExprError::new(column, format!("integer literal {word} is above 2^63 - 1"))
                } else {
                    ExprError::new(column, format!("'{word}' is not a number"))
                }
            })?;
            tokens.push((Token::Int(value), column));
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            tokens.push((Token::Name(chars[start..i].iter().collect()), column));
        } else if c == '(' || c == ')' || c == ',' {
            let token = match c {
                '(' => Token::Open,
                ')' => Token::Close,
                _ => Token::Comma,
            };
            tokens.push((token, column));
            i += 1;
        } else {
            let rest: String = chars[i..chars.len().min(i + 2)].iter().collect();
            let Some(op) = OPERATORS.iter().find(|op| rest.starts_with(**op)) else {
                return Err(ExprError::new(column, format!("unexpected character '{c}'")));
            };
            if *op == "=" {
                return Err(ExprError::new(
                    column,
                    "'=' is not an operator; write '==' to compare",
                ));
            }
            tokens.push((Token::Op(op), column));
            i += op.len();
        }
    }
    tokens.push((Token::End, chars.len() + 1));
    Ok(tokens)
}

/// A parsed node with its type and the column where it starts.
struct Typed {
    node: Node,
    ty: Type,
    column: usize,
}

struct Parser {
    tokens: Vec<(Token, usize)>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> &(Token, usize) {
        &self.tokens[self.at]
    }

    fn next(&mut self) -> (Token, usize) {
        let token = self.tokens[self.at].clone();
        if token.0 != Token::End {
            self.at += 1;
        }
        token
    }

    /// The binary operator ahead, if it binds at least as tightly as `min_level`.
    fn peek_binary(&self, min_level: u8) -> Option<(BinOp, usize)> {
        match self.peek() {
            (Token::Op(symbol), column) => BinOp::from_symbol(symbol)
                .filter(|op| op.level() >= min_level)
                .map(|op| (op, *column)),
            _ => None,
        }
    }

    /// Parses binary operators of level `min_level` and above (precedence climbing).
    fn binary(&mut self, min_level: u8) -> Result<Typed, ExprError> {
        let mut left = self.unary()?;
        while let Some((op, op_column)) = self.peek_binary(min_level) {
            self.next();
            let right = self.binary(op.level() + 1)?;
            let ty = op.result_type(left.ty, right.ty).map_err(|(culprit, message)| {
                let column = match culprit {
                    Culprit::Left => left.column,
                    Culprit::Right => right.column,
                    Culprit::Operator => op_column,
                };
                ExprError::new(column, message)
            })?;
            left = Typed {
                node: Node::Binary(op, Box::new(left.node), Box::new(right.node)),
                ty,
                column: left.column,
            };
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Typed, ExprError> {
        let (token, column) = self.peek().clone();
        let (op, want) = match token {
            Token::Op("-") => (UnOp::Neg, Type::Int),
            Token::Op("!") => (UnOp::Not, Type::Bool),
            _ => return self.atom(),
        };
        self.next();
        let operand = self.unary()?;
        if operand.ty != want {
            let symbol = if op == UnOp::Neg { "-" } else { "!" };
            let hint = if op == UnOp::Not { "; write 'x == 0' to test an integer" } else { "" };
            return Err(ExprError::new(
                operand.column,
                format!("prefix '{symbol}' needs {want}, but this is {}{hint}", operand.ty),
            ));
        }
        Ok(Typed { node: Node::Unary(op, Box::new(operand.node)), ty: want, column })
    }

    fn atom(&mut self) -> Result<Typed, ExprError> {
        let (token, column) = self.next();
        match token {
            Token::Int(value) => Ok(Typed { node: Node::Literal(value), ty: Type::Int, column }),
            Token::Open => {
                let inner = self.binary(1)?;
                match self.next() {
                    (Token::Close, _) => Ok(Typed { column, ..inner }),
                    (Token::End, _) => Err(ExprError::new(column, "this '(' is never closed")),
                    (other, at) => Err(ExprError::new(
                        at,
                        format!("expected an operator or ')', found {}", other.describe()),
                    )),
                }
            }
            Token::Name(name) if name == "if" => self.conditional(column),
            Token::Name(name) if name == "true" || name == "false" => {
                Ok(Typed { node: Node::Literal(i64::from(name == "true")), ty: Type::Bool, column })
            }
            Token::Name(name) => match Feature::from_name(&name) {
                Some(f) if f.heap_index() == Some(0) => {
                    Err(ExprError::new(column, format!("'{name}': heaps are numbered from 1")))
                }
                Some(f) => Ok(Typed { node: Node::Feature(f, column), ty: Type::Int, column }),
                None => Err(ExprError::new(
                    column,
                    format!("unknown name '{name}'; expected one of {FEATURE_NAMES}"),
                )),
            },
            Token::Close => Err(ExprError::new(column, "unmatched ')'")),
            other => {
                Err(ExprError::new(column, format!("expected a value, found {}", other.describe())))
            }
        }
    }

    /// `if(cond, a, b)`, after the name `if` at `column`.
    fn conditional(&mut self, column: usize) -> Result<Typed, ExprError> {
        let (open, open_column) = self.next();
        if open != Token::Open {
            return Err(ExprError::new(open_column, "'if' must be followed by '(cond, a, b)'"));
        }
        let mut parts = Vec::new();
        for expected in [Token::Comma, Token::Comma, Token::Close] {
            parts.push(self.binary(1)?);
            let (token, at) = self.next();
            if token == Token::End {
                return Err(ExprError::new(open_column, "this '(' is never closed"));
            }
            if token != expected {
                let want = if expected == Token::Comma { "','" } else { "')'" };
                let message = format!(
                    "'if' takes three arguments (cond, a, b): expected {want}, found {}",
                    token.describe()
                );
                return Err(ExprError::new(at, message));
            }
        }
        let [cond, then, otherwise]: [Typed; 3] = parts.try_into().ok().expect("three parts");
        if cond.ty != Type::Bool {
            let message =
                format!("the condition of 'if' must be a boolean, but this is {}", cond.ty);
            return Err(ExprError::new(cond.column, message));
        }
        if then.ty != otherwise.ty {
            let message = format!(
                "the branches of 'if' must have one type: {} here, {} in the first",
                otherwise.ty, then.ty
            );
            return Err(ExprError::new(otherwise.column, message));
        }
        let node = Node::If(Box::new(cond.node), Box::new(then.node), Box::new(otherwise.node));
        Ok(Typed { node, ty: then.ty, column })
    }
}

/// A parsed and type-checked expression, not yet tied to a heap count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    text: String,
    root: Node,
    ty: Type,
}

impl Expr {
    /// Parses and type-checks `text`; errors carry the column of the offending character.
    pub fn parse(text: &str) -> Result<Expr, ExprError> {
        let tokens = tokenize(text)?;
        if tokens.len() == 1 {
            return Err(ExprError::new(1, "the expression is empty"));
        }
        let mut parser = Parser { tokens, at: 0 };
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
                error.get_or_insert(ExprError::new(
                    column,
                    format!("{name}{k} names heap {k}, but positions have {heaps} heap{plural}"),
                ));
            }
        });
        if let Some(error) = error {
            return Err(error);
        }
        Ok(Program {
            root: self.root.clone(),
            ty: self.ty,
            heaps,
            sizes: (0..grundy.len() as i64).collect(),
            grundy: grundy.iter().map(|&g| i64::from(g)).collect(),
        })
    }
}

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

/// Why a row could not be evaluated column-wise: some lane divides by zero or shifts by
/// a negative amount, possibly in a lane `&&`, `||` or `if` would not evaluate.
struct NeedsExactPath;

/// A value of the row evaluator: one value for the whole row, or one per column.
enum Lanes {
    Same(i64),
    Each(Vec<i64>),
}

/// Per-task buffers of the row evaluator, reused across rows.
#[derive(Default)]
pub struct RowScratch {
    free: Vec<Vec<i64>>,
    position: Vec<u32>,
}

impl RowScratch {
    fn take(&mut self, len: usize) -> Vec<i64> {
        let mut buffer = self.free.pop().unwrap_or_default();
        buffer.clear();
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
    /// the operators run lane-wise over the row. A row where some lane divides by zero or
    /// shifts by a negative amount is redone position by position, so short-circuiting
    /// decides whether that lane's error is real.
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
        match self.row_lanes(&self.root, prefix, lo as usize, &agg, scratch) {
            Ok(Lanes::Same(v)) => {
                if v != 0 {
                    set_range(out, lo as usize, self.sizes.len());
                }
                Ok(())
            }
            Ok(Lanes::Each(values)) => {
                pack_bits(&values, lo as usize, out);
                scratch.give(Lanes::Each(values));
                Ok(())
            }
            Err(NeedsExactPath) => self.eval_row_exactly(prefix, lo, out, scratch),
        }
    }

    fn eval_row_exactly(
        &self,
        prefix: &[u32],
        lo: u32,
        out: &mut [u64],
        scratch: &mut RowScratch,
    ) -> Result<(), EvalError> {
        let mut position = std::mem::take(&mut scratch.position);
        position.clear();
        position.extend_from_slice(prefix);
        position.push(0);
        let mut result = Ok(());
        for h in lo..=self.max() {
            *position.last_mut().expect("at least one heap") = h;
            match self.eval_position(&position) {
                Ok(0) => {}
                Ok(_) => out[h as usize / 64] |= 1 << (h % 64),
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
                let y = self.row_lanes(b, prefix, lo, agg, scratch)?;
                let troubled = match &y {
                    Lanes::Same(v) => operand_error(*op, *v).is_some(),
                    Lanes::Each(vs) => vs.iter().any(|&v| operand_error(*op, v).is_some()),
                };
                if troubled {
                    scratch.give(x);
                    scratch.give(y);
                    return Err(NeedsExactPath);
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
