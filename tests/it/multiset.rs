//! Multiset spaces (`--total T`): every cell of `solve` against the reference, the row
//! order, thread independence, verify and check, info and the refusals.

use nimtab::analysis::claim::ClaimError;
use nimtab::analysis::expr::Expr;
use nimtab::{test_claim, Ending, Engine, Game, Labels, NoProgress, Space};
use proptest::prelude::*;

use crate::support::cli::run;
use crate::support::multiset_reference::{all_multisets, TbEnding, TbGame, TbReference};
use crate::support::with_threads;
use crate::takebreak::GAMES;

const ENDINGS: [TbEnding; 3] = [TbEnding::Normal, TbEnding::Misere, TbEnding::Sj];

/// Parses a `solve --total` row: heaps, total, gxor and the labels.
fn parse_row(line: &str) -> (Vec<u32>, u32, u32, Vec<bool>) {
    let cells: Vec<&str> = line.split(',').collect();
    let heaps = cells[0].split(' ').filter(|s| !s.is_empty()).map(|h| h.parse().unwrap()).collect();
    let labels = cells[3..].iter().map(|&c| c == "P").collect();
    (heaps, cells[1].parse().unwrap(), cells[2].parse().unwrap(), labels)
}

#[test]
fn solve_total_agrees_with_the_reference_on_every_cell_up_to_total_14() {
    for spec in GAMES {
        let r = run(&["solve", "--game", spec, "--total", "14"]);
        assert_eq!(r.status, 0, "{spec}: {}", r.stderr);
        let mut lines = r.stdout.lines();
        assert_eq!(lines.next(), Some("heaps,total,gxor,normal,misere,sj"));
        let mut references: Vec<TbReference> =
            ENDINGS.iter().map(|&ending| TbReference::new(TbGame::parse(spec), ending)).collect();
        let rows: Vec<_> = lines.map(parse_row).collect();
        assert_eq!(rows.len(), all_multisets(14).len(), "{spec}: one row per multiset");
        for (heaps, total, gxor, labels) in &rows {
            assert_eq!(heaps.iter().sum::<u32>(), *total);
            let g = heaps.iter().fold(0, |x, &h| x ^ references[0].grundy(h));
            assert_eq!(*gxor, g, "{spec} {heaps:?}");
            for (reference, &label) in references.iter_mut().zip(labels) {
                assert_eq!(label, reference.is_p(heaps), "{spec} {heaps:?}");
            }
        }
        // Rows by total, then in reverse lexicographic order of the non-increasing heaps.
        let keys: Vec<(u32, Vec<u32>)> = rows.iter().map(|r| (r.1, r.0.clone())).collect();
        let mut sorted = keys.clone();
        sorted.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
        assert_eq!(keys, sorted, "{spec}");
        assert!(rows.iter().all(|r| r.0.windows(2).all(|w| w[0] >= w[1])));
    }
}

#[test]
fn the_first_rows_show_the_empty_position_and_the_order() {
    let r = run(&["solve", "--game", "octal:0.77", "--total", "4"]);
    let expected = "heaps,total,gxor,normal,misere,sj\n,0,0,P,N,N\n1,1,1,N,P,P\n2,2,2,N,N,N\n\
                    1 1,2,0,P,N,N\n3,3,3,N,N,N\n2 1,3,3,N,N,N\n1 1 1,3,1,N,P,P\n4,4,1,N,P,P\n\
                    3 1,4,2,N,N,N\n2 2,4,0,P,P,P\n2 1 1,4,2,N,N,N\n1 1 1 1,4,0,P,N,N\n";
    assert_eq!(r.stdout, expected);
}

#[test]
fn misere_kayles_p_positions_of_small_totals() {
    let r =
        run(&["solve", "--game", "octal:0.77", "--total", "8", "--rules", "misere", "--only", "p"]);
    let found: Vec<&str> = r.stdout.lines().skip(1).map(|l| l.split(',').next().unwrap()).collect();
    let expected = [
        "1",
        "1 1 1",
        "4",
        "2 2",
        "1 1 1 1 1",
        "5 1",
        "4 1 1",
        "3 3",
        "3 2 1",
        "2 2 1 1",
        "1 1 1 1 1 1 1",
        "5 1 1 1",
        "4 1 1 1 1",
        "3 3 1 1",
        "3 2 1 1 1",
        "2 2 2 2",
        "2 2 1 1 1 1",
    ];
    assert_eq!(found, expected);
}

/// The labels of every ending, with every layer run in parallel on `threads` threads.
fn labels(game: &Game, total: u64, threads: usize) -> Vec<Labels> {
    let space = Space::multisets(total).unwrap();
    let engine = Engine::builder(game, space).parallel_threshold(0).build();
    with_threads(threads, || engine.label_all(&Ending::ALL, &NoProgress).unwrap())
}

/// Every label of every ending, in the space's order.
fn bits(labels: &[Labels]) -> Vec<Vec<bool>> {
    labels.iter().map(|l| l.iter().map(|(_, p)| p).collect()).collect()
}

#[test]
fn labels_do_not_depend_on_the_thread_count() {
    let graph =
        Game::graph("graph:test", &[(1, 0), (3, 1), (4, 2), (5, 4), (7, 3), (7, 0)]).unwrap();
    let games =
        ["octal:0.77", "octal:4.07", "grundys-game", "nim"].map(|s| Game::parse(s).unwrap());
    for game in games.iter().chain([&graph]) {
        let one = bits(&labels(game, 24, 1));
        for threads in [2, 3] {
            let other = bits(&labels(game, 24, threads));
            assert!(one == other, "{} with {threads} threads", game.spec());
        }
    }
}

#[test]
fn solve_output_is_byte_identical_for_any_thread_count() {
    // Totals from 35 up hold more than 16384 positions each: those layers run in parallel.
    let solve = |threads: &str| {
        let args = ["--threads", threads, "solve", "--game", "octal:0.137", "--total", "38"];
        let r = run(&[&args[..], &["--rules", "misere", "--only", "p"]].concat());
        assert_eq!(r.status, 0, "{}", r.stderr);
        r.stdout
    };
    let one = solve("1");
    assert!(one.lines().count() > 10_000);
    assert_eq!(one, solve("2"));
    assert_eq!(one, solve("3"));
}

#[test]
fn move_graphs_and_nim_are_labelled_over_multisets_as_the_reference_says() {
    let pairs = vec![(1, 0), (2, 0), (2, 1), (3, 2), (5, 3), (6, 1), (6, 5)];
    let graph = Game::graph("graph:test", &pairs).unwrap();
    let table = labels(&graph, 16, 2);
    for (j, &ending) in ENDINGS.iter().enumerate() {
        let mut reference = TbReference::new(TbGame::Graph(pairs.clone()), ending);
        for heaps in all_multisets(16) {
            assert_eq!(table[j].is_p(&heaps), reference.is_p(&heaps));
        }
    }
    let nim = labels(&Game::nim(), 26, 2);
    for heaps in all_multisets(26) {
        let xor_zero = heaps.iter().fold(0, |x, &h| x ^ h) == 0;
        assert_eq!(nim[0].is_p(&heaps), xor_zero, "{heaps:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn random_octal_codes_agree_with_the_reference(
        d0 in prop_oneof![Just(0u8), Just(4u8)],
        digits in proptest::collection::vec(0u8..8, 1..=3),
    ) {
        // A code of zeros allows no move at all and is refused.
        prop_assume!(d0 != 0 || digits.iter().any(|&d| d != 0));
        let tail: String = digits.iter().map(|d| char::from(b'0' + d)).collect();
        let spec = format!("octal:{d0}.{tail}");
        let table = labels(&Game::parse(&spec).unwrap(), 10, 2);
        for (j, &ending) in ENDINGS.iter().enumerate() {
            let mut reference = TbReference::new(TbGame::parse(&spec), ending);
            for heaps in all_multisets(10) {
                let expected = reference.is_p(&heaps);
                prop_assert_eq!(table[j].is_p(&heaps), expected, "{}", spec);
            }
        }
    }
}

#[test]
fn verify_total_names_the_space_and_finds_the_theorems() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let r = run(&[
        "verify",
        "--game",
        "octal:0.77",
        "--total",
        "12",
        "--out",
        out,
        "--strict",
        "--rules",
        "normal",
    ]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    let summary = std::fs::read_to_string(dir.path().join("summary.csv")).unwrap();
    let lines: Vec<&str> = summary.lines().collect();
    assert_eq!(lines[1], "octal:0.77,any,total<=12,normal,xor,272,58,272,0,");
    // The first counterexample is the empty position, written `()`: an empty cell would
    // read as no counterexample.
    assert_eq!(lines[2], "octal:0.77,any,total<=12,normal,anti-nim,272,58,237,35,()");
    let cex = std::fs::read_to_string(dir.path().join("counterexamples.csv")).unwrap();
    assert!(cex
        .lines()
        .nth(1)
        .unwrap()
        .starts_with("octal:0.77,any,total<=12,normal,anti-nim,,P,N"));
    // SJ under the SJ ending is no theorem for a game that splits heaps: no THEOREM FAILED.
    let sj = run(&[
        "verify",
        "--game",
        "octal:0.77",
        "--total",
        "12",
        "--rules",
        "sj",
        "--criteria",
        "sj",
        "--strict",
    ]);
    assert_eq!(sj.status, 0, "{}", sj.stderr);
    assert!(sj.stdout.contains("(5 1) dp P") && !sj.stdout.contains("THEOREM"), "{}", sj.stdout);
}

#[test]
fn check_total_reads_heaps_in_non_increasing_order() {
    let claim = |text: &str| {
        run(&["check", "--game", "nim", "--total", "16", "--rule", "normal", "--claim-p", text])
    };
    // 915 multisets of total at most 16; h1 is the largest heap, a missing heap reads 0.
    for text in [
        "xor == 0",
        "xor == 0 && h1 == max && h1 >= h2 && h2 >= h3",
        "gxor == 0 && (h16 == 0 || n == 16)",
    ] {
        let r = claim(text);
        assert_eq!(r.status, 0, "{text}: {}{}", r.stdout, r.stderr);
        assert!(r.stdout.contains("game nim, rule normal, every multiset of heaps of total <= 16"));
        assert!(r.stdout.contains("the claim holds on all 915 positions"), "{}", r.stdout);
    }
    let pairs = claim("n == 2 && h1 == h2");
    assert_eq!(pairs.status, 1);
    assert!(pairs.stdout.contains("  any        915"), "{}", pairs.stdout);
    assert!(pairs.stdout.contains("() is P"), "{}", pairs.stdout);
    assert!(pairs.stdout.contains("nim,any,total<=16,normal,n == 2 && h1 == h2,3 2 1,P,N"));
}

#[test]
fn multiset_claims_agree_with_a_check_position_by_position() {
    let game = Game::parse("octal:0.137").unwrap();
    let space = Space::multisets(15).unwrap();
    let grundy = game.grundy(15);
    // Rows handed out in parallel, in tasks of the engine's choosing.
    let engine = Engine::builder(&game, space.clone()).parallel_threshold(0).build();
    let labels = engine.label(Ending::Misere).unwrap();
    let mut padded = Vec::new();
    let mut disagreements = 0;
    for text in ["gxor == 0", "n % 2 == 1 && h1 > h2", "max <= 1 && n % 2 == 1", "nonzero > 3"] {
        let program = Expr::parse_claim(text).unwrap().compile(&space, &grundy).unwrap();
        let tally = test_claim(&engine, Ending::Misere, &program, 5, &NoProgress).unwrap();
        let mut says = |heaps: &Vec<u32>| program.eval_multiset(heaps, &mut padded).unwrap() != 0;
        let wrong: Vec<Vec<u32>> =
            space.iter().filter(|heaps| says(heaps) != labels.is_p(heaps)).collect();
        assert_eq!(tally.positions, space.positions(), "{text}");
        assert_eq!(tally.p_positions, labels.p_count(), "{text}");
        assert_eq!(tally.disagree, wrong.len() as u64, "{text}");
        let first: Vec<Vec<u32>> =
            tally.counterexamples.iter().map(|c| c.position.clone()).collect();
        assert_eq!(first, wrong[..wrong.len().min(5)], "{text}");
        disagreements += wrong.len();
    }
    assert!(disagreements > 0);
    // An evaluation error names the failing position of least rank: (1 1 1), found in a
    // later row than (11), which fails too.
    let program =
        Expr::parse_claim("1 / ((n - 3) * (h1 - 11)) > 0").unwrap().compile(&space, &grundy);
    let program = program.unwrap();
    let first = space.iter().find(|heaps| program.eval_multiset(heaps, &mut padded).is_err());
    let err = test_claim(&engine, Ending::Misere, &program, 5, &NoProgress).unwrap_err();
    let ClaimError::Eval(err) = err else { panic!("an evaluation error: {err}") };
    assert_eq!(first, Some(vec![1, 1, 1]));
    assert_eq!(Some(err.position), first);
}

#[test]
fn info_total_counts_positions_and_memory() {
    let r = run(&["info", "--game", "octal:0.77", "--total", "80"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert!(r.stdout.contains("positions            123223639 (every multiset"), "{}", r.stdout);
    assert!(r.stdout.contains("for 3 rules"));
}

#[test]
fn total_errors_are_one_line_with_status_2() {
    for (args, says) in [
        (
            &["solve", "--game", "nim", "--total", "400"][..],
            "--total 400 is above the largest total, 372",
        ),
        (&["verify", "--game", "octal:0.77", "--total", "300"], "lower --total"),
        (&["solve", "--game", "nim", "--total", "-1"], "--total must be a non-negative integer"),
        (&["solve", "--game", "nim", "--total", "5", "--heaps", "2"], "cannot be used with"),
        (&["solve", "--game", "nim", "--total", "5", "--canonical"], "cannot be used with"),
    ] {
        let r = run(args);
        assert_eq!(r.status, 2, "{args:?}");
        assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
    }
    let too_large = run(&["verify", "--game", "octal:0.77", "--total", "300"]).stderr;
    assert!(too_large
        .contains("space too large: octal:0.77, every multiset of heaps of total at most 300"));
}
