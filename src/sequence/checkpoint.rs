//! Checkpoints of a sequence run: the state after `heaps` values as short text lines,
//! ending with the SHA-256 of everything before, beside a values file that only grows.
//!
//! A checkpoint names its game and rule, the format version, the values file with its
//! segments and the SHA-256 of its first bytes, the mask, the rare heaps and the
//! frequencies. Reading one back refuses (with the reason) a file of another format or
//! version, one whose digest does not match (corrupt or truncated), and one for another
//! game; the values file is checked against its digest when the run resumes.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::error::SequenceError;
use super::freq::Frequencies;
use super::period::{Certificate, Periodicity};
use super::rule::HeapRule;
use super::values::cell::Width;
use super::values::disk_store::hex;
use super::values::layout::Layout;

/// The first line of every checkpoint.
pub(super) const MAGIC: &str = "nimtab sequence checkpoint";
/// The first line of every checkpoint of a game with three-heap moves
/// (`super::three_heap_checkpoint`), named here so that each format knows the other's.
pub const THREE_HEAP_MAGIC: &str = "nimtab three-heap sequence checkpoint";
/// The format this code writes and reads.
pub const FORMAT_VERSION: u32 = 1;

/// The state a checkpoint records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    /// The game's specification (`octal:0.161`).
    pub game: String,
    /// Its removal counts.
    pub rule: HeapRule,
    /// The values file (absolute).
    pub values_path: PathBuf,
    /// Its segments; `layout.len()` values were computed.
    pub layout: Layout,
    /// SHA-256 of the values file's first `layout.byte_len()` bytes.
    pub values_sha256: String,
    /// The rare/common mask.
    pub mask: u32,
    /// The rare heaps under it, with their values.
    pub rare: Vec<(u64, u32)>,
    /// Value frequencies over heaps `1..layout.len()`.
    pub frequencies: Frequencies,
    /// A period certified from the values, if one was.
    pub period: Option<Periodicity>,
}

fn list(set: &[u32]) -> String {
    set.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
}

fn rule_line(rule: &HeapRule) -> String {
    format!(
        "vanish={} shrink={} split={} unequal={}",
        list(&rule.vanish),
        list(&rule.shrink),
        list(&rule.split),
        u8::from(rule.unequal_split)
    )
}

impl Checkpoint {
    /// The checkpoint's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut text = format!("{MAGIC}\nformat {FORMAT_VERSION}\ngame {}\n", self.game);
        text += &format!("rule {}\n", rule_line(&self.rule));
        text += &format!("heaps {}\n", self.layout.len());
        text += &format!("values {}\n", self.values_path.display());
        let segments: Vec<String> =
            self.layout.parts().iter().map(|(s, w)| format!("{s}:{}", w.bytes())).collect();
        text += &format!("segments {}\n", segments.join(","));
        text += &format!("values-sha256 {}\n", self.values_sha256);
        text += &format!("mask {}\n", self.mask);
        let rare: Vec<String> = self.rare.iter().map(|(a, g)| format!("{a}:{g}")).collect();
        text += &format!("rare {}\n", rare.join(" "));
        let counts = &self.frequencies.counts()[..self.frequencies.largest() as usize + 1];
        let counts: Vec<String> = counts.iter().map(u64::to_string).collect();
        text += &format!("frequencies {}\n", counts.join(" "));
        text += &match &self.period {
            Some(p) => format!("period {} {} {}\n", p.preperiod, p.period, p.checked_through),
            None => "period none\n".to_string(),
        };
        sealed(text)
    }

    /// The heap count a checkpoint's bytes record (its `heaps` line), without checking
    /// the rest.
    pub fn heaps_of(bytes: &[u8]) -> Option<u64> {
        let text = std::str::from_utf8(bytes).ok()?;
        text.lines().find_map(|line| line.strip_prefix("heaps "))?.parse().ok()
    }

    /// Reads a checkpoint of `game` with rule `rule` from `bytes` (the file `path`).
    ///
    /// # Errors
    /// [`SequenceError::BadCheckpoint`] with the reason: not a checkpoint, another format
    /// version, a digest that does not match (corrupt or truncated), another game, or a
    /// malformed line.
    pub fn decode(
        bytes: &[u8],
        path: &Path,
        game: &str,
        rule: &HeapRule,
    ) -> Result<Checkpoint, SequenceError> {
        let bad =
            |reason: String| SequenceError::BadCheckpoint { path: path.to_path_buf(), reason };
        let other = (THREE_HEAP_MAGIC, "a game with three-heap moves");
        let body = checked_body(bytes, (MAGIC, FORMAT_VERSION), other, game).map_err(bad)?;
        let fields = Fields::parse(body).map_err(bad)?;
        if fields.get("game").map_err(bad)? != game {
            return Err(bad(format!("it is for {}, not {game}", fields.get("game").map_err(bad)?)));
        }
        if fields.get("rule").map_err(bad)? != rule_line(rule) {
            return Err(bad(format!("its move rule differs from {game}'s")));
        }
        fields.checkpoint(game, rule).map_err(bad)
    }
}

/// `text` with its checksum line added: the SHA-256 of everything before.
pub(super) fn sealed(mut text: String) -> Vec<u8> {
    let checksum = hex(&Sha256::digest(text.as_bytes()));
    text += &format!("checksum {checksum}\n");
    text.into_bytes()
}

/// The body of a checkpoint of `game` (everything before its checksum line) once its first
/// line is the format's magic line, its second `format VERSION` of this version, and its
/// checksum matches. `other` is the magic line of the other sequence checkpoints, and
/// the games they are for, named when one is given.
///
/// # Errors
/// The reason, as `Checkpoint::decode` states it.
pub(super) fn checked_body<'b>(
    bytes: &'b [u8],
    (magic, version): (&str, u32),
    (other, other_games): (&str, &str),
    game: &str,
) -> Result<&'b str, String> {
    let text = std::str::from_utf8(bytes).map_err(|_| "it is not a nimtab checkpoint")?;
    let mut lines = text.split_inclusive('\n');
    match lines.next().and_then(|first| first.strip_suffix('\n')) {
        Some(first) if first == magic => {}
        Some(first) if first == other => {
            return Err(format!("it is a checkpoint of {other_games}, not of {game}"));
        }
        _ => return Err("it is not a nimtab checkpoint".into()),
    }
    let found = lines.next().and_then(|l| l.strip_prefix("format ")).map(str::trim_end);
    if found != Some(&version.to_string()) {
        let found = found.unwrap_or("(missing)");
        return Err(format!(
            "it has format version {found}, and this nimtab reads version {version}"
        ));
    }
    let truncated = "its checksum does not match its contents (the file is corrupt or truncated)";
    let body_end = text.rfind("checksum ").ok_or(truncated)?;
    let stated = text[body_end..].strip_prefix("checksum ").map(str::trim_end);
    if !text.ends_with('\n') || stated != Some(&hex(&Sha256::digest(&bytes[..body_end]))) {
        return Err(truncated.into());
    }
    Ok(&text[..body_end])
}

/// The `key value` lines of a checkpoint's body.
struct Fields<'t> {
    lines: Vec<(&'t str, &'t str)>,
}

impl<'t> Fields<'t> {
    fn parse(body: &'t str) -> Result<Fields<'t>, String> {
        let lines = body.lines().map(|line| line.split_once(' ').unwrap_or((line, ""))).collect();
        Ok(Fields { lines })
    }

    fn get(&self, key: &str) -> Result<&'t str, String> {
        self.lines
            .iter()
            .find(|(k, _)| *k == key)
            .map(|&(_, v)| v)
            .ok_or_else(|| format!("its line '{key}' is missing"))
    }

    fn number<T: std::str::FromStr>(&self, key: &str, text: &str) -> Result<T, String> {
        text.parse().map_err(|_| format!("its line '{key}' holds '{text}', not a number"))
    }

    fn checkpoint(&self, game: &str, rule: &HeapRule) -> Result<Checkpoint, String> {
        let heaps: u64 = self.number("heaps", self.get("heaps")?)?;
        let mut segments = Vec::new();
        for part in self.get("segments")?.split(',') {
            let (start, width) = part.split_once(':').ok_or("its segments are malformed")?;
            let width = Width::from_bytes(self.number("segments", width)?)
                .ok_or("its segments name a width other than 1, 2 or 4 bytes")?;
            segments.push((self.number("segments", start)?, width));
        }
        let layout = Layout::from_parts(segments, heaps).ok_or("its segments are malformed")?;
        let mut rare = Vec::new();
        for pair in self.get("rare")?.split_whitespace() {
            let (a, g) = pair.split_once(':').ok_or("its rare heaps are malformed")?;
            rare.push((self.number("rare", a)?, self.number("rare", g)?));
        }
        let counts = self
            .get("frequencies")?
            .split_whitespace()
            .map(|c| self.number("frequencies", c))
            .collect::<Result<Vec<u64>, String>>()?;
        let frequencies = Frequencies::from_counts(counts);
        if heaps > 0 && frequencies.heaps() != heaps - 1 {
            return Err("its frequencies do not count its heaps".into());
        }
        let values_sha256 = self.get("values-sha256")?.to_string();
        if values_sha256.len() != 64 {
            return Err("its values digest is malformed".into());
        }
        Ok(Checkpoint {
            game: game.to_string(),
            rule: rule.clone(),
            values_path: PathBuf::from(self.get("values")?),
            layout,
            values_sha256,
            mask: self.number("mask", self.get("mask")?)?,
            rare,
            frequencies,
            period: self.period(rule)?,
        })
    }

    fn period(&self, rule: &HeapRule) -> Result<Option<Periodicity>, String> {
        let text = self.get("period")?;
        if text == "none" {
            return Ok(None);
        }
        let numbers = text
            .split_whitespace()
            .map(|n| self.number("period", n))
            .collect::<Result<Vec<u64>, String>>()?;
        let certificate =
            Certificate::for_rule(rule).ok_or("it names a period no theorem covers")?;
        match numbers[..] {
            [preperiod, period, checked_through] => {
                Ok(Some(Periodicity { preperiod, period, saltus: 0, checked_through, certificate }))
            }
            _ => Err("its period line is malformed".into()),
        }
    }
}
