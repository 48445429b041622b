//! The progress bar: on stderr, only on a terminal, only without `--quiet`, and only once
//! the work has run for a second.

use std::io::{self, IsTerminal};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A progress bar counting positions (or games, for a sweep).
pub struct Bar {
    bar: ProgressBar,
    started: Instant,
    can_show: bool,
    shown: AtomicBool,
}

impl Bar {
    /// A bar for `total` positions, titled `what`.
    pub fn new(what: &str, total: u64, quiet: bool) -> Bar {
        Bar::counting(what, total, "positions", quiet)
    }

    /// A bar for `total` things named `unit` (`positions`, `games`), titled `what`.
    pub fn counting(what: &str, total: u64, unit: &str, quiet: bool) -> Bar {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
        let template = format!(
            "{{msg}} [{{bar:30}}] {{percent:>3}}% {{human_pos}}/{{human_len}} {unit}, eta {{eta}}"
        );
        let style =
            ProgressStyle::with_template(&template).expect("valid template").progress_chars("=> ");
        bar.set_style(style);
        bar.set_message(what.to_string());
        Bar {
            bar,
            started: Instant::now(),
            can_show: !quiet && io::stderr().is_terminal(),
            shown: false.into(),
        }
    }

    /// Sets the title for the next stretch of work.
    pub fn set_message(&self, what: &str) {
        self.bar.set_message(what.to_string());
    }

    /// Hides the bar for good.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl nimtab::Progress for Bar {
    fn advance(&self, positions: u64) {
        self.bar.inc(positions);
        if self.can_show
            && !self.shown.load(Ordering::Relaxed)
            && self.started.elapsed() > Duration::from_secs(1)
        {
            self.shown.store(true, Ordering::Relaxed);
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }
}
