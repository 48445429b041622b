//! `check`: claim expressions (parsing, errors with columns, evaluation) and the claim
//! checker against the reference solver, in the library and through the binary.

use nimtab::analysis::claim::{test_claim, ClaimError};
use nimtab::analysis::expr::{EvalErrorKind, Expr, ExprError};
use nimtab::analysis::tally::Tally;
use nimtab::model::space::TupleSpace;
use nimtab::{Ending, Engine, Game, Mode, NoProgress, Space};
use proptest::prelude::*;

use crate::support::cli::{run, run_limited, Run};
use crate::support::reference::{RefGame, Reference};
use crate::support::{all_tuples, engine_game, with_threads};

/// The tuple space of `n` heaps whose sizes the Grundy values `grundy` cover.
fn tuples(n: usize, grundy: &[u32]) -> Space {
    Space::new(n, grundy.len() as u32 - 1).unwrap()
}

const ANTI_NIM: &str = "(rich > 0 && xor == 0) || (rich == 0 && xor != 0)";

/// Tests a claim with every layer forced through rayon (threshold 0), so that the merge
/// of task results is exercised even in small spaces.
fn check(game: &Game, n: usize, max: u32, ending: Ending, claim: &str, canonical: bool) -> Tally {
    let program = Expr::parse_claim(claim)
        .unwrap()
        .compile(&tuples(n, &game.grundy(max)), &game.grundy(max))
        .unwrap();
    let mode = if canonical { Mode::Canonical } else { Mode::Full };
    let space = Space::in_mode(n, max, mode).unwrap();
    let engine = Engine::builder(game, space.clone()).parallel_threshold(0).build();
    test_claim(&engine, ending, &program, 20, &NoProgress).unwrap()
}

fn parse_error(text: &str) -> ExprError {
    Expr::parse_claim(text).unwrap_err()
}

#[test]
fn bouton_claim_holds_for_nim_under_normal_play() {
    for (n, max) in [(1, 31), (2, 31), (3, 31), (4, 15), (5, 7)] {
        for canonical in [false, true] {
            let report = check(&Game::nim(), n, max, Ending::Normal, "xor == 0", canonical);
            let space = TupleSpace::new(n, max).unwrap();
            let positions = if canonical { space.canonical_positions() } else { space.positions() };
            assert!(report.holds(), "n={n} max={max}: {report:?}");
            assert_eq!(report.positions, positions);
            assert_eq!(report.agree, positions);
            assert!(report.counterexamples.is_empty());
        }
    }
    // Full mode: the P-positions are (M+1)^(n-1), the last heap being the others' xor.
    assert_eq!(check(&Game::nim(), 3, 15, Ending::Normal, "xor == 0", false).p_positions, 256);
}

#[test]
fn anti_nim_claim_holds_for_misere_nim() {
    for (n, max) in [(1, 31), (2, 31), (3, 31), (4, 15)] {
        for canonical in [false, true] {
            let report = check(&Game::nim(), n, max, Ending::Misere, ANTI_NIM, canonical);
            assert!(report.holds(), "n={n} max={max}: {report:?}");
        }
    }
}

#[test]
fn grundy_claim_holds_for_a_subtraction_game() {
    let game = Game::parse("subtract:1,3,4").unwrap();
    for n in 1..=3 {
        assert!(check(&game, n, 40, Ending::Normal, "gxor == 0", false).holds());
    }
}

#[test]
fn naive_misere_claim_fails_first_at_the_empty_position() {
    // Under misère the claims differ exactly where every heap is 0 or 1 (2^n positions):
    // the first, (0, …, 0), has no move so it is N, while xor == 0 predicts P.
    for n in 1..=4usize {
        let report = check(&Game::nim(), n, 7, Ending::Misere, "xor == 0", false);
        assert_eq!(report.disagree, 1 << n, "n={n}");
        let first = &report.counterexamples[0];
        assert_eq!(first.position, vec![0; n]);
        assert_eq!(first.index, 0);
        assert!(!first.dp_is_p);
        // Next in index order: (0, …, 0, 1), labelled P (the opponent must take the last).
        let mut second = vec![0; n];
        second[n - 1] = 1;
        assert_eq!(report.counterexamples[1].position, second);
        assert!(report.counterexamples[1].dp_is_p);
    }
}

#[test]
fn anti_nim_claim_fails_for_a_subtraction_game_first_at_heap_3() {
    // subtract:1,3,4 under misère: 0 is N (no move), 1 is P, 2 is N, and 3 (options 2
    // and 0, both N) is P, while Anti-Nim predicts N for a single rich heap.
    let game = Game::parse("subtract:1,3,4").unwrap();
    let report = check(&game, 1, 63, Ending::Misere, ANTI_NIM, false);
    assert_eq!(report.disagree, 17);
    assert_eq!(report.counterexamples[0].position, vec![3]);
    assert!(report.counterexamples[0].dp_is_p);
    let two = check(&game, 2, 63, Ending::Misere, ANTI_NIM, false);
    assert_eq!(two.counterexamples[0].position, vec![0, 3]);
}

#[test]
fn counterexamples_are_the_smallest_indices_for_any_thread_count() {
    let game = Game::parse("subtract:1,2").unwrap();
    let claim = "h1 <= h2 && sum % 3 == 0";
    let reports: Vec<Tally> = [1, 2]
        .into_iter()
        .map(|threads| with_threads(threads, || check(&game, 3, 20, Ending::Normal, claim, false)))
        .collect();
    assert_eq!(reports[0], reports[1]);
    let program = Expr::parse_claim(claim)
        .unwrap()
        .compile(&tuples(3, &game.grundy(20)), &game.grundy(20))
        .unwrap();
    let mut reference =
        Reference::new(RefGame::Subtract(vec![1, 2]), crate::support::reference::RefEnding::Normal);
    let expected: Vec<Vec<u32>> = all_tuples(3, 20)
        .into_iter()
        .filter(|t| reference.is_p(t) != (program.eval_position(t).unwrap() != 0))
        .collect();
    assert_eq!(reports[0].disagree, expected.len() as u64);
    let kept: Vec<Vec<u32>> =
        reports[0].counterexamples.iter().map(|c| c.position.clone()).collect();
    assert_eq!(kept, expected[..20].to_vec());
}

#[test]
fn benchmark_claim_has_ten_operators_and_holds() {
    // The claim of scripts/bench-check: the speed target is stated for 10 operators.
    let claim = "(rich > 0 && xor == 0 || rich == 0 && xor != 0) && sum - max >= 0";
    assert_eq!(Expr::parse_claim(claim).unwrap().operators(), 10);
    let script =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/bench-check"));
    assert!(script.unwrap().contains(&format!("claim='{claim}'")));
    assert!(check(&Game::nim(), 4, 15, Ending::Misere, claim, false).holds());
}

#[test]
fn every_bad_expression_is_reported_at_its_column() {
    let cases: [(&str, usize, &str); 14] = [
        ("xo == 0", 1, "unknown name 'xo'"),
        ("xor == 0 && foo", 13, "unknown name 'foo'"),
        ("(xor == 0", 1, "'(' is never closed"),
        ("((xor) == 0", 1, "'(' is never closed"),
        ("xor == 0)", 9, "unmatched ')'"),
        ("1 && 2", 1, "'&&' needs a boolean on the left, but this is an integer"),
        ("xor == 0 || 3", 13, "'||' needs a boolean on the right"),
        ("xor == (sum > 1)", 5, "'==' compares an integer with a boolean"),
        ("xor", 1, "a claim must be a boolean"),
        ("!xor", 2, "prefix '!' needs a boolean"),
        ("if(xor, true, false)", 4, "condition of 'if' must be a boolean"),
        ("xor = 0", 5, "write '=='"),
        ("xor == 0 0", 10, "expected an operator or the end, found '0'"),
        ("h0 == 1", 1, "heaps are numbered from 1"),
    ];
    for (text, column, message) in cases {
        let error = parse_error(text);
        assert_eq!(error.column, column, "{text}: {error}");
        assert!(error.message.contains(message), "{text}: {}", error.message);
    }
    assert_eq!(parse_error("").column, 1);
    assert_eq!(parse_error("xor == 0 $").column, 10);
    assert_eq!(parse_error("1 + 99999999999999999999 > 0").column, 5);
}

#[test]
fn a_heap_beyond_the_heap_count_is_reported_at_its_column() {
    let expr = Expr::parse_claim("h1 == 0 && h4 == g2").unwrap();
    let error = expr.compile(&tuples(3, &[0, 1, 2]), &[0, 1, 2]).unwrap_err();
    assert_eq!(error.column, 12);
    assert_eq!(error.message, "h4 names heap 4, but positions have 3 heaps");
    assert!(expr.compile(&tuples(4, &[0, 1, 2]), &[0, 1, 2]).is_ok());
    let grundy = Expr::parse_claim("g3 == 0").unwrap().compile(&tuples(2, &[0]), &[0]).unwrap_err();
    assert_eq!(
        (grundy.column, grundy.message.as_str()),
        (1, "g3 names heap 3, but positions have 2 heaps")
    );
}

#[test]
fn caret_sits_under_the_error_column() {
    let error = parse_error("xor == 0 && foo");
    assert_eq!(error.caret("xor == 0 && foo", 2), "  xor == 0 && foo\n              ^");
}

#[test]
fn division_by_zero_names_the_first_position() {
    let program = Expr::parse_claim("h1 / h2 == 1")
        .unwrap()
        .compile(&tuples(2, &[0, 1, 2, 3]), &[0, 1, 2, 3])
        .unwrap();
    let nim = Game::nim();
    let engine = Engine::new(&nim, Space::new(2, 3).unwrap());
    let error = test_claim(&engine, Ending::Normal, &program, 20, &NoProgress).unwrap_err();
    let ClaimError::Eval(error) = error else { panic!("an evaluation error: {error}") };
    assert_eq!(error.kind, EvalErrorKind::DivisionByZero);
    assert_eq!(error.position, vec![0, 0]);
    assert_eq!(error.to_string(), "division by zero at position (0 0)");
    let shift = Expr::parse_claim("1 << (h1 - 2) > 0")
        .unwrap()
        .compile(&tuples(1, &[0, 1, 2]), &[0, 1, 2])
        .unwrap();
    let error = shift.eval_position(&[1]).unwrap_err();
    assert_eq!((error.kind, error.position), (EvalErrorKind::NegativeShift, vec![1]));
}

#[test]
fn guarded_division_is_not_an_error() {
    for claim in ["h2 != 0 && h1 % h2 == 0", "if(h2 == 0, false, h1 / h2 >= 1)"] {
        let report = check(&Game::nim(), 2, 9, Ending::Normal, claim, false);
        assert_eq!(report.positions, 100, "{claim}");
    }
}

#[test]
fn arithmetic_wraps_and_shifts_saturate() {
    let eval = |text: &str| {
        Expr::parse(text)
            .unwrap()
            .compile(&tuples(1, &[0]), &[0])
            .unwrap()
            .eval_position(&[0])
            .unwrap()
    };
    assert_eq!(eval("9223372036854775807 + 1"), i64::MIN);
    assert_eq!(eval("-7 / 2"), -3);
    assert_eq!(eval("-7 % 2"), -1);
    assert_eq!(eval("1 << 63"), i64::MIN);
    assert_eq!(eval("1 << 64"), 0);
    assert_eq!(eval("-1 >> 100"), -1);
    assert_eq!(eval("5 >> 64"), 0);
    assert_eq!(eval("2 + 3 * 4 << 1"), 28);
    assert_eq!(eval("6 & 3 == 2"), 1);
    assert_eq!(eval("if(true || 1 / 0 == 0, 4, 5)"), 4);
}

#[test]
fn features_are_computed_per_position() {
    let game = Game::parse("subtract:1,3,4").unwrap();
    let grundy = game.grundy(7); // 0 1 0 1 2 3 2 0
    let value = |text: &str, position: &[u32]| {
        Expr::parse(text)
            .unwrap()
            .compile(&tuples(position.len(), &grundy), &grundy)
            .unwrap()
            .eval_position(position)
    };
    let position = [5, 1, 0, 7];
    let expected = [
        ("h1", 5),
        ("h4", 7),
        ("g1", 3),
        ("g4", 0),
        ("n", 4),
        ("sum", 13),
        ("max", 7),
        ("min", 0),
        ("xor", 5 ^ 1 ^ 7),
        ("gxor", 3 ^ 1),
        ("gmax", 3),
        ("ones", 1),
        ("rich", 2),
        ("zeros", 1),
        ("nonzero", 3),
    ];
    for (name, want) in expected {
        assert_eq!(value(name, &position), Ok(want), "{name}");
    }
}

/// A random integer expression over every feature of 3 heaps.
fn int_expr(depth: u32) -> BoxedStrategy<String> {
    let leaf = prop_oneof![
        (0i64..8).prop_map(|v| v.to_string()),
        prop::sample::select(vec![
            "h1", "h2", "h3", "g1", "g3", "n", "sum", "max", "min", "xor", "gxor", "gmax", "ones",
            "rich", "zeros", "nonzero"
        ])
        .prop_map(str::to_string),
    ];
    if depth == 0 {
        return leaf.boxed();
    }
    let op = prop::sample::select(vec!["+", "-", "*", "/", "%", "^", "&", "|", "<<", ">>"]);
    prop_oneof![
        leaf,
        (int_expr(depth - 1), op, int_expr(depth - 1))
            .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
        int_expr(depth - 1).prop_map(|a| format!("-{a}")),
        (bool_expr(depth - 1), int_expr(depth - 1), int_expr(depth - 1))
            .prop_map(|(c, a, b)| format!("if({c}, {a}, {b})")),
    ]
    .boxed()
}

/// A random boolean expression.
fn bool_expr(depth: u32) -> BoxedStrategy<String> {
    let compare = prop::sample::select(vec!["==", "!=", "<", "<=", ">", ">="]);
    let comparison = move |d: u32| {
        (int_expr(d), compare.clone(), int_expr(d)).prop_map(|(a, op, b)| format!("({a} {op} {b})"))
    };
    if depth == 0 {
        return prop_oneof![comparison(0), Just("true".to_string())].boxed();
    }
    let op = prop::sample::select(vec!["&&", "||", "==", "!=", "^", "&", "|"]);
    prop_oneof![
        comparison(depth - 1),
        (bool_expr(depth - 1), op, bool_expr(depth - 1))
            .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
        bool_expr(depth - 1).prop_map(|a| format!("!{a}")),
        (bool_expr(depth - 1), bool_expr(depth - 1), bool_expr(depth - 1))
            .prop_map(|(c, a, b)| format!("if({c}, {a}, {b})")),
    ]
    .boxed()
}

fn random_claim() -> impl Strategy<Value = String> {
    bool_expr(3)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn row_evaluator_agrees_with_the_per_position_evaluator(
        claim in random_claim(),
        max in 0u32..70,
        h1 in 0u32..70,
        h2 in 0u32..70,
        canonical_lo in any::<bool>(),
    ) {
        let (h1, h2) = (h1.min(max), h2.min(max));
        let game = Game::parse("subtract:1,3,4").unwrap();
        let program = Expr::parse_claim(&claim).unwrap().compile(&tuples(3, &game.grundy(max)), &game.grundy(max)).unwrap();
        let lo = if canonical_lo { h2 } else { 0 };
        let mut bits = vec![0u64; (max as usize + 1).div_ceil(64)];
        let row = program.eval_row(&[h1, h2], lo, &mut bits, &mut Default::default());
        let mut expected = vec![0u64; bits.len()];
        let mut first_error = None;
        for h in lo..=max {
            match program.eval_position(&[h1, h2, h]) {
                Ok(v) => expected[h as usize / 64] |= u64::from(v != 0) << (h % 64),
                Err(e) => {
                    first_error = Some(e);
                    break;
                }
            }
        }
        match first_error {
            Some(error) => prop_assert_eq!(row, Err(error)),
            None => {
                prop_assert_eq!(row, Ok(()));
                prop_assert_eq!(bits, expected);
            }
        }
    }

    #[test]
    fn checker_counts_match_the_reference_labels(
        claim in random_claim(),
        max in 0u32..9,
        ending_index in 0usize..3,
    ) {
        // Three heaps: the random expressions may name h3 and g3.
        let n = 3;
        let (ending, ref_ending) = crate::support::ENDINGS[ending_index];
        let ref_game = RefGame::Subtract(vec![1, 3, 4]);
        let game = engine_game(&ref_game);
        let program = Expr::parse_claim(&claim).unwrap().compile(&tuples(n, &game.grundy(max)), &game.grundy(max)).unwrap();
        let engine = Engine::new(&game, Space::new(n, max).unwrap());
        let result = test_claim(&engine, ending, &program, 5, &NoProgress);
        let mut reference = Reference::new(ref_game, ref_ending);
        let mut disagree = Vec::new();
        for tuple in all_tuples(n, max) {
            match program.eval_position(&tuple) {
                Ok(v) if reference.is_p(&tuple) != (v != 0) => disagree.push(tuple),
                Ok(_) => {}
                Err(error) => {
                    let Err(ClaimError::Eval(got)) = result else {
                        panic!("expected the evaluation error {error}");
                    };
                    prop_assert_eq!(got, error);
                    return Ok(());
                }
            }
        }
        let report = result.unwrap();
        prop_assert_eq!(report.disagree, disagree.len() as u64);
        let kept: Vec<Vec<u32>> = report.counterexamples.iter().map(|c| c.position.clone()).collect();
        prop_assert_eq!(kept, disagree.into_iter().take(5).collect::<Vec<_>>());
    }
}

#[test]
fn cli_claim_that_holds_exits_0() {
    let Run { status, stdout, .. } = run(&[
        "check",
        "--game",
        "nim",
        "--heaps",
        "1..=3",
        "--max",
        "7",
        "--rule",
        "misere",
        "--claim-p",
        ANTI_NIM,
    ]);
    assert_eq!(status, 0, "{stdout}");
    assert!(stdout.contains("the claim holds on all 584 positions"), "{stdout}");
    assert!(stdout.contains("    3        512           64    512         0  -"), "{stdout}");
}

#[test]
fn cli_failing_claim_exits_1_and_writes_counterexamples() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("cex.csv");
    let Run { status, stdout, .. } = run(&[
        "check",
        "--game",
        "nim",
        "--heaps",
        "1..=2",
        "--max",
        "3",
        "--rule",
        "misere",
        "--claim-p",
        "xor == 0",
        "--limit",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(status, 1, "{stdout}");
    assert!(
        stdout.contains("    2         16            4     12         4  (0 0) is N"),
        "{stdout}"
    );
    let csv = std::fs::read_to_string(&out).unwrap();
    assert_eq!(
        csv,
        "game,heaps,max,rule,criterion,position,dp,predicted\n\
         nim,1,3,misere,xor == 0,0,N,P\n\
         nim,1,3,misere,xor == 0,1,P,N\n\
         nim,2,3,misere,xor == 0,0 0,N,P\n\
         nim,2,3,misere,xor == 0,0 1,P,N\n"
    );
}

#[test]
fn cli_prints_counterexamples_without_out() {
    let Run { status, stdout, .. } = run(&[
        "check",
        "--game",
        "nim",
        "--heaps",
        "2",
        "--max",
        "3",
        "--rule",
        "misere",
        "--claim-p",
        "xor == 0",
        "--limit",
        "1",
    ]);
    assert_eq!(status, 1);
    assert!(stdout.ends_with(
        "\ngame,heaps,max,rule,criterion,position,dp,predicted\nnim,2,3,misere,xor == 0,0 0,N,P\n"
    ), "{stdout}");
}

#[test]
fn cli_bad_expression_exits_2_with_a_caret() {
    let Run { status, stdout, stderr } = run(&[
        "check",
        "--game",
        "nim",
        "--heaps",
        "3",
        "--max",
        "3",
        "--rule",
        "normal",
        "--claim-p",
        "xor == 0 && h4 > 1",
    ]);
    assert_eq!(status, 2);
    assert!(stdout.is_empty());
    assert_eq!(
        stderr,
        "nimtab: error: --claim-p, column 13: h4 names heap 4, but positions have 3 heaps\n\
         \x20 xor == 0 && h4 > 1\n\
         \x20             ^\n"
    );
}

#[test]
fn cli_division_by_zero_exits_2_naming_the_position() {
    let Run { status, stderr, .. } = run(&[
        "check",
        "--game",
        "nim",
        "--heaps",
        "2",
        "--max",
        "3",
        "--rule",
        "normal",
        "--claim-p",
        "h2 / h1 > 0",
    ]);
    assert_eq!(status, 2);
    assert_eq!(
        stderr,
        "nimtab: error: evaluating the claim 'h2 / h1 > 0': division by zero at position (0 0)\n"
    );
}

#[test]
fn cli_refuses_bad_arguments_with_status_2() {
    let base = ["check", "--game", "nim", "--max", "3", "--claim-p", "xor == 0"];
    for (extra, message) in [
        (vec!["--rule", "normal", "--heaps", "3..=2"], "the range is empty"),
        (vec!["--rule", "normal", "--heaps", "0..=2"], "heap counts start at 1"),
        (vec!["--rule", "normal", "--heaps", "2", "--limit", "0"], "--limit must be at least 1"),
        (vec!["--rule", "foo", "--heaps", "2"], "unknown rule 'foo'"),
        (vec!["--rule", "normal", "--heaps", "2", "--out", "/no/such/dir/x.csv"], "does not exist"),
    ] {
        let args: Vec<&str> = base.iter().copied().chain(extra.iter().copied()).collect();
        let Run { status, stderr, .. } = run(&args);
        assert_eq!(status, 2, "{extra:?}: {stderr}");
        assert!(stderr.contains(message), "{extra:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
}

#[test]
fn overlong_and_deeply_nested_claims_are_refused_at_a_column() {
    let nested = format!("{}xor == 0{}", "(".repeat(6000), ")".repeat(6000));
    let chain = format!("{}xor == 0", "1+".repeat(30000));
    let deep = format!("{}xor == 0{}", "(".repeat(150), ")".repeat(150));
    let cases = [
        (nested.as_str(), "column 2001: the expression is longer than 2000 characters"),
        (chain.as_str(), "column 2001: the expression is longer than 2000 characters"),
        (deep.as_str(), "column 102: the expression nests more than 100 levels deep"),
    ];
    for (claim, needle) in cases {
        let args = ["check", "--game", "nim", "--heaps", "2", "--max", "3", "--rule", "normal"];
        let Run { status: code, stderr: err, .. } =
            run(&[&args[..], &["--claim-p", claim]].concat());
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(needle), "{needle}: {}", &err[..err.len().min(300)]);
    }
    // A chain just under the length limit still evaluates, on worker threads too.
    let long = format!("{}xor == 0", "0+".repeat(995));
    let args = ["check", "--game", "nim", "--heaps", "4", "--max", "40", "--rule", "normal"];
    let Run { status: code, stdout: out, stderr: err } =
        run(&[&args[..], &["--claim-p", &long]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("the claim holds on all 2825761 positions"), "{out}");
}

#[test]
fn check_refuses_a_huge_max_before_sizing_anything_by_it() {
    // The Grundy values and option lists of 4 million sizes would take more than this
    // address space: the spaces are checked for memory before anything is sized by --max.
    let args = ["check", "--game", "subtract:1,2", "--heaps", "1..=2", "--max", "4194303"];
    let args = [&args[..], &["--rule", "normal", "--claim-p", "true"]].concat();
    let Run { status, stdout, stderr } = run_limited(200_000, &args);
    assert_eq!((status, stdout.as_str()), (2, ""), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let refusal = "nimtab: error: space too large: subtract:1,2, 1 heaps, max 4194303 needs ";
    assert!(stderr.starts_with(refusal), "{stderr}");
}

#[test]
fn control_characters_in_a_claim_keep_it_on_one_line_with_the_caret_in_place() {
    let claim = |text: &str| {
        run(&["check", "--game", "nim", "--heaps", "2", "--max", "3", "--rule", "normal"]
            .into_iter()
            .chain(["--claim-p", text])
            .collect::<Vec<_>>())
    };
    let unknown = "unknown name 'xo'; expected one of h1..hN, g1..gN, n, sum, max, min, xor, \
                   gxor, gmax, ones, rich, zeros, nonzero, pass, grundy, true, false";
    // The tab is shown as `\t`, two columns: the caret is under the x.
    let tab = claim("\txo == 0");
    assert_eq!(tab.status, 2);
    assert_eq!(
        tab.stderr,
        format!("nimtab: error: --claim-p, column 2: {unknown}\n  \\txo == 0\n    ^\n")
    );
    // A newline inside the claim does not split the display.
    let newline = claim("xo\n == 0");
    assert_eq!(
        newline.stderr,
        format!("nimtab: error: --claim-p, column 1: {unknown}\n  xo\\n == 0\n  ^\n")
    );
}
