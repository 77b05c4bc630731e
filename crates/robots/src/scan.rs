//! Classifying a body's octets 64 at a time into bit masks of line ends, colons and `#`:
//! one vector pass over the file instead of a search per line for each of them.

/// Which octets of a 64-octet block are line ends (LF or CR), colons and `#`: bit `i` of
/// each mask stands for octet `i`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Marks {
    pub ends: u64,
    pub colons: u64,
    pub hashes: u64,
}

/// The octets of a block the masks stand for.
pub(crate) const BLOCK: usize = 64;

impl Marks {
    /// The marks of the block of `data` that starts at `at` (a multiple of [`BLOCK`]);
    /// past the end of `data` there are none.
    pub fn of(data: &[u8], at: usize) -> Marks {
        match data.get(at..).and_then(<[u8]>::first_chunk::<BLOCK>) {
            Some(block) => classify(block),
            None => {
                let mut block = [0; BLOCK];
                let rest = data.get(at..).unwrap_or_default();
                block[..rest.len()].copy_from_slice(rest);
                classify(&block)
            }
        }
    }

    /// Adds the marks of a chunk of the block, whose first octet is octet `shift`: how
    /// the vector classifiers put their chunks together.
    #[cfg(target_arch = "x86_64")]
    fn add(&mut self, shift: u32, ends: u64, colons: u64, hashes: u64) {
        self.ends |= ends << shift;
        self.colons |= colons << shift;
        self.hashes |= hashes << shift;
    }
}

/// With AVX2, where the processor has it (nearly every x86-64 one in use): half the
/// compares and bit gathers of SSE2, and 21 M fewer instructions over the corpus.
/// Otherwise SSE2, which every x86-64 processor has. Either way, three compares and a
/// bit gather per class cost less than the `memchr` call per line they replace (see
/// README "Performance").
#[cfg(target_arch = "x86_64")]
fn classify(block: &[u8; BLOCK]) -> Marks {
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, as just checked (the answer is cached).
        unsafe { classify_avx2(block) }
    } else {
        classify_sse2(block)
    }
}

/// [`classify`] 32 octets at a time.
///
/// # Safety
///
/// The processor must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn classify_avx2(block: &[u8; BLOCK]) -> Marks {
    use std::arch::x86_64::{
        _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_or_si256,
        _mm256_set1_epi8,
    };
    let mut marks = Marks::default();
    for (k, chunk) in block.chunks_exact(32).enumerate() {
        // SAFETY: the caller has checked for AVX2; the load reads the 32 octets of
        // `chunk`, which `chunks_exact(32)` guarantees are there, and allows any
        // alignment.
        let (ends, colons, hashes) = unsafe {
            let v = _mm256_loadu_si256(chunk.as_ptr().cast());
            let eq = |octet: u8| _mm256_cmpeq_epi8(v, _mm256_set1_epi8(octet as i8));
            let bits = |m| u64::from(_mm256_movemask_epi8(m) as u32);
            (
                bits(_mm256_or_si256(eq(b'\n'), eq(b'\r'))),
                bits(eq(b':')),
                bits(eq(b'#')),
            )
        };
        marks.add(32 * k as u32, ends, colons, hashes);
    }
    marks
}

/// [`classify`] 16 octets at a time.
#[cfg(target_arch = "x86_64")]
fn classify_sse2(block: &[u8; BLOCK]) -> Marks {
    use std::arch::x86_64::{
        _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };
    let mut marks = Marks::default();
    for (k, chunk) in block.chunks_exact(16).enumerate() {
        // SAFETY: SSE2 is part of the x86-64 baseline, so the intrinsics exist on every
        // processor this runs on; the load reads the 16 octets of `chunk`, which
        // `chunks_exact(16)` guarantees are there, and allows any alignment.
        let (ends, colons, hashes) = unsafe {
            let v = _mm_loadu_si128(chunk.as_ptr().cast());
            let eq = |octet: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(octet as i8));
            let bits = |m| u64::from(_mm_movemask_epi8(m) as u16);
            (
                bits(_mm_or_si128(eq(b'\n'), eq(b'\r'))),
                bits(eq(b':')),
                bits(eq(b'#')),
            )
        };
        marks.add(16 * k as u32, ends, colons, hashes);
    }
    marks
}

#[cfg(not(target_arch = "x86_64"))]
fn classify(block: &[u8; BLOCK]) -> Marks {
    one_at_a_time(block)
}

/// The marks found one octet at a time: elsewhere than x86-64, and as the reference the
/// vector version is tested against.
#[cfg(any(test, not(target_arch = "x86_64")))]
fn one_at_a_time(block: &[u8; BLOCK]) -> Marks {
    let mut marks = Marks::default();
    for (i, &b) in block.iter().enumerate() {
        let bit = |on: bool| u64::from(on) << i;
        marks.ends |= bit(b == b'\n' || b == b'\r');
        marks.colons |= bit(b == b':');
        marks.hashes |= bit(b == b'#');
    }
    marks
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// Sixteen or thirty-two at a time finds what one at a time finds, in every lane.
        #[test]
        fn vector_and_one_at_a_time_agree(
            octets in proptest::collection::vec(
                proptest::sample::select(b"\n\r:#a \x00\xFF\x0A\x3A\x23\xA3\xBA\x8D".to_vec()),
                BLOCK,
            ),
        ) {
            let block: [u8; BLOCK] = octets.try_into().unwrap();
            let want = one_at_a_time(&block);
            proptest::prop_assert_eq!(classify(&block), want);
            #[cfg(target_arch = "x86_64")]
            {
                proptest::prop_assert_eq!(classify_sse2(&block), want);
                if std::is_x86_feature_detected!("avx2") {
                    // SAFETY: the processor has AVX2, as just checked.
                    proptest::prop_assert_eq!(unsafe { classify_avx2(&block) }, want);
                }
            }
        }
    }

    #[test]
    fn the_last_block_is_padded_with_nothing_marked() {
        let data = b"a:b#c\r\n";
        let marks = Marks::of(data, 0);
        assert_eq!(marks.colons, 1 << 1);
        assert_eq!(marks.hashes, 1 << 3);
        assert_eq!(marks.ends, 1 << 5 | 1 << 6);
        assert_eq!(Marks::of(data, BLOCK), Marks::default());
    }
}
