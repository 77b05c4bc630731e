//! The SURT key pywb computes for a URL (the `surt` package's IA canonicalization, as
//! pywb's `canonicalize` calls it), which its CDXJ indexes and `.aclj` rules are sorted
//! and looked up by; the archive's own `/cdx` key (`crate::url::surt`) differs from it.
//!
//! As pywb 2.10 with surt 0.3.1 computes it: the scheme, user information and fragment
//! dropped; the host lower-cased, unescaped, its dots trimmed and collapsed, a leading
//! `www`, `www2`… label dropped, and its labels reversed (IPv4 addresses too, so
//! `127.0.0.1:8080` is `1,0,0,127:8080`), an IPv6 address kept without brackets; the
//! default port dropped, another kept after the host; path and query unescaped until
//! stable and escaped again only where a URL may not hold the octet raw (controls,
//! space, non-ASCII, `#`, `%`); dot segments resolved, empty segments and a trailing `/`
//! dropped; an empty query dropped, the query's `&`-separated parts sorted; all
//! lower-cased.

/// pywb's key for `url`.
pub fn pywb_key(url: &str) -> String {
    let url = url.trim();
    let url = url.split_once('#').map_or(url, |(u, _)| u);
    let (scheme, rest) = match url.split_once("://") {
        Some((s, r))
            if !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c)) =>
        {
            (s.to_ascii_lowercase(), r)
        }
        _ => ("http".to_owned(), url),
    };
    let end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, rest) = rest.split_at(end);
    let (path, query) = match rest.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (rest, None),
    };
    let authority = authority.rsplit_once('@').map_or(authority, |(_, a)| a);
    let (host, port) = split_port(authority);
    let host = String::from_utf8_lossy(&unescape_repeatedly(host.as_bytes())).to_ascii_lowercase();
    let mut key = if let Some(v6) = host.strip_prefix('[') {
        v6.trim_end_matches(']').to_owned()
    } else {
        let labels: Vec<&str> = host.split('.').filter(|l| !l.is_empty()).collect();
        let labels = match labels.first() {
            Some(first) if labels.len() > 1 && is_www(first) => &labels[1..],
            _ => &labels[..],
        };
        labels.iter().rev().copied().collect::<Vec<_>>().join(",")
    };
    let default = match scheme.as_str() {
        "https" => "443",
        _ => "80",
    };
    if let Some(port) = port.filter(|p| !p.is_empty() && *p != default) {
        key.push(':');
        key.push_str(port);
    }
    key.push(')');
    key.push_str(&canonical_path(path));
    if let Some(query) = query {
        let query = escape(&unescape_repeatedly(query.as_bytes())).to_ascii_lowercase();
        if !query.is_empty() {
            let mut parts: Vec<&str> = query.split('&').collect();
            parts.sort_unstable();
            key.push('?');
            key.push_str(&parts.join("&"));
        }
    }
    key.to_ascii_lowercase()
}

/// `www`, `www2`…: the label surt's host massage drops.
fn is_www(label: &str) -> bool {
    label
        .strip_prefix("www")
        .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()))
}

fn split_port(authority: &str) -> (&str, Option<&str>) {
    if authority.starts_with('[') {
        return match authority.find(']') {
            Some(i) => (&authority[..=i], authority[i + 1..].strip_prefix(':')),
            None => (authority, None),
        };
    }
    match authority.rsplit_once(':') {
        Some((h, p)) if p.bytes().all(|b| b.is_ascii_digit()) => (h, Some(p)),
        _ => (authority, None),
    }
}

/// The path unescaped, its dot and empty segments resolved, escaped again, without a
/// trailing `/` (but `/` for an empty path).
fn canonical_path(path: &str) -> String {
    let raw = unescape_repeatedly(path.as_bytes());
    let mut kept: Vec<&[u8]> = Vec::new();
    for segment in raw.split(|&b| b == b'/') {
        match segment {
            b"" | b"." => {}
            b".." => {
                kept.pop();
            }
            s => kept.push(s),
        }
    }
    let mut out = Vec::new();
    for segment in kept {
        out.push(b'/');
        out.extend_from_slice(segment);
    }
    if out.is_empty() {
        out.push(b'/');
    }
    escape(&out)
}

/// `%XX` undone until none is left (`%2541` is `A`), as Google's canonicalization does.
fn unescape_repeatedly(bytes: &[u8]) -> Vec<u8> {
    let mut current = unescape(bytes);
    loop {
        let next = unescape(&current);
        if next == current {
            return next;
        }
        current = next;
    }
}

fn unescape(bytes: &[u8]) -> Vec<u8> {
    let hex = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push(h * 16 + l);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    out
}

/// Escapes the octets a URL may not hold raw, as Google's canonicalization does.
fn escape(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        if b <= 0x20 || b >= 0x7f || b == b'#' || b == b'%' {
            out.push_str(&format!("%{b:02X}"));
        } else {
            out.push(b as char);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::pywb_key;

    /// Keys pywb 2.10 (surt 0.3.1) gave for these URLs; `tests/export.rs` asks a pywb
    /// installed by `scripts/archive-tools` for more.
    #[test]
    fn keys_are_pywbs() {
        for (url, key) in [
            (
                "http://127.0.0.1:8080/a/b/?z=1&a=2",
                "1,0,0,127:8080)/a/b?a=2&z=1",
            ),
            ("http://127.0.0.1/", "1,0,0,127)/"),
            (
                "http://www.Example.com:80/A%62c.html?",
                "com,example)/abc.html",
            ),
            ("https://www2.example.com:443/x/", "com,example)/x"),
            (
                "http://example.com/caf\u{e9} x#frag",
                "com,example)/caf%c3%a9%20x",
            ),
            ("http://example.com", "com,example)/"),
            (
                "http://user:pw@example.com/p?b=2&a=1&c",
                "com,example)/p?a=1&b=2&c",
            ),
            ("http://[::1]:8000/x", "::1:8000)/x"),
            ("http://example.com/a/../b/./c", "com,example)/b/c"),
            ("http://example.com/%7Efoo/%2F", "com,example)/~foo"),
            ("http://EXAMPLE.com./x", "com,example)/x"),
            ("http://example.com/?", "com,example)/"),
            ("http://192.168.0.1:80/", "1,0,168,192)/"),
            ("http://example.com/a//", "com,example)/a"),
            (
                "http://example.com/A?B=%41&a=b%20c&",
                "com,example)/a?&a=b%20c&b=a",
            ),
            ("http://example.com/%25", "com,example)/%25"),
            ("http://example.com/a?x=%2F#f", "com,example)/a?x=/"),
            ("http://example.com:8080", "com,example:8080)/"),
        ] {
            assert_eq!(pywb_key(url), key, "{url}");
        }
    }
}
