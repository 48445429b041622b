//! `nimtab suite` (and `nimtab` alone): the default suite, its data files and REPORT.md.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use nimtab::analysis::verify::{passes, verify};
use nimtab::export::csv::write_grundy;
use nimtab::export::manifest::{write_manifest, ManifestEntry};
use nimtab::export::plot::{render, title, Format};
use nimtab::export::report::{render_report, RunInfo, Section};
use nimtab::export::summary::{summary_table, write_counterexamples, write_summary};
use nimtab::export::takebreak_report::takebreak_section;
use nimtab::suite::{
    default_plots, default_suite, grundy_file_name, SUITE_CRITERIA, SUITE_ENDINGS, SUITE_LIMIT,
};
use nimtab::{Engine, Space};

use crate::cli::commands::suite_takebreak;
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
struct Generated {
    files: Vec<(String, Vec<u8>, String)>,
}

impl Generated {
    fn add(&mut self, name: &str, bytes: Vec<u8>, command: &str) {
        self.files.push((name.to_string(), bytes, command.to_string()));
    }
}

/// Runs the default suite.
pub fn run(a: Args, global: &Global) -> anyhow::Result<Outcome> {
    let started = Instant::now();
    let bench = bench_section(&a.bench)?;
    output::check_parent(&a.report)?;
    for sub in ["grundy", "plots"] {
        std::fs::create_dir_all(a.data_dir.join(sub))
            .with_context(|| format!("creating {}", a.data_dir.join(sub).display()))?;
    }
    let jobs = default_suite()?;
    let mut engines = Vec::new();
    for job in &jobs {
        for &(n, max) in &job.spaces {
            let space = Space::new(n, max)?;
            let engine =
                Engine::builder(&job.game, space).memory_limit(global.memory_limit).build();
            engine.ensure_fits(1, false)?;
            engines.push(engine);
        }
    }
    let passes_of = |e: &Engine| e.positions() * passes(e, SUITE_ENDINGS.len()) as u64;
    let total: u64 = engines.iter().map(passes_of).sum::<u64>() + suite_takebreak::positions()?;
    let bar = Bar::new("suite", total, global.quiet);
    let mut findings = Vec::new();
    for engine in &engines {
        bar.set_message(&format!("{} n={}", engine.game().spec(), engine.space().heaps()));
        let run = verify(engine, &SUITE_ENDINGS, &SUITE_CRITERIA, SUITE_LIMIT, &bar)?;
        findings.extend(run.findings);
    }
    bar.set_message("take-and-break games");
    let takebreak = suite_takebreak::run(&bar)?;
    findings.extend(takebreak.iter().flat_map(|f| f.findings.iter().cloned()));
    bar.finish();

    let mut generated = Generated { files: Vec::new() };
    let mut bytes = Vec::new();
    write_summary(&mut bytes, &findings)?;
    generated.add("summary.csv", std::mem::take(&mut bytes), "nimtab");
    write_counterexamples(&mut bytes, &findings)?;
    generated.add("counterexamples.csv", std::mem::take(&mut bytes), "nimtab");
    for job in &jobs {
        let max = job.spaces.iter().map(|s| s.1).max().unwrap_or(0);
        write_grundy(&mut bytes, &job.game, max)?;
        let command = format!("nimtab grundy --game {} --max {max}", job.game.spec());
        let name = format!("grundy/{}", grundy_file_name(&job.game));
        generated.add(&name, std::mem::take(&mut bytes), &command);
    }
    let mut pictures = Vec::new();
    for plot in default_plots()? {
        let bytes = render(&plot.game, plot.ending, plot.max, plot.grid, Format::Svg, plot.scale)?;
        let name = format!("plots/{}", plot.file);
        generated.add(&name, bytes, &plot.command("data/plots"));
        pictures.push((title(&plot.game, plot.ending, plot.grid), name));
    }
    suite_takebreak::create_dirs(&a.data_dir)?;
    for (name, bytes, command) in suite_takebreak::files(&takebreak)? {
        generated.add(&name, bytes, &command);
    }
    let mut manifest = Vec::new();
    for (name, content, command) in &generated.files {
        output::write_file(&a.data_dir.join(name), |w| w.write_all(content))?;
        manifest.push(ManifestEntry::new(&format!("data/{name}"), content, command));
    }
    output::write_file(&a.data_dir.join("MANIFEST.csv"), |w| write_manifest(w, &manifest))?;

    let run = RunInfo {
        command: "nimtab".to_string(),
        machine: nimtab::host::machine_description(),
        threads: rayon::current_num_threads(),
        seconds: started.elapsed().as_secs_f64(),
    };
    let mut sections = vec![plots_section(&a.data_dir, &pictures), takebreak_section(&takebreak)];
    sections.extend(bench);
    let report = render_report(&findings, &run, &sections);
    output::write_file(&a.report, |w| w.write_all(report.as_bytes()))?;

    let failed = findings.iter().filter(|f| f.theorem_failed()).count();
    output::write_to(&output::Target::Stdout, |w| {
        w.write_all(summary_table(&findings).as_bytes())?;
        writeln!(
            w,
            "\n{} comparisons; theorems: {}; wrote {}/ ({} files) and {} in {:.1} s",
            findings.len(),
            if failed == 0 { "all held".to_string() } else { format!("{failed} FAILED") },
            a.data_dir.display(),
            generated.files.len() + 1,
            a.report.display(),
            run.seconds
        )
    })?;
    Ok(if failed == 0 { Outcome::Success } else { Outcome::ClaimFailed })
}

/// The suite's pictures, linked from the report (paths relative to the report).
fn plots_section(data_dir: &Path, pictures: &[(String, String)]) -> Section {
    let mut body = String::from(
        "P-positions drawn from the DP labels (dark = P; rows h1 downwards, columns h2 \
         rightwards). Redraw any of them with the command in `data/MANIFEST.csv`.\n\n",
    );
    for (title, name) in pictures {
        body.push_str(&format!("![{title}]({}/{name})\n\n", data_dir.display()));
    }
    Section { title: "Pictures".to_string(), body }
}

/// The benchmark figures recorded by `scripts/bench`, if the file exists; a file that
/// exists but cannot be read as text is an error, not a silently missing section.
fn bench_section(path: &Path) -> anyhow::Result<Option<Section>> {
    if !path.exists() {
        return Ok(None);
    }
    let body = std::fs::read_to_string(path)
        .with_context(|| format!("--bench {}: cannot read it as text", path.display()))?;
    Ok(Some(Section {
        title: "Benchmarks".to_string(),
        body: format!("Recorded by `scripts/bench` in `{}`.\n\n{body}", path.display()),
    }))
}
