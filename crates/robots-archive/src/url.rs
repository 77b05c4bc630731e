//! The parts of a captured URL the archive needs: its origin (whose robots.txt governs
//! it), whether it is that robots.txt, and its SURT key for CDX sorting.

/// `scheme://host:port`, lower-cased, with the default port made explicit, so that
/// `http://Example.com/` and `http://example.com:80/x` share one robots.txt.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Origin(String);

impl Origin {
    /// The origin of an absolute `http` or `https` URL; `None` for anything else.
    pub fn of(url: &str) -> Option<Origin> {
        let (scheme, host, port, _) = split(url)?;
        Some(Origin(format!("{scheme}://{host}:{port}")))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Whether `url` is the robots.txt of its origin (path exactly `/robots.txt`, no query).
pub fn is_robots_txt(url: &str) -> bool {
    split(url).is_some_and(|(_, _, _, rest)| rest == "/robots.txt")
}

/// The SURT form pywb and Wayback sort CDX lines by: `com,example)/path?query`, host
/// labels reversed, `www.` and the default port dropped, octets a URL may not hold raw
/// percent-encoded (so `/café` and `/caf%C3%A9` share a key), all lower-cased. Lookups
/// go by this key, so the same resource is found however its URL was written.
pub fn surt(url: &str) -> String {
    let Some((scheme, host, port, rest)) = split(url) else {
        return url.to_ascii_lowercase();
    };
    let host = host.strip_prefix("www.").unwrap_or(&host);
    let mut key = if host.parse::<std::net::Ipv4Addr>().is_ok() {
        host.to_owned()
    } else {
        host.split('.').rev().collect::<Vec<_>>().join(",")
    };
    if port != default_port(&scheme) {
        key.push_str(&format!(":{port}"));
    }
    key.push(')');
    key.push_str(&encode_unsafe(&rest).to_ascii_lowercase());
    key
}

/// Accepts `http://…` and `https://…` (the scheme in any case, RFC 3986 §3.1), the
/// `http:/…` some clients collapse `//` into, a scheme-relative `//example.com/…` and a
/// bare `example.com/…` (both read as http). A URL it returns is returned unchanged, so
/// a URL a listing shows, asked for again, is the same URL.
pub fn normalise_url(url: &str) -> String {
    for scheme in ["http", "https"] {
        let rest = url
            .get(..scheme.len())
            .filter(|given| given.eq_ignore_ascii_case(scheme))
            .and_then(|_| url[scheme.len()..].strip_prefix(":/"));
        if let Some(rest) = rest {
            return format!("{scheme}://{}", rest.trim_start_matches('/'));
        }
    }
    format!("http://{}", url.trim_start_matches('/'))
}

/// `text` with the octets a URL may not hold raw (controls, space, DEL, and octets of
/// 0x80 and above: RFC 3986 §2) percent-encoded.
pub fn encode_unsafe(text: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_octet = |b: u8| b <= b' ' || b >= 0x7F;
    if !text.bytes().any(unsafe_octet) {
        return text.into();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for b in text.bytes() {
        if unsafe_octet(b) {
            out.push_str(&format!("%{b:02X}"));
        } else {
            out.push(char::from(b));
        }
    }
    out.into()
}

fn default_port(scheme: &str) -> u16 {
    if scheme == "https" {
        443
    } else {
        80
    }
}

/// Scheme, host, port and path-and-query (`/` when empty, fragment dropped).
fn split(url: &str) -> Option<(String, String, u16, String)> {
    let (scheme, rest) = url.trim().split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "http" && scheme != "https" {
        return None;
    }
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..end];
    let authority = authority.rsplit_once('@').map_or(authority, |(_, a)| a);
    let (host, port) = match authority.strip_prefix('[') {
        // An IPv6 literal: its colons are not the port separator.
        Some(v6) => {
            let (inside, after) = v6.split_once(']')?;
            (&authority[..inside.len() + 2], after.strip_prefix(':'))
        }
        None => match authority.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (authority, None),
        },
    };
    let port = match port {
        None | Some("") => default_port(&scheme),
        Some(p) => p.parse().ok()?,
    };
    if host.is_empty() {
        return None;
    }
    let mut path = rest[end..].split('#').next().unwrap_or("").to_owned();
    if !path.starts_with('/') {
        path.insert(0, '/');
    }
    Some((scheme, host.to_ascii_lowercase(), port, path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_in_paths_are_normalised() {
        assert_eq!(normalise_url("http://x/a"), "http://x/a");
        assert_eq!(normalise_url("https:/x/a"), "https://x/a");
        assert_eq!(normalise_url("x/a"), "http://x/a");
    }

    #[test]
    fn upper_case_schemes_and_scheme_relative_urls_name_their_host() {
        assert_eq!(normalise_url("HTTPS://X.test/a"), "https://X.test/a");
        assert_eq!(normalise_url("Http:/x.test/a"), "http://x.test/a");
        assert_eq!(normalise_url("//x.test/a"), "http://x.test/a");
        assert_eq!(
            surt(&normalise_url("HTTP://WWW.X.test/a")),
            surt("http://x.test/a")
        );
        // Read again, a normalised URL is the same URL (`/x` was `http:///x`, then
        // `http://x`).
        for url in ["/x", "///x", "http:///x", "HTTP://x", "x", "https:/x", "é/"] {
            let once = normalise_url(url);
            assert_eq!(normalise_url(&once), once, "{url}");
        }
    }

    #[test]
    fn origins_normalise_case_and_default_ports() {
        let o = Origin::of("HTTP://Example.COM/a").unwrap();
        assert_eq!(o.as_str(), "http://example.com:80");
        assert_eq!(Origin::of("http://example.com:80/x"), Some(o));
        assert_eq!(
            Origin::of("https://u:p@127.0.0.1:8443?q").unwrap().as_str(),
            "https://127.0.0.1:8443"
        );
        assert_eq!(Origin::of("ftp://example.com/"), None);
        assert_eq!(Origin::of("http://:80/"), None);
        assert_eq!(Origin::of("http://x:port/"), None);
        assert_eq!(
            Origin::of("http://[::1]/").unwrap().as_str(),
            "http://[::1]:80"
        );
        assert_eq!(
            Origin::of("http://[::1]:81/").unwrap().as_str(),
            "http://[::1]:81"
        );
    }

    #[test]
    fn robots_txt_is_recognised_only_at_the_root() {
        assert!(is_robots_txt("http://example.com/robots.txt"));
        assert!(is_robots_txt("http://example.com:8080/robots.txt#x"));
        assert!(!is_robots_txt("http://example.com/robots.txt?x=1"));
        assert!(!is_robots_txt("http://example.com/a/robots.txt"));
    }

    #[test]
    fn surt_keys_sort_like_pywb() {
        assert_eq!(surt("http://www.Example.com/A?b=C"), "com,example)/a?b=c");
        assert_eq!(surt("http://127.0.0.1:8080/x"), "127.0.0.1:8080)/x");
        assert_eq!(surt("https://example.com"), "com,example)/");
    }

    #[test]
    fn one_resource_has_one_key_however_its_url_is_written() {
        let key = surt("http://u.example/caf%C3%A9%20x");
        for same in [
            "http://u.example/café x",
            "HTTP://U.EXAMPLE/caf%c3%a9%20x",
            "http://u.example:80/caf%C3%A9 x",
            "http://www.u.example/café%20x#top",
        ] {
            assert_eq!(surt(same), key, "{same}");
        }
        assert_ne!(surt("https://u.example:80/café x"), key);
        // Spellings the key does not fold, as the crate docs say.
        assert_ne!(
            surt("http://u.example/%62.html"),
            surt("http://u.example/b.html")
        );
        assert_ne!(
            surt("http://u.example/b.html?"),
            surt("http://u.example/b.html")
        );
        assert_eq!(encode_unsafe("/a b\u{7f}é"), "/a%20b%7F%C3%A9");
        assert_eq!(encode_unsafe("/plain?q=1"), "/plain?q=1");
    }
}
