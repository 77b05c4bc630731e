//! Rule patterns as output shows them: UTF-8 as it is, and each octet that is not UTF-8
//! as `\xE9` ([`robots::escaped`]), where the engine's kept text has U+FFFD for it.

use std::borrow::Cow;

use robots::{escaped, Directive, Options, Rule, Tokens};

/// The rule values of a file that are not UTF-8, by line, as the file wrote them. The
/// engine keeps a rule's pattern as UTF-8 ([`Rule::pattern`] replaces such octets by
/// U+FFFD), so the octets are read back from the file's lines, as the parse read them.
#[derive(Default)]
pub struct Patterns {
    /// In line order.
    lines: Vec<Written>,
}

/// One rule value that is not UTF-8.
struct Written {
    line: u32,
    /// The value as the engine holds it, to tell that a rule is this line's.
    engine: String,
    bytes: Vec<u8>,
    shown: String,
}

impl Patterns {
    /// The rule values of `body` read under `options`; nothing is kept for a file that is
    /// UTF-8, whose patterns the engine holds exactly.
    pub fn new(body: &[u8], options: Options) -> Patterns {
        if std::str::from_utf8(body).is_ok() {
            return Patterns::default();
        }
        let lines = Tokens::new(body, options)
            .filter(|t| is_rule(t.directive) && std::str::from_utf8(t.value).is_err())
            .map(|t| Written {
                line: t.line,
                engine: String::from_utf8_lossy(t.value).into_owned(),
                bytes: t.value.to_vec(),
                shown: escaped(t.value).into_owned(),
            })
            .collect();
        Patterns { lines }
    }

    /// `rule`'s pattern as written, its octets that are not UTF-8 as `\xE9`; the engine's
    /// text when the line's value is not the rule's (a rule the profile adds).
    pub fn text<'a>(&'a self, rule: Rule<'a>) -> &'a str {
        self.written(rule).map_or(rule.pattern(), |w| &w.shown)
    }

    /// `rule`'s pattern as the octets written; the engine's text when the line's value is
    /// not the rule's.
    pub fn bytes<'a>(&'a self, rule: Rule<'a>) -> &'a [u8] {
        self.written(rule)
            .map_or(rule.pattern().as_bytes(), |w| &w.bytes)
    }

    /// One rule's pattern as [`Patterns::text`] shows it, reading `body` only when the
    /// engine's text had to replace octets (U+FFFD): a caller answering one URL at a
    /// time (the Python package's `check`) pays nothing for a UTF-8 file.
    pub fn one<'a>(rule: Rule<'a>, body: &[u8], options: Options) -> Cow<'a, str> {
        let pattern = rule.pattern();
        if !pattern.contains('\u{FFFD}') {
            return Cow::Borrowed(pattern);
        }
        Tokens::new(body, options)
            .find(|t| {
                t.line == rule.line()
                    && is_rule(t.directive)
                    && String::from_utf8_lossy(t.value) == pattern
            })
            .map_or(Cow::Borrowed(pattern), |t| {
                Cow::Owned(escaped(t.value).into_owned())
            })
    }

    fn written(&self, rule: Rule<'_>) -> Option<&Written> {
        let i = self
            .lines
            .binary_search_by_key(&rule.line(), |w| w.line)
            .ok()?;
        Some(&self.lines[i]).filter(|w| w.engine == rule.pattern())
    }
}

/// Whether a line of this directive is a rule, whose value is a pattern.
fn is_rule(directive: Directive) -> bool {
    matches!(
        directive,
        Directive::Allow | Directive::Disallow | Directive::EmbargoAllow
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use robots::{Agent, Robots};

    #[test]
    fn a_pattern_is_shown_with_the_octets_its_file_wrote() {
        let body = b"User-agent: *\nDisallow: /caf\xe9 # Latin-1\nAllow: /caf\xe9s\n";
        let robots = Robots::parse(body);
        let patterns = Patterns::new(body, robots.options());
        let agent = Agent::new("bot").unwrap();
        let shown = |url: &[u8]| {
            let verdict = robots.check_bytes(&agent, url);
            patterns.text(verdict.decided_by().unwrap()).to_owned()
        };
        assert_eq!(shown(b"/caf\xe9"), "/caf\\xE9");
        assert_eq!(shown(b"/caf\xe9s"), "/caf\\xE9s");
        let verdict = robots.check_bytes(&agent, b"/caf\xe9");
        assert_eq!(patterns.bytes(verdict.decided_by().unwrap()), b"/caf\xe9");
        let rule = verdict.decided_by().unwrap();
        assert_eq!(Patterns::one(rule, body, robots.options()), "/caf\\xE9");
        // Without the file's octets, the engine's text.
        let verdict = robots.check_bytes(&agent, b"/caf\xe9");
        assert_eq!(
            Patterns::default().text(verdict.decided_by().unwrap()),
            "/caf\u{fffd}"
        );
    }
}
