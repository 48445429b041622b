//! `verify` and the default suite: theorems hold, known failures are found, counts match a
//! brute-force count, golden files, and the regeneration check.

use nimtab::verify::{verify_space, Finding};
use nimtab::{Criterion, Engine, Game, NoProgress, Rule, Space};
use proptest::prelude::*;

use crate::helpers::{all_tuples, both, random_graph, run, RULES};
use crate::reference::{RefGame, Reference};

fn findings(game: &Game, n: usize, max: u32, rule: Rule, canonical: bool) -> Vec<Finding> {
    findings_limited(game, n, max, rule, canonical, 20)
}

fn findings_limited(
    game: &Game,
    n: usize,
    max: u32,
    rule: Rule,
    canonical: bool,
    limit: usize,
) -> Vec<Finding> {
    let engine = Engine::new(game, Space::new(n, max).unwrap(), canonical);
    verify_space(&engine, game, rule, &Criterion::ALL, limit, &NoProgress)
}

fn disagreements(game: &Game, n: usize, max: u32, rule: Rule, criterion: Criterion) -> u64 {
    let all = findings(game, n, max, rule, false);
    all.iter().find(|f| f.criterion == criterion).unwrap().disagree
}

#[test]
fn theorems_hold_for_nim_up_to_five_heaps() {
    let nim = Game::nim();
    for (n, max) in [(1, 63), (2, 63), (3, 63), (4, 31), (5, 15)] {
        assert_eq!(disagreements(&nim, n, max, Rule::Normal, Criterion::Xor), 0);
        assert_eq!(disagreements(&nim, n, max, Rule::Misere, Criterion::AntiNim), 0);
        assert_eq!(disagreements(&nim, n, max, Rule::Sj, Criterion::Sj), 0);
    }
}

#[test]
fn theorems_hold_for_subtraction_games() {
    for set in [&[1, 2][..], &[1, 3, 4], &[2, 3, 5], &[3, 4, 9], &[1, 2, 3, 4, 5, 6, 7]] {
        let game = Game::subtract(set).unwrap();
        for n in 1..=3 {
            assert_eq!(disagreements(&game, n, 50, Rule::Normal, Criterion::Xor), 0, "{set:?}");
            assert_eq!(disagreements(&game, n, 50, Rule::Sj, Criterion::Sj), 0, "{set:?}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn sj_theorem_holds_on_random_move_graphs_under_the_sj_rule(
        (pairs, max) in random_graph(),
        n in 1usize..=3,
    ) {
        let game = Game::graph("graph:random", &pairs).unwrap();
        prop_assert_eq!(disagreements(&game, n, max, Rule::Sj, Criterion::Sj), 0);
        prop_assert_eq!(disagreements(&game, n, max, Rule::Normal, Criterion::Xor), 0);
    }
}

#[test]
fn sj_fails_under_plain_misere_on_the_theory_graph_at_heap_three() {
    let game = Game::parse("graph:data/graphs/sj-counterexample.csv").unwrap();
    let one = findings(&game, 1, 3, Rule::Misere, false);
    let sj = one.iter().find(|f| f.criterion == Criterion::Sj).unwrap();
    assert_eq!(sj.disagree, 1);
    assert_eq!(sj.counterexamples[0].position, vec![3]);
    assert!(sj.counterexamples[0].dp_is_p, "misère labels heap 3 P; SJ predicts N");
    let under_sj_rule = findings(&game, 3, 3, Rule::Sj, false);
    assert_eq!(under_sj_rule.iter().find(|f| f.criterion == Criterion::Sj).unwrap().disagree, 0);
}

#[test]
fn anti_nim_fails_for_subtract_one_two() {
    let game = Game::subtract(&[1, 2]).unwrap();
    let one = findings(&game, 1, 10, Rule::Misere, false);
    let anti = one.iter().find(|f| f.criterion == Criterion::AntiNim).unwrap();
    // Heap 4 reaches only 3 and 2, both N under misère, so it is P; Anti-Nim says N.
    assert_eq!(anti.counterexamples[0].position, vec![4]);
    assert!(anti.counterexamples[0].dp_is_p);
    assert!(anti.disagree > 0);
}

/// Counts disagreements position by position with the reference solver and the plain
/// per-position criteria, and compares with the streaming verifier (both modes).
#[test]
fn verify_counts_equal_a_brute_force_count() {
    let games = [RefGame::Nim, RefGame::Subtract(vec![1, 3, 4]), RefGame::Subtract(vec![2, 5])];
    // Rows of one word and a roomy limit; rows of three words and a limit that fills up
    // in the first row (counting must still reach the row's last word).
    for (game, n, max, limit) in
        games.iter().flat_map(|g| [(g.clone(), 3, 12, 20), (g.clone(), 2, 150, 3)])
    {
        let engine_game = both(&game);
        let grundy = engine_game.grundy(max);
        for (rule, ref_rule) in RULES {
            let mut reference = Reference::new(game.clone(), ref_rule);
            for canonical in [false, true] {
                let found = findings_limited(&engine_game, n, max, rule, canonical, limit);
                for f in &found {
                    let mut positions = 0;
                    let mut disagree = 0;
                    let mut first = Vec::new();
                    for t in all_tuples(n, max) {
                        if canonical && !t.windows(2).all(|w| w[0] <= w[1]) {
                            continue;
                        }
                        positions += 1;
                        if reference.is_p(&t) != f.criterion.predicts_p(&t, &grundy) {
                            disagree += 1;
                            if first.len() < limit {
                                first.push(t.clone());
                            }
                        }
                    }
                    let kept: Vec<Vec<u32>> =
                        f.counterexamples.iter().map(|c| c.position.clone()).collect();
                    assert_eq!(f.positions, positions, "{game:?} {rule} {}", f.criterion);
                    assert_eq!(f.disagree, disagree, "{game:?} {rule} {}", f.criterion);
                    assert_eq!(kept, first, "{game:?} {rule} {} {canonical}", f.criterion);
                }
            }
        }
    }
}

#[test]
fn verify_output_files_match_the_golden_files() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let (code, _, err) = run(&[
        "verify",
        "--game",
        "subtract:1,2",
        "--heaps",
        "1..=2",
        "--max",
        "7",
        "--limit",
        "3",
        "--out",
        out,
    ]);
    assert_eq!(code, 0, "{err}");
    for name in ["summary.csv", "counterexamples.csv"] {
        let got = std::fs::read_to_string(dir.path().join(name)).unwrap();
        let want = std::fs::read_to_string(format!("tests/data/verify-small/{name}")).unwrap();
        assert_eq!(got, want, "{name}");
    }
}

#[test]
fn bad_verify_inputs_exit_2_with_one_line() {
    let base = ["verify", "--game", "nim", "--max", "3"];
    let cases: [(&[&str], &str); 6] = [
        (&["--heaps", "3..=2"], "the range is empty"),
        (&["--heaps", "0..=2"], "heap counts start at 1"),
        (&["--heaps", "2", "--criteria", "xor,magic"], "unknown criterion 'magic'"),
        (&["--heaps", "2", "--rules", "normal,chess"], "unknown rule 'chess'"),
        (&["--heaps", "2", "--limit", "0"], "--limit must be a positive integer, got '0'"),
        (&["--heaps", "2", "--out", "/no/such/dir"], "/no/such/dir"),
    ];
    for (extra, needle) in cases {
        let args = [&base[..], extra].concat();
        let (code, _, err) = run(&args);
        assert_eq!(code, 2, "{args:?}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn strict_verify_succeeds_when_theorems_hold() {
    let (code, out, _) =
        run(&["verify", "--game", "nim", "--heaps", "1..=3", "--max", "15", "--strict"]);
    assert_eq!(code, 0);
    assert!(out.contains("nim       3   15  normal  xor"), "{out}");
}

#[test]
fn canonical_verify_says_so() {
    let (code, out, err) =
        run(&["verify", "--game", "nim", "--heaps", "3", "--max", "7", "--canonical"]);
    assert_eq!(code, 0);
    assert!(err.contains("canonical"), "{err}");
    assert!(out.starts_with("counts (canonical: sorted tuples only)"), "{out}");
    assert!(out.contains(" 120 "), "C(10,3) = 120 sorted tuples: {out}");
}

#[test]
fn regenerate_detects_a_one_byte_change_in_a_copy_of_data() {
    let copy = tempfile::tempdir().unwrap();
    let status = std::process::Command::new("cp")
        .args(["-r", "data/.", copy.path().to_str().unwrap()])
        .status()
        .unwrap();
    assert!(status.success());
    let regenerate = |dir: &std::path::Path| {
        std::process::Command::new("scripts/regenerate")
            .arg(dir)
            .env("NIMTAB_BIN", env!("CARGO_BIN_EXE_nimtab"))
            .output()
            .unwrap()
    };
    let clean = regenerate(copy.path());
    assert!(clean.status.success(), "{}", String::from_utf8_lossy(&clean.stdout));
    let target = copy.path().join("summary.csv");
    let mut bytes = std::fs::read(&target).unwrap();
    bytes[100] ^= 1;
    std::fs::write(&target, bytes).unwrap();
    let changed = regenerate(copy.path());
    assert_eq!(changed.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&changed.stdout).contains("differs: data/summary.csv"));
}

#[test]
fn findings_are_identical_with_one_and_two_threads() {
    use crate::helpers::with_threads;
    use nimtab::verify::verify_rules;
    let games = [
        Game::nim(),
        Game::subtract(&[1, 3, 4]).unwrap(),
        Game::parse("graph:data/graphs/sj-counterexample.csv").unwrap(),
    ];
    for game in &games {
        for (n, max, canonical) in [(3, 40, false), (4, 12, true), (2, 200, false)] {
            let run = || {
                let engine = Engine::new(game, Space::new(n, max).unwrap(), canonical)
                    .with_parallel_threshold(0);
                verify_rules(&engine, game, &Rule::ALL, &Criterion::ALL, 5, &NoProgress)
            };
            let one = with_threads(1, run);
            let two = with_threads(2, run);
            assert_eq!(one, two, "{} n={n} max={max} canonical={canonical}", game.spec());
        }
    }
}

#[test]
fn manifest_commands_regenerate_their_files() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    let report = dir.path().join("REPORT.md");
    let (code, _, err) = run(&[
        "--quiet",
        "suite",
        "--data-dir",
        data.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let manifest = std::fs::read_to_string(data.join("MANIFEST.csv")).unwrap();
    let mut reader = csv::Reader::from_reader(manifest.as_bytes());
    let mut checked = 0;
    for record in reader.records() {
        let record = record.unwrap();
        let (file, command) = (&record[0], &record[3]);
        let generated = std::fs::read(data.join(file.trim_start_matches("data/"))).unwrap();
        let words: Vec<&str> = command.split_whitespace().collect();
        if words.len() == 1 {
            continue; // `nimtab`: the suite itself wrote summary.csv and counterexamples.csv
        }
        let fresh = dir.path().join(format!("fresh-{}", file.rsplit('/').next().unwrap()));
        let mut args: Vec<String> = words[1..].iter().map(|w| w.to_string()).collect();
        if let Some(i) = args.iter().position(|a| a == "--out") {
            args[i + 1] = fresh.to_string_lossy().into_owned();
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, stdout, err) = run(&args);
        assert_eq!(code, 0, "{command}: {err}");
        let bytes =
            if fresh.exists() { std::fs::read(&fresh).unwrap() } else { stdout.into_bytes() };
        assert_eq!(bytes, generated, "{command} does not regenerate {file}");
        let _ = std::fs::remove_file(&fresh);
        checked += 1;
    }
    assert_eq!(checked, 11, "5 Grundy tables and 6 pictures");
}
