//! Finding octets in short byte strings eight at a time in a `u64` ("SIMD within a
//! register"): for a host or a rule's value, a call into a vector search costs more.

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
    }
}
