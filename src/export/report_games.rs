//! REPORT.md sections on the games that are not sums: what is proved, what is open, and
//! misère Wythoff's exceptions as the DP found them.

use std::fmt::Write as _;

use crate::analysis::criteria::Criterion;
use crate::analysis::verify::Finding;
use crate::export::report::Section;
use crate::model::ending::Ending;
use crate::model::position::{Label, SpacedState};

/// One section per game of the findings that is not a sum, in a fixed order: Wythoff's
/// game, Moore's Nim_K, circular Nim, Nim with a pass.
pub fn game_sections(findings: &[Finding]) -> Vec<Section> {
    let mut out = Vec::new();
    let of = |prefix: &str| -> Vec<&Finding> {
        findings.iter().filter(|f| f.game.starts_with(prefix)).collect()
    };
    let wythoff = of("wythoff");
    if !wythoff.is_empty() {
        out.push(wythoff_section(&wythoff));
    }
    let moore = of("moore:");
    if !moore.is_empty() {
        out.push(moore_section(&moore));
    }
    let circular = of("circular:");
    if !circular.is_empty() {
        out.push(Section { title: "Circular Nim".to_string(), body: circular_body(&circular) });
    }
    let passing: Vec<&Finding> = findings.iter().filter(|f| f.game.ends_with(" --pass")).collect();
    if !passing.is_empty() {
        out.push(Section { title: "Nim with a pass".to_string(), body: pass_body(&passing) });
    }
    out
}

/// `d disagreements among p positions` of the findings of `criterion` under `ending`.
fn tally_text(findings: &[&Finding], criterion: Criterion, ending: Ending) -> String {
    let group = findings.iter().filter(|f| f.criterion == Some(criterion) && f.ending == ending);
    let (d, p) = group.fold((0, 0), |(d, p), f| (d + f.tally.disagree, p + f.tally.positions));
    format!("{d} disagreements among {p} positions")
}

fn wythoff_section(findings: &[&Finding]) -> Section {
    let mut body = String::new();
    let _ = writeln!(
        body,
        "**Proved, and reproduced.** Normal play: P iff the heaps are {{⌊kφ⌋, ⌊kφ⌋ + k}} \
         (Wythoff 1907), with ⌊kφ⌋ computed exactly as ⌊(k + ⌊√(5k²)⌋)/2⌋: criterion \
         `wythoff`, {}. Misère play: criterion `wythoff-misere`, {}.\n",
        tally_text(findings, Criterion::Wythoff, Ending::Normal),
        tally_text(findings, Criterion::WythoffMisere, Ending::Misere)
    );
    let found = findings
        .iter()
        .find(|f| f.criterion == Some(Criterion::Wythoff) && f.ending == Ending::Misere);
    if let Some(f) = found {
        let list = |is_p: bool| -> String {
            let cells: Vec<String> = f
                .tally
                .counterexamples
                .iter()
                .filter(|c| c.dp_is_p == is_p)
                .map(|c| format!("({})", SpacedState(&c.position, c.pass)))
                .collect();
            cells.join(", ")
        };
        let _ = writeln!(
            body,
            "**Misère Wythoff's exceptions, as found.** The DP's misère labels differ from \
             Wythoff's pairs at exactly {} positions of {} (max {}): {} by the DP but not a \
             pair: {}; a pair but {} by the DP: {}. So the misère P-set is the pairs without \
             (0,0), (1,2), (2,1) and with (0,1), (1,0), (2,2), which `wythoff-misere` states \
             and the tests check.\n",
            f.tally.disagree,
            f.tally.positions,
            f.max,
            Label::P,
            list(true),
            Label::N,
            list(false)
        );
    }
    body.push_str(
        "**Open.** The Grundy values of Wythoff's game (OEIS A004481, `solve --grundy`) have \
         no closed form.",
    );
    Section { title: "Wythoff's game".to_string(), body }
}

fn moore_section(findings: &[&Finding]) -> Section {
    let games: Vec<&str> = findings.iter().map(|f| f.game.as_str()).collect();
    let body = format!(
        "**Proved, and reproduced.** Moore's theorem (1910) for `{}`: under normal play P iff \
         every binary digit column of the heaps sums to a multiple of K + 1 (criterion \
         `moore`, {}); under misère play the same, except that when every heap is at most 1, \
         P iff the number of 1-heaps is 1 mod K + 1 (criterion `moore-misere`, {}). The \
         same two criteria are Bouton's theorems for Nim (K = 1).",
        games.first().copied().unwrap_or("moore:K"),
        tally_text(findings, Criterion::Moore, Ending::Normal),
        tally_text(findings, Criterion::MooreMisere, Ending::Misere)
    );
    Section { title: "Moore's Nim_K".to_string(), body }
}

/// Per heap count, the P-positions under each ending, from the findings without a
/// criterion: `3 heaps, 4096 positions: 16 P under normal play, 17 under misere play`.
fn counts(findings: &[&Finding]) -> String {
    let mut heaps: Vec<usize> = findings.iter().map(|f| f.heaps).collect();
    heaps.dedup();
    let lines: Vec<String> = heaps
        .into_iter()
        .map(|n| {
            let of_n: Vec<&&Finding> =
                findings.iter().filter(|f| f.heaps == n && f.criterion.is_none()).collect();
            let positions = of_n.first().map_or(0, |f| f.tally.positions);
            let p: Vec<String> = of_n
                .iter()
                .map(|f| format!("{} under {} play", f.tally.p_positions, f.ending))
                .collect();
            format!("{n} heaps, {positions} positions: P {}", p.join(", "))
        })
        .collect();
    lines.join("; ")
}

fn circular_body(findings: &[&Finding]) -> String {
    format!(
        "**Open.** Circular Nim CN(n, k) (Dufour and Heubach, Electronic Journal of \
         Combinatorics 20(2), 2013) is solved only for some small n and k; no criterion \
         applies, so the tables are the result. The tests check two solved families on every \
         position of small spaces: CN(n, n − 1) (P iff all heaps are equal) and CN(4, 2) (P \
         iff h1 = h3 and h2 = h4). Here, `{}` with max {}: {}. The picture above shows a \
         3-heap slice. Sorted tuples cannot stand for all positions (the heaps stand in a \
         circle), so `--canonical` is refused.",
        findings[0].game,
        findings[0].max,
        counts(findings)
    )
}

fn pass_body(findings: &[&Finding]) -> String {
    format!(
        "**Open.** Nim with one pass shared by both players, allowed while the position has a \
         move (Morrison, Friedman and Landsberg, Chaos 21 (2011) 043108): with the pass \
         available, 1 heap is P iff it is 0 and 2 heaps are P iff they are (0,0) or \
         {{2j − 1, 2j}}, both checked by the tests; 3 heaps have no known closed form (the \
         P-set looks fractal). Here, `{}` with max {}, a position counted with its pass \
         available and used: {}. The picture above shows a 3-heap slice with the pass \
         available.",
        findings[0].game,
        findings[0].max,
        counts(findings)
    )
}
