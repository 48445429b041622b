//! A quotient as JSON, with the fixed top level
//! `{"game", "max_heap", "order", "identity", "elements", "product", "p_portion", "phi",
//! "presentation", "tame", "period"}` (docs/guide/quotients.md).

use std::io::{self, Write};

use super::format::Format;
use crate::quotient::Quotient;

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

/// The quotient as one JSON object, one key a line (the product table one row a line,
/// each formatted as it is written: the whole table as text would be several times the
/// size of the quotient), ending with a newline.
#[derive(Clone, Copy, Debug)]
pub struct QuotientJson<'a>(pub &'a Quotient);

impl Format for QuotientJson<'_> {
    type Written = ();

    fn write_to(self, out: &mut dyn Write) -> io::Result<()> {
        write_json(out, self.0)
    }
}

fn write_json(out: &mut dyn Write, q: &Quotient) -> io::Result<()> {
    let order = q.order() as u32;
    let period = match q.period() {
        Some(p) => format!("{{\"preperiod\":{},\"period\":{}}}", p.preperiod, p.period),
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
