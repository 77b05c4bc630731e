//! The origin a URL's robots.txt governs (RFC 9309 §2.3), read as the HTTP client will
//! read the URL (the WHATWG URL Standard, IDNA included), and that robots.txt's URL.

use robots::{Origin, Scheme};
use url::Url;

use crate::Error;

/// The origin of an absolute http(s) URL, its host read as the WHATWG URL Standard reads
/// it (IDNA mapping, percent-decoding, IPv4 forms), as the request for its robots.txt
/// will be. [`Origin::of`], the engine's own reading, takes the host as written.
///
/// ```
/// use robots_fetch::{origin_of, robots_url};
/// let a = origin_of("HTTPS://Example.COM:443/a?b")?;
/// assert_eq!(a, origin_of("https://example.com/c")?);
/// assert_eq!(robots_url(&a).as_str(), "https://example.com/robots.txt");
/// assert_ne!(a, origin_of("https://example.com:8443/")?);
/// assert_eq!(origin_of("https://BÜCHER.example/")?.host(), "xn--bcher-kva.example");
/// # Ok::<(), robots_fetch::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::InvalidUrl`] for what does not parse as an absolute URL (a path such as
/// `/a`), [`Error::UnsupportedScheme`] for a scheme other than http(s) (RFC 9309 §2.3
/// covers only those), [`Error::NoHost`] for a URL without a host.
pub fn origin_of(url: &str) -> Result<Origin, Error> {
    let parsed = Url::parse(url).map_err(|reason| Error::InvalidUrl {
        url: url.to_owned(),
        reason,
    })?;
    origin_of_url(&parsed)
}

/// The origin of a parsed URL, for a crawler that holds its URLs parsed.
///
/// ```
/// use robots_fetch::{origin_of_url, Url};
/// let page = Url::parse("https://example.com/a/b.html")?;
/// let link = page.join("../c.html")?;
/// assert_eq!(origin_of_url(&link)?, origin_of_url(&page)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// As [`origin_of`], but for [`Error::InvalidUrl`].
pub fn origin_of_url(url: &Url) -> Result<Origin, Error> {
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
    let no_host = || Error::NoHost {
        url: url.to_string(),
    };
    let host = url
        .host_str()
        .filter(|h| !h.is_empty())
        .ok_or_else(no_host)?;
    // A special URL's host never holds what `Origin::new` refuses (`/ ? # @`, or an
    // IPv6 address without its brackets): the WHATWG parser forbids those code points.
    Origin::new(scheme, host, url.port().unwrap_or(scheme.default_port())).map_err(|_| no_host())
}

/// `/robots.txt` at `origin` (RFC 9309 §2.3: the top-level path), as a URL to request.
///
/// ```
/// use robots_fetch::{origin_of, robots_url};
/// let v6 = origin_of("http://[::1]:8080/")?;
/// assert_eq!(robots_url(&v6).as_str(), "http://[::1]:8080/robots.txt");
/// # Ok::<(), robots_fetch::Error>(())
/// ```
pub fn robots_url(origin: &Origin) -> Url {
    // An origin read by `origin_of` parses back; the fallback keeps this total without a
    // panic path for one read leniently by `Origin::of` (`http://a b/`).
    Url::parse(&origin.robots_txt_url())
        .unwrap_or_else(|_| Url::parse("http://invalid./robots.txt").expect("constant URL"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_normalised_and_ports_distinguish() {
        let a = origin_of("http://EXAMPLE.com:80/x").unwrap();
        assert_eq!(a.to_string(), "http://example.com");
        assert_eq!(a.port(), 80);
        let b = origin_of("http://example.com:8080/x").unwrap();
        assert_eq!(b.to_string(), "http://example.com:8080");
        assert_ne!(a, b);
        assert_ne!(a, origin_of("https://example.com/x").unwrap());
    }

    #[test]
    fn ipv6_and_idna_hosts() {
        let v6 = origin_of("http://[::1]:8080/").unwrap();
        assert_eq!(robots_url(&v6).as_str(), "http://[::1]:8080/robots.txt");
        let idn = origin_of("https://BÜCHER.example/").unwrap();
        assert_eq!(idn.host(), "xn--bcher-kva.example");
    }

    #[test]
    fn non_http_and_relative_urls_are_errors() {
        assert!(matches!(
            origin_of("ftp://example.com/"),
            Err(Error::UnsupportedScheme { .. })
        ));
        assert!(matches!(
            origin_of("/relative"),
            Err(Error::InvalidUrl { .. })
        ));
        assert!(origin_of("mailto:a@example.com").is_err());
    }

    #[test]
    fn both_readings_agree_on_plain_urls() {
        for url in [
            "http://example.com/a",
            "HTTPS://u:p@Example.COM:8443/a?b#c",
            "http://127.0.0.1:8080",
            "http://[::1]/x",
        ] {
            assert_eq!(origin_of(url).unwrap(), Origin::of(url).unwrap(), "{url}");
        }
    }
}
