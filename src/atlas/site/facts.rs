//! The last sections of a class page: the rare/common split of the values and each
//! member's misère quotient.

use std::fmt::Write;

use super::super::classes::Class;
use super::super::entry::{AtlasSettings, Entry, QuotientOutcome};
use super::html::{escape, member_anchor, Entries};

/// The most rare heaps a page lists.
const RARE_LISTED: usize = 200;

/// The standard form's rare/common split, and its rare heaps when the atlas kept them.
pub(super) fn rare_split(out: &mut String, entry: &Entry) {
    out.push_str("<h2>Rare and common values</h2>\n");
    let Some(rare) = &entry.rare else {
        let _ = writeln!(
            out,
            "<p>No mask splits the values of heaps 0 to {} into few rare and many common \
             (at most one heap in 32 rare).</p>",
            entry.computed_to
        );
        return;
    };
    let _ = writeln!(
        out,
        "<p>Mask {:#x} (binary {:b}): a value v is rare when popcount(v &amp; {:#x}) is even. \
         Of heaps 0 to {}, {} are rare (heap 0 among them), the last at heap {}.</p>",
        rare.mask, rare.mask, rare.mask, entry.computed_to, rare.count, rare.last
    );
    if entry.rare_heaps.is_empty() {
        return;
    }
    let listed = &entry.rare_heaps[..entry.rare_heaps.len().min(RARE_LISTED)];
    let more = match entry.rare_heaps.len() - listed.len() {
        0 => String::new(),
        n => format!(", and {n} more (the atlas's rare/{}.csv has them all)", entry.code),
    };
    let list: Vec<String> = listed.iter().map(|(n, v)| format!("G({n}) = {v}")).collect();
    let _ = writeln!(
        out,
        "<p>The rare heaps with their values:</p>\n<p class=\"sequence\">{}{}</p>",
        list.join(", "),
        escape(&more)
    );
}

/// Each member's misère quotient; a member whose quotient is the same as an earlier
/// member's says so instead of repeating it.
pub(super) fn quotients(
    out: &mut String,
    settings: &AtlasSettings,
    class: &Class,
    entries: &Entries<'_>,
) {
    out.push_str("<h2>Misère quotients</h2>\n");
    let mut seen: Vec<&Entry> = Vec::new();
    for code in &class.members {
        let e = entries[code.as_str()];
        let name = escape(code);
        let anchor = member_anchor(code);
        let _ = write!(out, "<h3><a href=\"#{anchor}\">{name}</a></h3>\n<p>");
        if let Some(same) = seen.iter().find(|s| s.quotient == e.quotient) {
            let _ = writeln!(out, "The same as {}'s.</p>", escape(&same.code));
            continue;
        }
        seen.push(e);
        let max = e.quotient.max_heap;
        let bound = if max < settings.quotient_heap {
            format!(
                " (lowered from {}: the last heap at which the quotient stays within the order \
                 bound {})",
                settings.quotient_heap, settings.quotient_order
            )
        } else {
            String::new()
        };
        match &e.quotient.outcome {
            QuotientOutcome::Proved { order, p_portion, presentation, period } => {
                let _ = write!(
                    out,
                    "Heaps up to {max}{bound}: order {order}, proved. P-portion ({} elements): \
                     {}.",
                    p_portion.len(),
                    escape(&p_portion.join(", "))
                );
                if let Some((e, p)) = period {
                    let _ = write!(
                        out,
                        " The class Φ(n) of a heap of n is certified periodic (preperiod \
                         {e}, period {p}), so this is the quotient of the whole game, every \
                         heap size."
                    );
                }
                let _ =
                    writeln!(out, "</p>\n<p class=\"presentation\">{}</p>", escape(presentation));
            }
            QuotientOutcome::NotComputed(why) => {
                let _ = writeln!(out, "Not computed: {}.</p>", escape(why));
            }
        }
    }
}
