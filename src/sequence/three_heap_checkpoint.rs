//! Checkpoints of a sequence of a game with three-heap moves: its game, rule and every
//! value computed, as short text lines ending with the SHA-256 of everything before.
//!
//! Such a sequence holds at most `2^16 + 1` values (it is computed in memory), so the
//! values go in the checkpoint itself: one file, replaced whole, and nothing beside it.

use std::path::Path;

use super::checkpoint::{checked_body, sealed, MAGIC, THREE_HEAP_MAGIC};
use super::error::SequenceError;
use super::three_heaps::{ThreeHeapRule, MAX_THREE_HEAP_SEQUENCE};

/// The format this code writes and reads.
pub const THREE_HEAP_FORMAT_VERSION: u32 = 1;

/// The state a checkpoint of a game with three-heap moves records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreeHeapCheckpoint {
    /// The game's specification (`hex:0.3F`).
    pub game: String,
    /// Its moves.
    pub rule: ThreeHeapRule,
    /// `G(0..values.len())`.
    pub values: Vec<u32>,
}

fn list(set: &[u32]) -> String {
    set.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
}

fn rule_line(rule: &ThreeHeapRule) -> String {
    let pairs = &rule.pairs;
    format!(
        "vanish={} shrink={} split={} unequal={} split-three={}",
        list(&pairs.vanish),
        list(&pairs.shrink),
        list(&pairs.split),
        u8::from(pairs.unequal_split),
        list(&rule.split_three)
    )
}

impl ThreeHeapCheckpoint {
    /// The checkpoint's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut text =
            format!("{THREE_HEAP_MAGIC}\nformat {THREE_HEAP_FORMAT_VERSION}\ngame {}\n", self.game);
        text += &format!("rule {}\n", rule_line(&self.rule));
        text += &format!("heaps {}\n", self.values.len());
        let values: Vec<String> = self.values.iter().map(u32::to_string).collect();
        text += &format!("values {}\n", values.join(" "));
        sealed(text)
    }

    /// Reads a checkpoint of `game` with moves `rule` from `bytes` (the file `path`).
    ///
    /// # Errors
    /// [`SequenceError::BadCheckpoint`] with the reason: not a checkpoint (or one of a
    /// game without three-heap moves), another format version, a digest that does not
    /// match (corrupt or truncated), another game or rule, or a malformed line.
    pub fn decode(
        bytes: &[u8],
        path: &Path,
        game: &str,
        rule: &ThreeHeapRule,
    ) -> Result<ThreeHeapCheckpoint, SequenceError> {
        let bad =
            |reason: String| SequenceError::BadCheckpoint { path: path.to_path_buf(), reason };
        let other = (MAGIC, "a game without three-heap moves");
        let version = (THREE_HEAP_MAGIC, THREE_HEAP_FORMAT_VERSION);
        let body = checked_body(bytes, version, other, game).map_err(bad)?;
        let line = |key: &str| {
            body.lines()
                .find_map(|l| l.strip_prefix(key).and_then(|rest| rest.strip_prefix(' ')))
                .ok_or_else(|| bad(format!("its line '{key}' is missing")))
        };
        let found = line("game")?;
        if found != game {
            return Err(bad(format!("it is for {found}, not {game}")));
        }
        if line("rule")? != rule_line(rule) {
            return Err(bad(format!("its move rule differs from {game}'s")));
        }
        let values = parse_values(line("heaps")?, line("values")?, rule).map_err(bad)?;
        Ok(ThreeHeapCheckpoint { game: game.to_string(), rule: rule.clone(), values })
    }
}

/// The values of a checkpoint's `values` line, as many as its `heaps` line says (at least
/// one, at most a sequence's `2^16 + 1`), each at most the number of moves from its heap.
fn parse_values(heaps: &str, values: &str, rule: &ThreeHeapRule) -> Result<Vec<u32>, String> {
    let heaps: usize = heaps.parse().map_err(|_| format!("its heaps line holds '{heaps}'"))?;
    let most = MAX_THREE_HEAP_SEQUENCE as usize + 1;
    if heaps > most {
        return Err(format!("it holds {heaps} heaps, and a sequence holds at most {most}"));
    }
    let values = values
        .split_whitespace()
        .map(|v| v.parse::<u32>().map_err(|_| format!("its values line holds '{v}'")))
        .collect::<Result<Vec<u32>, String>>()?;
    if values.len() != heaps || heaps == 0 {
        return Err(format!("it holds {} values for {heaps} heaps", values.len()));
    }
    if let Some((n, &v)) =
        values.iter().enumerate().find(|&(n, &v)| u64::from(v) > rule.move_count(n as u64))
    {
        return Err(format!("its G({n}) = {v} exceeds the number of moves from heap {n}"));
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sequence::three_heaps::tests::rule_0_3f;

    fn rule() -> ThreeHeapRule {
        rule_0_3f()
    }

    fn decoded(bytes: &[u8]) -> Result<ThreeHeapCheckpoint, String> {
        ThreeHeapCheckpoint::decode(bytes, Path::new("c"), "hex:0.3F", &rule())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn a_checkpoint_reads_back_as_written() {
        let values = rule().values(200);
        let checkpoint = ThreeHeapCheckpoint { game: "hex:0.3F".into(), rule: rule(), values };
        assert_eq!(decoded(&checkpoint.encode()), Ok(checkpoint));
    }

    #[test]
    fn a_changed_or_cut_or_foreign_checkpoint_is_refused_with_its_reason() {
        let values = rule().values(50);
        let checkpoint = ThreeHeapCheckpoint { game: "hex:0.3F".into(), rule: rule(), values };
        let bytes = checkpoint.encode();
        let changed =
            String::from_utf8(bytes.clone()).unwrap().replacen("values 0 1", "values 0 2", 1);
        assert!(decoded(changed.as_bytes()).unwrap_err().contains("corrupt or truncated"));
        assert!(decoded(&bytes[..bytes.len() - 5]).unwrap_err().contains("corrupt or truncated"));
        let other = ThreeHeapCheckpoint { game: "hex:0.3E".into(), ..checkpoint.clone() };
        assert!(decoded(&other.encode()).unwrap_err().contains("it is for hex:0.3E, not hex:0.3F"));
        let moves = ThreeHeapRule { split_three: vec![3], ..rule() };
        let other = ThreeHeapCheckpoint { rule: moves, ..checkpoint.clone() };
        assert!(decoded(&other.encode()).unwrap_err().contains("move rule differs"));
        let octal = b"nimtab sequence checkpoint\nformat 1\n";
        assert!(decoded(octal).unwrap_err().contains("a game without three-heap moves"));
        assert!(decoded(b"hello\n").unwrap_err().contains("not a nimtab checkpoint"));
    }

    #[test]
    fn a_value_larger_than_its_heap_has_moves_is_refused_though_its_checksum_agrees() {
        for (heap, value) in [(7, 1000), (0, 1), (2, 3)] {
            let mut values = rule().values(20);
            values[heap] = value;
            let checkpoint = ThreeHeapCheckpoint { game: "hex:0.3F".into(), rule: rule(), values };
            let reason = decoded(&checkpoint.encode()).unwrap_err();
            let says = format!("G({heap}) = {value} exceeds the number of moves from heap {heap}");
            assert!(reason.contains(&says), "{reason}");
        }
        // Heap 2 has two moves (take it whole; leave one token): G(2) = 2 is possible.
        let mut values = rule().values(20);
        values[2] = 2;
        let checkpoint = ThreeHeapCheckpoint { game: "hex:0.3F".into(), rule: rule(), values };
        assert!(decoded(&checkpoint.encode()).is_ok());
        let values = vec![0; MAX_THREE_HEAP_SEQUENCE as usize + 2];
        let checkpoint = ThreeHeapCheckpoint { game: "hex:0.3F".into(), rule: rule(), values };
        let reason = decoded(&checkpoint.encode()).unwrap_err();
        assert!(reason.contains("it holds 65538 heaps, and a sequence holds at most 65537"));
    }
}
