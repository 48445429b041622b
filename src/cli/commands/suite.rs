//! `nimtab suite` (and `nimtab` alone): the default suite, its data files and REPORT.md.

use std::io::Read;
use std::path::{Component, Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use nimtab::analysis::verify::{prepare, Finding, Verifier};
use nimtab::export::format::{streamed, Bytes};
use nimtab::export::manifest::{write_manifest, ManifestEntry};
use nimtab::export::plot::{render_in, title_in, Format};
use nimtab::export::report::{render_report, Section};
use nimtab::export::report_games::game_sections;
use nimtab::export::summary::{summary_table, write_counterexamples, write_summary};
use nimtab::model::position::PassState;
use nimtab::suite::atlas::{atlas_files, atlas_section, ATLAS_COMMAND};
use nimtab::suite::genus::{genus_files, genus_section, suite_genera};
use nimtab::suite::hexadecimal::{hex_section, suite_hex_games};
use nimtab::suite::quotients_report::quotient_section;
use nimtab::suite::takebreak::{takebreak_facts, takebreak_suite, TakeBreakFacts, TakeBreakJob};
use nimtab::suite::takebreak_report::takebreak_section;
use nimtab::suite::{
    default_plots, default_suite, grundy_file, suite_spaces, SuiteJob, SuiteSpace, SUITE_LIMIT,
};
use nimtab::Engine;

use crate::cli::commands::suite_takebreak;
use crate::cli::input::{self, Stdin};
use crate::cli::output;
use crate::cli::progress::Bar;
use crate::cli::{Global, Outcome};

/// Arguments of `nimtab suite`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Directory for the generated data files.
    #[arg(long, value_name = "DIR", default_value = "data")]
    data_dir: PathBuf,
    /// Where to write the report.
    #[arg(long, value_name = "FILE", default_value = "REPORT.md")]
    report: PathBuf,
    /// Benchmark results (Markdown, from scripts/bench) to include in the report, if present.
    #[arg(long, value_name = "FILE", default_value = "benches/results.md")]
    bench: PathBuf,
}

impl Default for Args {
    fn default() -> Args {
        Args {
            data_dir: "data".into(),
            report: "REPORT.md".into(),
            bench: "benches/results.md".into(),
        }
    }
}

/// The suite's generated files: name in the manifest, bytes, and generating command.
#[derive(Default)]
struct Generated {
    files: Vec<(String, Vec<u8>, String)>,
}

impl Generated {
    fn add(&mut self, name: &str, bytes: Vec<u8>, command: &str) {
        self.files.push((name.to_string(), bytes, command.to_string()));
    }
}

/// The largest benchmark file included in the report: `scripts/bench` writes a few KiB.
const MAX_BENCH_BYTES: u64 = 1 << 20;

/// Runs the default suite: every output location checked, every space checked for
/// memory, then the work, then all files put in place together.
pub fn run(a: Args, global: &Global) -> anyhow::Result<Outcome> {
    let started = Instant::now();
    let bench = bench_section(&a.bench)?;
    output::check_dir_target(&a.data_dir, &["summary.csv", "counterexamples.csv", "MANIFEST.csv"])?;
    output::check_file_target(&a.report)?;
    let (jobs, takebreak_jobs) = (default_suite()?, takebreak_suite()?);
    let spaces = suite_spaces(&jobs, &takebreak_jobs)?;
    let (findings, takebreak) = verify_spaces(&spaces, &takebreak_jobs, global)?;
    let long = suite_takebreak::run_long_periods(global)?;
    let quotients = suite_takebreak::run_quotients(global)?;
    let atlas = suite_takebreak::run_atlas(global)?;
    let genera = suite_genera(global.memory_limit)?;
    let hex_games = suite_hex_games()?;
    let (mut generated, pictures) = generate(&jobs, &findings)?;
    for (name, bytes, command) in suite_takebreak::files(&takebreak, &long)? {
        generated.add(&name, bytes, &command);
    }
    for (name, bytes, command) in suite_takebreak::quotient_files(&quotients)? {
        generated.add(&name, bytes, &command);
    }
    for (name, bytes, command) in genus_files(&genera)? {
        generated.add(&name, bytes, &command);
    }
    for (name, bytes) in atlas_files(&atlas)? {
        generated.add(&name, bytes, ATLAS_COMMAND);
    }
    let mut sections = vec![
        plots_section(&link_from_report(&a.report, &a.data_dir)?, &pictures),
        takebreak_section(&takebreak, &long),
        quotient_section(&quotients),
        genus_section(&genera),
        hex_section(&hex_games),
        atlas_section(&atlas),
    ];
    sections.extend(game_sections(&findings));
    sections.extend(bench);
    let report = render_report(&findings, "nimtab", &sections);
    write_all(&a, &generated, &report)?;
    let failed = findings.iter().filter(|f| f.theorem_failed()).count();
    output::write_to(
        &output::Target::Stdout,
        streamed(|w| {
            w.write_all(summary_table(&findings).as_bytes())?;
            writeln!(
                w,
                "\n{} comparisons; theorems: {}; wrote {}/ ({} files) and {} in {:.1} s \
             with {} on {}",
                findings.len(),
                if failed == 0 { "all held".to_string() } else { format!("{failed} FAILED") },
                a.data_dir.display(),
                generated.files.len() + 1,
                a.report.display(),
                started.elapsed().as_secs_f64(),
                threads_text(rayon::current_num_threads()),
                nimtab::host::machine_description()
            )
        }),
    )?;
    Ok(if failed == 0 { Outcome::Success } else { Outcome::ClaimFailed })
}

/// "1 thread", "2 threads".
fn threads_text(threads: usize) -> String {
    format!("{threads} thread{}", if threads == 1 { "" } else { "s" })
}

/// Labels every space of the suite and compares it with its criteria, with one progress
/// bar; every space's memory is checked once, before any is run. Returns the findings in
/// the spaces' order, and the facts of each take-and-break game read from its labels.
fn verify_spaces(
    spaces: &[SuiteSpace],
    takebreak_jobs: &[TakeBreakJob],
    global: &Global,
) -> anyhow::Result<(Vec<Finding>, Vec<TakeBreakFacts>)> {
    let engines: Vec<Engine> = spaces
        .iter()
        .map(|s| Engine::builder(s.game, s.space.clone()).memory_limit(global.memory_limit).build())
        .collect();
    let verifiers = engines
        .iter()
        .zip(spaces)
        .map(|(engine, s)| prepare(engine, &s.endings, &s.criteria, SUITE_LIMIT))
        .collect::<nimtab::Result<Vec<_>>>()?;
    let steps_of = |v: &Verifier| v.engine().positions() * v.labellings() as u64;
    let bar = Bar::new("suite", verifiers.iter().map(steps_of).sum(), global.quiet);
    let (mut findings, mut takebreak) = (Vec::new(), Vec::new());
    let mut takebreak_jobs = takebreak_jobs.iter();
    for (verifier, s) in verifiers.iter().zip(spaces) {
        bar.set_message(&match s.space.as_multisets() {
            None => format!("{} n={}", s.game.spec(), s.space.heaps()),
            Some(multisets) => format!("{} total<={}", s.game.spec(), multisets.total()),
        });
        let (verification, labels) = verifier.run_with_labels(&bar)?;
        // Multiset spaces are labelled whole: their labels give the take-and-break facts.
        if !labels.is_empty() {
            let job = takebreak_jobs.next().expect("a take-and-break game per multiset space");
            takebreak.push(takebreak_facts(job, verification.findings.clone(), &labels));
        }
        findings.extend(verification.findings);
    }
    bar.finish();
    Ok((findings, takebreak))
}

/// The data files' bytes (summary, counterexamples, Grundy tables, pictures), and the
/// pictures' titles and names for the report.
fn generate(
    jobs: &[SuiteJob],
    findings: &[Finding],
) -> anyhow::Result<(Generated, Vec<(String, String)>)> {
    let mut generated = Generated::default();
    let mut bytes = Vec::new();
    write_summary(&mut bytes, findings)?;
    generated.add("summary.csv", std::mem::take(&mut bytes), "nimtab");
    write_counterexamples(&mut bytes, findings)?;
    generated.add("counterexamples.csv", std::mem::take(&mut bytes), "nimtab");
    for job in jobs.iter().filter(|job| job.game.is_sum()) {
        let max = job.spaces.iter().map(|s| s.1).max().unwrap_or(0);
        let (name, bytes, command) = grundy_file(&job.game, max)?;
        generated.add(&name, bytes, &command);
    }
    let mut pictures = Vec::new();
    for plot in default_plots()? {
        let grid = (plot.grid, PassState::of(plot.pass_available));
        let bytes = render_in(&plot.game, plot.ending, plot.max, grid, Format::Svg, plot.scale)?;
        let name = format!("plots/{}", plot.file);
        generated.add(&name, bytes, &plot.command("data/plots"));
        let pass = PassState::of(plot.pass_available);
        pictures.push((title_in(&plot.game, plot.ending, plot.grid, pass), name));
    }
    Ok((generated, pictures))
}

/// Writes the data files and their manifest into a staging directory beside the data
/// directory, and the report under a temporary name, then puts them all in place at
/// once: the data directory never holds files of two runs, and a failure or an
/// interrupt leaves it as it was.
fn write_all(a: &Args, generated: &Generated, report: &str) -> anyhow::Result<()> {
    let mut staged = output::StagedDir::beside(&a.data_dir)?;
    let mut manifest = Vec::new();
    for (name, content, command) in &generated.files {
        staged.add(name, Bytes(content))?;
        manifest.push(ManifestEntry::new(&format!("data/{name}"), content, command));
    }
    let mut bytes = Vec::new();
    write_manifest(&mut bytes, &manifest)?;
    staged.add("MANIFEST.csv", Bytes(&bytes))?;
    let (report, ()) = output::stage_file(&a.report, Bytes(report.as_bytes()))?;
    output::commit(vec![report], vec![staged])
}

/// The data directory as a link in the report: relative to the report's directory, so
/// the report's bytes do not depend on where it was written from (`scripts/regenerate`
/// writes both into a temporary directory and compares the report with `REPORT.md`).
fn link_from_report(report: &Path, data_dir: &Path) -> anyhow::Result<String> {
    let absolute = |path: &Path| {
        std::path::absolute(path).with_context(|| format!("{}: no absolute path", path.display()))
    };
    let report = absolute(report)?;
    let from: Vec<Component> = match report.parent() {
        Some(dir) => dir.components().filter(|c| *c != Component::CurDir).collect(),
        None => Vec::new(),
    };
    let to = absolute(data_dir)?;
    let to: Vec<Component> = to.components().filter(|c| *c != Component::CurDir).collect();
    let shared = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<String> = vec!["..".to_string(); from.len() - shared];
    parts.extend(to[shared..].iter().map(|c| c.as_os_str().to_string_lossy().into_owned()));
    Ok(if parts.is_empty() { ".".to_string() } else { parts.join("/") })
}

/// The suite's pictures, linked from the report (`data_dir` relative to the report).
fn plots_section(data_dir: &str, pictures: &[(String, String)]) -> Section {
    let mut body = String::from(
        "P-positions drawn from the DP labels (dark = P; h1 across, h2 up from the origin \
         at the bottom left). Redraw any of them with the command in `data/MANIFEST.csv`.\n\n",
    );
    for (title, name) in pictures {
        body.push_str(&format!("![{title}]({data_dir}/{name})\n\n"));
    }
    Section { title: "Pictures".to_string(), body }
}

/// The benchmark figures recorded by `scripts/bench`, if the file exists; a file that
/// exists but cannot be read as text is an error, not a silently missing section.
fn bench_section(path: &Path) -> anyhow::Result<Option<Section>> {
    if !path.exists() {
        return Ok(None);
    }
    let cannot_read = || format!("--bench {}: cannot read it as text", path.display());
    input::refuse_waiting(path, "--bench", Stdin::NotTaken)?;
    let file = std::fs::File::open(path).with_context(cannot_read)?;
    // Read one byte past the limit to know whether there is more (a device like
    // /dev/zero never ends).
    let mut bytes = Vec::new();
    file.take(MAX_BENCH_BYTES + 1).read_to_end(&mut bytes).with_context(cannot_read)?;
    if bytes.len() as u64 > MAX_BENCH_BYTES {
        anyhow::bail!(
            "--bench {}: larger than {} KiB, not a benchmark file",
            path.display(),
            MAX_BENCH_BYTES >> 10
        );
    }
    let body = String::from_utf8(bytes).ok().with_context(cannot_read)?;
    Ok(Some(Section {
        title: "Benchmarks".to_string(),
        body: format!("Recorded by `scripts/bench` in `{}`.\n\n{body}", path.display()),
    }))
}

#[cfg(test)]
mod tests {
    use super::link_from_report;
    use std::path::Path;

    #[test]
    fn data_links_are_relative_to_the_report() {
        let link = |report: &str, data: &str| link_from_report(Path::new(report), Path::new(data));
        assert_eq!(link("REPORT.md", "data").unwrap(), "data");
        assert_eq!(link("/tmp/x/REPORT.md", "/tmp/x/data").unwrap(), "data");
        assert_eq!(link("./out/REPORT.md", "data").unwrap(), "../data");
        assert_eq!(link("/a/b/REPORT.md", "/a/c/d").unwrap(), "../c/d");
        assert_eq!(link("/a/REPORT.md", "/a").unwrap(), ".");
    }
}
