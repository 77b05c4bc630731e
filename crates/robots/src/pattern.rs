//! Matching a path against a rule's pattern: `*` for any run of octets, a final `$`
//! for the end of the path (RFC 9309 §2.2.3), in time linear in the path, never backtracking.

/// Whether `pattern` matches a prefix of `path` (or all of it when `anchored`, i.e. the
/// pattern ended in `$`, which is not part of `pattern` here). `star` is the index of the
/// pattern's first `*` ([`NO_STAR`] if none), found once at parse time.
///
/// The pattern is cut at each `*` into literal segments. The first must start the path;
/// each later one is found at its leftmost place after the previous one. Leftmost is
/// always safe: a segment found earlier leaves more of the path for the rest, so if any
/// assignment of segments works, the greedy one does. With `$`, the last segment must end
/// the path instead, which only needs it to fit after the others. Each search starts where
/// the last one stopped, so the cost is one pass over the path per pattern.
pub(crate) fn matches(pattern: &[u8], star: u32, anchored: bool, path: &[u8]) -> bool {
    if star == NO_STAR {
        return if anchored {
            path == pattern
        } else {
            path.starts_with(pattern)
        };
    }
    let star = star as usize;
    let (first, mut rest) = (&pattern[..star], &pattern[star + 1..]);
    if !path.starts_with(first) {
        return false;
    }
    let mut pos = first.len();
    loop {
        match memchr::memchr(b'*', rest) {
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
/// one AND rules out most patterns before any comparison.
pub(crate) fn byte_mask(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .filter(|&&b| b != b'*')
        .fold(0, |mask, &b| mask | 1 << (b % 64))
}

/// How many octet pairs of a wildcard pattern are kept to rule it out quickly.
pub(crate) const PAIRS: usize = 4;
/// An unused slot of a pattern's pairs.
const NO_PAIR: u16 = u16::MAX;

fn pair_hash(a: u8, b: u8) -> u16 {
    let h = u32::from(a).wrapping_mul(0x9E37_79B1) ^ u32::from(b).wrapping_mul(0x85EB_CA77);
    (h >> 20) as u16
}

/// How rare an octet is in URLs, roughly: pairs with rare octets rule out more paths.
fn rarity(b: u8) -> u8 {
    match b {
        b'/' => 0,
        b'a'..=b'z' => 1,
        b'0'..=b'9' | b'A'..=b'Z' => 2,
        _ => 3,
    }
}

/// The [`PAIRS`] rarest octet pairs inside the literal segments of a wildcard pattern,
/// hashed, for [`PairSet::contains_all`] (none for a pattern without `*`, which is
/// matched directly). A long path saturates the byte mask; pairs still tell.
pub(crate) fn pattern_pairs(pattern: &[u8]) -> [u16; PAIRS] {
    let mut best = [(0u8, NO_PAIR); PAIRS];
    if memchr::memchr(b'*', pattern).is_none() {
        return best.map(|(_, hash)| hash);
    }
    // The slot to replace next: the one holding the commonest pair kept so far.
    let mut weakest = 0;
    for w in pattern.windows(2).filter(|w| w[0] != b'*' && w[1] != b'*') {
        let score = rarity(w[0]) + rarity(w[1]) + 1;
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

/// The octet pairs of a path as a 4096-bit set (hashed), built once per check and only
/// for long paths that wildcard patterns have to be searched in.
pub(crate) struct PairSet([u64; 64]);

impl PairSet {
    /// Paths shorter than this are searched directly: building the set would cost more.
    pub const WORTH_IT: usize = 64;

    pub fn of(path: &[u8]) -> PairSet {
        let mut bits = [0u64; 64];
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
            h == usize::from(NO_PAIR) || self.0[h >> 6] & (1 << (h & 63)) != 0
        })
    }
}

/// The `star` of a pattern without `*`.
pub(crate) const NO_STAR: u32 = u32::MAX;

/// Where a pattern's first `*` is, as [`matches`] takes it.
pub(crate) fn first_star(pattern: &[u8]) -> u32 {
    memchr::memchr(b'*', pattern).map_or(NO_STAR, |i| i as u32)
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
    use super::{first_star, matches};

    fn m(pattern: &str, path: &str) -> bool {
        let (pattern, anchored) = match pattern.strip_suffix('$') {
            Some(p) => (p, true),
            None => (pattern, false),
        };
        matches(
            pattern.as_bytes(),
            first_star(pattern.as_bytes()),
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
        let path = super::byte_mask(b"/a/b");
        assert_eq!(super::byte_mask(b"/*a") & !path, 0);
        assert_ne!(super::byte_mask(b"/c") & !path, 0);
    }

    #[test]
    fn pair_sets_rule_out_patterns_whose_pairs_are_absent() {
        let path = super::PairSet::of(b"/bopa-disposiciones?p_p_id=20/03/2017");
        assert!(path.contains_all(&super::pattern_pairs(b"*/bopa-dis*2017")));
        assert!(!path.contains_all(&super::pattern_pairs(b"*/bopa/2011/05/23/2011-10276.pdf")));
        // Pairs never straddle a wildcard.
        assert!(path.contains_all(&super::pattern_pairs(b"/b*z")));
    }

    #[test]
    fn empty_pattern_matches_as_a_prefix() {
        assert!(m("", "/anything"));
        assert!(!m("$", "/"));
    }
}
