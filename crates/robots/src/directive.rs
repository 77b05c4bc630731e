//! Recognising a line's key: which directive it names and whether it was misspelt.
//! RFC 9309 §2.2 keys are case-insensitive; the lenient spellings are those real files use.

use crate::behaviour::Behaviour;

/// What a `key: value` line is, by its key. Keys are compared ignoring ASCII case; the
/// RFC 9309 profile also accepts the misspellings real files use (`useragent`,
/// `disalow`, `site-map`…), and the Google profile any key that starts with a name
/// (`disallowed`). More directives may come to be recognised (taken from
/// [`Directive::Other`]), so matches need a `_` arm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Directive {
    /// `User-agent`: opens a group, naming the crawlers it is for.
    UserAgent,
    /// `Allow`: a rule allowing the paths its pattern matches.
    Allow,
    /// `Disallow`: a rule disallowing the paths its pattern matches.
    Disallow,
    /// `Sitemap`: the URL of a sitemap, whichever group it stands in.
    Sitemap,
    /// `Crawl-delay`: seconds to wait between requests (not in RFC 9309).
    CrawlDelay,
    /// `Request-rate`: `requests/time`, e.g. `1/5s` (not in RFC 9309).
    RequestRate,
    /// `Host`: the preferred host name (not in RFC 9309).
    Host,
    /// `Archive-Embargo`: the group's embargo period, `w`, `m` or `q` (RFC 9309 profile
    /// only; in the Google profile, an unknown key).
    ArchiveEmbargo,
    /// `Embargo-Allow`: an allow for agents honouring the group's embargo (RFC 9309
    /// profile only; in the Google profile, an unknown key).
    EmbargoAllow,
    /// `Content-Usage`: a rule stating AI usage preferences for a path
    /// (draft-ietf-aipref-attach-05 §3; RFC 9309 profile only).
    ContentUsage,
    /// `Content-Signal`: Cloudflare's usage signals for the group (contentsignals.org;
    /// RFC 9309 profile only). A record: it does not end a group.
    ContentSignal,
    /// Any other key; the line is kept as a record.
    Other,
}

impl Directive {
    /// The directive's canonical spelling (`other` for unknown keys).
    pub fn name(self) -> &'static str {
        match self {
            Directive::UserAgent => "user-agent",
            Directive::Allow => "allow",
            Directive::Disallow => "disallow",
            Directive::Sitemap => "sitemap",
            Directive::CrawlDelay => "crawl-delay",
            Directive::RequestRate => "request-rate",
            Directive::Host => "host",
            Directive::ArchiveEmbargo => "archive-embargo",
            Directive::EmbargoAllow => "embargo-allow",
            Directive::ContentUsage => "content-usage",
            Directive::ContentSignal => "content-signal",
            Directive::Other => "other",
        }
    }
}

/// How a recognised key was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Spelling {
    Exact,
    /// A misspelling accepted on purpose (`useragent`, `disalow`, `site-map`, …).
    Lenient,
    /// Recognised only because it starts with a directive name (Google's reading).
    Prefix,
}

/// Names and accepted misspellings, in the order Google tries them.
const USER_AGENT: (&str, &[&str]) = ("user-agent", &["useragent", "user agent"]);
const ALLOW: (&str, &[&str]) = ("allow", &[]);
const DISALLOW: (&str, &[&str]) = (
    "disallow",
    &["dissallow", "dissalow", "disalow", "diasllow", "disallaw"],
);
const SITEMAP: (&str, &[&str]) = ("sitemap", &["site-map"]);
const CRAWL_DELAY: (&str, &[&str]) = ("crawl-delay", &["crawldelay", "crawl delay"]);
const REQUEST_RATE: (&str, &[&str]) = ("request-rate", &["requestrate", "request rate"]);
const HOST: (&str, &[&str]) = ("host", &[]);
const ARCHIVE_EMBARGO: (&str, &[&str]) = ("archive-embargo", &[]);
const EMBARGO_ALLOW: (&str, &[&str]) = ("embargo-allow", &[]);
const CONTENT_USAGE: (&str, &[&str]) = ("content-usage", &[]);
const CONTENT_SIGNAL: (&str, &[&str]) = ("content-signal", &[]);

/// Classifies a trimmed key under the given behaviour. The common case is inlined into
/// the parser's loop over lines; a call for every line cost more than the test itself.
#[inline(always)]
pub(crate) fn classify(key: &[u8], behaviour: &Behaviour) -> (Directive, Spelling) {
    match spelt_exactly(key) {
        Some(directive) => (directive, Spelling::Exact),
        None => classify_other(key, behaviour),
    }
}

/// Classifies a key that is not one of Google's four spelt exactly.
#[inline(never)]
fn classify_other(key: &[u8], behaviour: &Behaviour) -> (Directive, Spelling) {
    // Google's four directives, by prefix when the profile reads keys that way.
    let google_four = [
        (Directive::UserAgent, USER_AGENT),
        (Directive::Allow, ALLOW),
        (Directive::Disallow, DISALLOW),
        (Directive::Sitemap, SITEMAP),
    ];
    for (directive, names) in google_four {
        if let Some(spelling) = spelled(key, names, behaviour.key_prefixes) {
            return (directive, spelling);
        }
    }
    let extras: &[(Directive, (&str, &[&str]))] = if behaviour.no_embargo {
        &[
            (Directive::CrawlDelay, CRAWL_DELAY),
            (Directive::RequestRate, REQUEST_RATE),
            (Directive::Host, HOST),
        ]
    } else {
        &[
            (Directive::CrawlDelay, CRAWL_DELAY),
            (Directive::RequestRate, REQUEST_RATE),
            (Directive::Host, HOST),
            (Directive::ArchiveEmbargo, ARCHIVE_EMBARGO),
            (Directive::EmbargoAllow, EMBARGO_ALLOW),
            (Directive::ContentUsage, CONTENT_USAGE),
            (Directive::ContentSignal, CONTENT_SIGNAL),
        ]
    };
    for &(directive, names) in extras {
        if let Some(spelling) = spelled(key, names, false) {
            return (directive, spelling);
        }
    }
    (Directive::Other, Spelling::Exact)
}

/// The common case, found by length and one comparison: one of Google's four directives
/// spelt exactly, which every profile reads.
fn spelt_exactly(key: &[u8]) -> Option<Directive> {
    let (directive, name) = match key.len() {
        5 => (Directive::Allow, ALLOW.0),
        7 => (Directive::Sitemap, SITEMAP.0),
        8 => (Directive::Disallow, DISALLOW.0),
        10 => (Directive::UserAgent, USER_AGENT.0),
        _ => return None,
    };
    same_folded(key, name.as_bytes()).then_some(directive)
}

/// Whether two keys of the same length (4 to 16 octets) are equal once 0x20 is OR-ed
/// into each octet, which lower-cases letters and leaves `-` alone: they then are equal
/// ignoring case, or differ where one has `-` and the other CR (0x0D), which a line never
/// holds. So this stands for `eq_ignore_ascii_case` on directive names. The keys are
/// compared as two words that overlap in the middle, so nothing is copied.
fn same_folded(a: &[u8], b: &[u8]) -> bool {
    debug_assert!(a.len() == b.len() && (4..=16).contains(&a.len()));
    // `None` only past the end, which the lengths above rule out.
    fn word<const N: usize>(bytes: &[u8], at: usize) -> Option<[u8; N]> {
        let mut word = *bytes.get(at..)?.first_chunk::<N>()?;
        word.iter_mut().for_each(|b| *b |= 0x20);
        Some(word)
    }
    let n = a.len();
    if n >= 8 {
        word::<8>(a, 0) == word::<8>(b, 0) && word::<8>(a, n - 8) == word::<8>(b, n - 8)
    } else {
        word::<4>(a, 0) == word::<4>(b, 0) && word::<4>(a, n - 4) == word::<4>(b, n - 4)
    }
}

fn spelled(key: &[u8], (name, typos): (&str, &[&str]), by_prefix: bool) -> Option<Spelling> {
    // Every name and misspelling of a directive shares its first letter: most keys are
    // ruled out by one comparison.
    if key.first().map(u8::to_ascii_lowercase) != Some(name.as_bytes()[0]) {
        return None;
    }
    let is = |word: &str| {
        if by_prefix {
            key.len() >= word.len() && key[..word.len()].eq_ignore_ascii_case(word.as_bytes())
        } else {
            key.eq_ignore_ascii_case(word.as_bytes())
        }
    };
    if key.eq_ignore_ascii_case(name.as_bytes()) {
        Some(Spelling::Exact)
    } else if typos.iter().any(|t| is(t)) {
        Some(Spelling::Lenient)
    } else if is(name) {
        Some(Spelling::Prefix)
    } else {
        None
    }
}

/// The directive closest to a misspelt key, for "did you mean" suggestions: one or two
/// edits away (Levenshtein), nearest first, among the directives `behaviour` reads (so
/// never an embargo rule in Google's reading, which knows none). Never the key itself:
/// a key spelt as a directive is not misspelt.
pub(crate) fn did_you_mean(key: &[u8], behaviour: &Behaviour) -> Option<&'static str> {
    const NAMES: [&str; 9] = [
        "user-agent",
        "allow",
        "disallow",
        "sitemap",
        "crawl-delay",
        "request-rate",
        "host",
        "archive-embargo",
        "embargo-allow",
    ];
    let key = key.to_ascii_lowercase();
    NAMES
        .iter()
        .filter(|n| classify(n.as_bytes(), behaviour).0 != Directive::Other)
        .map(|n| (edit_distance(&key, n.as_bytes()), *n))
        .filter(|(d, _)| (1..=2).contains(d))
        .min()
        .map(|(_, n)| n)
}

fn edit_distance(a: &[u8], b: &[u8]) -> usize {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Profile;

    fn rfc(key: &str) -> (Directive, Spelling) {
        classify(key.as_bytes(), &Profile::Rfc9309.behaviour())
    }
    fn google(key: &str) -> (Directive, Spelling) {
        classify(key.as_bytes(), &Profile::Google.behaviour())
    }

    #[test]
    fn exact_names_fold_like_eq_ignore_ascii_case() {
        for key in ["ALLOW", "Allow", "allow", "aLLoW"] {
            assert_eq!(spelt_exactly(key.as_bytes()), Some(Directive::Allow));
        }
        for key in ["allov", "allo@", "user_agent", "user\x0Dagent"] {
            let sure = key.as_bytes().eq_ignore_ascii_case(b"allow")
                || key.as_bytes().eq_ignore_ascii_case(b"user-agent");
            assert_eq!(
                spelt_exactly(key.as_bytes()).is_some(),
                sure || key.contains('\r')
            );
        }
    }

    #[test]
    fn keys_are_case_insensitive() {
        assert_eq!(rfc("USER-AGENT"), (Directive::UserAgent, Spelling::Exact));
        assert_eq!(rfc("DisAllow"), (Directive::Disallow, Spelling::Exact));
        assert_eq!(rfc("Archive-Embargo").0, Directive::ArchiveEmbargo);
    }

    #[test]
    fn lenient_spellings_are_accepted_and_marked() {
        assert_eq!(rfc("useragent"), (Directive::UserAgent, Spelling::Lenient));
        assert_eq!(rfc("user agent"), (Directive::UserAgent, Spelling::Lenient));
        assert_eq!(rfc("dissallow"), (Directive::Disallow, Spelling::Lenient));
        assert_eq!(rfc("site-map"), (Directive::Sitemap, Spelling::Lenient));
    }

    #[test]
    fn google_reads_keys_by_prefix_rfc_does_not() {
        assert_eq!(
            google("disallowed"),
            (Directive::Disallow, Spelling::Prefix)
        );
        assert_eq!(rfc("disallowed"), (Directive::Other, Spelling::Exact));
        assert_eq!(
            google("user-agents"),
            (Directive::UserAgent, Spelling::Prefix)
        );
    }

    #[test]
    fn google_knows_no_embargo_rules() {
        // Nor AI usage preferences: the Google profile keeps them as unknown records.
        assert_eq!(google("content-usage").0, Directive::Other);
        assert_eq!(google("content-signal").0, Directive::Other);
        assert_eq!(rfc("Content-Usage").0, Directive::ContentUsage);
        assert_eq!(rfc("content-signal").0, Directive::ContentSignal);
        assert_eq!(google("archive-embargo").0, Directive::Other);
        assert_eq!(google("embargo-allow").0, Directive::Other);
    }

    #[test]
    fn suggestions_are_near_misses_only() {
        let rfc = Profile::Rfc9309.behaviour();
        assert_eq!(did_you_mean(b"dissalow", &rfc), Some("disallow"));
        assert_eq!(did_you_mean(b"Crawl-Dealy", &rfc), Some("crawl-delay"));
        assert_eq!(did_you_mean(b"content-signal", &rfc), None);
        assert_eq!(
            did_you_mean(b"archive-embargoo", &rfc),
            Some("archive-embargo")
        );
        // Never the key itself, and never a name the profile does not read.
        assert_eq!(did_you_mean(b"Archive-Embargo", &rfc), None);
        let google = Profile::Google.behaviour();
        assert_eq!(did_you_mean(b"archive-embargo", &google), None);
        assert_eq!(did_you_mean(b"archive-embargoo", &google), None);
        assert_eq!(did_you_mean(b"embargo-alow", &google), None);
        assert_eq!(did_you_mean(b"crawl-dealy", &google), Some("crawl-delay"));
    }
}
