//! Files import each other in at most one circle, and that circle lies inside one folder,
//! `engine/tuples/`: the labelling run, the batches it hands rows to and the source rows
//! they read, which share its scratch. Any other circle means a name sits in the wrong file.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::layers::rust_files;

/// Every module file of `src/` by its module path (`engine/tuples/labelling.rs` is
/// `engine::tuples::labelling`, a folder's `mod.rs` the folder's path), the crate roots
/// left out.
fn modules(src: &Path) -> BTreeMap<Vec<String>, PathBuf> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut modules = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(src).unwrap().with_extension("");
        let mut path: Vec<String> =
            rel.components().map(|c| c.as_os_str().to_str().unwrap().to_string()).collect();
        if path.last().is_some_and(|last| last == "mod") {
            path.pop();
        }
        if path != ["lib"] && path != ["main"] {
            modules.insert(path, file);
        }
    }
    modules
}

/// A file's code without its test module (tests may import anything) and its comments
/// (doc links name modules without importing them).
fn code_of(text: &str) -> String {
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    code.lines().map(|line| line.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// The paths of a `use` tree (`a::{b, c::{d, e}}`), each split into segments.
fn expand(tree: &str) -> Vec<Vec<String>> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        let path = tree.split(" as ").next().unwrap_or("");
        return vec![path.split("::").map(|s| s.trim().to_string()).collect()];
    };
    let prefix: Vec<String> = tree[..open]
        .trim_end_matches("::")
        .split("::")
        .filter(|s| !s.is_empty())
        .map(|s| s.trim().to_string())
        .collect();
    let body = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let (mut items, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, c) in body.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&body[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&body[start..]);
    let mut paths = Vec::new();
    for item in items.into_iter().filter(|item| !item.trim().is_empty()) {
        for tail in expand(item) {
            paths.push(prefix.iter().cloned().chain(tail).collect());
        }
    }
    paths
}

/// The module paths a file's code names, from the crate root: its `use` trees and the
/// `crate::` and `super::` paths written inline (`nimtab::` in the binary is the same
/// tree of files).
fn named_paths(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    for statement in code.split(';') {
        let Some(at) = statement.find("use ") else { continue };
        if statement[..at].chars().next_back().is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        paths.extend(expand(&statement[at + 4..]));
    }
    // Paths written inline: `crate::engine::Work`, and `super::commit(…)`, which imports
    // as much as a `use` does.
    for start in ["crate::", "super::"] {
        let mut rest = code;
        while let Some(at) = rest.find(start) {
            let before = rest[..at].chars().next_back();
            rest = &rest[at..];
            let len = rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'));
            let path = rest[..len.unwrap_or(rest.len())].trim_end_matches(':');
            rest = &rest[start.len()..];
            // `super::{a, b}` is a `use` tree, read above.
            let inline = path.contains("::");
            if inline && !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                paths.push(path.split("::").map(str::to_string).collect());
            }
        }
    }
    paths.into_iter().filter_map(|path| absolute(&path, module)).collect()
}

/// `path` from the crate root, or `None` for a path outside the crate (`std::…`).
fn absolute(path: &[String], module: &[String]) -> Option<Vec<String>> {
    let (first, rest) = path.split_first()?;
    match first.as_str() {
        "crate" | "nimtab" => Some(rest.to_vec()),
        "self" => Some(module.iter().chain(rest).cloned().collect()),
        "super" => {
            let mut base = module[..module.len().saturating_sub(1)].to_vec();
            let mut rest = rest;
            while rest.first().is_some_and(|s| s == "super") {
                base.pop();
                rest = &rest[1..];
            }
            Some(base.into_iter().chain(rest.iter().cloned()).collect())
        }
        _ => None,
    }
}

/// Which file each file imports from: the longest module path each named path starts with.
fn file_imports(src: &Path) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let modules = modules(src);
    let mut edges = BTreeMap::new();
    for (module, file) in &modules {
        let code = code_of(&std::fs::read_to_string(file).unwrap());
        let mut to = BTreeSet::new();
        for path in named_paths(&code, module) {
            let target = (1..=path.len())
                .rev()
                .map(|n| path[..n].to_vec())
                .find(|prefix| modules.contains_key(prefix));
            if let Some(target) = target.filter(|target| target != module) {
                to.insert(target);
            }
        }
        edges.insert(module.clone(), to);
    }
    edges
}

/// The circles of `edges`: the groups of two or more files each reachable from the others.
fn circles(edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<BTreeSet<String>> {
    let reach = |from: &Vec<String>| {
        let (mut seen, mut stack) = (BTreeSet::new(), vec![from.clone()]);
        while let Some(module) = stack.pop() {
            for next in edges.get(&module).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    stack.push(next.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<_, _> = edges.keys().map(|m| (m.clone(), reach(m))).collect();
    let mut circles: Vec<BTreeSet<String>> = Vec::new();
    for (module, from_it) in &reached {
        let circle: BTreeSet<String> = from_it
            .iter()
            .filter(|other| *other != module && reached[*other].contains(module))
            .chain([module])
            .map(|m| m.join("/"))
            .collect();
        if circle.len() > 1 && !circles.contains(&circle) {
            circles.push(circle);
        }
    }
    circles
}

#[test]
fn files_import_each_other_in_at_most_one_circle_inside_the_tuple_engine() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let edges = file_imports(&src);
    let labelling: Vec<String> = ["engine", "tuples", "labelling"].map(String::from).to_vec();
    let batch: Vec<String> = ["engine", "tuples", "batch"].map(String::from).to_vec();
    assert!(edges[&labelling].contains(&batch));
    let circles = circles(&edges);
    assert!(circles.len() <= 1, "more than one circle of imports between files: {circles:?}");
    for circle in &circles {
        // The folder of each file: its module path without the last name.
        let folders: BTreeSet<&str> =
            circle.iter().map(|m| m.rsplit_once('/').map_or("", |(folder, _)| folder)).collect();
        assert_eq!(
            folders,
            BTreeSet::from(["engine/tuples"]),
            "a circle across folders: {circle:?}"
        );
    }
}

#[test]
fn the_file_import_reader_expands_use_trees_and_finds_circles() {
    let module = vec!["sweep".to_string(), "merge".to_string()];
    let code = code_of("use super::{part_rows::{jobs, Jobs}, error::Result};\n// crate::x\n");
    let paths = named_paths(&code, &module);
    assert!(paths.contains(&vec!["sweep".into(), "part_rows".into(), "jobs".into()]), "{paths:?}");
    assert!(paths.contains(&vec!["sweep".into(), "error".into(), "Result".into()]), "{paths:?}");
    assert_eq!(paths.len(), 3, "{paths:?}");
    // A path written inline imports as much: `super::commit(…)` names the module commit.
    let code = code_of("fn f() { super::commit(x); let y = super::super::a::B; }");
    let paths = named_paths(&code, &module);
    assert!(paths.contains(&vec!["sweep".into(), "commit".into()]), "{paths:?}");
    assert!(paths.contains(&vec!["a".into(), "B".into()]), "{paths:?}");
    let a = vec!["m".to_string(), "a".to_string()];
    let b = vec!["m".to_string(), "b".to_string()];
    let c = vec!["n".to_string()];
    let edges = BTreeMap::from([
        (a.clone(), BTreeSet::from([b.clone()])),
        (b.clone(), BTreeSet::from([a.clone(), c.clone()])),
        (c.clone(), BTreeSet::new()),
    ]);
    assert_eq!(circles(&edges), vec![BTreeSet::from(["m/a".to_string(), "m/b".to_string()])]);
}
