//! Matching a path against a rule's pattern: `*` for any run of octets, a final `$`
//! for the end of the path (RFC 9309 §2.2.3), never backtracking: in time linear in the
//! path, or path × pattern for the rare patterns [`matches_across_query`](crate::across_query::matches_across_query) matches.

use crate::across_query::blank_query_escapes;
use crate::simd::octet_mask::byte_mask;

/// Whether `pattern` matches a prefix of `path` (or all of it when `anchored`, i.e. the
/// pattern ended in `$`, which is not part of `pattern` here). `wildcard` says whether the
/// pattern holds a `*`, as found once at parse time.
///
/// The pattern is cut at each `*` into literal segments. The first must start the path;
/// each later one is found at its leftmost place after the previous one. Leftmost is
/// always safe: a segment found earlier leaves more of the path for the rest, so if any
/// assignment of segments works, the greedy one does. With `$`, the last segment must end
/// the path instead, which only needs it to fit after the others. Each search starts where
/// the last one stopped, so the cost is one pass over the path per pattern.
///
/// A literal pattern, most rules', is compared inline, where a check tries its rules: in
/// a call, a check near the corpus's median took 720 instructions against 705.
#[inline(always)]
pub(crate) fn matches(pattern: &[u8], wildcard: bool, anchored: bool, path: &[u8]) -> bool {
    match (wildcard, anchored) {
        (false, false) => crate::simd::swar::starts_with(path, pattern),
        (false, true) => crate::simd::swar::same(path, pattern),
        (true, _) => matches_wildcard(pattern, anchored, path),
    }
}

/// [`matches`] for a pattern that holds a `*`.
#[inline(never)]
fn matches_wildcard(pattern: &[u8], anchored: bool, path: &[u8]) -> bool {
    let Some(star) = crate::simd::find::find(pattern, b'*') else {
        return matches(pattern, false, anchored, path);
    };
    let (first, mut rest) = (&pattern[..star], &pattern[star + 1..]);
    // Not `swar::starts_with` here: inlined as well, it pushed `find` out of line.
    if !path.starts_with(first) {
        return false;
    }
    let mut pos = first.len();
    loop {
        match crate::simd::find::find(rest, b'*') {
            Some(next) => {
                let segment = &rest[..next];
                match find(&path[pos..], segment) {
                    Some(at) => pos += at + segment.len(),
                    None => return false,
                }
                rest = &rest[next + 1..];
            }
            None => {
                return if anchored {
                    path.len() - pos >= rest.len() && path.ends_with(rest)
                } else {
                    find(&path[pos..], rest).is_some()
                };
            }
        }
    }
}

/// How many octet pairs of a wildcard pattern are kept to rule it out quickly.
const PAIRS: usize = 3;
/// The bits of a pair's hash: a path's pairs form a set of 2^10 bits.
const PAIR_BITS: u32 = 10;
/// An unused slot of a pattern's pairs: no pair hashes to 0, and every path "has" it.
const NO_PAIR: u16 = 0;

/// What rules a pattern out before it is compared with a path, in 64 bits. A literal
/// pattern keeps its [`tail`]: the path's octets where a match puts the pattern's last
/// eight must be those. A wildcard pattern keeps its octet mask ([`byte_mask`]) folded
/// to 32 bits (octet % 32) and, above it, three of its octet pairs ([`last_pairs`]),
/// which still tell in long paths, where masks saturate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Filter(u64);

impl Filter {
    /// The filter of `pattern`; `across_query` says it has [`query_escapes`](crate::across_query::query_escapes).
    /// A literal pattern's, most rules', is inlined into the parser's loop: called, it
    /// cost the corpus parse 17 M more instructions (1.7%).
    #[inline(always)]
    pub fn of(pattern: &[u8], wildcard: bool, across_query: bool) -> Filter {
        if wildcard {
            Filter::of_wildcard(pattern, across_query)
        } else {
            Filter(tail(pattern))
        }
    }

    /// [`Filter::of`] a wildcard pattern.
    #[inline(never)]
    fn of_wildcard(pattern: &[u8], across_query: bool) -> Filter {
        let mask = byte_mask(pattern);
        if across_query {
            // Such an escape may match one octet, so it is left out of the filter as a
            // `*` is: the filter asks only for what every path the pattern matches holds.
            let blanked = blank_query_escapes(pattern);
            return Filter(Filter::of_wildcard(&blanked, false).0 | ACROSS_QUERY);
        }
        let pairs = last_pairs(pattern)
            .iter()
            .enumerate()
            .fold(0, |all, (i, &h)| {
                all | u64::from(h) << (PAIR_BITS * i as u32)
            });
        Filter(u64::from(fold(mask)) | pairs << 32)
    }

    /// Whether a wildcard pattern's filter says it has [`query_escapes`](crate::across_query::query_escapes), and so is
    /// matched by [`matches_across_query`](crate::across_query::matches_across_query).
    pub fn across_query(self) -> bool {
        self.0 & ACROSS_QUERY != 0
    }

    /// Whether a path with octet mask `path_mask` has every octet a wildcard pattern
    /// needs.
    pub fn octets_in(self, path_mask: u64) -> bool {
        self.0 as u32 & !fold(path_mask) == 0
    }

    /// Whether `path` may start with a literal pattern of `len` octets: it is long
    /// enough, and its octets where the pattern's [`tail`] would be are the tail.
    #[inline(always)]
    pub fn may_start(self, path: &[u8], len: usize) -> bool {
        if len > path.len() {
            return false;
        }
        match path.first_chunk::<8>() {
            // The eight octets ending where the pattern would, or the first eight, of
            // which a short pattern's are the low ones.
            Some(&first) => {
                let word = match path[..len].last_chunk::<8>() {
                    Some(&last) => u64::from_le_bytes(last),
                    None => u64::from_le_bytes(first),
                };
                let kept = !u64::MAX.checked_shl(8 * len as u32).unwrap_or(0);
                (word ^ self.0) & kept == 0
            }
            None => tail(&path[..len]) == self.0,
        }
    }

    /// A wildcard pattern's pairs.
    pub fn pairs(self) -> [u16; PAIRS] {
        let slot = |i: u32| (self.0 >> (32 + PAIR_BITS * i)) as u16 & ((1 << PAIR_BITS) - 1);
        [slot(0), slot(1), slot(2)]
    }
}

/// A literal pattern's last eight octets in 64 bits, or a shorter pattern's octets all,
/// zero above them. Compared with a path's octets where a match puts them, it rules
/// out, by one comparison, nearly every literal pattern the path does not start with,
/// even among the thousands of a site's rules that share a prefix and most octets.
#[inline(always)]
fn tail(bytes: &[u8]) -> u64 {
    match bytes.last_chunk::<8>() {
        Some(last) => u64::from_le_bytes(*last),
        None => bytes
            .iter()
            .rev()
            .fold(0, |word, &b| word << 8 | u64::from(b)),
    }
}

/// A 64-bit octet mask folded to 32 bits: bit `octet % 32`.
fn fold(mask: u64) -> u32 {
    mask as u32 | (mask >> 32) as u32
}

/// The last [`PAIRS`] octet pairs of a wildcard pattern's literal segments, hashed, for
/// [`PairSet::contains_all`]: a long path saturates the octet mask, and pairs still
/// tell. Each hash is kept once; unused slots hold [`NO_PAIR`].
///
/// A site's wildcard patterns that differ at all mostly differ towards their end
/// (`*/bopa-disposiciones?p_p_id=…&…_id=N`), so the last pairs are those that tell
/// them apart. They were once chosen among the last 64 octets by rarity in URLs (`/`,
/// then lower case, then digits and capitals, then the rest): the corpus parse took 4.7%
/// more time that way, and the slowest corpus query (06970.txt, 477 such patterns) 14 µs
/// against 2.6 µs with the last pairs.
fn last_pairs(pattern: &[u8]) -> [u16; PAIRS] {
    let mut kept = [NO_PAIR; PAIRS];
    let mut count = 0;
    for pair in pattern.windows(2).rev() {
        // A pair holding `*` is not in every path the pattern matches.
        if pair.contains(&b'*') {
            continue;
        }
        let hash = pair_hash(pair[0], pair[1]);
        if kept[..count].contains(&hash) {
            continue;
        }
        kept[count] = hash;
        count += 1;
        if count == PAIRS {
            break;
        }
    }
    kept
}

/// A pair's hash, in 1..2^PAIR_BITS (0 is [`NO_PAIR`]).
fn pair_hash(a: u8, b: u8) -> u16 {
    let h = u32::from(a).wrapping_mul(0x9E37_79B1) ^ u32::from(b).wrapping_mul(0x85EB_CA77);
    ((h >> (32 - PAIR_BITS)) as u16).max(1)
}

/// The bit of a wildcard pattern's filter that [`Filter::across_query`] reads (its mask
/// and pairs take the 62 below).
const ACROSS_QUERY: u64 = 1 << 63;

/// The octet pairs of a path as a set of 2^[`PAIR_BITS`] bits (hashed), built once per
/// check and only for long paths that wildcard patterns have to be searched in.
pub(crate) struct PairSet([u64; 1 << (PAIR_BITS - 6)]);

impl PairSet {
    /// Paths shorter than this are searched directly: building the set would cost more.
    pub const WORTH_IT: usize = 64;

    pub fn of(path: &[u8]) -> PairSet {
        let mut bits = [0u64; 1 << (PAIR_BITS - 6)];
        bits[0] = 1 << NO_PAIR;
        for w in path.windows(2) {
            let h = usize::from(pair_hash(w[0], w[1]));
            bits[h >> 6] |= 1 << (h & 63);
        }
        PairSet(bits)
    }

    /// Whether every pair of a pattern occurs in the path (always, for unused slots).
    pub fn contains_all(&self, pairs: &[u16; PAIRS]) -> bool {
        pairs.iter().all(|&h| {
            let h = usize::from(h);
            self.0[h >> 6] & (1 << (h & 63)) != 0
        })
    }
}

/// The leftmost occurrence of `needle`. Paths are short, so finding the needle's first
/// octet and comparing beats building a substring searcher for every call.
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    let (&first, rest) = match needle.split_first() {
        Some(split) => split,
        None => return Some(0),
    };
    let last_start = haystack.len().checked_sub(needle.len())?;
    memchr::memchr_iter(first, &haystack[..=last_start])
        .find(|&at| haystack[at + 1..].starts_with(rest))
}

#[cfg(test)]
mod tests {
    use super::{byte_mask, last_pairs, matches, pair_hash, Filter, PairSet, NO_PAIR, PAIRS};

    fn m(pattern: &str, path: &str) -> bool {
        let (pattern, anchored) = match pattern.strip_suffix('$') {
            Some(p) => (p, true),
            None => (pattern, false),
        };
        matches(
            pattern.as_bytes(),
            pattern.contains('*'),
            anchored,
            path.as_bytes(),
        )
    }

    #[test]
    fn plain_patterns_match_prefixes() {
        assert!(m("/fish", "/fish"));
        assert!(m("/fish", "/fish.html"));
        assert!(m("/fish", "/fishheads/yummy.html"));
        assert!(!m("/fish", "/Fish.asp"));
        assert!(!m("/fish", "/catfish"));
    }

    #[test]
    fn star_matches_any_run_including_none() {
        assert!(m("/*.php", "/index.php"));
        assert!(m("/*.php", "/folder/filename.php?parameters"));
        assert!(!m("/*.php", "/windows.PHP"));
        assert!(m("/fish*", "/fish"));
        assert!(m("/**a", "/xa"));
    }

    #[test]
    fn dollar_anchors_the_end() {
        assert!(m("/*.php$", "/filename.php"));
        assert!(!m("/*.php$", "/filename.php?parameters"));
        assert!(!m("/*.php$", "/filename.php5"));
        assert!(m("/fish$", "/fish"));
        assert!(!m("/fish$", "/fish/"));
        assert!(m("/a*$", "/abc"));
    }

    #[test]
    fn anchored_last_segment_must_not_overlap_earlier_ones() {
        // "/ab" then "b" at the end: "/ab" has only one b.
        assert!(!m("/a*b*b$", "/ab"));
        assert!(m("/a*b*b$", "/abb"));
    }

    #[test]
    fn dollar_inside_a_pattern_is_a_literal() {
        assert!(m("/a$b", "/a$b"));
        assert!(!m("/a$b", "/ab"));
    }

    #[test]
    fn masks_rule_out_patterns_with_absent_octets() {
        let path = byte_mask(b"/a/b");
        assert_eq!(byte_mask(b"/*a") & !path, 0);
        assert_ne!(byte_mask(b"/c") & !path, 0);
    }

    #[test]
    fn pair_sets_rule_out_patterns_whose_pairs_are_absent() {
        let path = PairSet::of(b"/bopa-disposiciones?p_p_id=20/03/2017");
        let pairs = |pattern: &[u8]| Filter::of(pattern, true, false).pairs();
        assert!(path.contains_all(&pairs(b"*/bopa-dis*2017")));
        assert!(!path.contains_all(&pairs(b"*/bopa/2011/05/23/2011-10276.pdf")));
        // Pairs never straddle a wildcard.
        assert!(path.contains_all(&pairs(b"/b*z")));
    }

    #[test]
    fn the_last_pairs_outside_wildcards_are_kept_once_each() {
        let hash = |pair: &[u8; 2]| pair_hash(pair[0], pair[1]);
        assert_eq!(
            last_pairs(b"/*.pdf?=*"),
            [hash(b"?="), hash(b"f?"), hash(b"df")]
        );
        assert_eq!(last_pairs(b"/*abab"), [hash(b"ab"), hash(b"ba"), NO_PAIR]);
        assert_eq!(last_pairs(b"/*a*b"), [NO_PAIR; PAIRS]);
        assert_eq!(last_pairs(b""), [NO_PAIR; PAIRS]);
    }

    proptest::proptest! {
        /// Every path a wildcard pattern matches holds the pattern's pairs: they never
        /// rule out a match.
        #[test]
        fn a_matching_path_holds_the_pairs(
            pattern in proptest::collection::vec(proptest::sample::select(b"/ab*".to_vec()), 0..30),
            fills in proptest::collection::vec(proptest::collection::vec(proptest::sample::select(b"/abc".to_vec()), 0..4), 30),
        ) {
            let mut path = Vec::new();
            for (&octet, fill) in pattern.iter().zip(&fills) {
                if octet == b'*' {
                    path.extend(fill);
                } else {
                    path.push(octet);
                }
            }
            proptest::prop_assert!(matches(&pattern, pattern.contains(&b'*'), false, &path));
            let pairs = Filter::of(&pattern, true, false).pairs();
            proptest::prop_assert!(PairSet::of(&path).contains_all(&pairs));
        }
    }

    #[test]
    fn wildcard_filters_fold_the_mask_and_keep_it_sound() {
        let path = byte_mask(b"/a/b");
        assert!(Filter::of(b"/*a", true, false).octets_in(path));
        assert!(!Filter::of(b"/*c", true, false).octets_in(path));
        // `!` (33) and `A` (65) share bit 1 once folded: a false maybe, never a false no.
        assert!(Filter::of(b"/*!", true, false).octets_in(byte_mask(b"/A")));
    }

    #[test]
    fn literal_filters_read_the_path_where_the_pattern_would_end() {
        let may_start = |pattern: &[u8], path: &[u8]| {
            Filter::of(pattern, false, false).may_start(path, pattern.len())
        };
        let long = b"/catalog/product/view/id/";
        assert!(may_start(long, b"/catalog/product/view/id/12"));
        // A shared prefix and the same octets do not pass: the last eight differ.
        assert!(!may_start(long, b"/catalog/product/list/id/12"));
        assert!(!may_start(long, b"/catalog/product/view/i"));
        // Short patterns are told apart exactly.
        assert!(may_start(b"/a", b"/a/b"));
        assert!(!may_start(b"/a", b"/b/a"));
        assert!(may_start(b"/admin", b"/admin/"));
        assert!(!may_start(b"/admin", b"/admln/"));
        assert!(may_start(b"", b"/"));
    }

    proptest::proptest! {
        /// A literal filter never rules out a path the pattern starts, and for patterns
        /// of up to eight octets it rules out every other.
        #[test]
        fn a_literal_filter_passes_exactly_the_paths_it_may_start(
            pattern in proptest::collection::vec(proptest::sample::select(b"/ab%?".to_vec()), 0..20),
            path in proptest::collection::vec(proptest::sample::select(b"/ab%?".to_vec()), 0..24),
        ) {
            let filter = Filter::of(&pattern, false, false);
            let starts = path.starts_with(&pattern);
            let passes = filter.may_start(&path, pattern.len());
            proptest::prop_assert!(passes || !starts);
            if pattern.len() <= 8 {
                proptest::prop_assert_eq!(passes, starts);
            }
        }
    }

    #[test]
    fn empty_pattern_matches_as_a_prefix() {
        assert!(m("", "/anything"));
        assert!(!m("$", "/"));
    }
}
