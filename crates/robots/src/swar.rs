//! Finding octets in short byte strings, and comparing them, eight at a time in a `u64`
//! ("SIMD within a register"): for a host or a rule's value, a call into a vector search
//! or `memcmp` costs more.

const LOW: u64 = u64::from_ne_bytes([0x01; 8]);
const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);

/// Input shorter than this is searched faster here than by `memchr`, whose vector search
/// pays for itself only on longer input.
const SHORT: usize = 64;

/// Where `text` first holds `octet`: eight octets at a time in short text, by vector
/// search in long text.
pub(crate) fn find(text: &[u8], octet: u8) -> Option<usize> {
    if text.len() < SHORT {
        find_any(text, [octet])
    } else {
        memchr::memchr(octet, text)
    }
}

/// Where `bytes` first holds one of `octets`, however long `bytes` is ([`find`] leaves
/// long input to `memchr`).
pub(crate) fn find_any<const N: usize>(bytes: &[u8], octets: [u8; N]) -> Option<usize> {
    let mut words = bytes.chunks_exact(8);
    for (k, chunk) in words.by_ref().enumerate() {
        let word = u64::from_le_bytes(chunk.try_into().ok()?);
        let hits = octets.iter().fold(0, |hits, &o| hits | equal(word, o));
        if hits != 0 {
            return Some(k * 8 + hits.trailing_zeros() as usize / 8);
        }
    }
    let tail = words.remainder();
    tail.iter()
        .position(|b| octets.contains(b))
        .map(|i| bytes.len() - tail.len() + i)
}

/// Whether `text` starts with `prefix`, compared a word at a time: a pattern is short,
/// and a call into `memcmp` costs more than the comparison itself.
#[inline]
pub(crate) fn starts_with(text: &[u8], prefix: &[u8]) -> bool {
    text.get(..prefix.len())
        .is_some_and(|head| same(head, prefix))
}

/// Whether two strings are equal: eight octets at a time, the last step reading the
/// last eight again, and strings under eight octets as two overlapping halves (or their
/// first, middle and last octets), so that no length takes a loop over single octets.
#[inline]
pub(crate) fn same(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if n < 8 {
        let half =
            |s: &[u8], at: usize| s[at..at + 4].first_chunk().map(|w| u32::from_le_bytes(*w));
        return match n {
            0 => true,
            1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
            _ => half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4),
        };
    }
    let word = |s: &[u8], at: usize| s[at..at + 8].first_chunk().map(|w| u64::from_le_bytes(*w));
    let mut at = 0;
    while at + 8 < n {
        if word(a, at) != word(b, at) {
            return false;
        }
        at += 8;
    }
    word(a, n - 8) == word(b, n - 8)
}

/// The high bit of each octet of `word` that equals `octet`, exact for the lowest such
/// octet (a borrow can only set bits above a true match), which is all that is read.
fn equal(word: u64, octet: u8) -> u64 {
    let diff = word ^ (LOW * u64::from(octet));
    diff.wrapping_sub(LOW) & !diff & HIGH
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// Eight octets at a time (and `memchr` on long text) find what one at a time
        /// finds, wherever it falls.
        #[test]
        fn finds_the_first_of_any(
            before in proptest::collection::vec(
                proptest::sample::select(b"a.:-0\x00\x7F\xFF\x2E\x80".to_vec()),
                0..90,
            ),
            after in proptest::collection::vec(
                proptest::sample::select(b"/?;#a\x00\xFF".to_vec()),
                0..12,
            ),
        ) {
            let s = [before, after].concat();
            let set = *b"/?;#";
            proptest::prop_assert_eq!(find_any(&s, set), s.iter().position(|b| set.contains(b)));
            proptest::prop_assert_eq!(find_any(&s, [b':']), s.iter().position(|&b| b == b':'));
            proptest::prop_assert_eq!(find(&s, b'#'), s.iter().position(|&b| b == b'#'));
        }

        /// Word-wise comparison agrees with the slice's own at every length, wherever
        /// two strings first differ.
        #[test]
        fn compares_as_slices_do(
            a in proptest::collection::vec(proptest::sample::select(b"ab".to_vec()), 0..40),
            b in proptest::collection::vec(proptest::sample::select(b"ab".to_vec()), 0..40),
        ) {
            proptest::prop_assert_eq!(same(&a, &b), a == b);
            proptest::prop_assert_eq!(starts_with(&a, &b), a.starts_with(&b));
            proptest::prop_assert!(same(&a, &a.clone()));
            proptest::prop_assert!(starts_with(&a, &a[..a.len() / 2]));
        }
    }
}
