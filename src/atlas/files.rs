//! The atlas's files: `atlas.csv` (one row per code), `classes.csv`, `atlas.json` and
//! the rare heaps of each class without a certified period.

use std::io::{self, Write};

use serde::Serialize;

use super::classes::Class;
use super::entry::{
    ArithmeticEvidence, AtlasSettings, CertifiedPeriod, Entry, QuotientOutcome, RareSplit, Stop,
};

/// The columns of `atlas.csv`.
pub const ATLAS_HEADER: [&str; 20] = [
    "code",
    "standard_form",
    "status",
    "preperiod",
    "period",
    "checked_through",
    "computed_to",
    "largest_value",
    "largest_at",
    "rare_mask",
    "rare_count",
    "last_rare",
    "quotient_max_heap",
    "quotient_order",
    "quotient_p_portion",
    "quotient_preperiod",
    "quotient_period",
    "class_how",
    "theorem",
    "stopped",
];

/// The columns of `classes.csv`.
pub const CLASSES_HEADER: [&str; 5] = ["class", "standard_form", "members", "how", "through"];

/// The class of `code` among `classes` (each code is in one).
///
/// # Panics
/// When no class has `code`: the classes are not those of the entries.
pub fn class_of<'c>(classes: &'c [Class], code: &str) -> &'c Class {
    classes.iter().find(|c| c.members.iter().any(|m| m == code)).expect("every code has a class")
}

/// The row of one code, in the order of [`ATLAS_HEADER`].
pub fn atlas_row(entry: &Entry, class: &Class) -> Vec<String> {
    let text = |n: Option<u64>| n.map_or(String::new(), |n| n.to_string());
    let p = entry.period.clone().or_else(|| arithmetic_period_cells(entry));
    let p = p.as_ref();
    let rare = entry.rare.as_ref();
    let (order, portion, q_pre, q_period) = match &entry.quotient.outcome {
        QuotientOutcome::Proved { order, p_portion, period, .. } => (
            order.to_string(),
            p_portion.join(" "),
            text(period.map(|(e, _)| u64::from(e))),
            text(period.map(|(_, p)| u64::from(p))),
        ),
        QuotientOutcome::NotComputed(_) => Default::default(),
    };
    vec![
        entry.code.clone(),
        class.standard_form.clone(),
        entry.status().to_string(),
        text(p.map(|p| p.preperiod)),
        text(p.map(|p| p.period)),
        text(p.map(|p| p.checked_through)),
        entry.computed_to.to_string(),
        entry.largest_value.to_string(),
        entry.largest_at.to_string(),
        rare.map_or(String::new(), |r| format!("{:x}", r.mask)),
        text(rare.map(|r| r.count)),
        text(rare.map(|r| r.last)),
        entry.quotient.max_heap.to_string(),
        order,
        portion,
        q_pre,
        q_period,
        class.how.name().to_string(),
        p.map_or(String::new(), |p| p.theorem.clone()),
        entry.stopped.name().to_string(),
    ]
}

/// A proved arithmetic period in the period cells: its theorem cell names the saltus,
/// the one column `atlas.csv` does not have.
fn arithmetic_period_cells(entry: &Entry) -> Option<CertifiedPeriod> {
    let a = entry.proved_arithmetic()?;
    Some(CertifiedPeriod {
        preperiod: a.preperiod,
        period: a.period,
        checked_through: a.through,
        theorem: format!("arithmetic-periodicity criterion (saltus {})", a.saltus),
        window: (a.preperiod, a.through + 1 - a.period),
    })
}

/// Writes `atlas.csv`: the header and one row per entry, in the entries' order.
///
/// # Errors
/// The writer's I/O error.
pub fn write_atlas_csv(
    out: &mut dyn Write,
    entries: &[Entry],
    classes: &[Class],
) -> io::Result<()> {
    let mut csv = csv::Writer::from_writer(out);
    csv.write_record(ATLAS_HEADER)?;
    for entry in entries {
        csv.write_record(atlas_row(entry, class_of(classes, &entry.code)))?;
    }
    csv.flush()
}

/// Writes `classes.csv`: one row per class, members separated by spaces.
///
/// # Errors
/// The writer's I/O error.
pub fn write_classes_csv(out: &mut dyn Write, classes: &[Class]) -> io::Result<()> {
    let mut csv = csv::Writer::from_writer(out);
    csv.write_record(CLASSES_HEADER)?;
    for (i, class) in classes.iter().enumerate() {
        csv.write_record(classes_row(i + 1, class))?;
    }
    csv.flush()
}

/// The row of the class numbered `number` (from 1), in the order of [`CLASSES_HEADER`].
pub fn classes_row(number: usize, class: &Class) -> [String; 5] {
    [
        number.to_string(),
        class.standard_form.clone(),
        class.members.join(" "),
        class.how.name().into(),
        class.through.map_or(String::new(), |n| n.to_string()),
    ]
}

/// Writes a rare-heaps file: `heap,grundy`, one row per rare heap.
///
/// # Errors
/// The writer's I/O error.
pub fn write_rare_csv(out: &mut dyn Write, rare_heaps: &[(u64, u32)]) -> io::Result<()> {
    writeln!(out, "heap,grundy")?;
    for (heap, value) in rare_heaps {
        writeln!(out, "{heap},{value}")?;
    }
    Ok(())
}

/// The name of the rare-heaps file of a class (`rare/0.161.csv`), when the atlas writes
/// one: the class has no certified period and its values split.
pub fn rare_file(class: &Class, entries: &[Entry]) -> Option<String> {
    let entry = entries.iter().find(|e| e.code == class.standard_form)?;
    (entry.period.is_none() && !entry.rare_heaps.is_empty())
        .then(|| format!("rare/{}.csv", class.standard_form))
}

/// One file of an atlas directory: its name (a relative path, `/` between parts) and
/// what writes its bytes.
pub struct AtlasFile<'a> {
    /// `atlas.csv`, `classes.csv`, `atlas.json` or `rare/CODE.csv`.
    pub name: String,
    write: Writer<'a>,
}

/// What writes one file's bytes.
type Writer<'a> = Box<dyn Fn(&mut dyn Write) -> io::Result<()> + 'a>;

impl std::fmt::Debug for AtlasFile<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AtlasFile").field("name", &self.name).finish_non_exhaustive()
    }
}

impl AtlasFile<'_> {
    /// Writes the file's bytes.
    ///
    /// # Errors
    /// The writer's I/O error.
    pub fn write_to(&self, out: &mut dyn Write) -> io::Result<()> {
        (self.write)(out)
    }
}

/// Every file of the atlas of `entries` (in the atlas's order) grouped into `classes`:
/// `atlas.csv`, `classes.csv`, `atlas.json`, then the rare heaps of each class that has
/// a file ([`rare_file`]), in the order of the classes.
pub fn atlas_files<'a>(
    settings: &'a AtlasSettings,
    entries: &'a [Entry],
    classes: &'a [Class],
) -> Vec<AtlasFile<'a>> {
    let file = |name: &str, write: Writer<'a>| AtlasFile { name: name.to_string(), write };
    let mut files = vec![
        file("atlas.csv", Box::new(move |w| write_atlas_csv(w, entries, classes))),
        file("classes.csv", Box::new(move |w| write_classes_csv(w, classes))),
        file("atlas.json", Box::new(move |w| write_json(w, settings, entries, classes))),
    ];
    for class in classes {
        let Some(name) = rare_file(class, entries) else { continue };
        let Some(entry) = entries.iter().find(|e| e.code == class.standard_form) else { continue };
        files.push(file(&name, Box::new(move |w| write_rare_csv(w, &entry.rare_heaps))));
    }
    files
}

/// One code in `atlas.json`.
#[derive(Serialize)]
struct JsonCode<'e> {
    code: &'e str,
    standard_form: &'e str,
    status: &'static str,
    period: Option<&'e CertifiedPeriod>,
    /// The arithmetic period the values show (evidence), only when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    arithmetic: Option<&'e ArithmeticEvidence>,
    computed_to: u64,
    stopped: Stop,
    largest_value: u32,
    largest_at: u64,
    rare: Option<&'e RareSplit>,
    quotient_max_heap: u32,
    quotient: &'e QuotientOutcome,
    first_values: &'e [u32],
    /// The values the period repeats, for the tables' `prefix(period)` notation (at most
    /// this many: longer blocks are cut, and `block_len` says how long they are).
    block: &'e [u32],
    block_len: usize,
}

/// The most values of a period's block `atlas.json` holds.
pub const JSON_BLOCK: usize = 1024;

/// Writes `atlas.json`: the settings, every code (its row's facts, the certificate's
/// window, an arithmetic period's evidence, the quotient's presentation and P-portion,
/// the first 100 values) and the classes; one code or class per line.
///
/// # Errors
/// The writer's I/O error.
pub fn write_json(
    out: &mut dyn Write,
    settings: &AtlasSettings,
    entries: &[Entry],
    classes: &[Class],
) -> io::Result<()> {
    writeln!(out, "{{\"settings\":{},", serde_json::to_string(settings)?)?;
    writeln!(out, "\"codes\":[")?;
    for (i, entry) in entries.iter().enumerate() {
        let class = class_of(classes, &entry.code);
        let code = JsonCode {
            code: &entry.code,
            standard_form: &class.standard_form,
            status: entry.status(),
            period: entry.period.as_ref(),
            arithmetic: entry.arithmetic.as_ref(),
            computed_to: entry.computed_to,
            stopped: entry.stopped,
            largest_value: entry.largest_value,
            largest_at: entry.largest_at,
            rare: entry.rare.as_ref(),
            quotient_max_heap: entry.quotient.max_heap,
            quotient: &entry.quotient.outcome,
            first_values: &entry.first_values,
            block: &entry.block[..entry.block.len().min(JSON_BLOCK)],
            block_len: entry.block.len(),
        };
        let comma = if i + 1 < entries.len() { "," } else { "" };
        writeln!(out, "{}{comma}", serde_json::to_string(&code)?)?;
    }
    writeln!(out, "],\n\"classes\":[")?;
    for (i, class) in classes.iter().enumerate() {
        let comma = if i + 1 < classes.len() { "," } else { "" };
        writeln!(out, "{}{comma}", serde_json::to_string(class)?)?;
    }
    writeln!(out, "]}}")
}
