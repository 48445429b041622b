//! Classes of codes with the same Grundy sequence: proved equal by their moves or by equal
//! certified periods, or reported as equal only as far as computed; each class under its
//! standard form, the smallest code.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use serde::Serialize;

use super::code::AtlasCode;
use super::entry::Entry;

/// How the members of a class were shown equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Equality {
    /// One code alone.
    Single,
    /// The codes differ only in moves that take a whole heap of at most `K` tokens (bit 1
    /// of a digit `D1..DK`), so their moves agree on every heap larger than `K`, and their
    /// values agree on heaps `0..=K`: by induction on the heap, the sequences agree for
    /// every heap.
    Moves,
    /// Every member's period is certified (or its arithmetic period `G(n + p) = G(n) + s`
    /// proved), with the same least preperiod `e`, period `p` and saltus `s` and the same
    /// values `G(0..e + p)`: the sequences agree for every heap.
    Periodic,
    /// Some members are linked by [`Equality::Moves`], the others by
    /// [`Equality::Periodic`]: every link is a proof.
    MovesAndPeriodic,
    /// The sequences agree on heaps `0..=N` (the number beside it) and nothing more is
    /// proved: bounded evidence.
    EqualThrough,
}

impl Equality {
    /// The word in the `how` column.
    pub fn name(self) -> &'static str {
        match self {
            Equality::Single => "single",
            Equality::Moves => "moves",
            Equality::Periodic => "periodic",
            Equality::MovesAndPeriodic => "moves_and_periodic",
            Equality::EqualThrough => "equal_through",
        }
    }
}

/// Codes with one Grundy sequence (proved, or as far as computed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Class {
    /// The smallest member (the literature's standard form).
    pub standard_form: String,
    /// Every member, smallest first.
    pub members: Vec<String>,
    /// How equality was shown.
    pub how: Equality,
    /// For [`Equality::EqualThrough`], the last heap on which the members agree.
    pub through: Option<u64>,
}

/// The order of the tables: `0.…` before `4.…`, then the digits after the point as a
/// decimal fraction (`0.07 < 0.1 < 0.16 < 0.161`). Codes are written `D0.D1…Dt` without
/// trailing zeros, so this is the order of their text.
pub fn code_order(a: &str, b: &str) -> Ordering {
    a.cmp(b)
}

/// Groups `entries` into classes, in the order of their standard forms.
///
/// Two certified sequences are equal exactly when their least preperiods, least periods,
/// saltus (0 for an ordinary period, above 0 for a proved arithmetic one) and the values
/// through one period after the preperiod agree (both are then determined forever); codes whose moves differ only in whole-heap moves of at most `K` tokens are
/// equal when their values agree through `K`. A code without a certified period is
/// compared with every other code at the longest prefix both hold (a certified
/// sequence's continued by its period): agreement there joins it to that class, which is
/// then only equal through the least such heap, unless that would join two classes of
/// different certified sequences.
pub fn classes(entries: &[Entry]) -> Vec<Class> {
    // Union-find over the entries, with the weakest horizon of each class's links.
    let mut parent: Vec<usize> = (0..entries.len()).collect();
    let mut moves_parent: Vec<usize> = (0..entries.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for (i, a) in entries.iter().enumerate() {
        for (j, b) in entries.iter().enumerate().skip(i + 1) {
            if equal_by_moves(a, b) {
                let (ra, rb) = (root(&mut parent, i), root(&mut parent, j));
                parent[rb] = ra;
                let (ma, mb) = (root(&mut moves_parent, i), root(&mut moves_parent, j));
                moves_parent[mb] = ma;
            }
        }
    }
    let mut by_block: BTreeMap<Determined, usize> = BTreeMap::new();
    for (i, entry) in entries.iter().enumerate() {
        if let Some(key) = determined(entry) {
            let first = *by_block.entry(key).or_insert(i);
            let (a, b) = (root(&mut parent, first), root(&mut parent, i));
            parent[b] = a;
        }
    }
    let mut certified = vec![false; entries.len()];
    for i in (0..entries.len()).filter(|&i| determined(&entries[i]).is_some()) {
        let r = root(&mut parent, i);
        certified[r] = true;
    }
    let mut bounded: Vec<Option<u64>> = vec![None; entries.len()];
    for (i, entry) in entries.iter().enumerate().filter(|(_, e)| determined(e).is_none()) {
        for (j, other) in entries.iter().enumerate().filter(|(j, _)| *j != i) {
            let Some(horizon) = agree_through(entry, other) else { continue };
            let (a, b) = (root(&mut parent, j), root(&mut parent, i));
            // Codes already proved equal stay proved; two classes of different certified
            // sequences are proved different, and no bounded link joins them.
            if a == b || (certified[a] && certified[b]) {
                continue;
            }
            parent[b] = a;
            certified[a] |= certified[b];
            bounded[i] = Some(bounded[i].map_or(horizon, |h| h.min(horizon)));
        }
    }
    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for i in 0..entries.len() {
        let r = root(&mut parent, i);
        groups.entry(r).or_default().push(i);
    }
    let mut out: Vec<Class> = groups
        .into_values()
        .map(|members| {
            let by_moves: Vec<usize> =
                members.iter().map(|&i| root(&mut moves_parent, i)).collect();
            class_of(entries, &members, &bounded, by_moves.windows(2).all(|w| w[0] == w[1]))
        })
        .collect();
    out.sort_by(|a, b| code_order(&a.standard_form, &b.standard_form));
    out
}

/// A proved sequence's preperiod `e`, period `p`, saltus `s` and values `G(0..e + p)`,
/// which give every value: `G(e + qp + r) = G(e + r) + qs`.
type Determined<'a> = (u64, u64, u64, &'a [u32]);

/// What determines `entry`'s sequence for every heap: a certified period with its block,
/// or a proved arithmetic period whose block is among the first values.
fn determined(entry: &Entry) -> Option<Determined<'_>> {
    if let Some(p) = &entry.period {
        return Some((p.preperiod, p.period, 0, entry.block.as_slice()));
    }
    let a = entry.proved_arithmetic()?;
    let block = entry.first_values.get(..(a.preperiod + a.period) as usize)?;
    Some((a.preperiod, a.period, a.saltus, block))
}

/// The last heap of the longest prefix both entries hold a fingerprint of, if their values
/// agree there (they then agree on every heap up to it).
fn agree_through(a: &Entry, b: &Entry) -> Option<u64> {
    let (h, mine) = a.fingerprints.iter().rev().find(|(h, _)| b.fingerprint_at(*h).is_some())?;
    (b.fingerprint_at(*h) == Some(mine.as_str())).then_some(*h)
}

/// Whether `a` and `b` are proved equal by their moves ([`Equality::Moves`]): the same
/// moves that leave one, two or three heaps, whole-heap moves that differ only for heaps
/// up to `K`, and the same values on heaps `0..=K`.
fn equal_by_moves(a: &Entry, b: &Entry) -> bool {
    let (Ok(ca), Ok(cb)) = (AtlasCode::parse(&a.code), AtlasCode::parse(&b.code)) else {
        return false;
    };
    let (three_a, three_b) = (ca.rule(), cb.rule());
    let (ra, rb) = (&three_a.pairs, &three_b.pairs);
    if ra.shrink != rb.shrink || ra.split != rb.split || three_a.split_three != three_b.split_three
    {
        return false;
    }
    let differ = ra.vanish.iter().filter(|k| !rb.vanish.contains(k));
    let Some(k) = differ.chain(rb.vanish.iter().filter(|k| !ra.vanish.contains(k))).max() else {
        return false;
    };
    let k = *k as usize;
    k < a.first_values.len()
        && k < b.first_values.len()
        && a.first_values[..=k] == b.first_values[..=k]
}

fn class_of(
    entries: &[Entry],
    members: &[usize],
    bounded: &[Option<u64>],
    by_moves: bool,
) -> Class {
    let mut codes: Vec<String> = members.iter().map(|&i| entries[i].code.clone()).collect();
    codes.sort_by(|a, b| code_order(a, b));
    let through = members.iter().filter_map(|&i| bounded[i]).min();
    let how = match (members.len(), through) {
        (1, _) => Equality::Single,
        (_, None) if by_moves => Equality::Moves,
        (_, None) if members.iter().all(|&i| determined(&entries[i]).is_some()) => {
            Equality::Periodic
        }
        (_, None) => Equality::MovesAndPeriodic,
        (_, Some(_)) => Equality::EqualThrough,
    };
    Class { standard_form: codes[0].clone(), members: codes, how, through }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::atlas::entry::{
        ArithmeticEvidence, AtlasSettings, CertifiedPeriod, QuotientCell, QuotientOutcome, Stop,
    };

    /// An entry of `code` with a certified `(e, p)` and block, or none, and fingerprints.
    fn entry(code: &str, period: Option<(u64, u64, Vec<u32>)>, prints: &[(u64, &str)]) -> Entry {
        let certified = period.as_ref().map(|(e, p, _)| CertifiedPeriod {
            preperiod: *e,
            period: *p,
            checked_through: 0,
            theorem: String::new(),
            window: (0, 0),
        });
        Entry {
            code: code.to_string(),
            settings: AtlasSettings::new(100, 100, 1, 1),
            computed_to: prints.last().map_or(0, |p| p.0),
            stopped: if period.is_some() { Stop::Certified } else { Stop::Budget },
            period: certified,
            arithmetic: None,
            largest_value: 0,
            largest_at: 0,
            rare: None,
            rare_heaps: Vec::new(),
            quotient: QuotientCell {
                max_heap: 1,
                outcome: QuotientOutcome::NotComputed(String::new()),
            },
            first_values: vec![0, 1, 2],
            block: period.map_or(Vec::new(), |(_, _, b)| b),
            fingerprints: prints.iter().map(|(h, f)| (*h, f.to_string())).collect(),
        }
    }

    #[test]
    fn a_code_equal_as_far_as_computed_to_two_proved_different_codes_joins_only_one() {
        // 0.16 and 0.46 are certified with different blocks, yet agree through heap 100;
        // 0.76 (unsolved) agrees with both through 100. (No two differ only in whole-heap
        // moves.)
        let entries = [
            entry("0.16", Some((0, 2, vec![0, 1])), &[(100, "same")]),
            entry("0.46", Some((0, 3, vec![0, 1, 0])), &[(100, "same")]),
            entry("0.76", None, &[(100, "same")]),
        ];
        let classes = classes(&entries);
        assert_eq!(classes.len(), 2, "{classes:?}");
        assert_eq!(classes[0].members, ["0.16", "0.76"]);
        assert_eq!((classes[0].how, classes[0].through), (Equality::EqualThrough, Some(100)));
        assert_eq!((classes[1].members.len(), classes[1].how), (1, Equality::Single));
    }

    #[test]
    fn proved_arithmetic_periods_with_one_block_and_saltus_are_one_class() {
        let proved = |code: &str, saltus: u64, values: Vec<u32>| {
            let mut e = entry(code, None, &[(64, code)]);
            e.arithmetic = Some(ArithmeticEvidence {
                preperiod: 1,
                period: 2,
                saltus,
                through: 40,
                proved: true,
            });
            e.first_values = values;
            e
        };
        let entries = [
            proved("hex:0.4C", 1, vec![0, 0, 0, 1, 1, 2]),
            proved("hex:0.C4", 1, vec![0, 0, 0, 1, 1, 2]),
            proved("hex:0.CC", 2, vec![0, 0, 0, 2, 2, 4]),
            entry("hex:0.C8", None, &[(64, "other")]),
        ];
        let classes = classes(&entries);
        let found: Vec<(Vec<&str>, Equality)> = classes
            .iter()
            .map(|c| (c.members.iter().map(String::as_str).collect(), c.how))
            .collect();
        assert_eq!(
            found,
            [
                (vec!["hex:0.4C", "hex:0.C4"], Equality::Periodic),
                (vec!["hex:0.C8"], Equality::Single),
                (vec!["hex:0.CC"], Equality::Single),
            ]
        );
    }

    #[test]
    fn an_unsolved_code_is_compared_at_the_longest_prefix_both_codes_hold() {
        // 0.62 stopped at 150 (past the shared horizon 100): it still meets 0.6 there.
        let entries = [
            entry("0.6", None, &[(100, "a"), (200, "b")]),
            entry("0.62", None, &[(100, "a"), (150, "c")]),
        ];
        let classes = classes(&entries);
        assert_eq!(classes.len(), 1, "{classes:?}");
        assert_eq!(classes[0].through, Some(100));
    }
}
