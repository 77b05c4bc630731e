//! What to tell a site owner about a rule's pattern that starts with neither `/` nor `*`
//! and so matches no path (RFC 9309 §2.2.2: paths start with `/`). Real files write
//! such values for a handful of reasons, and each wants its own fix: `write /<value>` is
//! wrong advice for a URL (`/https://…` matches nothing either), a host name, or a whole
//! line pasted after the key.

use crate::behaviour::Behaviour;
use crate::directive::{classify, Directive};

/// The message and suggestion for the pattern `value` that does not start with `/` or
/// `*`, read under `behaviour`.
pub(crate) fn pattern_start(value: &str, behaviour: &Behaviour) -> (String, String) {
    let nothing = format!("`{value}` does not start with `/` or `*`, so it matches no path");
    if let Some((host, path)) = url_parts(value) {
        return (
            format!("`{value}` is a URL, but rules match paths only, so it matches nothing"),
            format!(
                "write the path alone, `{path}`, in the robots.txt of {host}: each host has its own"
            ),
        );
    }
    if let Some((key, rest)) = pasted_line(value, behaviour) {
        return (
            format!(
                "`{value}` is a `{key}` line written after this line's key, so it matches no path"
            ),
            format!("write `{key}: {rest}` on a line of its own"),
        );
    }
    let suggestion = match value.as_bytes().first() {
        // `.pdf`, `.js$`: a file type, wherever it is.
        Some(b'.') => format!("write `/*{value}` to match it in any path"),
        Some(b'?') => format!(
            "write `/*{value}` for that query on any path, or `/{value}` for the home page only"
        ),
        _ => format!("write `/{value}`"),
    };
    (nothing, suggestion)
}

/// A URL's host (quoted, or "that host") and path (`/` when it has none), if `value` is an
/// absolute URL (`https://example.com/x`), a scheme-relative one (`//example.com/x`), or
/// starts with a host name and a path (`www.example.com/x`). A host is told from a first
/// segment like `page.html` by needing a `/` after it and `www.` or two dots.
fn url_parts(value: &str) -> Option<(String, &str)> {
    let lower = value.get(..8).unwrap_or(value).to_ascii_lowercase();
    let rest = ["https://", "http://", "//"]
        .iter()
        .find(|scheme| lower.starts_with(*scheme))
        .map(|scheme| &value[scheme.len()..]);
    let (rest, schemeless) = match rest {
        Some(rest) => (rest, false),
        None => (value, true),
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let host = &rest[..end];
    if schemeless {
        let named = host.len() > 4
            && host
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-')
            && (host.to_ascii_lowercase().starts_with("www.")
                || host.bytes().filter(|&b| b == b'.').count() >= 2);
        if !named || !rest[end..].starts_with('/') {
            return None;
        }
    }
    let path = match &rest[end..] {
        "" => "/",
        path if path.starts_with('/') => path,
        // `https://example.com?q`: the path is `/`, but the rest is not a pattern to
        // suggest as it stands.
        _ => "/",
    };
    let host = if host.is_empty() {
        "that host".to_owned()
    } else {
        format!("`{host}`")
    };
    Some((host, path))
}

/// The key and value of a line pasted after a rule's key (`Disallow: Disallow: /x`,
/// `Allow: Sitemap: https://…`), if `value` starts with a directive and a colon.
fn pasted_line<'a>(value: &'a str, behaviour: &Behaviour) -> Option<(&'a str, &'a str)> {
    let (key, rest) = value.split_once(':')?;
    let key = key.trim();
    (!key.is_empty() && classify(key.as_bytes(), behaviour).0 != Directive::Other)
        .then(|| (key, rest.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn suggest(value: &str) -> String {
        pattern_start(value, &Behaviour::RFC9309).1
    }

    #[test]
    fn urls_and_hosts_get_their_path_and_host() {
        assert_eq!(
            suggest("https://www.example.com/private/x?a=1"),
            "write the path alone, `/private/x?a=1`, in the robots.txt of `www.example.com`: each host has its own"
        );
        assert_eq!(
            suggest("http://shop.example.com"),
            "write the path alone, `/`, in the robots.txt of `shop.example.com`: each host has its own"
        );
        assert!(suggest("www.example.com/blog/a$").contains("`/blog/a$`"));
        assert!(suggest("img.example.co.uk/thumbs/*").contains("`/thumbs/*`"));
    }

    #[test]
    fn file_names_and_relative_paths_get_a_slash() {
        assert_eq!(suggest("lexhandle.asp"), "write `/lexhandle.asp`");
        assert_eq!(suggest("index.php/x"), "write `/index.php/x`");
        assert_eq!(suggest("en/user/logout/"), "write `/en/user/logout/`");
    }

    #[test]
    fn file_types_queries_and_pasted_lines() {
        assert_eq!(suggest(".pdf$"), "write `/*.pdf$` to match it in any path");
        assert!(suggest("?utm_source=").starts_with("write `/*?utm_source=` for that query"));
        assert_eq!(
            suggest("Disallow: /search?*"),
            "write `Disallow: /search?*` on a line of its own"
        );
        assert_eq!(
            suggest("Sitemap: https://example.com/s.xml"),
            "write `Sitemap: https://example.com/s.xml` on a line of its own"
        );
        // A colon in a value that is no directive is only a value.
        assert_eq!(suggest("a:b"), "write `/a:b`");
    }
}
