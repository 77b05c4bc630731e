//! What the parser noticed about a file: a stable code, a severity, where, and what to do.
//! Parsing never fails; everything it skipped, guessed or ignored is reported here.

use std::borrow::Cow;
use std::ops::Range;

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Worth knowing; the file means what its author wrote.
    Info,
    /// The file probably does not mean what its author wrote, or crawlers disagree on it.
    Warning,
    /// A line is ignored or cannot work as written.
    Error,
}

impl Severity {
    /// The lower-case name used in text and JSON output.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// The lower-case name, as [`Severity::name`] gives it.
impl std::fmt::Display for Severity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The stable kebab-case name, as [`Code::as_str`] gives it.
impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

macro_rules! codes {
    ($($variant:ident = $code:literal, $severity:ident, $doc:literal;)*) => {
        /// A stable identifier for each kind of diagnostic.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Code {
            $(#[doc = $doc] $variant,)*
        }

        impl Code {
            /// Every code, in documentation order.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The stable kebab-case name, e.g. `missing-colon`.
            pub fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $code,)* }
            }

            /// The severity this kind of diagnostic always has.
            pub fn severity(self) -> Severity {
                match self { $(Code::$variant => Severity::$severity,)* }
            }

            /// One sentence on what the code means.
            pub fn description(self) -> &'static str {
                match self { $(Code::$variant => $doc,)* }
            }
        }
    };
}

codes! {
    UnknownDirective = "unknown-directive", Warning, "A key that no crawler is known to read.";
    MisspeltDirective = "misspelt-directive", Warning, "A misspelt directive that is accepted anyway.";
    PrefixDirective = "prefixed-directive", Warning, "A key that only Google reads, because it starts with a directive name.";
    MissingColon = "missing-colon", Warning, "Key and value separated by white space instead of a colon.";
    JunkLine = "junk-line", Error, "A line that is neither a comment nor `key: value`.";
    RuleBeforeUserAgent = "rule-before-user-agent", Error, "A rule before any user-agent line, which no crawler applies.";
    PatternStart = "pattern-start", Warning, "A pattern that starts with neither `/` nor `*`, so it matches no path.";
    DollarInside = "dollar-inside", Info, "A `$` that is not at the end of its pattern, so it is a literal `$`.";
    InvalidEmbargo = "invalid-embargo", Error, "An Archive-Embargo value other than w, m or q; the line is ignored.";
    ConflictingEmbargo = "conflicting-embargo", Warning, "Several Archive-Embargo values for one crawler's groups; the longest applies.";
    EmbargoAllowWithoutEmbargo = "embargo-allow-without-embargo", Error, "Embargo-Allow in a group with no valid Archive-Embargo, so it is ignored.";
    EmbargoOnlyGroup = "embargo-only-group", Warning, "A group holding only Archive-Embargo and Embargo-Allow lines: its crawlers lose every `*` rule, and a crawler that does not honour the embargo sees an empty group.";
    MalformedContentUsage = "malformed-content-usage", Warning, "A Content-Usage preference that is not an RFC 9651 Dictionary, so every category is unknown (vocab-07 §6.5.1).";
    UppercaseUsageKey = "uppercase-usage-key", Warning, "A Content-Usage key with an uppercase letter, which fails the whole preference: keys are case-sensitive (vocab-07 §6.5.1).";
    UnknownUsageCategory = "unknown-usage-category", Info, "A Content-Usage key that draft-ietf-aipref-vocab-07 does not define (train-ai, search), which is ignored.";
    PreferenceOutsideGroup = "preference-outside-group", Error, "A Content-Usage or Content-Signal line before any user-agent line, which applies to no crawler.";
    InvalidContentSignal = "invalid-content-signal", Warning, "A Content-Signal key other than search, ai-input and ai-train, or a value other than yes or no, which is ignored.";
    IndexingRule = "indexing-rule", Warning, "A Noindex, Nofollow or Noarchive line, which no major crawler reads in robots.txt: Google stopped in 2019.";
    InvalidCrawlDelay = "invalid-crawl-delay", Error, "A Crawl-delay that is not a non-negative number of seconds.";
    InvalidRequestRate = "invalid-request-rate", Error, "A Request-rate that is not `requests/seconds` (optionally with s, m, h or d).";
    RelativeSitemap = "relative-sitemap", Warning, "A Sitemap that is not an absolute URL.";
    AgentWithVersion = "agent-with-version", Info, "A user-agent value with a version or more words, of which only the product token counts.";
    AgentWithWildcard = "agent-with-wildcard", Warning, "A user-agent name holding a `*`, which in RFC 9309 names no crawler: names are compared whole.";
    AgentNotRfc9309 = "agent-not-rfc9309", Info, "A user-agent name outside RFC 9309's [A-Za-z_-] characters.";
    AgentNamesNone = "agent-names-none", Warning, "A user-agent line whose product token is empty (`User-agent:` with no value, or `/1.0`), which names no crawler.";
    ShadowedRule = "shadowed-rule", Warning, "A rule that can never decide, because an identical or longer rule of the group always wins.";
    GroupWithoutRules = "group-without-rules", Warning, "A crawler named only by groups without rules, which frees it from every rule of the `*` group.";
    BlankLineBetweenGroups = "blank-line-between-groups", Warning, "A blank line before a user-agent line that joins it to the group above.";
    BeyondParseLimit = "beyond-parse-limit", Error, "Content beyond the parse limit, which crawlers ignore.";
    ByteOrderMark = "byte-order-mark", Info, "A UTF-8 byte-order mark at the start of the file.";
    GarbledByteOrderMark = "garbled-byte-order-mark", Error, "A byte-order mark encoded twice (`ï»¿`), which crawlers read as part of the first line.";
    NotUtf8 = "not-utf8", Warning, "Bytes that are not UTF-8 (RFC 9309 §2.2 wants UTF-8).";
    LooksLikeHtml = "looks-like-html", Error, "An HTML page served as robots.txt.";
}

/// One finding about one place in the file. More may be told about a finding later, so
/// the struct is not exhaustive.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Diagnostic {
    /// What kind of finding this is.
    pub code: Code,
    /// The 1-based line.
    pub line: u32,
    /// The 1-based column, in bytes.
    pub column: u32,
    /// The byte range in the file.
    pub span: Range<usize>,
    /// What is wrong, for a person. Fixed wording is not copied: parsed files are held
    /// by the thousand. Text it quotes from the file shows each octet that is not UTF-8
    /// as `\xE9`, as tools show the line, rather than as U+FFFD, which would hide it.
    pub message: Cow<'static, str>,
    /// What to do about it, if anything simple will do.
    pub suggestion: Option<Cow<'static, str>>,
}

impl Diagnostic {
    /// The severity of the diagnostic's code.
    pub fn severity(&self) -> Severity {
        self.code.severity()
    }
}
