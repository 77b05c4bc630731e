//! The crawler's identity: its product token (RFC 9309 §2.2.1) and whether it honours
//! Archive-Embargo; plus reading product tokens out of user-agent lines.

use crate::user_agent::{crawler_in_header, is_tchar};
use crate::Error;

/// A crawler, as robots.txt groups name it.
///
/// ```
/// use robots::Agent;
/// let a = Agent::new("ExampleBot").unwrap();
/// assert_eq!(a.token(), "ExampleBot");
/// let b = Agent::from_user_agent("Mozilla/5.0 (compatible; ExampleBot/2.1; +https://x.test)").unwrap();
/// assert_eq!(b.token(), "ExampleBot");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Agent {
    /// The name as given, which the Google profile compares verbatim.
    given: Box<str>,
    /// The product token, which the RFC 9309 profile compares.
    token: Box<str>,
    /// The [`name_mix`] of `given` and of `token`, worked out once here rather than on
    /// every check that chooses groups for the agent.
    mixes: [u32; 2],
    honours_embargo: bool,
}

impl Agent {
    /// A crawler named by its product token, e.g. `ExampleBot`.
    ///
    /// The token must be a non-empty HTTP token (RFC 9110 §5.6.2). RFC 9309 §2.2.1 asks
    /// for `[A-Za-z_-]` only; real crawlers such as `MJ12bot` break that rule, so such a
    /// token is accepted and [`Agent::is_rfc9309_token`] says it is outside the rule.
    ///
    /// # Errors
    ///
    /// [`Error::EmptyAgent`] for `""`; [`Error::InvalidAgent`] for a name holding a
    /// character no HTTP token holds, such as the space and `/` of a whole User-Agent
    /// header (which [`Agent::from_user_agent`] reads).
    ///
    /// ```
    /// use robots::{Agent, Error};
    /// assert!(!Agent::new("MJ12bot").unwrap().is_rfc9309_token());
    /// assert_eq!(Agent::new(""), Err(Error::EmptyAgent));
    /// assert!(matches!(Agent::new("ExampleBot/2.1"), Err(Error::InvalidAgent { character: '/', .. })));
    /// ```
    pub fn new(token: &str) -> Result<Agent, Error> {
        if token.is_empty() {
            return Err(Error::EmptyAgent);
        }
        if let Some(bad) = token.chars().find(|&c| !is_tchar(c)) {
            return Err(Error::InvalidAgent {
                agent: token.to_owned(),
                character: bad,
            });
        }
        Ok(Agent::of(token.into(), token.into()))
    }

    /// The crawler named in a full `User-Agent` header value: the item after
    /// `compatible` in a comment, else the one by a `+http…` link in a comment, else the
    /// first product no browser sends, else the first product. So
    /// `Mozilla/5.0 (compatible; ExampleBot/2.1; +https://x)` names `ExampleBot`, and
    /// Googlebot Smartphone's header, which copies a phone browser's, names `Googlebot`.
    ///
    /// ```
    /// use robots::Agent;
    /// let phone = "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) \
    ///     AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.71 Mobile Safari/537.36 \
    ///     (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
    /// assert_eq!(Agent::from_user_agent(phone).unwrap().token(), "Googlebot");
    /// assert_eq!(Agent::from_user_agent("ia_archiver").unwrap().token(), "ia_archiver");
    /// assert!(Agent::from_user_agent("(compatible)").is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::NoProductInUserAgent`] when the header holds no product token: it is
    /// blank, holds only comments, or its products are not HTTP tokens.
    pub fn from_user_agent(header: &str) -> Result<Agent, Error> {
        crawler_in_header(header)
            .ok_or_else(|| Error::NoProductInUserAgent(header.to_owned()))
            .and_then(Agent::new)
    }

    /// The name exactly as given, unchecked, as Google's matcher takes it: it may be
    /// empty or carry a version, and then matches no group (or, when empty, only a
    /// user-agent line whose value starts outside `[A-Za-z_-]`). The RFC 9309 profile
    /// compares its product token, the text up to the first white space or `/`.
    pub fn verbatim(name: &str) -> Agent {
        Agent::of(name.into(), product_token(name.as_bytes(), false).into())
    }

    fn of(given: Box<str>, token: Box<str>) -> Agent {
        let mix = |name: &str| name_mix(name.as_bytes()) as u32;
        Agent {
            mixes: [mix(&given), mix(&token)],
            given,
            token,
            honours_embargo: false,
        }
    }

    /// The [`name_mix`] of the name as given (`verbatim`) or of the product token.
    pub(crate) fn mix(&self, verbatim: bool) -> usize {
        self.mixes[usize::from(!verbatim)] as usize
    }

    /// This agent, declaring that it honours Archive-Embargo: embargo rules then apply
    /// to it and its verdicts carry the embargo, in the RFC 9309 profile only. The
    /// Google profile ignores it ([`Robots::check`](crate::Robots::check) says why),
    /// and the fallible entry points that take a profile and an agent refuse the pair.
    pub fn honouring_embargo(mut self) -> Agent {
        self.honours_embargo = true;
        self
    }

    /// The product token compared with user-agent lines in the RFC 9309 profile.
    pub fn token(&self) -> &str {
        &self.token
    }

    /// The name as given, compared verbatim in the Google profile.
    pub fn name(&self) -> &str {
        &self.given
    }

    /// Whether this crawler honours Archive-Embargo.
    pub fn honours_embargo(&self) -> bool {
        self.honours_embargo
    }

    /// Whether the token keeps to RFC 9309's `[A-Za-z_-]+`.
    pub fn is_rfc9309_token(&self) -> bool {
        !self.token.is_empty() && self.token.bytes().all(is_rfc_token_byte)
    }
}

impl std::fmt::Display for Agent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.given)
    }
}

fn is_rfc_token_byte(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'-' || b == b'_'
}

/// The product token a user-agent line names. With `alpha_only` (Google), the leading
/// run of `[A-Za-z_-]`; otherwise the text up to the first white space or `/`.
pub(crate) fn product_token(value: &[u8], alpha_only: bool) -> &str {
    // Both cuts stop at ASCII, but a non-UTF-8 token can still follow; such a token
    // names no valid agent, so an empty string (which matches nothing valid) stands in.
    std::str::from_utf8(&value[..product_token_len(value, alpha_only)]).unwrap_or("")
}

/// How many octets of `value` its product token takes (see [`product_token`]), without
/// checking that they are UTF-8: the parser stores text as UTF-8, and compares a raw
/// token only with `*`.
pub(crate) fn product_token_len(value: &[u8], alpha_only: bool) -> usize {
    if alpha_only {
        value.iter().position(|&b| !is_rfc_token_byte(b))
    } else {
        value
            .iter()
            .position(|&b| b == b'/' || crate::lines::is_space(b))
    }
    .unwrap_or(value.len())
}

/// A number for a crawler name, from its length and its first and last letters,
/// ignoring ASCII case as names are compared: equal names give the same number.
pub(crate) fn name_mix(name: &[u8]) -> usize {
    let (first, last) = match name {
        [] => (0, 0),
        [first, .., last] => (*first, *last),
        [only] => (*only, *only),
    };
    name.len() * 7
        + usize::from(first.to_ascii_lowercase()) * 3
        + usize::from(last.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_accepts_tokens_and_flags_non_rfc_ones() {
        assert!(Agent::new("FooBot").unwrap().is_rfc9309_token());
        let mj = Agent::new("MJ12bot").unwrap();
        assert!(!mj.is_rfc9309_token());
        assert_eq!(mj.token(), "MJ12bot");
    }

    #[test]
    fn new_rejects_empty_and_non_tokens() {
        assert!(matches!(Agent::new(""), Err(Error::EmptyAgent)));
        assert!(matches!(
            Agent::new("Foo Bot"),
            Err(Error::InvalidAgent { character: ' ', .. })
        ));
        assert!(Agent::new("Foo/1.0").is_err());
    }

    #[test]
    fn from_user_agent_finds_the_crawler() {
        let cases = [
            (
                "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
                "Googlebot",
            ),
            ("ExampleBot/1.0", "ExampleBot"),
            ("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0 Safari/537.36", "bingbot"),
            ("curl/8.0", "curl"),
        ];
        for (header, token) in cases {
            assert_eq!(
                Agent::from_user_agent(header).unwrap().token(),
                token,
                "{header}"
            );
        }
        assert!(Agent::from_user_agent("   ").is_err());
    }

    #[test]
    fn verbatim_keeps_the_name_and_derives_a_token() {
        let a = Agent::verbatim("FooBot/2.1");
        assert_eq!(a.name(), "FooBot/2.1");
        assert_eq!(a.token(), "FooBot");
        assert_eq!(Agent::verbatim("").name(), "");
    }

    #[test]
    fn product_tokens_per_profile() {
        assert_eq!(product_token(b"MJ12bot", true), "MJ");
        assert_eq!(product_token(b"MJ12bot", false), "MJ12bot");
        assert_eq!(product_token(b"Googlebot/2.1", false), "Googlebot");
        assert_eq!(product_token(b"Googlebot/2.1", true), "Googlebot");
        assert_eq!(product_token(b"archive.org_bot", false), "archive.org_bot");
        assert_eq!(product_token(b"Foo Bar", false), "Foo");
    }
}
