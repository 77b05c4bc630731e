//! AI usage preferences as values: the vocabulary of draft-ietf-aipref-vocab-07 read from an
//! RFC 9651 Dictionary, Cloudflare's Content-Signal, and combining statements (vocab-07 §5.1).

/// One explicit preference for a category of use: vocab-07 §3 has three values, and the
/// third, "unknown", is the absence of one (`None` wherever a `Usage` is optional).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Usage {
    /// `y` (Content-Usage) or `yes` (Content-Signal): the use is allowed.
    Allowed,
    /// `n` (Content-Usage) or `no` (Content-Signal): the use is disallowed.
    Disallowed,
}

impl Usage {
    /// The Content-Usage token: `y` or `n` (vocab-07 §6.2).
    pub fn token(self) -> &'static str {
        match self {
            Usage::Allowed => "y",
            Usage::Disallowed => "n",
        }
    }

    /// The Content-Signal word: `yes` or `no` (contentsignals.org).
    pub fn word(self) -> &'static str {
        match self {
            Usage::Allowed => "yes",
            Usage::Disallowed => "no",
        }
    }

    /// Whether the use is allowed.
    pub fn allowed(self) -> bool {
        self == Usage::Allowed
    }

    /// vocab-07 §5.1 for one category: a disallow wins over an allow, and an allow over
    /// unknown ("the most restrictive preference applies").
    pub fn most_restrictive(a: Option<Usage>, b: Option<Usage>) -> Option<Usage> {
        a.max(b)
    }
}

/// A usage category of vocab-07 §4, by its label (§6.1). vocab-07 has no hierarchy (its
/// §4 is a flat list; vocab-06's nesting was removed), so neither implies the other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Category {
    /// `train-ai`: AI Model Training (vocab-07 §4.1).
    TrainAi,
    /// `search`: Search (vocab-07 §4.2).
    Search,
}

impl Category {
    /// Every category vocab-07 defines, in its order.
    pub const ALL: [Category; 2] = [Category::TrainAi, Category::Search];

    /// The label, as the Dictionary key writes it (case-sensitive, vocab-07 §6.1).
    pub fn label(self) -> &'static str {
        match self {
            Category::TrainAi => "train-ai",
            Category::Search => "search",
        }
    }

    /// The category a Dictionary key names, if vocab-07 defines it.
    pub fn of_label(key: &[u8]) -> Option<Category> {
        Category::ALL
            .into_iter()
            .find(|c| c.label().as_bytes() == key)
    }
}

/// A statement of preference (vocab-07 §3): per category allowed, disallowed or unknown.
/// Parsed from the `Content-Usage` HTTP header or a robots.txt rule's preference.
///
/// ```
/// use robots::{Category, Preferences, Usage};
/// // vocab-07 §6.5.2: only the last `train-ai` counts, and its parameters are ignored.
/// let p = Preferences::parse(b"train-ai;allow=n, train-ai=y, search=n");
/// assert_eq!(p.get(Category::TrainAi), Some(Usage::Allowed));
/// assert_eq!(p.get(Category::Search), Some(Usage::Disallowed));
/// // vocab-07 §6.5.1: an uppercase key fails the whole Dictionary.
/// assert!(Preferences::parse(b"search=y, Train-AI=n").is_unknown());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Preferences {
    train_ai: Option<Usage>,
    search: Option<Usage>,
}

impl Preferences {
    /// Every category unknown: what a missing or unparseable statement gives.
    pub const UNKNOWN: Preferences = Preferences {
        train_ai: None,
        search: None,
    };

    /// Reads a statement as vocab-07 §6.5 says: an RFC 9651 Dictionary (leading and
    /// trailing spaces allowed, RFC 9651 §4.2); for each category, a Token `y` or `n`
    /// ignoring parameters, anything else unknown; the last of duplicate keys wins;
    /// unknown keys ignored (§6.4). If the Dictionary does not parse, every category is
    /// unknown (§6.5.1).
    pub fn parse(bytes: &[u8]) -> Preferences {
        Preferences::try_parse(bytes).unwrap_or_default()
    }

    /// [`Preferences::parse`], telling a Dictionary that does not parse from one that
    /// states nothing.
    pub fn try_parse(bytes: &[u8]) -> Result<Preferences, MalformedDictionary> {
        let mut prefs = Preferences::UNKNOWN;
        parse_dictionary(bytes, |key, token| {
            if let Some(category) = Category::of_label(key) {
                let usage = match token {
                    Some(b"y") => Some(Usage::Allowed),
                    Some(b"n") => Some(Usage::Disallowed),
                    _ => None,
                };
                prefs.set(category, usage);
            }
        })?;
        Ok(prefs)
    }

    /// The `Content-Usage` HTTP header (attach-05 §2) from its field lines, joined with
    /// commas before parsing as RFC 9651 §4.2 asks: the last duplicate key across lines
    /// wins, and one bad line loses the whole field.
    ///
    /// ```
    /// use robots::{Category, Preferences, Usage};
    /// let p = Preferences::from_header_lines(["train-ai=n", "search=y, train-ai=y"]);
    /// assert_eq!(p.get(Category::TrainAi), Some(Usage::Allowed));
    /// assert!(Preferences::from_header_lines(["search=y", "Search=n"]).is_unknown());
    /// ```
    pub fn from_header_lines(lines: impl IntoIterator<Item = impl AsRef<[u8]>>) -> Preferences {
        let mut joined = Vec::new();
        for (i, line) in lines.into_iter().enumerate() {
            if i > 0 {
                joined.extend_from_slice(b", ");
            }
            joined.extend_from_slice(line.as_ref());
        }
        Preferences::parse(&joined)
    }

    /// The preference for `category`; `None` is unknown.
    pub fn get(&self, category: Category) -> Option<Usage> {
        match category {
            Category::TrainAi => self.train_ai,
            Category::Search => self.search,
        }
    }

    fn set(&mut self, category: Category, usage: Option<Usage>) {
        match category {
            Category::TrainAi => self.train_ai = usage,
            Category::Search => self.search = usage,
        }
    }

    /// The categories stated explicitly, in [`Category::ALL`] order.
    pub fn stated(&self) -> impl Iterator<Item = (Category, Usage)> + '_ {
        Category::ALL
            .into_iter()
            .filter_map(|c| self.get(c).map(|u| (c, u)))
    }

    /// Every category unknown.
    pub fn is_unknown(&self) -> bool {
        self.stated().next().is_none()
    }

    /// Two statements combined as vocab-07 §5.1 says, per category: a disallow wins, then
    /// an allow, else unknown. Used for robots.txt rules with the same path (attach-05
    /// §3.1) and for robots.txt with the HTTP header.
    ///
    /// ```
    /// use robots::{Category, Preferences, Usage};
    /// let robots_txt = Preferences::parse(b"train-ai=n");
    /// let header = Preferences::parse(b"train-ai=y, search=y");
    /// let both = robots_txt.combine(header);
    /// assert_eq!(both.get(Category::TrainAi), Some(Usage::Disallowed));
    /// assert_eq!(both.get(Category::Search), Some(Usage::Allowed));
    /// ```
    pub fn combine(self, other: Preferences) -> Preferences {
        let mut out = Preferences::UNKNOWN;
        for c in Category::ALL {
            out.set(c, Usage::most_restrictive(self.get(c), other.get(c)));
        }
        out
    }
}

/// Written as the Dictionary it reads from: `train-ai=n, search=y` (stated categories only).
impl std::fmt::Display for Preferences {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, (c, u)) in self.stated().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{}={}", c.label(), u.token())?;
        }
        Ok(())
    }
}

/// Why a statement of preference is not an RFC 9651 Dictionary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MalformedDictionary {
    /// A key holds an uppercase letter (vocab-07 §6.5.1 names this case: keys are
    /// case-sensitive, and RFC 9651 keys are lowercase).
    UppercaseKey,
    /// Anything else RFC 9651 §4.2.2 refuses (a trailing comma, spaces around `=`, a bad
    /// value).
    Syntax,
}

/// A Content-Usage rule's value cut into its path and its statement of preference
/// (attach-05 §3.2): a value starting with `/` has a path, which ends before the first SP
/// or HTAB; the separating run of SP and HTAB is dropped (the §3 ABNF puts `1*WS` outside
/// the preference, and the §3.4 example needs it dropped). Any other value is all
/// preference, without a path.
pub(crate) fn split_usage(value: &[u8]) -> (Option<&[u8]>, &[u8]) {
    if value.first() != Some(&b'/') {
        return (None, value);
    }
    let end = value
        .iter()
        .position(|&b| b == b' ' || b == b'\t')
        .unwrap_or(value.len());
    let (path, rest) = value.split_at(end);
    let skip = rest
        .iter()
        .position(|&b| b != b' ' && b != b'\t')
        .unwrap_or(rest.len());
    (Some(path), &rest[skip..])
}

/// Parses an RFC 9651 field value as a Dictionary (§4.2 with §4.2.2), calling `each` with
/// every member's key and, if its value is a Token, the token (parameters are read and
/// dropped). Nothing is kept here: the caller keeps the last of each key, and drops
/// everything on an error.
pub(crate) fn parse_dictionary(
    input: &[u8],
    mut each: impl FnMut(&[u8], Option<&[u8]>),
) -> Result<(), MalformedDictionary> {
    let mut p = Cursor { s: input, at: 0 };
    // §4.2: leading and trailing SP are discarded.
    p.skip(|b| b == b' ');
    let mut members: Vec<(&[u8], Option<&[u8]>)> = Vec::new();
    let end = |p: &Cursor| p.s[p.at..].iter().all(|&b| b == b' ');
    if !end(&p) {
        loop {
            let key = p.key()?;
            let token = if p.eat(b'=') {
                if p.peek() == Some(b'(') {
                    p.inner_list()?;
                    None
                } else {
                    p.bare_item()?
                }
            } else {
                None
            };
            p.parameters()?;
            members.push((key, token));
            // §4.2.2 step 2.5–2.10: OWS, then the end or a comma, then OWS and more.
            p.skip(|b| b == b' ' || b == b'\t');
            if p.at == p.s.len() || end(&p) {
                break;
            }
            if !p.eat(b',') {
                return Err(MalformedDictionary::Syntax);
            }
            p.skip(|b| b == b' ' || b == b'\t');
            if p.at == p.s.len() {
                return Err(MalformedDictionary::Syntax);
            }
        }
    }
    for (key, token) in members {
        each(key, token);
    }
    Ok(())
}

struct Cursor<'a> {
    s: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.at).copied()
    }

    fn eat(&mut self, b: u8) -> bool {
        let hit = self.peek() == Some(b);
        self.at += usize::from(hit);
        hit
    }

    fn skip(&mut self, class: impl Fn(u8) -> bool) -> &'a [u8] {
        let start = self.at;
        while self.peek().is_some_and(&class) {
            self.at += 1;
        }
        &self.s[start..self.at]
    }

    /// §4.2.3.3: `( lcalpha / "*" ) *( lcalpha / DIGIT / "_" / "-" / "." / "*" )`.
    fn key(&mut self) -> Result<&'a [u8], MalformedDictionary> {
        match self.peek() {
            Some(b) if b.is_ascii_lowercase() || b == b'*' => {}
            Some(b) if b.is_ascii_uppercase() => return Err(MalformedDictionary::UppercaseKey),
            _ => return Err(MalformedDictionary::Syntax),
        }
        let key = self.skip(|b| {
            b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'_' | b'-' | b'.' | b'*')
        });
        if self.peek().is_some_and(|b| b.is_ascii_uppercase()) {
            return Err(MalformedDictionary::UppercaseKey);
        }
        Ok(key)
    }

    /// §4.2.3.2: `*( ";" *SP key [ "=" bare-item ] )`.
    fn parameters(&mut self) -> Result<(), MalformedDictionary> {
        while self.eat(b';') {
            self.skip(|b| b == b' ');
            self.key()?;
            if self.eat(b'=') {
                self.bare_item()?;
            }
        }
        Ok(())
    }

    /// §4.2.1.2: `( *SP item *( 1*SP item ) *SP )`, then parameters.
    fn inner_list(&mut self) -> Result<(), MalformedDictionary> {
        self.eat(b'(');
        loop {
            self.skip(|b| b == b' ');
            if self.eat(b')') {
                return self.parameters();
            }
            self.bare_item()?;
            self.parameters()?;
            if !matches!(self.peek(), Some(b' ' | b')')) {
                return Err(MalformedDictionary::Syntax);
            }
        }
    }

    /// §4.2.3.1: a bare item; the token if it is a Token.
    fn bare_item(&mut self) -> Result<Option<&'a [u8]>, MalformedDictionary> {
        let bad = Err(MalformedDictionary::Syntax);
        match self.peek() {
            Some(b'-' | b'0'..=b'9') => self.number().map(|_| None),
            Some(b'"') => self.string().map(|_| None),
            Some(b) if b.is_ascii_alphabetic() || b == b'*' => {
                // §4.2.6: tchar, `:` and `/`.
                let token = self.skip(|b| is_tchar(b) || b == b':' || b == b'/');
                Ok(Some(token))
            }
            Some(b':') => {
                self.at += 1;
                self.skip(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='));
                if self.eat(b':') {
                    Ok(None)
                } else {
                    bad
                }
            }
            Some(b'?') => {
                self.at += 1;
                if self.eat(b'0') || self.eat(b'1') {
                    Ok(None)
                } else {
                    bad
                }
            }
            Some(b'@') => {
                self.at += 1;
                match self.number()? {
                    true => bad,
                    false => Ok(None),
                }
            }
            Some(b'%') => {
                self.at += 1;
                self.display_string().map(|_| None)
            }
            _ => bad,
        }
    }

    /// §4.2.4: an Integer (at most 15 digits) or Decimal (at most 12 digits, `.`, 1–3
    /// digits); whether it was a Decimal.
    fn number(&mut self) -> Result<bool, MalformedDictionary> {
        let bad = Err(MalformedDictionary::Syntax);
        self.eat(b'-');
        let whole = self.skip(|b| b.is_ascii_digit()).len();
        if whole == 0 {
            return bad;
        }
        if !self.eat(b'.') {
            return if whole <= 15 { Ok(false) } else { bad };
        }
        let fraction = self.skip(|b| b.is_ascii_digit()).len();
        if whole <= 12 && (1..=3).contains(&fraction) {
            Ok(true)
        } else {
            bad
        }
    }

    /// §4.2.5: `"…"`, printable ASCII, `\"` and `\\` escapes only.
    fn string(&mut self) -> Result<(), MalformedDictionary> {
        self.eat(b'"');
        loop {
            match self.peek() {
                Some(b'"') => {
                    self.at += 1;
                    return Ok(());
                }
                Some(b'\\') => {
                    self.at += 1;
                    if !(self.eat(b'"') || self.eat(b'\\')) {
                        return Err(MalformedDictionary::Syntax);
                    }
                }
                Some(0x20..=0x7E) => self.at += 1,
                _ => return Err(MalformedDictionary::Syntax),
            }
        }
    }

    /// §4.2.10: `%"…"`, with lowercase `%xx` escapes that must make UTF-8.
    fn display_string(&mut self) -> Result<(), MalformedDictionary> {
        let bad = Err(MalformedDictionary::Syntax);
        if !self.eat(b'"') {
            return bad;
        }
        let mut bytes = Vec::new();
        loop {
            match self.peek() {
                Some(b'"') => {
                    self.at += 1;
                    return match std::str::from_utf8(&bytes) {
                        Ok(_) => Ok(()),
                        Err(_) => bad,
                    };
                }
                Some(b'%') => {
                    let hex = |b: u8| match b {
                        b'0'..=b'9' => Some(b - b'0'),
                        b'a'..=b'f' => Some(b - b'a' + 10),
                        _ => None,
                    };
                    let hi = self.s.get(self.at + 1).copied().and_then(hex);
                    let lo = self.s.get(self.at + 2).copied().and_then(hex);
                    let (Some(hi), Some(lo)) = (hi, lo) else {
                        return bad;
                    };
                    bytes.push(hi << 4 | lo);
                    self.at += 3;
                }
                Some(b @ 0x20..=0x7E) => {
                    bytes.push(b);
                    self.at += 1;
                }
                _ => return bad,
            }
        }
    }
}

/// RFC 9110 §5.6.2 tchar.
fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || matches!(
            b,
            b'!' | b'#'
                | b'$'
                | b'%'
                | b'&'
                | b'\''
                | b'*'
                | b'+'
                | b'-'
                | b'.'
                | b'^'
                | b'_'
                | b'`'
                | b'|'
                | b'~'
        )
}

/// A key of Cloudflare's Content-Signal (draft-romm-aipref-contentsignals-00 §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum SignalKey {
    /// `search`: building a search index and providing search results (§3.1).
    Search,
    /// `ai-input`: inputting content into AI models, e.g. retrieval-augmented generation (§3.2).
    AiInput,
    /// `ai-train`: training or fine-tuning AI models (§3.3).
    AiTrain,
}

impl SignalKey {
    /// The three keys, in the order contentsignals.org lists them.
    pub const ALL: [SignalKey; 3] = [SignalKey::Search, SignalKey::AiInput, SignalKey::AiTrain];

    /// The key as written.
    pub fn label(self) -> &'static str {
        match self {
            SignalKey::Search => "search",
            SignalKey::AiInput => "ai-input",
            SignalKey::AiTrain => "ai-train",
        }
    }
}

/// What a `Content-Signal` value states: per key `yes`, `no`, or nothing (the policy's
/// clause (c): neither granted nor restricted).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Signals {
    values: [Option<Usage>; 3],
}

/// What does not count in a `Content-Signal` value, for lint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SignalIssue<'a> {
    /// A key other than the three.
    UnknownKey(&'a str),
    /// A value other than `yes` or `no` (for a known key).
    BadValue(&'a str, &'a str),
}

impl Signals {
    /// Reads `search=yes, ai-input=yes, ai-train=no`: members split at `,`, key and value
    /// at `=`, white space trimmed, keys and values compared ignoring ASCII case (the
    /// policy defines no grammar; RFC 9309 §2.2.4 lets crawlers be lenient with other
    /// records). Other keys and values are ignored; of a key given twice, the last counts.
    ///
    /// ```
    /// use robots::{SignalKey, Signals, Usage};
    /// let s = Signals::parse("search=yes,ai-train=no,use=reference");
    /// assert_eq!(s.get(SignalKey::AiTrain), Some(Usage::Disallowed));
    /// assert_eq!(s.get(SignalKey::AiInput), None);
    /// ```
    pub fn parse(value: &str) -> Signals {
        Signals::parse_noting(value, |_| {})
    }

    pub(crate) fn parse_noting<'a>(
        value: &'a str,
        mut note: impl FnMut(SignalIssue<'a>),
    ) -> Signals {
        let mut signals = Signals::default();
        for member in value.split(',') {
            let member = member.trim();
            if member.is_empty() {
                continue;
            }
            let (key, val) = member.split_once('=').unwrap_or((member, ""));
            let (key, val) = (key.trim(), val.trim());
            let Some(k) = SignalKey::ALL
                .into_iter()
                .find(|k| k.label().eq_ignore_ascii_case(key))
            else {
                note(SignalIssue::UnknownKey(key));
                continue;
            };
            let usage = if val.eq_ignore_ascii_case("yes") {
                Some(Usage::Allowed)
            } else if val.eq_ignore_ascii_case("no") {
                Some(Usage::Disallowed)
            } else {
                note(SignalIssue::BadValue(key, val));
                continue;
            };
            signals.values[k as usize] = usage;
        }
        signals
    }

    /// The value given for `key`; `None` when not given (or not `yes`/`no`).
    pub fn get(&self, key: SignalKey) -> Option<Usage> {
        self.values[key as usize]
    }

    /// The keys given a value, in [`SignalKey::ALL`] order.
    pub fn stated(&self) -> impl Iterator<Item = (SignalKey, Usage)> + '_ {
        SignalKey::ALL
            .into_iter()
            .filter_map(|k| self.get(k).map(|u| (k, u)))
    }

    /// Per key, `no` over `yes` over nothing: how several lines of the agent's merged
    /// groups combine (the policy says nothing; this follows vocab-07 §5.1).
    pub fn combine(self, other: Signals) -> Signals {
        let mut out = Signals::default();
        for k in SignalKey::ALL {
            out.values[k as usize] = Usage::most_restrictive(self.get(k), other.get(k));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(input: &str) -> Result<Vec<(String, Option<String>)>, MalformedDictionary> {
        let mut out = Vec::new();
        parse_dictionary(input.as_bytes(), |k, t| {
            out.push((
                String::from_utf8_lossy(k).into_owned(),
                t.map(|t| String::from_utf8_lossy(t).into_owned()),
            ))
        })?;
        Ok(out)
    }

    #[test]
    fn rfc9651_dictionaries_that_parse() {
        // §4.2.2: OWS around commas; a bare key is Boolean true (no token).
        assert_eq!(
            keys("a=y ,b,\tc=?0").unwrap(),
            [
                ("a".into(), Some("y".into())),
                ("b".into(), None),
                ("c".into(), None)
            ]
        );
        assert!(keys("").unwrap().is_empty());
        assert!(keys("   ").unwrap().is_empty());
        for ok in [
            "a=1, b=-2.5, c=\"s \\\"q\\\"\", d=:aGk=:, e=(1 x \"y\");p, f=@17, g=%\"%c3%a9\"",
            "a;p=1;q, b=tok/x:y",
            "*x=y",
        ] {
            assert!(keys(ok).is_ok(), "{ok}");
        }
    }

    #[test]
    fn rfc9651_dictionaries_that_fail() {
        // vocab-07 §6.5.1 names uppercase keys; RFC 9651 §4.2.2 the rest.
        assert_eq!(
            keys("search=y, Train-AI=n"),
            Err(MalformedDictionary::UppercaseKey)
        );
        assert_eq!(keys("trAin=y"), Err(MalformedDictionary::UppercaseKey));
        for bad in [
            "a=y,",
            "a=y b=n",
            "train-ai = n",
            "train-ai= n",
            "a=\"unterminated",
            "a=1.2345",
            "a=?2",
            "1a=y",
            "a=y;",
            "a=(y",
            "a=%\"%C3\"",
            ",a=y",
        ] {
            assert_eq!(keys(bad), Err(MalformedDictionary::Syntax), "{bad}");
        }
    }

    #[test]
    fn vocab07_processing_section_6_5() {
        // §6.5: only Tokens `y` and `n`; `yes`, `Y`, `"n"`, `?0`, `(n)`, a bare key: unknown.
        for unknown in [
            "train-ai=yes",
            "train-ai=Y",
            "train-ai=\"n\"",
            "train-ai=?0",
            "train-ai=(n)",
            "train-ai",
        ] {
            assert_eq!(
                Preferences::parse(unknown.as_bytes()).get(Category::TrainAi),
                None,
                "{unknown}"
            );
        }
        // §6.5.1 example: all four end unknown.
        assert!(Preferences::parse(b"train-ai=y, train-ai, search=n, search=\"n\"").is_unknown());
        // §6.4: unknown labels are ignored.
        let p = Preferences::parse(b"foo=n, search=y");
        assert_eq!(
            p.stated().collect::<Vec<_>>(),
            [(Category::Search, Usage::Allowed)]
        );
        assert_eq!(p.to_string(), "search=y");
    }

    #[test]
    fn combining_is_most_restrictive_per_category_vocab07_5_1() {
        let a = Preferences::parse(b"train-ai=y, search=n");
        let b = Preferences::parse(b"train-ai=n");
        let c = a.combine(b);
        assert_eq!(c.get(Category::TrainAi), Some(Usage::Disallowed));
        assert_eq!(c.get(Category::Search), Some(Usage::Disallowed));
        assert_eq!(Preferences::UNKNOWN.combine(a), a);
        assert_eq!(a.combine(b), b.combine(a));
    }

    #[test]
    fn content_signals_read_three_keys_yes_or_no() {
        let mut issues = Vec::new();
        let s = Signals::parse_noting(
            "search=yes, ai-input=maybe, AI-Train=NO, use=reference",
            |i| issues.push(format!("{i:?}")),
        );
        assert_eq!(s.get(SignalKey::Search), Some(Usage::Allowed));
        assert_eq!(s.get(SignalKey::AiInput), None);
        assert_eq!(s.get(SignalKey::AiTrain), Some(Usage::Disallowed));
        assert_eq!(issues.len(), 2, "{issues:?}");
        let merged = s.combine(Signals::parse("search=no"));
        assert_eq!(merged.get(SignalKey::Search), Some(Usage::Disallowed));
    }
}
