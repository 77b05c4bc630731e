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

/// Appends to `marks` those of every block of `body`, the last padded with octets that
/// mark nothing, and tells whether every octet of `body` is ASCII: a body that is, as
/// most are, is surely UTF-8, and this pass tells so for one more gather per 32 octets
/// (with AVX-512, one OR per 64), sparing it the validation pass (the corpus parse took
/// 2% less time).
pub(crate) fn mark_body(body: &[u8], marks: &mut Vec<Marks>) -> bool {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx512bw") {
        // SAFETY: the processor has AVX-512 BW, as just checked (the answer is cached).
        return unsafe { mark_body_wide(body, marks) };
    }
    mark_body_narrow(body, marks)
}

/// [`mark_body`] a block at a time with [`classify`].
fn mark_body_narrow(body: &[u8], marks: &mut Vec<Marks>) -> bool {
    let mut high = 0;
    marks.extend(
        body.chunks(BLOCK)
            .map(|chunk| match chunk.first_chunk::<BLOCK>() {
                Some(block) => classify(block, &mut high),
                None => {
                    let mut block = [0; BLOCK];
                    block[..chunk.len()].copy_from_slice(chunk);
                    classify(&block, &mut high)
                }
            }),
    );
    high == 0
}

/// [`mark_body`] with AVX-512 (BW), where the processor has it, 64 octets a step: each
/// class is one compare into a mask register, which is the block's mask as it stands,
/// where AVX2 compares each half and gathers and joins the bits; and the body is one
/// call, not one per block. The corpus parse took 5% less time than with AVX2.
///
/// # Safety
///
/// The processor must have AVX-512 BW.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn mark_body_wide(body: &[u8], marks: &mut Vec<Marks>) -> bool {
    use std::arch::x86_64::{
        _mm512_cmpeq_epi8_mask, _mm512_loadu_si512, _mm512_movepi8_mask, _mm512_or_si512,
        _mm512_set1_epi8, _mm512_setzero_si512,
    };
    marks.reserve(body.len().div_ceil(BLOCK));
    let mut high = _mm512_setzero_si512();
    let mut mark = |block: &[u8; BLOCK]| {
        // SAFETY: the load reads the 64 octets of `block`, and allows any alignment.
        let v = unsafe { _mm512_loadu_si512(block.as_ptr().cast()) };
        high = _mm512_or_si512(high, v);
        let eq = |octet: u8| _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(octet as i8));
        marks.push(Marks {
            ends: eq(b'\n') | eq(b'\r'),
            colons: eq(b':'),
            hashes: eq(b'#'),
        });
    };
    let mut blocks = body.chunks_exact(BLOCK);
    for block in blocks.by_ref().filter_map(<[u8]>::first_chunk::<BLOCK>) {
        mark(block);
    }
    // The last block is copied into one padded with octets that mark nothing. Loading
    // every block with a mask of the octets there are parsed the corpus 2% slower than
    // the AVX2 pass, where this form is 5% faster (masked loads are slow where the lanes
    // left out cross into the next page; why they cost this much here was not pinned
    // down).
    let rest = blocks.remainder();
    if !rest.is_empty() {
        let mut last = [0; BLOCK];
        last[..rest.len()].copy_from_slice(rest);
        mark(&last);
    }
    _mm512_movepi8_mask(high) == 0
}

impl Marks {
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

#[cfg(not(any(
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128")
)))]
fn classify(block: &[u8; BLOCK], high: &mut i32) -> Marks {
    one_at_a_time(block, high)
}

/// [`classify`] 16 octets at a time with WebAssembly's 128-bit SIMD, when the module is
/// built with it (`-C target-feature=+simd128`, as the npm package is): it has no
/// run-time detection, and every engine Node 18 ships has it. The npm package answered
/// every corpus query from the raw files in 15% less time than one octet at a time.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn classify(block: &[u8; BLOCK], high: &mut i32) -> Marks {
    use std::arch::wasm32::{u8x16_bitmask, u8x16_eq, u8x16_splat, v128_load, v128_or};
    let mut marks = Marks::default();
    for (k, chunk) in block.chunks_exact(16).enumerate() {
        // SAFETY: the load reads the 16 octets of `chunk`, which `chunks_exact(16)`
        // guarantees are there; WebAssembly loads allow any alignment.
        let v = unsafe { v128_load(chunk.as_ptr().cast()) };
        *high |= i32::from(u8x16_bitmask(v));
        let eq = |octet: u8| u8x16_eq(v, u8x16_splat(octet));
        let bits = |m| u64::from(u8x16_bitmask(m));
        let shift = 16 * k as u32;
        marks.ends |= bits(v128_or(eq(b'\n'), eq(b'\r'))) << shift;
        marks.colons |= bits(eq(b':')) << shift;
        marks.hashes |= bits(eq(b'#')) << shift;
    }
    marks
}

/// The marks found one octet at a time: elsewhere than x86-64, and as the reference the
/// vector version is tested against.
#[cfg(any(
    test,
    not(any(
        target_arch = "x86_64",
        all(target_arch = "wasm32", target_feature = "simd128")
    ))
))]
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

    /// The marks of `body` found one octet at a time, and whether it is all ASCII.
    fn reference(body: &[u8]) -> (Vec<Marks>, bool) {
        let mut high = 0;
        let marks = body
            .chunks(BLOCK)
            .map(|chunk| {
                let mut block = [0; BLOCK];
                block[..chunk.len()].copy_from_slice(chunk);
                one_at_a_time(&block, &mut high)
            })
            .collect();
        (marks, high == 0)
    }

    proptest::proptest! {
        /// Every way of marking finds what one octet at a time finds, in every lane of
        /// every block, the padded last one too, and tells as it does whether the body
        /// is all ASCII.
        #[test]
        fn vector_and_one_at_a_time_agree(
            octets in proptest::collection::vec(
                proptest::sample::select(b"\n\r:#a \x00\xFF\x0A\x3A\x23\xA3\xBA\x8D".to_vec()),
                0..4 * BLOCK,
            ),
            ascii in proptest::bool::ANY,
        ) {
            // Half the bodies all ASCII: most of the octets above are not.
            let body: Vec<u8> = octets.iter().map(|&b| if ascii { b & 0x7F } else { b }).collect();
            let want = reference(&body);
            proptest::prop_assert_eq!(want.1, body.is_ascii());
            // Marks already there stay; the body's follow them.
            for mark in [mark_body, mark_body_narrow] {
                let mut marks = vec![Marks::default()];
                let all_ascii = mark(&body, &mut marks);
                proptest::prop_assert_eq!((&marks[1..], all_ascii), (&want.0[..], want.1));
            }
            let blocks = body.chunks_exact(BLOCK).filter_map(<[u8]>::first_chunk::<BLOCK>);
            for (block, want) in blocks.zip(&want.0) {
                let mut high = 0;
                proptest::prop_assert_eq!(classify(block, &mut high), *want);
                proptest::prop_assert_eq!(high == 0, block.is_ascii());
                #[cfg(target_arch = "x86_64")]
                {
                    let mut high = 0;
                    proptest::prop_assert_eq!(classify_sse2(block, &mut high), *want);
                    proptest::prop_assert_eq!(high == 0, block.is_ascii());
                    if std::is_x86_feature_detected!("avx2") {
                        let mut high = 0;
                        // SAFETY: the processor has AVX2, as just checked.
                        let avx2 = unsafe { classify_avx2(block, &mut high) };
                        proptest::prop_assert_eq!(avx2, *want);
                        proptest::prop_assert_eq!(high == 0, block.is_ascii());
                    }
                }
            }
        }
    }

    #[test]
    fn the_last_block_is_padded_with_nothing_marked() {
        let mut marks = Vec::new();
        assert!(mark_body(b"a:b#c\r\n", &mut marks));
        assert_eq!(
            marks,
            [Marks {
                ends: 1 << 5 | 1 << 6,
                colons: 1 << 1,
                hashes: 1 << 3,
            }]
        );
        marks.clear();
        assert!(!mark_body("é:".as_bytes(), &mut marks));
        assert_eq!(marks[0].colons, 1 << 2);
        marks.clear();
        assert!(mark_body(b"", &mut marks));
        assert!(marks.is_empty());
    }
}
