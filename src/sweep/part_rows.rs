//! One part's rows checked against the sweep's jobs: per game, every space, ending and
//! criterion or claim in order, each row spelled as the sweep writes it, with counts
//! that add up; then the part's last line, its rows' count and SHA-256.

use std::io::{BufRead, Write};

use sha2::{Digest, Sha256};

use super::error::Result;
use super::part_format::{
    cannot_read, read_line, Fingerprint, Line, PartHeader, HEAD_LINES, MAX_ROW_LINE,
};
use super::quotient_bounds::QuotientBounds;
use super::quotient_rows::check_quotient_cells;
use super::{SweepError, SweepSpace};
use crate::analysis::criteria::Criterion;
use crate::export::summary::{multiset_space_cells, summary_header};
use crate::export::sweep_part::{last_line, Params, QUOTIENT_HEADER};
use crate::model::ending::Ending;
use crate::model::space::Mode;

/// The cells one job's row must have, besides the game and the results.
#[derive(Clone, Debug)]
pub(super) struct Job {
    heaps: String,
    max: String,
    ending: String,
    test: String,
    positions: u64,
}

/// What the rows of one game must be.
#[derive(Clone, Debug)]
pub(super) enum Jobs {
    /// A sweep's rows in the summary's columns: the jobs of one game in row order.
    Summary(Vec<Job>),
    /// A quotient sweep: one row per game, for heaps up to `max_heap`.
    Quotients {
        /// The largest heap.
        max_heap: u32,
    },
}

impl Jobs {
    /// Rows per game.
    pub(super) fn per_game(&self) -> usize {
        match self {
            Jobs::Summary(jobs) => jobs.len(),
            Jobs::Quotients { .. } => 1,
        }
    }

    /// The CSV header line of the rows.
    pub(super) fn header(&self) -> String {
        match self {
            Jobs::Summary(_) => summary_header().join(","),
            Jobs::Quotients { .. } => QUOTIENT_HEADER.join(","),
        }
    }
}

/// The jobs of one game in row order (space, then ending, then criterion or claim; or one
/// quotient), from the head's parameter lines; or the line and what is wrong with it.
pub(super) fn jobs(params: &Params) -> std::result::Result<Jobs, (u64, String)> {
    if params.test == "quotients" {
        let max_heap = QuotientBounds::parse(&params.space)
            .map(|bounds| bounds.max_heap)
            .ok_or_else(|| (3, format!("'{}' is not a quotient sweep's space", params.space)))?;
        if params.endings != "misere" {
            return Err((4, format!("'{}' is not a quotient sweep's rules", params.endings)));
        }
        return Ok(Jobs::Quotients { max_heap });
    }
    let space = parse_space(&params.space)
        .ok_or_else(|| (3, format!("'{}' is not a sweep's space", params.space)))?;
    let endings: Vec<&str> = params.endings.split(',').collect();
    for ending in &endings {
        if Ending::parse(ending).map(Ending::name).ok() != Some(*ending) {
            return Err((4, format!("'{ending}' is not a rule")));
        }
    }
    let tests: Vec<&str> = match params.test.split_once(' ') {
        Some(("criteria", names)) => names.split(',').collect(),
        Some(("claim", expr)) => vec![expr],
        _ => return Err((5, format!("'{}' is not a sweep's test", params.test))),
    };
    if params.test.starts_with("criteria ") {
        for name in &tests {
            if Criterion::parse(name).map(Criterion::name).ok() != Some(*name) {
                return Err((5, format!("'{name}' is not a criterion")));
            }
        }
    }
    let mut jobs = Vec::new();
    for (heaps, max, positions) in space_jobs(&space) {
        for ending in &endings {
            for test in &tests {
                let (heaps, max) = (heaps.clone(), max.clone());
                let (ending, test) = (ending.to_string(), test.to_string());
                jobs.push(Job { heaps, max, ending, test, positions });
            }
        }
    }
    Ok(Jobs::Summary(jobs))
}

/// A space line read back: `heaps A..=B, max M[, canonical]` or `multisets of total<=T`,
/// exactly as [`SweepSpace::describe`] words it.
fn parse_space(text: &str) -> Option<SweepSpace> {
    let space = if let Some(total) = text.strip_prefix("multisets of total<=") {
        SweepSpace::total(total.parse().ok()?).ok()?
    } else {
        let rest = text.strip_prefix("heaps ")?;
        let (rest, mode) = match rest.strip_suffix(", canonical") {
            Some(rest) => (rest, Mode::Canonical),
            None => (rest, Mode::Full),
        };
        let (range, max) = rest.split_once(", max ")?;
        let (lo, hi) = range.split_once("..=")?;
        SweepSpace::heaps(lo.parse().ok()?, hi.parse().ok()?, max.parse().ok()?, mode).ok()?
    };
    (space.describe() == text).then_some(space)
}

/// Per space of a game: its `heaps` and `max` cells and its positions.
fn space_jobs(space: &SweepSpace) -> Vec<(String, String, u64)> {
    match space.multisets() {
        Some(multisets) => {
            let [heaps, max] = multiset_space_cells(multisets.total());
            vec![(heaps, max, multisets.positions())]
        }
        None => space
            .spaces()
            .iter()
            .map(|s| (s.heaps().to_string(), s.max().to_string(), s.positions()))
            .collect(),
    }
}

/// The check of one part's rows and last line.
pub(super) struct PartRows<'a> {
    head: &'a PartHeader,
    jobs: &'a Jobs,
    /// Rows written back, to compare with the bytes read: any other spelling of the
    /// same cells (quotes, spaces, blank lines) is not what the sweep wrote.
    canonical: csv::Writer<Vec<u8>>,
    digest: Sha256,
    game: String,
}

impl<'a> PartRows<'a> {
    pub(super) fn new(head: &'a PartHeader, jobs: &'a Jobs) -> PartRows<'a> {
        let canonical = spelling_writer();
        PartRows { head, jobs, canonical, digest: Sha256::new(), game: String::new() }
    }

    pub(super) fn check(
        mut self,
        input: &mut dyn BufRead,
        fingerprint: &mut Fingerprint,
        out: &mut dyn Write,
    ) -> Result<()> {
        let rows = self.head.rows;
        let mut buf = Vec::new();
        for k in 0..rows {
            let line = HEAD_LINES + 1 + k;
            self.read(input, &mut buf, line)?;
            if buf.starts_with(b"# end of part ") {
                let reason = format!("the part's last line comes after {k} of its {rows} rows");
                return Err(self.at(line, reason));
            }
            let job = k as usize % self.jobs.per_game();
            let cells = self.cells(&buf).map_err(|reason| self.at(line, reason))?;
            self.check_cells(&cells, job).map_err(|reason| self.at(line, reason))?;
            if job == 0 {
                fingerprint.add_game(&cells[0]);
                self.game.clone_from(&cells[0]);
            }
            self.digest.update(&buf);
            self.digest.update(b"\n");
            out.write_all(&buf)?;
            out.write_all(b"\n")?;
        }
        self.check_end(input, &mut buf)
    }

    fn at(&self, line: u64, reason: String) -> SweepError {
        part_line(self.head, line, reason)
    }

    /// Reads line `line`, which must be whole.
    fn read(&self, input: &mut dyn BufRead, buf: &mut Vec<u8>, line: u64) -> Result<()> {
        let read =
            read_line(input, buf, MAX_ROW_LINE).map_err(|e| cannot_read(&self.head.name, &e))?;
        let reason = match read {
            Line::Complete => return Ok(()),
            Line::TooLong => format!("longer than {} MiB", MAX_ROW_LINE >> 20),
            Line::Unterminated => "the part ends in the middle of a line".to_string(),
            Line::End => {
                let k = line - HEAD_LINES - 1;
                format!("the part ends after {k} of its {} rows", self.head.rows)
            }
        };
        Err(self.at(line, reason))
    }

    /// The cells of a row, which must be text without control characters, spelled as
    /// the sweep spells them.
    fn cells(&mut self, bytes: &[u8]) -> std::result::Result<Vec<String>, String> {
        if bytes.is_empty() {
            return Err("a blank line".to_string());
        }
        let text = std::str::from_utf8(bytes).map_err(|_| "not UTF-8 text".to_string())?;
        if let Some(c) = text.chars().find(|c| c.is_control()) {
            return Err(format!("a control character ({})", c.escape_unicode()));
        }
        let cells = split_cells(text).ok_or_else(|| "not a CSV row".to_string())?;
        let width = match self.jobs {
            Jobs::Summary(_) => summary_header().len(),
            Jobs::Quotients { .. } => QUOTIENT_HEADER.len(),
        };
        if cells.len() != width {
            return Err(format!("{} cells, not {width}", cells.len()));
        }
        // The writer's buffer grows by one row per row; it is replaced once it is large.
        if self.canonical.get_ref().len() > 1 << 20 {
            self.canonical = spelling_writer();
        }
        let before = self.canonical.get_ref().len();
        let written = self.canonical.write_record(&cells).is_ok() && self.canonical.flush().is_ok();
        let spelled = &self.canonical.get_ref()[before..];
        if !written || spelled.strip_suffix(b"\n") != Some(bytes) {
            return Err("the row is not spelled as the sweep writes it".to_string());
        }
        Ok(cells)
    }

    /// Checks a row's cells against its job: the game of its block, the space, ending
    /// and test in order, and counts that add up.
    fn check_cells(&self, cells: &[String], job: usize) -> std::result::Result<(), String> {
        let expected = match self.jobs {
            Jobs::Summary(jobs) => &jobs[job],
            Jobs::Quotients { max_heap } => return check_quotient_cells(cells, *max_heap),
        };
        if cells[0].is_empty() {
            return Err("the game cell is empty".to_string());
        }
        if job > 0 && cells[0] != self.game {
            let (game, rows) = (&self.game, self.jobs.per_game());
            return Err(format!("game '{}' where the {rows} rows of '{game}' go on", cells[0]));
        }
        let found = [&cells[1], &cells[2], &cells[3], &cells[4]];
        let wanted = [&expected.heaps, &expected.max, &expected.ending, &expected.test];
        if found != wanted {
            return Err(format!(
                "heaps, max, rule, criterion are {}, where the sweep's next job is {}",
                found.map(String::as_str).join(","),
                wanted.map(String::as_str).join(",")
            ));
        }
        let number = |i: usize| -> std::result::Result<u64, String> {
            let cell = &cells[i];
            match cell.parse::<u64>() {
                Ok(n) if n.to_string() == *cell => Ok(n),
                _ => Err(format!("{} '{cell}' is not a count", summary_header()[i])),
            }
        };
        let (positions, p, agree, disagree) = (number(5)?, number(6)?, number(7)?, number(8)?);
        if positions != expected.positions {
            return Err(format!(
                "{positions} positions where the space has {}",
                expected.positions
            ));
        }
        if p > positions || agree.checked_add(disagree) != Some(positions) {
            return Err(format!(
                "the counts {p}, {agree}, {disagree} do not add up to {positions}"
            ));
        }
        if cells[9].is_empty() != (disagree == 0) {
            return Err("the first counterexample does not match the disagreements".to_string());
        }
        Ok(())
    }

    /// Checks the last line (the count and digest of the rows) and that nothing follows.
    fn check_end(&self, input: &mut dyn BufRead, buf: &mut Vec<u8>) -> Result<()> {
        let line = HEAD_LINES + 1 + self.head.rows;
        let read =
            read_line(input, buf, MAX_ROW_LINE).map_err(|e| cannot_read(&self.head.name, &e))?;
        let digest: String =
            self.digest.clone().finalize().iter().map(|b| format!("{b:02x}")).collect();
        let expected = last_line(self.head.shard, self.head.rows, &digest);
        if !matches!(read, Line::Complete) || buf[..] != *expected.as_bytes() {
            let reason = match (&read, &buf[..]) {
                (Line::End, _) => "the part ends without its last line '# end of part ...'".into(),
                (Line::Unterminated, _) => "the part ends in the middle of its last line".into(),
                (_, found) if found.starts_with(b"# end of part ") => {
                    let records = String::from_utf8_lossy(found);
                    if records.rsplit(' ').next() == Some(digest.as_str()) {
                        format!("the last line is not '{expected}'")
                    } else {
                        "the rows do not have the SHA-256 the part's last line records: they \
                         were changed"
                            .to_string()
                    }
                }
                _ => format!("more rows than the {} the part announces", self.head.rows),
            };
            return Err(self.at(line, reason));
        }
        let more = read_line(input, buf, 1).map_err(|e| cannot_read(&self.head.name, &e))?;
        if !matches!(more, Line::End) {
            let reason = "text after the part's last line".to_string();
            return Err(self.at(line + 1, reason));
        }
        Ok(())
    }
}

/// A CSV writer set as the sweep's rows are written.
fn spelling_writer() -> csv::Writer<Vec<u8>> {
    csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new())
}

/// Splits one CSV line into cells: plain cells, or cells in double quotes with `""` for a
/// quote. `None` for a quote inside a plain cell or an unclosed quoted cell.
fn split_cells(line: &str) -> Option<Vec<String>> {
    let mut cells = Vec::new();
    let mut chars = line.chars().peekable();
    loop {
        let mut cell = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            loop {
                match chars.next()? {
                    '"' if chars.peek() == Some(&'"') => {
                        chars.next();
                        cell.push('"');
                    }
                    '"' => break,
                    c => cell.push(c),
                }
            }
        } else {
            while let Some(&c) = chars.peek() {
                match c {
                    ',' => break,
                    '"' => return None,
                    c => cell.push(c),
                }
                chars.next();
            }
        }
        cells.push(cell);
        match chars.next() {
            None => return Some(cells),
            Some(',') => {}
            Some(_) => return None,
        }
    }
}

/// A bad line of a part, by its number.
pub(super) fn part_line(head: &PartHeader, line: u64, reason: String) -> SweepError {
    SweepError::PartLine { part: head.name.clone(), line, reason }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_lines_split_into_cells() {
        let cells = |s: &str| split_cells(s).map(|c| c.join("|"));
        assert_eq!(cells("a,\"b,c\",,d").as_deref(), Some("a|b,c||d"));
        assert_eq!(cells("\"say \"\"hi\"\"\"").as_deref(), Some("say \"hi\""));
        assert_eq!(cells("a\"b"), None);
        assert_eq!(cells("\"open"), None);
        assert_eq!(cells("\"x\"y"), None);
    }

    #[test]
    fn space_lines_are_read_back_only_as_written() {
        let heaps = parse_space("heaps 1..=3, max 31").unwrap();
        assert_eq!(space_jobs(&heaps).iter().map(|j| j.2).collect::<Vec<_>>(), [32, 1024, 32768]);
        let canonical = parse_space("heaps 2..=2, max 3, canonical").unwrap();
        assert_eq!(space_jobs(&canonical), [("2".to_string(), "3".to_string(), 10)]);
        let total = parse_space("multisets of total<=4").unwrap();
        assert_eq!(space_jobs(&total), [("any".into(), "total<=4".into(), 12)]);
        for bad in ["heaps 1..=3, max 031", "heaps 3..=1, max 3", "multisets of total<=x", ""] {
            assert!(parse_space(bad).is_none(), "{bad}");
        }
    }
}
