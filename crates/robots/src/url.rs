//! The part of a URL that rules are matched against (path, params and query, no fragment,
//! RFC 9309 §2.2.2; as Google's `GetPathParamsQuery` reads it), normalised as rules see it.

use crate::behaviour::{Behaviour, Profile};
use crate::normalize::{rfc_is_normal, PathBufs};
use crate::octets::Role;
use crate::simd::find::find_any;
use crate::simd::value_scan::scan_path;

/// The URL from where its path starts (at `/`, `?` or `;`), fragment included, for an
/// absolute URL (`https://host/p?q#f`), a network-path reference (`//host/p`) or a path
/// (`/p?q`); `None` when it has no path, or a fragment comes first: the path is `/` then.
/// Leaving the fragment on lets a check look for it in the same pass as for anything
/// else ([`without_fragment`] cuts it). With `skip_userinfo`, a `;` in the userinfo
/// (`https://u;x@host/p`) does not start the path, as Google's reading has it.
pub(crate) fn from_path(url: &[u8], skip_userinfo: bool) -> Option<&[u8]> {
    // The octets that can end the authority.
    let find_path = |from: usize| find_any(&url[from..], *b"/?;#").map(|i| i + from);
    let authority_start = if url.starts_with(b"https://") {
        8
    } else if url.starts_with(b"http://") {
        7
    } else {
        let search_start = if url.starts_with(b"//") { 2 } else { 0 };
        // A scheme ends in "://" before the path begins; since "://" holds a `/`, that
        // means the first path character is the `/` right after a `:`. A "://" later on
        // is part of the path or query, not a scheme separator.
        match find_path(search_start) {
            Some(e) if e > search_start && url[e - 1] == b':' && url[e..].starts_with(b"//") => {
                e + 2
            }
            _ => search_start,
        }
    };
    let mut path_start = find_path(authority_start)?;
    // Userinfo may hold a `;` (RFC 3986 §3.2.1) but not `/`, `?` or `#`, and ends at the
    // authority's last `@`. Only a `;` found first can be in it, which is rare.
    if skip_userinfo && url[path_start] == b';' {
        let authority = &url[authority_start..];
        let end = find_any(authority, *b"/?#").unwrap_or(authority.len());
        if let Some(at) = memchr::memrchr(b'@', &authority[..end]) {
            path_start = find_path(authority_start + at + 1)?;
        }
    }
    (url[path_start] != b'#').then(|| &url[path_start..])
}

/// A path without its fragment.
pub(crate) fn without_fragment(path: &[u8]) -> &[u8] {
    &path[..crate::simd::find::find(path, b'#').unwrap_or(path.len())]
}

/// A path up to its first NUL octet, as Google's matcher sees it: it hands the path to
/// its rules as a C string, so a NUL ends it (see `Behaviour::nul_ends_path`).
pub(crate) fn before_nul(path: &[u8]) -> &[u8] {
    &path[..crate::simd::find::find(path, 0).unwrap_or(path.len())]
}

/// The path as rules see it: extracted from the URL, then normalised in the RFC 9309
/// profile. Copies into one of `bufs` only when something changes (and only then pays
/// for setting up a buffer, sized for the path).
pub(crate) fn match_path<'p>(
    behaviour: &Behaviour,
    url: &'p [u8],
    bufs: &'p mut PathBufs,
) -> &'p [u8] {
    let Some(rest) = from_path(url, !behaviour.semicolon_in_userinfo_ends_host) else {
        return b"/";
    };
    let normalise = !behaviour.escape_patterns_only;
    let nul_ends = behaviour.nul_ends_path;
    let needs_slash = rest[0] != b'/';
    // The usual URL, found in one pass: a path without fragment that normalising leaves
    // alone (so without NUL, in RFC 9309). Google's NUL is looked for apart: a test for
    // it in this pass cost RFC 9309 checks 3% of their time.
    let scan = scan_path(rest, normalise);
    if !needs_slash && scan.plain {
        return if nul_ends { before_nul(rest) } else { rest };
    }
    // Google cuts the fragment off the whole URL, then sees the rest up to a NUL.
    let mut path = if scan.fragment {
        without_fragment(rest)
    } else {
        rest
    };
    if nul_ends {
        path = before_nul(path);
    }
    // If nothing was cut, the pass above found an octet to normalise: no second pass.
    if !needs_slash && (!normalise || (path.len() < rest.len() && rfc_is_normal(path, Role::Path)))
    {
        return path;
    }
    bufs.path(needs_slash, path, normalise)
}

impl Profile {
    /// Whether this profile allows `url` (an absolute URL or a path) whatever a
    /// robots.txt says, so also when there is none to read: in the RFC 9309 profile,
    /// `/robots.txt` itself, after normalisation (§2.2.2), even when the robots.txt is
    /// unreachable and everything else is disallowed; in the Google profile, nothing,
    /// since Google's matcher matches `/robots.txt` like any path.
    ///
    /// ```
    /// use robots::Profile;
    /// assert!(Profile::Rfc9309.always_allows("https://example.com/robots.txt#top"));
    /// assert!(Profile::Rfc9309.always_allows("/%72obots.txt"));
    /// assert!(!Profile::Rfc9309.always_allows("/robots.txt?x=1"));
    /// assert!(!Profile::Google.always_allows("/robots.txt"));
    /// ```
    pub fn always_allows(self, url: &str) -> bool {
        let behaviour = self.behaviour();
        let mut bufs = PathBufs::default();
        behaviour.always_allowed(match_path(&behaviour, url.as_bytes(), &mut bufs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(url: &str) -> String {
        let Some(rest) = from_path(url.as_bytes(), true) else {
            return "/".into();
        };
        let slash = if rest[0] == b'/' { "" } else { "/" };
        format!("{slash}{}", String::from_utf8_lossy(without_fragment(rest)))
    }

    #[test]
    fn absolute_urls_lose_scheme_authority_and_fragment() {
        assert_eq!(path("https://example.com/a/b?c=d#e"), "/a/b?c=d");
        assert_eq!(path("http://example.com"), "/");
        assert_eq!(path("http://example.com#frag"), "/");
        assert_eq!(path("http://example.com?q"), "/?q");
        assert_eq!(path("http://example.com;p"), "/;p");
        assert_eq!(path("HTTPS://example.com/a#b"), "/a");
        assert_eq!(path("ftp://example.com/a"), "/a");
        assert_eq!(path("https://example.com#f/a"), "/");
    }

    #[test]
    fn userinfo_may_hold_a_semicolon_unless_read_as_google_does() {
        assert_eq!(path("https://user;x@example.com/private"), "/private");
        assert_eq!(path("https://u:p;w@example.com;v/a"), "/;v/a");
        assert_eq!(path("https://u;x@example.com"), "/");
        assert_eq!(path("//u;x@example.com/a?b@c"), "/a?b@c");
        assert_eq!(path("http://example.com;p@"), "/");
        let google = from_path(b"https://user;x@example.com/private", false);
        assert_eq!(google, Some(&b";x@example.com/private"[..]));
    }

    #[test]
    fn a_nul_ends_the_path_as_a_c_string_would() {
        assert_eq!(before_nul(b"/a\0b"), b"/a");
        assert_eq!(before_nul(b"/a\0"), b"/a");
        assert_eq!(before_nul(b"/ab"), b"/ab");
        assert_eq!(before_nul(b""), b"");
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
