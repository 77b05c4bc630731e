//! The origin a robots.txt governs (RFC 9309 §2.3: the scheme, host and port it was
//! fetched from), used as the cache key, and the robots.txt URL that serves it.

use std::fmt;

use url::Url;

use crate::Error;

/// The two schemes robots.txt governs.
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
}

/// Scheme, lower-cased host and port (defaults filled in), so that
/// `HTTPS://Example.COM:443/a` and `https://example.com/b` share one robots.txt.
///
/// ```
/// use robots_fetch::Origin;
/// let a = Origin::of("HTTPS://Example.COM:443/a?b").unwrap();
/// let b = Origin::of("https://example.com/c").unwrap();
/// assert_eq!(a, b);
/// assert_eq!(a.robots_url().as_str(), "https://example.com/robots.txt");
/// assert_ne!(a, Origin::of("https://example.com:8443/").unwrap());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Origin {
    scheme: Scheme,
    /// Lower-cased; IDNA-encoded by the URL parser; IPv6 addresses in brackets.
    host: String,
    port: u16,
}

impl Origin {
    /// The origin of an absolute http(s) URL.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidUrl`] for what does not parse as an absolute URL (a path such
    /// as `/a`), [`Error::UnsupportedScheme`] for a scheme other than http(s) (RFC 9309
    /// §2.3 covers only those), [`Error::NoHost`] for a URL without a host.
    pub fn of(url: &str) -> Result<Origin, Error> {
        let parsed = Url::parse(url).map_err(|reason| Error::InvalidUrl {
            url: url.to_owned(),
            reason,
        })?;
        Origin::from_url(&parsed)
    }

    /// The origin of a parsed URL, for a crawler that holds its URLs parsed.
    ///
    /// ```
    /// use robots_fetch::{Origin, Url};
    /// let page = Url::parse("https://example.com/a/b.html")?;
    /// let link = page.join("../c.html")?;
    /// assert_eq!(Origin::from_url(&link)?, Origin::from_url(&page)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_url(url: &Url) -> Result<Origin, Error> {
        let scheme = match url.scheme() {
            "http" => Scheme::Http,
            "https" => Scheme::Https,
            other => {
                return Err(Error::UnsupportedScheme {
                    url: url.to_string(),
                    scheme: other.to_owned(),
                })
            }
        };
        let host = match url.host_str() {
            Some(host) if !host.is_empty() => host.to_ascii_lowercase(),
            _ => {
                return Err(Error::NoHost {
                    url: url.to_string(),
                })
            }
        };
        Ok(Origin {
            scheme,
            host,
            port: url.port().unwrap_or(scheme.default_port()),
        })
    }

    /// `http` or `https`.
    pub fn scheme(&self) -> Scheme {
        self.scheme
    }

    /// The host, lower-cased (IPv6 addresses in brackets).
    pub fn host(&self) -> &str {
        &self.host
    }

    /// The port, the scheme's default when the URL named none.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// `/robots.txt` at this origin (RFC 9309 §2.3: the top-level path).
    pub fn robots_url(&self) -> Url {
        // Built from parts that were themselves parsed from a URL, so it parses; the
        // fallback keeps this total without a panic path.
        Url::parse(&format!("{self}/robots.txt"))
            .unwrap_or_else(|_| Url::parse("http://invalid./robots.txt").expect("constant URL"))
    }
}

impl fmt::Display for Origin {
    /// `https://example.com`, with the port only when it is not the default.
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

    #[test]
    fn defaults_are_normalised_and_ports_distinguish() {
        let a = Origin::of("http://EXAMPLE.com:80/x").unwrap();
        assert_eq!(a.to_string(), "http://example.com");
        assert_eq!(a.port(), 80);
        let b = Origin::of("http://example.com:8080/x").unwrap();
        assert_eq!(b.to_string(), "http://example.com:8080");
        assert_ne!(a, b);
        assert_ne!(a, Origin::of("https://example.com/x").unwrap());
    }

    #[test]
    fn ipv6_and_idna_hosts() {
        let v6 = Origin::of("http://[::1]:8080/").unwrap();
        assert_eq!(v6.robots_url().as_str(), "http://[::1]:8080/robots.txt");
        let idn = Origin::of("https://BÜCHER.example/").unwrap();
        assert_eq!(idn.host(), "xn--bcher-kva.example");
    }

    #[test]
    fn non_http_and_relative_urls_are_errors() {
        assert!(matches!(
            Origin::of("ftp://example.com/"),
            Err(Error::UnsupportedScheme { .. })
        ));
        assert!(matches!(
            Origin::of("/relative"),
            Err(Error::InvalidUrl { .. })
        ));
        assert!(Origin::of("mailto:a@example.com").is_err());
    }
}
