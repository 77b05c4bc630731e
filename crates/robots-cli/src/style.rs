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

impl ColorChoice {
    /// The styling this choice gives: `auto` colours a terminal with NO_COLOR unset.
    pub fn style(self) -> Style {
        Style::new(match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
            }
        })
    }
}

// How a name or a pattern is shown on a line is the presentation layer's, which the
// bindings share.
/// Colour and counts in words are the presentation layer's too.
pub use robots_present::style::{counted, Style};
pub use robots_present::text::{has_controls, printable};

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
