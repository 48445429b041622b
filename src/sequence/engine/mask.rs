//! The rare/common split: which values are rare under a mask, and the mask with the fewest
//! rare heaps, found for every mask at once by a Walsh–Hadamard transform.

/// Whether `value` is rare under `mask`: `popcount(value & mask)` is even.
#[inline]
pub fn is_rare(value: u32, mask: u32) -> bool {
    (value & mask).count_ones().is_multiple_of(2)
}

/// The mask with the fewest rare heaps given `histogram[v]` = heaps of value `v` (length a
/// power of two): `rare(M) = (heaps + W[M]) / 2`, so the least `W[M]` wins; mask 0 (every
/// value rare, the plain mex) is never better and is left out. Ties go to the smaller mask.
pub fn fewest_rare_mask(histogram: &[u64]) -> u32 {
    let mut transform: Vec<i64> = histogram.iter().map(|&c| c as i64).collect();
    walsh_hadamard(&mut transform);
    (1..transform.len()).min_by_key(|&m| (transform[m], m)).unwrap_or(1) as u32
}

/// Bit `v` set for every rare value `v < width` under `mask`.
pub fn rare_bits(mask: u32, width: usize) -> Vec<u64> {
    let mut bits = vec![0u64; width.div_ceil(64)];
    for v in 0..width {
        if is_rare(v as u32, mask) {
            bits[v / 64] |= 1 << (v % 64);
        }
    }
    bits
}

/// In-place Walsh–Hadamard transform: `W[m] = Σ_v h[v] (-1)^popcount(v & m)`.
fn walsh_hadamard(data: &mut [i64]) {
    let mut half = 1;
    while half < data.len() {
        for block in data.chunks_mut(2 * half) {
            let (left, right) = block.split_at_mut(half);
            for (x, y) in left.iter_mut().zip(right.iter_mut()) {
                (*x, *y) = (*x + *y, *x - *y);
            }
        }
        half *= 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walsh_hadamard_counts_signed_values_per_mask() {
        let mut h = vec![3, 1, 0, 2];
        walsh_hadamard(&mut h);
        assert_eq!(h, vec![6, 0, 2, 4]);
    }

    #[test]
    fn the_chosen_mask_has_the_fewest_rare_heaps() {
        // Values 1 and 2 common under mask 3 (one bit each), 3 rare: one rare heap.
        let histogram = [0, 5, 4, 1];
        let mask = fewest_rare_mask(&histogram);
        let rare =
            |m: u32| (0..4).filter(|&v| is_rare(v, m)).map(|v| histogram[v as usize]).sum::<u64>();
        assert!((1..4).all(|m| rare(mask) <= rare(m)), "mask {mask}");
        assert_eq!(rare_bits(3, 4), vec![0b1001]);
    }
}
