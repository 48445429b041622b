//! The closed choices of the command line as clap `ValueEnum`s: clap lists them in the
//! help, refuses anything else with its suggestion, and hands the commands a typed value
//! (no string is matched again after parsing).

use nimtab::analysis::play::Opponent;
use nimtab::contest::judge::Contest;

/// `moves --format`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MovesFormat {
    Text,
    Csv,
}

/// `quotient --format`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuotientFormat {
    Text,
    Json,
}

/// `grundy --format`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GrundyFormat {
    Csv,
    Bfile,
    Freq,
    Rare,
    Summary,
}

impl GrundyFormat {
    /// The word of the command line.
    pub fn word(self) -> &'static str {
        match self {
            GrundyFormat::Csv => "csv",
            GrundyFormat::Bfile => "bfile",
            GrundyFormat::Freq => "freq",
            GrundyFormat::Rare => "rare",
            GrundyFormat::Summary => "summary",
        }
    }
}

/// `grundy --snapshots`: when frequency snapshots are written.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Snapshots {
    // At every power of two, and at the last heap.
    Pow2,
}

/// `play --opponent`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpponentArg {
    Random,
    Optimal,
}

impl From<OpponentArg> for Opponent {
    fn from(opponent: OpponentArg) -> Opponent {
        match opponent {
            OpponentArg::Random => Opponent::Random,
            OpponentArg::Optimal => Opponent::Optimal,
        }
    }
}

/// The contest of `crosscheck --format` and `judge`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContestArg {
    P2197,
    Shoi2008,
}

impl From<ContestArg> for Contest {
    fn from(contest: ContestArg) -> Contest {
        match contest {
            ContestArg::P2197 => Contest::P2197,
            ContestArg::Shoi2008 => Contest::Shoi2008,
        }
    }
}

/// `solve --only`: the label of the rows kept.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnlyLabel {
    P,
    N,
}

impl OnlyLabel {
    /// The word of the command line.
    pub fn word(self) -> &'static str {
        match self {
            OnlyLabel::P => "p",
            OnlyLabel::N => "n",
        }
    }
}

/// `genus --format`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenusFormat {
    Text,
    Csv,
    Json,
}
