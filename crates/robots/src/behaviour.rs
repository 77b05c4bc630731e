//! The two profiles and the individual behaviours in which they differ.
//! Each switch is one documented difference between RFC 9309 and Google's matcher.

/// Which reading of robots.txt to apply. See the crate documentation for every
/// difference between the two, each with a test on both sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Profile {
    /// RFC 9309 with the Archive-Embargo extension (the default).
    #[default]
    Rfc9309,
    /// Verdict-for-verdict what Google's open-source matcher (google/robotstxt) does.
    ///
    /// It knows no Archive-Embargo: `Archive-Embargo` and `Embargo-Allow` are unknown
    /// records, and an agent's [embargo support](crate::Agent::honouring_embargo) is
    /// ignored by [`Robots::check`](crate::Robots::check) and refused by the fallible
    /// entry points that take both (docs/design.md: asking for it here is an error).
    Google,
}

impl Profile {
    /// The set of behaviours this profile stands for.
    pub(crate) fn behaviour(self) -> Behaviour {
        match self {
            Profile::Rfc9309 => Behaviour::RFC9309,
            Profile::Google => Behaviour::GOOGLE,
        }
    }

    /// The profile's name as the command line spells it, which [`str::parse`] reads back.
    ///
    /// ```
    /// use robots::Profile;
    /// assert_eq!(Profile::Google.to_string(), "google");
    /// assert_eq!("rfc9309".parse::<Profile>(), Ok(Profile::Rfc9309));
    /// assert!("bing".parse::<Profile>().is_err());
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Profile::Rfc9309 => "rfc9309",
            Profile::Google => "google",
        }
    }
}

/// The name [`Profile::name`] gives, which [`str::parse`] reads back.
impl std::fmt::Display for Profile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Profile {
    type Err = crate::Error;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "rfc9309" | "rfc" => Ok(Profile::Rfc9309),
            "google" => Ok(Profile::Google),
            _ => Err(crate::Error::UnknownProfile(s.to_owned())),
        }
    }
}

/// The behaviours that tell the profiles apart; `true` is Google's way in every field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Behaviour {
    /// Keys are recognised by prefix (`disallowed:` is a disallow), as Google does;
    /// otherwise a key must be a directive name or one of its known misspellings.
    pub key_prefixes: bool,
    /// A user-agent line names the leading run of `[A-Za-z_-]` and the crawler's
    /// name is compared as given; otherwise both sides are product tokens (up to the
    /// first white space or `/`).
    pub alpha_agent_tokens: bool,
    /// Lines are cut at a NUL byte and after 16,663 bytes.
    pub google_line_limits: bool,
    /// An empty allow/disallow value matches every path with length 0 (it then names
    /// the deciding line without changing the verdict); RFC 9309 matches nothing.
    pub empty_pattern_matches: bool,
    /// Only the patterns are escaped (octets ≥ 0x80, upper-case hex); otherwise
    /// patterns and paths get the full RFC 9309 §2.2.2 normalisation.
    pub escape_patterns_only: bool,
    /// `/robots.txt` is matched like any other path instead of always being allowed.
    pub robots_txt_matchable: bool,
    /// `Allow: /dir/index.htm[l]` also allows `/dir/`.
    pub index_html_allows_dir: bool,
    /// `Archive-Embargo` and `Embargo-Allow` are unknown records, not rules.
    pub no_embargo: bool,
    /// A URL's path starts at the first `/`, `?` or `;` after its scheme, even a `;` in
    /// its userinfo (`https://u;x@host/p` has the path `/;x@host/p`), as Google's
    /// `GetPathParamsQuery` reads it; otherwise userinfo is skipped (RFC 3986 §3.2.1).
    pub semicolon_in_userinfo_ends_host: bool,
    /// The path ends at its first NUL octet, as in Google's matcher, which keeps the path
    /// it extracted as a C string (`RobotsMatcher::path_` is a `const char*`, so rules
    /// see it up to `strlen`): `/a\0b` is matched as `/a`. Otherwise a NUL is a control
    /// octet, percent-encoded as `%00` (RFC 9309 §2.2.2).
    pub nul_ends_path: bool,
}

impl Behaviour {
    pub const RFC9309: Behaviour = Behaviour {
        key_prefixes: false,
        alpha_agent_tokens: false,
        google_line_limits: false,
        empty_pattern_matches: false,
        escape_patterns_only: false,
        robots_txt_matchable: false,
        index_html_allows_dir: false,
        no_embargo: false,
        semicolon_in_userinfo_ends_host: false,
        nul_ends_path: false,
    };

    pub const GOOGLE: Behaviour = Behaviour {
        key_prefixes: true,
        alpha_agent_tokens: true,
        google_line_limits: true,
        empty_pattern_matches: true,
        escape_patterns_only: true,
        robots_txt_matchable: true,
        index_html_allows_dir: true,
        no_embargo: true,
        semicolon_in_userinfo_ends_host: true,
        nul_ends_path: true,
    };

    /// Whether `path`, as rules see it, is allowed whatever the rules say.
    #[inline]
    pub fn always_allowed(&self, path: &[u8]) -> bool {
        !self.robots_txt_matchable && path == b"/robots.txt"
    }
}
