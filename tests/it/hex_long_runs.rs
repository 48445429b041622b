//! Long runs of games with three-heap moves: a run stopped at a checkpoint (or interrupted)
//! resumes to the output of a run never stopped, for `grundy` and `period`; checkpoints of
//! another game, of the sequence engine, or changed, are refused with one line.

use std::process::Stdio;
use std::time::Duration;

use crate::support::cli::{command, finish, run_in, send_signal, wait_for};

/// `nimtab ARGS` in `dir`, asserting success: stdout.
fn ok_in(dir: &std::path::Path, args: &[&str]) -> String {
    let r = run_in(dir, args);
    assert_eq!(r.status, 0, "{args:?}: {}", r.stderr);
    r.stdout
}

/// Starts `nimtab ARGS` in `dir`, sends SIGINT after `millis`, and returns how it ended:
/// its status and stderr.
fn interrupted(dir: &std::path::Path, args: &[&str], checkpoint: &str) -> (Option<i32>, String) {
    let child = command()
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    // Once the first checkpoint is saved the run is well under way and far from its end.
    wait_for(&dir.join(checkpoint));
    send_signal(child.id(), "INT");
    let (status, _, stderr) = finish(child, Duration::from_secs(120));
    (status, stderr)
}

#[test]
fn a_hex_run_resumed_from_its_checkpoint_gives_the_output_of_a_run_never_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let game = ["--game", "hex:0.3F"];
    let first =
        ok_in(d, &[&["-q", "grundy"][..], &game, &["--max", "200", "--checkpoint", "c"]].concat());
    let checkpoint = std::fs::read_to_string(d.join("c")).unwrap();
    assert!(checkpoint.starts_with("nimtab three-heap sequence checkpoint\nformat 1\n"));
    assert!(checkpoint.contains("\nheaps 201\nvalues 0 1 2 0 1 2 3 4 5 3 "), "{checkpoint}");
    assert!(!d.join("c.values").exists(), "the checkpoint holds the values");
    let resumed =
        ok_in(d, &[&["-q", "grundy"][..], &game, &["--max", "700", "--resume", "c"]].concat());
    let whole = ok_in(d, &[&["-q", "grundy"][..], &game, &["--max", "700"]].concat());
    assert_eq!(resumed, whole);
    assert!(whole.starts_with(&first[..first.len() - 1]));
    // The resumed run went on checkpointing to the same file.
    let checkpoint = std::fs::read_to_string(d.join("c")).unwrap();
    assert!(checkpoint.contains("\nheaps 701\n"), "{}", &checkpoint[..200]);
    // A period search resumed checks the same heaps as one never stopped: hex:C.1 has no
    // period its theorem's window fits by heap 1000, after 64, 128, ..., 1000.
    let period = |max: &str, extra: &[&str]| {
        let r =
            run_in(d, &[&["-q", "period", "--game", "hex:C.1", "--max", max][..], extra].concat());
        assert_eq!(r.status, 1, "{}", r.stderr);
        r.stderr
    };
    let short = period("300", &["--checkpoint", "p", "--checkpoint-every", "0"]);
    assert!(short.contains("from heap sizes 0..=300"), "{short}");
    let resumed = period("1000", &["--resume", "p"]);
    assert!(resumed.contains("from heap sizes 0..=1000 (largest Grundy value 500)"), "{resumed}");
    assert_eq!(resumed, period("1000", &[]));
}

#[test]
fn a_hex_run_interrupted_saves_a_checkpoint_that_resumes_to_the_same_values() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let args = |flag: &'static str| {
        let heaps = ["grundy", "--game", "hex:0.1F", "--max", "2^14", "--out", "v.csv"];
        [&heaps[..], &[flag, "c", "--checkpoint-every", "0.2"]].concat()
    };
    let (status, stderr) = interrupted(d, &args("--checkpoint"), "c");
    assert_eq!(status, Some(130), "{stderr}");
    assert!(stderr.contains("continue with --resume c; no partial output was left"), "{stderr}");
    assert!(!d.join("v.csv").exists());
    assert!(!d.join(".c.nimtab-lock").exists(), "an interrupted run leaves no lock file");
    let saved = std::fs::read_to_string(d.join("c")).unwrap();
    let heaps: u32 = saved.lines().find_map(|l| l.strip_prefix("heaps ")).unwrap().parse().unwrap();
    assert!(heaps > 0 && heaps < 16385, "{heaps}");
    let resumed = run_in(d, &args("--resume"));
    assert_eq!(resumed.status, 0, "{}", resumed.stderr);
    assert!(resumed.stderr.contains(&format!("resuming hex:0.1F at heap {heaps} of 16385")));
    let resumed = std::fs::read_to_string(d.join("v.csv")).unwrap();
    let whole = ok_in(d, &["grundy", "--game", "hex:0.1F", "--max", "2^14"]);
    assert_eq!(resumed, whole);
}

#[test]
fn checkpoints_of_another_game_or_engine_or_changed_are_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok_in(d, &["-q", "grundy", "--game", "hex:0.3F", "--max", "50", "--checkpoint", "h"]);
    ok_in(d, &["-q", "grundy", "--game", "octal:0.07", "--max", "50", "--checkpoint", "o"]);
    let text = std::fs::read_to_string(d.join("h")).unwrap();
    std::fs::write(d.join("changed"), text.replacen("values 0 1 2", "values 0 1 3", 1)).unwrap();
    std::fs::write(d.join("cut"), &text[..text.len() / 2]).unwrap();
    let resume = |game: &str, file: &str| {
        vec!["grundy", "--game", game, "--max", "60", "--resume", file]
            .into_iter()
            .map(String::from)
            .collect::<Vec<_>>()
    };
    for (args, says) in [
        (resume("hex:0.3E", "h"), "cannot resume from checkpoint h: it is for hex:0.3F, not hex:0.3E"),
        (resume("hex:0.3F", "o"), "it is a checkpoint of a game without three-heap moves"),
        (resume("octal:0.07", "h"), "it is a checkpoint of a game with three-heap moves"),
        (resume("hex:0.3F", "changed"), "the file is corrupt or truncated"),
        (resume("hex:0.3F", "cut"), "the file is corrupt or truncated"),
        (resume("hex:0.3F", "missing"), "cannot resume from checkpoint missing"),
        (
            ["grundy", "--game", "hex:0.3F", "--max", "60", "--checkpoint", "h"].map(String::from).to_vec(),
            "checkpoint h exists: continue its run with --resume h, or remove it to start again",
        ),
        (
            ["grundy", "--game", "hex:0.3F", "--max", "60", "--work-dir", "."].map(String::from).to_vec(),
            "hex:0.3F has moves that leave three heaps, so its values (at most 2^16 + 1) are kept in memory",
        ),
        (
            ["grundy", "--game", "hex:0.3F", "--max", "60", "--resume", "h", "--checkpoint", "o"]
                .map(String::from)
                .to_vec(),
            "checkpoint o exists: a run resumed from h writes its checkpoints to a new file",
        ),
        (
            ["grundy", "--game", "octal:0.07", "--max", "60", "--resume", "o", "--checkpoint", "h"]
                .map(String::from)
                .to_vec(),
            "checkpoint h exists: a run resumed from o writes its checkpoints to a new file",
        ),
        (
            ["grundy", "--game", "hex:0.3F", "--max", "65537", "--checkpoint", "new"]
                .map(String::from)
                .to_vec(),
            "at most 65536; got 65537",
        ),
        (
            ["atlas", "--codes", "0.7;0.70", "--out", "h"].map(String::from).to_vec(),
            "output directory h: not a directory",
        ),
    ] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let r = run_in(d, &args);
        assert_eq!(r.status, 2, "{args:?}: {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
    }
    assert_eq!(std::fs::read_to_string(d.join("h")).unwrap(), text, "a refused run leaves it");
    assert!(!d.join("new").exists());
    // Something other than a regular file where an atlas's checkpoint goes is refused when
    // the code's run starts, with its reason said once.
    std::fs::create_dir_all(d.join("a/state/hex:0.1F.checkpoint")).unwrap();
    let args = ["atlas", "--codes", "hex:0.1F", "--budget", "9000", "--quotient-heap", "4"];
    let r = run_in(d, &[&args[..], &["--out", "a"]].concat());
    assert_eq!(r.status, 2, "{}", r.stderr);
    assert_eq!(
        r.stderr.trim_end(),
        "nimtab: error: writing checkpoint a/state/hex:0.1F.checkpoint: it is not a regular file"
    );
}

#[test]
fn an_atlas_of_a_hex_code_interrupted_resumes_from_its_checkpoint_to_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let atlas = |out: &'static str| {
        let budget = ["--budget", "2^14", "--quotient-heap", "6", "--checkpoint-every", "0.2s"];
        [&["atlas", "-q", "--codes", "hex:0.1F", "--out", out][..], &budget].concat()
    };
    ok_in(d, &atlas("whole"));
    let (status, stderr) = interrupted(d, &atlas("cut"), "cut/state/hex:0.1F.checkpoint");
    assert_eq!(status, Some(130), "{stderr}");
    let checkpoint = std::fs::read_to_string(d.join("cut/state/hex:0.1F.checkpoint")).unwrap();
    assert!(checkpoint.starts_with("nimtab three-heap sequence checkpoint\n"));
    assert!(!d.join(".cut.nimtab-lock").exists(), "an interrupted atlas leaves no lock file");
    ok_in(d, &atlas("cut"));
    for name in ["atlas.csv", "classes.csv", "atlas.json", "state/hex:0.1F.json"] {
        let read = |out: &str| std::fs::read(d.join(out).join(name)).unwrap();
        assert_eq!(read("cut"), read("whole"), "{name}");
    }
    assert!(!d.join("cut/state/hex:0.1F.checkpoint").exists(), "removed once the entry is kept");
}
