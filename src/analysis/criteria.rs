//! Criteria (XOR, Anti-Nim, SJ, Moore, Wythoff, the misère quotient): predictions of P/N
//! computed without the DP.
//!
//! Each closed-form criterion is given twice: here per position ([`Criterion::predicts_p`]),
//! the plain definition; and per row in `predictor.rs`, the same rule as word-wide masks
//! over the last heap. Tests pin the two to each other. The quotient criterion has no
//! closed form: its predictions come from a computed quotient
//! (`analysis/quotient_criterion.rs`), over multiset spaces only. A criterion speaks about
//! some games only ([`Criterion::check_applies`]).

use crate::model::ending::Ending;
use crate::model::game::{Game, GameKind, MoveRule};
use crate::model::space::Space;
use crate::{Error, Result};

/// A closed-form prediction of which positions are P.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Criterion {
    /// Bouton / Sprague–Grundy: N iff the XOR of the Grundy values is not 0.
    Xor,
    /// Bouton's misère rule on heap sizes: N iff (some heap > 1 and XOR of sizes != 0)
    /// or (every heap <= 1 and XOR of sizes = 0).
    AntiNim,
    /// The SJ theorem on Grundy values: N iff (some g > 1 and XOR != 0) or (every g <= 1
    /// and XOR = 0).
    Sj,
    /// Moore's theorem for Nim_K: P iff every binary digit column of the heaps sums to a
    /// multiple of K + 1 (Nim is K = 1).
    Moore,
    /// Moore's rule under misère play: when every heap is at most 1, P iff the number of
    /// 1-heaps is 1 mod K + 1; otherwise as [`Criterion::Moore`].
    MooreMisere,
    /// Wythoff's pairs (2 heaps): P iff the heaps are {⌊kφ⌋, ⌊kφ⌋ + k} for some k >= 0.
    Wythoff,
    /// Misère Wythoff (2 heaps): Wythoff's pairs without (0,0), (1,2), (2,1) and with
    /// (0,1), (1,0), (2,2).
    WythoffMisere,
    /// The quotient of the game (Plambeck and Siegel) for heaps up to the total, computed
    /// with its proof: P iff the product of the heaps' classes is in the P-portion. Under
    /// misère play the misère quotient, under normal play the group of Grundy values;
    /// over multiset spaces (`verify --total T`) only.
    Quotient,
}

impl Criterion {
    /// All criteria, in column order.
    pub const ALL: [Criterion; 8] = [
        Criterion::Xor,
        Criterion::AntiNim,
        Criterion::Sj,
        Criterion::Moore,
        Criterion::MooreMisere,
        Criterion::Wythoff,
        Criterion::WythoffMisere,
        Criterion::Quotient,
    ];

    /// The criteria of sums of heaps: XOR, Anti-Nim and SJ.
    pub const SUMS: [Criterion; 3] = [Criterion::Xor, Criterion::AntiNim, Criterion::Sj];

    /// Every criterion's name, in column order, separated by `, ` (for help texts).
    pub fn names() -> String {
        Criterion::ALL.map(Criterion::name).join(", ")
    }

    /// The criterion's name on the command line and in CSV files.
    pub fn name(self) -> &'static str {
        match self {
            Criterion::Xor => "xor",
            Criterion::AntiNim => "anti-nim",
            Criterion::Sj => "sj",
            Criterion::Moore => "moore",
            Criterion::MooreMisere => "moore-misere",
            Criterion::Wythoff => "wythoff",
            Criterion::WythoffMisere => "wythoff-misere",
            Criterion::Quotient => "quotient",
        }
    }

    /// Parses one criterion name.
    ///
    /// # Errors
    /// [`Error::UnknownCriterion`] naming the text.
    pub fn parse(name: &str) -> Result<Criterion> {
        match name.trim() {
            "xor" => Ok(Criterion::Xor),
            "anti-nim" => Ok(Criterion::AntiNim),
            "sj" => Ok(Criterion::Sj),
            "moore" => Ok(Criterion::Moore),
            "moore-misere" => Ok(Criterion::MooreMisere),
            "wythoff" => Ok(Criterion::Wythoff),
            "wythoff-misere" => Ok(Criterion::WythoffMisere),
            "quotient" => Ok(Criterion::Quotient),
            other => Err(Error::UnknownCriterion(other.to_string())),
        }
    }

    /// Parses a comma list; the result is deduplicated and in column order.
    ///
    /// # Errors
    /// [`Error::UnknownCriterion`] naming the first bad item.
    pub fn parse_list(list: &str) -> Result<Vec<Criterion>> {
        crate::model::parse_list(list, Criterion::parse)
    }

    /// Whether the criterion predicts P for a position of `game`, straight from its
    /// definition. `grundy[h]` is the Grundy value of a heap of size `h` (read by XOR,
    /// Anti-Nim's sibling SJ, and nothing else); Moore's K comes from the game.
    ///
    /// # Panics
    /// For [`Criterion::Quotient`], which has no closed form: its prediction is a computed
    /// quotient's ([`crate::quotient::Quotient::is_p`]), and
    /// [`Criterion::check_applies`] keeps it out of every path that calls this.
    pub fn predicts_p(self, game: &Game, tuple: &[u32], grundy: &[u32]) -> bool {
        let g: Vec<u32> = tuple.iter().map(|&h| grundy[h as usize]).collect();
        let k = moore_k(game).unwrap_or(1);
        match self {
            Criterion::Xor => xor(&g) == 0,
            Criterion::AntiNim => !misere_rule_predicts_n(tuple),
            Criterion::Sj => !misere_rule_predicts_n(&g),
            Criterion::Moore => moore_columns_vanish(tuple, k),
            Criterion::MooreMisere if tuple.iter().all(|&h| h <= 1) => {
                tuple.iter().filter(|&&h| h == 1).count() as u64 % (u64::from(k) + 1) == 1
            }
            Criterion::MooreMisere => moore_columns_vanish(tuple, k),
            Criterion::Wythoff => tuple.len() == 2 && is_wythoff_pair(tuple[0], tuple[1]),
            Criterion::WythoffMisere => tuple.len() == 2 && is_misere_wythoff_p(tuple[0], tuple[1]),
            Criterion::Quotient => panic!("the quotient criterion has no closed form"),
        }
    }

    /// Refuses a criterion that says nothing about `game` with `heaps` heaps: XOR,
    /// Anti-Nim and SJ read heap Grundy values (sums only), Moore's criteria are for
    /// `moore:K` and `nim`, Wythoff's for `wythoff` with 2 heaps. The quotient criterion
    /// applies to no tuple space (it is compared over multisets: `verify --total T`).
    ///
    /// # Errors
    /// [`Error::CriterionNotApplicable`] naming the criterion, game and heap count.
    pub fn check_applies(self, game: &Game, heaps: usize) -> Result<()> {
        let reason = match self {
            Criterion::Xor | Criterion::AntiNim | Criterion::Sj if !game.is_sum() => {
                "it reads the heaps' Grundy values, which only sums of heaps have (nim, \
                 subtract:S, graph:PATH, octal:CODE, grundys-game, without --pass)"
            }
            Criterion::Moore | Criterion::MooreMisere if moore_k(game).is_none() => {
                "it is Moore's P-set of Nim_K, for moore:K and nim (K = 1), without --pass"
            }
            Criterion::Wythoff | Criterion::WythoffMisere if !is_plain_wythoff(game, heaps) => {
                "it is the P-set of Wythoff's game, for wythoff with 2 heaps, without --pass"
            }
            Criterion::Quotient => {
                "it is compared over the multisets of heaps of a total (--total T), for sums of \
                 heaps"
            }
            _ => return Ok(()),
        };
        Err(Error::CriterionNotApplicable {
            criterion: self.name().to_string(),
            spec: game.spec().to_string(),
            heaps,
            reason: reason.to_string(),
        })
    }

    /// Refuses a criterion that says nothing about `game` over `space`: over tuples as
    /// [`Criterion::check_applies`] with the space's heap count; over multisets, a
    /// criterion beyond [`MULTISET_CRITERIA`] and the quotient's, or one of them for a game
    /// that is not a sum.
    ///
    /// # Errors
    /// [`Error::CriterionNotApplicable`]; [`Error::CriterionNotForMultisets`] naming the
    /// criterion; [`crate::ModelError::NotASum`] for the quotient criterion of a game that
    /// is not a sum.
    pub fn check_applies_to(self, game: &Game, space: &Space) -> Result<()> {
        match space {
            Space::Tuples(tuples) => self.check_applies(game, tuples.heaps()),
            Space::Multisets(_) if self == Criterion::Quotient => {
                Ok(game.require_sum("the quotient criterion")?)
            }
            Space::Multisets(_) if MULTISET_CRITERIA.contains(&self) => self.check_applies(game, 1),
            Space::Multisets(_) => {
                Err(Error::CriterionNotForMultisets { criterion: self.name().to_string() })
            }
        }
    }

    /// The criteria compared over `space` when none are named: [`Criterion::applicable`]
    /// with its heap count over tuples, [`MULTISET_CRITERIA`] over multisets.
    pub fn applicable_to(game: &Game, space: &Space) -> Vec<Criterion> {
        match space {
            Space::Tuples(tuples) => Criterion::applicable(game, tuples.heaps()),
            Space::Multisets(_) => MULTISET_CRITERIA.to_vec(),
        }
    }

    /// Every criterion that applies to `game` with `heaps` heaps, in column order (none
    /// for circular Nim or a game with a pass).
    pub fn applicable(game: &Game, heaps: usize) -> Vec<Criterion> {
        Criterion::ALL.into_iter().filter(|c| c.check_applies(game, heaps).is_ok()).collect()
    }

    /// Whether a zero-disagreement result is a theorem for this game and ending, so that a
    /// disagreement means a bug (`verify --strict`). The quotient decides misère play (and
    /// normal play, as the group of Grundy values) of every sum of heaps. The SJ theorem needs heaps that never
    /// split: splitting a heap of Grundy value 1 into two heaps of one value above 1 leads
    /// from a position the criterion calls P (values at most 1, XOR 1) to another it calls
    /// P (XOR 0, a value above 1), which its case analysis does not allow.
    pub fn is_theorem(self, game: &Game, ending: Ending) -> bool {
        let sum = game.is_sum();
        match (self, ending) {
            (Criterion::Xor, Ending::Normal) => sum,
            (Criterion::Sj, Ending::Sj) => sum && !game.splits(),
            (Criterion::AntiNim, Ending::Misere) => {
                sum && matches!(game.move_rule(), MoveRule::Nim)
            }
            (Criterion::Moore, Ending::Normal) | (Criterion::MooreMisere, Ending::Misere) => {
                moore_k(game).is_some()
            }
            (Criterion::Wythoff, Ending::Normal) | (Criterion::WythoffMisere, Ending::Misere) => {
                game.kind() == GameKind::Wythoff && !game.has_pass()
            }
            (Criterion::Quotient, Ending::Normal | Ending::Misere) => sum,
            _ => false,
        }
    }
}

/// Moore's K of a game: K for `moore:K`, 1 for `nim`; `None` for others or with a pass.
pub fn moore_k(game: &Game) -> Option<u32> {
    match game.kind() {
        _ if game.has_pass() => None,
        GameKind::Moore(k) => Some(k),
        GameKind::Sum if matches!(game.move_rule(), MoveRule::Nim) => Some(1),
        _ => None,
    }
}

fn is_plain_wythoff(game: &Game, heaps: usize) -> bool {
    game.kind() == GameKind::Wythoff && !game.has_pass() && heaps == 2
}

/// Whether every binary digit column of the heaps sums to a multiple of `k + 1`.
pub fn moore_columns_vanish(tuple: &[u32], k: u32) -> bool {
    (0..32).all(|bit| {
        let ones = tuple.iter().filter(|&&h| h >> bit & 1 == 1).count() as u64;
        ones.is_multiple_of(u64::from(k) + 1)
    })
}

/// ⌊kφ⌋ with φ the golden ratio, exactly: kφ = (k + √(5k²)) / 2, and for an integer `n`
/// and a real `x`, ⌊(n + x) / 2⌋ = ⌊(n + ⌊x⌋) / 2⌋, with ⌊√(5k²)⌋ an integer square root.
pub fn floor_k_phi(k: u32) -> u64 {
    let k = u128::from(k);
    ((k + (5 * k * k).isqrt()) / 2) as u64
}

/// Whether {a, b} is a Wythoff pair {⌊kφ⌋, ⌊kφ⌋ + k}: the difference is k.
pub fn is_wythoff_pair(a: u32, b: u32) -> bool {
    let (lo, hi) = (a.min(b), a.max(b));
    floor_k_phi(hi - lo) == u64::from(lo)
}

/// Misère Wythoff's P-set: the pairs, except that (0,0), (1,2), (2,1) are N and (0,1),
/// (1,0), (2,2) are P.
pub fn is_misere_wythoff_p(a: u32, b: u32) -> bool {
    match (a.min(b), a.max(b)) {
        (0, 1) | (2, 2) => true,
        (0, 0) | (1, 2) => false,
        _ => is_wythoff_pair(a, b),
    }
}

/// The partner of a size whose partner is above the largest heap.
const NO_PARTNER: u32 = u32::MAX;

/// Each size's partner in Wythoff's pairs {⌊kφ⌋, ⌊kφ⌋ + k} (normal play), and in
/// misère Wythoff's P-set, for sizes `0..=max`; [`NO_PARTNER`] when it is above `max`.
pub(crate) fn wythoff_partners(max: u32) -> [Vec<u32>; 2] {
    let size = max as usize + 1;
    let mut normal = vec![NO_PARTNER; size];
    let within = |x: u64| if x <= u64::from(max) { x as u32 } else { NO_PARTNER };
    for k in 0..=max {
        let a = floor_k_phi(k);
        if a > u64::from(max) {
            break;
        }
        let b = a + u64::from(k);
        normal[a as usize] = within(b);
        if b <= u64::from(max) {
            normal[b as usize] = a as u32;
        }
    }
    let mut misere = normal.clone();
    for (a, b) in [(0u64, 1u64), (1, 0), (2, 2)] {
        if let Some(slot) = misere.get_mut(a as usize) {
            *slot = within(b);
        }
    }
    [normal, misere]
}

impl std::fmt::Display for Criterion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The XOR of some values (heap sizes or Grundy values).
pub fn xor(values: &[u32]) -> u32 {
    values.iter().fold(0, |x, &v| x ^ v)
}

/// The shared form of Anti-Nim (on sizes) and SJ (on Grundy values): N iff (some value
/// > 1 and XOR != 0) or (every value <= 1 and XOR = 0).
pub fn misere_rule_predicts_n(values: &[u32]) -> bool {
    let big = values.iter().any(|&v| v > 1);
    let x = xor(values);
    (big && x != 0) || (!big && x == 0)
}

/// The criteria a multiset space is compared with by default: those that read the heaps'
/// XORs (Moore's and Wythoff's criteria are about games with multi-heap moves). The
/// quotient criterion is compared too when asked for (it computes the game's quotient).
pub const MULTISET_CRITERIA: [Criterion; 3] = [Criterion::Xor, Criterion::AntiNim, Criterion::Sj];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anti_nim_predicts_single_heap_of_one_is_p() {
        let (nim, grundy) = (Game::nim(), Game::nim().grundy(3));
        assert!(Criterion::AntiNim.predicts_p(&nim, &[1], &grundy));
        assert!(!Criterion::AntiNim.predicts_p(&nim, &[0], &grundy));
        assert!(Criterion::AntiNim.predicts_p(&nim, &[1, 1, 1], &grundy));
        assert!(Criterion::AntiNim.predicts_p(&nim, &[2, 2], &grundy));
    }

    /// ⌊kφ⌋ as the largest m with 2m - k <= k√5, i.e. (2m - k)² <= 5k², by bisection.
    fn floor_k_phi_by_bisection(k: u64) -> u64 {
        let (mut lo, mut hi) = (0u64, 2 * k + 1);
        while lo < hi {
            let m = (lo + hi).div_ceil(2);
            let d = 2 * m as i128 - k as i128;
            if d < 0 || d * d <= 5 * (k as i128) * (k as i128) {
                lo = m;
            } else {
                hi = m - 1;
            }
        }
        lo
    }

    #[test]
    fn floor_k_phi_is_exact_up_to_the_largest_heap() {
        for k in (0..200_000)
            .chain(crate::model::space::MAX_HEAP_SIZE - 1000..=crate::model::space::MAX_HEAP_SIZE)
        {
            assert_eq!(floor_k_phi(k), floor_k_phi_by_bisection(u64::from(k)), "k = {k}");
        }
        assert_eq!(floor_k_phi(u32::MAX), floor_k_phi_by_bisection(u64::from(u32::MAX)));
        let pairs: Vec<(u64, u64)> =
            (0..6).map(|k| (floor_k_phi(k), floor_k_phi(k) + k as u64)).collect();
        assert_eq!(pairs, [(0, 0), (1, 2), (3, 5), (4, 7), (6, 10), (8, 13)]);
    }

    #[test]
    fn criteria_apply_to_their_games_only() {
        let wythoff = Game::wythoff();
        assert_eq!(
            Criterion::applicable(&wythoff, 2),
            [Criterion::Wythoff, Criterion::WythoffMisere]
        );
        assert!(Criterion::applicable(&wythoff, 3).is_empty());
        assert!(Criterion::applicable(&Game::circular(2).unwrap(), 3).is_empty());
        assert!(Criterion::applicable(&Game::nim().with_pass(), 3).is_empty());
        let nim = Criterion::applicable(&Game::nim(), 3);
        assert_eq!(nim, Criterion::ALL[..5]);
        let sub = Game::subtract(&[1, 3, 4]).unwrap();
        let refused = Criterion::Moore.check_applies(&sub, 3).unwrap_err().to_string();
        assert!(
            refused.starts_with("criterion moore does not apply to subtract:1,3,4 with 3 heaps")
        );
    }
}
