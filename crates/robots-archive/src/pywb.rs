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
//! `&`-separated parts sorted by name and value; ASP.NET session IDs in `.aspx` paths
//! taken out; a non-ASCII host in IDNA, an IPv4 address in the decimal and octal forms
//! its resolver reads (`127.1`, `0177.0.0.1`, `2130706433`) written dotted; all
//! lower-cased. `tests/it/export.rs` checks these against pywb itself. A key that
//! differed would let pywb miss an access rule, so exports key by this.

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
    key.push_str(&strip_path_session_ids(&canonical_path(path)));
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

/// The host as surt canonicalizes it: non-ASCII names in IDNA (punycode), an IPv4
/// address in any form its resolver reads ([`ipv4`]) written dotted, lower-cased.
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
    // surt reads the address after collapsing `..` (once, left to right) and trimming dots.
    let collapsed = text.replace("..", ".");
    if let Some(address) = ipv4(collapsed.trim_matches('.')) {
        return address.to_string();
    }
    text.to_ascii_lowercase()
}

/// The IPv4 address a host names as surt 0.3.1 reads it (its `attemptIPFormats`): digits
/// alone are a 32-bit number, taken modulo 2^32; a dotted form of one to four parts of
/// digits, the first not starting with `0` (decimal) or all octal digits with the first
/// starting with `0` (octal), is read as `inet_aton` reads it, each part octal when it
/// starts with `0`, the last part filling the octets left (`127.1` is 127.0.0.1,
/// `0177.0.0.1` too); `None` for anything else, such as `08.1.1.1`, `1.2.3.0400` or
/// `0x7f.0.0.1` (pywb 2.10 keeps those as written, seen with its `canonicalize`).
fn ipv4(host: &str) -> Option<std::net::Ipv4Addr> {
    if host.is_empty() {
        return None;
    }
    if host.bytes().all(|b| b.is_ascii_digit()) {
        let n = host.bytes().fold(0u32, |n, d| {
            n.wrapping_mul(10).wrapping_add(u32::from(d - b'0'))
        });
        return Some(n.into());
    }
    let parts: Vec<&str> = host.split('.').collect();
    let digits =
        |p: &str, max: u8| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit() && b <= max);
    let decimal = !parts[0].starts_with('0') && parts.iter().all(|p| digits(p, b'9'));
    let octal = parts[0].starts_with('0') && parts.iter().all(|p| digits(p, b'7'));
    if parts.len() > 4 || !(decimal || octal) {
        return None;
    }
    // inet_aton: a part starting with `0` is octal, and an octal part with an 8 or 9
    // makes the whole address invalid.
    let values = parts
        .iter()
        .map(
            |p| match p.strip_prefix('0').filter(|rest| !rest.is_empty()) {
                Some(rest) => u64::from_str_radix(rest, 8).ok(),
                None => p.parse::<u64>().ok(),
            },
        )
        .collect::<Option<Vec<u64>>>()?;
    let (leading, last) = values.split_at(values.len() - 1);
    let room = 8 * (4 - leading.len() as u32);
    if leading.iter().any(|&v| v > 255) || last[0] >= 1u64 << room {
        return None;
    }
    let mut n = leading.iter().fold(0u64, |n, &v| n << 8 | v);
    n = n << room | last[0];
    u32::try_from(n).ok().map(Into::into)
}

/// surt's `stripPathSessionID`: an ASP.NET session written into the path before a
/// `.aspx` page, `/(S(<24 letters or digits>))/` (one or more letter-named parts) or
/// `/(<24>)/`, taken out, each form in turn, its last place in the path (the patterns'
/// greedy `.*/`), whatever the case.
fn strip_path_session_ids(path: &str) -> String {
    fn alnum24(s: &[u8]) -> bool {
        s.len() >= 24 && s[..24].iter().all(u8::is_ascii_alphanumeric)
    }
    // `(x(<24>)y(<24>))/`: its length.
    let cookieless = |s: &[u8]| {
        let mut i = 1;
        while s.get(i).is_some_and(u8::is_ascii_alphabetic)
            && s.get(i + 1) == Some(&b'(')
            && alnum24(s.get(i + 2..).unwrap_or_default())
            && s.get(i + 26) == Some(&b')')
        {
            i += 27;
        }
        (s.first() == Some(&b'(') && i > 1 && s.get(i..i + 2) == Some(b")/".as_slice()))
            .then_some(i + 2)
    };
    // `(<24>)/`: its length.
    let bare = |s: &[u8]| {
        (s.first() == Some(&b'(') && alnum24(&s[1..]) && s.get(25..27) == Some(b")/".as_slice()))
            .then_some(27)
    };
    // What follows must be a page: something, then `.aspx`, with no `?` before it.
    let aspx = |rest: &[u8]| {
        (1..rest.len()).any(|j| {
            rest[j..].len() >= 5
                && rest[j..j + 5].eq_ignore_ascii_case(b".aspx")
                && !rest[..j].contains(&b'?')
        })
    };
    let mut p = path.as_bytes().to_vec();
    let forms: [&SessionMatch; 2] = [&cookieless, &bare];
    for form in forms {
        let found = (1..p.len())
            .rev()
            .filter(|&i| p[i - 1] == b'/')
            .find_map(|i| {
                let n = form(&p[i..])?;
                aspx(&p[i + n..]).then_some((i, i + n))
            });
        if let Some((start, end)) = found {
            p.drain(start..end);
        }
    }
    String::from_utf8_lossy(&p).into_owned()
}

/// How many octets a session ID's pattern takes at the start of what it is given (a
/// query's value after the ID's name, a path's segment), if it matches there.
type SessionMatch = dyn Fn(&[u8]) -> Option<usize>;

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
    let patterns: [(&[u8], &SessionMatch); 5] = [
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
            (
                "http://example.com/(S(abcdefghijklmnopqrstuvwx))/page.aspx?a=1",
                "com,example)/page.aspx?a=1",
            ),
            (
                "http://example.com/(abcdefghijklmnopqrstuvwx)/x/page.html",
                "com,example)/(abcdefghijklmnopqrstuvwx)/x/page.html",
            ),
            ("http://0177.0.0.1/a", "1,0,0,127)/a"),
            ("http://127.1/a", "1,0,0,127)/a"),
            ("http://1.2.3.04/a", "4,3,2,1)/a"),
            ("http://1.2.3.0400/a", "0400,3,2,1)/a"),
            ("http://08.1.1.1/a", "1,1,1,08)/a"),
            ("http://0x7f.0.0.1/a", "1,0,0,0x7f)/a"),
            ("http://1.16777216/a", "16777216,1)/a"),
        ] {
            assert_eq!(pywb_key(url), key, "{url}");
        }
    }

    proptest::proptest! {
        /// A dotted quad of decimal octets reads as itself, whatever the resolver's other
        /// forms allow.
        #[test]
        fn dotted_quads_are_themselves(a in 1u8.., b: u8, c: u8, d: u8) {
            let host = format!("{a}.{b}.{c}.{d}");
            proptest::prop_assert_eq!(super::ipv4(&host), Some(std::net::Ipv4Addr::new(a, b, c, d)));
        }

        /// Any text gives a key, never a panic, and keys are lower-case, as pywb's are.
        #[test]
        fn any_text_gives_a_lower_case_key(url in "\\PC{0,60}") {
            let key = pywb_key(&url);
            proptest::prop_assert_eq!(key.to_ascii_lowercase(), key);
        }
    }
}
