//! Take-and-break games: octal codes and Grundy's game, their Grundy values against the
//! reference, certified periods, and octal codes in tuple spaces.

use std::collections::HashMap;

use crate::support::cli::run;
use crate::support::multiset_reference::TbGame;

/// The games of the reference comparisons.
pub const GAMES: [&str; 7] = [
    "octal:0.77",
    "octal:0.07",
    "octal:0.137",
    "octal:4.07",
    "nim",
    "subtract:1,3,4",
    "grundys-game",
];

/// The `heap,grundy` rows of `nimtab grundy` as values.
fn grundy_values(spec: &str, max: u32) -> Vec<u32> {
    let r = run(&["grundy", "--game", spec, "--max", &max.to_string()]);
    assert_eq!(r.status, 0, "{spec}: {}", r.stderr);
    let mut lines = r.stdout.lines();
    assert_eq!(lines.next(), Some("heap,grundy"));
    lines
        .enumerate()
        .map(|(h, line)| {
            let (heap, value) = line.split_once(',').unwrap();
            assert_eq!(heap.parse::<usize>().unwrap(), h);
            value.parse().unwrap()
        })
        .collect()
}

#[test]
fn grundy_agrees_with_the_reference_up_to_2000() {
    for spec in GAMES.iter().chain(&["octal:0.16", "subtract:2,5,7", "octal:0.4"]) {
        let game = TbGame::parse(spec);
        let mut memo = HashMap::new();
        // Bottom-up, so the reference's recursion stays shallow.
        let expected: Vec<u32> = (0..=2000).map(|n| game.grundy(n, &mut memo)).collect();
        assert_eq!(grundy_values(spec, 2000), expected, "{spec}");
    }
}

#[test]
fn grundy_values_start_like_the_oeis_sequences() {
    // A002186 (Kayles), A002187 (Dawson's Chess; Dawson's Kayles is it shifted by one),
    // A002188 (Grundy's game).
    let kayles = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7];
    assert_eq!(grundy_values("octal:0.77", 23), kayles);
    let chess = [0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3];
    assert_eq!(grundy_values("octal:0.137", 23), chess);
    assert_eq!(grundy_values("octal:0.07", 24)[1..], chess);
    let grundy = [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0];
    assert_eq!(grundy_values("grundys-game", 23), grundy);
}

#[test]
fn period_gives_the_known_answers_at_the_first_heap_where_the_window_fits() {
    // checked_through = the window's end + p - 1: e + p + t for games without splits,
    // 2 max(e, 1) + p + t for octal games; --max is only an upper bound.
    let known = [
        ("subtract:1,2", 0, 3, 7),
        ("subtract:1,3,4", 0, 7, 17),
        ("subtract:2,5,7", 0, 22, 50),
        ("octal:0.77", 71, 12, 167),
        ("octal:0.07", 53, 34, 175),
        ("octal:0.137", 52, 34, 174),
    ];
    for (spec, preperiod, period, first_fit) in known {
        let quoted = if spec.contains(',') { format!("\"{spec}\"") } else { spec.to_string() };
        let expected = format!(
            "game,preperiod,period,saltus,checked_through\n{quoted},{preperiod},{period},0,{first_fit}\n"
        );
        for max in ["1000", "5000"] {
            let r = run(&["period", "--game", spec, "--max", max]);
            assert_eq!(r.status, 0, "{spec}: {}", r.stderr);
            assert_eq!(r.stdout, expected, "--max {max}");
        }
        let exact = run(&["period", "--game", spec, "--max", &first_fit.to_string()]);
        assert_eq!(exact.stdout, expected, "{spec} at its first fit");
        let short = run(&["period", "--game", spec, "--max", &(first_fit - 1).to_string()]);
        assert_eq!(short.status, 1, "{spec} one heap short: {}", short.stdout);
    }
}

#[test]
fn period_not_certified_is_one_line_with_status_1() {
    let grundy = run(&["period", "--game", "grundys-game", "--max", "1000"]);
    assert_eq!(grundy.status, 1);
    assert!(grundy.stdout.is_empty());
    assert_eq!(grundy.stderr.lines().count(), 1, "{}", grundy.stderr);
    assert!(grundy.stderr.contains("largest Grundy value"), "{}", grundy.stderr);
    assert!(grundy.stderr.contains("no periodicity theorem covers this game"));
    let short = run(&["period", "--game", "octal:0.77", "--max", "150"]);
    assert_eq!(short.status, 1);
    assert!(
        short.stderr.contains("(largest Grundy value 8)") && short.stderr.contains("raise --max")
    );
}

#[test]
fn a_max_below_every_window_is_refused_before_any_work() {
    // 0.77 (t = 2) can be certified at the earliest at heap 2 + 1 + 2 = 5 (period 1 from
    // heap 0); subtract:1,3,4 (t = 4) at 0 + 1 + 4.
    for (game, max, first) in [("octal:0.77", "4", 5), ("subtract:1,3,4", "3", 5)] {
        let r = run(&["period", "--game", game, "--max", max]);
        assert_eq!(r.status, 2, "{game}: {}", r.stderr);
        assert_eq!(
            r.stderr,
            format!(
                "nimtab: error: --max {max} is below heap {first}, the first at which any period \
             of {game} can be certified ({}): raise --max\n",
                if game.starts_with("octal") {
                    "octal periodicity theorem"
                } else {
                    "no move splits a heap"
                }
            )
        );
    }
    assert_eq!(run(&["period", "--game", "octal:0.77", "--max", "5"]).status, 1);
}

#[test]
fn octal_codes_without_splits_label_tuples_as_their_subtraction_games() {
    for (octal, subtract, heaps) in
        [("octal:0.3", "subtract:1", "3"), ("octal:0.33", "subtract:1,2", "2")]
    {
        let solve = |game| run(&["solve", "--game", game, "--heaps", heaps, "--max", "20"]);
        let (a, b) = (solve(octal), solve(subtract));
        assert_eq!((a.status, b.status), (0, 0), "{}{}", a.stderr, b.stderr);
        assert_eq!(a.stdout, b.stdout, "{octal} and {subtract}");
        let canonical = |game| {
            run(&["solve", "--game", game, "--heaps", "3", "--max", "12", "--canonical"]).stdout
        };
        assert_eq!(canonical(octal), canonical(subtract));
    }
}

#[test]
fn splitting_games_in_tuple_spaces_point_to_total() {
    for args in [
        &["solve", "--game", "octal:0.77", "--heaps", "2", "--max", "5"][..],
        &["verify", "--game", "grundys-game", "--heaps", "1..=2", "--max", "5"],
        &["info", "--game", "octal:4.07", "--heaps", "2", "--max", "5"],
        &[
            "check",
            "--game",
            "octal:0.77",
            "--heaps",
            "2",
            "--max",
            "5",
            "--rule",
            "normal",
            "--claim-p",
            "true",
        ],
        &["moves", "--game", "octal:0.77", "3", "4"],
    ] {
        let r = run(args);
        assert_eq!(r.status, 2, "{args:?}");
        assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
        assert!(
            r.stderr.contains("can split a heap in two") && r.stderr.contains("--total T"),
            "{}",
            r.stderr
        );
    }
}

#[test]
fn bad_octal_codes_are_refused_with_one_line() {
    for (code, says) in [
        ("octal:0.78", "'8' (digit D2) is not an octal digit 0-7"),
        ("octal:2.7", "the digit before the point must be 0 or 4, got '2'"),
        ("octal:", "the code is empty"),
        ("octal:0.", "no digits after the point"),
        ("octal:77", "with D0 = 0 or 4"),
        ("grundy", "unknown game 'grundy'"),
    ] {
        let r = run(&["grundy", "--game", code, "--max", "5"]);
        assert_eq!(r.status, 2, "{code}");
        assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
        assert!(r.stderr.contains(says), "{code}: {}", r.stderr);
    }
}

#[test]
fn every_option_lies_in_an_earlier_layer() {
    // Layers run by total ascending, then heap count descending: an option lowers the
    // total, or keeps it and leaves two heaps for one.
    for spec in GAMES {
        let game = nimtab::Game::parse(spec).unwrap();
        for heap in 0..=40u32 {
            for parts in game.heap_options(heap) {
                let left: u32 = parts.iter().sum();
                let lowers_total = left < heap;
                let adds_a_heap = left == heap && parts[1] >= 1;
                assert!(lowers_total || adds_a_heap, "{spec}: {heap} -> {parts:?}");
            }
        }
    }
}

#[test]
fn an_octal_code_that_allows_no_move_is_refused_in_one_line() {
    for code in ["octal:0.0", "octal:0.00", "octal:0.000"] {
        for args in [
            vec!["grundy", "--game", code, "--max", "5"],
            vec!["solve", "--game", code, "--total", "4"],
            vec!["info", "--game", code, "--heaps", "2", "--max", "3"],
        ] {
            let got = run(&args);
            assert_eq!(got.status, 2, "{args:?}: {}", got.stderr);
            let expected = format!(
                "nimtab: error: bad octal code in '{code}': every digit is 0, so the code allows \
                 no move at all\n"
            );
            assert_eq!(got.stderr, expected, "{args:?}");
        }
    }
    // A family of codes leaves that one out: octal:0.0? is the 7 codes 0.01 to 0.07.
    let got = run(&["sweep", "--games", "octal:0.0?", "--total", "6", "--criteria", "xor"]);
    assert_eq!(got.status, 0, "{}", got.stderr);
    let games: Vec<&str> =
        got.stdout.lines().skip(1).map(|l| l.split(',').next().unwrap()).collect();
    let expected: Vec<String> = (1..=7).map(|d| format!("octal:0.0{d}")).collect();
    let mut seen = games.clone();
    seen.dedup();
    assert_eq!(seen, expected);
}
