//! Move graphs given as data: a CSV file of allowed `(from, to)` moves, and its checks.

use std::path::Path;

use crate::input::waits_at_open;
use crate::model::error::{ModelError, Result};
use crate::model::position::{parse_size, SizeError};
use crate::model::space::MAX_HEAP_SIZE;

/// `moves[from]`: the allowed smaller sizes of each size, ascending, without repeats.
pub(crate) fn moves_from_pairs(pairs: &[(u32, u32)]) -> Vec<Vec<u32>> {
    let top = pairs.iter().map(|&(from, _)| from as usize + 1).max().unwrap_or(0);
    let mut moves = vec![Vec::new(); top];
    for &(from, to) in pairs {
        moves[from as usize].push(to);
    }
    for list in &mut moves {
        list.sort_unstable();
        list.dedup();
    }
    moves
}

/// Checks pairs given in code: every move lowers the heap, within the heap-size limit.
pub(crate) fn check_pairs(spec: &str, pairs: &[(u32, u32)]) -> Result<()> {
    for &(from, to) in pairs {
        if to >= from {
            return Err(ModelError::BadMove(format!(
                "move {from}->{to} in {spec} does not lower the heap (need to < from)"
            )));
        }
        if from > MAX_HEAP_SIZE {
            return Err(ModelError::BadMove(format!(
                "move {from}->{to} in {spec}: {from} is above the largest heap size, \
                 {MAX_HEAP_SIZE}"
            )));
        }
    }
    Ok(())
}

/// The largest move-graph file read: 64 MiB is millions of moves, far more than any
/// table a graph game can be labelled in; it bounds the memory a file (or a device such
/// as `/dev/zero`) can make nimtab use.
pub const MAX_GRAPH_BYTES: usize = 64 << 20;

/// The longest line of a move-graph file: a row is two heap sizes.
pub const MAX_GRAPH_LINE: usize = 256;

/// Reads a move graph file: CSV with header `from,to`, one allowed move per row. A FIFO
/// or a socket is refused before it is opened (a FIFO with no writer would wait for ever).
pub(crate) fn read_graph_file(path: &Path) -> Result<Vec<(u32, u32)>> {
    let file_error = |reason: String| ModelError::GraphFile { path: path.to_path_buf(), reason };
    if let Some(kind) = waits_at_open(path) {
        return Err(file_error(format!(
            "it is {kind}, not a file (opening it could wait for ever)"
        )));
    }
    let file = std::fs::File::open(path).map_err(|e| file_error(e.to_string()))?;
    read_graph_pairs(path, file)
}

/// Reads at most [`MAX_GRAPH_BYTES`] in lines of at most [`MAX_GRAPH_LINE`] bytes,
/// checked as the bytes arrive, so an endless input is refused at once.
fn read_bounded<R: std::io::Read>(path: &Path, mut input: R) -> Result<Vec<u8>> {
    let file_error = |reason: String| ModelError::GraphFile { path: path.to_path_buf(), reason };
    let mut bytes = Vec::new();
    let mut chunk = vec![0u8; 1 << 16];
    let (mut line, mut line_len) = (1u64, 0usize);
    loop {
        let n = match input.read(&mut chunk) {
            Ok(0) => return Ok(bytes),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(file_error(e.to_string())),
        };
        for &b in &chunk[..n] {
            if b == b'\n' {
                (line, line_len) = (line + 1, 0);
            } else if line_len == MAX_GRAPH_LINE {
                let reason = format!("longer than {MAX_GRAPH_LINE} bytes");
                return Err(ModelError::GraphLine { path: path.to_path_buf(), line, reason });
            } else {
                line_len += 1;
            }
        }
        if bytes.len() + n > MAX_GRAPH_BYTES {
            return Err(file_error(format!("larger than {} MiB", MAX_GRAPH_BYTES >> 20)));
        }
        bytes.extend_from_slice(&chunk[..n]);
    }
}

/// Parses the `from,to` pairs of a move-graph CSV, naming the line of any bad row.
pub(crate) fn read_graph_pairs<R: std::io::Read>(path: &Path, input: R) -> Result<Vec<(u32, u32)>> {
    let line_error = |line: u64, reason: String| ModelError::GraphLine {
        path: path.to_path_buf(),
        line,
        reason,
    };
    let bytes = read_bounded(path, input)?;
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .trim(csv::Trim::All)
        .flexible(true)
        .from_reader(&bytes[..]);
    let header = reader.headers().map_err(|e| line_error(1, e.to_string()))?.clone();
    if header.len() != 2 || &header[0] != "from" || &header[1] != "to" {
        let got: Vec<&str> = header.iter().collect();
        return Err(line_error(1, format!("header must be 'from,to', found '{}'", got.join(","))));
    }
    let mut pairs = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| {
            let line = e.position().map_or(0, |p| p.line());
            line_error(line, e.to_string())
        })?;
        let line = record.position().map_or(0, |p| p.line());
        if record.len() != 2 {
            return Err(line_error(line, format!("expected 2 fields, found {}", record.len())));
        }
        let from = graph_size(&record[0]).map_err(|r| line_error(line, format!("from {r}")))?;
        let to = graph_size(&record[1]).map_err(|r| line_error(line, format!("to {r}")))?;
        if to >= from {
            return Err(line_error(line, format!("move {from}->{to} needs to < from")));
        }
        if from > MAX_HEAP_SIZE {
            let reason =
                format!("from value {from} is above the largest heap size, {MAX_HEAP_SIZE}");
            return Err(line_error(line, reason));
        }
        pairs.push((from, to));
    }
    Ok(pairs)
}

/// One heap size of a graph row, or what is wrong with it (after `from `/`to `).
fn graph_size(text: &str) -> std::result::Result<u32, String> {
    parse_size(text).map_err(|e| match e {
        SizeError::Negative => format!("value '{text}' is negative"),
        SizeError::NotANumber => format!("value '{text}' is not a non-negative integer"),
        SizeError::TooLarge => {
            format!("value '{text}' is above the largest heap size, {MAX_HEAP_SIZE}")
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn read(text: &str) -> Result<Vec<(u32, u32)>> {
        read_graph_pairs(Path::new("g.csv"), text.as_bytes())
    }

    #[test]
    fn graph_rows_are_checked() {
        let bad = read("from,to\n1,0\n2,2\n").unwrap_err();
        assert_eq!(bad.to_string(), "move graph g.csv, line 3: move 2->2 needs to < from");
        let neg = read("from,to\n1,-1\n").unwrap_err();
        assert!(neg.to_string().contains("line 2: to value '-1' is negative"), "{neg}");
        let huge = read("from,to\n4000000000,0\n");
        assert!(huge.unwrap_err().to_string().contains("line 2: from value 4000000000 is above"));
        let header = read("a,b\n1,0\n").unwrap_err();
        assert!(header.to_string().contains("line 1: header must be 'from,to'"), "{header}");
    }

    #[test]
    fn endless_or_huge_graph_input_is_refused_as_it_arrives() {
        let zeros = std::io::repeat(0).take(1 << 40);
        let long = read_graph_pairs(Path::new("z"), zeros).unwrap_err().to_string();
        assert_eq!(long, "move graph z, line 1: longer than 256 bytes");
        let rows = std::io::repeat(b'\n').take(1 << 40);
        let big = read_graph_pairs(Path::new("z"), rows).unwrap_err().to_string();
        assert_eq!(big, "cannot read move graph z: larger than 64 MiB");
    }
}
