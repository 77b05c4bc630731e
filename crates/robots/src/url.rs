//! The part of a URL that rules are matched against: path, params and query, without
//! the fragment (RFC 9309 §2.2.2), read the way Google's `GetPathParamsQuery` reads it.

/// The path to match, borrowed from the URL. `needs_slash` is set when the URL's
/// path part starts with `?` or `;`, so that `/` must be put in front.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PathPart<'a> {
    pub needs_slash: bool,
    pub bytes: &'a [u8],
}

/// The octets that can end a URL's authority: `/`, `?`, `;` and `#`, by table.
static PATH_START: [bool; 256] = {
    let mut table = [false; 256];
    table[b'/' as usize] = true;
    table[b'?' as usize] = true;
    table[b';' as usize] = true;
    table[b'#' as usize] = true;
    table
};

/// Finds the path of an absolute URL (`https://host/p?q#f`), a network-path reference
/// (`//host/p`) or a path (`/p?q`). An empty path is `/`; the fragment is dropped.
pub(crate) fn path_part(url: &[u8]) -> PathPart<'_> {
    const ROOT: PathPart<'static> = PathPart {
        needs_slash: false,
        bytes: b"/",
    };
    let search_start = if url.starts_with(b"//") { 2 } else { 0 };
    // The first path character, or a `#` that comes before any.
    let find_path = |from: usize| {
        url[from..]
            .iter()
            .position(|&b| PATH_START[usize::from(b)])
            .map(|i| i + from)
    };
    let early_path = find_path(search_start);
    // A scheme ends in "://" before the path begins; since "://" holds a `/`, that means
    // the first path character is the `/` right after a `:`. A "://" later on is part of
    // the path or query, not a scheme separator.
    let authority_start = match early_path {
        Some(e) if e > search_start && url[e - 1] == b':' && url[e..].starts_with(b"//") => e + 2,
        _ => search_start,
    };
    // No path, or a fragment before it: the path is empty.
    let Some(path_start) = find_path(authority_start).filter(|&p| url[p] != b'#') else {
        return ROOT;
    };
    let path_end = memchr::memchr(b'#', &url[path_start..]).map_or(url.len(), |h| path_start + h);
    PathPart {
        needs_slash: url[path_start] != b'/',
        bytes: &url[path_start..path_end],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(url: &str) -> String {
        let p = path_part(url.as_bytes());
        let slash = if p.needs_slash { "/" } else { "" };
        format!("{slash}{}", String::from_utf8_lossy(p.bytes))
    }

    #[test]
    fn absolute_urls_lose_scheme_authority_and_fragment() {
        assert_eq!(path("https://example.com/a/b?c=d#e"), "/a/b?c=d");
        assert_eq!(path("http://example.com"), "/");
        assert_eq!(path("http://example.com#frag"), "/");
        assert_eq!(path("http://example.com?q"), "/?q");
        assert_eq!(path("http://example.com;p"), "/;p");
    }

    #[test]
    fn paths_and_network_paths() {
        assert_eq!(path("/a?b"), "/a?b");
        assert_eq!(path("//example.com/a"), "/a");
        assert_eq!(path(""), "/");
        assert_eq!(path("example.com"), "/");
        assert_eq!(path("/a?u=http://x/y"), "/a?u=http://x/y");
    }
}
