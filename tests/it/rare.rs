//! `grundy --format rare` and `--format summary`: the rare heaps of the sparse-space split
//! against a plain mex, the atlas's own rare heaps, snapshots, and bad input.

use std::path::Path;

use crate::support::cli::run;
use crate::support::sequence_reference::octal_values;

/// Whether `v` is rare under `mask`: `popcount(v & mask)` even.
fn rare(v: u32, mask: u32) -> bool {
    (v & mask).count_ones().is_multiple_of(2)
}

#[test]
fn the_rare_heaps_are_those_of_a_plain_mex_under_the_mask_with_the_fewest() {
    let max = 3000;
    let r = run(&["grundy", "--game", "octal:0.6", "--max", "3000", "--format", "rare"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    let values = octal_values("0.6", max);
    // The mask said on stderr is the one with the fewest rare heaps of every mask.
    let said = r.stderr.trim().strip_prefix("nimtab: mask ").unwrap();
    let mask = u32::from_str_radix(said.split_whitespace().next().unwrap(), 16).unwrap();
    let count = |m: u32| values.iter().filter(|&&v| rare(v, m)).count();
    assert!((1..1024).all(|m| count(m) >= count(mask)), "{}", r.stderr);
    let expected: String = std::iter::once("heap,grundy".to_string())
        .chain(
            values
                .iter()
                .enumerate()
                .filter(|(_, &v)| rare(v, mask))
                .map(|(n, v)| format!("{n},{v}")),
        )
        .map(|line| line + "\n")
        .collect();
    assert_eq!(r.stdout, expected);
    let last = values.iter().rposition(|&v| rare(v, mask)).unwrap();
    assert_eq!(
        r.stderr,
        format!(
            "nimtab: mask {mask:x} over heaps 0..=3000: {} rare heaps, the last at heap {last}\n",
            count(mask)
        )
    );
}

#[test]
fn a_given_mask_lists_the_heaps_rare_under_it_and_the_summary_counts_them() {
    let max = 2000;
    let values = octal_values("0.16", max);
    let base = ["grundy", "-q", "--game", "octal:0.16", "--max", "2000", "--rare-mask", "0x3"];
    let r = run(&[&base[..], &["--format", "rare"]].concat());
    assert_eq!(r.status, 0, "{}", r.stderr);
    let listed = r.stdout.lines().count() - 1;
    assert_eq!(listed, values.iter().filter(|&&v| rare(v, 3)).count());
    let r = run(&[&base[..], &["--format", "summary"]].concat());
    let largest = *values.iter().max().unwrap();
    let at = values.iter().position(|&v| v == largest).unwrap();
    let last = values.iter().rposition(|&v| rare(v, 3)).unwrap();
    assert_eq!(
        r.stdout,
        format!(
            "game,through,largest_value,largest_at,rare_mask,rare_count,last_rare\n\
         octal:0.16,2000,{largest},{at},3,{listed},{last}\n"
        )
    );
}

#[test]
fn the_rare_heaps_of_an_unsolved_atlas_code_are_grundy_s_rare_format() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("atlas");
    let flags = ["atlas", "-q", "--codes", "0.16", "--budget", "2^13", "--dense-budget", "2^13"];
    let r = run(&[&flags[..], &["--quotient-heap", "4", "--out", out.to_str().unwrap()]].concat());
    assert_eq!(r.status, 0, "{}", r.stderr);
    let grundy =
        run(&["grundy", "-q", "--game", "octal:0.16", "--max", "2^13", "--format", "rare"]);
    assert_eq!(grundy.stdout.as_bytes(), std::fs::read(out.join("rare/0.16.csv")).unwrap());
}

#[test]
fn snapshots_give_a_rare_file_and_a_summary_row_at_every_power_of_two() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("rare-snapshots");
    let flags = ["grundy", "-q", "--game", "octal:0.6", "--max", "3000", "--snapshots", "pow2"];
    let r = run(&[&flags[..], &["--format", "rare", "--out", out.to_str().unwrap()]].concat());
    assert_eq!(r.status, 0, "{}", r.stderr);
    for n in [1, 2, 1024, 2048, 3000] {
        let single = run(&[
            "grundy",
            "-q",
            "--game",
            "octal:0.6",
            "--max",
            &n.to_string(),
            "--format",
            "rare",
        ]);
        let file = std::fs::read_to_string(out.join(format!("rare/{n}"))).unwrap();
        assert_eq!(file, single.stdout, "rare/{n}");
    }
    let r = run(&[&flags[..], &["--format", "summary"]].concat());
    let throughs: Vec<&str> =
        r.stdout.lines().skip(1).map(|l| l.split(',').nth(1).unwrap()).collect();
    let expected: Vec<String> =
        (0..12).map(|k| (1u32 << k).to_string()).chain(["3000".to_string()]).collect();
    assert_eq!(throughs, expected);
    assert!(!Path::new(&out).join("summary").exists());
}

#[test]
fn bad_rare_flags_are_refused_with_one_line() {
    let cases: [(&[&str], &str); 5] = [
        (&["--format", "rare", "--rare-mask", "zz"], "expected a nonzero hexadecimal mask"),
        (&["--format", "rare", "--rare-mask", "0"], "got '0'"),
        (&["--format", "csv", "--rare-mask", "3"], "--rare-mask is for --format rare or summary"),
        (
            &["--format", "csv", "--snapshots", "pow2", "--out", "x"],
            "--snapshots is for --format freq, rare or summary",
        ),
        (
            &["--format", "rare", "--snapshots", "pow2"],
            "--snapshots needs --out DIR, the directory its rare/N files go to",
        ),
    ];
    for (flags, message) in cases {
        let r = run(&[&["grundy", "--game", "octal:0.6", "--max", "100"][..], flags].concat());
        assert_eq!(r.status, 2, "{flags:?}: {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{flags:?}: {}", r.stderr);
        assert!(r.stderr.contains(message), "{flags:?}: {}", r.stderr);
    }
    let r = run(&["grundy", "--game", "wythoff", "--max", "10", "--format", "rare"]);
    assert_eq!(r.status, 2);
    assert!(r.stderr.contains("wythoff is not one"), "{}", r.stderr);
}
