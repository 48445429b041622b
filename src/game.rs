//! Component games: the move rule every heap follows, and its Grundy values.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::space::MAX_HEAP_SIZE;

/// How one heap may change in a move: always to a strictly smaller size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveRule {
    /// Nim: any smaller size.
    Nim,
    /// Subtraction game: remove `s` stones for some `s` in the set (sorted, distinct, positive).
    Subtract(Vec<u32>),
    /// A move graph given as data: `moves[from]` lists the allowed smaller sizes, ascending.
    Graph(Vec<Vec<u32>>),
}

/// A component game with the specification it was built from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    spec: String,
    rule: MoveRule,
}

impl Game {
    /// Parses `nim`, `subtract:S` or `graph:PATH` (the graph file is read here).
    ///
    /// A subtraction set may list a value twice; it is normalised to a sorted set.
    pub fn parse(spec: &str) -> Result<Game> {
        let spec = spec.trim();
        if spec == "nim" {
            return Ok(Game::nim());
        }
        if let Some(list) = spec.strip_prefix("subtract:") {
            return Game::parse_subtract(spec, list);
        }
        if let Some(path) = spec.strip_prefix("graph:") {
            if path.is_empty() {
                return Err(Error::UnknownGame { spec: spec.to_string() });
            }
            let moves = read_graph_file(Path::new(path))?;
            return Ok(Game { spec: spec.to_string(), rule: MoveRule::Graph(moves) });
        }
        Err(Error::UnknownGame { spec: spec.to_string() })
    }

    /// The game of Nim.
    pub fn nim() -> Game {
        Game { spec: "nim".to_string(), rule: MoveRule::Nim }
    }

    /// A subtraction game; `set` is sorted and deduplicated. Zero is refused.
    pub fn subtract(set: &[u32]) -> Result<Game> {
        let list: Vec<String> = set.iter().map(u32::to_string).collect();
        let spec = format!("subtract:{}", list.join(","));
        Game::parse_subtract(&spec, &list.join(","))
    }

    /// A move graph from its `(from, to)` pairs; `spec` names it (e.g. `graph:x.csv`).
    pub fn graph(spec: &str, pairs: &[(u32, u32)]) -> Result<Game> {
        for &(from, to) in pairs {
            if to >= from {
                return Err(Error::Invalid(format!(
                    "move {from}->{to} in {spec} does not lower the heap (need to < from)"
                )));
            }
            if from > MAX_HEAP_SIZE {
                return Err(Error::Invalid(format!(
                    "move {from}->{to} in {spec}: {from} is above the largest heap size, \
                     {MAX_HEAP_SIZE}"
                )));
            }
        }
        Ok(Game { spec: spec.to_string(), rule: MoveRule::Graph(moves_from_pairs(pairs)) })
    }

    /// A move graph read from CSV text (header `from,to`); `spec` names it, `path` is used
    /// in error messages.
    pub fn graph_from_csv<R: std::io::Read>(spec: &str, path: &Path, input: R) -> Result<Game> {
        let pairs = read_graph_pairs(path.to_path_buf(), input)?;
        Ok(Game { spec: spec.to_string(), rule: MoveRule::Graph(moves_from_pairs(&pairs)) })
    }

    fn parse_subtract(spec: &str, list: &str) -> Result<Game> {
        let bad = |reason: String| Error::BadSubtractionSet { spec: spec.to_string(), reason };
        if list.trim().is_empty() {
            return Err(bad("the set is empty".to_string()));
        }
        let mut set = Vec::new();
        for item in list.split(',') {
            let item = item.trim();
            let value: u32 =
                item.parse().map_err(|_| bad(format!("'{item}' is not a positive integer")))?;
            if value == 0 {
                return Err(bad("0 is not allowed (a move must remove at least one stone)".into()));
            }
            set.push(value);
        }
        set.sort_unstable();
        set.dedup();
        Ok(Game { spec: spec.to_string(), rule: MoveRule::Subtract(set) })
    }

    /// The specification as given (`nim`, `subtract:1,3,4`, `graph:data/graphs/x.csv`).
    pub fn spec(&self) -> &str {
        &self.spec
    }

    /// The move rule.
    pub fn rule(&self) -> &MoveRule {
        &self.rule
    }

    /// The sizes a heap of size `h` may move to, ascending.
    pub fn options(&self, h: u32) -> Vec<u32> {
        match &self.rule {
            MoveRule::Nim => (0..h).collect(),
            MoveRule::Subtract(set) => {
                let mut out: Vec<u32> = set.iter().filter(|&&s| s <= h).map(|&s| h - s).collect();
                out.reverse();
                out
            }
            MoveRule::Graph(moves) => moves.get(h as usize).cloned().unwrap_or_default(),
        }
    }

    /// The option lists of every heap size `0..=max`.
    pub fn option_table(&self, max: u32) -> Vec<Vec<u32>> {
        (0..=max).map(|h| self.options(h)).collect()
    }

    /// Whether a heap of size `h` has at least one move (without listing them).
    pub fn has_moves(&self, h: u32) -> bool {
        match &self.rule {
            MoveRule::Nim => h > 0,
            MoveRule::Subtract(set) => set.first().is_some_and(|&s| s <= h),
            MoveRule::Graph(moves) => moves.get(h as usize).is_some_and(|m| !m.is_empty()),
        }
    }

    /// Grundy values `g(0..=max)` by the mex rule.
    ///
    /// For Nim the mex of `{0, …, h-1}` is `h`; it is returned directly, because listing
    /// Nim's options would cost `O(max^2)`.
    pub fn grundy(&self, max: u32) -> Vec<u32> {
        if self.rule == MoveRule::Nim {
            return (0..=max).collect();
        }
        let mut g: Vec<u32> = Vec::with_capacity(max as usize + 1);
        let mut seen: Vec<bool> = Vec::new();
        for h in 0..=max {
            let options = self.options(h);
            seen.clear();
            seen.resize(options.len() + 1, false);
            for o in options {
                let v = g[o as usize] as usize;
                if v < seen.len() {
                    seen[v] = true;
                }
            }
            let mex = seen.iter().position(|&s| !s).unwrap_or(seen.len());
            g.push(mex as u32);
        }
        g
    }
}

fn moves_from_pairs(pairs: &[(u32, u32)]) -> Vec<Vec<u32>> {
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

/// Reads a move graph: CSV with header `from,to`, one allowed move per row.
fn read_graph_file(path: &Path) -> Result<Vec<Vec<u32>>> {
    let file_error = |reason: String| Error::GraphFile { path: path.to_path_buf(), reason };
    let file = std::fs::File::open(path).map_err(|e| file_error(e.to_string()))?;
    let pairs = read_graph_pairs(path.to_path_buf(), file)?;
    Ok(moves_from_pairs(&pairs))
}

/// Parses the `from,to` pairs of a move-graph CSV, naming the line of any bad row.
pub fn read_graph_pairs<R: std::io::Read>(path: PathBuf, input: R) -> Result<Vec<(u32, u32)>> {
    let line_error =
        |line: u64, reason: String| Error::GraphLine { path: path.clone(), line, reason };
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .trim(csv::Trim::All)
        .flexible(true)
        .from_reader(input);
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
        let from = parse_size(&record[0]).map_err(|r| line_error(line, format!("from {r}")))?;
        let to = parse_size(&record[1]).map_err(|r| line_error(line, format!("to {r}")))?;
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

fn parse_size(text: &str) -> std::result::Result<u32, String> {
    if text.starts_with('-') && text[1..].parse::<u64>().is_ok() {
        return Err(format!("value '{text}' is negative"));
    }
    text.parse::<u32>().map_err(|_| format!("value '{text}' is not a non-negative integer"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subtraction_set_is_sorted_and_deduplicated() {
        let game = Game::parse("subtract:4,1,3,1").unwrap();
        assert_eq!(game.rule(), &MoveRule::Subtract(vec![1, 3, 4]));
        assert_eq!(game.options(4), vec![0, 1, 3]);
    }

    #[test]
    fn grundy_of_nim_is_identity() {
        assert_eq!(Game::nim().grundy(5), vec![0, 1, 2, 3, 4, 5]);
        // The same through the mex rule, on a move graph that is Nim.
        let pairs: Vec<(u32, u32)> = (1..6).flat_map(|f| (0..f).map(move |t| (f, t))).collect();
        assert_eq!(Game::graph("graph:nim", &pairs).unwrap().grundy(5), vec![0, 1, 2, 3, 4, 5]);
    }

    #[test]
    fn has_moves_agrees_with_the_option_lists() {
        let games =
            [Game::nim(), Game::subtract(&[2, 5]).unwrap(), Game::graph("g", &[(3, 1)]).unwrap()];
        for game in &games {
            for h in 0..8 {
                assert_eq!(game.has_moves(h), !game.options(h).is_empty(), "{} {h}", game.spec());
            }
        }
    }

    #[test]
    fn graph_rows_are_checked() {
        let bad = read_graph_pairs("g.csv".into(), "from,to\n1,0\n2,2\n".as_bytes()).unwrap_err();
        assert_eq!(bad.to_string(), "move graph g.csv, line 3: move 2->2 needs to < from");
        let neg = read_graph_pairs("g.csv".into(), "from,to\n1,-1\n".as_bytes()).unwrap_err();
        assert!(neg.to_string().contains("line 2: to value '-1' is negative"), "{neg}");
        let huge = read_graph_pairs("g.csv".into(), "from,to\n4000000000,0\n".as_bytes());
        assert!(huge.unwrap_err().to_string().contains("line 2: from value 4000000000 is above"));
        let header = read_graph_pairs("g.csv".into(), "a,b\n1,0\n".as_bytes()).unwrap_err();
        assert!(header.to_string().contains("line 1: header must be 'from,to'"), "{header}");
    }
}
