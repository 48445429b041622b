//! A quotient as a readable summary: order, P-portion, presentation, `Φ` of every heap,
//! tameness and what the result covers.

use std::io::{self, Write};

use super::format::Format;
use crate::model::ending::Ending;
use crate::quotient::Quotient;

/// The quotient's summary, a line per fact.
#[derive(Clone, Copy, Debug)]
pub struct QuotientSummary<'a>(pub &'a Quotient);

impl Format for QuotientSummary<'_> {
    type Written = ();

    fn write_to(self, out: &mut dyn Write) -> io::Result<()> {
        write_summary(out, self.0)
    }
}

fn write_summary(out: &mut dyn Write, q: &Quotient) -> io::Result<()> {
    let play = match q.play() {
        Ending::Misere => "misère",
        Ending::Normal => "normal",
        // Refused before any work (`QuotientError::SjEnding`).
        Ending::Sj => "sj",
    };
    let name = |x: u32| q.elements()[x as usize].clone();
    writeln!(out, "game          {}", q.game())?;
    writeln!(out, "play          {play}, heaps of size at most {}", q.max_heap())?;
    writeln!(out, "order         {}", q.order())?;
    let p: Vec<String> = q.p_portion().into_iter().map(name).collect();
    writeln!(out, "P-portion     {} elements: {{{}}}", p.len(), p.join(", "))?;
    writeln!(out, "presentation  {}", q.presentation())?;
    let generators: Vec<String> = q
        .generator_heaps()
        .iter()
        .map(|&h| format!("{} = phi({h})", name(q.phi(h).unwrap_or(0))))
        .collect();
    if !generators.is_empty() {
        writeln!(out, "generators    {}", generators.join(", "))?;
    }
    writeln!(out, "tame          {}", if q.tame() { "yes" } else { "no" })?;
    let phi: Vec<String> = (0..=q.max_heap()).map(|h| name(q.phi(h).unwrap_or(0))).collect();
    writeln!(out, "phi(0..={})    {}", q.max_heap(), phi.join(" "))?;
    match q.period() {
        Some(p) => writeln!(
            out,
            "whole game    phi(n + {}) = phi(n) for every n >= {}, certified by the periodicity \
             theorem from heaps 0..={}: this is the quotient of the whole game",
            p.period,
            p.preperiod,
            q.max_heap()
        ),
        None => writeln!(
            out,
            "whole game    no period certified: this is the quotient of heaps up to {} only",
            q.max_heap()
        ),
    }
}
