//! The diagnostics' sentences, written from what a parsed file keeps of each (a
//! [`Finding`]: its code, place and quoted text) only when someone asks for them.

use std::borrow::Cow;

use crate::agent::product_token;
use crate::behaviour::Behaviour;
use crate::diagnostic::{Code, Diagnostic};
use crate::directive::{classify, did_you_mean, Directive, Spelling};
use crate::robots::{Finding, UTF16_BE, UTF16_LE};
use crate::Robots;

/// The most characters of a file's text a message quotes whole: a rule, URL or
/// User-Agent header of a few hundred, which real files have, is quoted as it is.
pub(crate) const QUOTED_WHOLE: usize = 500;

/// How many characters of a longer text a message quotes: a line of megabytes quoted
/// whole would bury the message, and every other one, under it.
pub(crate) const QUOTED: usize = 200;

/// `text`, the start of `len` octets of the file, as a message quotes it: whole up to
/// [`QUOTED_WHOLE`] characters; if longer (or cut already, when kept), its first
/// [`QUOTED`] characters, an ellipsis and the count of octets left out:
/// `/aaa… (16776999 more octets)`.
pub(crate) fn cut(text: &str, len: usize) -> Cow<'_, str> {
    if len <= text.len() && text.chars().nth(QUOTED_WHOLE).is_none() {
        return Cow::Borrowed(text);
    }
    let at = text
        .char_indices()
        .nth(QUOTED)
        .map_or(text.len(), |(at, _)| at);
    Cow::Owned(format!("{}… ({} more octets)", &text[..at], len - at))
}

/// `bytes` as text, each octet that is not UTF-8 written `\xE9`, as diagnostic messages
/// quote a file's text: a message that quotes a value from a file in Latin-1, say, then
/// reads `/caf\xE9`, the octet there, rather than `/caf\u{FFFD}`, which hides it. Tools
/// that show the file's lines or URLs beside the messages show them the same way. Not
/// as `%E9`: the Google profile tells an octet from its escape.
///
/// ```
/// assert_eq!(robots::escaped(b"/caf\xe9/\xff?\xc3\xa9"), "/caf\\xE9/\\xFF?\u{e9}");
/// assert!(matches!(robots::escaped("/café".as_bytes()), std::borrow::Cow::Borrowed(_)));
/// ```
pub fn escaped(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => {
            let mut text = String::with_capacity(bytes.len() + 8);
            for chunk in bytes.utf8_chunks() {
                text.push_str(chunk.valid());
                for b in chunk.invalid() {
                    text.push_str(&format!("\\x{b:02X}"));
                }
            }
            Cow::Owned(text)
        }
    }
}

/// A key as a message quotes it, in lower case as keys are compared, but for the hex
/// digits of an octet written `\xE9` ([`escaped`]), which stay as the line shows them.
fn lowercase_key(key: &str) -> String {
    let mut out = key.to_ascii_lowercase();
    for (at, _) in key.match_indices("\\x") {
        let hex = at + 2..at + 4;
        if key
            .get(hex.clone())
            .is_some_and(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
        {
            out.replace_range(hex.clone(), &key[hex]);
        }
    }
    out
}

impl Robots {
    /// Everything the parser noticed, in line order. The sentences are written now: a
    /// parsed file keeps only what they quote.
    ///
    /// ```
    /// use robots::{Code, Robots};
    /// let robots = Robots::parse(b"User-agent: *\nDisalow: /a\n");
    /// let found = robots.diagnostics();
    /// assert_eq!((found[0].code, found[0].line), (Code::MisspeltDirective, 2));
    /// assert_eq!(found[0].message, "`Disalow` is read as `disallow`");
    /// ```
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        self.findings.iter().map(|f| self.render(f)).collect()
    }

    /// How far the file goes past the parse limit, and how much of it is ignored: more
    /// than that when the limit cuts a line, which is dropped whole.
    fn beyond_limit_words(&self, line: u32) -> String {
        let bytes = |n: usize| format!("{n} byte{}", if n == 1 { "" } else { "s" });
        let limit = self.options.max_bytes;
        let past = self.size.saturating_sub(limit);
        let ignored = self.size - self.parsed;
        let verb = if ignored == 1 { "is" } else { "are" };
        let cut = if ignored > past {
            format!(
                " (the limit cuts line {line}, which is dropped whole rather than read half-written)"
            )
        } else {
            String::new()
        };
        if !self.size_exact {
            // A stream not read to its end: only lower bounds are known.
            return format!(
                "the file goes more than {} past the parse limit of {limit} bytes: all of it from line {line} on, more than {}, is ignored{cut}",
                bytes(past),
                bytes(ignored)
            );
        }
        format!(
            "the file goes {} past the parse limit of {limit} bytes: its last {}, from line {line} on, {verb} ignored{cut}",
            bytes(past),
            bytes(ignored)
        )
    }

    /// Writes out a finding as a diagnostic.
    pub(crate) fn render(&self, finding: &Finding) -> Diagnostic {
        let (message, suggestion) = self.words(finding);
        Diagnostic {
            code: finding.code,
            line: finding.line,
            column: finding.column,
            span: finding.start as usize..finding.end as usize,
            message,
            suggestion,
        }
    }

    fn words(&self, finding: &Finding) -> (Cow<'static, str>, Option<Cow<'static, str>>) {
        let quote = finding.quote;
        let whole = self.str(quote.text);
        // The first of two texts, and the rest.
        let split = (quote.number as usize).min(whole.len());
        let (first, rest) = whole.split_at_checked(split).unwrap_or((whole, ""));
        // Each cut to what a message can quote; a junk line's text was cut when it was
        // kept, so the line's length says how much more there was.
        let (first, rest) = (cut(first, first.len()), cut(rest, rest.len()));
        let text = match finding.code {
            Code::JunkLine => {
                let trimmed = whole.trim();
                let line = (finding.end - finding.start) as usize;
                let lead = whole.len() - whole.trim_start().len();
                let kept_whole = whole.len() >= line;
                cut(
                    trimmed,
                    if kept_whole {
                        trimmed.len()
                    } else {
                        line - lead
                    },
                )
            }
            _ => cut(whole, whole.len()),
        };
        let (first, rest, text) = (&*first, &*rest, &*text);
        let fixed = |message: &'static str, suggestion: Option<&'static str>| {
            (Cow::Borrowed(message), suggestion.map(Cow::Borrowed))
        };
        let made = |message: String, suggestion: Option<String>| {
            (Cow::Owned(message), suggestion.map(Cow::Owned))
        };
        match finding.code {
            Code::ByteOrderMark => fixed(
                "the file starts with a UTF-8 byte-order mark, which is skipped",
                Some("save the file as UTF-8 without a byte-order mark"),
            ),
            Code::NotUtf8 if matches!(quote.number, UTF16_LE | UTF16_BE) => fixed(
                "the file is UTF-16 (it starts with a UTF-16 byte-order mark), so crawlers, which read UTF-8, understand none of its lines",
                Some("save the file as UTF-8 (RFC 9309 §2.2)"),
            ),
            Code::NotUtf8 => made(
                format!(
                    "byte 0x{:02X} at offset {} is not UTF-8",
                    quote.number, finding.start
                ),
                Some(
                    "save the file as UTF-8; crawlers read robots.txt as UTF-8 (RFC 9309 §2.2)"
                        .into(),
                ),
            ),
            Code::GarbledByteOrderMark => fixed(
                "the file starts with `ï»¿`, a UTF-8 byte-order mark encoded twice: crawlers read it as part of the first line, which they then do not understand",
                Some("remove `ï»¿` from the start of the file (save it as UTF-8 without a byte-order mark)"),
            ),
            Code::LooksLikeHtml => fixed(
                "this is an HTML page, not a robots.txt",
                Some("serve a plain-text robots.txt, or a 404 if you have none"),
            ),
            Code::BeyondParseLimit => made(
                self.beyond_limit_words(finding.line),
                Some(
                    "keep robots.txt under 500 KiB: crawlers stop reading there (RFC 9309 §2.5)"
                        .into(),
                ),
            ),
            Code::JunkLine => made(
                format!("`{}` is not a `key: value` line and is ignored", text.trim()),
                Some(
                    "write it as `key: value`, or start it with `#` to make it a comment".into(),
                ),
            ),
            Code::MisspeltDirective => {
                let name = read_as(first, &self.behaviour);
                made(
                    format!("`{first}` is read as `{name}`"),
                    Some(format!("spell it `{name}`")),
                )
            }
            Code::PrefixDirective => self
                .colon_words(first, rest)
                .unwrap_or_else(|| self.prefix_words(first)),
            Code::MissingColon => made(
                format!("no colon after `{first}`; read as `{first}: {rest}`"),
                Some(format!("write `{first}: …`")),
            ),
            Code::RuleBeforeUserAgent => made(
                format!("`{first}` comes before any user-agent line, so it applies to no crawler"),
                // The user-agent line may be there, lost behind a garbled byte-order mark.
                Some(
                    if self
                        .findings
                        .iter()
                        .take_while(|f| f.line == 1)
                        .any(|f| f.code == Code::GarbledByteOrderMark)
                    {
                        "remove the garbled byte-order mark `ï»¿` that hides line 1's key, or put a `User-agent: *` line above this one"
                    } else {
                        "put a `User-agent: *` line above it"
                    }
                    .into(),
                ),
            ),
            // An embargo rule where the profile reads none (Google's): "did you mean" it
            // would name the very key written.
            Code::UnknownDirective
                if matches!(
                    classify(first.as_bytes(), &Behaviour::RFC9309).0,
                    Directive::ArchiveEmbargo | Directive::EmbargoAllow
                ) =>
            {
                made(
                    format!(
                        "`{}` is an Archive-Embargo rule, which Google's matcher does not know; the line is kept as a record only",
                        first.to_ascii_lowercase()
                    ),
                    Some(
                        "embargo rules apply in the RFC 9309 profile, to crawlers that honour Archive-Embargo"
                            .into(),
                    ),
                )
            }
            // A URL alone on its line (its scheme read as the key), usually a sitemap
            // whose `Sitemap:` was left out: 22 corpus files have them.
            Code::UnknownDirective
                if (first.eq_ignore_ascii_case("http") || first.eq_ignore_ascii_case("https"))
                    && rest.starts_with("//") =>
            {
                made(
                    format!("`{first}:{rest}` is a URL with no key, and crawlers ignore it"),
                    Some(format!("if it is a sitemap, write `Sitemap: {first}:{rest}`")),
                )
            }
            Code::UnknownDirective => made(
                format!(
                    "`{}` is not a directive crawlers know; the line is kept as a record only",
                    lowercase_key(first)
                ),
                did_you_mean(first.as_bytes(), &self.behaviour)
                    .map(|n| format!("did you mean `{n}`?")),
            ),
            Code::IndexingRule => {
                let key = first.to_ascii_lowercase();
                made(
                    format!(
                        "`{key}` in robots.txt does nothing: Google stopped reading it on 1 September 2019, and RFC 9309 has no such rule"
                    ),
                    Some(if key == "noindex" {
                        "to keep pages out of search results, send them with `X-Robots-Tag: noindex` or a robots meta tag, and do not disallow them, or crawlers never see it".into()
                    } else {
                        format!("send the pages with `X-Robots-Tag: {key}` or a robots meta tag instead")
                    }),
                )
            }
            Code::BlankLineBetweenGroups => fixed(
                "a blank line does not end a group: this user-agent line joins the group above, whose crawlers get the rules below too",
                Some("remove the blank line if both crawlers share the rules, or give the group above its own rules (e.g. `Allow: /`)"),
            ),
            Code::AgentWithVersion => made(
                format!("only `{first}` of `{text}` names the crawler"),
                Some(format!("write `User-agent: {first}`")),
            ),
            Code::AgentWithWildcard => {
                let letters = product_token(first.as_bytes(), true);
                made(
                    format!(
                        "`{first}` names no crawler: RFC 9309 compares user-agent names whole, and `*` is a wildcard only alone; {}",
                        google_reads(letters)
                    ),
                    // `**` (9 corpus lines) means every crawler, which is `*` alone.
                    if letters.is_empty() && first.bytes().all(|b| b == b'*') {
                        Some("write `User-agent: *` for every crawler".into())
                    } else {
                        (!letters.is_empty()).then(|| format!("write `User-agent: {letters}`"))
                    },
                )
            }
            Code::AgentNamesNone => {
                let why = if text.is_empty() {
                    "an empty user-agent line names no crawler".to_owned()
                } else if self.behaviour.alpha_agent_tokens {
                    format!("`{text}` names no crawler: Google's matcher reads only its leading [A-Za-z_-] letters, and it has none")
                } else {
                    format!("`{text}` names no crawler: its product token, the text before the first `/` or space, is empty")
                };
                made(
                    format!("{why}, so it adds no crawler to its group"),
                    Some("write `User-agent: *` for every crawler, or a crawler's product token, e.g. `User-agent: ExampleBot`".into()),
                )
            }
            Code::AgentNotRfc9309 => made(
                format!(
                    "`{first}` has characters outside RFC 9309's [A-Za-z_-]; {}",
                    google_reads(product_token(first.as_bytes(), true))
                ),
                None,
            ),
            Code::PatternStart => {
                let (message, suggestion) = crate::advice::pattern_start(text, &self.behaviour);
                made(message, Some(suggestion))
            }
            // Info, not a warning: real paths hold `$` (Lotus Notes' `/$FILE/`, CMS ids
            // such as `/$b9015858-…$/`), and a literal `$` is what Google's matcher reads
            // too; `%24`, RFC 9309's spelling of it, matches nothing there in Google's.
            Code::DollarInside => fixed(
                "`$` anchors the end only as the last character; here it is a literal `$`, as Google reads it too",
                Some("nothing to do if the paths hold a `$`; to anchor the end, put `$` last"),
            ),
            Code::InvalidCrawlDelay => made(
                format!("Crawl-delay `{text}` is not a number of seconds"),
                Some("write the delay in seconds, e.g. `Crawl-delay: 10`".into()),
            ),
            Code::InvalidRequestRate => made(
                format!("Request-rate `{text}` is not `requests/seconds`"),
                Some("write e.g. `Request-rate: 1/10s` for one request every ten seconds".into()),
            ),
            Code::RelativeSitemap => made(
                format!("Sitemap `{text}` is not an absolute URL"),
                Some("write the full URL, e.g. `Sitemap: https://example.com/sitemap.xml`".into()),
            ),
            Code::InvalidEmbargo => made(
                format!("Archive-Embargo `{text}` is not w, m or q, so the line is ignored"),
                Some("use w (7 days), m (31 days) or q (90 days)".into()),
            ),
            Code::ConflictingEmbargo => made(
                format!(
                    "another Archive-Embargo applies to this group's crawlers, in this group or one merged with it; the longest, `{}`, applies",
                    char::from_u32(quote.number).unwrap_or('?')
                ),
                Some("keep one Archive-Embargo value per crawler".into()),
            ),
            Code::EmbargoAllowWithoutEmbargo => fixed(
                "Embargo-Allow is ignored: its group has no valid Archive-Embargo",
                Some("add `Archive-Embargo: w`, `m` or `q` to the group"),
            ),
            Code::MalformedContentUsage => made(
                format!("Content-Usage preference `{text}` is not an RFC 9651 Dictionary, so every category is unknown"),
                Some("write `key=y` or `key=n` pairs separated by commas, e.g. `train-ai=n, search=y`".into()),
            ),
            Code::UppercaseUsageKey => made(
                format!("Content-Usage preference `{text}` has an uppercase key, which fails the whole preference: every category is unknown"),
                Some("write keys in lower case, e.g. `train-ai=n`".into()),
            ),
            Code::UnknownUsageCategory => made(
                format!("Content-Usage category `{text}` is not one draft-ietf-aipref-vocab-07 defines, so it is ignored"),
                Some("use `train-ai` or `search`".into()),
            ),
            Code::PreferenceOutsideGroup => made(
                format!("`{first}` comes before any user-agent line, so it applies to no crawler"),
                Some("put it after the user-agent lines it is for, e.g. `User-agent: *`".into()),
            ),
            Code::InvalidContentSignal => made(
                format!("Content-Signal {text} is ignored: only search, ai-input and ai-train with yes or no count"),
                Some("write e.g. `Content-Signal: search=yes, ai-train=no`".into()),
            ),
            // Found by `Robots::lint`, which writes its own words; never kept.
            Code::ShadowedRule | Code::GroupWithoutRules | Code::EmbargoOnlyGroup => {
                fixed(finding.code.description(), None)
            }
        }
    }

    /// A key that a URL's colon ended because the line's own was left out
    /// (`Sitemap http://…`, `Disallow https://…`) or written full-width (`Sitemap：https://…`):
    /// 78 corpus lines. Read as a prefix, Google gets `//…` as the value, no URL and no
    /// path, so no crawler reads the line as meant; the fix is the colon, not the spelling.
    fn colon_words(
        &self,
        key: &str,
        rest: &str,
    ) -> Option<(Cow<'static, str>, Option<Cow<'static, str>>)> {
        if !rest.starts_with("//") {
            return None;
        }
        let (name, scheme, why) = match key.split_once('：') {
            Some((name, scheme)) => (name.trim_end(), scheme.trim_start(), "is full-width"),
            None => {
                let (name, scheme) = key.rsplit_once(|c: char| c.is_ascii_whitespace())?;
                (name.trim_end(), scheme, "is missing")
            }
        };
        if !(scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https")) {
            return None;
        }
        let url = format!("{scheme}:{rest}");
        let fix = match classify(name.as_bytes(), &self.behaviour).0 {
            Directive::Sitemap => format!("write `{name}: {url}`"),
            Directive::Allow | Directive::Disallow => format!(
                "write `{name}:` and {}",
                crate::advice::pattern_start(&url, &self.behaviour)
                    .1
                    .trim_start_matches("write ")
            ),
            _ => return None,
        };
        Some((
            format!("the colon after `{name}` {why}, so the URL's own colon ends the key: no crawler reads this line as meant").into(),
            Some(fix.into()),
        ))
    }

    /// A key that only Google reads, by its prefix: read so in the Google profile, and
    /// ignored in RFC 9309 (where the parser keeps it as a record).
    fn prefix_words(&self, key: &str) -> (Cow<'static, str>, Option<Cow<'static, str>>) {
        let google = classify(key.as_bytes(), &self.behaviour).1 == Spelling::Prefix;
        let name = read_as(
            key,
            if google {
                &self.behaviour
            } else {
                &Behaviour::GOOGLE
            },
        );
        let message = if google {
            format!("`{key}` is read as `{name}` by Google only, because it starts with `{name}`")
        } else {
            let key = lowercase_key(key);
            format!("`{key}` is ignored under RFC 9309, but Google reads it as `{name}` because it starts with `{name}`")
        };
        (message.into(), Some(format!("spell it `{name}`").into()))
    }
}

/// The name of the directive `key` is read as under `behaviour`.
/// What Google's matcher makes of a user-agent name, given the leading [A-Za-z_-]
/// letters it reads: a name with none names no crawler there, which a quoted empty
/// name would only hint at.
fn google_reads(letters: &str) -> String {
    if letters.is_empty() {
        "Google's matcher reads only leading [A-Za-z_-] letters, and it has none, so there it names no crawler".to_owned()
    } else {
        format!("Google's matcher reads it as `{letters}`")
    }
}

fn read_as(key: &str, behaviour: &Behaviour) -> &'static str {
    classify(key.as_bytes(), behaviour).0.name()
}
