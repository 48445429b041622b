//! One word for the ending: every command that takes one takes `--rules`, those that
//! take a single rule also as `--rule`; a mistyped flag is named with the one meant.

use std::path::Path;

use crate::support::cli::run;

type Command = (&'static [&'static str], &'static str, &'static [&'static str]);

/// Every command that takes an ending, as `(command line before the rule, rule, after)`;
/// `OUT` stands for a picture's path in a temporary directory.
const COMMANDS: [Command; 7] = [
    (&["solve", "--game", "nim", "--heaps", "2", "--max", "3"], "misere", &[]),
    (&["verify", "--game", "nim", "--heaps", "2", "--max", "3"], "misere", &[]),
    (&["sweep", "--games", "nim", "--heaps", "2", "--max", "3"], "misere", &[]),
    (
        &["check", "--game", "nim", "--heaps", "2", "--max", "3"],
        "misere",
        &["--claim-p", "xor == 0"],
    ),
    (&["moves", "--game", "nim"], "misere", &["1", "1"]),
    (&["play", "--game", "nim", "--seed", "1"], "misere", &["2", "3"]),
    (&["plot", "--game", "nim", "--max", "3", "--out", "OUT"], "misere", &["--scale", "2"]),
];

/// The command line with the rule given as `flag`, a picture written into `dir`.
fn with_flag(dir: &Path, flag: &str, (before, rule, after): Command) -> Vec<String> {
    let out = dir.join(format!("picture{flag}.svg")).to_string_lossy().into_owned();
    let word = |s: &&str| if *s == "OUT" { out.clone() } else { s.to_string() };
    let mut args: Vec<String> = before.iter().map(word).collect();
    args.extend([flag.to_string(), rule.to_string()]);
    args.extend(after.iter().map(word));
    args
}

fn run_owned(args: &[String]) -> crate::support::cli::Run {
    run(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

#[test]
fn every_command_that_takes_an_ending_takes_rules() {
    let dir = tempfile::tempdir().unwrap();
    for command in COMMANDS {
        let args = with_flag(dir.path(), "--rules", command);
        let r = run_owned(&args);
        // check's claim fails under misère play (status 1): the flag was taken.
        assert!(r.status == 0 || r.status == 1, "{args:?}: {}", r.stderr);
        assert!(!r.stderr.contains("error:"), "{args:?}: {}", r.stderr);
    }
}

#[test]
fn the_single_rule_commands_take_rule_as_the_same_flag() {
    let dir = tempfile::tempdir().unwrap();
    for command in &COMMANDS[3..] {
        let plural = run_owned(&with_flag(dir.path(), "--rules", *command));
        let singular = run_owned(&with_flag(dir.path(), "--rule", *command));
        assert_eq!((singular.status, &singular.stdout), (plural.status, &plural.stdout));
    }
}

#[test]
fn a_single_rule_command_refuses_a_list_of_rules() {
    let r = run(&["moves", "--game", "nim", "--rules", "normal,misere", "1", "2"]);
    assert_eq!(r.status, 2);
    assert_eq!(
        r.stderr,
        "nimtab: error: --rules 'normal,misere': this command takes one rule: normal, misere \
         or sj\n"
    );
    let r = run(&["play", "--game", "wythoff", "--rules", "sj", "1", "2"]);
    assert_eq!(r.status, 2);
    assert!(r.stderr.starts_with("nimtab: error: --rules sj needs a sum of heaps"), "{}", r.stderr);
}

#[test]
fn a_mistyped_flag_is_one_line_naming_the_flag_meant() {
    let r = run(&["verify", "--game", "nim", "--heaps", "2", "--max", "3", "--rule", "misere"]);
    assert_eq!(r.status, 2);
    assert_eq!(
        r.stderr,
        "nimtab: error: unexpected argument '--rule' found; tip: a similar argument exists: \
         '--rules'\n"
    );
    let r = run(&["solve", "--gmae", "nim"]);
    assert_eq!(
        r.stderr,
        "nimtab: error: unexpected argument '--gmae' found; tip: a similar argument exists: \
         '--game'\n"
    );
}
