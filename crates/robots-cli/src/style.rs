//! Terminal output: colour on for a terminal, off for pipes and files, or as `--color`
//! says; text from robots.txt files, URLs, servers and file names made printable, so
//! that the terminal shows it rather than obeys it; and counts in words.

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

// How a name or a pattern is shown on a line is the presentation layer's, which the
// bindings share.
pub use robots_present::text::{has_controls, printable};

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
