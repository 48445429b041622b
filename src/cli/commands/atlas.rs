//! `nimtab atlas`: every octal or hexadecimal code of a family solved with a certified
//! period or computed to the budget, written as `atlas.csv`, `classes.csv`, `atlas.json`
//! and the rare heaps of each unsolved class; each finished code is kept in `--out` so
//! that a stopped run resumes where it stopped.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use anyhow::{bail, Context};
use nimtab::atlas::compare::{Difference, PublishedTable};
use nimtab::atlas::files::atlas_files;
use nimtab::atlas::site::{Site, FIXED_FILES};
use nimtab::atlas::{
    classes, Atlas, AtlasError, AtlasRequest, AtlasSettings, Class, Entry, Equality, WorkDir,
    DISK_FROM,
};
use nimtab::export::format::{streamed, Bytes};
use nimtab::sequence::plan::{free_space, DiskUse, Plan};
use nimtab::sequence::Goal;
use nimtab::sweep::{Games, Shard};

use crate::cli::commands::atlas_state::{read_state, Keeper, STATE};
use crate::cli::commands::sweep_family::note_repeats;
use crate::cli::input::{self, Stdin};
use crate::cli::interrupt;
use crate::cli::long_run::{heap_count, parse_duration};
use crate::cli::output::{self, Held, StagedDir};
use crate::cli::progress::Bar;
use crate::cli::{Global, Outcome};

/// Arguments of `nimtab atlas`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The codes: octal(K) for every octal code of 1 to K digits (leading digit 0 or 4),
    /// hex(K) for every hexadecimal code of 1 to K digits with a digit above 7, or codes
    /// (0.161, octal:0.161, hex:0.3F) and octal: or hex: patterns with ?, separated by ';'.
    #[arg(long, value_name = "FAMILY", required_unless_present = "codes_file")]
    codes: Option<String>,
    /// A file of codes or patterns, one per line ('#' starts a comment); - reads stdin.
    #[arg(long = "codes-file", value_name = "FILE", conflicts_with = "codes")]
    codes_file: Option<PathBuf>,
    /// The last heap computed for a code without a certified period: N, 2^K or 2^K-1;
    /// N,TIME also stops each code's sequence after TIME (seconds, or a number with s, m
    /// or h), which makes how far it gets depend on the machine. Runs past 2^22 heaps
    /// keep their values in --out/state, with checkpoints.
    #[arg(long, value_name = "N[,TIME]", default_value = "2^20", value_parser = parse_budget)]
    budget: Budget,
    /// The last heap computed for a code whose values do not split into common and rare
    /// (their cost grows with the square of the heaps), at most the budget and 2^22, and
    /// for every hexadecimal code (values in memory): then at most 2^16.
    #[arg(long = "dense-budget", value_name = "N", default_value = "2^16", value_parser = parse_heaps)]
    dense_budget: u64,
    /// The misère quotient's heap bound (lowered for a code whose quotient outgrows
    /// --quotient-order, to the last heap where it fits).
    #[arg(long = "quotient-heap", value_name = "N", default_value_t = 20)]
    quotient_heap: u32,
    /// The misère quotient's order bound.
    #[arg(long = "quotient-order", value_name = "K", default_value_t = 256)]
    quotient_order: usize,
    /// The atlas directory: its files, and the state of every finished code.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// How often a code's run past 2^22 heaps (past 2^13 for a hexadecimal code) writes
    /// its checkpoint in --out/state (seconds, or a number with s, m or h): a killed run
    /// resumes from there.
    #[arg(long = "checkpoint-every", value_name = "TIME", default_value = "1m", value_parser = parse_every)]
    checkpoint_every: Duration,
    /// Also write the atlas as a static web site into DIR: index.html (every class in a
    /// table to sort and filter), a page per class (class/CODE.html), atlas.js and
    /// site.css; it opens from the folder with no server or network. DIR may be --out.
    #[arg(long, value_name = "DIR")]
    html: Option<PathBuf>,
    /// Run more than 10000 codes.
    #[arg(long)]
    force: bool,
    /// A published table in the atlas's CSV columns (any of them, code among them): print
    /// every cell where it differs from the atlas, and exit with status 1 if any does.
    #[arg(long, value_name = "FILE")]
    compare: Option<PathBuf>,
    /// Compute only part I of N of the codes (a contiguous range), keeping their state in
    /// --out/state; a run without --shard over a directory holding every part's state
    /// writes the atlas without computing them again.
    #[arg(long, value_name = "I/N", value_parser = parse_shard, conflicts_with_all = ["compare", "html"])]
    shard: Option<Shard>,
}

fn parse_shard(text: &str) -> Result<Shard, String> {
    Shard::parse(text).map_err(|e| format!("--shard: {e}"))
}

/// The files of a complete atlas besides the rare heaps.
const FILES: [&str; 3] = ["atlas.csv", "classes.csv", "atlas.json"];
/// The largest codes file read.
const MAX_CODES_FILE: u64 = 64 << 20;

/// `--budget`, `--dense-budget`: N, 2^K or 2^K-1.
fn parse_heaps(text: &str) -> Result<u64, String> {
    heap_count(text).ok_or_else(|| format!("expected a heap count N, 2^K or 2^K-1, got '{text}'"))
}

/// `--budget`: heaps, and optionally a time per code.
#[derive(Clone, Copy, Debug)]
struct Budget {
    heaps: u64,
    seconds: Option<u64>,
}

/// `--budget`: N or N,TIME.
fn parse_budget(text: &str) -> Result<Budget, String> {
    let (heaps, time) = match text.split_once(',') {
        Some((heaps, time)) => (heaps, Some(time)),
        None => (text, None),
    };
    let heaps = parse_heaps(heaps.trim())?;
    let Some(time) = time else { return Ok(Budget { heaps, seconds: None }) };
    let bad = || format!("expected N,TIME with TIME whole seconds (90, 90s, 5m, 2h), got '{text}'");
    let seconds = parse_duration(time.trim()).map_err(|_| bad())?;
    if seconds.subsec_nanos() != 0 || seconds.as_secs() == 0 {
        return Err(bad());
    }
    Ok(Budget { heaps, seconds: Some(seconds.as_secs()) })
}

/// `--checkpoint-every`: more than nothing.
fn parse_every(text: &str) -> Result<Duration, String> {
    let every = parse_duration(text)?;
    if every.is_zero() {
        return Err(format!("--checkpoint-every must be more than 0, got '{text}'"));
    }
    Ok(every)
}

/// The library's request for these flags.
fn request(a: &Args) -> anyhow::Result<AtlasRequest> {
    let codes = match (&a.codes, &a.codes_file) {
        (_, Some(path)) => {
            let bytes = input::read_bounded(path, "--codes-file", Stdin::Taken, MAX_CODES_FILE)?;
            let contents = String::from_utf8(bytes).ok().with_context(|| {
                format!("--codes-file {}: it is not text (not UTF-8)", path.display())
            })?;
            Games::File { name: path.display().to_string(), contents }
        }
        (Some(text), None) => Games::Text(text.clone()),
        (None, None) => unreachable!("clap requires --codes or --codes-file"),
    };
    let settings =
        AtlasSettings::new(a.budget.heaps, a.dense_budget, a.quotient_heap, a.quotient_order)
            .with_seconds(a.budget.seconds);
    Ok(AtlasRequest { codes, force: a.force, settings })
}

/// Runs `nimtab atlas`.
pub fn run(a: Args, global: &Global) -> anyhow::Result<Outcome> {
    let whole = request(&a)?.plan()?;
    let atlas = match a.shard {
        Some(shard) => whole.shard(shard),
        None => whole,
    };
    let codes: Vec<String> = atlas.codes().iter().map(ToString::to_string).collect();
    let published = match &a.compare {
        Some(path) => Some(published_table(path, &codes)?),
        None => None,
    };
    let out = a.out.as_path();
    check_targets(out, a.html.as_deref())?;
    check_room(atlas.settings(), atlas.codes().len(), out, global)?;
    std::fs::create_dir_all(out.join(STATE))
        .with_context(|| format!("creating {}", out.join(STATE).display()))?;
    let _held = Held::take(out, "atlas directory")?;
    // Said once the request is accepted, so that a refusal stays one line.
    if !global.quiet {
        let repeats = atlas.repeats();
        note_repeats("the same code listed twice is computed once", repeats, repeats.len());
    }
    let atlas = atlas.with_work_dir(WorkDir::new(out.join(STATE), a.checkpoint_every));
    let done = read_state(out, &atlas, global)?;
    let bar = Bar::counting("atlas", atlas.codes().len() as u64, "codes", global.quiet);
    nimtab::Progress::advance(&bar, done.len() as u64);
    let kept = AtomicUsize::new(done.len());
    let keeper = Keeper { dir: out.join(STATE), bar: &bar, failed: Mutex::new(None), kept: &kept };
    // An interrupt lets the running codes save a last checkpoint (long runs) first.
    let deferral = interrupt::defer();
    let entries = atlas.solve(done, &keeper);
    bar.finish();
    if matches!(entries, Err(AtlasError::Cancelled)) {
        interrupt::finish_interrupted(&format!(
            "nimtab: interrupted; {} of {} codes are kept in {} (and the checkpoints of long \
             runs): the same command resumes; no partial output was left",
            kept.load(Ordering::SeqCst),
            atlas.codes().len(),
            out.join(STATE).display()
        ));
    }
    drop(deferral);
    let entries =
        entries.map_err(|e| match keeper.failed.lock().ok().and_then(|mut f| f.take()) {
            Some(cause) => cause,
            None => e.into(),
        })?;
    if let Some(shard) = a.shard {
        output::line(format_args!(
            "shard {shard}: {} codes done, their state kept in {}",
            entries.len(),
            out.join(STATE).display()
        ))?;
        return Ok(Outcome::Success);
    }
    let classes = classes(&entries);
    let site = match &a.html {
        Some(dir) => Some((dir.as_path(), Site::new(atlas.settings(), &entries, &classes)?)),
        None => None,
    };
    write_atlas(out, &atlas, &entries, &classes, site.as_ref().map(|(dir, s)| (*dir, s)))?;
    summary(&entries, &classes, out)?;
    if let Some((html, site)) = &site {
        let index = html.join(FIXED_FILES[0]);
        output::line(format_args!(
            "site of {} pages written to {} (open {})",
            site.files().len() - 2,
            html.display(),
            index.display()
        ))?;
    }
    let Some(published) = published else { return Ok(Outcome::Success) };
    let differences = published.compare(&entries, &classes);
    write_differences(&differences)?;
    Ok(if differences.is_empty() { Outcome::Success } else { Outcome::ClaimFailed })
}

/// Refuses, before any work, a budget whose runs do not fit beside the other threads'.
/// To [`DISK_FROM`] heaps a code holds about 8 bytes a heap in memory (its values, the
/// period search's index and copy); past it the values go to a file in the state folder
/// and each thread's run is planned as `nimtab period` plans one (its working set and
/// period search in memory, its values on disk), stated on stderr.
fn check_room(
    settings: &AtlasSettings,
    codes: usize,
    out: &Path,
    global: &Global,
) -> anyhow::Result<()> {
    // One code per thread: no more runs at once than codes.
    let threads = (rayon::current_num_threads() as u64).min(codes as u64).max(1);
    if settings.budget + 1 > DISK_FROM {
        return check_disk_runs(settings.budget, out, threads, global);
    }
    let need = (settings.budget + 1).saturating_mul(8).saturating_mul(threads);
    if need > global.memory_limit {
        bail!(
            "--budget {}: each code holds about {} in memory, {} on {threads} threads, above \
             the memory budget of {}; lower --budget or --threads",
            settings.budget,
            nimtab::sequence::human_bytes((settings.budget + 1) * 8),
            nimtab::sequence::human_bytes(need),
            nimtab::sequence::human_bytes(global.memory_limit)
        );
    }
    Ok(())
}

/// The plan of one code's run to the budget with its values on disk, given a share of
/// the memory and of the free space for each thread; refused when it does not fit.
fn check_disk_runs(budget: u64, out: &Path, threads: u64, global: &Global) -> anyhow::Result<()> {
    // The state folder may not exist yet: its room is the atlas directory's (or, before
    // that is made, its parent's).
    let existing = out.ancestors().find(|dir| dir.is_dir()).unwrap_or(Path::new("."));
    let free = free_space(existing).map(|free| free / threads);
    let what = format!("a code's run to heap {budget} (one of {threads} at once)");
    let limit = global.memory_limit / threads;
    let state = out.join(STATE);
    let plan = Plan::new(&what, budget, Goal::Period, &state, DiskUse::Always, limit, free)
        .map_err(|e| anyhow::anyhow!("--budget {budget}: {e}; lower --budget or --threads"))?;
    if let Some(e) = plan.beyond_reach(&what) {
        bail!("--budget {budget}: {e}; lower --budget or --threads");
    }
    if !global.quiet {
        output::note(&format!("nimtab: each code's run to heap {budget}: {plan}"));
    }
    Ok(())
}

/// The table of `--compare`, read and checked before any work.
fn published_table(path: &Path, codes: &[String]) -> anyhow::Result<PublishedTable> {
    let bytes = input::read_bounded(path, "--compare", Stdin::Taken, MAX_CODES_FILE)?;
    let text = String::from_utf8(bytes)
        .ok()
        .with_context(|| format!("--compare {}: it is not text (not UTF-8)", path.display()))?;
    PublishedTable::parse(&text, codes).with_context(|| format!("--compare {}", path.display()))
}

/// The differences on stdout, as CSV after a line saying how many.
fn write_differences(differences: &[Difference]) -> anyhow::Result<()> {
    output::line(format_args!("{} differences from the published table", differences.len()))?;
    if differences.is_empty() {
        return Ok(());
    }
    let mut text = Vec::new();
    {
        let mut csv = csv::Writer::from_writer(&mut text);
        csv.write_record(["code", "column", "published", "computed", "proof"])?;
        for d in differences {
            csv.write_record([&d.code, &d.column, &d.published, &d.computed, &d.proof])?;
        }
        csv.flush()?;
    }
    output::write_to(&output::Target::Stdout, Bytes(&text))
}

/// Refuses, before any work, an atlas directory or site directory that cannot be
/// written. A site inside the atlas's directory (or that directory itself) is checked
/// as part of it, since it may not exist yet.
fn check_targets(out: &Path, html: Option<&Path>) -> anyhow::Result<()> {
    let mut names: Vec<String> = FILES.iter().map(|f| f.to_string()).collect();
    match html.map(|dir| (dir, dir.strip_prefix(out))) {
        Some((_, Ok(inside))) => {
            let inside = FIXED_FILES.iter().map(|f| inside.join(f).to_string_lossy().into_owned());
            names.extend(inside);
        }
        Some((dir, Err(_))) => output::check_dir_target(dir, &FIXED_FILES)?,
        None => {}
    }
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    output::check_dir_target(out, &names)
}

/// Writes the atlas's files and the site when asked for, all put in place together (in
/// one staging directory when the site goes into the atlas's own directory).
fn write_atlas(
    out: &Path,
    atlas: &Atlas,
    entries: &[Entry],
    classes: &[Class],
    site: Option<(&Path, &Site)>,
) -> anyhow::Result<()> {
    let mut staged = StagedDir::new(out)?;
    for file in atlas_files(atlas.settings(), entries, classes) {
        staged.add(&file.name, streamed(|w| file.write_to(w)))?;
    }
    let Some((dir, site)) = site else { return output::commit(Vec::new(), vec![staged]) };
    if same_directory(out, dir) {
        add_site(&mut staged, site)?;
        return output::commit(Vec::new(), vec![staged]);
    }
    let mut pages = StagedDir::new(dir)?;
    add_site(&mut pages, site)?;
    output::commit(Vec::new(), vec![staged, pages])
}

/// Stages every file of the site.
fn add_site(staged: &mut StagedDir, site: &Site) -> anyhow::Result<()> {
    for file in site.files() {
        staged.add(&file.path(), streamed(|w| file.write_to(w)))?;
    }
    Ok(())
}

/// Whether `a` and `b` name one existing directory.
fn same_directory(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// The summary on stdout.
fn summary(entries: &[Entry], classes: &[Class], out: &Path) -> anyhow::Result<()> {
    let solved = entries.iter().filter(|e| e.status() == "solved").count();
    let proved = classes
        .iter()
        .filter(|c| !matches!(c.how, Equality::Single | Equality::EqualThrough))
        .count();
    let bounded = classes.iter().filter(|c| c.how == Equality::EqualThrough).count();
    output::line(format_args!(
        "atlas of {} codes: {solved} solved, {} unsolved; {} classes ({proved} of several codes \
         proved equal, {bounded} equal only as far as computed); written to {}",
        entries.len(),
        entries.len() - solved,
        classes.len(),
        out.display()
    ))
}
