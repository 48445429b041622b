//! Output formats: CSV tables, the summary, text tables, REPORT.md, the manifest, pictures,
//! quotients as JSON or a summary, frequency tables.
//!
//! Every output is a [`format::Format`]: it turns results into bytes written to any
//! `io::Write`; the caller decides where they go (stdout, or a file written atomically).

pub mod csv;
pub mod format;
pub mod freq;
pub mod genus;
pub(crate) mod label_lines;
pub mod labels_csv;
pub(crate) mod lines;
pub mod manifest;
pub mod plot;
pub mod quotient;
pub mod report;
pub mod report_games;
pub mod sequence_tables;
pub mod summary;
pub mod sweep_part;
pub(crate) mod table_memory;
pub mod text_table;
