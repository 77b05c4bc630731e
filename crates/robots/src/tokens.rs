//! A robots.txt read as its `key: value` lines, building nothing: the parser's own line
//! reading (RFC 9309 §2.2), for tools that want the lines rather than a [`Robots`].

use crate::behaviour::Behaviour;
use crate::directive::{classify, Directive};
use crate::lines::{bom_len, split_line, LineContent, LineSyntax, Lines};
use crate::parse::within_limit;
use crate::Options;
#[cfg(doc)]
use crate::Robots;

/// One `key: value` line, as [`Robots::parse_with`] reads it with the same options.
/// More may be told about a line later, so the struct is not exhaustive.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Token<'a> {
    /// The 1-based line number.
    pub line: u32,
    /// What the key names, under the profile (Google reads `disallowed` as a disallow,
    /// and `Archive-Embargo` as an unknown key).
    pub directive: Directive,
    /// The key as written, trimmed.
    pub key: &'a [u8],
    /// The value as written: trimmed, without its comment, not normalised.
    pub value: &'a [u8],
    /// Where the value starts in the body (where it would, when empty).
    pub value_at: usize,
}

/// Key and value as byte strings (`b"Disallow"`), not lists of numbers.
impl std::fmt::Debug for Token<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        struct Bytes<'a>(&'a [u8]);
        impl std::fmt::Debug for Bytes<'_> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "b\"{}\"", self.0.escape_ascii())
            }
        }
        f.debug_struct("Token")
            .field("line", &self.line)
            .field("directive", &self.directive)
            .field("key", &Bytes(self.key))
            .field("value", &Bytes(self.value))
            .field("value_at", &self.value_at)
            .finish()
    }
}

/// The `key: value` lines of a body, in order, as [`Robots::parse_with`] reads them: only
/// the parse limit's whole lines, past a byte-order mark; blank, comment-only and junk
/// lines (neither `key: value` nor two words) are skipped. Nothing is allocated but room
/// for the body's line marks (24 octets per 64 of the body), so a tool that handles the
/// lines itself, as Google's `ParseRobotsTxt` handlers do, pays for reading them only.
///
/// ```
/// use robots::{Directive, Options, Tokens};
///
/// let body = b"User-agent: *\nDisalow: /tmp # old\n\nSitemap: /map.xml\n";
/// let tokens: Vec<_> = Tokens::new(body, Options::new()).collect();
/// assert_eq!(tokens.len(), 3);
/// assert_eq!(tokens[1].directive, Directive::Disallow);
/// assert_eq!((tokens[1].line, tokens[1].key, tokens[1].value), (2, &b"Disalow"[..], &b"/tmp"[..]));
/// assert_eq!(&body[tokens[2].value_at..][..8], b"/map.xml");
/// ```
pub struct Tokens<'a> {
    lines: Lines<'a>,
    syntax: LineSyntax,
    behaviour: Behaviour,
}

impl std::fmt::Debug for Tokens<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tokens").finish_non_exhaustive()
    }
}

impl<'a> Tokens<'a> {
    /// Reads `body` under `options`' profile and parse limit.
    pub fn new(body: &'a [u8], options: Options) -> Tokens<'a> {
        let data = within_limit(body, options.max_bytes);
        let behaviour = options.profile.behaviour();
        Tokens {
            lines: Lines::new(data, bom_len(data)),
            syntax: LineSyntax::of(&behaviour, data),
            behaviour,
        }
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        for line in self.lines.by_ref() {
            if let LineContent::Pair(kv) = split_line(&line, self.syntax) {
                return Some(Token {
                    line: line.number,
                    directive: classify(kv.key, &self.behaviour).0,
                    key: kv.key,
                    value: kv.value,
                    value_at: line.start + kv.value_at,
                });
            }
        }
        None
    }
}

impl std::iter::FusedIterator for Tokens<'_> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Profile;

    fn tokens(body: &[u8], profile: Profile) -> Vec<(u32, Directive, String, String)> {
        Tokens::new(body, Options::new().profile(profile))
            .map(|t| {
                let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
                (t.line, t.directive, text(t.key), text(t.value))
            })
            .collect()
    }

    #[test]
    fn skips_blank_comment_and_junk_lines_and_keeps_numbering() {
        let body = b"\xEF\xBB\xBF# hello\r\nUser-agent : Bot # me\r\n\r\nno colon here\rDisallow:\nAllow /x\n";
        assert_eq!(
            tokens(body, Profile::Rfc9309),
            [
                (2, Directive::UserAgent, "User-agent".into(), "Bot".into()),
                (5, Directive::Disallow, "Disallow".into(), String::new()),
                (6, Directive::Allow, "Allow".into(), "/x".into()),
            ]
        );
    }

    #[test]
    fn value_at_points_into_the_body_even_when_empty() {
        let body = b"  Disallow:   /a b  \nAllow:   \n";
        let found: Vec<_> = Tokens::new(body, Options::new()).collect();
        assert_eq!(&body[found[0].value_at..][..found[0].value.len()], b"/a b");
        assert_eq!(
            found[1].value_at,
            body.iter().rposition(|&b| b == b':').unwrap() + 1
        );
        assert!(found[1].value.is_empty());
    }

    #[test]
    fn the_profile_decides_what_a_key_names() {
        let body = b"Disallowed: /a\nArchive-Embargo: w\n";
        let directives = |profile| -> Vec<Directive> {
            tokens(body, profile).into_iter().map(|t| t.1).collect()
        };
        assert_eq!(
            directives(Profile::Rfc9309),
            [Directive::Other, Directive::ArchiveEmbargo]
        );
        assert_eq!(
            directives(Profile::Google),
            [Directive::Disallow, Directive::Other]
        );
    }

    #[test]
    fn stops_at_the_parse_limit_on_a_whole_line() {
        let limit = crate::MIN_PARSE_LIMIT;
        let mut body = b"User-agent: *\n".to_vec();
        let filler = b"Disallow: /0123456789\n";
        while body.len() + filler.len() <= limit {
            body.extend_from_slice(filler);
        }
        body.extend_from_slice(b"Disallow: /cut-in-two\n");
        let options = Options::new().max_bytes(limit).unwrap();
        let last = Tokens::new(&body, options).last().unwrap();
        assert_eq!(last.value, b"/0123456789");
        let whole = Options::new().max_bytes(usize::MAX).unwrap();
        assert_eq!(
            Tokens::new(&body, whole).last().unwrap().value,
            b"/cut-in-two"
        );
    }
}
