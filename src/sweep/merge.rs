//! The merge of a sharded sweep's parts: every part checked against the sweep's own list
//! of jobs (its games in order, and per game every space, ending and criterion or claim)
//! and against its digest, then the rows written in shard order. The result is the bytes
//! of the unsharded run, or a refusal naming the part and the line.

use std::io::{self, BufRead, Write};

use super::error::Result;
use super::part_format::{cannot_read, read_part_header, Fingerprint, PartHeader};
use super::part_rows::{jobs, part_line, Jobs, PartRows};
use super::SweepError;
use crate::export::sweep_part::Params;

/// Where one part's bytes come from: opened once per reading of the parts, each time
/// from its first byte.
pub trait PartSource {
    /// The part's name in messages.
    fn name(&self) -> &str;
    /// The part's bytes from the start.
    ///
    /// # Errors
    /// The I/O error of opening it.
    fn open(&self) -> io::Result<Box<dyn BufRead + '_>>;
}

impl PartSource for (String, Vec<u8>) {
    fn name(&self) -> &str {
        &self.0
    }

    fn open(&self) -> io::Result<Box<dyn BufRead + '_>> {
        Ok(Box::new(&self.1[..]))
    }
}

/// Merges parts given as `(name, bytes)` in any order into the bytes the unsharded sweep
/// writes.
///
/// # Errors
/// As [`merge_into`].
pub fn merge(parts: &[(String, Vec<u8>)]) -> Result<Vec<u8>> {
    let sources: Vec<&dyn PartSource> = parts.iter().map(|p| p as &dyn PartSource).collect();
    let mut out = Vec::new();
    merge_into(&sources, &mut out)?;
    Ok(out)
}

/// Merges the parts, in any order, into `out`: first every part is read and checked in
/// full, then read again and written, so nothing reaches `out` from parts that are not
/// all sound.
///
/// # Errors
/// [`SweepError::NoParts`]; [`SweepError::NotAPart`] and [`SweepError::PartLine`]
/// (naming the part and the line) for a part whose head, rows or last line are not what
/// the sweep writes; [`SweepError::ForeignPart`], [`SweepError::PartsDisagree`],
/// [`SweepError::DuplicatePart`], [`SweepError::MissingPart`];
/// [`SweepError::FingerprintMismatch`] when the games of the rows are not the sweep's;
/// [`SweepError::CannotReadPart`]; the I/O error of `out`.
pub fn merge_into(sources: &[&dyn PartSource], out: &mut dyn Write) -> Result<()> {
    let heads = sources
        .iter()
        .map(|source| {
            let mut input = source.open().map_err(|e| cannot_read(source.name(), &e))?;
            read_part_header(source.name(), &mut input)
        })
        .collect::<std::result::Result<Vec<PartHeader>, SweepError>>()?;
    let plan = Plan::new(&heads)?;
    plan.read_parts(sources, &mut io::sink())?;
    writeln!(out, "{}", plan.jobs.header())?;
    plan.read_parts(sources, out)
}

/// The parts in shard order, the jobs of one game and what the rows must add up to.
struct Plan<'a> {
    heads: &'a [PartHeader],
    /// Indices of `heads` (and of the sources) in shard order.
    order: Vec<usize>,
    jobs: Jobs,
}

impl<'a> Plan<'a> {
    /// Checks that the heads belong to one sweep, cover its shards once each, and
    /// announce the games and rows the sweep's parameters give.
    fn new(heads: &'a [PartHeader]) -> std::result::Result<Plan<'a>, SweepError> {
        let first = heads.first().ok_or(SweepError::NoParts)?;
        for head in heads {
            if head.fingerprint != first.fingerprint {
                return Err(SweepError::ForeignPart {
                    part: head.name.clone(),
                    shard: head.shard.to_string(),
                    sweep: head.fingerprint.clone(),
                    expected: first.fingerprint.clone(),
                    first: first.name.clone(),
                });
            }
        }
        agree_on(heads, "parts", |head| head.shard.count())?;
        agree_on(heads, "games", |head| head.total_games)?;
        for head in heads {
            if let Some(line) = differing_param(&head.params, &first.params) {
                let reason = format!("it differs from line {line} of {}", first.name);
                return Err(part_line(head, line, reason));
            }
        }
        let jobs = jobs(&first.params).map_err(|(line, reason)| part_line(first, line, reason))?;
        let mut order: Vec<usize> = (0..heads.len()).collect();
        order.sort_by_key(|&i| heads[i].shard.index());
        let sorted: Vec<&PartHeader> = order.iter().map(|&i| &heads[i]).collect();
        for pair in sorted.windows(2) {
            if pair[0].shard == pair[1].shard {
                return Err(SweepError::DuplicatePart {
                    shard: pair[0].shard.to_string(),
                    first: pair[0].name.clone(),
                    second: pair[1].name.clone(),
                });
            }
        }
        let count = first.shard.count();
        if sorted.len() != count {
            let missing = sorted.iter().zip(1..).find(|(h, i)| h.shard.index() != *i);
            let index = missing.map_or(sorted.len() + 1, |(_, i)| i);
            return Err(SweepError::MissingPart {
                shard: format!("{index}/{count}"),
                sweep: first.fingerprint.clone(),
            });
        }
        for head in &sorted {
            check_announced(head, jobs.per_game() as u64)?;
        }
        Ok(Plan { heads, order, jobs })
    }

    /// Reads every part in shard order, checks each row against its job and each part's
    /// last line against its rows, writes the rows to `out`, and checks the games of the
    /// rows against the sweep's fingerprint.
    fn read_parts(&self, sources: &[&dyn PartSource], out: &mut dyn Write) -> Result<()> {
        let first = &self.heads[0];
        let mut fingerprint = Fingerprint::new(&first.params);
        for &i in &self.order {
            let (head, source) = (&self.heads[i], sources[i]);
            let mut input = source.open().map_err(|e| cannot_read(&head.name, &e))?;
            let again = read_part_header(&head.name, &mut input)?;
            if again.fingerprint != head.fingerprint || again.shard != head.shard {
                let reason = "the part changed while it was being merged".to_string();
                return Err(part_line(head, 1, reason));
            }
            PartRows::new(head, &self.jobs).check(&mut input, &mut fingerprint, out)?;
        }
        let found = fingerprint.finish();
        if found != first.fingerprint {
            return Err(SweepError::FingerprintMismatch {
                sweep: first.fingerprint.clone(),
                found,
                parts: self.order.len(),
            });
        }
        Ok(())
    }
}

/// Refuses parts of one sweep that disagree on one of its figures (`what`: its `parts` or
/// its `games`), naming the first part whose figure is not the one most parts give (the
/// first part's, between as many), with both figures.
fn agree_on(
    heads: &[PartHeader],
    what: &str,
    figure: impl Fn(&PartHeader) -> usize,
) -> std::result::Result<(), SweepError> {
    let figures: Vec<usize> = heads.iter().map(&figure).collect();
    let count = |f: usize| figures.iter().filter(|&&g| g == f).count();
    // `max_by_key` keeps the last of equals: reversed, the first part's wins a tie.
    let Some(&most) = figures.iter().rev().max_by_key(|&&f| count(f)) else { return Ok(()) };
    let Some(odd) = heads.iter().find(|head| figure(head) != most) else { return Ok(()) };
    let agreeing: Vec<&PartHeader> = heads.iter().filter(|head| figure(head) == most).collect();
    let others = if heads.len() > 2 && agreeing.len() == heads.len() - 1 {
        format!("the other parts say {most}")
    } else {
        format!("{} says {most}", agreeing[0].name)
    };
    Err(SweepError::PartsDisagree {
        part: odd.name.clone(),
        shard: odd.shard.to_string(),
        said: format!("{} {what}", figure(odd)),
        others,
    })
}

/// The line (3, 4 or 5) where two parts' parameters differ.
fn differing_param(a: &Params, b: &Params) -> Option<u64> {
    if a.space != b.space {
        Some(3)
    } else if a.endings != b.endings {
        Some(4)
    } else if a.test != b.test {
        Some(5)
    } else {
        None
    }
}

/// Checks that a head announces the games its shard has in a sweep of its size, and
/// the rows those games have.
fn check_announced(head: &PartHeader, per_game: u64) -> std::result::Result<(), SweepError> {
    let games = head.shard.games(head.total_games);
    if head.games != games {
        let reason = format!(
            "it announces games {}..{}, but part {} of a sweep of {} games holds games {}..{}",
            head.games.start, head.games.end, head.shard, head.total_games, games.start, games.end
        );
        return Err(part_line(head, 1, reason));
    }
    let rows = games.len() as u64 * per_game;
    if head.rows != rows {
        let reason = format!(
            "it announces {} rows, but its {} games have {rows} ({per_game} each)",
            head.rows,
            games.len()
        );
        return Err(part_line(head, 1, reason));
    }
    Ok(())
}
