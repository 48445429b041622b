//! Classes of codes with the same Grundy sequence: proved equal when both sequences are
//! certified periodic and agree on the values the period repeats, or reported as equal
//! only as far as computed; each class under its standard form, the smallest code.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use serde::Serialize;

use super::entry::Entry;
use crate::model::octal::OctalCode;

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
    /// Every member's period is certified, with the same least preperiod `e` and period
    /// `p` and the same values `G(0..e + p)`: the sequences agree for every heap.
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
/// Two certified sequences are equal exactly when their least preperiods, least periods
/// and the values through one period after the preperiod agree (both are then determined
/// forever). A code without a certified period is compared at its own last computed heap
/// `N` with every other code's values through `N` (a certified sequence's continued by
/// its period): agreement there joins it to that class, which is then only equal
/// through the least such `N`.
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
    let mut by_block: BTreeMap<(u64, u64, &[u32]), usize> = BTreeMap::new();
    for (i, entry) in entries.iter().enumerate() {
        if let Some(p) = &entry.period {
            let key = (p.preperiod, p.period, entry.block.as_slice());
            let first = *by_block.entry(key).or_insert(i);
            let (a, b) = (root(&mut parent, first), root(&mut parent, i));
            parent[b] = a;
        }
    }
    let mut bounded: Vec<Option<u64>> = vec![None; entries.len()];
    for (i, entry) in entries.iter().enumerate().filter(|(_, e)| e.period.is_none()) {
        let horizon = entry.computed_to;
        let Some(mine) = entry.fingerprint_at(horizon) else { continue };
        for (j, other) in entries.iter().enumerate() {
            if j != i && other.fingerprint_at(horizon) == Some(mine) {
                let (a, b) = (root(&mut parent, j), root(&mut parent, i));
                // Codes already proved equal (by their moves) stay proved.
                if a != b {
                    parent[b] = a;
                    bounded[i] = Some(bounded[i].map_or(horizon, |h| h.min(horizon)));
                }
            }
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

/// Whether `a` and `b` are proved equal by their moves ([`Equality::Moves`]): the same
/// moves that leave one or two heaps, whole-heap moves that differ only for heaps up to
/// `K`, and the same values on heaps `0..=K`.
fn equal_by_moves(a: &Entry, b: &Entry) -> bool {
    let (Ok(ca), Ok(cb)) = (OctalCode::parse(&a.code), OctalCode::parse(&b.code)) else {
        return false;
    };
    let (ra, rb) = (ca.heap_rule(), cb.heap_rule());
    if ra.shrink != rb.shrink || ra.split != rb.split {
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
        (_, None) if members.iter().all(|&i| entries[i].period.is_some()) => Equality::Periodic,
        (_, None) => Equality::MovesAndPeriodic,
        (_, Some(_)) => Equality::EqualThrough,
    };
    Class { standard_form: codes[0].clone(), members: codes, how, through }
}
