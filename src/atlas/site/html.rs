//! The pieces every page of the site shares: escaping, file names, the page's head and foot.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::super::entry::{AtlasSettings, Entry};

/// Every entry of the atlas by its code.
pub(super) type Entries<'a> = BTreeMap<&'a str, &'a Entry>;

/// `text` with the five characters that HTML gives meaning to written as references, so
/// that it reads as text inside an element or an attribute value.
pub(super) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// The name a code gives a file or an anchor: its letters, digits, `.`, `-` and `_` as
/// they are, anything else (`/`, spaces) as `~` and its code point in hex, so that a name
/// never leaves its folder and two codes never share one.
pub(super) fn file_stem(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    for c in code.chars() {
        if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
            out.push(c);
        } else {
            let _ = write!(out, "~{:x}~", u32::from(c));
        }
    }
    out
}

/// The page of the class whose standard form is `code`, from the site's root.
pub(super) fn class_path(code: &str) -> String {
    format!("class/{}.html", file_stem(code))
}

/// The anchor of a member's row on its class page.
pub(super) fn member_anchor(code: &str) -> String {
    format!("code-{}", file_stem(code))
}

/// A heap count as the atlas's flags take it: `4096 (2^12)` for a power of two.
pub(super) fn heaps(n: u64) -> String {
    if n.is_power_of_two() && n >= 16 {
        format!("{n} (2^{})", n.trailing_zeros())
    } else {
        n.to_string()
    }
}

/// The start of a page: the head (title, the style sheet at `root`, the site's folder
/// relative to the page) and the opening of the body.
pub(super) fn head(out: &mut String, title: &str, root: &str) {
    let title = escape(title);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}</title>\n<link rel=\"icon\" href=\"data:,\">\n\
         <link rel=\"stylesheet\" href=\"{root}site.css\">\n</head>\n<body>\n"
    );
}

/// The end of a page: the settings the atlas was computed under, and the script when the
/// page has one.
pub(super) fn foot(out: &mut String, settings: &AtlasSettings, script: Option<&str>) {
    let _ = writeln!(
        out,
        "<footer><p>Written by <code>nimtab atlas</code>: budget {}, dense budget {}, \
         misère quotients to heap {} and order {}.</p></footer>",
        heaps(settings.budget),
        heaps(settings.dense_budget),
        settings.quotient_heap,
        settings.quotient_order
    );
    if let Some(src) = script {
        let _ = writeln!(out, "<script src=\"{src}\"></script>");
    }
    out.push_str("</body>\n</html>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_characters_are_escaped_and_the_rest_kept() {
        assert_eq!(
            escape("<a, b | a^2 = 1> & \"x\" 'y' misère"),
            "&lt;a, b | a^2 = 1&gt; &amp; &quot;x&quot; &#39;y&#39; misère"
        );
    }

    #[test]
    fn a_file_name_keeps_a_code_and_never_leaves_its_folder() {
        assert_eq!(class_path("0.161"), "class/0.161.html");
        assert_eq!(file_stem("../x y"), "..~2f~x~20~y");
        assert_eq!(member_anchor("4.0"), "code-4.0");
    }

    #[test]
    fn powers_of_two_are_named() {
        assert_eq!(heaps(4096), "4096 (2^12)");
        assert_eq!(heaps(255), "255");
    }
}
