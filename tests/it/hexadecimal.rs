//! Hexadecimal codes (`hex:`): every engine against the plain reference, with the moves
//! that leave three heaps; codes of digits up to 7 as the octal games; the refusals.

use std::collections::HashMap;

use nimtab::{Ending, Engine, Game, Labels, NoProgress, Space};
use proptest::prelude::*;

use crate::support::cli::run;
use crate::support::multiset_reference::{all_multisets, TbEnding, TbGame, TbReference};
use crate::support::with_threads;

/// Codes with three-heap moves: removals of 1 to 3, in-place splits in three (D0 = 8 or
/// C), and codes whose only move leaves three heaps.
const CODES: [&str; 8] =
    ["hex:0.3F", "hex:0.8", "hex:0.F", "hex:0.9", "hex:4.8", "hex:8.1", "hex:C.1", "hex:0.08"];

const ENDINGS: [TbEnding; 3] = [TbEnding::Normal, TbEnding::Misere, TbEnding::Sj];

/// The labels of every ending over multisets of total at most `total`, on two threads.
fn labels(game: &Game, total: u64) -> Vec<Labels> {
    let space = Space::multisets(total).unwrap();
    let engine = Engine::builder(game, space).parallel_threshold(0).build();
    with_threads(2, || engine.label_all(&Ending::ALL, &NoProgress).unwrap())
}

/// The `heap,grundy` rows of `nimtab grundy` as values.
fn grundy_values(spec: &str, max: u32) -> Vec<u32> {
    let r = run(&["grundy", "--game", spec, "--max", &max.to_string()]);
    assert_eq!(r.status, 0, "{spec}: {}", r.stderr);
    let rows = r.stdout.lines().skip(1);
    rows.map(|line| line.split_once(',').unwrap().1.parse().unwrap()).collect()
}

/// The reference's `G(0..=max)`.
fn reference_values(spec: &str, max: u32) -> Vec<u32> {
    let (game, mut memo) = (TbGame::parse(spec), HashMap::new());
    (0..=max).map(|n| game.grundy(n, &mut memo)).collect()
}

#[test]
fn grundy_values_of_0_3f_repeat_with_a_saltus_of_three() {
    let expected = [0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5, 6, 7, 8, 6, 7, 8, 9, 10, 11];
    assert_eq!(grundy_values("hex:0.3F", 20), expected);
    assert_eq!(grundy_values("hex:0.3f", 20), expected, "digits in lower case");
}

#[test]
fn grundy_of_hex_codes_agrees_with_the_reference_up_to_150() {
    for spec in CODES {
        assert_eq!(grundy_values(spec, 150), reference_values(spec, 150), "{spec}");
    }
}

#[test]
fn solve_total_of_hex_codes_agrees_with_the_reference_on_every_cell() {
    for spec in CODES {
        let r = run(&["solve", "--game", spec, "--total", "11"]);
        assert_eq!(r.status, 0, "{spec}: {}", r.stderr);
        let mut references: Vec<TbReference> =
            ENDINGS.iter().map(|&ending| TbReference::new(TbGame::parse(spec), ending)).collect();
        let rows: Vec<&str> = r.stdout.lines().skip(1).collect();
        assert_eq!(rows.len(), all_multisets(11).len(), "{spec}: one row per multiset");
        for row in rows {
            let cells: Vec<&str> = row.split(',').collect();
            let heaps: Vec<u32> = cells[0].split(' ').filter_map(|h| h.parse().ok()).collect();
            let gxor = heaps.iter().fold(0, |x, &h| x ^ references[0].grundy(h));
            assert_eq!(cells[2], gxor.to_string(), "{spec} {heaps:?}");
            for (reference, label) in references.iter_mut().zip(&cells[3..]) {
                let expected = if reference.is_p(&heaps) { "P" } else { "N" };
                assert_eq!(*label, expected, "{spec} {heaps:?}");
            }
        }
    }
}

#[test]
fn check_and_verify_over_multisets_read_the_three_heap_moves() {
    for spec in CODES {
        // Sprague-Grundy: under normal play P exactly when the heaps' values XOR to 0.
        let args = ["check", "--game", spec, "--total", "12", "--rule", "normal"];
        let r = run(&[&args[..], &["--claim-p", "gxor == 0"]].concat());
        assert_eq!(r.status, 0, "{spec}: {}{}", r.stdout, r.stderr);
        assert!(r.stdout.contains("the claim holds on all 272 positions"), "{}", r.stdout);
        let mut misere = TbReference::new(TbGame::parse(spec), TbEnding::Misere);
        let p = all_multisets(12).iter().filter(|heaps| misere.is_p(heaps)).count();
        let args = ["verify", "--game", spec, "--total", "12", "--rules", "misere"];
        let r = run(&[&args[..], &["--criteria", "xor"]].concat());
        assert_eq!(r.status, 0, "{spec}: {}", r.stderr);
        let row = r.stdout.lines().nth(1).unwrap();
        let cells: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(cells[..6], [spec, "any", "total<=12", "misere", "xor", "272"], "{row}");
        assert_eq!(cells[6], p.to_string(), "{spec}: {row}");
    }
}

#[test]
fn hex_codes_with_digits_up_to_7_are_the_octal_games() {
    for (hex, octal) in [("hex:0.77", "octal:0.77"), ("hex:4.07", "octal:4.07")] {
        assert_eq!(grundy_values(hex, 300), grundy_values(octal, 300), "{hex}");
        let (h, o) = (Game::parse(hex).unwrap(), Game::parse(octal).unwrap());
        assert_eq!(h.identity(), o.identity(), "{hex}: the same game");
        assert_eq!(h.spec(), hex, "the spelling stays hex:");
        let solve = |spec| run(&["solve", "--game", spec, "--total", "10"]).stdout;
        assert_eq!(solve(hex), solve(octal), "{hex}");
    }
}

#[test]
fn bad_hex_codes_are_refused_in_one_line_naming_the_value() {
    for (spec, says) in [
        ("hex:0.3G", "'hex:0.3G': 'G' (digit D2) is not a hexadecimal digit 0-F"),
        ("hex:", "'hex:': the code is empty"),
        ("hex:0.000", "'hex:0.000': every digit is 0, so the code allows no move at all"),
        ("hex:2.8", "the digit before the point must be 0, 4, 8 or C, got '2'"),
        ("octal:0.78", "digits up to F are a hexadecimal code, hex:0.78"),
        ("hex: 0.3F", "'hex: 0.3F': a code has no spaces"),
        ("octal:0. 77", "'octal:0. 77': a code has no spaces"),
    ] {
        for args in [
            vec!["grundy", "--game", spec, "--max", "5"],
            vec!["solve", "--game", spec, "--total", "4"],
        ] {
            let r = run(&args);
            assert_eq!(r.status, 2, "{args:?}");
            assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
            assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
        }
    }
}

#[test]
fn commands_without_a_three_heap_path_say_so_in_one_line() {
    // An arithmetic period is proved by the criterion, reading values through heap 38.
    let period = run(&["period", "--game", "hex:0.3F", "--max", "200"]);
    assert_eq!(period.status, 0, "{}", period.stderr);
    assert_eq!(period.stdout, "game,preperiod,period,saltus,checked_through\nhex:0.3F,0,6,3,38\n");
    // One the criterion does not prove is evidence, with the check that failed.
    let evidence = run(&["period", "--game", "hex:8.31C", "--max", "200"]);
    assert_eq!(evidence.status, 1, "{}", evidence.stderr);
    assert_eq!(evidence.stdout, "");
    assert_eq!(
        evidence.stderr.trim(),
        "nimtab: no period certified for hex:8.31C from heap sizes 0..=200 (largest Grundy \
         value 110): the values are arithmetic-periodic from heap 1 with period 11 and saltus \
         6 through heap 200: evidence to 200, not certified (the arithmetic-periodicity \
         criterion finds no witness for the value f(n) - 1 at heap 89)"
    );
    // An ordinary period of a game with three-heap moves is certified by the theorem for
    // moves that leave up to three heaps: window e <= n < 3 max(e, 1) + 2p + t = 8.
    let certified = run(&["period", "--game", "hex:0.F", "--max", "100"]);
    assert_eq!(certified.status, 0, "{}", certified.stderr);
    assert_eq!(certified.stdout, "game,preperiod,period,saltus,checked_through\nhex:0.F,0,2,0,9\n");
    // --verify-values recomputes heaps of a game with three-heap moves from every option.
    let verified = run(&["grundy", "--game", "hex:0.3F", "--max", "500", "--verify-values", "3"]);
    assert_eq!(verified.status, 0, "{}", verified.stderr);
    assert_eq!(
        verified.stderr.trim(),
        "nimtab: 3 values recomputed from their options agree with the run's (heaps 166 to 500)"
    );
    for (args, says) in [
        (vec!["grundy", "--game", "hex:0.8", "--max", "65537"], "at most 65536; got 65537"),
        (
            vec!["solve", "--game", "hex:0.8", "--heaps", "2", "--max", "5"],
            "hex:0.8 can split a heap in three, so tuples of a fixed number of heaps",
        ),
        (
            vec!["sweep", "--games", "hex(1)", "--heaps", "2", "--max", "5", "--out", "x.csv"],
            "game 1 of the family: hex:0.8 can split a heap in three",
        ),
    ] {
        let r = run(&args);
        assert_eq!(r.status, 2, "{args:?}: {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn random_hex_codes_agree_with_the_reference(
        d0 in prop_oneof![Just(0u32), Just(4), Just(8), Just(12)],
        digits in proptest::collection::vec(0u32..16, 1..=3),
    ) {
        // A code of zeros allows no move at all and is refused.
        prop_assume!(d0 != 0 || digits.iter().any(|&d| d != 0));
        let tail: String = digits.iter().map(|&d| char::from_digit(d, 16).unwrap()).collect();
        let spec = format!("hex:{}.{tail}", char::from_digit(d0, 16).unwrap());
        let game = Game::parse(&spec).unwrap();
        let table = labels(&game, 9);
        for (j, &ending) in ENDINGS.iter().enumerate() {
            let mut reference = TbReference::new(TbGame::parse(&spec), ending);
            for heaps in all_multisets(9) {
                let expected = reference.is_p(&heaps);
                prop_assert_eq!(table[j].is_p(&heaps), expected, "{} {:?}", spec, heaps);
            }
        }
        prop_assert_eq!(game.grundy(60), reference_values(&spec, 60), "{}", spec);
    }
}

#[test]
fn sweep_of_hex_k_runs_every_game_with_a_digit_above_7() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("hex1.csv");
    let args = ["sweep", "--games", "hex(1)", "--total", "8", "--rules", "normal"];
    let r = run(&[&args[..], &["--criteria", "xor", "--out", out.to_str().unwrap()]].concat());
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        "rule    criterion  games  hold  fail\nnormal  xor           48    48     0\n"
    );
    let rows = std::fs::read_to_string(&out).unwrap();
    let games: Vec<&str> = rows.lines().skip(1).map(|l| l.split(',').next().unwrap()).collect();
    assert_eq!((games.len(), games[0], games[47]), (48, "hex:0.8", "hex:C.F"));
    // hex:0.8 over multisets of total 8: its P count is the reference's.
    let mut reference = TbReference::new(TbGame::parse("hex:0.8"), TbEnding::Normal);
    let p = all_multisets(8).iter().filter(|heaps| reference.is_p(heaps)).count();
    assert!(rows.contains(&format!("hex:0.8,any,total<=8,normal,xor,67,{p},67,0,")), "{rows}");
}

#[test]
fn the_atlas_writes_a_hex_code_of_octal_digits_as_its_octal_code() {
    let dir = tempfile::tempdir().unwrap();
    let atlas = |codes: &str, name: &str| {
        let out = dir.path().join(name);
        run(&["atlas", "--codes", codes, "--out", out.to_str().unwrap(), "--quiet"])
    };
    let octal = atlas("hex:0.77", "b");
    assert_eq!(octal.status, 0, "{}", octal.stderr);
    let csv = std::fs::read_to_string(dir.path().join("b/atlas.csv")).unwrap();
    assert!(csv.lines().nth(1).unwrap().starts_with("0.77,"), "{csv}");
}
