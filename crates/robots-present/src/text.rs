//! Text as a terminal line shows it: control characters, and the bidirectional
//! overrides that could reorder what is read, escaped, so a file cannot rewrite the line.

use std::borrow::Cow;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_overrides_are_escaped_and_the_rest_borrowed() {
        assert!(matches!(printable("ExampleBot/2.1 é"), Cow::Borrowed(_)));
        assert_eq!(printable("a\x1b[31mb"), "a\\u{1b}[31mb");
        assert_eq!(printable("x\u{202e}y"), "x\\u{202e}y");
        assert!(!has_controls("plain"));
    }
}
