//! A part of a sweep (its bytes are `export::sweep_part`'s, written by
//! [`SweepOutput::write_csv`](crate::sweep::SweepOutput::write_csv)): its fingerprint, and
//! [`read_part_header`] reading the head back for the merge.

use std::io::{self, BufRead, Read};
use std::ops::Range;

use sha2::{Digest, Sha256};

use super::{Shard, SweepError};
use crate::export::summary::summary_header;
use crate::export::sweep_part::{hex, Params, PART_MARK, QUOTIENT_HEADER};

/// What the fingerprint's digest starts with: the version of the part format.
const FINGERPRINT_DOMAIN: &[u8] = b"nimtab sweep 2\n";

/// The longest header line a part may have: the family line is cut short well below it,
/// and a claim or a game spec is at most [`MAX_SWEEP_TEXT`].
pub const MAX_HEADER_LINE: usize = 1 << 20;

/// The longest row a part may have: a game spec and a claim of [`MAX_SWEEP_TEXT`] each,
/// every character doubled by CSV quoting, and the numbers.
pub const MAX_ROW_LINE: usize = 2 << 20;

/// The longest game spec or claim a sweep takes (256 KiB), so that a part's lines are
/// bounded.
pub const MAX_SWEEP_TEXT: usize = 256 << 10;

/// The sweep's fingerprint, computed as the games come: a digest of the parameters and
/// of every game's spec (as its rows name it) in the family's order.
pub(super) struct Fingerprint(Sha256);

impl Fingerprint {
    pub(super) fn new(params: &Params) -> Fingerprint {
        let mut hash = Sha256::new();
        hash.update(FINGERPRINT_DOMAIN);
        for line in [&params.space, &params.endings, &params.test] {
            hash.update(line.as_bytes());
            hash.update(b"\n");
        }
        Fingerprint(hash)
    }

    /// Adds the next game (a spec holds no newline: a sweep refuses control characters).
    pub(super) fn add_game(&mut self, spec: &str) {
        self.0.update(spec.as_bytes());
        self.0.update(b"\n");
    }

    /// The first 8 bytes of the digest, in hex.
    pub(super) fn finish(self) -> String {
        hex(&self.0.finalize()[..8])
    }
}

/// What a part's head says.
#[derive(Clone, Debug)]
pub struct PartHeader {
    /// The part's name in messages.
    pub name: String,
    /// The sweep's fingerprint.
    pub fingerprint: String,
    /// The shard.
    pub shard: Shard,
    /// The shard's games.
    pub games: Range<usize>,
    /// The sweep's games.
    pub total_games: usize,
    /// The rows announced.
    pub rows: u64,
    /// The space, rules and test lines.
    pub params: Params,
}

/// Lines before the first row: five comment lines and the CSV header.
pub(super) const HEAD_LINES: u64 = 6;

/// One line read with a bound on its length.
pub(super) enum Line {
    /// A whole line, its `\n` removed.
    Complete,
    /// Bytes at the end of the input without a `\n`.
    Unterminated,
    /// Longer than the bound.
    TooLong,
    /// The end of the input.
    End,
}

/// Reads the next line into `buf` (cleared first), reading at most `limit + 1` bytes.
pub(super) fn read_line<R: BufRead + ?Sized>(
    input: &mut R,
    buf: &mut Vec<u8>,
    limit: usize,
) -> io::Result<Line> {
    buf.clear();
    let n = Read::take(&mut *input, limit as u64 + 1).read_until(b'\n', buf)?;
    Ok(match buf.last() {
        _ if n == 0 => Line::End,
        Some(b'\n') => {
            buf.pop();
            Line::Complete
        }
        _ if buf.len() > limit => Line::TooLong,
        _ => Line::Unterminated,
    })
}

/// Reads a part's head (its first six lines) and checks its form.
///
/// # Errors
/// [`SweepError::NotAPart`] for a first line that is not a part's;
/// [`SweepError::PartLine`] naming the line of any other fault;
/// [`SweepError::CannotReadPart`] for an I/O error.
pub fn read_part_header<R: BufRead + ?Sized>(
    name: &str,
    input: &mut R,
) -> Result<PartHeader, SweepError> {
    let mut buf = Vec::new();
    let mut lines = Vec::with_capacity(HEAD_LINES as usize);
    for number in 1..=HEAD_LINES {
        let line =
            read_line(input, &mut buf, MAX_HEADER_LINE).map_err(|e| cannot_read(name, &e))?;
        let fault = match line {
            Line::Complete => match String::from_utf8(std::mem::take(&mut buf)) {
                Ok(text) if !text.chars().any(char::is_control) => {
                    lines.push(text);
                    continue;
                }
                Ok(_) => "it holds a control character".to_string(),
                Err(_) => "it is not UTF-8 text".to_string(),
            },
            Line::Unterminated | Line::End => "the part ends in its head".to_string(),
            Line::TooLong => format!("longer than {} MiB", MAX_HEADER_LINE >> 20),
        };
        if number == 1 {
            return Err(not_a_part(name));
        }
        return Err(SweepError::PartLine { part: name.to_string(), line: number, reason: fault });
    }
    parse_head(name, &lines)
}

/// Reads a part that can be read only once (standard input) into memory: its head line
/// by line, checked as soon as it is in, so that what is not a part is refused at once;
/// then the rest, refused past `limit` bytes in all.
///
/// # Errors
/// As [`read_part_header`]; [`SweepError::CannotReadPart`] for a part above `limit`.
pub fn read_part_bytes<R: BufRead + ?Sized>(
    name: &str,
    input: &mut R,
    limit: usize,
) -> Result<Vec<u8>, SweepError> {
    let mut bytes = Vec::new();
    let mut line = Vec::new();
    for _ in 0..HEAD_LINES {
        let read =
            read_line(input, &mut line, MAX_HEADER_LINE).map_err(|e| cannot_read(name, &e))?;
        bytes.extend_from_slice(&line);
        match read {
            Line::Complete => bytes.push(b'\n'),
            Line::Unterminated | Line::TooLong | Line::End => break,
        }
    }
    read_part_header(name, &mut &bytes[..])?;
    let room = limit.saturating_sub(bytes.len()) as u64;
    Read::take(&mut *input, room + 1).read_to_end(&mut bytes).map_err(|e| cannot_read(name, &e))?;
    if bytes.len() > limit {
        let reason =
            format!("larger than {} MiB, the most a part read once is held in", limit >> 20);
        return Err(SweepError::CannotReadPart { part: name.to_string(), reason });
    }
    Ok(bytes)
}

/// A part that cannot be read, with the reason.
pub(super) fn cannot_read(name: &str, e: &io::Error) -> SweepError {
    SweepError::CannotReadPart { part: name.to_string(), reason: e.to_string() }
}

fn not_a_part(name: &str) -> SweepError {
    let reason = "its first line is not '# nimtab sweep ... part I/N: ...'".to_string();
    SweepError::NotAPart { part: name.to_string(), reason }
}

/// Parses the head's lines (as read, without newlines).
fn parse_head(name: &str, lines: &[String]) -> Result<PartHeader, SweepError> {
    let bad =
        |line: u64, reason: String| SweepError::PartLine { part: name.to_string(), line, reason };
    let (fingerprint, shard, games, total_games, rows) =
        parse_first_line(&lines[0]).ok_or_else(|| not_a_part(name))?;
    let expected = ["family", "space", "rules"];
    for (i, word) in expected.iter().enumerate() {
        if !lines[i + 1].starts_with(&format!("# {word} ")) {
            return Err(bad(i as u64 + 2, format!("expected '# {word} ...'")));
        }
    }
    let test = lines[4].strip_prefix("# ").unwrap_or("");
    let quotients = test == "quotients";
    if !test.starts_with("criteria ") && !test.starts_with("claim ") && !quotients {
        let reason = "expected '# criteria ...', '# claim ...' or '# quotients'";
        return Err(bad(5, reason.to_string()));
    }
    let header = match quotients {
        true => QUOTIENT_HEADER.join(","),
        false => summary_header().join(","),
    };
    if lines[5] != header {
        return Err(bad(6, format!("the CSV header is not '{header}'")));
    }
    let params = Params {
        space: lines[2]["# space ".len()..].to_string(),
        endings: lines[3]["# rules ".len()..].to_string(),
        test: test.to_string(),
    };
    let name = name.to_string();
    Ok(PartHeader { name, fingerprint, shard, games, total_games, rows, params })
}

type FirstLine = (String, Shard, Range<usize>, usize, u64);

/// `# nimtab sweep FP part I/N: games A..B of G, R rows`, read back exactly as written.
fn parse_first_line(line: &str) -> Option<FirstLine> {
    let words: Vec<&str> = line.strip_prefix(PART_MARK)?.split(' ').collect();
    let [fingerprint, "part", shard, "games", games, "of", total, rows, "rows"] = words[..] else {
        return None;
    };
    let shard = Shard::parse(shard.strip_suffix(':')?).ok()?;
    let (start, end) = games.split_once("..")?;
    let (start, end) = (start.parse().ok()?, end.parse().ok()?);
    let total = total.strip_suffix(',')?.parse().ok()?;
    let rows = rows.parse().ok()?;
    let is_hex = |c: char| c.is_ascii_digit() || ('a'..='f').contains(&c);
    if fingerprint.len() != 16 || !fingerprint.chars().all(is_hex) {
        return None;
    }
    let parsed = (fingerprint.to_string(), shard, start..end, total, rows);
    let again = format!(
        "{PART_MARK}{fingerprint} part {shard}: games {start}..{end} of {total}, {rows} rows"
    );
    (again == line).then_some(parsed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_within_their_bound() {
        let mut input: &[u8] = b"ab\ncd";
        let mut buf = Vec::new();
        assert!(matches!(read_line(&mut input, &mut buf, 2).unwrap(), Line::Complete));
        assert_eq!(buf, b"ab");
        assert!(matches!(read_line(&mut input, &mut buf, 2).unwrap(), Line::Unterminated));
        assert!(matches!(read_line(&mut input, &mut buf, 2).unwrap(), Line::End));
        let mut zeros = io::repeat(0).take(1 << 40);
        let mut reader = io::BufReader::new(&mut zeros);
        assert!(matches!(read_line(&mut reader, &mut buf, 10).unwrap(), Line::TooLong));
        assert_eq!(buf.len(), 11, "one byte past the bound is all that is read");
    }

    #[test]
    fn first_lines_are_read_back_only_as_written() {
        let line = "# nimtab sweep 0123456789abcdef part 2/3: games 21..42 of 63, 567 rows";
        let (fp, shard, games, total, rows) = parse_first_line(line).unwrap();
        assert_eq!(
            (fp.as_str(), shard.to_string(), games, total, rows),
            ("0123456789abcdef", "2/3".to_string(), 21..42, 63, 567)
        );
        for bad in [
            "# nimtab sweep 0123456789abcdef part 2/3: games 21..42 of 63, 0567 rows",
            "# nimtab sweep 0123456789ABCDEF part 2/3: games 21..42 of 63, 567 rows",
            "# nimtab sweep 0123456789abcdef part 2/3: games +21..42 of 63, 567 rows",
            "# nimtab sweep 0123456789abcdef part 2/ 3: games 21..42 of 63, 567 rows",
            "# nimtab sweep 0123456789abcdef part 2/3: games 21..42 of 63, 567 rows ",
        ] {
            assert!(parse_first_line(bad).is_none(), "{bad}");
        }
    }
}
