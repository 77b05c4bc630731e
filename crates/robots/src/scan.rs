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
    /// past the end of `data` there are none. The top bits of the block's octets are
    /// OR-ed into `high` (in no set order), which so stays zero while every octet read
    /// is ASCII: a body that is all ASCII, as most are, is surely UTF-8, and this pass
    /// tells so at the cost of one more gather per 32 octets, sparing it the validation
    /// pass (the corpus parse took 2% less time).
    pub fn of(data: &[u8], at: usize, high: &mut i32) -> Marks {
        match data.get(at..).and_then(<[u8]>::first_chunk::<BLOCK>) {
            Some(block) => classify(block, high),
            None => {
                let mut block = [0; BLOCK];
                let rest = data.get(at..).unwrap_or_default();
                block[..rest.len()].copy_from_slice(rest);
                classify(&block, high)
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
fn classify(block: &[u8; BLOCK], high: &mut i32) -> Marks {
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, as just checked (the answer is cached).
        unsafe { classify_avx2(block, high) }
    } else {
        classify_sse2(block, high)
    }
}

/// [`classify`] 32 octets at a time.
///
/// # Safety
///
/// The processor must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn classify_avx2(block: &[u8; BLOCK], high: &mut i32) -> Marks {
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
            *high |= _mm256_movemask_epi8(v);
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
fn classify_sse2(block: &[u8; BLOCK], high: &mut i32) -> Marks {
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
            *high |= _mm_movemask_epi8(v);
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
fn classify(block: &[u8; BLOCK], high: &mut i32) -> Marks {
    one_at_a_time(block, high)
}

/// The marks found one octet at a time: elsewhere than x86-64, and as the reference the
/// vector version is tested against.
#[cfg(any(test, not(target_arch = "x86_64")))]
fn one_at_a_time(block: &[u8; BLOCK], high: &mut i32) -> Marks {
    let mut marks = Marks::default();
    for (i, &b) in block.iter().enumerate() {
        *high |= i32::from(b & 0x80);
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
        /// Sixteen or thirty-two at a time finds what one at a time finds, in every lane,
        /// and tells as it does whether the block is all ASCII.
        #[test]
        fn vector_and_one_at_a_time_agree(
            octets in proptest::collection::vec(
                proptest::sample::select(b"\n\r:#a \x00\xFF\x0A\x3A\x23\xA3\xBA\x8D".to_vec()),
                BLOCK,
            ),
            ascii in proptest::bool::ANY,
        ) {
            // Half the blocks all ASCII: most of the octets above are not.
            let block: [u8; BLOCK] =
                std::array::from_fn(|i| if ascii { octets[i] & 0x7F } else { octets[i] });
            let with_high = |classify: &dyn Fn(&mut i32) -> Marks| {
                let mut high = 0;
                (classify(&mut high), high != 0)
            };
            let want = with_high(&|high| one_at_a_time(&block, high));
            proptest::prop_assert_eq!(want.1, !block.is_ascii());
            proptest::prop_assert_eq!(with_high(&|high| classify(&block, high)), want);
            #[cfg(target_arch = "x86_64")]
            {
                proptest::prop_assert_eq!(with_high(&|high| classify_sse2(&block, high)), want);
                if std::is_x86_feature_detected!("avx2") {
                    // SAFETY: the processor has AVX2, as just checked.
                    let avx2 = with_high(&|high| unsafe { classify_avx2(&block, high) });
                    proptest::prop_assert_eq!(avx2, want);
                }
            }
        }
    }

    #[test]
    fn the_last_block_is_padded_with_nothing_marked() {
        let data = b"a:b#c\r\n";
        let mut high = 0;
        let marks = Marks::of(data, 0, &mut high);
        assert_eq!(marks.colons, 1 << 1);
        assert_eq!(marks.hashes, 1 << 3);
        assert_eq!(marks.ends, 1 << 5 | 1 << 6);
        assert_eq!(Marks::of(data, BLOCK, &mut high), Marks::default());
        assert_eq!(high, 0);
        Marks::of("é:".as_bytes(), 0, &mut high);
        assert_ne!(high, 0);
    }
}
