//! Misère Nim's state classes S0, S1, S2, T0, T2 and the classic claims made about them.

use crate::analysis::criteria::xor;
use crate::engine::Labels;
use crate::model::enumerate::Tuples;
use crate::model::position::{Label, Tuple};
use crate::model::space::TupleSpace;

/// A class of Nim positions: T if the XOR of the heaps is 0, else S; the digit is the
/// number of rich heaps (more than one stone), capped at 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// XOR non-zero, no rich heap: an odd number of lonely heaps.
    S0,
    /// XOR non-zero, one rich heap.
    S1,
    /// XOR non-zero, two or more rich heaps.
    S2,
    /// XOR zero, no rich heap.
    T0,
    /// XOR zero, two or more rich heaps.
    T2,
}

impl Class {
    /// Every class, in table order. (T1 cannot occur: one rich heap makes the XOR non-zero.)
    pub const ALL: [Class; 5] = [Class::S0, Class::S1, Class::S2, Class::T0, Class::T2];

    /// The class of a Nim position.
    pub fn of(position: &[u32]) -> Class {
        let rich = position.iter().filter(|&&h| h > 1).count();
        Class::from_parts(xor(position), rich)
    }

    /// The class of a position with heap-size XOR `x` and `rich` heaps above 1.
    fn from_parts(x: u32, rich: usize) -> Class {
        match (x == 0, rich) {
            (false, 0) => Class::S0,
            (false, 1) => Class::S1,
            (false, _) => Class::S2,
            (true, 0) => Class::T0,
            (true, 1) => unreachable!("one rich heap always leaves a non-zero XOR"),
            (true, _) => Class::T2,
        }
    }

    /// The class's name, as in the CSV files.
    pub fn name(self) -> &'static str {
        match self {
            Class::S0 => "S0",
            Class::S1 => "S1",
            Class::S2 => "S2",
            Class::T0 => "T0",
            Class::T2 => "T2",
        }
    }

    /// The class's row in [`ClassReport::counts`] and [`ClassReport::moves`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// Counts of one class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClassCount {
    /// Positions of the class.
    pub positions: u64,
    /// Of those, P under normal play.
    pub p_normal: u64,
    /// Of those, P under misère play.
    pub p_misere: u64,
}

/// One claim about the classes, checked on every position of a space.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClaimResult {
    /// The claim, in words.
    pub claim: &'static str,
    /// Positions (or moves) the claim was checked on.
    pub checked: u64,
    /// The first counterexample in index order, if any.
    pub counterexample: Option<String>,
}

impl ClaimResult {
    /// Whether the claim held everywhere.
    pub fn holds(&self) -> bool {
        self.counterexample.is_none()
    }
}

/// What `classes` finds in one space of Nim.
#[derive(Clone, Debug)]
pub struct ClassReport {
    /// Counts per class, in [`Class::ALL`] order.
    pub counts: [ClassCount; 5],
    /// `moves[from][to]`: moves from a position of one class to one of another.
    pub moves: [[u64; 5]; 5],
    /// The misère claims, then the normal-play claim.
    pub claims: Vec<ClaimResult>,
}

/// The claims, each as a check of one position given its class, label and move targets.
struct Claim {
    text: &'static str,
    kind: ClaimKind,
}

enum ClaimKind {
    /// Every position of the class has this misère label (true = P).
    MisereLabel(Class, bool),
    /// No move leads from the first class to the second.
    NoMove(Class, Class),
    /// Every position of the first class has a move to the second.
    SomeMove(Class, Class),
    /// Every move from the class lands in one of the listed classes.
    OnlyMovesTo(Class, &'static [Class]),
    /// Under normal play the S classes are N and the T classes P.
    NormalSWins,
}

const CLAIMS: [Claim; 9] = [
    Claim { text: "S0 loses", kind: ClaimKind::MisereLabel(Class::S0, true) },
    Claim { text: "T0 wins", kind: ClaimKind::MisereLabel(Class::T0, false) },
    Claim { text: "S1 wins", kind: ClaimKind::MisereLabel(Class::S1, false) },
    Claim { text: "S2 cannot reach T0 in one move", kind: ClaimKind::NoMove(Class::S2, Class::T0) },
    Claim { text: "S2 can reach T2", kind: ClaimKind::SomeMove(Class::S2, Class::T2) },
    Claim {
        text: "T2 reaches only S1 or S2",
        kind: ClaimKind::OnlyMovesTo(Class::T2, &[Class::S1, Class::S2]),
    },
    Claim { text: "S2 wins", kind: ClaimKind::MisereLabel(Class::S2, false) },
    Claim { text: "T2 loses", kind: ClaimKind::MisereLabel(Class::T2, true) },
    Claim { text: "under normal play S wins and T loses", kind: ClaimKind::NormalSWins },
];

/// Classifies every position of the space, counts moves between classes and checks the
/// claims. `normal` and `misere` are the DP labels of Nim on `space` under those endings;
/// the class formula never decides a label.
pub fn class_report(space: TupleSpace, normal: &Labels, misere: &Labels) -> ClassReport {
    let mut counts = [ClassCount::default(); 5];
    let mut moves = [[0u64; 5]; 5];
    let mut claims: Vec<ClaimResult> = CLAIMS
        .iter()
        .map(|c| ClaimResult { claim: c.text, checked: 0, counterexample: None })
        .collect();
    let mut targets: Vec<Target> = Vec::new();
    Tuples::new(space.heaps(), 0, space.max()).for_each(|position| {
        let class = Class::of(position);
        let (p_normal, p_misere) = (normal.is_p(position), misere.is_p(position));
        let count = &mut counts[class.index()];
        count.positions += 1;
        count.p_normal += u64::from(p_normal);
        count.p_misere += u64::from(p_misere);
        nim_targets(position, &mut targets);
        for target in &targets {
            moves[class.index()][target.class.index()] += 1;
        }
        let seen = Seen { position, class, p_normal, p_misere, targets: &targets };
        for (claim, result) in CLAIMS.iter().zip(claims.iter_mut()) {
            if let Some(applies) = seen.check(&claim.kind) {
                result.checked += 1;
                if let (Err(example), None) = (applies, &result.counterexample) {
                    result.counterexample = Some(example);
                }
            }
        }
    });
    ClassReport { counts, moves, claims }
}

/// A Nim move from a position: heap `heap` drops to `to`, reaching a position of `class`.
struct Target {
    heap: usize,
    to: u32,
    class: Class,
}

impl Target {
    fn position(&self, from: &[u32]) -> Vec<u32> {
        let mut next = from.to_vec();
        next[self.heap] = self.to;
        next
    }
}

/// Every Nim move from `position`, in `legal_moves` order (by heap, then by stones
/// taken), with the class reached computed from the XOR and the rich-heap count instead
/// of building each position.
fn nim_targets(position: &[u32], targets: &mut Vec<Target>) {
    targets.clear();
    let x = xor(position);
    let rich = position.iter().filter(|&&h| h > 1).count();
    for (heap, &h) in position.iter().enumerate() {
        for to in (0..h).rev() {
            let rich_after = rich - usize::from(h > 1) + usize::from(to > 1);
            let class = Class::from_parts(x ^ h ^ to, rich_after);
            targets.push(Target { heap, to, class });
        }
    }
}

/// One position as the claims see it.
struct Seen<'a> {
    position: &'a [u32],
    class: Class,
    p_normal: bool,
    p_misere: bool,
    targets: &'a [Target],
}

impl Seen<'_> {
    /// `None` if the claim says nothing about this position; else whether it holds here,
    /// with the counterexample's description if not (formatted only then).
    fn check(&self, kind: &ClaimKind) -> Option<Result<(), String>> {
        let here = || Tuple(self.position);
        let label = Label::of;
        let result = match *kind {
            ClaimKind::MisereLabel(class, p) => {
                if self.class != class {
                    return None;
                }
                if self.p_misere == p {
                    Ok(())
                } else {
                    Err(format!("{} is {} under misère", here(), label(self.p_misere)))
                }
            }
            ClaimKind::NoMove(from, to) => {
                if self.class != from {
                    return None;
                }
                match self.targets.iter().find(|t| t.class == to) {
                    None => Ok(()),
                    Some(t) => Err(format!("{} -> {}", here(), Tuple(&t.position(self.position)))),
                }
            }
            ClaimKind::SomeMove(from, to) => {
                if self.class != from {
                    return None;
                }
                if self.targets.iter().any(|t| t.class == to) {
                    Ok(())
                } else {
                    Err(format!("{} has no move to {}", here(), to.name()))
                }
            }
            ClaimKind::OnlyMovesTo(from, allowed) => {
                if self.class != from {
                    return None;
                }
                match self.targets.iter().find(|t| !allowed.contains(&t.class)) {
                    None => Ok(()),
                    Some(t) => Err(format!(
                        "{} -> {} ({})",
                        here(),
                        Tuple(&t.position(self.position)),
                        t.class.name()
                    )),
                }
            }
            ClaimKind::NormalSWins => {
                let s = matches!(self.class, Class::S0 | Class::S1 | Class::S2);
                if self.p_normal != s {
                    Ok(())
                } else {
                    Err(format!(
                        "{} ({}) is {} under normal play",
                        here(),
                        self.class.name(),
                        label(self.p_normal)
                    ))
                }
            }
        };
        Some(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_follow_xor_and_rich_heaps() {
        assert_eq!(Class::of(&[1, 0, 0]), Class::S0);
        assert_eq!(Class::of(&[1, 1, 0]), Class::T0);
        assert_eq!(Class::of(&[0, 0, 0]), Class::T0);
        assert_eq!(Class::of(&[1, 3, 0]), Class::S1);
        assert_eq!(Class::of(&[2, 3, 1]), Class::T2);
        assert_eq!(Class::of(&[2, 3, 4]), Class::S2);
    }
}
