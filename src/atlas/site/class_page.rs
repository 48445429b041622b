//! A class's page: its members, its values in the literature's notation with two
//! pictures, each member's certificate or bound, how the members were shown equal, the
//! rare/common split and the misère quotients.

use std::fmt::Write;

use super::super::classes::{Class, Equality};
use super::super::entry::{AtlasSettings, Entry, QuotientOutcome, Stop};
use super::facts::{quotients, rare_split};
use super::html::{class_path, escape, foot, head, heaps, member_anchor, Entries};
use super::notation::nim_sequence;
use super::svg::{frequency_chart, values_plot};

/// The most values the notation shows.
pub(super) const SHOWN: usize = 1000;
/// The most heaps the plot shows, and the fewest when a period gives more than the block.
const PLOT_MOST: usize = 1000;
const PLOT_FEWEST: usize = 100;

/// The neighbours of a class in the index's order, for the links between pages.
pub(super) struct Neighbours<'c> {
    pub(super) before: Option<&'c Class>,
    pub(super) after: Option<&'c Class>,
}

/// The page of `class`.
pub(super) fn class_page(
    settings: &AtlasSettings,
    class: &Class,
    entries: &Entries<'_>,
    around: &Neighbours<'_>,
) -> String {
    let entry = entries[class.standard_form.as_str()];
    let form = escape(&class.standard_form);
    let mut out = String::with_capacity(32 << 10);
    head(&mut out, &format!("Class {} — nimtab atlas", class.standard_form), "../");
    nav(&mut out, around);
    let _ = writeln!(out, "<main>\n<h1>Class {form}</h1>");
    let _ = writeln!(out, "<p>{}</p>", summary(class, entry));
    members(&mut out, class, entries);
    values(&mut out, entry);
    certificates(&mut out, class, entries);
    equality(&mut out, class);
    rare_split(&mut out, entry);
    quotients(&mut out, settings, class, entries);
    out.push_str("</main>\n");
    foot(&mut out, settings, None);
    out
}

/// The links to the index and to the classes before and after this one.
fn nav(out: &mut String, around: &Neighbours<'_>) {
    out.push_str("<nav><a href=\"../index.html\">All classes</a>");
    let link = |class: &Class, rel: &str, word: &str| {
        let target = escape(&class_path(&class.standard_form));
        let name = escape(&class.standard_form);
        format!(" · <a rel=\"{rel}\" href=\"../{target}\">{word} {name}</a>")
    };
    if let Some(class) = around.before {
        out.push_str(&link(class, "prev", "previous:"));
    }
    if let Some(class) = around.after {
        out.push_str(&link(class, "next", "next:"));
    }
    out.push_str("</nav>\n");
}

/// One sentence: how many codes, solved or not, how equal.
fn summary(class: &Class, entry: &Entry) -> String {
    let count = match class.members.len() {
        1 => "One code".to_string(),
        n => format!("{n} codes"),
    };
    let status = match &entry.period {
        Some(p) => format!("solved: preperiod {}, period {}", p.preperiod, p.period),
        None => format!("unsolved: computed to heap {}", entry.computed_to),
    };
    let how = match class.through {
        Some(n) => format!("{} {n}", class.how.name()),
        None => class.how.name().to_string(),
    };
    format!("{count}; the standard form {} is {status}; equality: {how}.", escape(&entry.code))
}

/// The members' table, each row the anchor that the index's links to a member point at.
fn members(out: &mut String, class: &Class, entries: &Entries<'_>) {
    out.push_str(
        "<h2>Members</h2>\n<table class=\"members\">\n<thead><tr><th>code</th><th>status</th>\
         <th>preperiod</th><th>period</th><th>values through heap</th><th>largest value \
         (first at heap)</th><th>rare heaps</th><th>quotient order (to heap)</th></tr></thead>\
         \n<tbody>\n",
    );
    for code in &class.members {
        let e = entries[code.as_str()];
        let p = e.period.as_ref();
        let through = p.map_or(e.computed_to, |p| p.checked_through);
        let order = match &e.quotient.outcome {
            QuotientOutcome::Proved { order, .. } => format!("{order} ({})", e.quotient.max_heap),
            QuotientOutcome::NotComputed(_) => "not computed".to_string(),
        };
        let _ = writeln!(
            out,
            "<tr id=\"{}\"><td><a href=\"#{0}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td>\
             <td>{through}</td><td>{} ({})</td><td>{}</td><td>{order}</td></tr>",
            member_anchor(code),
            escape(code),
            e.status(),
            p.map_or(String::new(), |p| p.preperiod.to_string()),
            p.map_or(String::new(), |p| p.period.to_string()),
            e.largest_value,
            e.largest_at,
            e.rare.map_or("no split".to_string(), |r| r.count.to_string()),
        );
    }
    out.push_str("</tbody>\n</table>\n");
}

/// The standard form's values in the notation, the plot and the frequencies.
fn values(out: &mut String, entry: &Entry) {
    out.push_str("<h2>Grundy values</h2>\n");
    notation(out, entry);
    pictures(out, entry);
}

/// What the notation shows, and the values in it: a solved class's block (its first
/// [`SHOWN`] values), an unsolved one's first values.
fn notation(out: &mut String, entry: &Entry) {
    let Some(p) = &entry.period else {
        let first = &entry.first_values;
        let _ = writeln!(
            out,
            "<p>No period is certified. The first {} values, G(0) to G({}), of those \
             computed to heap {}, written <code>G(0).G(1) G(2) …</code>:</p>",
            first.len(),
            first.len().saturating_sub(1),
            entry.computed_to
        );
        let _ = writeln!(out, "<p class=\"sequence\">{}</p>", nim_sequence(first, None, false));
        return;
    };
    let block = &entry.block;
    let how_many = if block.len() > SHOWN {
        format!("of which the first {SHOWN} are shown")
    } else {
        "all shown".to_string()
    };
    let _ = writeln!(
        out,
        "<p>Written <code>G(0).G(1) G(2) … (G(e) … G(e+p−1))</code>: the values in \
         parentheses repeat forever. Preperiod e = {}, period p = {}; the block G(0..e+p) \
         has {} values, {how_many}.</p>",
        p.preperiod,
        p.period,
        block.len()
    );
    let shown = &block[..block.len().min(SHOWN)];
    let text = nim_sequence(shown, Some(p.preperiod as usize), block.len() <= SHOWN);
    let _ = writeln!(out, "<p class=\"sequence\">{text}</p>");
}

/// The plot of the values and the chart of their frequencies, each under a heading that
/// says which heaps it covers.
fn pictures(out: &mut String, entry: &Entry) {
    let (plotted, period) = plotted(entry);
    let last = plotted.len().saturating_sub(1);
    let shaded = period.is_some_and(|(start, _)| start < plotted.len());
    let shade = if shaded { " (the first period shaded)" } else { "" };
    let _ = writeln!(out, "<h3>G(n) for heaps 0 to {last}{shade}</h3>");
    out.push_str(&values_plot(&plotted, period, &format!("G(n) for n from 0 to {last}")));
    let (counted, over) = match &entry.period {
        Some(p) => (
            &entry.block[..],
            format!("heaps 0 to {}: the preperiod and one period", p.preperiod + p.period - 1),
        ),
        None => (&entry.first_values[..], format!("heaps 0 to {last}: the first values")),
    };
    let top = counted.iter().copied().max().unwrap_or(0) as usize;
    let mut counts = vec![0u64; top + 1];
    counted.iter().for_each(|&v| counts[v as usize] += 1);
    let _ = writeln!(out, "<h3>How often each value occurs, over {over}</h3>");
    out.push_str(&frequency_chart(&counts, &format!("heaps of each value, over {over}")));
}

/// The heaps the plot shows: with a period, the block continued by it to at least
/// [`PLOT_FEWEST`] heaps and two periods, at most [`PLOT_MOST`]; else the first values.
fn plotted(entry: &Entry) -> (Vec<u32>, Option<(usize, usize)>) {
    let Some(p) = &entry.period else { return (entry.first_values.clone(), None) };
    let (e, period) = (p.preperiod as usize, p.period as usize);
    let heaps = (e + 2 * period).clamp(PLOT_FEWEST, PLOT_MOST);
    let at = |n: usize| entry.block[if n < e + period { n } else { e + (n - e) % period }];
    ((0..heaps).map(at).collect(), Some((e, period)))
}

/// Each member's certificate, or how far it was computed and why it stopped.
fn certificates(out: &mut String, class: &Class, entries: &Entries<'_>) {
    out.push_str("<h2>Certificates and bounds</h2>\n<ul>\n");
    for code in &class.members {
        let e = entries[code.as_str()];
        let text = match (&e.period, e.stopped) {
            (Some(p), _) => format!(
                "certified by the {}: G(n) = G(n + {}) was checked for {} ≤ n &lt; {}, \
                 which reads the values through heap {}, so the period {} from heap {} \
                 holds for every heap",
                escape(&p.theorem),
                p.period,
                p.window.0,
                p.window.1,
                p.checked_through,
                p.period,
                p.preperiod
            ),
            (None, Stop::Certified) => format!(
                "computed to heap {}, where the arithmetic period below was proved",
                e.computed_to
            ),
            (None, Stop::Dense) if code.starts_with("hex:") => format!(
                "computed to heap {}: a hexadecimal code's values are computed in memory by the \
                 plain mex, to the dense budget at most, and stopped there without a period \
                 the theorem certifies",
                e.computed_to
            ),
            (None, Stop::Dense) => format!(
                "computed to heap {}: its values do not split into common and rare, so it \
                 stopped at the dense budget (the plain mex costs time quadratic in the \
                 heaps) without a period the theorem certifies",
                e.computed_to
            ),
            (None, Stop::Time) => format!(
                "computed to heap {}: the time budget of {} s ran out without a period the \
                 theorem certifies",
                e.computed_to,
                e.settings.seconds.unwrap_or(0)
            ),
            (None, _) => format!(
                "computed to heap {}: the budget {} was reached without a period the \
                 theorem certifies",
                e.computed_to,
                heaps(e.settings.budget)
            ),
        };
        let evidence = e.arithmetic.map_or(String::new(), |a| {
            if a.proved {
                return format!(
                    "; its values are arithmetic-periodic, G(n + {}) = G(n) + {} for every \
                     heap from {}, proved by the arithmetic-periodicity criterion from the \
                     values through heap {}",
                    a.period, a.saltus, a.preperiod, a.through
                );
            }
            format!(
                "; its values are arithmetic-periodic, G(n + {}) = G(n) + {} from heap {} \
                 through heap {}: evidence, not certified (the arithmetic-periodicity \
                 criterion does not prove it)",
                a.period, a.saltus, a.preperiod, a.through
            )
        });
        let _ = writeln!(
            out,
            "<li><a href=\"#{}\">{}</a>: {text}{evidence}.</li>",
            member_anchor(code),
            escape(code)
        );
    }
    out.push_str("</ul>\n");
}

/// How the members were shown equal, in words.
fn equality(out: &mut String, class: &Class) {
    let text = match class.how {
        Equality::Single => {
            "No other code of the atlas has this sequence (as far as computed).".to_string()
        }
        Equality::Moves => "Proved equal by their moves: the codes differ only in moves that \
            take a whole heap of at most K tokens, and their values agree on heaps 0 to K, so \
            by induction on the heap the sequences agree for every heap."
            .to_string(),
        Equality::Periodic => "Proved equal by their periods: every member's period is \
            certified (or its arithmetic period G(n + p) = G(n) + s proved), with the same \
            preperiod e, period p, saltus s and values G(0..e+p), so the sequences agree for \
            every heap."
            .to_string(),
        Equality::MovesAndPeriodic => "Proved equal: some members by their moves (they \
            differ only in whole-heap moves of small heaps on which their values agree), the \
            others by equal certified periods; every link is a proof."
            .to_string(),
        Equality::EqualThrough => format!(
            "Equal only as far as computed: the members' values agree on heaps 0 to {}, and \
             nothing more is proved. The members are on this page; the atlas joins every code \
             whose values agree that far into one class, so no other class is related.",
            class.through.unwrap_or(0)
        ),
    };
    let _ = writeln!(out, "<h2>Equality</h2>\n<p>{text}</p>");
}
