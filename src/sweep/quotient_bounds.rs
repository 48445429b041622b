//! The bounds of a quotient sweep (largest heap, order bound, each game's time and
//! memory) and the words of a part's space line that carry them, read back only as
//! written, so that the fingerprint of parts of other bounds differs and the merge can
//! check each row against its largest heap.

use std::time::Duration;

use crate::quotient::{MAX_ORDER, MAX_QUOTIENT_HEAP};

/// What each game of a quotient sweep is computed within.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuotientBounds {
    /// The largest heap, `N`.
    pub max_heap: u32,
    /// The order bound.
    pub max_order: usize,
    /// Each game's time, when limited.
    pub game_timeout: Option<Duration>,
    /// Each game's memory, when given (otherwise a share of the sweep's budget).
    pub game_memory: Option<u64>,
}

impl QuotientBounds {
    /// `quotients of heaps up to N, max order K`, then `, game timeout S s` and
    /// `, game memory B bytes` when those limits are given.
    pub fn describe(&self) -> String {
        let mut text =
            format!("quotients of heaps up to {}, max order {}", self.max_heap, self.max_order);
        if let Some(timeout) = self.game_timeout {
            text.push_str(&format!(", game timeout {} s", seconds_text(timeout)));
        }
        if let Some(memory) = self.game_memory {
            text.push_str(&format!(", game memory {memory} bytes"));
        }
        text
    }

    /// The bounds a space line describes, read back only as [`QuotientBounds::describe`]
    /// writes them, within the bounds a sweep accepts.
    pub fn parse(text: &str) -> Option<QuotientBounds> {
        let mut items = text.strip_prefix("quotients of heaps up to ")?.split(", ");
        let max_heap: u32 = items.next()?.parse().ok()?;
        let max_order: usize = items.next()?.strip_prefix("max order ")?.parse().ok()?;
        let mut bounds =
            QuotientBounds { max_heap, max_order, game_timeout: None, game_memory: None };
        for item in items {
            if let Some(seconds) = item.strip_prefix("game timeout ") {
                bounds.game_timeout = Some(parse_seconds(seconds.strip_suffix(" s")?)?);
            } else {
                let bytes = item.strip_prefix("game memory ")?.strip_suffix(" bytes")?;
                bounds.game_memory = Some(bytes.parse().ok()?);
            }
        }
        let valid = (1..=MAX_QUOTIENT_HEAP).contains(&max_heap)
            && (1..=MAX_ORDER).contains(&max_order)
            && bounds.game_timeout != Some(Duration::ZERO)
            && bounds.game_memory != Some(0);
        (valid && bounds.describe() == text).then_some(bounds)
    }
}

/// Seconds in decimal, exactly: `2`, `0.5`, `1.000000001`.
fn seconds_text(time: Duration) -> String {
    match time.subsec_nanos() {
        0 => time.as_secs().to_string(),
        nanos => {
            let fraction = format!("{nanos:09}");
            format!("{}.{}", time.as_secs(), fraction.trim_end_matches('0'))
        }
    }
}

/// The duration of [`seconds_text`]'s words.
fn parse_seconds(text: &str) -> Option<Duration> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    if fraction.len() > 9 || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let nanos = format!("{fraction:0<9}").parse().ok()?;
    Some(Duration::new(whole.parse().ok()?, nanos))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn space_lines_read_back_as_written_and_only_so() {
        let plain =
            QuotientBounds { max_heap: 40, max_order: 4096, game_timeout: None, game_memory: None };
        let limited = QuotientBounds {
            game_timeout: Some(Duration::from_millis(500)),
            game_memory: Some(1 << 30),
            ..plain
        };
        let long = QuotientBounds { game_timeout: Some(Duration::new(7, 1)), ..plain };
        assert_eq!(plain.describe(), "quotients of heaps up to 40, max order 4096");
        assert_eq!(
            limited.describe(),
            "quotients of heaps up to 40, max order 4096, game timeout 0.5 s, game memory \
             1073741824 bytes"
        );
        assert_eq!(
            long.describe(),
            "quotients of heaps up to 40, max order 4096, game timeout 7.000000001 s"
        );
        for bounds in [plain, limited, long] {
            assert_eq!(QuotientBounds::parse(&bounds.describe()), Some(bounds));
        }
        for bad in [
            "quotients of heaps up to 40, max order 4096, game timeout 0.50 s",
            "quotients of heaps up to 40, max order 4096, game timeout 0 s",
            "quotients of heaps up to 40, max order 4096, game memory 0 bytes",
            "quotients of heaps up to 40, max order 4096, game memory 1 bytes, game timeout 1 s",
            "quotients of heaps up to 40, max order 4096, game timeout 1s",
            "quotients of heaps up to 40, max order 0",
            "quotients of heaps up to 040, max order 4096",
            "quotients of heaps up to 40",
        ] {
            assert_eq!(QuotientBounds::parse(bad), None, "{bad}");
        }
    }
}
