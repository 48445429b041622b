//! `merge`: parts merge back to the unsharded bytes, and a part that is not exactly what
//! its shard wrote (a missing, repeated or foreign part, an edited, moved, added or
//! removed row, a foreign row, a blank line, a control character) is refused with one
//! line naming the part and the line.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::support::cli::{run, run_with_stdin, Run};
use crate::sweep::{merge, parts, sweep_to};

#[test]
fn shards_merged_equal_the_unsharded_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let whole = sweep_to(dir.path(), "whole.csv", &[], &[]);
    let parts = parts(dir.path(), 3, &[]);
    let first = std::fs::read_to_string(&parts[1]).unwrap();
    assert!(first.starts_with("# nimtab sweep "), "{first}");
    assert!(first.lines().next().unwrap().contains(" part 2/3: games 21..42 of 63, 567 rows"));
    let head: Vec<&str> = first.lines().skip(1).take(4).collect();
    assert_eq!(
        head,
        [
            "# family subtract:subsets(1..=6)",
            "# space heaps 1..=3, max 31",
            "# rules normal,misere,sj",
            "# criteria xor,anti-nim,sj"
        ]
    );
    assert!(first.lines().last().unwrap().starts_with("# end of part 2/3: 567 rows, sha256 "));
    let out = dir.path().join("merged.csv");
    // Given in any order.
    let Run { status, stderr, .. } = merge(&[&parts[2], &parts[0], &parts[1]], &out);
    assert_eq!(status, 0, "{stderr}");
    assert_eq!(std::fs::read(&out).unwrap(), whole);
}

#[test]
fn merge_refuses_a_missing_duplicated_or_foreign_part() {
    let dir = tempfile::tempdir().unwrap();
    let p = parts(dir.path(), 3, &[]);
    let other_dir = dir.path().join("other");
    std::fs::create_dir(&other_dir).unwrap();
    let foreign = parts(&other_dir, 3, &["--rules", "misere"]);
    let out = dir.path().join("merged.csv");
    let refused = |parts: &[&Path], message: &str| {
        let Run { status, stderr, .. } = merge(parts, &out);
        assert_eq!(status, 2, "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(message), "expected '{message}' in: {stderr}");
        assert!(!out.exists());
    };
    refused(&[&p[0], &p[2]], "part 2/3 of sweep ");
    refused(&[&p[0], &p[2]], "is missing");
    refused(&[&p[0], &p[1], &p[1], &p[2]], "part 2/3 is given twice");
    let foreign_name = foreign[1].to_str().unwrap();
    refused(&[&p[0], &foreign[1], &p[2]], &format!("{foreign_name} is part 2/3 of sweep "));
    let whole = dir.path().join("whole.csv");
    sweep_to(dir.path(), "whole.csv", &[], &[]);
    refused(&[&p[0], &whole], "whole.csv is not a sweep part");
    // A part cut short, in its last line.
    let text = std::fs::read_to_string(&p[1]).unwrap();
    let cut = dir.path().join("cut.csv");
    std::fs::write(&cut, &text[..text.len() - 40]).unwrap();
    refused(
        &[&p[0], &cut, &p[2]],
        "cut.csv, line 574: the part ends in the middle of its last line",
    );
}

/// The lines of a part, each with its `\n`.
fn lines(path: &Path) -> Vec<Vec<u8>> {
    let bytes = std::fs::read(path).unwrap();
    bytes.split_inclusive(|&b| b == b'\n').map(<[u8]>::to_vec).collect()
}

fn write_lines(path: &Path, lines: &[Vec<u8>]) {
    std::fs::write(path, lines.concat()).unwrap();
}

#[test]
fn a_part_ends_with_the_count_and_sha256_of_its_rows() {
    let dir = tempfile::tempdir().unwrap();
    let p = parts(dir.path(), 3, &[]);
    let lines = lines(&p[1]);
    assert_eq!(lines.len(), 6 + 567 + 1);
    let digest = Sha256::digest(lines[6..573].concat());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    let last = String::from_utf8(lines[573].clone()).unwrap();
    assert_eq!(last, format!("# end of part 2/3: 567 rows, sha256 {hex}\n"));
}

#[test]
fn merge_takes_one_part_on_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    let whole = sweep_to(dir.path(), "whole.csv", &[], &[]);
    let p = parts(dir.path(), 3, &[]);
    let out = dir.path().join("merged.csv");
    let second = std::fs::read_to_string(&p[1]).unwrap();
    let args = ["merge", p[0].to_str().unwrap(), "-", p[2].to_str().unwrap()];
    let args: Vec<&str> = args.into_iter().chain(["--out", out.to_str().unwrap()]).collect();
    let Run { status, stderr, .. } = run_with_stdin(&args, &second);
    assert_eq!(status, 0, "{stderr}");
    assert_eq!(std::fs::read(&out).unwrap(), whole);
}

/// A change to a part's lines.
type Edit<'a> = dyn Fn(&mut Vec<Vec<u8>>) + 'a;

/// Part 2 of 3 of the CI sweep (rows on lines 7 to 573, its last line 574) changed by
/// `edit`, merged with parts 1 and 3: refused, naming the part and `line`.
fn refused_with(dir: &Path, p: &[PathBuf], name: &str, edit: &Edit, needle: &str) {
    let mut part = lines(&p[1]);
    edit(&mut part);
    let tampered = dir.join(name);
    write_lines(&tampered, &part);
    let out = dir.join("merged.csv");
    let Run { status, stderr, stdout } = merge(&[&p[0], &tampered, &p[2]], &out);
    assert_eq!((status, stdout.as_str()), (2, ""), "{name}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{name}: {stderr}");
    let expected = format!("{}{needle}", tampered.display());
    assert!(stderr.contains(&expected), "{name}: expected '{expected}' in: {stderr}");
    assert!(!out.exists(), "{name}");
}

/// Replaces `from` by `to` in a line.
fn replaced(line: &[u8], from: &str, to: &[u8]) -> Vec<u8> {
    let at = line.windows(from.len()).position(|w| w == from.as_bytes()).expect(from);
    [&line[..at], to, &line[at + from.len()..]].concat()
}

#[test]
fn merge_refuses_a_tampered_part_naming_the_part_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let p = parts(dir.path(), 3, &[]);
    let rows = |part: &[Vec<u8>]| String::from_utf8(part[6..9].concat()).unwrap();
    assert!(
        rows(&lines(&p[1])).starts_with("\"subtract:2,3,5\",1,31,normal,xor,32,"),
        "{}",
        rows(&lines(&p[1]))
    );
    let cases: Vec<(&str, Box<Edit<'static>>, &str)> = vec![
        ("blank-inside.csv", Box::new(|l| l.insert(8, b"\n".to_vec())), ", line 9: a blank line"),
        (
            "blank-after.csv",
            Box::new(|l| l.push(b"\n".to_vec())),
            ", line 575: text after the part's last line",
        ),
        (
            "row-deleted.csv",
            Box::new(|l| {
                l.remove(8);
                l[0] = replaced(&l[0], "567 rows", b"566 rows");
                l[572] = replaced(&l[572], "567 rows", b"566 rows");
            }),
            ", line 1: it announces 566 rows, but its 21 games have 567 (27 each)",
        ),
        (
            "rows-swapped.csv",
            Box::new(|l| l.swap(8, 9)),
            ", line 9: heaps, max, rule, criterion are ",
        ),
        (
            "row-duplicated.csv",
            Box::new(|l| {
                let row = l[8].clone();
                l.insert(9, row);
            }),
            ", line 10: heaps, max, rule, criterion are ",
        ),
        (
            "value-edited.csv",
            Box::new(|l| l[6] = replaced(&l[6], ",32,", b",33,")),
            ", line 7: 33 positions where the space has 32",
        ),
        (
            "counts-edited.csv",
            // Still adding up: only the digest tells.
            Box::new(|l| {
                let row = String::from_utf8(l[8].clone()).unwrap();
                let cells: Vec<&str> = row.trim_end().rsplitn(4, ',').collect();
                let (agree, disagree): (u64, u64) =
                    (cells[2].parse().unwrap(), cells[1].parse().unwrap());
                let from = format!(",{agree},{disagree},");
                let to = format!(",{},{},", agree + 1, disagree - 1);
                assert!(disagree > 0, "{row}");
                l[8] = replaced(&l[8], &from, to.as_bytes());
            }),
            ", line 574: the rows do not have the SHA-256 the part's last line records",
        ),
        (
            "game-renamed.csv",
            Box::new(|l| {
                for line in &mut l[6..33] {
                    *line = replaced(line, "subtract:2,3,5\"", b"subtract:2,3,7\"");
                }
            }),
            ", line 574: the rows do not have the SHA-256 the part's last line records",
        ),
        (
            "nul.csv",
            Box::new(|l| l[8] = replaced(&l[8], "2,3,5", b"2,\x003,5")),
            ", line 9: a control character",
        ),
        (
            "escape.csv",
            Box::new(|l| l[8] = replaced(&l[8], "normal", b"\x1b[31mnormal")),
            ", line 9: a control character",
        ),
        (
            "not-utf8.csv",
            Box::new(|l| l[8] = replaced(&l[8], "normal", b"norm\xffal")),
            ", line 9: not UTF-8 text",
        ),
        (
            "quoted.csv",
            Box::new(|l| l[8] = replaced(&l[8], ",normal,", b",\"normal\",")),
            ", line 9: the row is not spelled as the sweep writes it",
        ),
    ];
    for (name, edit, needle) in &cases {
        refused_with(dir.path(), &p, name, edit.as_ref(), needle);
    }
}

#[test]
fn merge_refuses_the_rows_of_another_sweep_under_a_parts_head() {
    let dir = tempfile::tempdir().unwrap();
    let p = parts(dir.path(), 3, &[]);
    // The same sweep to max 32: its shard 2/3 has as many rows, one heap size more.
    let other = dir.path().join("other");
    std::fs::create_dir(&other).unwrap();
    let out = other.join("p.csv");
    let args = ["sweep", "--games", "subtract:subsets(1..=6)", "--heaps", "1..=3", "--max", "32"];
    let args = args.into_iter().chain(["--shard", "2/3", "--out", out.to_str().unwrap()]);
    let Run { status, stderr, .. } = run(&args.collect::<Vec<_>>());
    assert_eq!(status, 0, "{stderr}");
    let foreign = lines(&other.join("p.csv"));
    let head_only =
        |l: &mut Vec<Vec<u8>>| l.splice(6.., foreign[6..].iter().cloned()).for_each(drop);
    refused_with(
        dir.path(),
        &p,
        "max-32-rows.csv",
        &head_only,
        ", line 7: heaps, max, rule, criterion are 1,32,",
    );
    let keep_last = |l: &mut Vec<Vec<u8>>| {
        let last = l[573].clone();
        l.splice(6..573, foreign[6..573].iter().cloned()).for_each(drop);
        l[573] = last;
    };
    refused_with(
        dir.path(),
        &p,
        "max-32-rows-2.csv",
        &keep_last,
        ", line 7: heaps, max, rule, criterion are 1,32,",
    );
}

#[test]
fn rows_rewritten_with_their_digest_do_not_give_the_sweeps_fingerprint() {
    let dir = tempfile::tempdir().unwrap();
    let p = parts(dir.path(), 3, &[]);
    let mut part = lines(&p[1]);
    for line in &mut part[6..33] {
        *line = replaced(line, "subtract:2,3,5\"", b"subtract:2,3,7\"");
    }
    let hex: String =
        Sha256::digest(part[6..573].concat()).iter().map(|b| format!("{b:02x}")).collect();
    part[573] = format!("# end of part 2/3: 567 rows, sha256 {hex}\n").into_bytes();
    let tampered = dir.path().join("rewritten.csv");
    write_lines(&tampered, &part);
    let out = dir.path().join("merged.csv");
    let Run { status, stderr, .. } = merge(&[&p[0], &tampered, &p[2]], &out);
    assert_eq!(status, 2, "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("the games in the rows of the 3 parts are not those of sweep "),
        "{stderr}"
    );
    assert!(!out.exists());
}

#[test]
fn parts_that_disagree_on_the_sweeps_games_or_parts_are_named_with_both_figures() {
    let dir = tempfile::tempdir().unwrap();
    let p = parts(dir.path(), 3, &[]);
    let fingerprint = |path: &Path| {
        let head = String::from_utf8(lines(path)[0].clone()).unwrap();
        head.split_whitespace().nth(3).unwrap().to_string()
    };
    let sweep = fingerprint(&p[0]);
    // Part 2's head says the sweep has 64 games; parts 1 and 3 say 63.
    let mut part = lines(&p[1]);
    part[0] = replaced(&part[0], "of 63,", b"of 64,");
    let edited = dir.path().join("edited.csv");
    write_lines(&edited, &part);
    let out = dir.path().join("merged.csv");
    let expected = format!(
        "nimtab: error: {}, part 2/3, says the sweep has 64 games; the other parts say 63\n",
        edited.display()
    );
    // Whichever part comes first.
    let (p0, p2) = (p[0].as_path(), p[2].as_path());
    for order in [[p0, &edited, p2], [&edited, p0, p2]] {
        let Run { status, stderr, .. } = merge(&order, &out);
        assert_eq!((status, stderr.as_str()), (2, expected.as_str()));
        assert!(!out.exists());
    }
    // Between two parts, the first one given is taken as the sweep's.
    let Run { stderr, .. } = merge(&[&p[0], &edited], &out);
    let named = format!("{}, part 2/3, says the sweep has 64 games", edited.display());
    assert!(stderr.contains(&named), "{stderr}");
    assert!(stderr.ends_with(&format!("; {} says 63\n", p[0].display())), "{stderr}");
    // A part of the same sweep cut into 4 parts.
    let other = dir.path().join("four");
    std::fs::create_dir(&other).unwrap();
    let four = parts(&other, 4, &[]);
    assert_eq!(fingerprint(&four[1]), sweep, "the same sweep");
    let Run { status, stderr, .. } = merge(&[&p[0], &four[1], &p[2]], &out);
    let expected = format!(
        "nimtab: error: {}, part 2/4, says the sweep has 4 parts; the other parts say 3\n",
        four[1].display()
    );
    assert_eq!((status, stderr.as_str()), (2, expected.as_str()));
}
