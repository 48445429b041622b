//! Positions as text: the one formatter of heap tuples, P/N labels, and heap-size parsing.

use std::fmt;

/// A position written as its heap sizes separated by single spaces: `0 0 3`.
///
/// This is how CSV files and summaries write a position.
#[derive(Clone, Copy, Debug)]
pub struct Spaced<'a>(pub &'a [u32]);

impl fmt::Display for Spaced<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, h) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{h}")?;
        }
        Ok(())
    }
}

/// A position with its pass state, as CSV files and summaries write it: the heap sizes
/// separated by single spaces, then ` pass=1` (pass available) or ` pass=0` (used) in a
/// game with a pass: `0 0 3 pass=1`.
#[derive(Clone, Copy, Debug)]
pub struct SpacedState<'a>(pub &'a [u32], pub Option<bool>);

impl fmt::Display for SpacedState<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", Spaced(self.0))?;
        match self.1 {
            Some(available) => write!(f, " pass={}", u8::from(available)),
            None => Ok(()),
        }
    }
}

/// A position written as a tuple: `(14,21,39)`, as moves and play-outs show it.
#[derive(Clone, Copy, Debug)]
pub struct Tuple<'a>(pub &'a [u32]);

impl fmt::Display for Tuple<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(")?;
        for (i, h) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{h}")?;
        }
        f.write_str(")")
    }
}

/// The outcome class of a position: P (the player to move loses) or N.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Label {
    /// The previous player wins: the player to move loses.
    P,
    /// The next player (the one to move) wins.
    N,
}

impl Label {
    /// `P` if `is_p`, else `N`.
    pub fn of(is_p: bool) -> Label {
        if is_p {
            Label::P
        } else {
            Label::N
        }
    }

    /// `"P"` or `"N"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Label::P => "P",
            Label::N => "N",
        }
    }

    /// The opposite label.
    pub fn flipped(self) -> Label {
        match self {
            Label::P => Label::N,
            Label::N => Label::P,
        }
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Whether the pass of a game with a pass is still to be played (it is played at most once
/// in a game); a game without a pass has only [`PassState::Used`] positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PassState {
    /// The pass can still be played.
    Available,
    /// The pass was played, or the game has none.
    Used,
}

impl PassState {
    /// `Available` if `available`, else `Used` (a state read from a flag or a column).
    pub fn of(available: bool) -> PassState {
        if available {
            PassState::Available
        } else {
            PassState::Used
        }
    }

    /// Whether the pass can still be played.
    pub fn is_available(self) -> bool {
        self == PassState::Available
    }
}

/// Why a text is not a heap size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SizeError {
    /// A minus sign followed by digits.
    #[error("a negative number")]
    Negative,
    /// Anything but ASCII digits (an empty text too).
    #[error("not a non-negative integer")]
    NotANumber,
    /// Digits, but more than a `u32` holds.
    #[error("too large")]
    TooLarge,
}

/// Parses a heap size: ASCII digits only; a negative number is named as such.
///
/// # Errors
/// [`SizeError`] saying what the text is instead.
pub fn parse_size(text: &str) -> Result<u32, SizeError> {
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    if text.strip_prefix('-').is_some_and(digits) {
        return Err(SizeError::Negative);
    }
    if !digits(text) {
        return Err(SizeError::NotANumber);
    }
    text.parse::<u32>().map_err(|_| SizeError::TooLarge)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_written_spaced_or_as_tuples() {
        assert_eq!(Spaced(&[0, 0, 3]).to_string(), "0 0 3");
        assert_eq!(Tuple(&[14, 21, 39]).to_string(), "(14,21,39)");
        assert_eq!(Spaced(&[]).to_string(), "");
        assert_eq!(Label::of(true).to_string(), "P");
    }

    #[test]
    fn sizes_name_negative_and_bad_values() {
        assert_eq!(parse_size("12"), Ok(12));
        assert_eq!(parse_size("-4"), Err(SizeError::Negative));
        assert_eq!(parse_size("-"), Err(SizeError::NotANumber));
        assert_eq!(parse_size("x1"), Err(SizeError::NotANumber));
        assert_eq!(parse_size("+1"), Err(SizeError::NotANumber));
        assert_eq!(parse_size("99999999999"), Err(SizeError::TooLarge));
    }
}
