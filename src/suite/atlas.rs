//! The default suite's atlas: every octal code of up to two digits, its files in
//! `data/atlas/` and its section of the report.

use std::fmt::Write;

use crate::atlas::compare::PublishedTable;
use crate::atlas::files;
use crate::atlas::{
    classes, AtlasError, AtlasObserver, AtlasRequest, AtlasSettings, Class, Entry, Equality, METHOD,
};
use crate::export::report::Section;
use crate::sweep::Games;

/// The suite's family of codes.
pub const ATLAS_CODES: &str = "octal(2)";

/// The suite's settings: the command's defaults.
pub const ATLAS_SETTINGS: AtlasSettings = AtlasSettings {
    budget: 1 << 20,
    dense_budget: 1 << 16,
    quotient_heap: 20,
    quotient_order: 256,
    method: METHOD,
    seconds: None,
};

/// Published figures the suite compares its atlas with, in the atlas's columns: Kayles
/// (Winning Ways: last exceptional value at heap 70, period 12) and `.56` (OEIS A071436:
/// "the last exception is at n=326637", period 144), each last exception `x` written as
/// the preperiod `x + 1` it implies.
pub const PUBLISHED: &str = "code,preperiod,period\n.77,71,12\n.56,326638,144\n";

/// The command that writes the same files.
pub const ATLAS_COMMAND: &str = "nimtab atlas --codes 'octal(2)' --out data/atlas";

/// The suite's atlas: its entries and classes.
#[derive(Debug)]
pub struct AtlasFacts {
    /// Every code's entry, in the tables' order.
    pub entries: Vec<Entry>,
    /// The classes.
    pub classes: Vec<Class>,
}

/// The suite's atlas request.
pub fn suite_request() -> AtlasRequest {
    AtlasRequest {
        codes: Games::Text(ATLAS_CODES.to_string()),
        force: false,
        settings: ATLAS_SETTINGS,
    }
}

/// Computes the suite's atlas, reporting each code to `observer`.
///
/// # Errors
/// A run's error (none is expected: the family and settings are fixed).
pub fn suite_atlas(observer: &dyn AtlasObserver) -> Result<AtlasFacts, AtlasError> {
    let atlas = suite_request().plan()?;
    let entries = atlas.solve(Vec::new(), observer)?;
    let classes = classes(&entries);
    Ok(AtlasFacts { entries, classes })
}

/// The atlas's files, as `nimtab atlas` writes them into `data/atlas/`.
///
/// # Errors
/// Never in practice (writing to memory).
pub fn atlas_files(facts: &AtlasFacts) -> std::io::Result<Vec<(String, Vec<u8>)>> {
    let mut files = Vec::new();
    for file in files::atlas_files(&ATLAS_SETTINGS, &facts.entries, &facts.classes) {
        let mut bytes = Vec::new();
        file.write_to(&mut bytes)?;
        files.push((format!("atlas/{}", file.name), bytes));
    }
    Ok(files)
}

/// The report's section: counts, the longest certified period, the classes proved and
/// those equal only as far as computed, and the unsolved codes.
pub fn atlas_section(facts: &AtlasFacts) -> Section {
    let (entries, classes) = (&facts.entries, &facts.classes);
    let solved: Vec<&Entry> = entries.iter().filter(|e| e.period.is_some()).collect();
    let mut body = String::new();
    let _ = writeln!(
        body,
        "Every octal code of one or two digits after the point, leading digit 0 or 4 \
         (`{ATLAS_COMMAND}`; the files in `data/atlas/`). A code is `solved` when its period \
         is certified by a theorem (the octal periodicity theorem, or for codes that never \
         split a heap the plain one) within {} heaps; otherwise it was computed to {} heaps \
         ({} for codes whose values do not split into common and rare) and is `unsolved`.\n",
        ATLAS_SETTINGS.budget, ATLAS_SETTINGS.budget, ATLAS_SETTINGS.dense_budget
    );
    let longest = solved.iter().max_by_key(|e| e.period.as_ref().map(|p| (p.period, p.preperiod)));
    let _ = writeln!(body, "| codes | solved | unsolved | classes | proved classes of several codes | classes equal only as far as computed |");
    let _ = writeln!(body, "|---:|---:|---:|---:|---:|---:|");
    let proved = classes
        .iter()
        .filter(|c| !matches!(c.how, Equality::Single | Equality::EqualThrough))
        .count();
    let bounded = classes.iter().filter(|c| c.how == Equality::EqualThrough).count();
    let _ = writeln!(
        body,
        "| {} | {} | {} | {} | {proved} | {bounded} |\n",
        entries.len(),
        solved.len(),
        entries.len() - solved.len(),
        classes.len()
    );
    if let Some(e) = longest.and_then(|e| Some((e, e.period.as_ref()?))) {
        let (entry, p) = e;
        let _ = writeln!(
            body,
            "The longest certified period: `{}`, period {} from heap {} (checked through heap \
             {}, {}).\n",
            entry.code, p.period, p.preperiod, p.checked_through, p.theorem
        );
    }
    published_differences(&mut body, facts);
    let _ = writeln!(body, "Classes of several codes:\n");
    let _ = writeln!(body, "| standard form | members | how | through |\n|---|---|---|---:|");
    for class in classes.iter().filter(|c| c.members.len() > 1) {
        let through = class.through.map_or(String::new(), |n| n.to_string());
        let _ = writeln!(
            body,
            "| `{}` | {} | {} | {through} |",
            class.standard_form,
            class.members.join(" "),
            class.how.name()
        );
    }
    let _ = writeln!(body, "\nUnsolved codes (standard forms), with how far computed:\n");
    let _ = writeln!(body, "| code | computed to | stopped | largest value (first heap) | rare mask | rare heaps | last rare |\n|---|---:|---|---:|---|---:|---:|");
    for class in classes {
        let Some(e) = entries.iter().find(|e| e.code == class.standard_form && e.period.is_none())
        else {
            continue;
        };
        let (mask, count, last) = match &e.rare {
            Some(r) => (format!("`{:x}`", r.mask), r.count.to_string(), r.last.to_string()),
            None => Default::default(),
        };
        let _ = writeln!(
            body,
            "| `{}` | {} | {} | {} ({}) | {mask} | {count} | {last} |",
            e.code,
            e.computed_to,
            e.stopped.name(),
            e.largest_value,
            e.largest_at
        );
    }
    Section { title: "The atlas of octal games".to_string(), body }
}

/// The comparison with [`PUBLISHED`]: every figure that differs, and whether the atlas's is
/// proved.
fn published_differences(body: &mut String, facts: &AtlasFacts) {
    let codes: Vec<String> = facts.entries.iter().map(|e| e.code.clone()).collect();
    let Ok(table) = PublishedTable::parse(PUBLISHED, &codes) else { return };
    let differences = table.compare(&facts.entries, &facts.classes);
    let _ = writeln!(
        body,
        "Compared with published figures (Kayles `.77` from Winning Ways, `.56` from OEIS \
         A071436, each \"last exception\" x read as the preperiod x + 1), as `--compare` \
         does: {} differences.\n",
        differences.len()
    );
    if differences.is_empty() {
        return;
    }
    let _ =
        writeln!(body, "| code | column | published | computed | proof |\n|---|---|---:|---:|---|");
    for d in &differences {
        let _ = writeln!(
            body,
            "| `{}` | {} | {} | {} | {} |",
            d.code, d.column, d.published, d.computed, d.proof
        );
    }
    let _ = writeln!(body);
}
