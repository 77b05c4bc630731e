//! Showing robots.txt lines the way a compiler shows source: numbered, with the line in
//! question marked and, when a span is known, underlined. Lines are shown as
//! [`printable`] makes them: tabs as spaces, other control characters escaped, and
//! octets that are not UTF-8 as `\xE9` ([`escaped`]).

use std::ops::Range;

use unicode_width::UnicodeWidthStr;

use crate::style::{printable, Style};
use robots::escaped;

/// A file's text with its lines numbered as the engine numbers them.
pub struct Source<'a> {
    pub name: &'a str,
    bytes: &'a [u8],
    lines: Vec<Range<usize>>,
}

impl<'a> Source<'a> {
    pub fn new(name: &'a str, bytes: &'a [u8]) -> Source<'a> {
        Source {
            name,
            bytes,
            lines: robots::source_lines(bytes)
                .map(|(_, range)| range)
                .collect(),
        }
    }

    fn text(&self, line: u32) -> Option<String> {
        let range = self.lines.get((line as usize).checked_sub(1)?)?;
        Some(self.shown(range.clone()))
    }

    /// Bytes of the file as shown: tabs as one space each (so underlines stay aligned),
    /// other control characters escaped, octets that are not UTF-8 as `\xE9`.
    fn shown(&self, range: Range<usize>) -> String {
        let text = escaped(&self.bytes[range]).replace('\t', " ");
        printable(&text).into_owned()
    }

    /// The lines `line - context ..= line + context`, the middle one marked with `>` and,
    /// if `span` (a byte range in the file) lies on it, underlined with `^`.
    pub fn render(
        &self,
        line: u32,
        span: Option<Range<usize>>,
        context: u32,
        style: Style,
    ) -> String {
        let first = line.saturating_sub(context).max(1);
        // The engine numbers an empty line after the file's last line break, as Google's
        // parser does; an editor shows no such line, so it is no context to show.
        let lines = match self.lines.last() {
            Some(end)
                if end.is_empty() && end.start == self.bytes.len() && self.lines.len() > 1 =>
            {
                self.lines.len() as u32 - 1
            }
            _ => self.lines.len() as u32,
        };
        let last = (line + context).min(lines.max(line));
        let width = last.to_string().len();
        let mut out = format!(
            "{:width$}{} {}:{line}\n",
            "",
            style.dim("-->"),
            printable(self.name)
        );
        out += &format!("{:width$} {}\n", "", style.dim("|"));
        for n in first..=last {
            let Some(text) = self.text(n) else { continue };
            // Only an underlined line is shown whole, so that the underline finds its
            // place; the others are context, which a line of kilobytes would bury.
            let text = if n == line && span.is_some() {
                text
            } else {
                shortened(text)
            };
            if n == line {
                out += &format!(
                    "{} {} {}\n",
                    style.yellow(&format!("{n:>width$}")),
                    style.yellow(">"),
                    style.yellow(&text)
                );
                if let Some(underline) = span.as_ref().and_then(|s| self.underline(n, s)) {
                    out += &format!(
                        "{:width$} {} {}\n",
                        "",
                        style.dim("|"),
                        style.yellow(&underline)
                    );
                }
            } else if text.is_empty() {
                // No space after the bar: nothing trails on a blank line.
                out += &format!(
                    "{} {}\n",
                    style.dim(&format!("{n:>width$}")),
                    style.dim("|")
                );
            } else {
                out += &format!(
                    "{} {} {}\n",
                    style.dim(&format!("{n:>width$}")),
                    style.dim("|"),
                    text
                );
            }
        }
        out
    }

    fn underline(&self, line: u32, span: &Range<usize>) -> Option<String> {
        let range = self.lines.get(line as usize - 1)?;
        if span.start < range.start || span.start > range.end {
            return None;
        }
        let end = span
            .end
            .clamp(span.start + 1, range.end.max(span.start + 1));
        // Columns as a terminal draws them: CJK and most emoji take two, combining and
        // zero-width characters none, an escaped control the width of its escape.
        let lead = self.shown(range.start..span.start).width();
        let len = self.shown(span.start..end.min(range.end)).width().max(1);
        Some(format!("{}{}", " ".repeat(lead), "^".repeat(len)))
    }
}

/// How many characters of a line [`Source::render`] shows, but for an underlined one.
const SHOWN: usize = 160;

/// `text` cut to [`SHOWN`] characters, saying how many more there are.
fn shortened(text: String) -> String {
    match text.char_indices().nth(SHOWN) {
        Some((at, _)) => {
            let more = text[at..].chars().count();
            format!("{} … ({more} more characters)", &text[..at])
        }
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::style::ColorChoice;

    #[test]
    fn marks_the_line_and_underlines_the_span() {
        let text = b"User-agent: *\nDisallow: /a\n\nAllow: /b\n";
        let source = Source::new("robots.txt", text);
        let shown = source.render(2, Some(14..22), 1, Style::new(ColorChoice::Never));
        assert_eq!(
            shown,
            " --> robots.txt:2\n  |\n1 | User-agent: *\n2 > Disallow: /a\n  | ^^^^^^^^\n3 |\n"
        );
    }

    #[test]
    fn control_characters_are_escaped_and_underlines_follow_them() {
        let text = b"User-agent: *\nDisallow: /a\x1b[2J\x07 x\n";
        let source = Source::new("robots.txt", text);
        // The span of the word after the controls.
        let x = text.len() - 2;
        let shown = source.render(2, Some(x..x + 1), 0, Style::new(ColorChoice::Never));
        let line = "Disallow: /a\\u{1b}[2J\\u{7} x";
        let under = " ".repeat(line.len() - 1);
        assert_eq!(
            shown,
            format!(" --> robots.txt:2\n  |\n2 > {line}\n  | {under}^\n")
        );
        assert!(!shown.contains(['\x1b', '\x07']));
    }

    /// The underline of the span `after` names on line 2 of `text`, as rendered.
    fn underline_of(text: &str, after: &str) -> String {
        let at = text.rfind(after).unwrap();
        let source = Source::new("robots.txt", text.as_bytes());
        let shown = source.render(
            2,
            Some(at..at + after.len()),
            0,
            Style::new(ColorChoice::Never),
        );
        shown.lines().last().unwrap().to_owned()
    }

    #[test]
    fn underlines_count_display_width_not_characters() {
        // Each CJK character and the emoji take two columns of a terminal.
        assert_eq!(
            underline_of("User-agent: *\nDisallow: /日本語 /x\n", "/x"),
            format!("  | {}^^", " ".repeat(18))
        );
        assert_eq!(
            underline_of("User-agent: *\nUser-agent: 😀bot*\n", "😀bot*"),
            format!("  | {}^^^^^^", " ".repeat(12))
        );
        // A combining accent and a zero-width space take none.
        assert_eq!(
            underline_of("User-agent: *\nDisallow: /e\u{301}\u{200b}$y\n", "$y"),
            format!("  | {}^^", " ".repeat(12))
        );
        // An escaped bidi control takes the width of `\u{202e}`, and a span of it alone
        // is underlined whole.
        assert_eq!(
            underline_of("User-agent: *\nDisallow: /日\u{202e}\n", "\u{202e}"),
            format!("  | {}{}", " ".repeat(13), "^".repeat(8))
        );
    }

    #[test]
    fn long_lines_are_cut_unless_underlined() {
        let long = format!("Disallow: /{}", "a".repeat(300));
        let text = format!("User-agent: *\n{long}\nAllow: /b\n");
        let source = Source::new("robots.txt", text.as_bytes());
        let cut = format!("{} … (151 more characters)", &long[..160]);
        let shown = source.render(3, None, 1, Style::new(ColorChoice::Never));
        assert!(shown.contains(&format!("2 | {cut}\n")), "{shown}");
        let shown = source.render(2, None, 0, Style::new(ColorChoice::Never));
        assert!(shown.contains(&format!("2 > {cut}\n")), "{shown}");
        let span = 14..22;
        let shown = source.render(2, Some(span), 0, Style::new(ColorChoice::Never));
        assert!(shown.contains(&format!("2 > {long}\n")), "{shown}");
    }
}
