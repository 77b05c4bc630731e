//! `robots.origin_of`: the origin a URL's robots.txt governs (RFC 9309 §2.3), as the
//! engine's `Origin::of` reads it, so that Python jobs key URLs as the Rust crates do.

use pyo3::prelude::*;
use robots::Origin;

/// ``scheme://host[:port]`` of an absolute http(s) URL: scheme and host lower-cased,
/// the default port left out, an IPv6 address in brackets; ``None`` for anything else.
/// robots.txt applies per origin (RFC 9309 §2.3). The host is taken as written (no IDNA
/// mapping, no percent-decoding), as the ``robots`` archive reads captured URLs.
///
/// >>> import robots
/// >>> robots.origin_of("HTTP://Example.COM:80/a?b")
/// 'http://example.com'
/// >>> robots.origin_of("https://[::1]:8443/x")
/// 'https://[::1]:8443'
/// >>> robots.origin_of("/relative") is None
/// True
#[pyfunction]
pub fn origin_of(url: &str) -> Option<String> {
    Origin::of(url).ok().map(|origin| origin.to_string())
}
