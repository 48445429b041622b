//! The tokenizer and the precedence-climbing parser, which types every node as it builds it.

use super::syntax::FEATURE_NAMES;
use super::{BinOp, Culprit, ExprError, Feature, Node, Type, UnOp};

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Token {
    Int(i64),
    Name(String),
    Op(&'static str),
    Open,
    Close,
    Comma,
    End,
}

impl Token {
    pub(super) fn describe(&self) -> String {
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

pub(super) fn tokenize(text: &str) -> Result<Vec<(Token, usize)>, ExprError> {
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
pub(super) struct Typed {
    pub(super) node: Node,
    pub(super) ty: Type,
    column: usize,
}

/// The deepest nesting of parentheses, prefix operators and `if` a claim may have: the
/// parser and the evaluators recurse once per level, so the limit keeps them far from the
/// stack's end (a worker thread has 2 MiB).
pub(super) const MAX_NESTING: usize = 100;

pub(super) struct Parser {
    tokens: Vec<(Token, usize)>,
    at: usize,
    /// Operands being parsed inside one another.
    depth: usize,
}

impl Parser {
    pub(super) fn new(tokens: Vec<(Token, usize)>) -> Parser {
        Parser { tokens, at: 0, depth: 0 }
    }

    fn peek(&self) -> &(Token, usize) {
        &self.tokens[self.at]
    }

    pub(super) fn next(&mut self) -> (Token, usize) {
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
    pub(super) fn binary(&mut self, min_level: u8) -> Result<Typed, ExprError> {
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
        let column = self.peek().1;
        // The whole expression is one level; each nesting inside it adds one.
        if self.depth == MAX_NESTING + 1 {
            let message = format!("the expression nests more than {MAX_NESTING} levels deep");
            return Err(ExprError::new(column, message));
        }
        self.depth += 1;
        let operand = self.unary_operand();
        self.depth -= 1;
        operand
    }

    fn unary_operand(&mut self) -> Result<Typed, ExprError> {
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
