//! Output formats: CSV tables, the summary, text tables, REPORT.md, the manifest, pictures.
//!
//! Every exporter turns results into bytes written to any `io::Write` (or a `String`);
//! the caller decides where they go (stdout, or a file written atomically).

pub mod csv;
pub(crate) mod label_lines;
pub mod labels_csv;
pub(crate) mod lines;
pub mod manifest;
pub mod plot;
pub mod report;
pub mod report_games;
pub mod sequence_tables;
pub mod summary;
pub(crate) mod table_memory;
pub mod text_table;
