//! The documentation cannot drift: every ` ```console ` example of README.md and docs/ is
//! run and must print what the page shows and end with the status it shows; the `nimtab`
//! commands of blocks that are not run (` ```console no-run `, ` ```sh `) must parse;
//! every `rust` block is one of the library's doctests (so `cargo test` compiles it);
//! every block says what it is; every relative link and anchor resolves.
//!
//! Each block runs in a fresh temporary directory holding copies of the fixtures the
//! examples read (`data/graphs/`, the contest solutions in `tests/data/`), with the built
//! binary first on `PATH` as `nimtab`. Each command runs through `sh -c` (so pipes and
//! `>` work) with stderr joined to stdout, as a terminal shows them; stdout is a pipe, so
//! there is no progress bar. The commands of one block share the directory, so a later
//! command can read what an earlier one wrote. The conventions are documented for
//! readers in docs/README.md ("Examples").

use std::path::{Path, PathBuf};
use std::process::Stdio;

use crate::support::cli::{command, run_shell_in};
use crate::support::markdown::{
    anchors, blocks, examples, invocations, line_matches, links, output_matches, Block, Fence,
};

/// Every page whose examples are run, from the repository root.
const PAGES: &[&str] = &[
    "README.md",
    "docs/README.md",
    "docs/guide/games-and-rules.md",
    "docs/guide/genus.md",
    "docs/guide/multi-heap-games-and-pass.md",
    "docs/guide/tables-and-solve.md",
    "docs/guide/verify-and-criteria.md",
    "docs/guide/claims-and-check.md",
    "docs/guide/take-and-break-and-multisets.md",
    "docs/guide/grundy-and-periods.md",
    "docs/guide/hexadecimal-games.md",
    "docs/guide/quotients.md",
    "docs/guide/sweeps.md",
    "docs/guide/atlas.md",
    "docs/guide/plots.md",
    "docs/guide/moves-and-play.md",
    "docs/guide/classes-and-split.md",
    "docs/guide/contests.md",
    "docs/guide/default-suite.md",
    "docs/guide/outputs-and-safety.md",
    "docs/guide/python.md",
    "docs/guide/library.md",
    "docs/guide/atlas-site.md",
];

/// The fixtures every block's directory holds, as the examples name them.
const FIXTURES: &[&str] =
    &["data/graphs", "tests/data/shoi2008_correct.sh", "tests/data/shoi2008_wrong.sh"];

/// The repository root.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(page: &str) -> String {
    std::fs::read_to_string(root().join(page)).unwrap_or_else(|e| panic!("{page}: {e}"))
}

/// Copies `from` (a file or a folder's files) to the same relative place under `dir`.
fn copy_fixture(dir: &Path, from: &str) {
    let source = root().join(from);
    let target = dir.join(from);
    if source.is_dir() {
        std::fs::create_dir_all(&target).unwrap();
        for entry in std::fs::read_dir(&source).unwrap() {
            let entry = entry.unwrap();
            std::fs::copy(entry.path(), target.join(entry.file_name())).unwrap();
        }
    } else {
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::copy(&source, &target).unwrap();
    }
}

/// Runs every `console` example of a page's text and returns every difference found
/// between what the page shows and what the commands print, each naming its line.
fn differences(page: &str, text: &str) -> Vec<String> {
    let mut failures = Vec::new();
    for block in blocks(text).iter().filter(|b| b.fence() == Ok(Fence::Run)) {
        let shown = examples(block).unwrap_or_else(|e| panic!("{page}: {e}"));
        let dir = tempfile::tempdir().unwrap();
        for fixture in FIXTURES {
            copy_fixture(dir.path(), fixture);
        }
        for example in shown {
            let (status, output) = run_shell_in(dir.path(), &example.command);
            let mut lines: Vec<&str> = output.lines().collect();
            while lines.last().is_some_and(|l| l.trim().is_empty()) {
                lines.pop();
            }
            if status != Some(example.status) || !output_matches(&example.expected, &lines) {
                failures.push(format!(
                    "{page}:{}: $ {}\n--- shown (status {}):\n{}\n--- printed (status {:?}):\n{}",
                    example.line,
                    example.command,
                    example.status,
                    example.expected.join("\n"),
                    status,
                    lines.join("\n")
                ));
            }
        }
    }
    failures
}

/// Fails with every difference between a page's examples and what they print.
pub(crate) fn check_page(page: &str) {
    assert!(PAGES.contains(&page), "{page} is not in PAGES");
    let failures = differences(page, &read(page));
    assert!(
        failures.is_empty(),
        "{} example(s) differ:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// The doctests of `src/lib.rs`: the lines of each ```` ``` ```` block of its `//!` docs.
fn library_doctests() -> Vec<Vec<String>> {
    let lib = read("src/lib.rs");
    let docs: Vec<&str> = lib
        .lines()
        .filter_map(|line| line.strip_prefix("//!"))
        .map(|l| l.strip_prefix(' ').unwrap_or(l))
        .collect();
    blocks(&docs.join("\n")).into_iter().map(|block| block.lines).collect()
}

#[test]
fn rust_examples_of_the_docs_are_doctests_of_the_library() {
    let doctests = library_doctests();
    assert!(doctests.len() >= 2, "{doctests:?}");
    let mut shown = 0;
    for page in PAGES {
        for block in blocks(&read(page)).into_iter().filter(|block| block.info == "rust") {
            shown += 1;
            assert!(
                doctests.contains(&block.lines),
                "{page}:{}: this rust block is not a doctest of src/lib.rs (cargo test would not compile it); copy it there or make it one",
                block.line
            );
        }
    }
    assert!(shown >= 2, "the library page shows its examples");
}

/// Every markdown file of README.md and docs/ (but the generated reference).
fn pages_on_disk() -> Vec<String> {
    let mut pages = vec!["README.md".to_string()];
    let mut folders = vec![root().join("docs")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            let relative = path.strip_prefix(root()).unwrap().to_string_lossy().into_owned();
            if path.is_dir() && relative != "docs/reference" {
                folders.push(path);
            } else if relative.ends_with(".md") && !relative.starts_with("docs/reference") {
                pages.push(relative);
            }
        }
    }
    pages.sort();
    pages
}

#[test]
fn every_page_of_the_docs_has_its_examples_run() {
    let mut listed: Vec<String> = PAGES.iter().map(|p| p.to_string()).collect();
    listed.sort();
    assert_eq!(pages_on_disk(), listed, "PAGES must list every page of README.md and docs/");
}

/// The problems of one page's blocks: a fence that does not say what the block is, a
/// `console` block that does not read as commands and outputs, a `$ ` line in a block
/// that is not a console block.
fn block_problems(page: &str, text: &str) -> Vec<String> {
    let mut problems = Vec::new();
    for block in blocks(text) {
        let place = format!("{page}:{}", block.line);
        match block.fence() {
            Ok(Fence::Run | Fence::NoRun) => {
                if let Err(e) = examples(&block) {
                    problems.push(format!("{page}: {e}"));
                }
            }
            Ok(Fence::Shell) => {}
            Ok(Fence::NotCommands) => {
                if block.lines.iter().any(|l| l.starts_with("$ ")) {
                    problems.push(format!("{place}: a `$ ` command outside a console block"));
                }
            }
            Err(e) => problems.push(format!("{place}: {e}")),
        }
    }
    problems
}

/// Every page of docs/ (the guide, its index, each command's reference page), as the
/// README links it.
fn readme_targets() -> Vec<String> {
    let mut targets: Vec<String> =
        pages_on_disk().into_iter().filter(|p| p.starts_with("docs/")).collect();
    for entry in std::fs::read_dir(root().join("docs/reference")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        targets.push(format!("docs/reference/{name}"));
    }
    targets
}

#[test]
fn the_readme_links_every_page_of_the_docs_in_one_click() {
    let linked: Vec<String> = links(&read("README.md"))
        .into_iter()
        .map(|(_, target)| target.split('#').next().unwrap_or_default().to_string())
        .collect();
    let missing: Vec<String> =
        readme_targets().into_iter().filter(|page| !linked.contains(page)).collect();
    assert!(missing.is_empty(), "README.md does not link {missing:?}");
}

#[test]
fn every_block_says_whether_it_is_run() {
    let problems: Vec<String> =
        PAGES.iter().flat_map(|page| block_problems(page, &read(page))).collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The `nimtab` commands of the blocks that are not run, with their page and line.
fn unrun_invocations(page: &str, text: &str) -> Vec<(String, Vec<String>)> {
    let mut found = Vec::new();
    for block in blocks(text) {
        let commands: Vec<(usize, String)> = match block.fence() {
            Ok(Fence::NoRun) => examples(&block)
                .unwrap_or_default()
                .into_iter()
                .map(|e| (e.line, e.command))
                .collect(),
            Ok(Fence::Shell) => shell_commands(&block),
            _ => continue,
        };
        for (line, text) in commands {
            for args in invocations(&text) {
                found.push((format!("{page}:{line}"), args));
            }
        }
    }
    found
}

/// The commands of an `sh` block: each line, continued after a trailing `\`.
fn shell_commands(block: &Block) -> Vec<(usize, String)> {
    let mut commands: Vec<(usize, String)> = Vec::new();
    let mut continued = false;
    for (i, line) in block.lines.iter().enumerate() {
        match commands.last_mut() {
            Some((_, command)) if continued => {
                command.push('\n');
                command.push_str(line);
            }
            _ => commands.push((block.line + 1 + i, line.clone())),
        }
        continued = line.ends_with('\\');
    }
    commands
}

/// Whether nimtab's argument parser accepts `args`: with `--help` after them, it prints
/// the help (status 0) only if every argument before it is known and its value valid.
fn parses(args: &[String]) -> Result<(), String> {
    let out = command().args(args).arg("--help").stdin(Stdio::null()).output().unwrap();
    match out.status.code() {
        Some(0) => Ok(()),
        _ => Err(String::from_utf8_lossy(&out.stderr).trim().to_string()),
    }
}

#[test]
fn commands_that_are_not_run_parse() {
    let mut problems = Vec::new();
    let mut checked = 0;
    for page in PAGES {
        for (place, args) in unrun_invocations(page, &read(page)) {
            checked += 1;
            if let Err(e) = parses(&args) {
                problems.push(format!("{place}: nimtab {}: {e}", args.join(" ")));
            }
        }
    }
    assert!(checked > 0, "no command that is not run was found: is the reader broken?");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let mut pages: Vec<String> = PAGES.iter().map(|p| p.to_string()).collect();
    for entry in std::fs::read_dir(root().join("docs/reference")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        pages.push(format!("docs/reference/{name}"));
    }
    let mut problems = Vec::new();
    for page in &pages {
        let text = read(page);
        for (line, target) in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, anchor) = target.split_once('#').unwrap_or((&target, ""));
            let path: PathBuf = if file.is_empty() {
                root().join(page)
            } else {
                root().join(page).parent().unwrap().join(file)
            };
            if !path.exists() {
                problems.push(format!("{page}:{line}: {target}: no such file"));
            } else if !anchor.is_empty()
                && !anchors(&std::fs::read_to_string(&path).unwrap()).iter().any(|a| a == anchor)
            {
                problems.push(format!("{page}:{line}: {target}: no such heading"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_wrong_shown_output_or_status_is_reported() {
    let page = "```console\n\
                $ nimtab grundy --game subtract:1,2 --max 3\n\
                heap,grundy\n0,0\n1,1\n2,2\n3,1\n\
                $ nimtab grundy --game subtract:1,2 --max 1\n\
                heap,grundy\n0,0\n1,1\n\
                [exit status 1]\n\
                $ nimtab grundy --game subtract:1,2 --max 2\n\
                heap,grundy\n...\n2,2\n\
                ```\n";
    let failures = differences("test.md", page);
    assert_eq!(failures.len(), 2, "{failures:?}");
    assert!(failures[0].starts_with("test.md:2: $ nimtab grundy --game subtract:1,2 --max 3"));
    assert!(failures[0].ends_with("3,0"), "{}", failures[0]);
    assert!(failures[1].contains("--- printed (status Some(0))"), "{}", failures[1]);
}

#[test]
fn an_unparsable_command_that_is_not_run_is_reported() {
    let page = "```console no-run\n$ nimtab solve --game nim --heaps two --max 3\n```\n";
    let found = unrun_invocations("test.md", page);
    assert_eq!(found.len(), 1);
    let error = parses(&found[0].1).unwrap_err();
    assert!(error.contains("'two'"), "{error}");
    let page = "```sh\ncargo build && nimtab verify --game nim \\\n  --heaps 2 --max 3\n```\n";
    let found = unrun_invocations("test.md", page);
    assert_eq!(
        found,
        vec![("test.md:2".to_string(), words("verify --game nim --heaps 2 --max 3"))]
    );
    assert_eq!(parses(&found[0].1), Ok(()));
}

#[test]
fn a_block_without_a_fence_language_or_with_commands_in_text_is_refused() {
    let problems = block_problems("test.md", "```\n$ nimtab\n```\n```text\n$ nimtab\n```\n");
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems[0].starts_with("test.md:1: "), "{problems:?}");
    assert!(problems[1].starts_with("test.md:4: a `$ ` command"), "{problems:?}");
}

#[test]
fn the_output_matcher_elides_lines_and_spans_and_nothing_else() {
    let shown = |lines: &[&str]| lines.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    assert!(output_matches(&shown(&["a", "...", "d"]), &["a", "b", "c", "d"]));
    assert!(output_matches(&shown(&["a", "...", "b"]), &["a", "b"]));
    assert!(!output_matches(&shown(&["a", "...", "d"]), &["a", "b", "c"]));
    assert!(!output_matches(&shown(&["a", "b"]), &["a", "b", "c"]));
    assert!(line_matches("took [..] s", "took 1.5 s"));
    assert!(line_matches("[..]MiB, bound by [..]", "20.6 MiB, bound by x"));
    assert!(!line_matches("took [..] s", "took 1.5 ms!"));
    assert!(!line_matches("a[..]a", "a"));
}

#[test]
fn console_blocks_read_commands_outputs_and_statuses() {
    let block = Block {
        info: "console".into(),
        line: 10,
        lines: lines_of("$ nimtab a \\|  --b|out||[exit status 2]|$ c"),
    };
    let shown = examples(&block).unwrap();
    assert_eq!(shown.len(), 2);
    assert_eq!(shown[0].command, "nimtab a \\\n  --b");
    assert_eq!(shown[0].expected, vec!["out".to_string()]);
    assert_eq!((shown[0].status, shown[0].line, shown[1].status), (2, 11, 0));
    let stray = Block { info: "console".into(), line: 1, lines: lines_of("output first|$ c") };
    assert!(examples(&stray).is_err());
}

#[test]
fn invocations_are_the_nimtab_commands_of_a_shell_line_split_into_words() {
    let line =
        "printf '2\\n1 1\\n' | nimtab judge p2197 > out.txt; nimtab check --claim-p 'xor == 0'";
    assert_eq!(
        invocations(line),
        vec![words("judge p2197"), vec!["check".into(), "--claim-p".into(), "xor == 0".into()]]
    );
    assert_eq!(invocations("cargo test && echo \"nimtab x\""), Vec::<Vec<String>>::new());
}

/// A text split at its spaces, as owned strings.
fn words(text: &str) -> Vec<String> {
    text.split(' ').map(str::to_string).collect()
}

/// A block's lines written on one line, separated by `|`.
fn lines_of(text: &str) -> Vec<String> {
    text.split('|').map(str::to_string).collect()
}
