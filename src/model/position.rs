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
/// separated by single spaces, then ` pass=1` ([`PassState::Available`]) or ` pass=0`
/// ([`PassState::Used`]) in a game with a pass: `0 0 3 pass=1`. The pass state is `None`
/// in a game without a pass, and nothing follows the heaps.
#[derive(Clone, Copy, Debug)]
pub struct SpacedState<'a>(pub &'a [u32], pub Option<PassState>);

impl fmt::Display for SpacedState<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", Spaced(self.0))?;
        match self.1 {
            Some(pass) => write!(f, " pass={}", u8::from(pass.is_available())),
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
///
/// The discriminants are the pass bit of a state index (the engine numbers the states of
/// a game with a pass `2 × index + 1` with the pass available), so per-position code
/// reads whether the pass is available from the byte as it is, with no comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PassState {
    /// The pass can still be played.
    Available = 1,
    /// The pass was played, or the game has none.
    Used = 0,
}

impl PassState {
    /// `Available` if `available`, else `Used` (a state read from a flag or a column).
    pub fn of(available: bool) -> PassState {
        match available {
            true => PassState::Available,
            false => PassState::Used,
        }
    }

    /// Whether the pass can still be played.
    #[inline]
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
    fn states_are_written_with_their_pass_only_in_a_game_with_a_pass() {
        let heaps = [0, 0, 3];
        assert_eq!(SpacedState(&heaps, None).to_string(), "0 0 3");
        assert_eq!(SpacedState(&heaps, Some(PassState::Available)).to_string(), "0 0 3 pass=1");
        assert_eq!(SpacedState(&heaps, Some(PassState::Used)).to_string(), "0 0 3 pass=0");
        assert_eq!(SpacedState(&[], Some(PassState::Used)).to_string(), " pass=0");
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
