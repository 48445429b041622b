//! `sweep` and `merge`: rows equal a loop of `verify` runs, bytes do not depend on the
//! thread count, shards merge back to the unsharded bytes, and bad families, parts and
//! merges are refused with one line.

use std::path::{Path, PathBuf};

use nimtab::analysis::claim::test_claim;
use nimtab::analysis::expr::Expr;
use nimtab::sweep::{
    summarize, write_csv, Family, FamilyLimit, Sweep, SweepSpace, Test, BATCH_GAMES,
};
use nimtab::{Criterion, Ending, Engine, Game, Mode, NoProgress, Space};

use crate::support::cli::{run, Run};
use crate::support::with_threads;

/// The tuple space of `n` heaps whose sizes the Grundy values `grundy` cover.
fn tuples(n: usize, grundy: &[u32]) -> Space {
    Space::new(n, grundy.len() as u32 - 1).unwrap()
}

/// The sweep CI pins: every subtraction set of 1..=6, 1 to 3 heaps of at most 31.
const SUBSETS: &str = "subtract:subsets(1..=6)";

fn sweep_args<'a>(out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args =
        vec!["sweep", "--games", SUBSETS, "--heaps", "1..=3", "--max", "31", "--out", out];
    args.extend_from_slice(extra);
    args
}

/// Runs `nimtab [global...] sweep ... --out DIR/NAME` and returns the file's bytes.
pub(crate) fn sweep_to(dir: &Path, name: &str, global: &[&str], extra: &[&str]) -> Vec<u8> {
    let out = dir.join(name);
    let out_text = out.to_str().unwrap();
    let args: Vec<&str> = global.iter().copied().chain(sweep_args(out_text, extra)).collect();
    let Run { status, stderr, .. } = run(&args);
    assert_eq!(status, 0, "{args:?}: {stderr}");
    std::fs::read(&out).unwrap()
}

#[test]
fn sweep_equals_a_loop_of_verify_runs_row_for_row() {
    let dir = tempfile::tempdir().unwrap();
    let swept = String::from_utf8(sweep_to(dir.path(), "sweep.csv", &[], &[])).unwrap();
    let specs = Family::parse(SUBSETS, FamilyLimit::Usual).unwrap().specs().to_vec();
    assert_eq!(specs.len(), 63);
    let mut looped = Vec::new();
    for spec in &specs {
        let Run { status, stderr, .. } = run(&[
            "verify",
            "--game",
            spec,
            "--heaps",
            "1..=3",
            "--max",
            "31",
            "--out",
            dir.path().to_str().unwrap(),
        ]);
        assert_eq!(status, 0, "{spec}: {stderr}");
        let summary = std::fs::read_to_string(dir.path().join("summary.csv")).unwrap();
        let mut lines = summary.lines();
        let header = lines.next().unwrap();
        if looped.is_empty() {
            looped.push(header.to_string());
        }
        looped.extend(lines.map(str::to_string));
    }
    let swept: Vec<&str> = swept.lines().collect();
    assert_eq!(swept.len(), 1 + 63 * 3 * 3 * 3);
    assert_eq!(swept, looped);
}

#[test]
fn one_and_two_threads_write_identical_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let one = sweep_to(dir.path(), "one.csv", &["--threads", "1"], &[]);
    let two = sweep_to(dir.path(), "two.csv", &["--threads", "2"], &[]);
    assert!(!one.is_empty());
    assert_eq!(one, two);
    let claim = ["--rules", "misere", "--claim-p", "gxor == 0"];
    let one = sweep_to(dir.path(), "c1.csv", &["--threads", "1"], &claim);
    let two = sweep_to(dir.path(), "c2.csv", &["--threads", "2"], &claim);
    assert_eq!(one, two);
}

/// Writes shards `1/N..=N/N` of the CI sweep and returns their paths.
pub(crate) fn parts(dir: &Path, n: usize, extra: &[&str]) -> Vec<PathBuf> {
    (1..=n)
        .map(|i| {
            let shard = format!("{i}/{n}");
            let mut args = vec!["--shard", shard.as_str()];
            args.extend_from_slice(extra);
            sweep_to(dir, &format!("part-{i}-of-{n}.csv"), &[], &args);
            dir.join(format!("part-{i}-of-{n}.csv"))
        })
        .collect()
}

pub(crate) fn merge(parts: &[&Path], out: &Path) -> Run {
    let mut args = vec!["merge".to_string()];
    args.extend(parts.iter().map(|p| p.to_str().unwrap().to_string()));
    args.extend(["--out".to_string(), out.to_str().unwrap().to_string()]);
    run(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

#[test]
fn bad_families_are_refused_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, "# no games\n\n").unwrap();
    let base = ["sweep", "--heaps", "2", "--max", "7"];
    for (family, message) in [
        (vec!["--games", "subtract:subsets(1..=0)"], "bad family 'subtract:subsets(1..=0)'"),
        (vec!["--games", "nim;;nim"], "item 2 of the ';' list is empty"),
        (
            vec!["--games", "subtract:subsets(1..=14)"],
            "16383 games, above the limit of 10000; use --force",
        ),
        (vec!["--games-file", empty.to_str().unwrap()], "empty.txt has no games"),
        (vec!["--games", "nim;octal:0.18"], "game 2 of the family: bad octal code in 'octal:0.18'"),
        (vec!["--games", "nim;octal:0.17"], "game 2 of the family: octal:0.17 can split a heap"),
        (vec!["--games", "octal:0.??"], "game 4 of the family: octal:0.04 can split a heap"),
        (vec!["--games", "octal(0)"], "K in octal(K) must be a positive integer"),
        (vec!["--games", "octal(5)"], "65535 games, above the limit of 10000; use --force"),
        (vec!["--games", "nim", "--shard", "4/3"], "shard '4/3' must be I/N with 1 <= I <= N"),
        (vec!["--games", "nim", "--criteria", "xor", "--claim-p", "xor == 0"], "cannot be used"),
        (vec!["--games", "nim", "--claim-p", "h3 == 0"], "h3 names heap 3"),
        (vec!["--games", "nim", "--total", "8"], "cannot be used with"),
    ] {
        let args: Vec<&str> = base.iter().copied().chain(family.iter().copied()).collect();
        let Run { status, stderr, stdout } = run(&args);
        assert_eq!(status, 2, "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: expected '{message}' in: {stderr}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
        if !message.contains("heap 3") {
            assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        }
    }
}

#[test]
fn a_games_file_with_comments_and_strict_mode() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.txt");
    std::fs::write(&file, "# three games\nnim\nsubtract:1,3,4  # the classic\n\nsubtract:2,3\n")
        .unwrap();
    let r = run(&[
        "sweep",
        "--games-file",
        file.to_str().unwrap(),
        "--heaps",
        "1..=2",
        "--max",
        "15",
        "--rules",
        "misere",
        "--criteria",
        "anti-nim,sj",
        "--strict",
    ]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    let rows: Vec<&str> = r.stdout.lines().skip(1).collect();
    assert_eq!(rows.len(), 3 * 2 * 2, "{}", r.stdout);
    assert!(rows[0].starts_with("nim,1,15,misere,anti-nim,"), "{rows:?}");
    assert!(rows[11].starts_with("\"subtract:2,3\",2,15,misere,sj,"), "{rows:?}");
    assert!(r.stdout.contains("\"subtract:1,3,4\",2,15,misere,anti-nim,256,"), "{}", r.stdout);
    // The summary goes to stderr when the CSV has stdout: nim holds Anti-Nim, the
    // subtraction games do not.
    assert!(r.stderr.contains("misere  anti-nim       3     1     2\n"), "{}", r.stderr);
}

fn subsets_sweep(test: Test) -> Sweep {
    let family = Family::parse("subtract:subsets(1..=4)", FamilyLimit::Usual).unwrap();
    let space = SweepSpace::heaps(1, 3, 12, Mode::Full).unwrap();
    Sweep::new(family, space, &[Ending::Misere, Ending::Sj], test).unwrap()
}

#[test]
fn library_rows_do_not_depend_on_threads_and_claims_match_check() {
    // The SJ criterion as a claim: it holds under the SJ ending for every game.
    let claim = Expr::parse_claim("(gmax > 1 && gxor == 0) || (gmax <= 1 && gxor != 0)").unwrap();
    let sweep = subsets_sweep(Test::Claim(claim.clone()));
    let rows = with_threads(1, || sweep.run(0..15, 1 << 30, &NoProgress).unwrap());
    let parallel = with_threads(2, || sweep.run(0..15, 1 << 30, &NoProgress).unwrap());
    assert_eq!(rows, parallel);
    assert_eq!(rows.len(), 15 * 3 * 2);
    let mut i = 0;
    for spec in Family::parse("subtract:subsets(1..=4)", FamilyLimit::Usual).unwrap().specs() {
        let game = Game::parse(spec).unwrap();
        for n in 1..=3 {
            let engine = Engine::new(&game, Space::new(n, 12).unwrap());
            let program = claim.compile(&tuples(n, &game.grundy(12)), &game.grundy(12)).unwrap();
            for ending in [Ending::Misere, Ending::Sj] {
                let tally = test_claim(&engine, ending, &program, 1, &NoProgress).unwrap();
                assert_eq!((rows[i].game.as_str(), rows[i].heaps), (spec.as_str(), n));
                assert_eq!(rows[i].tally, tally, "{spec} {n} {ending}");
                i += 1;
            }
        }
    }
    let lines = summarize(&rows);
    assert_eq!(lines.len(), 2);
    assert_eq!((lines[1].ending, lines[1].games, lines[1].fail), (Ending::Sj, 15, 0));
}

#[test]
fn a_claim_that_cannot_be_evaluated_names_the_game() {
    let sweep = subsets_sweep(Test::Claim(Expr::parse_claim("h1 / gxor == 1").unwrap()));
    let err = sweep.run(0..3, 1 << 30, &NoProgress).unwrap_err().to_string();
    assert_eq!(err, "game subtract:1: division by zero at position (0)");
    let criteria = subsets_sweep(Test::Criteria(vec![Criterion::Sj]));
    // Equal weights: game 7 of 15 sits exactly at the middle and opens the second half.
    assert_eq!(criteria.shard_games(nimtab::sweep::Shard::new(2, 2).unwrap()), 7..15);
}

#[test]
fn batches_write_the_bytes_of_one_run_and_an_error_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("big.csv");
    let family = "subtract:subsets(1..=11)";
    let small = ["--heaps", "1", "--max", "3", "--rules", "misere", "--criteria", "sj"];
    let mut args = vec!["sweep", "--games", family, "--out", out.to_str().unwrap()];
    args.extend(small);
    let r = run(&args);
    assert_eq!(r.status, 0, "{}", r.stderr);
    let sweep = Sweep::new(
        Family::parse(family, FamilyLimit::Usual).unwrap(),
        SweepSpace::heaps(1, 1, 3, Mode::Full).unwrap(),
        &[Ending::Misere],
        Test::Criteria(vec![Criterion::Sj]),
    )
    .unwrap();
    assert!(sweep.games() > BATCH_GAMES, "the family spans two batches");
    let mut expected = Vec::new();
    write_csv(&mut expected, &sweep.run(0..sweep.games(), 1 << 30, &NoProgress).unwrap()).unwrap();
    assert_eq!(std::fs::read(&out).unwrap(), expected);
    // A claim that cannot be evaluated stops the sweep: status 2, one line, no file.
    std::fs::remove_file(&out).unwrap();
    let claim = ["--rules", "misere", "--claim-p", "h1 / gxor == 1"];
    let r = run(&[
        "sweep",
        "--games",
        family,
        "--heaps",
        "1",
        "--max",
        "3",
        "--out",
        out.to_str().unwrap(),
    ]
    .into_iter()
    .chain(claim)
    .collect::<Vec<_>>());
    assert_eq!(r.status, 2, "{}", r.stderr);
    assert_eq!(r.stderr, "nimtab: error: game subtract:1: division by zero at position (0)\n");
    assert!(!out.exists());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "no temporary file left");
}

/// The multiset family the `--total` tests sweep: every `octal:0.D7`, Kayles among them,
/// most of which split heaps.
const SPLITTING: &str = "octal:0.?7";

/// Runs `nimtab sweep --games SPLITTING --total 12 ... --out DIR/NAME`, returns its bytes.
fn total_sweep_to(dir: &Path, name: &str, extra: &[&str]) -> Vec<u8> {
    let out = dir.join(name);
    let mut args = vec!["sweep", "--games", SPLITTING, "--total", "12"];
    args.extend_from_slice(extra);
    args.extend(["--out", out.to_str().unwrap()]);
    let Run { status, stderr, .. } = run(&args);
    assert_eq!(status, 0, "{args:?}: {stderr}");
    std::fs::read(&out).unwrap()
}

#[test]
fn a_total_sweep_equals_a_loop_of_verify_total_runs_row_for_row() {
    let dir = tempfile::tempdir().unwrap();
    let swept = String::from_utf8(total_sweep_to(dir.path(), "sweep.csv", &[])).unwrap();
    let specs = Family::parse(SPLITTING, FamilyLimit::Usual).unwrap().specs().to_vec();
    assert_eq!(specs.len(), 8);
    assert!(specs.iter().any(|s| Game::parse(s).unwrap().splits()), "{specs:?}");
    let mut looped = Vec::new();
    for spec in &specs {
        let out = dir.path().to_str().unwrap();
        let Run { status, stderr, .. } =
            run(&["verify", "--game", spec, "--total", "12", "--out", out]);
        assert_eq!(status, 0, "{spec}: {stderr}");
        let summary = std::fs::read_to_string(dir.path().join("summary.csv")).unwrap();
        let mut lines = summary.lines();
        let header = lines.next().unwrap();
        if looped.is_empty() {
            looped.push(header.to_string());
        }
        looped.extend(lines.map(str::to_string));
    }
    let swept: Vec<&str> = swept.lines().collect();
    assert_eq!(swept.len(), 1 + 8 * 3 * 3);
    assert_eq!(swept, looped);
    assert!(swept[1].starts_with("octal:0.07,any,total<=12,normal,xor,"), "{}", swept[1]);
    // Kayles under misère play: Anti-Nim's rule on Grundy values fails, SJ's too.
    let kayles_misere_sj =
        swept.iter().find(|r| r.starts_with("octal:0.77,any,total<=12,misere,sj,"));
    let cells: Vec<&str> = kayles_misere_sj.unwrap().split(',').collect();
    assert_ne!(cells[8], "0", "{cells:?}");
}

#[test]
fn total_sweeps_do_not_depend_on_threads_and_shards_merge_back() {
    let dir = tempfile::tempdir().unwrap();
    let whole = total_sweep_to(dir.path(), "whole.csv", &[]);
    // A claim, on one thread and on two.
    let claim = ["--rules", "misere", "--claim-p", "gxor == 0"];
    let claimed: Vec<Vec<u8>> = ["1", "2"]
        .into_iter()
        .map(|threads| {
            let out = dir.path().join(format!("claim-{threads}.csv"));
            let mut args = vec!["--threads", threads, "sweep", "--games", SPLITTING];
            args.extend(["--total", "12", "--out", out.to_str().unwrap()]);
            args.extend(claim);
            let Run { status, stderr, .. } = run(&args);
            assert_eq!(status, 0, "{stderr}");
            std::fs::read(&out).unwrap()
        })
        .collect();
    assert_eq!(claimed[0], claimed[1]);
    assert_eq!(String::from_utf8_lossy(&claimed[0]).lines().count(), 1 + 8);
    let parts: Vec<PathBuf> = (1..=3)
        .map(|i| {
            let name = format!("part-{i}.csv");
            total_sweep_to(dir.path(), &name, &["--shard", &format!("{i}/3")]);
            dir.path().join(name)
        })
        .collect();
    let head = std::fs::read_to_string(&parts[0]).unwrap();
    assert_eq!(head.lines().nth(2), Some("# space multisets of total<=12"), "{head}");
    let out = dir.path().join("merged.csv");
    let Run { status, stderr, .. } = merge(&[&parts[1], &parts[2], &parts[0]], &out);
    assert_eq!(status, 0, "{stderr}");
    assert_eq!(std::fs::read(&out).unwrap(), whole);
    // The same family over another total is another sweep: its parts do not mix.
    let other = dir.path().join("other");
    std::fs::create_dir(&other).unwrap();
    let foreign = other.join("part-2.csv");
    let mut args = vec!["sweep", "--games", SPLITTING, "--total", "11", "--shard", "2/3"];
    args.extend(["--out", foreign.to_str().unwrap()]);
    assert_eq!(run(&args).status, 0);
    let Run { status, stderr, .. } = merge(&[&parts[0], &foreign, &parts[2]], &out);
    assert_eq!(status, 2, "{stderr}");
    assert!(stderr.contains("is part 2/3 of sweep "), "{stderr}");
}

#[test]
fn a_total_sweep_refuses_games_that_are_not_sums_and_tuple_criteria() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("refused.csv");
    for (extra, message) in [
        (vec!["--games", "octal:0.77;wythoff"], "game 2 of the family: a space of multisets"),
        (vec!["--games", "nim;moore:2"], "moore:2 is not one"),
        (vec!["--games", "circular:2"], "circular:2 is not one"),
        (vec!["--games", "nim", "--criteria", "moore"], "criterion moore does not apply"),
        (vec!["--games", "nim", "--claim-p", "h13 == 0"], "h13 names heap 13"),
        (vec!["--games", "nim", "--heaps", "2"], "cannot be used with"),
        (vec!["--games", "nim", "--canonical"], "cannot be used with"),
    ] {
        let mut args = vec!["sweep", "--total", "12", "--out", out.to_str().unwrap()];
        args.extend(extra);
        let Run { status, stderr, stdout } = run(&args);
        assert_eq!(status, 2, "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: expected '{message}' in: {stderr}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
        if !message.contains("heap 13") {
            assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        }
        assert!(!out.exists());
    }
    // Too large for any memory: refused before any work, naming the space and the flag.
    let args = ["sweep", "--games", "nim;octal:0.77", "--total", "300"];
    let Run { status, stderr, .. } = run(&args);
    assert_eq!(status, 2, "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("space too large: nim, every multiset of heaps of total at most 300"));
    assert!(stderr.contains("lower --total"), "{stderr}");
}

#[test]
fn library_total_rows_match_verify_of_the_multiset_space() {
    use nimtab::analysis::verify::verify;
    use nimtab::{Engine, Space};
    let family = Family::parse("nim;octal:0.77;grundys-game", FamilyLimit::Usual).unwrap();
    let endings = [Ending::Misere, Ending::Sj];
    let criteria = vec![Criterion::Sj, Criterion::Xor];
    let test = Test::Criteria(criteria.clone());
    let sweep = Sweep::new(family, SweepSpace::total(14).unwrap(), &endings, test).unwrap();
    assert_eq!(sweep.rows_per_game(), 4);
    let rows = with_threads(2, || sweep.run(0..3, 1 << 30, &NoProgress).unwrap());
    let serial = with_threads(1, || sweep.run(0..3, 1 << 30, &NoProgress).unwrap());
    assert_eq!(rows, serial);
    for (g, spec) in ["nim", "octal:0.77", "grundys-game"].into_iter().enumerate() {
        let game = Game::parse(spec).unwrap();
        let engine = Engine::new(&game, Space::multisets(14).unwrap());
        let run = verify(&engine, &endings, &criteria, 1, &NoProgress).unwrap();
        for (i, f) in run.findings.iter().enumerate() {
            let row = &rows[g * 4 + i];
            assert_eq!((row.game.as_str(), row.total, row.ending), (spec, Some(14), f.ending));
            assert_eq!(row.tally, f.tally, "{spec} {}", f.ending);
        }
    }
    assert_eq!(rows[0].space_cells(), ["any".to_string(), "total<=14".to_string()]);
}
