//! REPORT.md's take-and-break section: periods, and what the multiset tables show under
//! normal and misère play, written from the suite's facts.

use std::fmt::Write as _;

use super::takebreak::{
    LongPeriod, TakeBreakFacts, LONG_PERIOD_MAX, MISERE_P_TOTAL, PERIOD_MAX, SUITE_TOTAL,
};
use crate::analysis::criteria::Criterion;
use crate::export::report::Section;
use crate::model::ending::Ending;
use crate::model::position::{Label, Spaced};
use crate::sequence::period::PeriodOutcome;

/// The section, in the games' order, with the long periods after the suite's games.
pub fn takebreak_section(facts: &[TakeBreakFacts], long: &[LongPeriod]) -> Section {
    let mut body = String::new();
    let positions = facts.first().and_then(|f| f.findings.first()).map_or(0, |f| f.tally.positions);
    let _ = writeln!(
        body,
        "A move of these octal games removes tokens from one heap and may split what is left \
         in two, so a position is a multiset of heaps. The tables cover every multiset of \
         non-empty heaps of total at most {SUITE_TOTAL} ({positions} positions per game), \
         labelled from the move rule alone by the multiset DP (`nimtab verify --total \
         {SUITE_TOTAL}`); their rows in the matrix above read `any` heaps of \
         `total<={SUITE_TOTAL}`.\n"
    );
    periods(&mut body, facts, long);
    normal_play(&mut body, facts);
    misere_play(&mut body, facts);
    misere_positions(&mut body, facts);
    Section { title: "Take-and-break games".to_string(), body }
}

fn periods(out: &mut String, facts: &[TakeBreakFacts], long: &[LongPeriod]) {
    let _ = writeln!(out, "### Certified periods\n");
    let _ = writeln!(
        out,
        "From the Grundy values of heaps 0..={PERIOD_MAX} for the suite's games (`data/grundy/`, \
         `data/periods/`, `nimtab period`), and for two octal games with long preperiods from \
         their values up to the first heap where the window fits (`nimtab period --game \
         octal:CODE --max 2^{}`), certified by the octal periodicity theorem with the window \
         `e <= n < 2 max(e, 1) + p + t` (docs/guide/grundy-and-periods.md, \"nimtab \
         period\"); the proof reads the values of heaps 0..=N, N the heap where the window \
         fits.\n",
        LONG_PERIOD_MAX.trailing_zeros()
    );
    let _ = writeln!(out, "| game | name | preperiod | period | window fits at N | certified |");
    let _ = writeln!(out, "|---|---|---:|---:|---:|---|");
    let rows = facts
        .iter()
        .map(|f| (f.job.game.spec(), f.job.name, &f.period))
        .chain(long.iter().map(|l| (l.game.spec(), "-", &l.period)));
    for (spec, name, period) in rows {
        match period {
            PeriodOutcome::Certified(p) => {
                let theorem = p.certificate.name();
                let _ = writeln!(
                    out,
                    "| `{spec}` | {name} | {} | {} | {} | {theorem} |",
                    p.preperiod, p.period, p.checked_through
                );
            }
            PeriodOutcome::NotCertified { .. } => {
                let _ = writeln!(out, "| `{spec}` | {name} | - | - | - | not within the data |");
            }
        }
    }
    out.push('\n');
}

/// The finding of one ending and criterion.
fn tally(
    f: &TakeBreakFacts,
    ending: Ending,
    criterion: Criterion,
) -> Option<&crate::analysis::verify::Finding> {
    f.findings.iter().find(|x| x.ending == ending && x.criterion == Some(criterion))
}

fn normal_play(out: &mut String, facts: &[TakeBreakFacts]) {
    let _ = writeln!(out, "### Normal play\n");
    let counts: Vec<String> = facts
        .iter()
        .filter_map(|f| tally(f, Ending::Normal, Criterion::Xor).map(|x| (f, x)))
        .map(|(f, x)| {
            format!("`{}` {} of {}", f.job.game.spec(), x.tally.disagree, x.tally.positions)
        })
        .collect();
    let _ = writeln!(
        out,
        "XOR holds, as the Sprague–Grundy theorem says it must (a position is P exactly when \
         the XOR of its heaps' Grundy values is 0; a heap's value is the mex over its options, \
         a split's value the XOR of its two parts). Disagreements: {}.\n",
        counts.join(", ")
    );
}

fn misere_play(out: &mut String, facts: &[TakeBreakFacts]) {
    let _ = writeln!(out, "### Misère play\n");
    let _ = writeln!(
        out,
        "No criterion is a theorem here. Each failure with its first counterexample in rank \
         order (by total, then reverse lexicographic order):\n"
    );
    for f in facts {
        let mut parts = Vec::new();
        for criterion in Criterion::ALL {
            let Some(x) = tally(f, Ending::Misere, criterion) else { continue };
            parts.push(match x.tally.counterexamples.first() {
                None => format!("{criterion} holds"),
                Some(c) => format!(
                    "{criterion} fails on {} positions, first `({})` ({} by the DP)",
                    x.tally.disagree,
                    Spaced(&c.position),
                    Label::of(c.dp_is_p)
                ),
            });
        }
        let _ = writeln!(out, "- `{}` ({}): {}.", f.job.game.spec(), f.job.name, parts.join("; "));
    }
    out.push('\n');
    for f in facts {
        let _ = writeln!(out, "- {}", sj_sentence(f));
    }
    out.push('\n');
}

/// Why the SJ criterion fails for one game, from its tables.
fn sj_sentence(f: &TakeBreakFacts) -> String {
    let spec = f.job.game.spec();
    let sj_under_sj = tally(f, Ending::Sj, Criterion::Sj).map_or(0, |x| x.tally.disagree);
    let (differ, first) = &f.misere_sj_differ;
    if f.zero_heaps_with_moves.is_empty() {
        format!(
            "`{spec}`: every non-empty heap up to {SUITE_TOTAL} has a non-zero Grundy value, so \
             the SJ rule and misère play end the game at the same positions and label all \
             positions alike ({differ} differ); the SJ criterion still fails under the SJ rule \
             ({sj_under_sj} positions), because it is a theorem only for heaps that never split."
        )
    } else {
        let zero = &f.zero_heaps_with_moves;
        let mut heaps: Vec<String> = zero.iter().take(8).map(u32::to_string).collect();
        if zero.len() > 8 {
            heaps.push("…".to_string());
        }
        let first = first.as_ref().map_or("-".to_string(), |p| format!("`({})`", Spaced(p)));
        format!(
            "`{spec}`: heaps {} (up to {SUITE_TOTAL}) have Grundy value 0 and still have moves: \
             the SJ rule ends the game there while misère play goes on, and the two rules label \
             {differ} positions differently (first {first}); under the SJ rule the SJ \
             criterion fails on {sj_under_sj} positions, because it is a theorem only for heaps \
             that never split.",
            heaps.join(", ")
        )
    }
}

fn misere_positions(out: &mut String, facts: &[TakeBreakFacts]) {
    let _ = writeln!(out, "### Misère P-positions of small totals\n");
    let _ = writeln!(
        out,
        "Every misère P-position of total at most {MISERE_P_TOTAL} (the player to move loses; \
         `data/misere-p/`), heaps in non-increasing order:\n"
    );
    for f in facts {
        let _ = writeln!(out, "**`{}` ({})**\n", f.job.game.spec(), f.job.name);
        for total in 1..=MISERE_P_TOTAL {
            let of_total: Vec<String> = f
                .misere_p
                .iter()
                .filter(|p| p.iter().sum::<u32>() == total)
                .map(|p| format!("({})", Spaced(p)))
                .collect();
            let list = if of_total.is_empty() { "none".to_string() } else { of_total.join(", ") };
            let _ = writeln!(out, "- total {total}: {list}");
        }
        let heaps: Vec<String> = f.misere_p_heaps.iter().map(u32::to_string).collect();
        let _ = writeln!(
            out,
            "- single heaps up to {SUITE_TOTAL} that are misère P: {}\n",
            heaps.join(", ")
        );
    }
}
