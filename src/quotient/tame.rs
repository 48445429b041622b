//! Whether a quotient is *tame*: the quotient of misère Nim with heaps of some bounded
//! sizes, whose play follows Nim's genus rule.
//!
//! The tame quotients are `T0` (one element, no P-position: no heap has a move), `T1`
//! (`<a | a^2 = 1>`, P-portion `{a}`: heaps of size 1) and, for `k >= 2`, `Tk` of order
//! `2^k + 2`: the fickle positions (every heap of size at most 1) give `1` and `a`,
//! `a^2 = 1`; the firm ones form an ideal `G` that is a group `Z2^k` under the product
//! (the nim-sum); the P-portion is `{a, e}`, `e` the identity of `G` (nim-sum 0); and `a`
//! acts on `G` as an element of order 2 (nim-sum 1), not as the identity.

use crate::quotient::memory::{Hold, Result};

/// Whether the monoid given by its product table (`product[x * order + y]`, identity 0)
/// and P-portion is isomorphic to a tame quotient; its scratch counted in `hold`.
pub(crate) fn is_tame(
    order: usize,
    product: &[u32],
    p: &[bool],
    hold: &mut Hold<'_>,
) -> Result<bool> {
    let times = |x: usize, y: usize| product[x * order + y] as usize;
    let p_count = p.iter().filter(|&&b| b).count();
    Ok(match order {
        1 => p_count == 0,
        2 => p_count == 1 && p[1] && times(1, 1) == 0,
        _ => {
            for a in 1..order {
                if tame_with_fickle(order, &times, p, a, p_count, hold)? {
                    return Ok(true);
                }
            }
            false
        }
    })
}

/// Whether the quotient is a `Tk` (`k >= 2`) with `a` as its odd fickle element.
fn tame_with_fickle(
    order: usize,
    times: &impl Fn(usize, usize) -> usize,
    p: &[bool],
    a: usize,
    p_count: usize,
    hold: &mut Hold<'_>,
) -> Result<bool> {
    if times(a, a) != 0 || !p[a] || p_count != 2 || p[0] {
        return Ok(false);
    }
    let size = order - 2;
    if size < 4 || !size.is_power_of_two() {
        return Ok(false);
    }
    let mut scratch = hold.meter().hold(0)?;
    let mut group: Vec<usize> = scratch.with_capacity(size)?;
    group.extend((1..order).filter(|&x| x != a));
    Ok(tame_group(&times, p, a, &group))
}

/// Whether `group` (every element but 1 and `a`) is the group `Z2^k` of a `Tk`.
fn tame_group(
    times: &impl Fn(usize, usize) -> usize,
    p: &[bool],
    a: usize,
    group: &[usize],
) -> bool {
    let Some(&e) = group.iter().find(|&&x| p[x]) else { return false };
    let closed = group.iter().all(|&x| group.iter().all(|&y| times(x, y) != 0 && times(x, y) != a));
    let identity = group.iter().all(|&x| times(e, x) == x);
    let squares = group.iter().all(|&x| times(x, x) == e);
    let ideal = group.iter().all(|&x| times(a, x) != 0 && times(a, x) != a);
    closed && identity && squares && ideal && times(a, e) != e
}
