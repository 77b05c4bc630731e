//! Colour for text output: ANSI styling that collapses to plain text when colour is off,
//! so one layout serves a terminal, a pipe and the bindings' strings.

/// ANSI styling that collapses to plain text when colour is off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    on: bool,
}

impl Style {
    /// Colour on (`true`) or off.
    pub fn new(on: bool) -> Style {
        Style { on }
    }

    /// No colour: what the bindings return and what goes to a pipe.
    pub fn plain() -> Style {
        Style { on: false }
    }

    fn paint(&self, code: &str, text: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }

    /// Bold green: an allowed verdict.
    pub fn green(&self, text: &str) -> String {
        self.paint("1;32", text)
    }

    /// Bold red: a disallowed verdict, an error.
    pub fn red(&self, text: &str) -> String {
        self.paint("1;31", text)
    }

    /// Bold yellow: an embargo, the deciding rule, a warning.
    pub fn yellow(&self, text: &str) -> String {
        self.paint("1;33", text)
    }

    /// Dim: labels and asides.
    pub fn dim(&self, text: &str) -> String {
        self.paint("2", text)
    }
}

/// `n` things, as `1 error` or `2 errors` (`thing` takes an `s` in the plural).
pub fn counted(n: u64, thing: &str) -> String {
    format!("{n} {thing}{}", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_has_no_escapes_and_colour_wraps_it() {
        assert_eq!(Style::plain().red("x"), "x");
        assert_eq!(Style::new(true).green("ok"), "\x1b[1;32mok\x1b[0m");
        assert_eq!(counted(1, "record"), "1 record");
        assert_eq!(counted(2, "record"), "2 records");
    }
}
