//! The parts of a captured URL the archive needs: whether it is its origin's robots.txt,
//! and its SURT key for CDX sorting. The origin itself is the engine's [`Origin`], whose
//! [`key`](Origin::key) (`http://example.com:80`) the index stores.

use robots::Origin;

/// Whether `url` is the robots.txt of its origin (path exactly `/robots.txt`, no query).
pub fn is_robots_txt(url: &str) -> bool {
    split(url).is_some_and(|(_, rest)| rest == "/robots.txt")
}

/// The SURT form pywb and Wayback sort CDX lines by: `com,example)/path?query`, host
/// labels reversed, `www.` and the default port dropped, octets a URL may not hold raw
/// percent-encoded (so `/café` and `/caf%C3%A9` share a key), all lower-cased. Lookups
/// go by this key, so the same resource is found however its URL was written.
pub fn surt(url: &str) -> String {
    let Some((origin, rest)) = split(url) else {
        return url.to_ascii_lowercase();
    };
    let host = origin.host();
    let host = host.strip_prefix("www.").unwrap_or(host);
    let mut key = if host.parse::<std::net::Ipv4Addr>().is_ok() {
        host.to_owned()
    } else {
        host.split('.').rev().collect::<Vec<_>>().join(",")
    };
    if origin.port() != origin.scheme().default_port() {
        key.push_str(&format!(":{}", origin.port()));
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

/// The origin ([`Origin::split`]'s lenient reading) and path-and-query (`/` when empty,
/// fragment dropped) of an absolute http(s) URL.
fn split(url: &str) -> Option<(Origin, String)> {
    let (origin, rest) = Origin::split(url).ok()?;
    let mut path = rest.split('#').next().unwrap_or("").to_owned();
    if !path.starts_with('/') {
        path.insert(0, '/');
    }
    Some((origin, path))
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
        assert_eq!(o.key(), "http://example.com:80");
        assert_eq!(Origin::of("http://example.com:80/x"), Ok(o));
        assert_eq!(
            Origin::of("https://u:p@127.0.0.1:8443?q").unwrap().key(),
            "https://127.0.0.1:8443"
        );
        assert!(Origin::of("ftp://example.com/").is_err());
        assert!(Origin::of("http://:80/").is_err());
        assert!(Origin::of("http://x:port/").is_err());
        assert_eq!(
            Origin::of("http://[::1]/").unwrap().key(),
            "http://[::1]:80"
        );
        assert_eq!(
            Origin::of("http://[::1]:81/").unwrap().key(),
            "http://[::1]:81"
        );
    }

    /// The archive's reading before the engine's `Origin` (main at 1988c83), kept to pin
    /// the index's `origin` column: `Origin::key` must give these strings byte for byte.
    fn stored_form(url: &str) -> Option<String> {
        let (scheme, rest) = url.trim().split_once("://")?;
        let scheme = scheme.to_ascii_lowercase();
        if scheme != "http" && scheme != "https" {
            return None;
        }
        let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let authority = &rest[..end];
        let authority = authority.rsplit_once('@').map_or(authority, |(_, a)| a);
        let (host, port) = match authority.strip_prefix('[') {
            Some(v6) => {
                let (inside, after) = v6.split_once(']')?;
                (&authority[..inside.len() + 2], after.strip_prefix(':'))
            }
            None => match authority.rsplit_once(':') {
                Some((h, p)) => (h, Some(p)),
                None => (authority, None),
            },
        };
        let default = if scheme == "https" { 443 } else { 80 };
        let port: u16 = match port {
            None | Some("") => default,
            Some(p) => p.parse().ok()?,
        };
        if host.is_empty() {
            return None;
        }
        Some(format!("{scheme}://{}:{port}", host.to_ascii_lowercase()))
    }

    #[test]
    fn origin_keys_are_the_stored_form_byte_for_byte() {
        let urls = [
            "HTTP://Example.COM/a",
            "http://example.com:80/x",
            "https://u:p@127.0.0.1:8443?q",
            "ftp://example.com/",
            "http://:80/",
            "http://x:port/",
            "http://[::1]/",
            "http://[::1]:81/",
            "http://[::1]x/",
            "http://[::1/",
            "https://example.com:/a",
            "https://example.com:443#f",
            "  http://a@b@Example.com:+8080/  ",
            "http://a:b:81/",
            "http://BÜCHER.example/",
            "http://x:65536/",
            "http:/x/a",
            "//x.test/a",
            "x/a",
            "",
        ];
        for url in urls {
            assert_eq!(
                Origin::of(url).ok().map(|o| o.key()),
                stored_form(url),
                "{url:?}"
            );
        }
    }

    proptest::proptest! {
        /// The same, for URLs made of the characters an authority's reading turns on.
        #[test]
        fn origin_keys_are_the_stored_form_for_any_url(
            url in "[ ]?(http|HTTPS|ftp|)(://)?[ :/\\[\\]@?#.+aBé0-9]{0,16}",
        ) {
            proptest::prop_assert_eq!(Origin::of(&url).ok().map(|o| o.key()), stored_form(&url));
        }
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
