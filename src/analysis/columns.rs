//! Rows of columns by value: for each value, the last-heap sizes that have it, as masks.

/// For each value, the columns (last-heap sizes) having it, as masks or lists.
#[derive(Clone, Debug)]
pub(crate) enum ColumnsByValue {
    /// Words `v * words..(v + 1) * words` are the row mask of the columns with value `v`
    /// (one flat table: a lookup is one index, not two).
    Dense { words: usize, masks: Vec<u64> },
    /// `lists[v]` lists the columns with value `v`; used when dense masks would be large.
    Sparse(Vec<Vec<u32>>),
}

/// Word budget for dense masks (8 MiB); beyond it, columns are listed instead.
const DENSE_WORDS: usize = 1 << 20;

impl ColumnsByValue {
    /// At least the bytes of the columns of `len` values below `len`, in rows of `words`:
    /// dense masks up to their budget, or lists.
    pub(crate) fn bytes(len: u64, words: u64) -> u64 {
        let dense = len.saturating_mul(words).min(DENSE_WORDS as u64) * 8;
        let sparse = len * 4 + len * 32;
        dense.max(sparse)
    }

    /// The columns of each value, where `values[h]` is column `h`'s, in rows of `words`.
    pub(crate) fn new(values: &[u32], words: usize) -> ColumnsByValue {
        let distinct = values.iter().copied().max().map_or(0, |m| m as usize + 1);
        if distinct.saturating_mul(words) <= DENSE_WORDS {
            let mut masks = vec![0u64; distinct * words];
            for (h, &v) in values.iter().enumerate() {
                masks[v as usize * words + h / 64] |= 1 << (h % 64);
            }
            ColumnsByValue::Dense { words, masks }
        } else {
            let mut lists = vec![Vec::new(); distinct];
            for (h, &v) in values.iter().enumerate() {
                lists[v as usize].push(h as u32);
            }
            ColumnsByValue::Sparse(lists)
        }
    }

    /// The columns whose value is `v`: a dense mask as is, or `scratch` filled in.
    #[inline]
    pub(crate) fn columns<'a>(
        &'a self,
        v: u32,
        zero: &'a [u64],
        scratch: &'a mut [u64],
    ) -> &'a [u64] {
        match self {
            ColumnsByValue::Dense { words, masks } => {
                let start = v as usize * words;
                masks.get(start..start + words).unwrap_or(zero)
            }
            ColumnsByValue::Sparse(lists) => {
                scratch.fill(0);
                for &h in lists.get(v as usize).map_or(&[][..], |l| &l[..]) {
                    scratch[h as usize / 64] |= 1 << (h % 64);
                }
                scratch
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sparse_and_dense_columns_agree() {
        let values: Vec<u32> = (0..300).map(|h| h % 7).collect();
        let dense = ColumnsByValue::new(&values, 5);
        let sparse =
            ColumnsByValue::Sparse((0..7).map(|v| (v..300).step_by(7).collect()).collect());
        assert!(matches!(dense, ColumnsByValue::Dense { .. }));
        for v in 0..8 {
            let zero = vec![0u64; 5];
            let (mut a, mut b) = (vec![0u64; 5], vec![0u64; 5]);
            let dense_columns = dense.columns(v, &zero, &mut a).to_vec();
            assert_eq!(dense_columns, sparse.columns(v, &zero, &mut b));
        }
    }
}
