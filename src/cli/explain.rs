//! Error messages in the command line's words: library errors carry values, and here the
//! values the user gave through a flag are named by that flag.

use nimtab::analysis::claim::ClaimError;
use nimtab::export::plot::{PlotError, MAX_IMAGE_SIDE, MAX_PLOT_SIZE};
use nimtab::host::MemoryBudget;
use nimtab::sequence::SequenceError;
use nimtab::sweep::SweepError;
use nimtab::{EngineError, Error, ModelError};

/// A claim that does not parse or type-check, with the display that shows where.
#[derive(Debug)]
pub struct ExpressionError {
    /// The flag that gave the expression.
    pub flag: &'static str,
    /// The 1-based column (in characters) of the error.
    pub column: usize,
    /// What is wrong.
    pub message: String,
    /// The expression and a caret under the column, on two lines.
    pub caret: String,
}

impl std::fmt::Display for ExpressionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}, column {}: {}", self.flag, self.column, self.message)
    }
}

impl std::error::Error for ExpressionError {}

/// The display to print under an error's line, if it has one (an expression's caret).
pub fn display(err: &anyhow::Error) -> Option<String> {
    err.chain().find_map(|c| c.downcast_ref::<ExpressionError>()).map(|e| e.caret.clone())
}

/// The one line of a usage error clap found: its first paragraph (the message, and the
/// missing arguments or possible values it lists on the next lines), joined, then its
/// tips, after semicolons.
pub fn usage_error(err: &clap::Error) -> String {
    let text = err.render().to_string();
    let mut paragraphs = text.split("\n\n");
    let first = paragraphs.next().unwrap_or("");
    let words: Vec<&str> = first.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    if words.is_empty() {
        return "error: bad arguments".to_string();
    }
    // clap's tips ("a similar argument exists: '--rules'") follow on the same line.
    let tips = paragraphs.flat_map(str::lines).map(str::trim).filter(|l| l.starts_with("tip:"));
    std::iter::once(words.join(" ")).chain(tips.map(str::to_string)).collect::<Vec<_>>().join("; ")
}

/// What to do about threads the system would not start.
pub const THREADS_ADVICE: &str = "try --threads 1 or a larger memory limit";

/// The memory budget the command line ran with, for the refusal of a space too large.
static BUDGET: std::sync::OnceLock<MemoryBudget> = std::sync::OnceLock::new();

/// Records the memory budget, so a refusal can name what bounds it.
pub fn set_budget(budget: MemoryBudget) {
    let _ = BUDGET.set(budget);
}

/// The whole error chain on one line (`context: cause`), with the library's error in the
/// command line's words.
pub fn render(err: &anyhow::Error) -> String {
    let mut parts = Vec::new();
    for cause in err.chain() {
        if let Some(words) = library_in_flag_words(cause) {
            parts.push(words);
            break;
        }
        let text = cause.to_string();
        // An error that shows its source in its own text (`{action} {path}: {source}`)
        // still names it as its source: said once.
        if !parts.last().is_some_and(|last: &String| last.ends_with(&format!(": {text}"))) {
            parts.push(text);
        }
    }
    parts.join(": ")
}

/// An error of one of the library's layers in the command line's words, the engine's
/// errors a layer wraps included; `None` for an error of no layer.
fn library_in_flag_words(cause: &(dyn std::error::Error + 'static)) -> Option<String> {
    if let Some(e) = cause.downcast_ref::<Error>() {
        return Some(in_flag_words(e));
    }
    if let Some(e) = cause.downcast_ref::<EngineError>() {
        return Some(engine_in_flag_words(e));
    }
    if let Some(e) = cause.downcast_ref::<ModelError>() {
        return Some(model_in_flag_words(e));
    }
    match cause.downcast_ref::<SequenceError>() {
        Some(e @ SequenceError::ThreadNotStarted(_)) => {
            return Some(format!("{e}; {THREADS_ADVICE}"))
        }
        Some(SequenceError::HeapTooLarge { max, limit }) => {
            return Some(format!(
                "--max {max} is above the largest heap size of a sequence, {limit} (2^40)"
            ))
        }
        _ => {}
    }
    if let Some(e) = cause.downcast_ref::<ClaimError>() {
        return Some(match e {
            ClaimError::Space(e) => in_flag_words(e),
            ClaimError::Eval(_) => e.to_string(),
        });
    }
    if let Some(e) = cause.downcast_ref::<PlotError>() {
        return Some(plot_in_flag_words(e));
    }
    cause.downcast_ref::<SweepError>().map(sweep_in_flag_words)
}

/// A library error as the command line says it: the flag that carried a bad value named.
pub fn in_flag_words(e: &Error) -> String {
    match e {
        Error::Model(e) => model_in_flag_words(e),
        Error::Engine(e) => engine_in_flag_words(e),
        other => other.to_string(),
    }
}

fn model_in_flag_words(e: &ModelError) -> String {
    match e {
        ModelError::NoHeaps => "--heaps must be at least 1, got 0".to_string(),
        ModelError::TooManyHeaps { heaps, limit } => {
            format!("--heaps {heaps} is above the limit of {limit}")
        }
        ModelError::HeapTooLarge { max, limit } => {
            format!("--max {max} is above the largest heap size, {limit}")
        }
        ModelError::Sequence(e @ SequenceError::ThreadNotStarted(_)) => {
            format!("{e}; {THREADS_ADVICE}")
        }
        ModelError::TotalAboveLimit { total, limit } => format!(
            "--total {total} is above the largest total, {limit}: the multisets of a larger \
             total cannot be counted in 64 bits"
        ),
        other => other.to_string(),
    }
}

fn engine_in_flag_words(e: &EngineError) -> String {
    match e {
        EngineError::Model(e) => model_in_flag_words(e),
        EngineError::TooLarge { canonical_would_help, what, .. } => {
            let hint = if *canonical_would_help { ", or use --canonical" } else { "" };
            // `grundy` and `period` take no --heaps (`commands/grundy.rs` names the values).
            let lower =
                if what.contains("Grundy values of heaps") { "--max" } else { "--max or --heaps" };
            format!("{e}{}; lower {lower}{hint}", bound_of(e))
        }
        EngineError::SplitsHeaps { spec, parts } => format!(
            "{spec} can split a heap {parts}, so tuples of a fixed number of heaps do not hold \
             its moves; solve, verify, check, info and sweep take --total T (every multiset of \
             heaps of total at most T) instead of --heaps and --max"
        ),
        EngineError::MultisetsTooLarge { .. } => format!("{e}; lower --total"),
        // A multiset space names itself by its total (`MultisetEngine::describe`).
        EngineError::OutOfMemory { what, .. } if what.contains("every multiset") => {
            format!("{e}; lower --total")
        }
        EngineError::OutOfMemory { .. } => format!("{e}; lower --max or --heaps"),
        EngineError::ThreadsNotStarted { .. } => format!("{e}; {THREADS_ADVICE}"),
        other => other.to_string(),
    }
}

/// What bounds the memory of a refusal, if it is the command line's budget.
fn bound_of(e: &EngineError) -> String {
    match (e, BUDGET.get()) {
        (EngineError::TooLarge { limit_bytes, .. }, Some(b)) if b.bytes == *limit_bytes => {
            format!(", bound by {}", b.source)
        }
        _ => String::new(),
    }
}

/// A refusal to label the space of a position given as heap sizes (`moves`, `play`): the
/// heaps set the space, so the advice is smaller heaps rather than flags those commands
/// do not take.
pub fn for_position(e: Error) -> anyhow::Error {
    let words = match &e {
        Error::Model(ModelError::HeapTooLarge { max, limit }) => {
            format!("heap {max} is above the largest heap size, {limit}")
        }
        Error::Engine(too_large @ EngineError::TooLarge { .. }) => {
            format!("{too_large}{}; choose a position of smaller heaps", bound_of(too_large))
        }
        Error::Engine(refused @ EngineError::OutOfMemory { .. }) => {
            format!("{refused}; choose a position of smaller heaps")
        }
        _ => return e.into(),
    };
    anyhow::anyhow!(words)
}

fn sweep_in_flag_words(e: &SweepError) -> String {
    match e {
        SweepError::Space(e) => in_flag_words(e),
        SweepError::FamilyTooLarge { family, count, limit, forced } => {
            let advice = if *forced { " even with --force" } else { "; use --force to run it" };
            format!("the family {family} has {count} games, above the limit of {limit}{advice}")
        }
        other => other.to_string(),
    }
}

fn plot_in_flag_words(e: &PlotError) -> String {
    match e {
        PlotError::MaxTooLarge { max } => {
            format!("--max {max} is too large for a picture (limit {MAX_PLOT_SIZE})")
        }
        PlotError::SliceAboveMax { slice, max } => {
            format!("--slice h3={slice} is above --max {max}")
        }
        PlotError::ZeroScale => "--scale must be at least 1".to_string(),
        PlotError::TooWide { scale, max } => {
            format!(
                "--scale {scale} with --max {max} makes an image over {MAX_IMAGE_SIDE} pixels wide"
            )
        }
        PlotError::Space(e) => in_flag_words(e),
        PlotError::Encoding(_) => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_layers_error_is_worded_in_flags_whichever_way_it_comes_up() {
        let no_heaps = || ModelError::NoHeaps;
        let routes: Vec<anyhow::Error> = vec![
            no_heaps().into(),
            EngineError::from(no_heaps()).into(),
            Error::from(no_heaps()).into(),
            Error::from(EngineError::from(no_heaps())).into(),
            SweepError::from(no_heaps()).into(),
            PlotError::Space(no_heaps().into()).into(),
            ClaimError::Space(no_heaps().into()).into(),
            anyhow::Error::new(EngineError::from(no_heaps())).context("the space"),
        ];
        for route in &routes {
            let line = render(route);
            assert!(line.ends_with("--heaps must be at least 1, got 0"), "{line}");
        }
        let too_large = || EngineError::TooLarge {
            what: "nim, 9 heaps, max 99".to_string(),
            need_bytes: 1 << 40,
            limit_bytes: 1 << 30,
            canonical_would_help: true,
        };
        for route in [anyhow::Error::new(too_large()), Error::from(too_large()).into()] {
            let line = render(&route);
            assert!(line.ends_with("; lower --max or --heaps, or use --canonical"), "{line}");
        }
        let line = render(&for_position(too_large().into()));
        assert!(line.starts_with("space too large: nim, 9 heaps, max 99 needs"), "{line}");
        assert!(line.ends_with("; choose a position of smaller heaps"), "{line}");
        let beyond = ModelError::HeapTooLarge { max: 5_000_000, limit: 4_194_303 };
        let line = render(&for_position(beyond.into()));
        assert_eq!(line, "heap 5000000 is above the largest heap size, 4194303");
        let line = render(&for_position(no_heaps().into()));
        assert_eq!(line, "--heaps must be at least 1, got 0");
    }
}
