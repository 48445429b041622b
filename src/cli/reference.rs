//! The command reference in `docs/reference/`, rendered from the clap definitions, and
//! the test that keeps the checked-in files equal to it (`NIMTAB_BLESS=1` rewrites them).

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

use clap::{Arg, ArgAction, Command, CommandFactory};

use super::Cli;

/// Where each command is explained with examples: its section of the user guide, as a
/// link relative to `docs/reference/`.
const GUIDE: &[(&str, &str)] = &[
    ("solve", "../guide/tables-and-solve.md#nimtab-solve-label-every-position"),
    ("info", "../guide/tables-and-solve.md#nimtab-info-size-and-memory-of-a-space"),
    ("verify", "../guide/verify-and-criteria.md#nimtab-verify-compare-the-dp-with-the-criteria"),
    ("plot", "../guide/plots.md"),
    ("check", "../guide/claims-and-check.md"),
    ("moves", "../guide/moves-and-play.md#nimtab-moves-every-winning-move"),
    ("play", "../guide/moves-and-play.md#nimtab-play-the-tables-strategy-in-a-play-out"),
    ("classes", "../guide/classes-and-split.md#nimtab-classes-misère-nims-classes-s0-s1-s2-t0-t2"),
    (
        "split",
        "../guide/classes-and-split.md#nimtab-split-the-split-game-beauty-of-programming-112",
    ),
    ("grundy", "../guide/grundy-and-periods.md#nimtab-grundy-grundy-values-of-one-heap"),
    (
        "period",
        "../guide/grundy-and-periods.md#nimtab-period-a-certified-period-of-the-grundy-values",
    ),
    ("quotient", "../guide/quotients.md"),
    ("genus", "../guide/genus.md"),
    ("sweep", "../guide/sweeps.md"),
    ("merge", "../guide/sweeps.md#shards-and-nimtab-merge"),
    ("atlas", "../guide/atlas.md"),
    ("judge", "../guide/contests.md#nimtab-judge-contest-answers"),
    ("crosscheck", "../guide/contests.md#nimtab-crosscheck-exhaustive-checks-of-contest-solutions"),
    ("suite", "../guide/default-suite.md"),
];

/// The folder of the reference, from the repository root.
fn reference_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/reference")
}

/// Every file of the reference: `README.md` (the program, its global options and the
/// list of commands) and one `NAME.md` per command.
fn render_all() -> BTreeMap<String, String> {
    let mut cli = Cli::command();
    cli.build();
    let mut files = BTreeMap::new();
    files.insert("README.md".to_string(), render_index(&mut cli));
    for sub in cli.get_subcommands_mut().filter(|s| is_documented(s)) {
        let name = sub.get_name().to_string();
        files.insert(format!("{name}.md"), render_command(sub));
    }
    files
}

const GENERATED: &str = "<!-- Generated from the clap definitions in src/cli/ by the test \
                         `command_reference_is_current` (src/cli/reference.rs); do not edit: \
                         change the help there and run `NIMTAB_BLESS=1 cargo test --bin nimtab \
                         reference`. -->\n\n";

/// The index page: what the program is, its usage, the global options, the commands.
fn render_index(cli: &mut Command) -> String {
    let mut out = String::from(GENERATED);
    out.push_str("# nimtab command reference\n\n");
    push_about(&mut out, cli);
    push_usage(&mut out, cli);
    out.push_str(
        "With no command, `nimtab` runs the default suite, as [`nimtab suite`](suite.md) does.\n\n",
    );
    out.push_str("The user guide explains every command with examples: [docs/](../README.md).\n\n");
    push_args(&mut out, "Global options", cli.get_arguments().filter(|a| is_listed(a)));
    out.push_str("## Commands\n\n| command | what it does |\n|---|---|\n");
    for sub in cli.get_subcommands().filter(|s| is_documented(s)) {
        let name = sub.get_name();
        let about = sub.get_about().map(|s| s.to_string()).unwrap_or_default();
        let _ = writeln!(out, "| [`nimtab {name}`]({name}.md) | {} |", inline(&about));
    }
    out
}

/// One command's page: about, usage, arguments, options, global options, guide link.
fn render_command(sub: &mut Command) -> String {
    let name = sub.get_name().to_string();
    let mut out = String::from(GENERATED);
    let _ = writeln!(out, "# nimtab {name}\n");
    push_about(&mut out, sub);
    push_usage(&mut out, sub);
    if let Some((_, link)) = GUIDE.iter().find(|(command, _)| *command == name) {
        let _ = writeln!(out, "Explained with examples in [the user guide]({link}).\n");
    }
    let listed: Vec<&Arg> = sub.get_arguments().filter(|a| is_listed(a)).collect();
    push_args(&mut out, "Arguments", listed.iter().copied().filter(|a| a.is_positional()));
    let own = |a: &&Arg| !a.is_positional() && !a.is_global_set();
    push_args(&mut out, "Options", listed.iter().copied().filter(own));
    push_args(&mut out, "Global options", listed.iter().copied().filter(|a| a.is_global_set()));
    out.push_str("[All commands](README.md)\n");
    out
}

/// Commands given a page: every one but clap's own `help`, which `--help` covers.
fn is_documented(cmd: &Command) -> bool {
    cmd.get_name() != "help"
}

/// Arguments shown: not hidden, and not clap's own `--help` and `--version`.
fn is_listed(arg: &Arg) -> bool {
    let generated = matches!(arg.get_action(), ArgAction::Help | ArgAction::Version);
    !arg.is_hide_set() && !generated
}

fn push_about(out: &mut String, cmd: &Command) {
    let about = cmd.get_long_about().or(cmd.get_about()).map(|s| s.to_string());
    if let Some(about) = about {
        let _ = writeln!(out, "{}\n", sentence(&paragraphs(&about)));
    }
}

fn push_usage(out: &mut String, cmd: &mut Command) {
    let usage = cmd.render_usage().to_string();
    let _ = writeln!(out, "```text\n{}\n```\n", usage.trim_end());
}

/// A section with one bullet per argument: its syntax, whether it is required, its
/// help, default and possible values. Nothing when there are no arguments.
fn push_args<'a>(out: &mut String, title: &str, args: impl Iterator<Item = &'a Arg>) {
    let mut section = String::new();
    for arg in args {
        let _ = write!(section, "- `{}`", syntax(arg));
        if arg.is_required_set() {
            section.push_str(" (required)");
        }
        let help = arg.get_long_help().or(arg.get_help()).map(|s| s.to_string());
        if let Some(help) = help {
            let _ = write!(section, ": {}", sentence(&indented(&paragraphs(&help))));
        }
        if let Some(values) = possible_values(arg) {
            let _ = write!(section, " One of {values}.");
        }
        if let Some(default) = default(arg) {
            let _ = write!(section, " Default: `{default}`.");
        }
        section.push('\n');
    }
    if !section.is_empty() {
        let _ = writeln!(out, "## {title}\n\n{section}");
    }
}

/// How an argument is written: `-q, --quiet`, `--max <M>`, `<H>...`.
fn syntax(arg: &Arg) -> String {
    let names = value_names(arg);
    if arg.is_positional() {
        let repeated = matches!(arg.get_action(), ArgAction::Append);
        return if repeated { format!("{names}...") } else { names };
    }
    let mut text = String::new();
    if let Some(short) = arg.get_short() {
        let _ = write!(text, "-{short}, ");
    }
    if let Some(long) = arg.get_long() {
        let _ = write!(text, "--{long}");
    }
    if arg.get_action().takes_values() {
        let _ = write!(text, " {names}");
    }
    text
}

fn value_names(arg: &Arg) -> String {
    let names: Vec<String> = match arg.get_value_names() {
        Some(names) => names.iter().map(|n| format!("<{n}>")).collect(),
        None => vec![format!("<{}>", arg.get_id().as_str().to_uppercase())],
    };
    names.join(" ")
}

/// The possible values of a closed list, each with its help if it has one.
fn possible_values(arg: &Arg) -> Option<String> {
    if !arg.get_action().takes_values() {
        return None;
    }
    let values: Vec<String> = arg
        .get_possible_values()
        .iter()
        .filter(|v| !v.is_hide_set())
        .map(|v| match v.get_help() {
            Some(help) => format!("`{}` ({})", v.get_name(), inline(&help.to_string())),
            None => format!("`{}`", v.get_name()),
        })
        .collect();
    (!values.is_empty()).then(|| values.join(", "))
}

/// The default of an option that takes a value (a flag's implicit `false` is not shown).
fn default(arg: &Arg) -> Option<String> {
    if !arg.get_action().takes_values() {
        return None;
    }
    let values: Vec<String> =
        arg.get_default_values().iter().map(|v| v.to_string_lossy().into_owned()).collect();
    (!values.is_empty()).then(|| values.join(","))
}

/// Help text as markdown: paragraphs kept, each one's lines joined and escaped.
fn paragraphs(text: &str) -> String {
    let paragraphs: Vec<String> = text
        .split("\n\n")
        .map(|p| inline(&p.lines().map(str::trim).collect::<Vec<_>>().join(" ")))
        .collect();
    paragraphs.join("\n\n")
}

/// Text ending with a full stop (clap drops the one of a one-paragraph help).
fn sentence(text: &str) -> String {
    if text.ends_with(['.', '!', '?']) {
        text.to_string()
    } else {
        format!("{text}.")
    }
}

/// Continuation paragraphs of a bullet, indented so that they stay inside it.
fn indented(text: &str) -> String {
    text.replace("\n\n", "\n\n  ")
}

/// One line of help text made safe for markdown: the characters markdown would read as
/// markup are escaped outside `code spans`, which are kept as they are.
fn inline(text: &str) -> String {
    let mut out = String::new();
    for (i, part) in text.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        if i % 2 == 1 {
            out.push_str(part);
            continue;
        }
        for c in part.chars() {
            if matches!(c, '\\' | '*' | '_' | '<' | '>' | '[' | ']' | '|' | '#') {
                out.push('\\');
            }
            out.push(c);
        }
    }
    out
}

/// The test that keeps `docs/reference/` current. With `NIMTAB_BLESS=1` it rewrites the
/// files (and removes those of commands that no longer exist) instead of failing.
#[test]
fn command_reference_is_current() {
    let dir = reference_dir();
    let files = render_all();
    let bless = std::env::var_os("NIMTAB_BLESS").is_some_and(|v| v == "1");
    let on_disk: Vec<String> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries.map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect()
        })
        .unwrap_or_default();
    if bless {
        std::fs::create_dir_all(&dir).unwrap();
        for stale in on_disk.iter().filter(|name| !files.contains_key(*name)) {
            std::fs::remove_file(dir.join(stale)).unwrap();
        }
        for (name, text) in &files {
            std::fs::write(dir.join(name), text).unwrap();
        }
        return;
    }
    let mut problems = Vec::new();
    for stale in on_disk.iter().filter(|name| !files.contains_key(*name)) {
        problems.push(format!("docs/reference/{stale} names no command"));
    }
    for (name, text) in &files {
        match std::fs::read_to_string(dir.join(name)) {
            Ok(old) if old == *text => {}
            Ok(_) => problems.push(format!("docs/reference/{name} is out of date")),
            Err(_) => problems.push(format!("docs/reference/{name} is missing")),
        }
    }
    assert!(
        problems.is_empty(),
        "{}\nrun `NIMTAB_BLESS=1 cargo test --bin nimtab reference` to rewrite the reference",
        problems.join("\n")
    );
}

#[test]
fn every_command_links_to_its_guide_section() {
    let cli = Cli::command();
    let names: Vec<&str> =
        cli.get_subcommands().filter(|s| is_documented(s)).map(Command::get_name).collect();
    let missing: Vec<&&str> =
        names.iter().filter(|n| !GUIDE.iter().any(|(c, _)| c == *n)).collect();
    assert!(missing.is_empty(), "commands without a guide section: {missing:?}");
    assert_eq!(GUIDE.len(), names.len(), "a guide entry names no command");
}

#[test]
fn markup_in_help_is_escaped_outside_code_spans() {
    assert_eq!(inline("h1 <= hN, `a|b` | c*d"), "h1 \\<= hN, `a|b` \\| c\\*d");
    assert_eq!(paragraphs("one\n  two\n\nthree"), "one two\n\nthree");
}
