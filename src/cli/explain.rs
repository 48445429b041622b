//! Error messages in the command line's words: library errors carry values, and here the
//! values the user gave through a flag are named by that flag.

use nimtab::export::plot::{PlotError, MAX_IMAGE_SIDE, MAX_PLOT_SIZE};
use nimtab::Error;

/// The whole error chain on one line (`context: cause`), with the library's error in the
/// command line's words.
pub fn render(err: &anyhow::Error) -> String {
    let mut parts = Vec::new();
    for cause in err.chain() {
        if let Some(e) = cause.downcast_ref::<Error>() {
            parts.push(in_flag_words(e));
            break;
        }
        parts.push(cause.to_string());
    }
    parts.join(": ")
}

/// A library error as the command line says it: the flag that carried a bad value named.
pub fn in_flag_words(e: &Error) -> String {
    match e {
        Error::NoHeaps => "--heaps must be at least 1, got 0".to_string(),
        Error::TooManyHeaps { heaps, limit } => {
            format!("--heaps {heaps} is above the limit of {limit}")
        }
        Error::HeapTooLarge { max, limit } => {
            format!("--max {max} is above the largest heap size, {limit}")
        }
        Error::TooLarge { canonical_would_help, .. } => {
            let hint = if *canonical_would_help { ", or use --canonical" } else { "" };
            format!("{e}; lower --max or --heaps{hint}")
        }
        Error::SplitsHeaps { spec } => format!(
            "{spec} can split a heap in two, so tuples of a fixed number of heaps do not hold \
             its moves; use --total T (every multiset of heaps of total at most T) instead of \
             --heaps and --max"
        ),
        Error::TotalAboveLimit { total, limit } => format!(
            "--total {total} is above the largest total, {limit}: the multisets of a larger \
             total cannot be counted in 64 bits"
        ),
        Error::MultisetsTooLarge { .. } => format!("{e}; lower --total"),
        Error::Plot(plot) => plot_in_flag_words(plot),
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
        PlotError::Encoding(_) => e.to_string(),
    }
}
