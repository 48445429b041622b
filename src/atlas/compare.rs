//! Comparing a published table (any of the atlas's CSV columns) with the atlas: every cell
//! the table states that the atlas computes differently, and whether the atlas's value is
//! proved or only bounded evidence.

use serde::Serialize;

use super::classes::{Class, Equality};
use super::code::AtlasCode;
use super::entry::{Entry, QuotientOutcome};
use super::files::{atlas_row, ATLAS_HEADER};

/// One cell where the published table and the atlas disagree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Difference {
    /// The code (as the atlas writes it).
    pub code: String,
    /// The column.
    pub column: String,
    /// The published cell.
    pub published: String,
    /// The atlas's cell (empty: the atlas states nothing there).
    pub computed: String,
    /// `proved`, or the bound of the evidence (`computed to N`), with, for a published
    /// equivalence the atlas refutes, the first heap where the two sequences differ.
    pub proof: String,
}

/// Why a published table could not be compared.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CompareError {
    /// The table's header names a column the atlas does not have.
    #[error("column '{0}' is not an atlas column (expected some of {cols})", cols = ATLAS_HEADER.join(","))]
    UnknownColumn(String),
    /// The table has no `code` column.
    #[error("the table has no 'code' column")]
    NoCodeColumn,
    /// A row that is not CSV, or has a different number of cells from the header.
    #[error("line {line}: {message}")]
    Malformed {
        /// The line number (1 is the header).
        line: u64,
        /// What is wrong.
        message: String,
    },
    /// A row names a code that is not in the atlas.
    #[error("line {line}: code '{code}' is not in this atlas")]
    NotInAtlas {
        /// The line number.
        line: u64,
        /// The code as written.
        code: String,
    },
}

/// The code a table writes as `.161`, `0.161`, `octal:0.161` or `hex:0.3F`, as the atlas
/// writes it.
fn normalized(text: &str) -> Option<String> {
    let text = text.trim();
    let (kind, code) = match text.strip_prefix("hex:") {
        Some(code) => ("hex:", code),
        None => ("", text.strip_prefix("octal:").unwrap_or(text)),
    };
    let with_lead =
        if code.starts_with('.') { format!("{kind}0{code}") } else { format!("{kind}{code}") };
    AtlasCode::parse(&with_lead).ok().map(|c| c.to_string())
}

/// A published table, read and checked against the atlas's codes before any work.
#[derive(Clone, Debug)]
pub struct PublishedTable {
    /// The atlas column of each of the table's columns.
    columns: Vec<usize>,
    /// Each row: its code (as the atlas writes it) and its cells.
    rows: Vec<(String, Vec<String>)>,
}

impl PublishedTable {
    /// Reads `table` (CSV text with a header of atlas columns, `code` among them); every
    /// code must be one of `codes`.
    ///
    /// # Errors
    /// [`CompareError`] naming the column or line that cannot be read.
    pub fn parse(table: &str, codes: &[String]) -> Result<PublishedTable, CompareError> {
        let mut reader = csv::ReaderBuilder::new().has_headers(false).from_reader(table.as_bytes());
        let mut records = reader.records();
        let malformed =
            |line: u64, e: csv::Error| CompareError::Malformed { line, message: e.to_string() };
        let header = match records.next() {
            Some(record) => record.map_err(|e| malformed(1, e))?,
            None => return Err(CompareError::NoCodeColumn),
        };
        let columns: Vec<usize> = header
            .iter()
            .map(|name| {
                let name = name.trim();
                let at = ATLAS_HEADER.iter().position(|c| *c == name);
                at.ok_or_else(|| CompareError::UnknownColumn(name.into()))
            })
            .collect::<Result<_, _>>()?;
        let code_at = columns.iter().position(|&c| c == 0).ok_or(CompareError::NoCodeColumn)?;
        let mut rows = Vec::new();
        for (i, record) in records.enumerate() {
            let line = i as u64 + 2;
            let record = record.map_err(|e| malformed(line, e))?;
            let written = &record[code_at];
            let code = normalized(written)
                .filter(|c| codes.contains(c))
                .ok_or_else(|| CompareError::NotInAtlas { line, code: written.to_string() })?;
            rows.push((code, record.iter().map(|c| c.trim().to_string()).collect()));
        }
        Ok(PublishedTable { columns, rows })
    }

    /// Every cell of the table that differs from the atlas; empty published cells are
    /// not compared.
    pub fn compare(&self, entries: &[Entry], classes: &[Class]) -> Vec<Difference> {
        let mut differences = Vec::new();
        for (code, cells) in &self.rows {
            let Some(entry) = entries.iter().find(|e| &e.code == code) else { continue };
            let Some(class) = classes.iter().find(|c| c.members.contains(code)) else { continue };
            let row = atlas_row(entry, class);
            for (published, &column) in cells.iter().zip(&self.columns) {
                if column == 0 || published.is_empty() || same(column, published, &row[column]) {
                    continue;
                }
                differences.push(Difference {
                    code: code.clone(),
                    column: ATLAS_HEADER[column].to_string(),
                    published: published.clone(),
                    computed: row[column].clone(),
                    proof: proof_of(column, published, entry, class, entries),
                });
            }
        }
        differences
    }
}

/// Whether a published cell says what the atlas's says: codes as codes, the mask in any
/// case of hex, the rest as text.
fn same(column: usize, published: &str, computed: &str) -> bool {
    match ATLAS_HEADER[column] {
        "standard_form" => normalized(published).as_deref() == Some(computed),
        "rare_mask" => published.trim_start_matches("0x").eq_ignore_ascii_case(computed),
        _ => published == computed,
    }
}

/// How sure the atlas is of its cell in `column`: `proved` (a theorem: the certified
/// period and what it determines, a proved quotient, a class proof), `computed` (a fact of
/// the run: how far it went), or `bounded` (true of the heaps computed only).
fn proof_of(
    column: usize,
    published: &str,
    entry: &Entry,
    class: &Class,
    entries: &[Entry],
) -> String {
    let bounded = format!("bounded: computed to heap {}", entry.computed_to);
    let class_proved = class.how != Equality::EqualThrough;
    match ATLAS_HEADER[column] {
        "standard_form" => match normalized(published) {
            Some(other) if other != class.standard_form && other != entry.code => {
                refutation(entry, &other, entries)
            }
            _ if class_proved => {
                format!("proved: equal to {} ({})", class.standard_form, class.how.name())
            }
            _ => format!("bounded: {} ({})", class.standard_form, class.how.name()),
        },
        "class_how" if class_proved => "proved".to_string(),
        "quotient_max_heap" | "quotient_order" | "quotient_p_portion" | "quotient_preperiod"
        | "quotient_period" => match &entry.quotient.outcome {
            QuotientOutcome::Proved { .. } => "proved".to_string(),
            QuotientOutcome::NotComputed(why) => format!("not computed: {why}"),
        },
        "computed_to" | "checked_through" | "stopped" => "computed".to_string(),
        "status" | "preperiod" | "period" | "theorem" | "largest_value" | "largest_at"
            if entry.status() == "solved" =>
        {
            "proved".to_string()
        }
        _ => bounded,
    }
}

/// Why `entry`'s code is not equal to `other`: the first heap where their sequences
/// differ (computed again here), or that they agree as far as both were computed.
fn refutation(entry: &Entry, other: &str, entries: &[Entry]) -> String {
    let Some(them) = entries.iter().find(|e| e.code == other) else {
        return format!("{other} is not in this atlas");
    };
    let (Ok(a), Ok(b)) = (AtlasCode::parse(&entry.code), AtlasCode::parse(other)) else {
        return format!("{other} is not an octal or hexadecimal code");
    };
    let through = entry.computed_to.min(them.computed_to);
    let (va, vb) = (a.values(through), b.values(through));
    match va.iter().zip(&vb).position(|(x, y)| x != y) {
        Some(n) => {
            format!("proved: G({n}) is {} for {} but {} for {other}", va[n], entry.code, vb[n])
        }
        None => format!("bounded: the sequences agree on heaps 0..={through}"),
    }
}
