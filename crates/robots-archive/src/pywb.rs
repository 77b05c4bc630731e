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
//! dropped; session IDs (`jsessionid=`, `phpsessid=`, `sid=`, `ASPSESSIONID…`,
//! `cfid=…&cftoken=…`) taken out of the query, an empty query dropped, the query's
//! `&`-separated parts sorted by name and value; a non-ASCII host in IDNA, a host of
//! digits alone read as an IPv4 address; all lower-cased. Not reproduced: surt's
//! session IDs in `.aspx` paths and dotted octal or hex IPv4 forms (it asks the
//! resolver), rare enough that `tests/it/export.rs` checks the rest against pywb itself.
//! A key that differed would let pywb miss an access rule, so exports key by this.

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
    let host = canonical_host(&unescape_repeatedly(host.as_bytes()));
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
        let query = strip_session_ids(&escape(&unescape_repeatedly(query.as_bytes())));
        let query = query.to_ascii_lowercase();
        if !query.is_empty() {
            // Sorted as surt sorts them: by name, then value (split at the first `=`).
            let mut parts: Vec<(&str, Option<&str>)> = query
                .split('&')
                .map(|p| match p.split_once('=') {
                    Some((n, v)) => (n, Some(v)),
                    None => (p, None),
                })
                .collect();
            parts.sort();
            let parts: Vec<String> = parts
                .into_iter()
                .map(|(n, v)| v.map_or_else(|| n.to_owned(), |v| format!("{n}={v}")))
                .collect();
            key.push('?');
            key.push_str(&parts.join("&"));
        }
    }
    key.to_ascii_lowercase()
}

/// The host as surt canonicalizes it: non-ASCII names in IDNA (punycode), a host of
/// digits alone read as a 32-bit IPv4 address, lower-cased.
fn canonical_host(host: &[u8]) -> String {
    let text = String::from_utf8_lossy(host);
    if !text.is_ascii() {
        if let Some(ascii) = url::Url::parse(&format!("http://{text}/"))
            .ok()
            .and_then(|u| u.host_str().map(str::to_owned))
        {
            return ascii;
        }
    }
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        if let Ok(n) = text.parse::<u128>() {
            return std::net::Ipv4Addr::from((n & 0xffff_ffff) as u32).to_string();
        }
    }
    text.to_ascii_lowercase()
}

/// How many octets after a session ID's name its value takes, if it is one.
type BodyMatch = dyn Fn(&[u8]) -> Option<usize>;

/// Session IDs surt removes from a query (its `stripQuerySessionID`, each pattern in
/// turn, case-insensitively, its rightmost match): `jsessionid=`, `phpsessid=` and
/// `sid=` with 32 letters or digits, `ASPSESSIONID<8 letters>=<24 letters>`, and
/// `cfid=…&cftoken=…`, each with the `&` after it.
fn strip_session_ids(query: &str) -> String {
    let alnum = |n: usize| {
        move |rest: &[u8]| {
            (rest.len() >= n && rest[..n].iter().all(u8::is_ascii_alphanumeric)).then_some(n)
        }
    };
    let asp = |rest: &[u8]| {
        let letters = |s: &[u8]| s.iter().all(u8::is_ascii_alphabetic);
        (rest.len() >= 33 && letters(&rest[..8]) && rest[8] == b'=' && letters(&rest[9..33]))
            .then_some(33)
    };
    let cf = |rest: &[u8]| {
        let first = rest.iter().position(|&b| b == b'&').filter(|&n| n > 0)?;
        let after = rest[first..]
            .strip_prefix(b"&cftoken=".as_slice())
            .or_else(|| {
                let tail = &rest[first..];
                (tail.len() >= 9 && tail[..9].eq_ignore_ascii_case(b"&cftoken="))
                    .then(|| &tail[9..])
            })?;
        let n = after.iter().position(|&b| b == b'&').unwrap_or(after.len());
        (n > 0).then_some(first + 9 + n)
    };
    let patterns: [(&[u8], &BodyMatch); 5] = [
        (b"jsessionid=", &alnum(32)),
        (b"phpsessid=", &alnum(32)),
        (b"sid=", &alnum(32)),
        (b"aspsessionid", &asp),
        (b"cfid=", &cf),
    ];
    let mut q = query.as_bytes().to_vec();
    for (name, body) in patterns {
        // The rightmost start whose match ends the query or is followed by `&`.
        let found = (0..q.len()).rev().find_map(|i| {
            let rest = q.get(i..)?;
            if rest.len() < name.len() || !rest[..name.len()].eq_ignore_ascii_case(name) {
                return None;
            }
            let n = body(&rest[name.len()..])?;
            let end = i + name.len() + n;
            match q.get(end) {
                None => Some((i, end)),
                Some(b'&') => Some((i, end + 1)),
                Some(_) => None,
            }
        });
        if let Some((start, end)) = found {
            q.drain(start..end);
        }
    }
    String::from_utf8_lossy(&q).into_owned()
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

    /// Keys pywb 2.10 (surt 0.3.1) gave for these URLs; `tests/it/export.rs` asks a pywb
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

    proptest::proptest! {
        /// Any text gives a key, never a panic, and keys are lower-case, as pywb's are.
        #[test]
        fn any_text_gives_a_lower_case_key(url in "\\PC{0,60}") {
            let key = pywb_key(&url);
            proptest::prop_assert_eq!(key.to_ascii_lowercase(), key);
        }
    }
}
