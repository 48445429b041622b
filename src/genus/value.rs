//! The genus of one game, g^{γ0 γ1 …}, computed from its options' genera, and its
//! notation as CGSuite prints a wild genus.

use std::fmt;

/// The genus of an impartial game: `grundy` = G+(G), and `gammas[k]` = G−(G + k·*2),
/// kept to the shortest prefix after which the γ sequence alternates between its last two
/// entries (at least two entries).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Genus {
    /// The normal-play Grundy value G+.
    pub grundy: u32,
    /// γ0, γ1, … up to where the sequence starts alternating.
    pub gammas: Vec<u32>,
}

/// The mex of a set of small values, given as a list with repeats.
fn mex(values: &[u32]) -> u32 {
    let mut seen = vec![false; values.len() + 1];
    for &v in values {
        if let Some(slot) = seen.get_mut(v as usize) {
            *slot = true;
        }
    }
    seen.iter().position(|&s| !s).unwrap_or(values.len()) as u32
}

impl Genus {
    /// γk for any `k`: past the kept prefix the sequence alternates.
    pub fn gamma(&self, k: usize) -> u32 {
        let len = self.gammas.len();
        if k < len {
            self.gammas[k]
        } else {
            self.gammas[len - 2 + ((len ^ k) & 1)]
        }
    }

    /// The misère Grundy value G− = γ0.
    pub fn misere_grundy(&self) -> u32 {
        self.gammas[0]
    }

    /// The genus of the nim-heap *m: 0^120, 1^031, and m^{m, m⊕2} for m ≥ 2.
    pub fn of_nim_heap(m: u32) -> Genus {
        let gammas = match m {
            0 => vec![1, 2, 0],
            1 => vec![0, 3, 1],
            _ => vec![m, m ^ 2],
        };
        Genus { grundy: m, gammas }
    }

    /// Whether this is the genus of a nim-heap (the heap is tame in the sense of the
    /// genus table; its number alone is printed).
    pub fn is_nim_heap(&self) -> bool {
        *self == Genus::of_nim_heap(self.grundy)
    }

    /// The genus of a game whose options have the genera `options`.
    ///
    /// G+ and γ0 are mexes of the options' values (γ0 of a game without options is 1, the
    /// misère end). For k ≥ 1 the options of G + k·*2 are G' + k·*2, G + (k−1)·*2 and
    /// G + (k−1)·*2 + *1, whose misère value is γ(k−1) ⊕ 1 (adding *1 flips the last bit
    /// of a misère Grundy value), so γk = mex({γk(G')} ∪ {γ(k−1), γ(k−1) ⊕ 1}).
    ///
    /// Where to stop: from index `m`, the longest option prefix, every option's γ
    /// alternates, so the set {γk(G')} depends only on the parity of k, and for j ≥ m − 1
    /// γ(j+2) is a fixed function of γj for each parity. Hence once γ(j+2) = γj and
    /// γ(j+3) = γ(j+1) for some j ≥ m − 1, the sequence alternates from j on. The values lie in at most
    /// two per parity past m (the mex of the option set, or the next one), so this
    /// happens within a few steps; the loop checks it rather than assuming a count.
    pub fn from_options(options: &[&Genus]) -> Genus {
        let grundy = mex(&options.iter().map(|g| g.grundy).collect::<Vec<_>>());
        let first = if options.is_empty() {
            1
        } else {
            mex(&options.iter().map(|g| g.gammas[0]).collect::<Vec<_>>())
        };
        let settled = options.iter().map(|g| g.gammas.len()).max().unwrap_or(0);
        let mut gammas = vec![first];
        let mut excluded = Vec::with_capacity(options.len() + 2);
        loop {
            let k = gammas.len();
            if k >= (settled + 3).max(4)
                && gammas[k - 1] == gammas[k - 3]
                && gammas[k - 2] == gammas[k - 4]
            {
                break;
            }
            excluded.clear();
            excluded.extend(options.iter().map(|g| g.gamma(k)));
            let previous = gammas[k - 1];
            excluded.push(previous);
            excluded.push(previous ^ 1);
            gammas.push(mex(&excluded));
        }
        while gammas.len() > 2 && gammas[gammas.len() - 1] == gammas[gammas.len() - 3] {
            gammas.pop();
        }
        Genus { grundy, gammas }
    }
}

/// CGSuite's notation: `g^γ0γ1…` with the alternating tail left off, the superscript in
/// parentheses with commas when a value is 10 or more, and a nim-heap's genus as its
/// number alone.
impl fmt::Display for Genus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.grundy)?;
        if self.is_nim_heap() {
            return Ok(());
        }
        let big = self.gammas.iter().any(|&g| g >= 10);
        let digits: Vec<String> = self.gammas.iter().map(u32::to_string).collect();
        if big {
            write!(f, "^({})", digits.join(","))
        } else {
            write!(f, "^{}", digits.concat())
        }
    }
}
