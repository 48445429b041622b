//! `index.html`: every class in one table, which `atlas.js` sorts by any column and
//! filters by a text box and a status.

use std::fmt::Write;

use super::super::classes::Class;
use super::super::entry::{AtlasSettings, Entry, QuotientOutcome};
use super::html::{class_path, escape, foot, head, member_anchor, Entries};

/// The columns: heading, whether it sorts as numbers, and what it holds.
const COLUMNS: [(&str, bool, &str); 12] = [
    ("#", true, "the class's number in classes.csv"),
    ("standard form", false, "the smallest code of the class"),
    ("members", false, "every code of the class"),
    ("status", false, "solved: a period certified by a theorem; unsolved: computed to a bound"),
    ("preperiod", true, "the least preperiod"),
    ("period", true, "the least period"),
    ("largest value", true, "the largest value over the heaps computed"),
    ("rare mask", true, "the mask of the rare/common split, in hex"),
    ("rare count", true, "rare heaps among the heaps computed"),
    ("last rare", true, "the last rare heap"),
    ("quotient order", true, "the order of the misère quotient"),
    ("how", false, "how the members were shown equal"),
];

/// The index page.
pub(super) fn index_page(
    settings: &AtlasSettings,
    classes: &[Class],
    entries: &Entries<'_>,
) -> String {
    let codes = entries.len();
    let solved = entries.values().filter(|e| e.status() == "solved").count();
    let mut out = String::with_capacity(4096 + classes.len() * 600);
    let games = if entries.keys().any(|code| code.starts_with("hex:")) {
        "octal and hexadecimal games"
    } else {
        "octal games"
    };
    let title = format!("Atlas of {games}: {codes} codes in {} classes", classes.len());
    head(&mut out, &title, "");
    let _ = write!(
        out,
        "<header><h1>{title}</h1>\n<p>{solved} codes solved (a period certified by a \
         theorem), {} unsolved (computed to a bound). A class is a set of codes with one \
         Grundy sequence; each row gives its standard form's figures, and its page gives \
         every member's. Click a column's heading to sort by it, again to reverse the \
         order; the text box keeps the classes whose codes, status or equality contain \
         its text.</p></header>\n<main>\n",
        codes - solved
    );
    controls(&mut out, classes.len());
    out.push_str("<table id=\"classes\">\n<thead><tr>");
    for (i, (name, numeric, help)) in COLUMNS.iter().enumerate() {
        let kind = if *numeric { "number" } else { "text" };
        let sort = if i == 0 { " aria-sort=\"ascending\"" } else { "" };
        let _ = write!(
            out,
            "<th data-kind=\"{kind}\" title=\"{help}\"{sort}><button type=\"button\">{name}\
             </button></th>"
        );
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for (i, class) in classes.iter().enumerate() {
        row(&mut out, i + 1, class, entries[class.standard_form.as_str()]);
    }
    out.push_str("</tbody>\n</table>\n</main>\n");
    foot(&mut out, settings, Some("atlas.js"));
    out
}

/// The text box, the status choice and the count of rows shown.
fn controls(out: &mut String, classes: usize) {
    let _ = writeln!(
        out,
        "<p class=\"controls\"><label>Filter <input id=\"filter\" type=\"search\" \
         placeholder=\"0.16, unsolved, equal_through\"></label> <label>Status \
         <select id=\"status\"><option value=\"\">all</option><option value=\"solved\">\
         solved</option><option value=\"unsolved\">unsolved</option></select></label> \
         <span id=\"shown\">{classes} of {classes} classes</span></p>"
    );
}

/// One class's row: its number, codes with their links, and its standard form's figures.
fn row(out: &mut String, number: usize, class: &Class, entry: &Entry) {
    let page = class_path(&class.standard_form);
    let how = match class.through {
        Some(n) => format!("{} {n}", class.how.name()),
        None => class.how.name().to_string(),
    };
    let search = format!("{} {} {how}", class.members.join(" "), entry.status());
    let _ = write!(
        out,
        "<tr data-status=\"{}\" data-search=\"{}\">",
        entry.status(),
        escape(&search.to_lowercase())
    );
    number_cell(out, Some(number as u64), None);
    let form = escape(&class.standard_form);
    let _ = write!(out, "<td><a href=\"{}\">{form}</a></td>", escape(&page));
    out.push_str("<td>");
    for (i, member) in class.members.iter().enumerate() {
        let target = format!("{page}#{}", member_anchor(member));
        let gap = if i == 0 { "" } else { " " };
        let _ = write!(out, "{gap}<a href=\"{}\">{}</a>", escape(&target), escape(member));
    }
    let _ = write!(out, "</td><td>{}</td>", entry.status());
    let period = entry.period.as_ref();
    number_cell(out, period.map(|p| p.preperiod), None);
    number_cell(out, period.map(|p| p.period), None);
    number_cell(out, Some(u64::from(entry.largest_value)), None);
    let rare = entry.rare.as_ref();
    number_cell(out, rare.map(|r| u64::from(r.mask)), rare.map(|r| format!("{:x}", r.mask)));
    number_cell(out, rare.map(|r| r.count), None);
    number_cell(out, rare.map(|r| r.last), None);
    let order = match &entry.quotient.outcome {
        QuotientOutcome::Proved { order, .. } => Some(*order as u64),
        QuotientOutcome::NotComputed(_) => None,
    };
    number_cell(out, order, None);
    let _ = writeln!(out, "<td>{}</td></tr>", escape(&how));
}

/// A numeric cell: its value for sorting in `data-v` (empty when there is none, which
/// sorts last), shown as `shown` or in decimal.
fn number_cell(out: &mut String, value: Option<u64>, shown: Option<String>) {
    match value {
        Some(v) => {
            let text = shown.unwrap_or_else(|| v.to_string());
            let _ = write!(out, "<td class=\"n\" data-v=\"{v}\">{}</td>", escape(&text));
        }
        None => out.push_str("<td class=\"n\" data-v=\"\"></td>"),
    }
}
