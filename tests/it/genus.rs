//! The genus of heaps and sums of heaps: the canonical forms' genera against a brute-force
//! reference, the misère outcomes against the quotient, published values, and the command.

use nimtab::genus::{Genus, HeapForms};
use nimtab::quotient::{compute, QuotientConfig};
use nimtab::{Game, NoProgress};

use crate::support::cli::{run, run_limited};
use crate::support::genus_reference::GenusReference;

/// The γ values compared with the reference, from γ0.
const GAMMAS: u32 = 7;

fn forms(spec: &str, max_heap: u32) -> HeapForms {
    let mut forms = HeapForms::new(&Game::parse(spec).unwrap(), 1 << 30).unwrap();
    forms.extend_to(max_heap, &NoProgress).unwrap();
    forms
}

/// Asserts that `genus` is the reference's genus of the sum of `heaps`.
fn assert_matches(reference: &mut GenusReference, spec: &str, heaps: &[u32], genus: &Genus) {
    assert_eq!(genus.grundy, reference.normal_grundy(heaps), "{spec} {heaps:?}: G+");
    for k in 0..GAMMAS {
        let want = reference.gamma(heaps, k);
        assert_eq!(genus.gamma(k as usize), want, "{spec} {heaps:?}: γ{k} of {genus}");
    }
}

#[test]
fn every_heap_genus_agrees_with_brute_force_misere_values() {
    let games = [
        ("octal:0.77", 12),
        ("octal:0.07", 13),
        ("grundys-game", 15),
        ("octal:0.137", 13),
        ("octal:4.7", 10),
        ("subtract:1,2", 15),
        ("hex:0.3F", 9),
    ];
    for (spec, max_heap) in games {
        let forms = forms(spec, max_heap);
        let mut reference = GenusReference::new(spec);
        for n in 0..=max_heap {
            assert_matches(&mut reference, spec, &[n], forms.heap_genus(n));
        }
    }
}

#[test]
fn the_genus_of_a_sum_agrees_with_brute_force_misere_values() {
    let sums: [&[u32]; 7] =
        [&[3, 5], &[2, 2], &[4, 4], &[1, 6, 7], &[5, 5, 2], &[8, 1], &[2, 2, 2, 3]];
    for spec in ["octal:0.77", "octal:0.07", "grundys-game", "hex:0.3F"] {
        let mut forms = forms(spec, 0);
        let mut reference = GenusReference::new(spec);
        for heaps in sums {
            let genus = forms.position_genus(heaps, &NoProgress).unwrap();
            assert_matches(&mut reference, spec, heaps, &genus);
        }
    }
}

#[test]
fn misere_outcomes_of_heaps_and_pairs_agree_with_the_quotient() {
    // hex:0.3F's quotient outgrows the solver's candidates past heap 11.
    let games = [("octal:0.77", 14), ("octal:0.07", 14), ("octal:0.16", 14), ("hex:0.3F", 11)];
    for (spec, max_heap) in games {
        let game = Game::parse(spec).unwrap();
        let quotient = compute(&game, &QuotientConfig::new(max_heap), &NoProgress).unwrap();
        let mut forms = forms(spec, max_heap);
        for a in 0..=max_heap {
            for b in 0..=a {
                let genus = forms.position_genus(&[a, b], &NoProgress).unwrap();
                let p = quotient.is_p(&[a, b]).unwrap();
                assert_eq!(genus.misere_grundy() == 0, p, "{spec} ({a} {b}): {genus}");
            }
        }
    }
}

#[test]
fn kayles_heaps_have_the_published_genera() {
    // Winning Ways, chapter 13: Kayles' heap 5 is the first wild one, of genus 4^146.
    let forms = forms("octal:0.77", 17);
    let printed: Vec<String> = (0..=17).map(|n| forms.heap_genus(n).to_string()).collect();
    assert_eq!(printed[5], "4^146");
    assert_eq!(printed[..5], ["0", "1", "2", "3", "1"]);
    assert_eq!(printed[9], "4^046");
    assert_eq!(printed[15], "7^57");
}

#[test]
fn genus_prints_cgsuites_notation_for_wild_games_and_values_of_ten_or_more() {
    let kayles = forms("octal:0.77", 45);
    assert_eq!(kayles.heap_genus(45).to_string(), "8^(10,8)");
    assert_eq!(Genus::of_nim_heap(0).gammas, [1, 2, 0]);
    assert_eq!(Genus::of_nim_heap(1).gammas, [0, 3, 1]);
    assert_eq!(Genus::of_nim_heap(6).gammas, [6, 4]);
}

#[test]
fn genus_command_writes_the_csv_table_of_every_heap() {
    let got =
        run(&["--quiet", "genus", "--game", "octal:0.77", "--max-heap", "9", "--format", "csv"]);
    assert_eq!(got.status, 0, "{}", got.stderr);
    let want = "heap,genus,grundy,misere_grundy,tame\n0,0,0,1,true\n1,1,1,0,true\n2,2,2,2,true\n\
                3,3,3,3,true\n4,1,1,0,true\n5,4^146,4,1,false\n6,3,3,3,true\n7,2,2,2,true\n\
                8,1^13,1,1,false\n9,4^046,4,0,false\n";
    assert_eq!(got.stdout, want);
}

#[test]
fn genus_command_gives_the_genus_of_a_sum_of_heaps() {
    let got = run(&["--quiet", "genus", "--game", "octal:0.77", "--position", "3,5,7"]);
    assert_eq!(got.status, 0, "{}", got.stderr);
    assert_eq!(
        got.stdout,
        "genus of 3 5 7 in octal:0.77: 5^75 (grundy 5, misere grundy 7, wild)\n"
    );
}

#[test]
fn genus_command_labels_an_apparent_period_as_bounded_evidence() {
    let got = run(&["--quiet", "genus", "--game", "subtract:1,2", "--max-heap", "12"]);
    assert_eq!(got.status, 0, "{}", got.stderr);
    let last = got.stdout.lines().last().unwrap();
    assert_eq!(
        last,
        "periodic from heap 0 with period 3 through heap 12 (bounded evidence: no theorem \
         extends a genus sequence's period)"
    );
}

/// Runs a refused `genus` and returns its one stderr line.
fn refusal(args: &[&str]) -> String {
    let got = run(&[&["genus"], args].concat());
    assert_eq!(got.status, 2, "{args:?}: {}", got.stderr);
    assert_eq!(got.stderr.lines().count(), 1, "{}", got.stderr);
    assert!(got.stdout.is_empty(), "{}", got.stdout);
    got.stderr.trim_end().to_string()
}

#[test]
fn genus_command_refuses_bad_games_positions_and_bounds_with_one_line() {
    let line = refusal(&["--game", "nim", "--max-heap", "3"]);
    assert_eq!(
        line,
        "nimtab: error: a genus needs a take-and-break game of heaps (subtract:S, octal:CODE, \
         hex:CODE or grundys-game); nim is not one"
    );
    assert!(refusal(&["--game", "foo", "--max-heap", "3"]).contains("unknown game 'foo'"));
    let many = vec!["1"; 65].join(",");
    assert!(refusal(&["--game", "octal:0.77", "--position", &many])
        .ends_with("a position may have at most 64 heaps, got 65"));
    assert!(
        refusal(&["--game", "octal:0.77", "--position", "3,x"]).ends_with("'x' is not a heap size")
    );
    assert_eq!(
        refusal(&["--game", "octal:0.77", "--max-heap", "70000"]),
        "nimtab: error: --max-heap: the largest heap must be at most 65536, got 70000"
    );
    assert_eq!(
        refusal(&["--game", "octal:0.77", "--position", "3,70000"]),
        "nimtab: error: --position: the largest heap must be at most 65536, got 70000"
    );
    // One of the two, never both: --max-heap beside --position would be ignored.
    assert!(refusal(&["--game", "octal:0.77", "--position", "3", "--max-heap", "5"])
        .contains("'--position <H1,H2,...>' cannot be used with '--max-heap <N>'"));
}

#[test]
fn genus_past_the_memory_budget_is_refused_with_one_line_naming_the_need() {
    let got = run_limited(100_000, &["genus", "--game", "octal:0.77", "--max-heap", "90"]);
    assert_eq!(got.status, 2, "{}", got.stderr);
    assert_eq!(got.stderr.lines().count(), 1, "{}", got.stderr);
    let line = got.stderr.trim_end();
    assert!(line.starts_with("nimtab: error: the canonical forms need more than the "), "{line}");
    assert!(
        line.ends_with("(the budget is bound by the address-space limit (ulimit -v))"),
        "{line}"
    );
    assert!(got.stdout.is_empty());
}
