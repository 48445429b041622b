//! The bytes of one shard's part of a sweep: five comment lines (the sweep's fingerprint
//! and the shard; the family; the space, rules and test, which decide the rows), the CSV
//! header, the rows, and a last line with their count and SHA-256.

use std::fmt::Display;
use std::io::{self, Write};
use std::ops::Range;

use sha2::{Digest, Sha256};

use super::format::Format;

/// The columns of a quotient sweep's CSV.
pub const QUOTIENT_HEADER: [&str; 9] = [
    "game",
    "max_heap",
    "last_heap",
    "order",
    "p_portion_size",
    "tame",
    "preperiod",
    "period",
    "status",
];

/// The first words of a part's first line.
pub const PART_MARK: &str = "# nimtab sweep ";

/// The family line shows at most this many bytes of the family's text (a list given from
/// Python may hold millions of specs); it describes, the fingerprint decides.
const FAMILY_SHOWN: usize = 4096;

/// The lines of a part that decide its rows besides the games, as written after `# `:
/// `space heaps 1..=3, max 31`, `rules normal,misere`, `criteria xor,sj` or `claim EXPR`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    /// The space, as the sweep words it.
    pub space: String,
    /// The endings' names, comma-separated (the `# rules` line).
    pub endings: String,
    /// `criteria NAMES` or `claim EXPR`.
    pub test: String,
}

/// What a part's head says, as a sweep of rows or of quotients fills it in.
#[derive(Clone, Debug)]
pub struct PartHead {
    /// The sweep's fingerprint.
    pub fingerprint: String,
    /// The shard, `I/N`.
    pub shard: String,
    /// The shard's games.
    pub games: Range<usize>,
    /// The sweep's games.
    pub total_games: usize,
    /// The rows the shard's games have.
    pub rows: u64,
    /// The family's text.
    pub family: String,
    /// The space, rules and test lines.
    pub params: Params,
    /// The CSV header line.
    pub header: String,
}

/// Writes a part: the head, then rows batch by batch, then the last line, keeping the
/// rows' count and digest as they go.
#[derive(Debug)]
pub struct PartLines {
    shard: String,
    rows: u64,
    digest: Sha256,
}

impl PartLines {
    /// Writes a part's head: the five comment lines and the CSV header.
    ///
    /// # Errors
    /// The writer's I/O error.
    pub fn start<W: Write + ?Sized>(out: &mut W, head: &PartHead) -> io::Result<PartLines> {
        let (games, params) = (&head.games, &head.params);
        writeln!(
            out,
            "{PART_MARK}{} part {}: games {}..{} of {}, {} rows",
            head.fingerprint, head.shard, games.start, games.end, head.total_games, head.rows,
        )?;
        writeln!(out, "# family {}", shown_family(&head.family))?;
        writeln!(out, "# space {}", params.space)?;
        writeln!(out, "# rules {}", params.endings)?;
        writeln!(out, "# {}", params.test)?;
        writeln!(out, "{}", head.header)?;
        Ok(PartLines { shard: head.shard.clone(), rows: 0, digest: Sha256::new() })
    }

    /// Writes `count` rows already formatted as CSV lines (the next in the shard's order).
    ///
    /// # Errors
    /// The writer's I/O error.
    pub fn lines<W: Write + ?Sized>(
        &mut self,
        out: &mut W,
        bytes: &[u8],
        count: usize,
    ) -> io::Result<()> {
        self.digest.update(bytes);
        self.rows += count as u64;
        out.write_all(bytes)
    }

    /// Writes the last line: the count of rows written and their SHA-256.
    ///
    /// # Errors
    /// The writer's I/O error.
    pub fn finish<W: Write + ?Sized>(self, out: &mut W) -> io::Result<()> {
        let digest = hex(&self.digest.finalize());
        writeln!(out, "{}", last_line(&self.shard, self.rows, &digest))
    }
}

/// A whole part: its head, `count` rows already formatted as CSV lines, its last line.
#[derive(Clone, Copy, Debug)]
pub struct SweepPart<'a> {
    /// The head.
    pub head: &'a PartHead,
    /// The rows' CSV lines.
    pub rows: &'a [u8],
    /// How many rows they are.
    pub count: usize,
}

impl Format for SweepPart<'_> {
    type Written = ();

    fn write_to(self, out: &mut dyn Write) -> io::Result<()> {
        let mut part = PartLines::start(out, self.head)?;
        part.lines(out, self.rows, self.count)?;
        part.finish(out)
    }
}

/// Rows of cells as CSV lines without a header (a sweep's rows, a quotient sweep's),
/// formatted in memory so that the writer's errors reach the caller as they are.
///
/// # Errors
/// The CSV writer's error.
pub fn csv_lines<R>(rows: impl IntoIterator<Item = R>) -> io::Result<Vec<u8>>
where
    R: IntoIterator,
    R::Item: AsRef<[u8]>,
{
    let mut csv = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
    for cells in rows {
        csv.write_record(cells)?;
    }
    csv.into_inner().map_err(|e| io::Error::other(e.to_string()))
}

/// Writes the header line of a quotient sweep's CSV.
///
/// # Errors
/// The writer's I/O error.
pub fn write_quotient_header<W: Write + ?Sized>(out: &mut W) -> io::Result<()> {
    writeln!(out, "{}", QUOTIENT_HEADER.join(","))
}

/// `bytes` in lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The last line of a part: `# end of part I/N: R rows, sha256 HEX`.
pub fn last_line(shard: impl Display, rows: u64, digest: &str) -> String {
    format!("# end of part {shard}: {rows} rows, sha256 {digest}")
}

/// The family's text on one line: control characters escaped, cut short past
/// [`FAMILY_SHOWN`] bytes.
fn shown_family(text: &str) -> String {
    let mut shown = String::new();
    for c in text.chars() {
        if shown.len() >= FAMILY_SHOWN {
            shown.push_str(" ...");
            break;
        }
        if c.is_control() {
            shown.extend(c.escape_debug());
        } else {
            shown.push(c);
        }
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_or_odd_families_are_shown_on_one_short_line() {
        assert_eq!(shown_family("nim;\u{1b}[31m"), "nim;\\u{1b}[31m");
        let long = "nim;".repeat(10_000);
        let shown = shown_family(&long);
        assert!(shown.len() < FAMILY_SHOWN + 10 && shown.ends_with(" ..."), "{}", shown.len());
    }
}
