//! The command line on games that are not sums and with a pass: table formats, the
//! Grundy column, refusals in one line, moves, play, check features, plots, identical
//! output for any thread count.

use crate::support::cli::{run, Run};

fn ok(args: &[&str]) -> String {
    let r = run(args);
    assert_eq!(r.status, 0, "{args:?}: {}", r.stderr);
    r.stdout
}

fn refused(args: &[&str], message: &str) {
    let Run { status, stderr, .. } = run(args);
    assert_eq!(status, 2, "{args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: one line: {stderr}");
    assert!(stderr.contains(message), "{args:?}: {stderr}");
}

#[test]
fn solve_writes_no_gxor_for_games_that_are_not_sums() {
    let out = ok(&["solve", "--game", "wythoff", "--heaps", "2", "--max", "1"]);
    assert_eq!(out, "h1,h2,normal,misere\n0,0,P,N\n0,1,N,P\n1,0,N,P\n1,1,N,N\n");
}

#[test]
fn solve_with_a_pass_writes_two_rows_per_position_pass_fastest() {
    let out = ok(&[
        "solve", "--game", "nim", "--pass", "--heaps", "1", "--max", "2", "--rules", "normal",
    ]);
    assert_eq!(out, "h1,pass,normal\n0,0,P\n0,1,P\n1,0,N\n1,1,N\n2,0,N\n2,1,N\n");
}

#[test]
fn solve_grundy_equals_gxor_for_sums() {
    for game in ["nim", "subtract:1,3,4", "graph:data/graphs/sj-counterexample.csv"] {
        let out = ok(&["solve", "--game", game, "--heaps", "3", "--max", "7", "--grundy"]);
        let mut lines = out.lines();
        assert_eq!(lines.next(), Some("h1,h2,h3,gxor,grundy,normal,misere,sj"), "{game}");
        for line in lines {
            let cells: Vec<&str> = line.split(',').collect();
            assert_eq!(cells[3], cells[4], "{game}: {line}");
        }
    }
}

#[test]
fn solve_grundy_of_wythoff_is_the_a004481_table() {
    // A004481 read by antidiagonals a + b = 0, 1, 2, ...
    let diagonals = [
        0, 1, 1, 2, 2, 2, 3, 0, 0, 3, 4, 4, 1, 4, 4, 5, 5, 5, 5, 5, 5, 6, 3, 3, 6, 3, 3, 6, 7, 7,
        4, 2, 2, 4, 7, 7, 8, 8, 8, 0, 7, 0, 8, 8, 8, 9, 6, 6, 1, 6, 6, 1, 6, 6, 9,
    ];
    let out = ok(&["solve", "--game", "wythoff", "--heaps", "2", "--max", "9", "--grundy"]);
    let mut table = [[0u32; 10]; 10];
    for line in out.lines().skip(1) {
        let cells: Vec<u32> = line.split(',').take(3).map(|c| c.parse().unwrap()).collect();
        table[cells[0] as usize][cells[1] as usize] = cells[2];
    }
    let mut expected = diagonals.iter();
    for sum in 0..=9usize {
        for a in 0..=sum {
            assert_eq!(table[a][sum - a], *expected.next().unwrap(), "G({a},{})", sum - a);
        }
    }
}

#[test]
fn what_a_game_cannot_do_is_refused_in_one_line() {
    refused(
        &["solve", "--game", "wythoff", "--heaps", "2", "--max", "3", "--rules", "sj"],
        "the SJ rule needs a sum of heaps (nim, subtract:S, graph:PATH, octal:CODE, hex:CODE or \
         grundys-game, without --pass); wythoff is not one",
    );
    refused(
        &["solve", "--game", "nim", "--pass", "--heaps", "2", "--max", "3", "--rules", "normal,sj"],
        "nim --pass is not one",
    );
    refused(&["grundy", "--game", "moore:2", "--max", "3"], "moore:2 is not one");
    // A period is of one heap's Grundy values: a sum's, without a pass.
    refused(
        &["period", "--game", "subtract:1,3,4", "--pass", "--max", "100"],
        "subtract:1,3,4 --pass is not one",
    );
    refused(&["period", "--game", "wythoff", "--max", "10"], "wythoff is not one");
    // A sweep refuses, before any row, what one of its games cannot run.
    refused(
        &["sweep", "--games", "nim;wythoff", "--heaps", "2", "--max", "5"],
        "wythoff is not one",
    );
    refused(
        &["sweep", "--games", "wythoff", "--heaps", "2", "--max", "5", "--rules", "normal"],
        "criterion xor does not apply to wythoff",
    );
    refused(
        &[
            "sweep",
            "--games",
            "wythoff",
            "--heaps",
            "2",
            "--max",
            "5",
            "--rules",
            "normal",
            "--claim-p",
            "gxor == 0",
        ],
        "a claim reading g1..gN, gxor or gmax (heap Grundy values) needs a sum of heaps",
    );
    refused(
        &["sweep", "--games", "nim", "--heaps", "2", "--max", "3", "--claim-p", "grundy == 0"],
        "which a sweep does not compute",
    );
    // Multisets hold heaps only: no multi-heap moves, no pass, no whole-position values.
    refused(
        &["verify", "--game", "wythoff", "--total", "5", "--rules", "normal"],
        "a space of multisets of heaps (--total) needs a sum of heaps",
    );
    refused(
        &["solve", "--game", "octal:0.77", "--pass", "--total", "5", "--rules", "normal"],
        "octal:0.77 --pass is not one",
    );
    refused(
        &["solve", "--game", "octal:0.77", "--total", "5", "--grundy"],
        "--grundy is not available with --total",
    );
    refused(
        &["verify", "--game", "nim", "--total", "5", "--criteria", "xor,moore"],
        "criterion moore does not apply to a space of multisets of heaps",
    );
    refused(
        &["verify", "--game", "wythoff", "--heaps", "3", "--max", "3", "--criteria", "wythoff"],
        "criterion wythoff does not apply to wythoff with 3 heaps",
    );
    refused(
        &["verify", "--game", "moore:2", "--heaps", "3", "--max", "3", "--criteria", "xor"],
        "criterion xor does not apply to moore:2",
    );
    refused(
        &["verify", "--game", "subtract:1,2", "--heaps", "2", "--max", "3", "--criteria", "moore"],
        "criterion moore does not apply to subtract:1,2",
    );
    refused(
        &["solve", "--game", "circular:2", "--heaps", "3", "--max", "3", "--canonical"],
        "circular:2 is not symmetric",
    );
    refused(
        &["verify", "--game", "circular:3", "--heaps", "2..=3", "--max", "3"],
        "circular:3 is not defined for 2 heaps",
    );
    refused(&["solve", "--game", "moore:0", "--heaps", "2", "--max", "3"], "K must be at least 1");
    refused(&["moves", "--game", "wythoff", "--rule", "sj", "3", "5"], "wythoff is not one");
}

#[test]
fn verify_counts_positions_of_a_game_without_a_criterion_as_none() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    ok(&["verify", "--game", "circular:2", "--heaps", "3", "--max", "7", "--out", out]);
    let summary = std::fs::read_to_string(dir.path().join("summary.csv")).unwrap();
    assert_eq!(
        summary,
        "game,heaps,max,rule,criterion,positions,p_positions,agree,disagree,first_counterexample\n\
         circular:2,3,7,normal,none,512,8,,,\n\
         circular:2,3,7,misere,none,512,9,,,\n"
    );
    let counterexamples = std::fs::read_to_string(dir.path().join("counterexamples.csv")).unwrap();
    assert_eq!(counterexamples, "game,heaps,max,rule,criterion,position,dp,predicted\n");
}

#[test]
fn strict_verify_holds_moore_and_wythoff_theorems() {
    let moore = ok(&["verify", "--game", "moore:3", "--heaps", "1..=4", "--max", "15", "--strict"]);
    assert!(moore.contains("moore:3      4   15  misere  moore-misere"), "{moore}");
    ok(&["verify", "--game", "wythoff", "--heaps", "2", "--max", "1000", "--strict"]);
    ok(&[
        "verify",
        "--game",
        "nim",
        "--heaps",
        "3",
        "--max",
        "15",
        "--criteria",
        "moore,moore-misere",
        "--strict",
        "--rules",
        "normal,misere",
    ]);
}

#[test]
fn moves_lists_multi_heap_moves_and_the_pass_as_position_and_option() {
    let out = ok(&["moves", "--game", "wythoff", "--format", "csv", "4", "5"]);
    assert_eq!(out, "position,option\n4 5,3 5\n4 5,1 2\n");
    let text = ok(&["moves", "--game", "wythoff", "4", "5"]);
    assert_eq!(
        text,
        "take 1 from heap 1 (4 -> 3): (4,5) -> (3,5)\n\
         take 3 from heap 1 and 3 from heap 2: (4,5) -> (1,2)\n"
    );
    // (1,1) with the pass: passing leaves Nim's P-position (1,1).
    assert_eq!(
        ok(&["moves", "--game", "nim", "--pass", "--format", "csv", "1", "1"]),
        "position,option\n1 1,pass\n"
    );
    let lost = run(&["moves", "--game", "nim", "--pass", "--format", "csv", "1", "2"]);
    assert_eq!(lost.stdout, "position,option\n");
    assert!(
        lost.stderr.contains("(1,2) with the pass available is a P-position"),
        "{}",
        lost.stderr
    );
}

#[test]
fn moves_of_wythoff_far_out_lead_to_wythoffs_pairs() {
    // (2772, 896): only 2772 -> 1450 reaches a pair, (896, 1450) = (a_554, a_554 + 554).
    assert_eq!(
        ok(&["moves", "--game", "wythoff", "--format", "csv", "2772", "896"]),
        "position,option\n2772 896,1450 896\n"
    );
    // (618, 1000) = (a_382, a_382 + 382) is a pair: lost for the player to move.
    let lost = run(&["moves", "--game", "wythoff", "--format", "csv", "1000", "618"]);
    assert_eq!(lost.stdout, "position,option\n");
    assert!(lost.stderr.contains("(1000,618) is a P-position"), "{}", lost.stderr);
}

#[test]
fn play_wins_every_game_from_n_positions_of_the_new_games() {
    for args in [
        &["--game", "wythoff", "4", "9"][..],
        &["--game", "moore:2", "3", "5", "6"],
        &["--game", "circular:2", "2", "3", "4"],
        &["--game", "nim", "--pass", "3", "5", "6"],
        &["--game", "wythoff", "--rule", "misere", "2", "6"],
    ] {
        let mut all = vec!["play", "--games", "30", "--seed", "3"];
        all.extend_from_slice(args);
        let out = ok(&all);
        assert!(out.starts_with("table won 30 of 30 games"), "{args:?}: {out}");
    }
    let game = ok(&["play", "--game", "nim", "--pass", "--seed", "1", "1", "1"]);
    assert!(game.starts_with("table:    (1,1) -> pass  P-position\n"), "{game}");
}

#[test]
fn check_reads_the_pass_and_the_whole_position_value() {
    let claim =
        "pass == 0 && xor == 0 || pass == 1 && (max == 0 || min % 2 == 1 && max == min + 1)";
    let out = ok(&[
        "check",
        "--game",
        "nim",
        "--pass",
        "--heaps",
        "2",
        "--max",
        "30",
        "--rule",
        "normal",
        "--claim-p",
        claim,
    ]);
    assert!(out.contains("the claim holds on all 1922 positions"), "{out}");
    // Under normal play a position is P exactly when its Grundy value is 0, in any game.
    for game in [
        &["--game", "circular:2", "--pass"][..],
        &["--game", "wythoff"],
        &["--game", "subtract:1,3,4"],
    ] {
        let mut args = vec!["check", "--heaps", "3", "--max", "9", "--rule", "normal", "--grundy"];
        args.extend_from_slice(game);
        args.extend_from_slice(&["--claim-p", "grundy == 0"]);
        assert!(ok(&args).contains("the claim holds"), "{game:?}");
    }
    let gxor = run(&[
        "check",
        "--game",
        "wythoff",
        "--heaps",
        "2",
        "--max",
        "7",
        "--rule",
        "normal",
        "--claim-p",
        "gxor == 0",
    ]);
    assert_eq!(gxor.status, 2);
    assert!(gxor.stderr.contains(
        "column 1: g1..gN, gxor and gmax read heap Grundy values, which wythoff does not have"
    ));
    let fails = run(&[
        "check",
        "--game",
        "nim",
        "--pass",
        "--heaps",
        "1",
        "--max",
        "3",
        "--rule",
        "normal",
        "--claim-p",
        "pass == 1",
        "--limit",
        "2",
    ]);
    assert_eq!(fails.status, 1);
    assert!(
        fails.stdout.contains("nim --pass,1,3,normal,pass == 1,0 pass=0,P,N"),
        "{}",
        fails.stdout
    );
}

#[test]
fn plot_draws_a_pass_state_chosen_by_the_slice() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("p.svg");
    let svg = svg.to_str().unwrap();
    let base = ["plot", "--game", "nim", "--max", "7", "--rule", "normal", "--out", svg];
    fn with<'a>(base: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
        base.iter().chain(extra).copied().collect()
    }
    ok(&with(&base, &["--pass", "--heaps", "3", "--slice", "h3=5,pass=0"]));
    let text = std::fs::read_to_string(svg).unwrap();
    assert!(text.contains("of nim --pass, normal play, pass used</title>"), "{text}");
    ok(&with(&base, &["--pass", "--slice", "pass=1"]));
    let text = std::fs::read_to_string(svg).unwrap();
    // With the pass available, 2 heaps up to 7 are P at (0,0) and {1,2}, {3,4}, {5,6}.
    assert_eq!(text.matches("class=\"p\"").count(), 7, "{text}");
    refused(&with(&base, &["--slice", "pass=1"]), "--slice pass=0|1 needs --pass");
    refused(
        &with(&base, &["--pass", "--slice", "pass=2"]),
        "pass must be 0 (used) or 1 (available)",
    );
}

#[test]
fn output_is_identical_with_one_and_two_threads() {
    for args in [
        &[
            "solve", "--game", "moore:2", "--heaps", "4", "--max", "63", "--rules", "normal",
            "--only", "p",
        ][..],
        &[
            "solve",
            "--game",
            "circular:2",
            "--heaps",
            "5",
            "--max",
            "15",
            "--pass",
            "--rules",
            "misere",
            "--only",
            "p",
        ],
        &[
            "solve", "--game", "wythoff", "--heaps", "3", "--max", "40", "--grundy", "--rules",
            "normal", "--only", "p",
        ],
        &["verify", "--game", "wythoff", "--heaps", "2", "--max", "3000"],
    ] {
        let one = ok(&[&["--threads", "1"], args].concat());
        let two = ok(&[&["--threads", "2"], args].concat());
        assert_eq!(one, two, "{args:?}");
        assert!(one.lines().count() > 4, "{args:?}: a real table");
    }
}

#[test]
fn a_claim_over_multisets_cannot_read_the_whole_position_value() {
    let r = run(&[
        "check",
        "--game",
        "octal:0.77",
        "--total",
        "6",
        "--rule",
        "normal",
        "--claim-p",
        "grundy == 0",
    ]);
    assert_eq!(r.status, 2, "{}", r.stderr);
    let first = r.stderr.lines().next().unwrap_or_default();
    assert!(first.contains("which a multiset space (--total) does not compute"), "{}", r.stderr);
    assert!(!r.stderr.contains("add --grundy"), "{}", r.stderr);
}

#[test]
fn info_counts_the_endings_a_run_of_the_game_labels_by_default() {
    for (game, endings) in [("wythoff", 2), ("moore:2", 2), ("nim --pass", 2), ("nim", 3)] {
        let mut args = vec!["info", "--heaps", "2", "--max", "50", "--game"];
        args.extend(game.split(' '));
        let text = ok(&args);
        let expected = format!("verify of {endings} rules needs");
        assert_eq!(text.matches(&expected).count(), 2, "{game}: {text}");
        assert_eq!(text.matches(&format!("solve of {endings} rules")).count(), 2, "{game}: {text}");
    }
}

#[test]
fn moore_1_is_nim_a_sum_under_its_own_name() {
    let args = |game: &'static str| ["--heaps", "3", "--max", "6", "--game", game];
    let solve = |game| ok(&[&["solve"][..], &args(game)].concat());
    assert_eq!(solve("moore:1"), solve("nim"), "the gxor column and the sj rule");
    let dir = tempfile::tempdir().unwrap();
    let summary = |game: &'static str| {
        let out = dir.path().join(game.replace(':', "-"));
        ok(&[&["verify", "--out", out.to_str().unwrap()][..], &args(game)].concat());
        std::fs::read_to_string(out.join("summary.csv")).unwrap()
    };
    let (moore, nim) = (summary("moore:1"), summary("nim"));
    assert_eq!(moore.replace("\nmoore:1,", "\nnim,"), nim, "the same criteria and rows");
    for criterion in ["xor", "anti-nim", "sj", "moore", "moore-misere"] {
        assert!(moore.contains(&format!(",{criterion},")), "{criterion}: {moore}");
    }
    assert!(moore.lines().skip(1).all(|l| l.starts_with("moore:1,")), "{moore}");
    let strict = run(&[&["verify", "--strict"][..], &args("moore:1")].concat());
    assert_eq!(strict.status, 0, "the theorems of Nim hold: {}", strict.stderr);
}
