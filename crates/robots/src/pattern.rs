//! Matching a path against a rule's pattern: `*` for any run of octets, a final `$`
//! for the end of the path (RFC 9309 §2.2.3), never backtracking: in time linear in the
//! path, or path × pattern for the rare patterns [`matches_across_query`](crate::across_query::matches_across_query) matches.

use crate::across_query::blank_query_escapes;

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
pub(crate) fn matches(pattern: &[u8], wildcard: bool, anchored: bool, path: &[u8]) -> bool {
    // Only a wildcard pattern is searched for its `*`: most patterns are literal.
    let star = match wildcard.then(|| crate::swar::find(pattern, b'*')).flatten() {
        Some(star) => star,
        None if anchored => return crate::swar::same(path, pattern),
        None => return crate::swar::starts_with(path, pattern),
    };
    let (first, mut rest) = (&pattern[..star], &pattern[star + 1..]);
    // Not `swar::starts_with` here: inlined as well, it pushed `find` out of line.
    if !path.starts_with(first) {
        return false;
    }
    let mut pos = first.len();
    loop {
        match crate::swar::find(rest, b'*') {
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

/// A 64-bit summary of which octets occur in `bytes` (each octet sets bit `octet % 64`),
/// wildcards left out. A pattern can only match a path whose mask covers its own, so
/// one AND rules out most patterns before any comparison. Always inlined: left to the
/// compiler, it was once called out of line from the parse, at 10 M more instructions.
#[inline(always)]
pub(crate) fn byte_mask(bytes: &[u8]) -> u64 {
    let bit = |b: &u8| OCTET_BIT[usize::from(*b)];
    let eight = |mask: u64, word: &[u8]| word.iter().fold(mask, |m, b| m | bit(b));
    // Always eight lookups a step, since an OR does not mind an octet read twice: the
    // last step reads the last eight octets again, and a short value its last octet.
    // A loop over a remainder of 0 to 7 octets branched on lengths, which vary from
    // value to value and so kept being mispredicted.
    match bytes.last_chunk::<8>() {
        Some(last) => eight(bytes.chunks_exact(8).fold(0, eight), last),
        None => match bytes.len().checked_sub(1) {
            Some(end) => eight(0, &std::array::from_fn::<u8, 8, _>(|i| bytes[i.min(end)])),
            None => 0,
        },
    }
}

/// Each octet's bit in a [`byte_mask`] (none for `*`), looked up rather than shifted:
/// variable shifts vectorise poorly.
static OCTET_BIT: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        if b != b'*' as usize {
            table[b] = 1 << (b % 64);
        }
        b += 1;
    }
    table
};

/// How many octet pairs of a wildcard pattern are kept to rule it out quickly.
pub(crate) const PAIRS: usize = 3;
/// The bits of a pair's hash: a path's pairs form a set of 2^10 bits.
const PAIR_BITS: u32 = 10;
/// An unused slot of a pattern's pairs: no pair hashes to 0, and every path "has" it.
const NO_PAIR: u16 = 0;

/// What rules a pattern out before it is compared with a path, in 64 bits. A literal
/// pattern keeps its octet mask ([`byte_mask`]). A wildcard pattern keeps the mask folded
/// to 32 bits (octet % 32) and, above it, three of its octet pairs ([`pattern_pairs`]),
/// which still tell in long paths, where masks saturate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Filter(u64);

impl Filter {
    /// The filter of `pattern`; `across_query` says it has [`query_escapes`](crate::across_query::query_escapes).
    pub fn of(pattern: &[u8], wildcard: bool, across_query: bool) -> Filter {
        let mask = byte_mask(pattern);
        if !wildcard {
            return Filter(mask);
        }
        if across_query {
            // Such an escape may match one octet, so it is left out of the filter as a
            // `*` is: the filter asks only for what every path the pattern matches holds.
            let blanked = blank_query_escapes(pattern);
            return Filter(Filter::of(&blanked, true, false).0 | ACROSS_QUERY);
        }
        let pairs = pattern_pairs(pattern)
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

    /// Whether a path with octet mask `path_mask` has every octet the pattern needs.
    pub fn octets_in(self, path_mask: u64, wildcard: bool) -> bool {
        if wildcard {
            self.0 as u32 & !fold(path_mask) == 0
        } else {
            self.0 & !path_mask == 0
        }
    }

    /// A wildcard pattern's pairs.
    pub fn pairs(self) -> [u16; PAIRS] {
        let slot = |i: u32| (self.0 >> (32 + PAIR_BITS * i)) as u16 & ((1 << PAIR_BITS) - 1);
        [slot(0), slot(1), slot(2)]
    }
}

/// A 64-bit octet mask folded to 32 bits: bit `octet % 32`.
fn fold(mask: u64) -> u32 {
    mask as u32 | (mask >> 32) as u32
}

/// A pair's hash, in 1..2^PAIR_BITS (0 is [`NO_PAIR`]).
fn pair_hash(a: u8, b: u8) -> u16 {
    let h = u32::from(a).wrapping_mul(0x9E37_79B1) ^ u32::from(b).wrapping_mul(0x85EB_CA77);
    ((h >> (32 - PAIR_BITS)) as u16).max(1)
}

/// The bit of a wildcard pattern's filter that [`Filter::across_query`] reads (its mask
/// and pairs take the 62 below).
const ACROSS_QUERY: u64 = 1 << 63;

/// How rare an octet is in URLs, roughly, plus one: pairs with rare octets rule out more
/// paths, and a pair's score is the sum of its octets' rarities (2 to 8).
static RARITY: [u8; 256] = {
    let mut table = [4u8; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = match b as u8 {
            b'*' => WILDCARD_RARITY,
            b'/' => 1,
            b'a'..=b'z' => 2,
            b'0'..=b'9' | b'A'..=b'Z' => 3,
            _ => 4,
        };
        b += 1;
    }
    table
};

/// The rarity of `*`, so large that a pair holding one sums (wrapping) to 128 or more,
/// which read as a signed octet is below every score: pairs never straddle a wildcard,
/// and one comparison says so.
const WILDCARD_RARITY: u8 = 0xC0;

/// The [`PAIRS`] rarest octet pairs inside the literal segments of a wildcard pattern,
/// hashed, for [`PairSet::contains_all`]; of equally rare pairs, the later ones, since
/// patterns that differ at all tend to differ towards their end. A long path saturates
/// the byte mask; pairs still tell.
fn pattern_pairs(pattern: &[u8]) -> [u16; PAIRS] {
    let mut best = [(0i8, NO_PAIR); PAIRS];
    // The slot to replace next: the one holding the commonest pair kept so far.
    let mut weakest = 0;
    // From the end, a pair replaces a kept one only if it is rarer: of equally rare
    // pairs, the later ones stay, and most pairs cost one comparison.
    for w in pattern.windows(2).rev() {
        let score = RARITY[usize::from(w[0])].wrapping_add(RARITY[usize::from(w[1])]) as i8;
        if score <= best[weakest].0 {
            continue;
        }
        let hash = pair_hash(w[0], w[1]);
        if best.iter().any(|&(_, h)| h == hash) {
            continue;
        }
        best[weakest] = (score, hash);
        weakest = (0..PAIRS).min_by_key(|&i| best[i].0).unwrap_or(0);
    }
    best.map(|(_, hash)| hash)
}

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
    use super::{matches, Filter, PairSet};

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

    proptest::proptest! {
        /// Eight lookups a step, the last step overlapping the others, give each octet's
        /// bit at every length: short, whole steps, and steps and a remainder.
        #[test]
        fn a_mask_has_the_bit_of_every_octet(
            bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..40),
        ) {
            let want = bytes
                .iter()
                .filter(|&&b| b != b'*')
                .fold(0u64, |mask, &b| mask | 1 << (b % 64));
            proptest::prop_assert_eq!(super::byte_mask(&bytes), want);
        }
    }

    #[test]
    fn masks_rule_out_patterns_with_absent_octets() {
        let path = super::byte_mask(b"/a/b");
        assert_eq!(super::byte_mask(b"/*a") & !path, 0);
        assert_ne!(super::byte_mask(b"/c") & !path, 0);
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
    fn wildcard_filters_fold_the_mask_and_keep_it_sound() {
        let path = super::byte_mask(b"/a/b");
        assert!(Filter::of(b"/*a", true, false).octets_in(path, true));
        assert!(!Filter::of(b"/*c", true, false).octets_in(path, true));
        // `!` (33) and `A` (65) share bit 1 once folded: a false maybe, never a false no.
        assert!(Filter::of(b"/*!", true, false).octets_in(super::byte_mask(b"/A"), true));
        assert!(!Filter::of(b"/!", false, false).octets_in(super::byte_mask(b"/A"), false));
    }

    #[test]
    fn empty_pattern_matches_as_a_prefix() {
        assert!(m("", "/anything"));
        assert!(!m("$", "/"));
    }
}
