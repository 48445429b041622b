//! An atlas request as Python gives it (one dict) and entries as JSON text: what the atlas
//! functions and the atlas directory both read.

use pyo3::prelude::*;

use nimtab::atlas::{Atlas, AtlasRequest, AtlasSettings, Entry};
use nimtab::sweep::Games;

use crate::{run_detached, value_error};

/// An atlas as Python describes it: one dict (built and checked by `nimtab._atlas`), every
/// key given: the codes as a family text (`codes`), a list (`code_list`) or a file's name
/// and text (`codes_file`), the others `None`; `force`, and the settings (`seconds`: the
/// time budget, or `None`).
#[derive(FromPyObject, Clone)]
#[pyo3(from_item_all)]
pub(crate) struct AtlasDict {
    codes: Option<String>,
    code_list: Option<Vec<String>>,
    codes_file: Option<(String, String)>,
    force: bool,
    budget: u64,
    dense_budget: u64,
    quotient_heap: u32,
    quotient_order: usize,
    seconds: Option<u64>,
}

impl AtlasDict {
    /// The library's request, as `nimtab atlas` builds it from its flags.
    fn request(self) -> PyResult<AtlasRequest> {
        let codes = match (self.codes, self.code_list, self.codes_file) {
            (Some(text), _, _) => Games::Text(text),
            (None, Some(list), _) => Games::List(list),
            (None, None, Some((name, contents))) => Games::File { name, contents },
            (None, None, None) => return Err(value_error("no codes given")),
        };
        let settings = AtlasSettings::new(
            self.budget,
            self.dense_budget,
            self.quotient_heap,
            self.quotient_order,
        )
        .with_seconds(self.seconds);
        Ok(AtlasRequest { codes, force: self.force, settings })
    }

    /// The atlas, every code parsed and the settings checked.
    pub(crate) fn plan(self, py: Python<'_>) -> PyResult<Atlas> {
        let request = self.request()?;
        run_detached(py, None, None, move |_| request.plan())?.map_err(value_error)
    }
}

/// Entries from their JSON text (as `atlas_solve` returns them, or a state file holds).
pub(crate) fn entries_of(texts: &[String]) -> PyResult<Vec<Entry>> {
    let entry = |(i, text): (usize, &String)| {
        serde_json::from_str(text)
            .map_err(|e| value_error(format!("entries[{i}] is not an atlas entry: {e}")))
    };
    texts.iter().enumerate().map(entry).collect()
}

/// Entries as JSON text.
pub(crate) fn texts_of(entries: &[Entry]) -> PyResult<Vec<String>> {
    let text = |e: &Entry| serde_json::to_string(e).map_err(value_error);
    entries.iter().map(text).collect()
}
