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
            // An underlined line is shown around its span, so that the underline finds
            // its place; the others are context, shown from their start. Either way a
            // line of kilobytes is cut, or it would bury the rest.
            let (text, window) = match &span {
                Some(span) if n == line => self.window(n, span.start, text),
                _ => (shortened(text), None),
            };
            if n == line {
                out += &format!(
                    "{} {} {}\n",
                    style.yellow(&format!("{n:>width$}")),
                    style.yellow(">"),
                    style.yellow(&text)
                );
                if let Some(underline) = span.as_ref().and_then(|s| self.underline(n, s, &window)) {
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

    /// Line `line`, whose `text` is as [`Source::text`] shows it, as it is shown
    /// underlined at `at`: whole up to [`WHOLE`] characters, else [`WINDOW`] octets of
    /// it from a little before `at`, with `…` where it is cut and how many octets were
    /// left out.
    /// The window shown, if cut: its byte range in the file, and the columns its `…`
    /// prefix takes.
    fn window(&self, line: u32, at: usize, text: String) -> (String, Option<Window>) {
        let Some(range) = self.lines.get(line as usize - 1).cloned() else {
            return (text, None);
        };
        if text.chars().nth(WHOLE).is_none() {
            return (text, None);
        }
        let at = at.clamp(range.start, range.end);
        let start = self.boundary(at.saturating_sub(WINDOW / 4).max(range.start));
        let end = self.boundary((start + WINDOW).min(range.end));
        let cut = (start - range.start) + (range.end - end);
        let prefix = if start > range.start { "… " } else { "" };
        let suffix = if cut > 0 {
            format!(" … ({cut} octets cut)")
        } else {
            String::new()
        };
        let shown = format!("{prefix}{}{suffix}", self.shown(start..end));
        let window = Window {
            range: start..end,
            lead: prefix.width(),
        };
        (shown, Some(window))
    }

    /// `at`, or the start of the UTF-8 sequence it falls inside.
    fn boundary(&self, mut at: usize) -> usize {
        while at > 0 && at < self.bytes.len() && self.bytes[at] & 0xC0 == 0x80 {
            at -= 1;
        }
        at
    }

    fn underline(&self, line: u32, span: &Range<usize>, window: &Option<Window>) -> Option<String> {
        let mut range = self.lines.get(line as usize - 1)?.clone();
        let mut lead = 0;
        if let Some(window) = window {
            (range, lead) = (window.range.clone(), window.lead);
        }
        if span.start < range.start || span.start > range.end {
            return None;
        }
        let end = span
            .end
            .clamp(span.start + 1, range.end.max(span.start + 1));
        // Columns as a terminal draws them: CJK and most emoji take two, combining and
        // zero-width characters none, an escaped control the width of its escape.
        let lead = lead + self.shown(range.start..span.start).width();
        let len = self.shown(span.start..end.min(range.end)).width().max(1);
        Some(format!("{}{}", " ".repeat(lead), "^".repeat(len)))
    }
}

/// The part of a long underlined line shown ([`Source::window`]).
struct Window {
    /// Its byte range in the file.
    range: Range<usize>,
    /// The columns of what is shown before it.
    lead: usize,
}

/// The most characters of an underlined line [`Source::render`] shows whole: a rule or
/// URL of a few hundred, which real files have, is seen whole with its underline.
const WHOLE: usize = 500;

/// How many octets of a longer underlined line [`Source::render`] shows, from a quarter
/// of them before the span.
const WINDOW: usize = 200;

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

    #[test]
    fn marks_the_line_and_underlines_the_span() {
        let text = b"User-agent: *\nDisallow: /a\n\nAllow: /b\n";
        let source = Source::new("robots.txt", text);
        let shown = source.render(2, Some(14..22), 1, Style::plain());
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
        let shown = source.render(2, Some(x..x + 1), 0, Style::plain());
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
        let shown = source.render(2, Some(at..at + after.len()), 0, Style::plain());
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
        let shown = source.render(3, None, 1, Style::plain());
        assert!(shown.contains(&format!("2 | {cut}\n")), "{shown}");
        let shown = source.render(2, None, 0, Style::plain());
        assert!(shown.contains(&format!("2 > {cut}\n")), "{shown}");
        // Underlined, it is shown whole: it is not that long.
        let span = 14..22;
        let shown = source.render(2, Some(span), 0, Style::plain());
        assert!(shown.contains(&format!("2 > {long}\n")), "{shown}");
    }

    #[test]
    fn a_long_underlined_line_is_shown_around_its_span() {
        let long = format!("Disallow: /{}x{}", "é".repeat(5_000), "a".repeat(1_000_000));
        let text = format!("User-agent: *\n{long}\n");
        let source = Source::new("robots.txt", text.as_bytes());
        let at = text.find('x').unwrap();
        let shown = source.render(2, Some(at..at + 1), 0, Style::plain());
        let lines: Vec<&str> = shown.lines().collect();
        let (line, under) = (lines[2], lines[3]);
        // 50 octets before the span (25 `é`), 150 from it; all else cut, and counted.
        let cut = long.len() - 200;
        assert_eq!(
            line,
            format!(
                "2 > … {}x{} … ({cut} octets cut)",
                "é".repeat(25),
                "a".repeat(149)
            )
        );
        // Under the `x`: after `… ` and the 25 `é`.
        assert_eq!(under, format!("  | {}^", " ".repeat(2 + 25)));
        assert!(shown.len() < 1_000, "{}", shown.len());
    }
}
