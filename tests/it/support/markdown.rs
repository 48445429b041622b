//! Reading the documentation's markdown: fenced blocks and what their fences say, the
//! commands of a `console` block with their shown output, output patterns (`...`,
//! `[..]`), the `nimtab` commands of a shell line, headings and links.

/// A fenced code block of a page.
#[derive(Debug)]
pub struct Block {
    /// The fence's info string (`console`, `console no-run`, `sh`, `rust`, ...).
    pub info: String,
    /// The 1-based line of the opening fence.
    pub line: usize,
    /// The lines between the fences.
    pub lines: Vec<String>,
}

/// Every fenced block of a page, in order.
pub fn blocks(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        let fence = line.trim_start().strip_prefix("```");
        match (&mut open, fence) {
            (None, Some(language)) => {
                let info = language.trim().to_string();
                open = Some(Block { info, line: i + 1, lines: Vec::new() });
            }
            (Some(_), Some(rest)) if rest.trim().is_empty() => blocks.extend(open.take()),
            (Some(block), _) => block.lines.push(line.to_string()),
            (None, None) => {}
        }
    }
    assert!(open.is_none(), "a fenced block is never closed");
    blocks
}

/// What a block is, as its fence says.
#[derive(Debug, PartialEq, Eq)]
pub enum Fence {
    /// ` ```console `: commands that are run, each followed by what it prints.
    Run,
    /// ` ```console no-run `: commands shown with their output but not run.
    NoRun,
    /// ` ```sh `: commands to type that are not nimtab examples, without output.
    Shell,
    /// ` ```text `, `csv`, `json`, `rust`, `python`: no commands at all.
    NotCommands,
}

impl Block {
    /// What the block is; an error for a fence without an info string or an unknown one.
    pub fn fence(&self) -> Result<Fence, String> {
        match self.info.as_str() {
            "console" => Ok(Fence::Run),
            "console no-run" => Ok(Fence::NoRun),
            "sh" => Ok(Fence::Shell),
            "text" | "csv" | "json" | "rust" | "python" => Ok(Fence::NotCommands),
            "" => Err("a fence that does not say what the block is".to_string()),
            other => Err(format!("an unknown fence '{other}'")),
        }
    }
}

/// One command of a `console` block and what it must print.
#[derive(Debug)]
pub struct Example {
    /// The 1-based line of the command on its page.
    pub line: usize,
    /// The command, as `sh -c` runs it (continuation lines joined).
    pub command: String,
    /// The output shown: stdout and stderr as a terminal interleaves them.
    pub expected: Vec<String>,
    /// The exit status shown by a last line `[exit status N]`; 0 when there is none.
    pub status: i32,
}

/// The commands of a `console` block: a line `$ CMD` (continued by lines after a
/// trailing `\`) and the lines until the next `$ ` as its output, trailing blank lines
/// dropped. Text before the first command is an error: nothing is left unparsed.
pub fn examples(block: &Block) -> Result<Vec<Example>, String> {
    let mut examples: Vec<Example> = Vec::new();
    let mut continued = false;
    for (i, line) in block.lines.iter().enumerate() {
        let number = block.line + 1 + i;
        if continued {
            let example = examples.last_mut().expect("a continued command");
            example.command.push('\n');
            example.command.push_str(line);
            continued = line.ends_with('\\');
        } else if let Some(command) = line.strip_prefix("$ ") {
            examples.push(Example {
                line: number,
                command: command.to_string(),
                expected: Vec::new(),
                status: 0,
            });
            continued = command.ends_with('\\');
        } else if let Some(example) = examples.last_mut() {
            example.expected.push(line.clone());
        } else {
            return Err(format!("line {number}: text before the block's first `$ ` command"));
        }
    }
    for example in &mut examples {
        while example.expected.last().is_some_and(|l| l.trim().is_empty()) {
            example.expected.pop();
        }
        if let Some(status) = example.expected.last().and_then(|l| exit_status(l)) {
            example.status = status;
            example.expected.pop();
            while example.expected.last().is_some_and(|l| l.trim().is_empty()) {
                example.expected.pop();
            }
        }
    }
    Ok(examples)
}

/// The status of a line `[exit status N]`.
fn exit_status(line: &str) -> Option<i32> {
    line.strip_prefix("[exit status ")?.strip_suffix(']')?.parse().ok()
}

/// Whether `actual` lines are what `expected` shows: a line `...` stands for any number
/// of lines (none included), and `[..]` inside a line for any text within that line.
pub fn output_matches(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=actual.len()).any(|skip| output_matches(rest, &actual[skip..]))
        }
        Some((first, rest)) => match actual.split_first() {
            Some((line, others)) => line_matches(first, line) && output_matches(rest, others),
            None => false,
        },
    }
}

/// Whether one line matches a pattern in which `[..]` stands for any text.
pub fn line_matches(pattern: &str, line: &str) -> bool {
    let parts: Vec<&str> = pattern.split("[..]").collect();
    if parts.len() == 1 {
        return pattern == line;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    let fits = line.len() >= first.len() + last.len();
    if !fits || !line.starts_with(first) || !line.ends_with(last) {
        return false;
    }
    let mut rest = &line[first.len()..line.len() - last.len()];
    for middle in &parts[1..parts.len() - 1] {
        match rest.find(middle) {
            Some(at) => rest = &rest[at + middle.len()..],
            None => return false,
        }
    }
    true
}

/// The anchors GitHub gives a page's headings (outside fenced blocks): lower case,
/// letters, digits, `-` and `_` kept, spaces made `-`, the rest dropped; a repeated
/// anchor gets `-1`, `-2`, ...
pub fn anchors(text: &str) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    let mut anchors = Vec::new();
    let mut in_fence = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        let Some(title) = heading(line).filter(|_| !in_fence) else { continue };
        let slug: String = title
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let repeats = seen.iter().filter(|a| **a == slug).count();
        anchors.push(if repeats == 0 { slug.clone() } else { format!("{slug}-{repeats}") });
        seen.push(slug);
    }
    anchors
}

/// The text of a markdown heading line (`# Title` to `###### Title`).
fn heading(line: &str) -> Option<&str> {
    let hashes = line.chars().take_while(|&c| c == '#').count();
    let title = line[hashes..].strip_prefix(' ')?;
    (1..=6).contains(&hashes).then_some(title.trim())
}

/// The targets of a page's inline links and images, `[text](target)`, outside fenced
/// blocks and code spans, with their 1-based line.
pub fn links(text: &str) -> Vec<(usize, String)> {
    let mut links = Vec::new();
    let mut in_fence = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        for (k, outside_code) in line.split('`').enumerate() {
            if k % 2 == 1 {
                continue;
            }
            let mut rest = outside_code;
            while let Some(at) = rest.find("](") {
                let after = &rest[at + 2..];
                let Some(end) = after.find(')') else { break };
                links.push((i + 1, after[..end].to_string()));
                rest = &after[end..];
            }
        }
    }
    links
}

/// The argument lists of the `nimtab` commands in a shell command line: the line is split
/// into words (quotes and backslashes as `sh` reads them, a backslash-newline joining
/// lines) and into simple commands at `|`, `;`, `&`, `<`, `>`, `(` and `)` outside
/// quotes; a simple command whose first word is `nimtab` gives the words after it. The
/// words of a redirection's target are dropped with it.
pub fn invocations(line: &str) -> Vec<Vec<String>> {
    let mut commands: Vec<Vec<String>> = vec![Vec::new()];
    let mut word: Option<String> = None;
    let mut chars = line.chars().peekable();
    let mut redirected = false;
    let end_word = |word: &mut Option<String>, commands: &mut Vec<Vec<String>>, skip: &mut bool| {
        if let Some(w) = word.take() {
            if *skip {
                *skip = false;
            } else {
                commands.last_mut().unwrap().push(w);
            }
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('\n') | None => end_word(&mut word, &mut commands, &mut redirected),
                Some(escaped) => word.get_or_insert_with(String::new).push(escaped),
            },
            '\'' => {
                let text = word.get_or_insert_with(String::new);
                for q in chars.by_ref().take_while(|&q| q != '\'') {
                    text.push(q);
                }
            }
            '"' => {
                let text = word.get_or_insert_with(String::new);
                while let Some(q) = chars.next() {
                    match q {
                        '"' => break,
                        '\\' => text.extend(chars.next()),
                        _ => text.push(q),
                    }
                }
            }
            '<' | '>' => {
                end_word(&mut word, &mut commands, &mut redirected);
                redirected = true;
            }
            '|' | ';' | '&' | '(' | ')' => {
                end_word(&mut word, &mut commands, &mut redirected);
                commands.push(Vec::new());
            }
            c if c.is_whitespace() => end_word(&mut word, &mut commands, &mut redirected),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    end_word(&mut word, &mut commands, &mut redirected);
    commands
        .into_iter()
        .filter(|words| words.first().is_some_and(|w| w == "nimtab"))
        .map(|words| words[1..].to_vec())
        .collect()
}
