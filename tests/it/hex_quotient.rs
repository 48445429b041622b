//! Quotients of hexadecimal codes, whose moves may leave three heaps: every position of
//! small totals against the plain reference under misère and normal play, the whole-game
//! certificate beyond the heaps computed, the command, checkpoints, sweeps and refusals.

use nimtab::quotient::{compute, QuotientConfig};
use nimtab::{Ending, Game, NoProgress};

use crate::support::cli::run;
use crate::support::multiset_reference::{all_multisets, TbEnding, TbGame, TbReference};

/// Codes with three-heap moves and the largest heap each is computed to: removals of 1 to
/// 3, in-place splits (D0 = 8 or C) and codes whose only move leaves three heaps.
const CODES: [(&str, u32); 8] = [
    ("hex:0.8", 14),
    ("hex:0.F", 14),
    ("hex:0.3F", 10),
    ("hex:0.B", 14),
    ("hex:0.48", 14),
    ("hex:8.1", 12),
    ("hex:C.1", 12),
    ("hex:4.8", 14),
];

/// Positions of total at most this are compared.
const TOTAL: u32 = 15;

#[test]
fn hex_quotients_predict_every_position_the_reference_labels_in_both_plays() {
    for (spec, max_heap) in CODES {
        let game = Game::parse(spec).unwrap();
        for (play, ending) in
            [(Ending::Misere, TbEnding::Misere), (Ending::Normal, TbEnding::Normal)]
        {
            let config = QuotientConfig { play, ..QuotientConfig::new(max_heap) };
            let q = compute(&game, &config, &NoProgress).unwrap();
            let mut reference = TbReference::new(TbGame::parse(spec), ending);
            let mut compared = 0;
            for heaps in all_multisets(TOTAL) {
                // Heaps above the largest computed are predicted only when the whole game
                // is certified: then they test the certificate too.
                let Some(predicted) = q.is_p(&heaps) else { continue };
                assert_eq!(predicted, reference.is_p(&heaps), "{spec} {play:?} {heaps:?}");
                compared += 1;
            }
            assert!(compared > 600, "{spec} {play:?}: {compared}");
        }
    }
}

#[test]
fn a_certified_hex_quotient_predicts_heaps_beyond_the_window() {
    // hex:0.F (take one token, leave up to three heaps): Φ has period 2 from heap 0, and
    // the window 3·max(n0, 1) + 3p + t - 1 = 9 fits at heap 9.
    let game = Game::parse("hex:0.F").unwrap();
    let q = compute(&game, &QuotientConfig::new(40), &NoProgress).unwrap();
    assert_eq!((q.max_heap(), q.certified_at(), q.order()), (9, Some(9), 2));
    let period = q.period().unwrap();
    assert_eq!((period.preperiod, period.period), (0, 2));
    let mut reference = TbReference::new(TbGame::parse("hex:0.F"), TbEnding::Misere);
    for heaps in all_multisets(TOTAL).into_iter().filter(|h| h.iter().any(|&x| x > 9)) {
        assert_eq!(q.is_p(&heaps), Some(reference.is_p(&heaps)), "{heaps:?}");
    }
}

#[test]
fn the_quotient_command_takes_hex_codes_and_checks_them_against_the_tables() {
    let r = run(&["quotient", "--game", "hex:0.48", "--max-heap", "20", "--check", "14"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    let line = |name: &str| {
        let found = r.stdout.lines().find(|l| l.starts_with(name));
        found.unwrap_or_else(|| panic!("{name}: {}", r.stdout)).to_string()
    };
    assert_eq!(line("order"), "order         18");
    assert_eq!(
        line("presentation"),
        "presentation  <a, b, c, d | a^2 = 1, c^2 = b^2, d^2 = b^2, b^3 = b, b^2c = c, b^2d = d>"
    );
    assert_eq!(
        line("checked"),
        "checked 508 positions (multisets of heaps of size at most 20 and total at most 14): \
         every misère label agrees with the quotient"
    );
}

#[test]
fn a_resumed_hex_quotient_gives_the_bytes_of_a_run_never_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("q.ck");
    let ck = ck.to_str().unwrap();
    let game = ["quotient", "--game", "hex:0.8", "--format", "json"];
    let whole = run(&[&game[..], &["--max-heap", "16"]].concat());
    assert_eq!(whole.status, 0, "{}", whole.stderr);
    let part = run(&[&game[..], &["--max-heap", "10", "--checkpoint", ck, "-q"]].concat());
    assert_eq!(part.status, 0, "{}", part.stderr);
    let resumed = run(&[&game[..], &["--max-heap", "16", "--resume", ck, "-q"]].concat());
    assert_eq!(resumed.status, 0, "{}", resumed.stderr);
    assert_eq!(resumed.stdout, whole.stdout);
    let other = run(&["quotient", "--game", "hex:0.9", "--max-heap", "16", "--resume", ck]);
    assert_eq!(other.status, 2);
    assert_eq!(
        other.stderr.trim(),
        format!(
            "nimtab: error: checkpoint {ck}: the checkpoint cannot be resumed: it is a \
             checkpoint of hex:0.8, not of hex:0.9"
        )
    );
}

#[test]
fn quotient_sweeps_take_hex_families_and_each_row_is_the_command_s() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("q.csv");
    let args = ["sweep", "--games", "octal:0.7;hex(1)", "--quotients", "10", "-q", "--out"];
    let r = run(&[&args[..], &[out.to_str().unwrap()]].concat());
    assert_eq!(r.status, 0, "{}", r.stderr);
    let csv = std::fs::read_to_string(&out).unwrap();
    assert_eq!(csv.lines().count(), 1 + 1 + 48, "{csv}");
    assert!(csv.contains("\nhex:0.8,10,10,6,2,true,,,ok\n"), "{csv}");
    assert!(csv.contains("\nhex:0.F,10,9,2,1,true,0,2,ok\n"), "{csv}");
    let q = compute(&Game::parse("hex:0.8").unwrap(), &QuotientConfig::new(10), &NoProgress);
    assert_eq!((q.as_ref().unwrap().order(), q.unwrap().p_portion().len()), (6, 2));
}

#[test]
fn hex_quotients_beyond_their_largest_heap_are_refused_with_one_line() {
    let r = run(&["quotient", "--game", "hex:0.8", "--max-heap", "16385"]);
    assert_eq!(r.status, 2);
    assert_eq!(
        r.stderr.trim(),
        "nimtab: error: --max-heap: the largest heap must be from 1 to 16384, got 16385"
    );
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("q.csv");
    let args = ["sweep", "--games", "octal:0.7;hex:0.8", "--quotients", "16385", "--out"];
    let r = run(&[&args[..], &[out.to_str().unwrap()]].concat());
    assert_eq!(r.status, 2);
    assert_eq!(
        r.stderr.trim(),
        "nimtab: error: game 2 of the family: the largest heap must be from 1 to 16384, got 16385"
    );
    assert!(!out.exists());
}

#[test]
fn the_quotient_criterion_of_verify_compares_hex_codes_in_both_plays() {
    let r = run(&["verify", "--game", "hex:0.8", "--total", "10", "--criteria", "quotient"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    let rows: Vec<&str> = r.stdout.lines().skip(1).take(2).collect();
    assert_eq!(
        rows,
        [
            "hex:0.8    any  total<=10  normal  quotient         139  75    139         0  -",
            "hex:0.8    any  total<=10  misere  quotient         139  50    139         0  -",
        ]
    );
}
