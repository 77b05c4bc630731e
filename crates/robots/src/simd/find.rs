//! Finding the first of a few octets in a short byte string (a host, a path, a rule's
//! value): sixteen octets at a time with SSE2, where a call into `memchr` costs more.

use crate::octets::must_escape;

/// Input shorter than this is searched faster here than by `memchr`, whose vector search
/// pays for itself only on longer input.
const SHORT: usize = 64;

/// Where `text` first holds `octet`: here in short text, by `memchr` in long text.
pub(crate) fn find(text: &[u8], octet: u8) -> Option<usize> {
    if text.len() < SHORT {
        find_any(text, [octet])
    } else {
        memchr::memchr(octet, text)
    }
}

/// Where `bytes` first holds one of `octets`, however long `bytes` is ([`find`] leaves
/// long input to `memchr`).
#[inline(always)]
pub(crate) fn find_any<const N: usize>(bytes: &[u8], octets: [u8; N]) -> Option<usize> {
    first(bytes, octets, false)
}

/// Where `bytes` first holds one of `octets` or an octet that RFC 9309 §2.2.2 has
/// percent-encoded ([`must_escape`]: a control, space or non-ASCII): where a run of
/// octets that normalising passes on whole ends.
#[inline(always)]
pub(crate) fn find_escaped_or_any<const N: usize>(bytes: &[u8], octets: [u8; N]) -> Option<usize> {
    first(bytes, octets, true)
}

/// Where `bytes` first holds one of `octets`, or with `escaped` an octet that
/// [`must_escape`]. Blocks of sixteen octets are compared at once; the last block
/// overlaps the one before, and input under sixteen octets is loaded as two overlapping
/// halves. Always inlined, so that `octets` and `escaped` are constants: called, it cost
/// a check near the corpus's median 72 instructions, and the eight octets at a time in a
/// `u64` it replaced cost 80 (inlined, 765 against 808 in all).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn first<const N: usize>(bytes: &[u8], octets: [u8; N], escaped: bool) -> Option<usize> {
    use crate::simd::halves::overlapping_halves;
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_cmplt_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8, _mm_setzero_si128,
    };
    let n = bytes.len();
    if n < 4 {
        return bytes
            .iter()
            .position(|&b| octets.contains(&b) || (escaped && must_escape(b)));
    }
    // SAFETY: SSE2 is part of the x86-64 baseline, so the intrinsics exist on every
    // processor this runs on. Each load reads the 16 octets of a `&[u8; 16]`, and allows
    // any alignment.
    unsafe {
        let eq = |v: __m128i, octet: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(octet as i8));
        // A bit per lane that holds an octet looked for.
        let hits = |v: __m128i| {
            let any = octets
                .iter()
                .fold(_mm_setzero_si128(), |any, &o| _mm_or_si128(any, eq(v, o)));
            let any = if escaped {
                // Signed, below 0x21 is 0x00–0x20 and 0x80–0xFF; with 0x7F, that is
                // `must_escape`.
                let escapes = _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x21)), eq(v, 0x7F));
                _mm_or_si128(any, escapes)
            } else {
                any
            };
            _mm_movemask_epi8(any) as u32
        };
        let load = |block: &[u8; 16]| _mm_loadu_si128(block.as_ptr().cast());
        let Some(last) = bytes.last_chunk::<16>() else {
            // Lanes `half..2 * half` hold the last `half` octets, from `n - half` on.
            let (lanes, half) = overlapping_halves(bytes);
            let found = hits(lanes) & ((1 << (2 * half)) - 1);
            let (lane, half) = (found.trailing_zeros() as usize, half as usize);
            return (found != 0).then(|| {
                if lane < half {
                    lane
                } else {
                    lane + n - 2 * half
                }
            });
        };
        let mut at = 0;
        while let Some(block) = bytes[at..].first_chunk::<16>() {
            let found = hits(load(block));
            if found != 0 {
                return Some(at + found.trailing_zeros() as usize);
            }
            at += 16;
        }
        // The last block's lanes from `16 - (n - at)` on hold the octets not yet searched.
        let found = hits(load(last)) >> (16 - (n - at));
        (found != 0).then(|| at + found.trailing_zeros() as usize)
    }
}

/// [`first`] elsewhere than on x86-64: one octet at a time.
#[cfg(not(target_arch = "x86_64"))]
fn first<const N: usize>(bytes: &[u8], octets: [u8; N], escaped: bool) -> Option<usize> {
    bytes
        .iter()
        .position(|&b| octets.contains(&b) || (escaped && must_escape(b)))
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// Sixteen octets at a time (and `memchr` on long text) find what one at a time
        /// finds, wherever it falls: in a whole block, the overlapping last one, either
        /// half of a short string.
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
            proptest::prop_assert_eq!(
                find_escaped_or_any(&s, [b'?']),
                s.iter().position(|&b| b == b'?' || must_escape(b))
            );
        }
    }

    #[test]
    fn finds_at_every_place_of_every_length() {
        for n in 0..40 {
            for at in 0..n {
                let mut s = vec![b'a'; n];
                s[at] = b'?';
                if at + 2 < n {
                    s[at + 2] = b'/';
                }
                assert_eq!(find_any(&s, *b"/?;#"), Some(at), "{n} octets, at {at}");
            }
            assert_eq!(find_any(&vec![b'a'; n], *b"/?;#"), None, "{n} octets");
        }
    }
}
