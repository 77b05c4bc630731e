//! Patterns whose escapes of `:` `/` `?` `@` may fall in a path's query, where RFC 9309
//! §2.2.2 makes them equal to the octets they encode: finding them, and matching them.
//! Such a pattern's length, for precedence, stays its length as written.

use crate::normalize::query_delimiter_escape;

/// Whether a wildcard pattern (normalised in the RFC 9309 profile) holds an escape of
/// `:` `/` `?` `@` between its first `*` and its first `?`. Such an escape may fall in
/// the query of the path it is matched against, where RFC 9309 §2.2.2 makes it equal to
/// the octet it encodes (the path has it decoded there), or before it, where it stands for
/// itself; normalising the pattern cannot tell which, so [`matches_across_query`] does,
/// path by path. Before the first `*` a pattern is a prefix, so it ends before the
/// path's query unless it holds the `?` itself; after its first `?` it was normalised as
/// a query.
pub(crate) fn query_escapes(pattern: &[u8]) -> bool {
    let Some(star) = crate::simd::find::find(pattern, b'*') else {
        return false;
    };
    let query = crate::simd::find::find(pattern, b'?').unwrap_or(pattern.len());
    let zone = pattern.get(star..query).unwrap_or_default();
    memchr::memchr_iter(b'%', zone).any(|i| query_delimiter_escape(&zone[i..]).is_some())
}

/// [`matches`] for a pattern with [`query_escapes`]: each segment after the first `*` is
/// compared with the path octet by octet, an escape of `:` `/` `?` `@` matching the octet
/// it encodes where it falls in the path's query, and itself elsewhere. A segment then
/// takes more or fewer path octets depending on where it starts, so each is placed where
/// it ends earliest (which, like leftmost placement in [`matches`], leaves the most of the
/// path to the rest), trying every start: path × segment steps per segment, never
/// backtracking. Such patterns are rare.
///
/// [`matches`]: crate::pattern::matches
pub(crate) fn matches_across_query(pattern: &[u8], anchored: bool, path: &[u8]) -> bool {
    // Octets past the path's first `?` are in its query.
    let query = memchr::memchr(b'?', path).unwrap_or(path.len());
    let mut segments = pattern.split(|&b| b == b'*');
    let first = segments.next().unwrap_or_default();
    if !path.starts_with(first) {
        return false;
    }
    let mut pos = first.len();
    let mut segments = segments.peekable();
    while let Some(segment) = segments.next() {
        let mut ends = (pos..=path.len()).filter_map(|at| segment_at(segment, path, at, query));
        if anchored && segments.peek().is_none() {
            return ends.any(|end| end == path.len());
        }
        match ends.min() {
            Some(end) => pos = end,
            None => return false,
        }
    }
    true
}

/// Where `segment` ends if it matches `path` from `at` (see [`matches_across_query`]).
fn segment_at(segment: &[u8], path: &[u8], mut at: usize, query: usize) -> Option<usize> {
    let mut i = 0;
    while i < segment.len() {
        let decoded = (at > query)
            .then(|| query_delimiter_escape(&segment[i..]))
            .flatten();
        let (octet, width) = decoded.map_or((segment[i], 1), |octet| (octet, 3));
        if path.get(at) != Some(&octet) {
            return None;
        }
        at += 1;
        i += width;
    }
    Some(at)
}

/// `pattern` with each escape of `:` `/` `?` `@` written as `***`.
pub(crate) fn blank_query_escapes(pattern: &[u8]) -> Vec<u8> {
    let mut blanked = pattern.to_vec();
    for i in 0..pattern.len() {
        if query_delimiter_escape(&pattern[i..]).is_some() {
            blanked[i..i + 3].fill(b'*');
        }
    }
    blanked
}

#[cfg(test)]
mod tests {
    use super::{matches_across_query, query_escapes};

    fn m(pattern: &str, path: &str) -> bool {
        let (pattern, anchored) = match pattern.strip_suffix('$') {
            Some(p) => (p, true),
            None => (pattern, false),
        };
        matches_across_query(pattern.as_bytes(), anchored, path.as_bytes())
    }

    #[test]
    fn only_escapes_between_the_first_star_and_the_first_question_mark_count() {
        assert!(query_escapes(b"/*url=http%3A%2F%2F"));
        assert!(query_escapes(b"/a*%40b?c"));
        assert!(!query_escapes(b"/a%3A*b"));
        assert!(!query_escapes(b"/a?*%3A"));
        assert!(!query_escapes(b"/a*b?%3A"));
        assert!(!query_escapes(b"/*%41b"));
        assert!(!query_escapes(b"/a%3Ab"));
    }

    #[test]
    fn an_escape_in_the_query_matches_the_octet_it_encodes() {
        assert!(m("/*url=http%3A%2F%2F", "/r?url=http://x"));
        assert!(m("/*v%3Asources=", "/search?v:sources=abc"));
        assert!(m("/*%40$", "/a?b@"));
        assert!(!m("/*%40$", "/a?b@c"));
    }

    #[test]
    fn an_escape_before_the_query_stands_for_itself() {
        assert!(m("/*a%3Ab", "/x/a%3Ab"));
        assert!(!m("/*a%3Ab", "/x/a:b"));
        // The path's `?` starts the query; an escaped `?` is not it.
        assert!(!m("/*x%3F", "/x?"));
        assert!(m("/*x%3F", "/x%3F"));
    }

    /// Patterns and paths here are normalised: past a `?`, these escapes are decoded.
    #[test]
    fn a_segment_may_straddle_the_query() {
        assert!(m("/*b%2Fc?d/", "/ab%2Fc?d/"));
        assert!(!m("/*b%2Fc?d/", "/ab/c?d/"));
        assert!(m("/*%2Fq?r", "/p%2Fq?r"));
    }

    #[test]
    fn each_segment_is_placed_where_it_ends_earliest() {
        // `%3A` after the second `*` must still find its `:` past the first segment.
        assert!(m("/*a*%3A*z", "/?a:z"));
        assert!(!m("/*a*%3A*z", "/?za:"));
        assert!(m("/*%3A*%3A", "/x%3A?:"));
        assert!(!m("/*%3A*%3A", "/x%3A"));
    }

    /// Whether `pattern` (from octet `pi`) matches `path` from octet `at`, trying every
    /// way, each escape of a query delimiter compared by where it falls in the path;
    /// `query` is where the path's first `?` is, and `seen` what was tried already.
    fn every_way(
        pattern: &[u8],
        (pi, at): (usize, usize),
        anchored: bool,
        path: &[u8],
        query: usize,
        seen: &mut std::collections::HashMap<(usize, usize), bool>,
    ) -> bool {
        if let Some(&known) = seen.get(&(pi, at)) {
            return known;
        }
        let result = match pattern.get(pi) {
            None => !anchored || at == path.len(),
            Some(b'*') => (at..=path.len())
                .any(|to| every_way(pattern, (pi + 1, to), anchored, path, query, seen)),
            Some(&octet) => {
                let (octet, width) = match super::query_delimiter_escape(&pattern[pi..]) {
                    Some(decoded) if at > query => (decoded, 3),
                    _ => (octet, 1),
                };
                path.get(at) == Some(&octet)
                    && every_way(pattern, (pi + width, at + 1), anchored, path, query, seen)
            }
        };
        seen.insert((pi, at), result);
        result
    }

    fn normalised(bytes: &[u8], role: crate::octets::Role) -> Vec<u8> {
        let mut out = Vec::new();
        crate::normalize::rfc_normalize(bytes, role, &mut out);
        out
    }

    proptest::proptest! {
        /// On normalised patterns and paths, placing each segment where it ends earliest
        /// finds a match whenever one exists; and the filter never rules out a path the
        /// pattern matches.
        #[test]
        fn the_earliest_end_finds_every_match_and_the_filter_keeps_it(
            pattern in proptest::collection::vec(
                proptest::sample::select(vec!["*", "%3A", "%2F", "%3F", "%40", ":", "/", "?", "a", "%"]),
                0..8,
            ),
            path in proptest::collection::vec(
                proptest::sample::select(vec!["%3A", "%2F", "%3F", ":", "/", "?", "@", "a", "b"]),
                0..10,
            ),
            anchored: bool,
        ) {
            let pattern = normalised(format!("/*{}", pattern.concat()).as_bytes(), crate::octets::Role::Pattern);
            let path = normalised(format!("/{}", path.concat()).as_bytes(), crate::octets::Role::Path);
            let query = memchr::memchr(b'?', &path).unwrap_or(path.len());
            let want = every_way(&pattern, (0, 0), anchored, &path, query, &mut Default::default());
            proptest::prop_assert_eq!(matches_across_query(&pattern, anchored, &path), want);
            if !query_escapes(&pattern) {
                proptest::prop_assert_eq!(crate::pattern::matches(&pattern, true, anchored, &path), want);
            }
            if want {
                let filter = crate::pattern::Filter::of(&pattern, true, query_escapes(&pattern));
                proptest::prop_assert!(filter.octets_in(crate::simd::octet_mask::byte_mask(&path)));
                proptest::prop_assert!(crate::pattern::PairSet::of(&path).contains_all(&filter.pairs()));
            }
        }
    }
}
