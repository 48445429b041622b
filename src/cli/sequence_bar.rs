//! The progress bar of a long Grundy sequence: heaps, heaps per second, the largest value,
//! the rare heaps and the time left; on stderr, only on a terminal, only without
//! `--quiet`, and only once the run has gone on for a second.

use std::io::{self, IsTerminal};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use nimtab::sequence::Status;

/// A bar counting heaps.
pub struct SequenceBar {
    bar: ProgressBar,
    game: String,
    started: Instant,
    can_show: bool,
    shown: bool,
}

impl SequenceBar {
    /// A bar for `game`'s heaps up to `target`, starting at `done`.
    pub fn new(game: &str, done: u64, target: u64, quiet: bool) -> SequenceBar {
        let bar = ProgressBar::with_draw_target(Some(target), ProgressDrawTarget::hidden());
        let template = "{msg} [{bar:24}] {percent:>3}% {human_pos}/{human_len} heaps, \
                        {rate}, eta {eta}";
        // Whole heaps per second, grouped by thousands: indicatif's `{per_sec}` shows
        // four decimals of a rate in the millions.
        let rate = |state: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{}/s", grouped(state.per_sec().round() as u64));
        };
        let style = ProgressStyle::with_template(template)
            .expect("valid template")
            .with_key("rate", rate)
            .progress_chars("=> ");
        bar.set_style(style);
        bar.set_position(done);
        bar.reset_eta();
        bar.set_message(game.to_string());
        SequenceBar {
            bar,
            game: game.to_string(),
            started: Instant::now(),
            can_show: !quiet && io::stderr().is_terminal(),
            shown: false,
        }
    }

    /// Moves the bar to `status`.
    pub fn update(&mut self, status: &Status) {
        self.bar.set_position(status.heaps);
        let rare = status.rare_heaps.map(|r| format!(", {r} rare heaps")).unwrap_or_default();
        self.bar.set_message(format!("{}: largest value {}{rare}", self.game, status.largest));
        if self.can_show && !self.shown && self.started.elapsed() > Duration::from_secs(1) {
            self.shown = true;
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }

    /// Hides the bar for good.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// `n` with its digits grouped by thousands: `982,405`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::grouped;

    #[test]
    fn rates_are_whole_numbers_grouped_by_thousands() {
        let cases =
            [(0, "0"), (999, "999"), (982_405, "982,405"), (1_234_567_890, "1,234,567,890")];
        for (rate, shown) in cases {
            assert_eq!(grouped(rate), shown);
        }
    }
}
