//! Aligned text tables for the terminal: the one renderer every command's summary uses.

/// How a column's cells are aligned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// Padded on the right (words).
    Left,
    /// Padded on the left (numbers).
    Right,
}

/// A table of text cells: a header row and data rows, rendered with columns two spaces
/// apart and padded to their widest cell. A left-aligned last column is not padded, and
/// trailing spaces are trimmed.
#[derive(Clone, Debug)]
pub struct TextTable {
    align: Vec<Align>,
    rows: Vec<Vec<String>>,
}

impl TextTable {
    /// A table with this header; `align` gives each column's alignment.
    ///
    /// # Panics
    /// If `header` and `align` differ in length.
    pub fn new(header: &[&str], align: &[Align]) -> TextTable {
        assert_eq!(header.len(), align.len(), "one alignment per column");
        let header = header.iter().map(|s| s.to_string()).collect();
        TextTable { align: align.to_vec(), rows: vec![header] }
    }

    /// Appends a data row.
    ///
    /// # Panics
    /// If the row does not have one cell per column.
    pub fn push(&mut self, cells: Vec<String>) {
        assert_eq!(cells.len(), self.align.len(), "one cell per column");
        self.rows.push(cells);
    }

    /// The table as lines, each ending in a newline.
    pub fn render(&self) -> String {
        let columns = self.align.len();
        let widths: Vec<usize> = (0..columns)
            .map(|c| self.rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
            .collect();
        let mut text = String::new();
        for row in &self.rows {
            let mut line = String::new();
            for (c, cell) in row.iter().enumerate() {
                if c > 0 {
                    line.push_str("  ");
                }
                let w = widths[c];
                match (c + 1 == columns, self.align[c]) {
                    (true, Align::Left) => line.push_str(cell),
                    (false, Align::Left) => line.push_str(&format!("{cell:<w$}")),
                    (_, Align::Right) => line.push_str(&format!("{cell:>w$}")),
                }
            }
            text.push_str(line.trim_end());
            text.push('\n');
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_padded_to_the_widest_cell() {
        let mut table =
            TextTable::new(&["name", "n", "note"], &[Align::Left, Align::Right, Align::Left]);
        table.push(vec!["nim".into(), "12".into(), "-".into()]);
        table.push(vec!["subtract:1,2".into(), "3".into(), "".into()]);
        assert_eq!(
            table.render(),
            "name           n  note\nnim           12  -\nsubtract:1,2   3\n"
        );
        let mut counts = TextTable::new(&["rule", "fail"], &[Align::Left, Align::Right]);
        counts.push(vec!["misere".into(), "0".into()]);
        assert_eq!(counts.render(), "rule    fail\nmisere     0\n", "a number is right-aligned");
    }
}
