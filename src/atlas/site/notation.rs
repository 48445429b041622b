//! Grundy values written as the literature writes a nim-sequence: `G(0)`, a point, then
//! `G(1) G(2) …` separated by spaces, with the values the period repeats in parentheses.
//!
//! `0.1 1 2 (0 1 1 2)` is the sequence `0, 1, 1, 2, 0, 1, 1, 2, 0, 1, 1, 2, …`: preperiod
//! 4, period 4. A preperiod of 0 opens the parentheses before `G(0)`: `(0.1)` is
//! `0, 1, 0, 1, …`. Values of 10 and more are written in decimal like the others (the
//! spaces keep them apart). A cut list ends in `…`, inside the parentheses when they were
//! opened: `0.1 1 (2 3 …)`.

/// The values `values` (from heap 0), with the parentheses opened before heap
/// `period_start` when it is given and lies among them, and closed after the last value
/// when the list is `complete`; a list that is not complete ends in `…`.
pub(super) fn nim_sequence(values: &[u32], period_start: Option<usize>, complete: bool) -> String {
    let mut out = String::with_capacity(values.len() * 3 + 4);
    let opened = period_start.is_some_and(|e| e < values.len());
    for (n, value) in values.iter().enumerate() {
        if Some(n) == period_start {
            out.push('(');
        }
        out.push_str(&value.to_string());
        let more = n + 1 < values.len() || !complete;
        match (n, more) {
            (_, false) => {}
            (0, true) => out.push('.'),
            (_, true) => out.push(' '),
        }
    }
    if !complete {
        out.push('…');
    }
    if opened {
        out.push(')');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::nim_sequence;

    #[test]
    fn a_period_after_a_preperiod_is_in_parentheses() {
        assert_eq!(nim_sequence(&[0, 1, 1, 2, 0, 1, 1, 2], Some(4), true), "0.1 1 2 (0 1 1 2)");
    }

    #[test]
    fn a_preperiod_of_zero_opens_the_parentheses_before_heap_zero() {
        assert_eq!(nim_sequence(&[0, 1], Some(0), true), "(0.1)");
        assert_eq!(nim_sequence(&[0], Some(0), true), "(0)");
    }

    #[test]
    fn a_cut_list_ends_in_an_ellipsis_inside_open_parentheses() {
        assert_eq!(nim_sequence(&[0, 1, 1, 2, 3], Some(3), false), "0.1 1 (2 3 …)");
        assert_eq!(nim_sequence(&[0, 1, 12], Some(7), false), "0.1 12 …");
        assert_eq!(nim_sequence(&[0, 0, 1], None, false), "0.0 1 …");
    }

    #[test]
    fn values_of_ten_and_more_stay_apart() {
        assert_eq!(nim_sequence(&[0, 10, 11], Some(1), true), "0.(10 11)");
    }
}
