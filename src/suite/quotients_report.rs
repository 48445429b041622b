//! The report's section on the suite's misère quotients: order, P-portion, presentation,
//! tameness, period (with its certificate, or the bound the quotient holds for) and the
//! check against the tables.

use std::fmt::Write;

use crate::export::report::Section;
use crate::suite::quotients::{QuotientFacts, QUOTIENT_CHECK_TOTAL};

/// The section.
pub fn quotient_section(facts: &[QuotientFacts]) -> Section {
    let mut body = String::new();
    let t = QUOTIENT_CHECK_TOTAL;
    let _ = writeln!(
        body,
        "The misère quotient (Plambeck and Siegel) of each game for heaps of size at most N, \
         computed heap by heap and proved (`nimtab quotient --game octal:CODE --max-heap N`; \
         the JSON in `data/quotients/`, the rows as `nimtab sweep --quotients N` writes them \
         in `data/quotients/summary.csv`). A position with heaps up to N is a misère \
         P-position exactly when the product of its heaps' classes lies in the P-portion. \
         Each quotient is then checked against the misère labels of every multiset of total \
         at most {t}, labelled by the multiset DP from the move rule alone (`--check {t}`).\n"
    );
    let header =
        format!("| game | name | N | order | P-portion | tame | period of Φ | --check {t} |");
    let _ = writeln!(body, "{header}\n|---|---|---:|---:|---|---|---|---|");
    for f in facts {
        let q = &f.quotient;
        let n = q.max_heap();
        let p: Vec<&str> =
            q.p_portion().iter().map(|&x| q.elements()[x as usize].as_str()).collect();
        let period = match q.period() {
            Some(p) => format!(
                "preperiod {}, period {}, certified from heaps 0..={n}: the whole game",
                p.preperiod, p.period
            ),
            None => format!("none certified: for heaps up to {n} only"),
        };
        let check =
            format!("{} positions, {} disagreements", f.check.positions, f.check.disagreements);
        let _ = writeln!(
            body,
            "| `{}` | {} | {n} | {} | {}: {{{}}} | {} | {period} | {check} |",
            f.game.spec(),
            f.name,
            q.order(),
            p.len(),
            p.join(", "),
            if q.tame() { "yes" } else { "no" },
        );
    }
    let _ = writeln!(body, "\nPresentations, each generator the class of one heap:\n");
    for f in facts {
        let q = &f.quotient;
        let generators: Vec<String> = q
            .generator_heaps()
            .iter()
            .filter_map(|&h| Some(format!("{} = Φ({h})", q.elements()[q.phi(h)? as usize])))
            .collect();
        let _ = writeln!(
            body,
            "- `{}`: `{}`, {}",
            f.game.spec(),
            q.presentation(),
            generators.join(", ")
        );
    }
    Section { title: "Misère quotients".to_string(), body }
}
