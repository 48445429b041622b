//! `verify`: theorems hold, known failures are found, counts match a brute-force count,
//! golden files, fused and per-ending labellings agree, and bad arguments.

use nimtab::analysis::verify::{prepare, verify, Finding};
use nimtab::{Criterion, Ending, Engine, Game, Mode, NoProgress, Space};
use proptest::prelude::*;

use crate::support::cli::run;
use crate::support::reference::{RefGame, Reference};
use crate::support::{all_tuples, engine_game, random_graph, with_threads, ENDINGS};

fn findings(game: &Game, n: usize, max: u32, ending: Ending, mode: Mode) -> Vec<Finding> {
    findings_limited(game, n, max, ending, mode, 20)
}

fn findings_limited(
    game: &Game,
    n: usize,
    max: u32,
    ending: Ending,
    mode: Mode,
    limit: usize,
) -> Vec<Finding> {
    let engine = Engine::new(game, Space::in_mode(n, max, mode).unwrap());
    let criteria = Criterion::applicable(game, n);
    verify(&engine, &[ending], &criteria, limit, &NoProgress).unwrap().findings
}

fn disagreements(game: &Game, n: usize, max: u32, ending: Ending, criterion: Criterion) -> u64 {
    let all = findings(game, n, max, ending, Mode::Full);
    all.iter().find(|f| f.criterion == Some(criterion)).unwrap().tally.disagree
}

#[test]
fn theorems_hold_for_nim_up_to_five_heaps() {
    let nim = Game::nim();
    for (n, max) in [(1, 63), (2, 63), (3, 63), (4, 31), (5, 15)] {
        assert_eq!(disagreements(&nim, n, max, Ending::Normal, Criterion::Xor), 0);
        assert_eq!(disagreements(&nim, n, max, Ending::Misere, Criterion::AntiNim), 0);
        assert_eq!(disagreements(&nim, n, max, Ending::Sj, Criterion::Sj), 0);
    }
}

#[test]
fn theorems_hold_for_subtraction_games() {
    for set in [&[1, 2][..], &[1, 3, 4], &[2, 3, 5], &[3, 4, 9], &[1, 2, 3, 4, 5, 6, 7]] {
        let game = Game::subtract(set).unwrap();
        for n in 1..=3 {
            assert_eq!(disagreements(&game, n, 50, Ending::Normal, Criterion::Xor), 0, "{set:?}");
            assert_eq!(disagreements(&game, n, 50, Ending::Sj, Criterion::Sj), 0, "{set:?}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn sj_theorem_holds_on_random_move_graphs_under_the_sj_ending(
        (pairs, max) in random_graph(),
        n in 1usize..=3,
    ) {
        let game = Game::graph("graph:random", &pairs).unwrap();
        prop_assert_eq!(disagreements(&game, n, max, Ending::Sj, Criterion::Sj), 0);
        prop_assert_eq!(disagreements(&game, n, max, Ending::Normal, Criterion::Xor), 0);
    }
}

#[test]
fn sj_fails_under_plain_misere_on_the_counterexample_graph_at_heap_three() {
    let game = Game::parse("graph:data/graphs/sj-counterexample.csv").unwrap();
    let one = findings(&game, 1, 3, Ending::Misere, Mode::Full);
    let sj = &one.iter().find(|f| f.criterion == Some(Criterion::Sj)).unwrap().tally;
    assert_eq!(sj.disagree, 1);
    assert_eq!(sj.counterexamples[0].position, vec![3]);
    assert!(sj.counterexamples[0].dp_is_p, "misère labels heap 3 P; SJ predicts N");
    let under_sj = findings(&game, 3, 3, Ending::Sj, Mode::Full);
    let sj = under_sj.iter().find(|f| f.criterion == Some(Criterion::Sj)).unwrap();
    assert_eq!(sj.tally.disagree, 0);
}

#[test]
fn anti_nim_fails_for_subtract_one_two() {
    let game = Game::subtract(&[1, 2]).unwrap();
    let one = findings(&game, 1, 10, Ending::Misere, Mode::Full);
    let anti = &one.iter().find(|f| f.criterion == Some(Criterion::AntiNim)).unwrap().tally;
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
    // in the first row (counting must still reach the row's last word); five heaps, whose
    // canonical rows are indexed plane by plane.
    let cases =
        |g: &RefGame| [(g.clone(), 3, 12, 20), (g.clone(), 2, 150, 3), (g.clone(), 5, 6, 40)];
    for (game, n, max, limit) in games.iter().flat_map(cases) {
        let engine_game = engine_game(&game);
        let grundy = engine_game.grundy(max);
        for (ending, ref_ending) in ENDINGS {
            let mut reference = Reference::new(game.clone(), ref_ending);
            for mode in [Mode::Full, Mode::Canonical] {
                let canonical = mode == Mode::Canonical;
                let found = findings_limited(&engine_game, n, max, ending, mode, limit);
                for f in &found {
                    let criterion = f.criterion.unwrap();
                    let mut positions = 0;
                    let mut disagree = 0;
                    let mut first = Vec::new();
                    for t in all_tuples(n, max) {
                        if canonical && !t.windows(2).all(|w| w[0] <= w[1]) {
                            continue;
                        }
                        positions += 1;
                        if reference.is_p(&t) != criterion.predicts_p(&engine_game, &t, &grundy) {
                            disagree += 1;
                            if first.len() < limit {
                                first.push(t.clone());
                            }
                        }
                    }
                    let kept: Vec<Vec<u32>> =
                        f.tally.counterexamples.iter().map(|c| c.position.clone()).collect();
                    assert_eq!(f.tally.positions, positions, "{game:?} {ending} {criterion}");
                    assert_eq!(f.tally.disagree, disagree, "{game:?} {ending} {criterion}");
                    assert_eq!(kept, first, "{game:?} {ending} {criterion} {canonical}");
                }
            }
        }
    }
}

#[test]
fn verify_output_files_match_the_golden_files() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let r = run(&[
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
    assert_eq!(r.status, 0, "{}", r.stderr);
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
        let r = run(&args);
        assert_eq!(r.status, 2, "{args:?}");
        assert_eq!(r.stderr.trim_end().lines().count(), 1, "{}", r.stderr);
        assert!(r.stderr.contains(needle), "{args:?}: {}", r.stderr);
    }
}

#[test]
fn strict_verify_succeeds_when_theorems_hold() {
    let r = run(&["verify", "--game", "nim", "--heaps", "1..=3", "--max", "15", "--strict"]);
    assert_eq!(r.status, 0);
    assert!(r.stdout.contains("nim       3   15  normal  xor"), "{}", r.stdout);
}

#[test]
fn canonical_verify_says_so() {
    let r = run(&["verify", "--game", "nim", "--heaps", "3", "--max", "7", "--canonical"]);
    assert_eq!(r.status, 0);
    assert_eq!(r.stderr, "", "the table says it, so stderr stays quiet");
    assert!(r.stdout.starts_with("counts (canonical: sorted tuples only)"), "{}", r.stdout);
    assert!(r.stdout.contains(" 120 "), "C(10,3) = 120 sorted tuples: {}", r.stdout);
}

#[test]
fn findings_are_identical_with_one_and_two_threads() {
    let games = [
        Game::nim(),
        Game::subtract(&[1, 3, 4]).unwrap(),
        Game::parse("graph:data/graphs/sj-counterexample.csv").unwrap(),
    ];
    for game in &games {
        for (n, max, mode) in [(3, 40, Mode::Full), (4, 12, Mode::Canonical), (2, 200, Mode::Full)]
        {
            let run = || {
                let space = Space::in_mode(n, max, mode).unwrap();
                let engine = Engine::builder(game, space.clone()).parallel_threshold(0).build();
                verify(&engine, &Ending::ALL, &Criterion::SUMS, 5, &NoProgress).unwrap()
            };
            let one = with_threads(1, run);
            let two = with_threads(2, run);
            assert_eq!(one, two, "{} n={n} max={max} {mode:?}", game.spec());
        }
    }
}

#[test]
fn per_ending_passes_give_the_findings_of_one_fused_pass() {
    // A memory limit that holds one ending's run but not three forces one labelling per ending.
    let game = Game::subtract(&[1, 3, 4]).unwrap();
    let space = Space::new(3, 40).unwrap();
    let roomy = Engine::builder(&game, space.clone()).build();
    let one = prepare(&roomy, &[Ending::Normal], &Criterion::SUMS, 5).unwrap().bytes();
    let all = prepare(&roomy, &Ending::ALL, &Criterion::SUMS, 5).unwrap().bytes();
    assert!(all > one, "three endings need more than one");
    let tight = Engine::builder(&game, space.clone()).memory_limit(one).build();
    let fused = verify(&roomy, &Ending::ALL, &Criterion::SUMS, 5, &NoProgress).unwrap();
    let split = verify(&tight, &Ending::ALL, &Criterion::SUMS, 5, &NoProgress).unwrap();
    assert_eq!((fused.labellings, split.labellings), (1, 3));
    assert_eq!(fused.findings, split.findings);
}

#[test]
fn a_canonical_space_is_judged_by_its_sorted_count() {
    // 4^40 tuples, beyond any table; C(43, 3) = 12341 sorted ones.
    let space = ["--game", "nim", "--heaps", "40", "--max", "3"];
    let verify = [&["verify"][..], &space, &["--canonical", "--rules", "misere"]].concat();
    let r = run(&[&verify[..], &["--criteria", "anti-nim"]].concat());
    assert_eq!((r.status, r.stderr.as_str()), (0, ""));
    let row = r.stdout.lines().nth(2).unwrap();
    assert!(row.starts_with("nim      40    3  misere  anti-nim       12341"), "{row}");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t.csv");
    let solve = [&["solve"][..], &space, &["--canonical", "--out", out.to_str().unwrap()]].concat();
    let r = run(&solve);
    assert_eq!((r.status, r.stderr.as_str()), (0, ""));
    assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 1 + 12341);
    let r = run(&[&["info"][..], &space].concat());
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert!(r
        .stdout
        .contains("\npositions            1208925819614629174706176 (beyond any table)\n"));
    assert!(r.stdout.contains("\ncanonical positions  12341\n"), "{}", r.stdout);
    // Every tuple is refused, and a canonical space beyond any table too: on one line.
    for args in [
        [&["verify"][..], &space].concat(),
        vec!["verify", "--game", "nim", "--heaps", "64", "--max", "4000", "--canonical"],
    ] {
        let r = run(&args);
        assert_eq!((r.status, r.stdout.as_str()), (2, ""), "{args:?}");
        assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
        assert!(r.stderr.contains("beyond any table"), "{}", r.stderr);
    }
}

#[test]
fn the_help_and_description_of_verify_and_sweep_name_every_criterion() {
    let listed = |args: &[&str], flag_or_command: &str| {
        let got = run(args);
        assert_eq!(got.status, 0, "{args:?}: {}", got.stderr);
        let line = got.stdout.lines().find(|l| l.trim_start().starts_with(flag_or_command));
        line.unwrap_or_else(|| panic!("{args:?}: no line for {flag_or_command}")).to_string()
    };
    let lines = [
        listed(&["--help"], "verify"),
        listed(&["verify", "--help"], "Compare the DP labels"),
        listed(&["verify", "--help"], "--criteria"),
        listed(&["sweep", "--help"], "--criteria"),
    ];
    for line in &lines {
        for criterion in Criterion::ALL {
            assert!(line.contains(criterion.name()), "{} missing in: {line}", criterion.name());
        }
    }
}
