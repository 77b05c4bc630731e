//! Terminal output: colour on for a terminal, off for pipes and files, or as `--color`
//! says; text from robots.txt files, URLs, servers and file names made printable, so
//! that the terminal shows it rather than obeys it; and counts in words.

use std::borrow::Cow;
use std::io::IsTerminal;

/// When to colour output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Default)]
pub enum ColorChoice {
    /// Colour when standard output is a terminal and NO_COLOR is unset.
    #[default]
    Auto,
    Always,
    Never,
}

/// ANSI styling that collapses to plain text when colour is off.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    on: bool,
}

impl Style {
    pub fn new(choice: ColorChoice) -> Style {
        let on = match choice {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
            }
        };
        Style { on }
    }

    fn paint(&self, code: &str, text: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }

    pub fn green(&self, text: &str) -> String {
        self.paint("1;32", text)
    }

    pub fn red(&self, text: &str) -> String {
        self.paint("1;31", text)
    }

    pub fn yellow(&self, text: &str) -> String {
        self.paint("1;33", text)
    }

    pub fn dim(&self, text: &str) -> String {
        self.paint("2", text)
    }
}

/// `text` with its control characters escaped, for text output: a robots.txt, a URL or a
/// server's answer could otherwise move the cursor, retitle the window or clear the
/// screen (ESC sequences), ring the bell or hide what follows (NUL, CR). Escaped are the
/// C0 controls (tab included), DEL and the C1 controls, and the Unicode bidirectional
/// controls (U+202A–U+202E, U+2066–U+2069), which reorder the rest of a line as shown;
/// each is written as Rust writes a Unicode escape (`\u{1b}`, `char::escape_unicode`).
/// Other text, backslashes included, is shown as it is. JSON output escapes C0 controls
/// its own way (`\u001b`).
pub fn printable(text: &str) -> Cow<'_, str> {
    if !has_controls(text) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if escaped(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Whether `text` holds a character [`printable`] escapes.
pub fn has_controls(text: &str) -> bool {
    text.chars().any(escaped)
}

fn escaped(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `n` things, as `1 error` or `2 errors` (`thing` takes an `s` in the plural).
pub fn counted(n: u64, thing: &str) -> String {
    format!("{n} {thing}{}", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::printable;

    #[test]
    fn control_characters_are_escaped_and_the_rest_kept() {
        assert_eq!(
            printable("/a\x1b]0;PWNED\x07\0\r\t\x7f\u{85}\u{202e}b"),
            "/a\\u{1b}]0;PWNED\\u{7}\\u{0}\\u{d}\\u{9}\\u{7f}\\u{85}\\u{202e}b"
        );
        assert_eq!(printable("/café\\x?q=1 ü"), "/café\\x?q=1 ü");
        assert!(matches!(printable("/plain"), std::borrow::Cow::Borrowed(_)));
    }
}
