//! A quotient as JSON, or as a readable summary (docs/guide/quotients.md).

use std::io::{self, Write};

use super::format::Format;
use crate::model::ending::Ending;
use crate::quotient::Quotient;

/// A quotient written out.
#[derive(Clone, Copy, Debug)]
pub enum QuotientOutput<'a> {
    /// One JSON object with the fixed top level `{"game", "max_heap", "order",
    /// "identity", "elements", "product", "p_portion", "phi", "presentation", "tame",
    /// "period"}`, one key a line (the product table one row a line, each formatted as it
    /// is written: the whole table as text would be several times the size of the
    /// quotient), ending with a newline.
    Json(&'a Quotient),
    /// A line per fact: order, P-portion, presentation, `Φ` of every heap, tameness and
    /// what the result covers.
    Summary(&'a Quotient),
}

impl Format for QuotientOutput<'_> {
    type Written = ();

    fn write_to(self, out: &mut dyn Write) -> io::Result<()> {
        match self {
            QuotientOutput::Json(q) => write_json(out, q),
            QuotientOutput::Summary(q) => write_summary(out, q),
        }
    }
}

/// `text` as a JSON string.
fn string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `[a,b,c]`.
fn list(values: impl Iterator<Item = String>) -> String {
    format!("[{}]", values.collect::<Vec<_>>().join(","))
}

fn write_json(out: &mut dyn Write, q: &Quotient) -> io::Result<()> {
    let order = q.order() as u32;
    let period = match q.period() {
        Some(p) => match q.certified_at() {
            Some(n) => format!(
                "{{\"preperiod\":{},\"period\":{},\"certified_at\":{n}}}",
                p.preperiod, p.period
            ),
            None => format!("{{\"preperiod\":{},\"period\":{}}}", p.preperiod, p.period),
        },
        None => "null".to_string(),
    };
    writeln!(out, "{{")?;
    writeln!(out, "\"game\":{},", string(q.game()))?;
    writeln!(out, "\"max_heap\":{},", q.max_heap())?;
    writeln!(out, "\"order\":{},", q.order())?;
    writeln!(out, "\"identity\":{},", q.identity())?;
    writeln!(out, "\"elements\":{},", list(q.elements().iter().map(|w| string(w))))?;
    writeln!(out, "\"product\":[")?;
    for x in 0..order {
        let separator = if x + 1 < order { "," } else { "" };
        writeln!(out, "{}{separator}", list((0..order).map(|y| q.product(x, y).to_string())))?;
    }
    writeln!(out, "],")?;
    writeln!(out, "\"p_portion\":{},", list(q.p_portion().iter().map(u32::to_string)))?;
    writeln!(out, "\"phi\":{},", list(q.phi_all().iter().map(u32::to_string)))?;
    writeln!(out, "\"presentation\":{},", string(q.presentation()))?;
    writeln!(out, "\"tame\":{},", q.tame())?;
    writeln!(out, "\"period\":{period}")?;
    writeln!(out, "}}")
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
             theorem from heaps 0..={}{}: this is the quotient of the whole game",
            p.period,
            p.preperiod,
            q.max_heap(),
            if q.certified_at().is_some() {
                ", the first heap at which its window fits"
            } else {
                ""
            }
        ),
        None => writeln!(
            out,
            "whole game    no period certified: this is the quotient of heaps up to {} only",
            q.max_heap()
        ),
    }
}
