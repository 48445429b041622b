//! A growing quotient's search replays the last growth's refinements before its first
//! check: few candidates fail a check, and the quotients are those of the plain search
//! (recorded from it).

use std::sync::atomic::{AtomicUsize, Ordering};

use nimtab::quotient::{compute, Quotient, QuotientConfig, QuotientProgress};
use nimtab::Game;
use sha2::{Digest, Sha256};

/// Counts the refined candidates a computation reports: one for each check that failed.
#[derive(Default)]
struct Refinements(AtomicUsize);

impl QuotientProgress for Refinements {
    fn heap_done(&self, _heap: u32, _order: usize) {}

    fn searching(&self, _heap: u32, _order: usize) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }
}

/// The quotient of `spec` for heaps up to `max_heap`, with the number of failed checks.
fn counted(spec: &str, max_heap: u32) -> (Quotient, usize) {
    let refinements = Refinements::default();
    let game = Game::parse(spec).unwrap();
    let q = compute(&game, &QuotientConfig::new(max_heap), &refinements).unwrap();
    (q, refinements.0.into_inner())
}

/// The SHA-256 of the presentation, the P-portion and every heap's element.
fn digest(q: &Quotient) -> String {
    let text = format!("{}\n{:?}\n{:?}", q.presentation(), q.p_portion(), q.phi_all());
    Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn octal_0_57_fails_few_checks_as_each_generator_replays_the_last_ones_refinements() {
    // The plain search fails 280 checks to heap 40: at each odd heap the new generator
    // sets the earlier heaps free one failed check at a time, as the one before did.
    let (q, failed) = counted("octal:0.57", 40);
    assert_eq!((q.order(), q.p_portion().len()), (122, 30));
    assert!(failed <= 60, "{failed} failed checks");
}

#[test]
fn replayed_searches_give_the_quotients_of_the_plain_search() {
    // Recorded from the search that refines only at failed checks.
    let recorded = [
        ("octal:0.57", 40, "d46362c42ddea6796a33749d82a7e6c9efca7d2f0caf3623fd1014b7da7f127e"),
        ("octal:0.07", 30, "aa83c5384cc2b7fc00cfce2c1c148c5137a9008a5dd6a7d61f24029579ee8257"),
        ("octal:4.7", 28, "9c32af63c55277875f82e446bb79ce8e66bba4185db746a1aa4fa819b1380307"),
        ("octal:0.35", 18, "1773068440f434f41731dac53febea365c27651d847b3397978d4ca514e6170f"),
        ("octal:0.54", 60, "e5265287617027a0d3d759f3bc876d9c12d48c22ada7fd8e2950d365b353f751"),
        ("octal:0.16", 16, "fba59e920a43bf59846ccdb7f89290e2ba8c6148e6354a9c9b60a12dbffbd2e0"),
    ];
    for (spec, max_heap, expected) in recorded {
        let (q, _) = counted(spec, max_heap);
        assert_eq!(digest(&q), expected, "{spec} to heap {max_heap}: {}", q.presentation());
    }
}
