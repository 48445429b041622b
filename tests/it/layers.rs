//! The library's imports run one way: every `crate::` path in `src/` names a module of its
//! own layer or of a layer below, and no two top-level modules import each other, directly
//! or around a circle (a circle inside one folder is allowed).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layer of a top-level module (a folder of `src/`, or a file at its root), lowest
/// first; `None` for the crate root, which only declares and re-exports, and for a module
/// not placed yet (which [`unplaced`] reports).
fn layer(unit: &str) -> Option<u8> {
    let layer = match unit {
        // The ground floor: one heap's Grundy sequence (from removal counts alone), the
        // machine's memory, input paths, the deterministic generator.
        "sequence" | "host" | "input" | "random" => 0,
        "model" => 1,
        "engine" => 2,
        "analysis" | "quotient" | "genus" => 3,
        "export" | "sweep" | "contest" | "suite" | "atlas" => 4,
        "cli" | "main" => 5,
        _ => return None,
    };
    Some(layer)
}

/// Every `.rs` file under `dir`.
pub(crate) fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file of `src/` belongs to: its first folder, or its file stem.
fn unit_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap();
    let first = rel.components().next().unwrap().as_os_str().to_str().unwrap();
    first.strip_suffix(".rs").unwrap_or(first).to_string()
}

/// The code of a file without its comments (doc links name modules without importing).
fn code_of(text: &str) -> String {
    text.lines().map(|line| line.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// The first segment of every `crate::` path in `code`, with the segments of grouped
/// imports (`use crate::{a::x, b::y}`) each counted.
fn crate_paths(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue; // `nimtab_crate::` or similar, not the crate root
        }
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                names.push(first_segment(item.trim()));
            }
        } else {
            names.push(first_segment(rest));
        }
    }
    names.retain(|n| !n.is_empty());
    names
}

fn first_segment(path: &str) -> String {
    path.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect()
}

/// The module each name the crate root re-exports comes from (`Error` from `error`),
/// read from `src/lib.rs`'s `pub use` lines.
fn root_reexports(lib: &str) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    let code = code_of(lib);
    for statement in code.split(';') {
        let Some(path) = statement.trim().strip_prefix("pub use ") else { continue };
        let module = first_segment(path);
        let tail = match (path.find('{'), path.rfind("::")) {
            (Some(open), _) => path[open + 1..path.rfind('}').unwrap()].to_string(),
            (None, Some(last)) => path[last + 2..].to_string(),
            (None, None) => continue,
        };
        for item in tail.split(',') {
            let name = item.rsplit(" as ").next().unwrap().trim();
            if !name.is_empty() {
                names.insert(name.to_string(), module.clone());
            }
        }
    }
    names
}

/// Every import between top-level modules: (importer, imported) with the files that do it.
fn imports(src: &Path) -> BTreeMap<(String, String), BTreeSet<String>> {
    let reexports = root_reexports(&std::fs::read_to_string(src.join("lib.rs")).unwrap());
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut edges: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let from = unit_of(src, &file);
        let code = code_of(&std::fs::read_to_string(&file).unwrap());
        for name in crate_paths(&code) {
            let to = reexports.get(&name).cloned().unwrap_or(name);
            if to != from && to != "self" && to != "super" {
                let rel = file.strip_prefix(src).unwrap().display().to_string();
                edges.entry((from.clone(), to)).or_default().insert(rel);
            }
        }
    }
    edges
}

/// Imports of a higher layer, as `file: importer -> imported` lines.
fn climbing(edges: &BTreeMap<(String, String), BTreeSet<String>>) -> Vec<String> {
    let mut found = Vec::new();
    for ((from, to), files) in edges {
        if let (Some(low), Some(high)) = (layer(from), layer(to)) {
            if high > low {
                found
                    .push(format!("{from} (layer {low}) imports {to} (layer {high}) in {files:?}"));
            }
        }
    }
    found
}

/// The top-level modules that import or are imported and have no layer.
fn unplaced(edges: &BTreeMap<(String, String), BTreeSet<String>>) -> BTreeSet<String> {
    let units = edges.keys().flat_map(|(from, to)| [from.clone(), to.clone()]);
    units.filter(|u| u != "lib" && layer(u).is_none()).collect()
}

/// A circle of top-level modules, if the imports hold one.
fn circle(edges: &BTreeMap<(String, String), BTreeSet<String>>) -> Option<Vec<String>> {
    let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (from, to) in edges.keys() {
        next.entry(from).or_default().push(to);
    }
    // Depth-first search with the path on a stack: an edge back into the path closes a circle.
    fn visit<'a>(
        unit: &'a str,
        next: &BTreeMap<&'a str, Vec<&'a str>>,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|u| *u == unit) {
            let mut circle: Vec<String> = path[at..].iter().map(|u| u.to_string()).collect();
            circle.push(unit.to_string());
            return Some(circle);
        }
        if !done.insert(unit) {
            return None;
        }
        path.push(unit);
        for to in next.get(unit).into_iter().flatten() {
            if let Some(circle) = visit(to, next, path, done) {
                return Some(circle);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    next.keys().find_map(|unit| visit(unit, &next, &mut Vec::new(), &mut done))
}

#[test]
fn imports_run_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let edges = imports(&src);
    assert!(edges.contains_key(&("engine".to_string(), "model".to_string())), "{edges:?}");
    let mut problems = climbing(&edges);
    for unit in unplaced(&edges) {
        problems.push(format!("src/{unit} has no layer: give it one in tests/it/layers.rs"));
    }
    if let Some(circle) = circle(&edges) {
        problems.push(format!("a circle of imports: {}", circle.join(" -> ")));
    }
    assert!(problems.is_empty(), "the imports do not run one way:\n{}", problems.join("\n"));
}

#[test]
fn the_import_reader_finds_grouped_paths_and_skips_comments() {
    let code = code_of("use crate::{engine::Engine, model::Game};\n/// [`crate::export`]\n");
    assert_eq!(crate_paths(&code), ["engine", "model"]);
    let reexports = root_reexports("pub use error::{Error, Result};\npub use model::game::Game;");
    assert_eq!(reexports.get("Result").map(String::as_str), Some("error"));
    assert_eq!(reexports.get("Game").map(String::as_str), Some("model"));
    let edges = BTreeMap::from([
        (("model".to_string(), "engine".to_string()), BTreeSet::new()),
        (("engine".to_string(), "model".to_string()), BTreeSet::new()),
    ]);
    assert_eq!(climbing(&edges).len(), 1);
    assert!(circle(&edges).is_some());
}
