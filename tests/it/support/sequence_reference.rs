//! A deliberately plain Grundy sequence of one heap: the mex over every option, the
//! options read straight from the octal digits (or Grundy's game's rule), with no
//! rare/common split, no mask and no period.

/// Digit `Dk` of a code `D0.D1D2…`.
fn digits(code: &str) -> Vec<u32> {
    code.chars().filter(|&c| c != '.').map(|c| c.to_digit(8).expect("an octal digit")).collect()
}

/// The mex of `seen` (values below its length marked `true`).
fn mex(seen: &[bool]) -> u32 {
    seen.iter().position(|&s| !s).unwrap_or(seen.len()) as u32
}

/// `G(0..=max)` of the octal game `code` (`0.77`, `4.07`).
pub fn octal_values(code: &str, max: usize) -> Vec<u32> {
    let d = digits(code);
    let mut values: Vec<u32> = Vec::with_capacity(max + 1);
    for n in 0..=max {
        let mut seen = vec![false; n + 2];
        let mut mark = |v: u32| {
            if (v as usize) < seen.len() {
                seen[v as usize] = true;
            }
        };
        for (k, &digit) in d.iter().enumerate() {
            if digit & 1 != 0 && n == k && k > 0 {
                mark(0);
            }
            if digit & 2 != 0 && n > k && k > 0 {
                mark(values[n - k]);
            }
            if digit & 4 != 0 && n >= k + 2 {
                for a in 1..n - k {
                    mark(values[a] ^ values[n - k - a]);
                }
            }
        }
        values.push(mex(&seen));
    }
    values
}

/// `G(0..=max)` of Grundy's game: split a heap into two heaps of different sizes.
pub fn grundys_game_values(max: usize) -> Vec<u32> {
    let mut values: Vec<u32> = Vec::with_capacity(max + 1);
    for n in 0..=max {
        let mut seen = vec![false; n + 2];
        for a in 1..n {
            if 2 * a != n {
                let v = (values[a] ^ values[n - a]) as usize;
                if v < seen.len() {
                    seen[v] = true;
                }
            }
        }
        values.push(mex(&seen));
    }
    values
}

#[test]
fn the_reference_starts_like_kayles_and_grundys_game() {
    assert_eq!(octal_values("0.77", 12), [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]);
    assert_eq!(grundys_game_values(9), [0, 0, 0, 1, 0, 2, 1, 0, 2, 1]);
}
