//! The origin a robots.txt governs (RFC 9309 §2.3: the scheme, host and port it is
//! fetched from), read from a URL without Unicode tables, and the forms it is written in.

use std::fmt;

/// The two schemes robots.txt governs (RFC 9309 §2.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scheme {
    /// `http`, port 80 by default.
    Http,
    /// `https`, port 443 by default.
    Https,
}

impl Scheme {
    /// `http` or `https`.
    pub fn as_str(self) -> &'static str {
        match self {
            Scheme::Http => "http",
            Scheme::Https => "https",
        }
    }

    /// The port a URL of this scheme means when it names none.
    pub fn default_port(self) -> u16 {
        match self {
            Scheme::Http => 80,
            Scheme::Https => 443,
        }
    }

    /// `http` or `https` in any ASCII case (RFC 3986 §3.1); `None` for any other scheme.
    fn parse(scheme: &str) -> Option<Scheme> {
        if scheme.eq_ignore_ascii_case("http") {
            Some(Scheme::Http)
        } else if scheme.eq_ignore_ascii_case("https") {
            Some(Scheme::Https)
        } else {
            None
        }
    }
}

/// Why a URL (or a host) names no origin. Each message names what was given and says
/// what to give instead. More variants may come, so matches need a `_` arm.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OriginError {
    /// The URL has no `scheme://` (a path such as `/a`, or `mailto:a@example.com`).
    #[error("`{url}` is not an absolute http(s) URL; give one such as https://example.com/page")]
    NotAbsolute {
        /// The URL as given.
        url: String,
    },
    /// The URL's scheme is neither `http` nor `https`.
    #[error("`{url}` uses the scheme `{scheme}`, but robots.txt governs only http and https URLs (RFC 9309 §2.3); give an http(s) URL")]
    UnsupportedScheme {
        /// The URL as given.
        url: String,
        /// Its scheme as written, e.g. `ftp`.
        scheme: String,
    },
    /// The URL's authority names no host (`http://:80/`), or an IPv6 address without its
    /// closing `]`.
    #[error("`{url}` names no host; give an absolute URL with one, such as https://example.com/page or http://[::1]:8080/")]
    NoHost {
        /// The URL as given.
        url: String,
    },
    /// The URL's port is not a number from 0 to 65535.
    #[error("`{url}` has the port `{port}`, which is not a number from 0 to 65535; give a port such as 8080, or none for the scheme's default")]
    BadPort {
        /// The URL as given.
        url: String,
        /// The port as written.
        port: String,
    },
    /// [`Origin::new`] was given a host no URL's authority could hold.
    #[error("`{host}` cannot be an origin's host; give a non-empty host without `/`, `?`, `#` or `@`, such as example.com, 127.0.0.1 or [::1]")]
    InvalidHost {
        /// The host as given.
        host: String,
    },
}

/// Scheme, host and port (RFC 9309 §2.3): what one robots.txt governs, so that
/// `HTTPS://Example.COM:443/a` and `https://example.com/b` share one robots.txt and
/// `https://example.com:8443/` has its own.
///
/// It is written two ways: [`Display`](fmt::Display) leaves out the scheme's default
/// port (`https://example.com`), as a crawler shows it; [`key`](Origin::key) always
/// writes the port (`https://example.com:443`), the form `robots-archive` keys its index
/// by.
///
/// ```
/// use robots::{Origin, Scheme};
/// let a = Origin::of("HTTPS://Example.COM:443/a?b")?;
/// assert_eq!(a, Origin::of("https://example.com/c")?);
/// assert_eq!(a, Origin::new(Scheme::Https, "example.com", 443)?);
/// assert_eq!(a.to_string(), "https://example.com");
/// assert_eq!(a.key(), "https://example.com:443");
/// assert_eq!(a.robots_txt_url(), "https://example.com/robots.txt");
/// assert_ne!(a, Origin::of("https://example.com:8443/")?);
/// # Ok::<(), robots::OriginError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Origin {
    scheme: Scheme,
    /// ASCII lower-cased, otherwise as the URL wrote it (or the caller's reading gave
    /// it); an IPv6 address in its brackets. Never empty, never holding `/ ? # @`.
    host: String,
    port: u16,
}

impl Origin {
    /// The origin of `scheme`, `host` and `port`, for a caller that read the URL
    /// itself (`robots_fetch::origin_of` reads it with the WHATWG URL parser). The host
    /// is ASCII lower-cased.
    ///
    /// # Errors
    ///
    /// [`OriginError::InvalidHost`] for a host that is empty, holds `/`, `?`, `#` or `@`
    /// (which end a URL's authority or its userinfo), or opens a `[` that only its last
    /// character closes: a host [`Origin::of`] could not read back from [`key`](Origin::key).
    pub fn new(scheme: Scheme, host: &str, port: u16) -> Result<Origin, OriginError> {
        let bracketed_badly = host.starts_with('[') && host.find(']') != Some(host.len() - 1);
        if host.is_empty() || host.contains(['/', '?', '#', '@']) || bracketed_badly {
            return Err(OriginError::InvalidHost {
                host: host.to_owned(),
            });
        }
        Ok(Origin {
            scheme,
            host: host.to_ascii_lowercase(),
            port,
        })
    }

    /// The origin of an absolute `http` or `https` URL, read leniently, as archives hold
    /// URLs: around white space trimmed; the scheme in any case; the authority up to the
    /// first `/`, `?` or `#`; any userinfo (up to its last `@`) dropped; an IPv6 address
    /// kept in its brackets; an empty port (`http://example.com:/`) the default one; the
    /// host ASCII lower-cased, otherwise as written.
    ///
    /// There is no IDNA mapping and no percent-decoding: `http://BÜCHER.example/` has the
    /// host `bÜcher.example`, not `xn--bcher-kva.example`. Mapping needs Unicode's tables,
    /// which the engine, built to WebAssembly for the browser, does without;
    /// `robots_fetch::origin_of` reads a URL as the WHATWG URL Standard does (IDNA
    /// included), as the HTTP client that fetches it will.
    ///
    /// ```
    /// use robots::{Origin, Scheme};
    /// let o = Origin::of(" HTTP://user:pw@[::1]:8080/a?b#c ")?;
    /// assert_eq!((o.scheme(), o.host(), o.port()), (Scheme::Http, "[::1]", 8080));
    /// assert!(Origin::of("ftp://example.com/").is_err());
    /// # Ok::<(), robots::OriginError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`OriginError::NotAbsolute`] without `scheme://`, [`OriginError::UnsupportedScheme`]
    /// for a scheme other than http(s), [`OriginError::NoHost`] for an empty host or an
    /// unclosed `[`, [`OriginError::BadPort`] for a port that is not a number up to 65535.
    pub fn of(url: &str) -> Result<Origin, OriginError> {
        Origin::split(url).map(|(origin, _)| origin)
    }

    /// [`Origin::of`], and the rest of the URL after its authority as written (path,
    /// query and fragment: `/a?b#c`, or `""`), for readers that need both.
    ///
    /// ```
    /// use robots::Origin;
    /// let (origin, rest) = Origin::split("http://Example.com:8080?q#f")?;
    /// assert_eq!((origin.key().as_str(), rest), ("http://example.com:8080", "?q#f"));
    /// # Ok::<(), robots::OriginError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Origin::of`].
    pub fn split(url: &str) -> Result<(Origin, &str), OriginError> {
        let trimmed = url.trim();
        let Some((scheme, rest)) = trimmed.split_once("://") else {
            return Err(OriginError::NotAbsolute {
                url: url.to_owned(),
            });
        };
        let Some(scheme) = Scheme::parse(scheme) else {
            return Err(OriginError::UnsupportedScheme {
                url: url.to_owned(),
                scheme: scheme.to_owned(),
            });
        };
        let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let authority = &rest[..end];
        let authority = authority.rsplit_once('@').map_or(authority, |(_, a)| a);
        let no_host = || OriginError::NoHost {
            url: url.to_owned(),
        };
        let (host, port) = match authority.strip_prefix('[') {
            // An IPv6 literal (RFC 3986 §3.2.2): its colons are not the port separator.
            // What follows its `]` other than `:port` is ignored, as it always was in
            // the archive's index, whose keys this reading must keep giving.
            Some(v6) => {
                let (inside, after) = v6.split_once(']').ok_or_else(no_host)?;
                (&authority[..inside.len() + 2], after.strip_prefix(':'))
            }
            None => match authority.rsplit_once(':') {
                Some((host, port)) => (host, Some(port)),
                None => (authority, None),
            },
        };
        let port = match port {
            None | Some("") => scheme.default_port(),
            Some(port) => port.parse().map_err(|_| OriginError::BadPort {
                url: url.to_owned(),
                port: port.to_owned(),
            })?,
        };
        if host.is_empty() {
            return Err(no_host());
        }
        let origin = Origin {
            scheme,
            host: host.to_ascii_lowercase(),
            port,
        };
        Ok((origin, &rest[end..]))
    }

    /// `http` or `https`.
    pub fn scheme(&self) -> Scheme {
        self.scheme
    }

    /// The host, ASCII lower-cased (an IPv6 address in its brackets).
    pub fn host(&self) -> &str {
        &self.host
    }

    /// The port, the scheme's default when the URL named none.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// `scheme://host:port`, the port always written (`http://example.com:80`): the key
    /// `robots-archive` stores in its index for the origin of every capture, so this
    /// form must never change. [`Origin::of`] reads it back to this origin.
    pub fn key(&self) -> String {
        format!("{}://{}:{}", self.scheme.as_str(), self.host, self.port)
    }

    /// `/robots.txt` at this origin (RFC 9309 §2.3: the top-level path), written as
    /// [`Display`](fmt::Display) writes the origin: `https://example.com/robots.txt`.
    pub fn robots_txt_url(&self) -> String {
        format!("{self}/robots.txt")
    }
}

impl fmt::Display for Origin {
    /// `https://example.com`, with the port only when it is not the scheme's default.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}://{}", self.scheme.as_str(), self.host)?;
        if self.port != self.scheme.default_port() {
            write!(f, ":{}", self.port)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn defaults_are_normalised_and_ports_distinguish() {
        let a = Origin::of("http://EXAMPLE.com:80/x").unwrap();
        assert_eq!(a.to_string(), "http://example.com");
        assert_eq!(a.port(), 80);
        let b = Origin::of("http://example.com:8080/x").unwrap();
        assert_eq!(b.to_string(), "http://example.com:8080");
        assert_ne!(a, b);
        assert_ne!(a, Origin::of("https://example.com/x").unwrap());
        assert_eq!(Origin::of("https://example.com:/x").unwrap().port(), 443);
    }

    #[test]
    fn keys_write_the_port_and_display_leaves_the_default_out() {
        let o = Origin::of("HTTP://Example.COM/a").unwrap();
        assert_eq!(o.key(), "http://example.com:80");
        assert_eq!(o.to_string(), "http://example.com");
        assert_eq!(Origin::of("http://example.com:80/x"), Ok(o));
        let o = Origin::of("https://u:p@127.0.0.1:8443?q").unwrap();
        assert_eq!(o.key(), "https://127.0.0.1:8443");
        assert_eq!(o.to_string(), "https://127.0.0.1:8443");
    }

    #[test]
    fn ipv6_hosts_keep_their_brackets() {
        let v6 = Origin::of("http://[::1]:8080/").unwrap();
        assert_eq!(v6.host(), "[::1]");
        assert_eq!(v6.robots_txt_url(), "http://[::1]:8080/robots.txt");
        assert_eq!(
            Origin::of("http://[::1]/").unwrap().key(),
            "http://[::1]:80"
        );
        assert_eq!(
            Origin::of("http://[::1]:81/").unwrap().key(),
            "http://[::1]:81"
        );
        assert_eq!(
            Origin::of("https://[::1]:443/x").unwrap().to_string(),
            "https://[::1]"
        );
        assert!(matches!(
            Origin::of("http://[::1/"),
            Err(OriginError::NoHost { .. })
        ));
    }

    #[test]
    fn hosts_are_not_mapped_or_decoded() {
        let idn = Origin::of("https://BÜCHER.example/").unwrap();
        assert_eq!(idn.host(), "bÜcher.example");
        assert_eq!(
            Origin::of("http://a%41.example/").unwrap().host(),
            "a%41.example"
        );
    }

    #[test]
    fn what_names_no_origin_is_an_error_saying_so() {
        let err = |url| Origin::of(url).unwrap_err();
        assert!(matches!(err("/relative"), OriginError::NotAbsolute { .. }));
        assert!(matches!(
            err("mailto:a@example.com"),
            OriginError::NotAbsolute { .. }
        ));
        assert_eq!(
            err("ftp://example.com/"),
            OriginError::UnsupportedScheme {
                url: "ftp://example.com/".into(),
                scheme: "ftp".into()
            }
        );
        assert!(matches!(err("http://:80/"), OriginError::NoHost { .. }));
        assert!(matches!(err("http://u@/"), OriginError::NoHost { .. }));
        assert_eq!(
            err("http://x:port/"),
            OriginError::BadPort {
                url: "http://x:port/".into(),
                port: "port".into()
            }
        );
        assert!(matches!(
            err("http://x:65536/"),
            OriginError::BadPort { .. }
        ));
        let message = err("ftp://example.com/").to_string();
        assert!(
            message.contains("`ftp://example.com/`") && message.contains("give an http(s) URL")
        );
    }

    #[test]
    fn split_gives_the_rest_as_written() {
        let (o, rest) = Origin::split(" https://Example.com/A%20b?c#d ").unwrap();
        assert_eq!(
            (o.key().as_str(), rest),
            ("https://example.com:443", "/A%20b?c#d")
        );
        assert_eq!(Origin::split("http://x").unwrap().1, "");
        assert_eq!(Origin::split("http://x#f").unwrap().1, "#f");
    }

    #[test]
    fn new_lower_cases_and_refuses_what_no_authority_holds() {
        let o = Origin::new(Scheme::Http, "Example.COM", 8080).unwrap();
        assert_eq!(o, Origin::of("http://example.com:8080/").unwrap());
        for host in ["", "a/b", "a?b", "a#b", "u@a", "[::1", "[::1]x", "[a]]"] {
            assert_eq!(
                Origin::new(Scheme::Http, host, 80),
                Err(OriginError::InvalidHost { host: host.into() }),
                "{host:?}"
            );
        }
        assert!(Origin::new(Scheme::Https, "[::1]", 443).is_ok());
    }

    fn scheme() -> impl Strategy<Value = Scheme> {
        prop_oneof![Just(Scheme::Http), Just(Scheme::Https)]
    }

    /// Hosts as URLs name them: DNS names, IPv4 and IPv6 addresses.
    fn host() -> impl Strategy<Value = String> {
        prop_oneof![
            "[a-zA-Z0-9-]{1,12}(\\.[a-zA-Z0-9-]{1,12}){0,3}",
            any::<[u8; 4]>().prop_map(|a| std::net::Ipv4Addr::from(a).to_string()),
            any::<[u16; 8]>().prop_map(|a| format!("[{}]", std::net::Ipv6Addr::from(a))),
        ]
    }

    proptest! {
        /// An origin's URLs, however their scheme and host are cased and whether or not
        /// they write the default port, read back to it; so does its key.
        #[test]
        fn an_origins_urls_and_key_read_back_to_it(
            scheme in scheme(),
            host in host(),
            port in any::<u16>(),
            rest in "(/[a-z%:@?#]{0,8})?",
            upper in any::<bool>(),
        ) {
            let o = Origin::new(scheme, &host, port).unwrap();
            prop_assert_eq!(Origin::of(&format!("{o}/x")), Ok(o.clone()));
            prop_assert_eq!(Origin::of(&o.key()), Ok(o.clone()));
            let written = format!("{}://u:p@{host}:{port}{rest}", scheme.as_str());
            let written = if upper { written.to_ascii_uppercase() } else { written };
            let (read, after) = Origin::split(&written).unwrap();
            prop_assert_eq!(read, o);
            prop_assert!(written.ends_with(after));
            prop_assert_eq!(after.len(), rest.len());
        }

        /// Whatever the reading accepts, its key reads back to the same origin, and
        /// `Origin::new` accepts its parts.
        #[test]
        fn every_origin_read_has_a_key_that_reads_back(
            url in "[ ]?(http|HTTPS|hTtP|ftp|)(://|:/)?[ :/\\[\\]@?#.a-z0-9]{0,20}",
        ) {
            if let Ok(o) = Origin::of(&url) {
                prop_assert_eq!(Origin::of(&o.key()), Ok(o.clone()));
                prop_assert_eq!(Origin::new(o.scheme(), o.host(), o.port()), Ok(o));
            }
        }
    }
}
